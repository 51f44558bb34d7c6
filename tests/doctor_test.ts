/**
 * doctor's judgements (lib/doctor/checks.ts) on made-up machines: settings files built with install's own
 * merge (and broken by hand), configs resolved from text, and a fake file system of existing paths.
 */
import { deepStrictEqual as assertEquals, match, ok } from "node:assert/strict";
import { formatChecks } from "../lib/doctor/report.ts";
import { resolveConfig } from "../lib/config/resolve.ts";
import type { Config } from "../lib/config/types.ts";
import {
  type Check,
  configChecks,
  databaseChecks,
  duplicateKeywordChecks,
  expandHome,
  type FileFacts,
  mcpChecks,
  mcpServersIn,
  registrationChecks,
  type SettingsFile,
} from "../lib/doctor/checks.ts";
import {
  type Agent,
  AGENTS,
  formatSettings,
  hookCommand,
  layoutOf,
  ourCommand,
  type Scope,
  scopesOf,
  type Settings,
  settingsPath,
  withRegistration,
} from "../lib/install/settings.ts";
import {
  BASH_CONDITIONS,
  CLAUDE_EVENTS,
  config,
  database,
  PAGE_TOOLS_MATCHER,
  readFixture,
  WEB_TOOLS_MATCHER,
} from "./helpers.ts";

// ---- the made-up machine -------------------------------------------------------------------------------

const HOME = "/home/u";
const PROJECT = "/work/p";
const ENV = (name: string) => (name === "HOME" ? HOME : undefined);

/** This docsearch-hook, installed as a binary. */
const BIN = "/opt/bin/docsearch-hook";
const COMMAND = hookCommand([BIN], "linux");
const SELF = ourCommand(COMMAND)!;

/** Another docsearch-hook binary on the same machine. */
const OTHER_BIN = "/usr/local/bin/docsearch-hook";
const OTHER_COMMAND = hookCommand([OTHER_BIN], "linux");

/** This docsearch-hook run from a checkout, as install registers it then. */
const DENO = "/usr/bin/deno";
const CHECKOUT = "/src/docsearch";
const SCRIPT = `${CHECKOUT}/main.ts`;
const SOURCE_COMMAND = hookCommand(
  [DENO, "run", "-A", "--quiet", `--config=${CHECKOUT}/deno.json`, SCRIPT],
  "linux",
);
const SOURCE_SELF = ourCommand(SOURCE_COMMAND)!;

const PATH_DIRS = ["/usr/local/bin", "/usr/bin", "/bin"];

/** A file system holding exactly `existing`; `aliases` maps a symlink to the file it points at. */
function facts(existing: readonly string[], aliases: Record<string, string> = {}): FileFacts {
  const paths = new Set(existing);
  const real = (path: string) => aliases[path] ?? path;
  return {
    exists: (path) => paths.has(path),
    same: (a, b) => real(a) === real(b),
    locate(program) {
      if (program.includes("/")) return paths.has(program) ? program : undefined;
      return PATH_DIRS.map((dir) => `${dir}/${program}`).find((path) => paths.has(path));
    },
  };
}

const pathOf = (agent: Agent, scope: Scope) => settingsPath(agent, scope, ENV, "linux", PROJECT)!;

type Key = `${Agent}/${Scope}`;

/** All the settings files doctor looks at; those not given do not exist. */
function machine(texts: Partial<Record<Key, string | { readError: string }>> = {}): SettingsFile[] {
  return AGENTS.flatMap((agent) =>
    scopesOf(agent).map((scope) => {
      const given = texts[`${agent}/${scope}`];
      const path = pathOf(agent, scope);
      if (given === undefined) return { agent, scope, path };
      return typeof given === "string"
        ? { agent, scope, path, text: given }
        : { agent, scope, path, ...given };
    })
  );
}

/** Someone's own settings: a hook and a setting that are not docsearch-hook's. */
const USERS_OWN: Settings = {
  model: "opus",
  hooks: {
    PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "~/bin/guard.sh" }] }],
    Stop: [{ hooks: [{ type: "command", command: "notify-send done" }] }],
  },
};

/** What `install` writes: the settings with docsearch-hook registered by `command`. */
const registeredSettings = (command: string, agent: Agent = "claude", base: Settings = USERS_OWN) =>
  withRegistration(base, command, agent).settings;

const registered = (command: string, agent: Agent = "claude", base: Settings = USERS_OWN) =>
  formatSettings(registeredSettings(command, agent, base), layoutOf(undefined));

/** An installed file changed by hand. */
function edited(command: string, edit: (settings: Settings) => void, agent: Agent = "claude"): string {
  const settings = structuredClone(registeredSettings(command, agent));
  edit(settings);
  return formatSettings(settings, layoutOf(undefined));
}

/** The docsearch-hook group of an event in an edited file. */
const ourGroup = (settings: Settings, event: string) =>
  settings.hooks![event].find((group) => group.hooks.some((hook) => ourCommand(hook.command ?? "")))!;

/** Every warning and failure says what to do about it. */
function assertFixes(checks: readonly Check[]) {
  for (const check of checks) {
    if (check.status !== "ok") {
      ok(typeof check.fix === "string" && check.fix.trim().length > 0, `no fix: ${JSON.stringify(check)}`);
    }
  }
}

const only = (checks: readonly Check[]): Check => {
  assertEquals(checks.length, 1, JSON.stringify(checks, null, 2));
  assertFixes(checks);
  return checks[0];
};

const named = (checks: readonly Check[], name: string): Check => {
  const found = checks.filter((check) => check.name === name);
  assertEquals(found.length, 1, `one check named "${name}" in ${JSON.stringify(checks, null, 2)}`);
  return found[0];
};

/** The events a message names, as whole words (so "Stop" is not found in "SubagentStop"). */
const eventsNamed = (message: string) =>
  CLAUDE_EVENTS.filter((event) => new RegExp(`\\b${event}\\b`).test(message)).sort();

// ---- registration ------------------------------------------------------------------------------------

Deno.test("registration: one scope registered for every event with this binary is one ok line", () => {
  const check = only(
    registrationChecks(machine({ "claude/user": registered(COMMAND) }), SELF, facts([BIN])),
  );
  assertEquals([check.status, check.name], ["ok", "Claude Code, user scope"]);
  // 9 events, though PreToolUse has two entries.
  match(check.message, /\b9 events\b/);
  ok(check.message.includes(pathOf("claude", "user")), check.message);
});

Deno.test("registration: a registration without anything else in the file is just as fine", () => {
  const check = only(
    registrationChecks(machine({ "claude/project": registered(COMMAND, "claude", {}) }), SELF, facts([BIN])),
  );
  assertEquals([check.status, check.name], ["ok", "Claude Code, project scope"]);
});

Deno.test("registration: this checkout run from source, as install registers it, is ok", () => {
  ok(SOURCE_SELF.script === SCRIPT, JSON.stringify(SOURCE_SELF));
  const check = only(
    registrationChecks(
      machine({ "claude/local": registered(SOURCE_COMMAND) }),
      SOURCE_SELF,
      facts([DENO, SCRIPT]),
    ),
  );
  assertEquals([check.status, check.name], ["ok", "Claude Code, local scope"]);
});

Deno.test("registration: a bare docsearch-hook found on PATH is this binary when it is the same file", () => {
  const bare = hookCommand(["docsearch-hook"], "linux");
  const onPath = "/usr/local/bin/docsearch-hook";
  const same = only(
    registrationChecks(
      machine({ "claude/user": registered(bare) }),
      SELF,
      facts([BIN, onPath], { [onPath]: BIN }),
    ),
  );
  assertEquals(same.status, "ok", same.message);
  const missing = only(registrationChecks(machine({ "claude/user": registered(bare) }), SELF, facts([BIN])));
  assertEquals(missing.status, "fail", missing.message);
});

Deno.test("registration: a registered program that is gone fails, with install for that scope as the fix", () => {
  const project = only(
    registrationChecks(machine({ "claude/project": registered(COMMAND) }), SELF, facts([])),
  );
  assertEquals([project.status, project.name], ["fail", "Claude Code, project scope"]);
  ok(project.message.includes(BIN), project.message);
  match(project.fix!, /docsearch-hook install --scope project\b/);

  const local = only(
    registrationChecks(machine({ "ripperdoc/local": registered(COMMAND, "ripperdoc") }), SELF, facts([])),
  );
  assertEquals([local.status, local.name], ["fail", "Ripperdoc, local scope"]);
  match(local.fix!, /docsearch-hook install\b/);
  match(local.fix!, /--scope local\b/);
  match(local.fix!, /--agent ripperdoc\b/);

  const user = only(registrationChecks(machine({ "claude/user": registered(COMMAND) }), SELF, facts([])));
  assertEquals(user.status, "fail");
  match(user.fix!, /docsearch-hook install\b/);
  ok(!user.fix!.includes("--scope"), `the user scope is install's default: ${user.fix}`);
});

Deno.test("registration: a checkout whose main.ts is gone fails, naming it", () => {
  const check = only(
    registrationChecks(machine({ "claude/user": registered(SOURCE_COMMAND) }), SOURCE_SELF, facts([DENO])),
  );
  assertEquals(check.status, "fail");
  ok(check.message.includes(SCRIPT), check.message);
  match(check.fix!, /docsearch-hook install\b/);
});

Deno.test("registration: a checkout registered with a deno that is gone fails (the command cannot run)", () => {
  // E.g. deno moved by an upgrade: the registered `/usr/bin/deno … main.ts hook` no longer starts.
  const check = only(
    registrationChecks(
      machine({ "claude/user": registered(SOURCE_COMMAND) }),
      { program: "/home/u/.deno/bin/deno", script: SCRIPT },
      facts(["/home/u/.deno/bin/deno", SCRIPT]),
    ),
  );
  assertEquals(check.status, "fail", `${check.status}: ${check.message}`);
  ok(check.message.includes(DENO), check.message);
});

Deno.test("registration: registered for fewer events is a warning naming the missing ones", () => {
  const text = edited(COMMAND, (settings) => {
    // The user's own Stop hook stays: only docsearch-hook's entries were lost.
    settings.hooks!.Stop = settings.hooks!.Stop.filter((group) => group !== ourGroup(settings, "Stop"));
    delete settings.hooks!.SessionEnd;
  });
  const check = only(registrationChecks(machine({ "claude/user": text }), SELF, facts([BIN])));
  assertEquals([check.status, check.name], ["warn", "Claude Code, user scope"]);
  assertEquals(eventsNamed(check.message), ["SessionEnd", "Stop"], check.message);
  match(check.fix!, /docsearch-hook install\b/);
});

Deno.test("registration: a Claude Code file without its two PreToolUse entries misses one event of 9", () => {
  const text = edited(COMMAND, (settings) => {
    settings.hooks!.PreToolUse = settings.hooks!.PreToolUse.filter((group) =>
      !group.hooks.some((hook) => ourCommand(hook.command ?? ""))
    );
  });
  const check = only(registrationChecks(machine({ "claude/user": text }), SELF, facts([BIN])));
  assertEquals(check.status, "warn");
  match(check.message, /^registered for 8 of 9 events \(missing PreToolUse\) /);
});

Deno.test("registration: a Claude Code file without PostToolUseFailure misses an event", () => {
  // Ripperdoc has no such event; Claude Code does, so its registration is incomplete without it.
  const text = edited(COMMAND, (settings) => delete settings.hooks!.PostToolUseFailure);
  const check = only(registrationChecks(machine({ "claude/user": text }), SELF, facts([BIN])));
  assertEquals(check.status, "warn");
  assertEquals(eventsNamed(check.message), ["PostToolUseFailure"], check.message);
});

Deno.test("registration: the same event registered twice in one file is a warning", () => {
  const text = edited(COMMAND, (settings) => {
    settings.hooks!.PreToolUse.push(structuredClone(ourGroup(settings, "PreToolUse")));
  });
  const check = only(registrationChecks(machine({ "claude/user": text }), SELF, facts([BIN])));
  assertEquals(check.status, "warn");
  assertEquals(eventsNamed(check.message), ["PreToolUse"], check.message);
});

Deno.test("registration: a PreToolUse matcher that misses WebFetch is a warning", () => {
  for (const matcher of ["WebSearch", "Bash", "Web(", "websearch|webfetch"]) {
    const text = edited(COMMAND, (settings) => ourGroup(settings, "PreToolUse").matcher = matcher);
    const check = only(registrationChecks(machine({ "claude/user": text }), SELF, facts([BIN])));
    assertEquals(check.status, "warn", `${matcher}: ${check.message}`);
    match(check.message, /PreToolUse/);
    ok(check.message.includes(matcher), check.message);
  }
});

Deno.test("registration: matchers that cover the web tools and Bash are fine", () => {
  for (const matcher of ["Bash|WebFetch|WebSearch", "Web.*|Bash", ".*", "*", "", undefined]) {
    const text = edited(COMMAND, (settings) => {
      const group = ourGroup(settings, "PreToolUse");
      if (matcher === undefined) delete group.matcher;
      else group.matcher = matcher;
    });
    const check = only(registrationChecks(machine({ "claude/user": text }), SELF, facts([BIN])));
    assertEquals(check.status, "ok", `${JSON.stringify(matcher)}: ${check.message}`);
  }
});

/** Our PreToolUse entries replaced by `groups`, their handlers running COMMAND. */
const preToolUse = (...groups: { matcher?: string; ifs?: (string | undefined)[] }[]) =>
  edited(COMMAND, (settings) => {
    const others = settings.hooks!.PreToolUse.filter((group) =>
      !group.hooks.some((hook) => hook.command === COMMAND)
    );
    settings.hooks!.PreToolUse = [
      ...others,
      ...groups.map(({ matcher, ifs = [undefined] }) => ({
        ...(matcher === undefined ? {} : { matcher }),
        hooks: ifs.map((condition) => ({
          type: "command",
          command: COMMAND,
          timeout: 10,
          ...(condition === undefined ? {} : { if: condition }),
        })),
      })),
    ];
  });

const claudeCheck = (text: string) =>
  only(registrationChecks(machine({ "claude/user": text }), SELF, facts([BIN])));

Deno.test("registration: PreToolUse split as install writes it for Claude Code, and in one entry as it wrote it before `if`, are both ok", () => {
  // Install's own, and the same written out by hand.
  const split = [
    registered(COMMAND),
    preToolUse({ matcher: WEB_TOOLS_MATCHER }, { matcher: "Bash", ifs: [...BASH_CONDITIONS] }),
  ];
  for (const text of split) {
    ok(text.includes('"if": "Bash(xhs *)"'), text);
    const check = claudeCheck(text);
    assertEquals(check.status, "ok", check.message);
  }
  // An older install's one entry, Bash in its matcher; and a Bash entry whose handler has no `if` (runs for all).
  for (
    const text of [
      preToolUse({ matcher: PAGE_TOOLS_MATCHER }),
      preToolUse({ matcher: WEB_TOOLS_MATCHER }, { matcher: "Bash" }),
    ]
  ) {
    ok(!text.includes('"if"'), text);
    const check = claudeCheck(text);
    assertEquals(check.status, "ok", check.message);
  }
});

Deno.test("registration: a split PreToolUse without one fetcher's handler does not cover Bash: a warning", () => {
  for (const missing of ["Bash(xh *)", "Bash(curl *)", "Bash(xhs *)"]) {
    const ifs = BASH_CONDITIONS.filter((condition) => condition !== missing);
    const check = claudeCheck(preToolUse({ matcher: WEB_TOOLS_MATCHER }, { matcher: "Bash", ifs }));
    assertEquals(check.status, "warn", `${missing}: ${check.message}`);
    ok(
      check.message.startsWith(
        `the PreToolUse entries "${WEB_TOOLS_MATCHER}", "Bash" do not cover all of WebSearch, WebFetch and Bash`,
      ),
      check.message,
    );
    match(check.fix!, /^docsearch-hook install$/);
  }
  // Nor does a Bash entry alone cover the web tools.
  const bashOnly = claudeCheck(preToolUse({ matcher: "Bash", ifs: [...BASH_CONDITIONS] }));
  assertEquals(bashOnly.status, "warn", bashOnly.message);
  match(
    bashOnly.message,
    /^the PreToolUse \w+ "Bash" (?:do|does) not cover all of WebSearch, WebFetch and Bash/,
  );
});

Deno.test("registration: one of PreToolUse's handlers twice (the same matcher and `if`) is registered more than once", () => {
  const ifs = [...BASH_CONDITIONS, "Bash(wget *)"];
  const twice = claudeCheck(preToolUse({ matcher: WEB_TOOLS_MATCHER }, { matcher: "Bash", ifs }));
  assertEquals(twice.status, "warn", twice.message);
  match(twice.message, /^registered more than once for PreToolUse: /);
  assertEquals(eventsNamed(twice.message), ["PreToolUse"], twice.message);
  // Its web entry twice too; the handlers with different `if`s of the one Bash entry never are.
  const web = claudeCheck(
    preToolUse({ matcher: WEB_TOOLS_MATCHER }, { matcher: WEB_TOOLS_MATCHER }, {
      matcher: "Bash",
      ifs: [...BASH_CONDITIONS],
    }),
  );
  assertEquals(web.status, "warn", web.message);
  match(web.message, /^registered more than once for PreToolUse: /);
});

Deno.test("registration: another existing docsearch-hook registered is a warning naming it", () => {
  const check = only(
    registrationChecks(machine({ "claude/user": registered(OTHER_COMMAND) }), SELF, facts([BIN, OTHER_BIN])),
  );
  assertEquals(check.status, "warn");
  ok(check.message.includes(OTHER_BIN), check.message);
  match(check.fix!, /docsearch-hook install\b/);
});

Deno.test("registration: a symlink to this binary is this binary", () => {
  const link = "/home/u/.local/bin/docsearch-hook";
  const check = only(
    registrationChecks(
      machine({ "claude/user": registered(hookCommand([link], "linux")) }),
      SELF,
      facts([BIN, link], { [link]: BIN }),
    ),
  );
  assertEquals(check.status, "ok", check.message);
});

Deno.test("registration: a checkout registered while this is a binary (or the reverse) is another one", () => {
  const fromSource = only(
    registrationChecks(
      machine({ "claude/user": registered(SOURCE_COMMAND) }),
      SELF,
      facts([BIN, DENO, SCRIPT]),
    ),
  );
  assertEquals(fromSource.status, "warn", fromSource.message);
  const binary = only(
    registrationChecks(
      machine({ "claude/user": registered(COMMAND) }),
      SOURCE_SELF,
      facts([BIN, DENO, SCRIPT]),
    ),
  );
  assertEquals(binary.status, "warn", binary.message);
});

/** Our handler of an event in an edited file. */
const ourHandler = (settings: Settings, event: string) =>
  ourGroup(settings, event).hooks.find((hook) => ourCommand(hook.command ?? ""))!;

Deno.test("registration: an older install's background Stop, SubagentStop and SessionEnd are a warning", () => {
  // As install wrote them before `claude -p` was found to kill background hooks as it exits.
  const older = (settings: Settings) => {
    for (const event of ["Stop", "SubagentStop", "SessionEnd"]) {
      Object.assign(ourHandler(settings, event), { timeout: 30, async: true });
    }
  };
  for (const scope of ["user", "project"] as const) {
    const text = edited(COMMAND, older);
    const check = only(registrationChecks(machine({ [`claude/${scope}`]: text }), SELF, facts([BIN])));
    assertEquals([check.status, check.name], ["warn", `Claude Code, ${scope} scope`]);
    assertEquals(eventsNamed(check.message), ["SessionEnd", "Stop", "SubagentStop"], check.message);
    match(check.message, /"async": true/);
    match(check.message, /claude -p/);
    match(check.message, /SessionEnd has a 30 s timeout, not 1 s/);
    ok(check.message.includes(pathOf("claude", scope)), check.message);
    match(
      check.fix!,
      scope === "user" ? /^docsearch-hook install$/ : /^docsearch-hook install --scope project$/,
    );
  }
  // Ripperdoc has no `async` (whatever an entry says about it changes nothing there): only the timeouts.
  const ripperdoc = only(registrationChecks(
    machine({ "ripperdoc/user": edited(COMMAND, older, "ripperdoc") }),
    SELF,
    facts([BIN]),
  ));
  assertEquals(ripperdoc.status, "warn");
  ok(!ripperdoc.message.includes("async"), ripperdoc.message);
  match(ripperdoc.message, /Stop, SubagentStop have a 30 s timeout, not 10 s; SessionEnd has a 30 s timeout/);
  match(ripperdoc.fix!, /^docsearch-hook install --agent ripperdoc$/);
});

Deno.test("registration: a timeout or a missing async that install would change is a warning", () => {
  const timeout = only(registrationChecks(
    machine({ "claude/user": edited(COMMAND, (s) => ourHandler(s, "PreToolUse").timeout = 60) }),
    SELF,
    facts([BIN]),
  ));
  assertEquals(timeout.status, "warn");
  assertEquals(eventsNamed(timeout.message), ["PreToolUse"], timeout.message);
  match(timeout.message, /60 s timeout, not 10 s/);

  const none = only(registrationChecks(
    machine({ "claude/user": edited(COMMAND, (s) => delete ourHandler(s, "SessionEnd").timeout) }),
    SELF,
    facts([BIN]),
  ));
  match(none.message, /SessionEnd has no timeout, not 1 s/);

  const waited = only(registrationChecks(
    machine({ "claude/user": edited(COMMAND, (s) => delete ourHandler(s, "PostToolUse").async) }),
    SELF,
    facts([BIN]),
  ));
  assertEquals(waited.status, "warn");
  assertEquals(eventsNamed(waited.message), ["PostToolUse"], waited.message);
  match(waited.message, /waited for/);
});

Deno.test("registration: malformed JSON settings fail with line and column", () => {
  const text = '{\n  "hooks": {},\n}\n';
  const checks = registrationChecks(machine({ "claude/user": text }), SELF, facts([BIN]));
  assertFixes(checks);
  const check = named(checks, "Claude Code, user scope");
  assertEquals(check.status, "fail");
  ok(check.message.includes(pathOf("claude", "user")), check.message);
  match(check.message, /line 3,? column 1\b/);
});

Deno.test("registration: malformed JSON that V8 reports without a position still gets line and column", () => {
  // A trailing comma in a list, and a list closed by a brace: V8 says "Unexpected token" and no position.
  const cases: [string, RegExp][] = [
    ['{\n  "hooks": {\n    "Stop": [1, 2,]\n  }\n}\n', /line 3,? column 19\b/],
    ['{\n  "hooks": {\n    "PreToolUse": [\n  }\n}\n', /line 4,? column 3\b/],
  ];
  for (const [text, position] of cases) {
    const check = named(
      registrationChecks(machine({ "claude/user": text }), SELF, facts([BIN])),
      "Claude Code, user scope",
    );
    assertEquals(check.status, "fail");
    match(check.message, position);
  }
});

Deno.test("registration: settings whose hooks have the wrong shape fail with the JSON path", () => {
  const text = JSON.stringify({ hooks: { PreToolUse: { matcher: "WebSearch" } } });
  const checks = registrationChecks(machine({ "claude/project": text }), SELF, facts([BIN]));
  assertFixes(checks);
  const check = named(checks, "Claude Code, project scope");
  assertEquals(check.status, "fail");
  match(check.message, /hooks\.PreToolUse/);
});

Deno.test("registration: an unreadable settings file fails, naming it and why", () => {
  const checks = registrationChecks(
    machine({
      "claude/user": { readError: "Permission denied (os error 13)" },
      "claude/project": registered(COMMAND),
    }),
    SELF,
    facts([BIN]),
  );
  assertFixes(checks);
  const check = named(checks, "Claude Code, user scope");
  assertEquals(check.status, "fail");
  ok(check.message.includes(pathOf("claude", "user")), check.message);
  match(check.message, /Permission denied/);
  assertEquals(named(checks, "Claude Code, project scope").status, "ok");
});

Deno.test("registration: two Claude Code scopes running different commands are reported as duplicates", () => {
  const checks = registrationChecks(
    machine({ "claude/user": registered(COMMAND), "claude/project": registered(OTHER_COMMAND) }),
    SELF,
    facts([BIN, OTHER_BIN]),
  );
  assertFixes(checks);
  assertEquals(named(checks, "Claude Code, user scope").status, "ok");
  const duplicates = checks.filter((check) => /duplicate/i.test(check.name));
  assertEquals(duplicates.length, 1, JSON.stringify(checks, null, 2));
  assertEquals(duplicates[0].status, "warn");
  match(duplicates[0].name, /Claude Code/);
  match(duplicates[0].message, /\buser\b/);
  match(duplicates[0].message, /\bproject\b/);
});

Deno.test("registration: two scopes running the identical command are no duplicates", () => {
  const checks = registrationChecks(
    machine({ "claude/user": registered(COMMAND), "claude/local": registered(COMMAND) }),
    SELF,
    facts([BIN]),
  );
  assertEquals(checks.map((check) => [check.status, check.name]), [
    ["ok", "Claude Code, user scope"],
    ["ok", "Claude Code, local scope"],
  ]);
});

Deno.test("registration: Claude Code and Ripperdoc running different commands are no duplicates", () => {
  const checks = registrationChecks(
    machine({ "claude/user": registered(COMMAND), "ripperdoc/user": registered(OTHER_COMMAND, "ripperdoc") }),
    SELF,
    facts([BIN, OTHER_BIN]),
  );
  assertFixes(checks);
  assertEquals(checks.filter((check) => /duplicate/i.test(check.name)), []);
  assertEquals(checks.length, 2, JSON.stringify(checks, null, 2));
});

Deno.test("registration: nothing registered anywhere is one failure", () => {
  const nothing = [
    machine(),
    machine({ "claude/user": formatSettings(USERS_OWN, layoutOf(undefined)), "ripperdoc/user": "" }),
    machine({ "claude/user": "{}", "claude/project": "  \n" }),
  ];
  for (const files of nothing) {
    const check = only(registrationChecks(files, SELF, facts([BIN])));
    assertEquals(check.status, "fail");
    match(check.message, /not registered/);
    match(check.fix!, /docsearch-hook install\b/);
  }
});

Deno.test("registration: a malformed file with nothing registered elsewhere is both failures", () => {
  const checks = registrationChecks(machine({ "claude/user": "{" }), SELF, facts([BIN]));
  assertFixes(checks);
  assertEquals(checks.map((check) => check.status), ["fail", "fail"]);
  ok(checks.some((check) => /not registered/.test(check.message)), JSON.stringify(checks));
});

Deno.test("registration: a Ripperdoc registration counts its 8 events", () => {
  const check = only(
    registrationChecks(machine({ "ripperdoc/user": registered(COMMAND, "ripperdoc") }), SELF, facts([BIN])),
  );
  assertEquals([check.status, check.name], ["ok", "Ripperdoc, user scope"]);
  match(check.message, /\b8\b/);
  ok(!/\b9\b/.test(check.message), check.message);
});

// ---- config --------------------------------------------------------------------------------------------

const USER_CONFIG = `${HOME}/.claude/hooks/docsearch-config.json`;
const PROJECT_CONFIG = `${PROJECT}/.claude/docsearch.json`;
const LOCAL_CONFIG = `${PROJECT}/.claude/docsearch.local.json`;
const CONFIG_PATHS = [USER_CONFIG, PROJECT_CONFIG, LOCAL_CONFIG];
const EXAMPLE = readFixture("../config.example.json");

/** The config resolved from these files (the others do not exist), as doctor resolves it. */
function resolved(texts: Record<string, string>, paths = CONFIG_PATHS, explicit = false): Config {
  return resolveConfig(paths.map((path) => ({ path, text: texts[path] })), explicit);
}

const entry = (name: string, extra: Record<string, unknown> = {}) => ({
  name,
  keywords: [name],
  mcp_tool_name: "mcp__leann__leann_search",
  ...extra,
});

Deno.test("config: a valid file is ok, with the number of databases it defines", () => {
  const config = resolved({
    [USER_CONFIG]: EXAMPLE,
    [PROJECT_CONFIG]: JSON.stringify({ databases: [entry("terraform")] }),
  });
  const checks = configChecks(config, CONFIG_PATHS, false);
  assertEquals(checks.map((check) => check.status), ["ok", "ok"], JSON.stringify(checks, null, 2));
  ok(checks[0].name.includes(USER_CONFIG), checks[0].name);
  match(checks[0].message, /\b3 databases\b/);
  ok(checks[1].name.includes(PROJECT_CONFIG), checks[1].name);
  match(checks[1].message, /\b1 database\b/);
});

Deno.test("config: a bad database entry fails with its JSON path", () => {
  const config = resolved({
    [USER_CONFIG]: JSON.stringify({
      databases: [entry("gitlab"), entry("kubernetes", { keywords: "kubernetes" })],
    }),
  });
  const checks = configChecks(config, CONFIG_PATHS, false);
  assertFixes(checks);
  const check = checks.find((c) => c.name.includes(USER_CONFIG))!;
  assertEquals(check.status, "fail");
  match(check.message, /databases\[1\]\.keywords/);
});

Deno.test("config: invalid JSON fails with line and column", () => {
  const config = resolved({ [PROJECT_CONFIG]: '{\n  "databases": [],\n}\n' });
  const checks = configChecks(config, CONFIG_PATHS, false);
  assertFixes(checks);
  const check = checks.find((c) => c.name.includes(PROJECT_CONFIG))!;
  assertEquals(check.status, "fail");
  match(check.message, /line 3,? column 1: a comma before the closing bracket/);
  // Its line is the reason no database is enabled: no second line about that, with another fix.
  assertEquals(checks.filter((c) => c.name === "databases"), []);
  // A file that kept its databases (one bad entry skipped, the other turned off) is not that reason.
  const partly = configChecks(
    resolved({
      [PROJECT_CONFIG]: JSON.stringify({
        databases: [entry("gitlab", { enabled: false }), entry("bad", { keywords: [] })],
      }),
    }),
    CONFIG_PATHS,
    false,
  );
  assertEquals(partly.filter((c) => c.name === "databases").map((c) => c.status), ["warn"]);
});

Deno.test("config: a file whose only problems are unknown fields is a warning", () => {
  const config = resolved({
    [USER_CONFIG]: JSON.stringify({ databses: [], databases: [entry("gitlab", { keyword: ["x"] })] }),
  });
  const check = only(configChecks(config, CONFIG_PATHS, false));
  assertEquals(check.status, "warn");
  ok(check.name.includes(USER_CONFIG), check.name);
  match(check.message, /databses/);
  match(check.message, /databases\[0\]\.keyword\b/);
});

Deno.test("config: no config file at all fails, with docsearch-hook install as the fix", () => {
  const check = only(configChecks(resolved({}), CONFIG_PATHS, false));
  assertEquals(check.status, "fail");
  ok(check.message.includes(USER_CONFIG), check.message);
  match(check.fix!, /docsearch-hook install\b/);
});

Deno.test("config: a --config file that does not exist fails, naming it", () => {
  const path = "/tmp/nowhere/docsearch.json";
  const checks = configChecks(resolved({}, [path], true), [path], true);
  assertFixes(checks);
  ok(checks.length > 0);
  ok(checks.every((check) => check.status === "fail"), JSON.stringify(checks));
  ok(checks.some((check) => `${check.name} ${check.message}`.includes(path)), JSON.stringify(checks));
});

Deno.test("config: no enabled database is a warning", () => {
  for (
    const text of [
      JSON.stringify({ databases: [] }),
      JSON.stringify({ databases: [entry("gitlab", { enabled: false })] }),
      JSON.stringify({ escape_hatch_ttl_seconds: 60 }),
    ]
  ) {
    const checks = configChecks(resolved({ [USER_CONFIG]: text }), CONFIG_PATHS, false);
    assertFixes(checks);
    assertEquals(checks.map((check) => check.status), ["ok", "warn"], `${text}: ${JSON.stringify(checks)}`);
    match(checks[1].message, /no enabled database/);
  }
});

Deno.test("config: the local file disabling the only database leaves none enabled: a warning", () => {
  const config = resolved({
    [USER_CONFIG]: JSON.stringify({ databases: [entry("gitlab")] }),
    [LOCAL_CONFIG]: JSON.stringify({ databases: [{ name: "gitlab", enabled: false }] }),
  });
  const checks = configChecks(config, CONFIG_PATHS, false);
  assertFixes(checks);
  assertEquals(checks.map((check) => check.status), ["ok", "ok", "warn"], JSON.stringify(checks, null, 2));
});

Deno.test("keywords: one shared by two enabled databases (any case) is a warning naming both", () => {
  const checks = duplicateKeywordChecks(config([
    database({ name: "gitlab", keywords: ["GitLab", "ci"] }),
    database({ name: "gitlab-runner", keywords: ["runner", "gitlab"] }),
    database({ name: "kubernetes", keywords: ["kubernetes", "k8s"] }),
  ]));
  const check = only(checks);
  assertEquals(check.status, "warn");
  match(check.message, /gitlab\b/i);
  match(check.message, /\bgitlab\b.*\bgitlab-runner\b|\bgitlab-runner\b.*\bgitlab\b/);
});

Deno.test("keywords: disabled databases and repeats inside one database are no duplicates", () => {
  assertEquals(
    duplicateKeywordChecks(config([
      database({ name: "gitlab", keywords: ["gitlab", "GitLab", "ci"] }),
      database({ name: "jenkins", keywords: ["ci", "jenkins"], enabled: false }),
      database({ name: "kubernetes", keywords: ["kubernetes"] }),
    ])),
    [],
  );
});

// ---- databases -----------------------------------------------------------------------------------------

Deno.test("expandHome: ~, $HOME and ${HOME} (alone or before /…) are the home directory, nothing else is", () => {
  assertEquals(expandHome("~/.leann/indexes/gitlab", HOME), `${HOME}/.leann/indexes/gitlab`);
  assertEquals(expandHome("~", HOME), HOME);
  assertEquals(expandHome("/srv/indexes/gitlab", HOME), "/srv/indexes/gitlab");
  assertEquals(expandHome("~bob/indexes", HOME), "~bob/indexes");
  assertEquals(expandHome("indexes/~/x", HOME), "indexes/~/x");
  assertEquals(expandHome("~/x", undefined), "~/x");
  // $HOME and ${HOME} as the shell expands them; a longer name or a later $HOME is not the home directory.
  assertEquals(expandHome("$HOME/.local/bin/docsearch-hook", HOME), `${HOME}/.local/bin/docsearch-hook`);
  assertEquals(expandHome("${HOME}/.local/bin/docsearch-hook", HOME), `${HOME}/.local/bin/docsearch-hook`);
  assertEquals(expandHome("$HOME", HOME), HOME);
  assertEquals(expandHome("$HOMEDIR/x", HOME), "$HOMEDIR/x");
  assertEquals(expandHome("/opt/$HOME/x", HOME), "/opt/$HOME/x");
});

Deno.test("databases: a path under ~ is looked for in the home directory", () => {
  const checks = databaseChecks(
    config([database({ name: "gitlab", path: "~/.leann/indexes/gitlab" })]),
    HOME,
    facts([`${HOME}/.leann/indexes/gitlab`]),
    "linux",
    STATE,
    NO_INDEX,
  );
  const check = only(checks);
  assertEquals(check.status, "ok");
  match(check.name, /gitlab/);
});

Deno.test("databases: a missing path is a warning naming the file that defines it", () => {
  const source = `${PROJECT}/.claude/docsearch.json`;
  const checks = databaseChecks(
    config([
      database({ name: "gitlab", path: "~/.leann/indexes/gitlab" }),
      database({ name: "kubernetes", path: "/srv/indexes/kubernetes", source }),
      database({ name: "legacy", path: "/srv/indexes/legacy", enabled: false }),
      database({ name: "dotnet" }),
    ]),
    HOME,
    facts([`${HOME}/.leann/indexes/gitlab`]),
    "linux",
    STATE,
    NO_INDEX,
  );
  assertFixes(checks);
  assertEquals(checks.map((check) => check.status), ["ok", "warn"], JSON.stringify(checks, null, 2));
  match(checks[1].name, /kubernetes/);
  ok(checks[1].message.includes("/srv/indexes/kubernetes"), checks[1].message);
  ok(`${checks[1].message} ${checks[1].fix}`.includes(source), JSON.stringify(checks[1]));
});

const STATE = "/home/u/.local/state/docsearch-hook";

/** For checks of databases that are not built-in: no index file is read. */
const NO_INDEX = (file: string): number => {
  throw new Error(`${file} read`);
};

/** Built-in index files and the passages each holds; a file not listed is not an index. */
const passagesOf = (counts: Record<string, number>) => (file: string): number => {
  if (!(file in counts)) throw new Error("file is not a database");
  return counts[file];
};

Deno.test("databases: a built-in index is looked for by its name in the state folder; a missing one says how to build it", () => {
  const builtIn = (name: string, index: unknown) =>
    database({ name, mcpToolName: "mcp__docsearch__search", toolArgs: { index, query: "{query}" } });
  const checks = databaseChecks(
    config([builtIn("pg", "pg"), builtIn("npm", "npm"), builtIn("every", "all")]),
    HOME,
    facts([`${STATE}/indexes/pg.db`]),
    "linux",
    STATE,
    passagesOf({ [`${STATE}/indexes/pg.db`]: 1234 }),
  );
  assertFixes(checks);
  assertEquals(checks.map((check) => check.status), ["ok", "warn"], JSON.stringify(checks, null, 2));
  assertEquals(checks[0].message, `index pg: 1234 passages (${STATE}/indexes/pg.db)`);
  match(checks[1].message, /there is no index npm .*its web searches pass until there is/);
  match(checks[1].fix!, /docsearch-hook index add npm </);
});

Deno.test("databases: a built-in index file that is not an index is ✗ with --replace or removal; an empty one a warning", () => {
  const builtIn = (name: string) =>
    database({ name, mcpToolName: "mcp__docsearch__search", toolArgs: { index: name, query: "{query}" } });
  const [bad, empty] = databaseChecks(
    config([builtIn("pg"), builtIn("npm")]),
    HOME,
    facts([`${STATE}/indexes/pg.db`, `${STATE}/indexes/npm.db`]),
    "linux",
    STATE,
    passagesOf({ [`${STATE}/indexes/npm.db`]: 0 }),
  );
  assertEquals(bad, {
    status: "fail",
    name: "database pg",
    message: `${STATE}/indexes/pg.db is not an index docsearch-hook can search (file is not a database): ` +
      "its web searches pass",
    fix: "docsearch-hook index add pg <docs folder|file|URL> --replace, or remove the file",
  });
  assertEquals(empty, {
    status: "warn",
    name: "database npm",
    message: `index npm holds no passages (${STATE}/indexes/npm.db): its web searches pass`,
    fix: "docsearch-hook index add npm <docs folder|file|URL> --replace",
  });
});

Deno.test("databases: without a home directory ~ is not guessed", () => {
  const check = only(
    databaseChecks(
      config([database({ name: "gitlab", path: "~/.leann/indexes/gitlab" })]),
      undefined,
      facts([`${HOME}/.leann/indexes/gitlab`]),
      "linux",
      STATE,
      NO_INDEX,
    ),
  );
  assertEquals(check.status, "warn");
});

// ---- MCP servers ---------------------------------------------------------------------------------------

const CLAUDE_JSON = `${HOME}/.claude.json`;
const MCP_JSON = `${PROJECT}/.mcp.json`;

Deno.test("mcpServersIn: the user's servers and this project's private ones in ~/.claude.json", () => {
  const text = JSON.stringify({
    numStartups: 12,
    mcpServers: { leann: { command: "leann_mcp" }, "my.docs": { type: "http", url: "http://localhost" } },
    projects: {
      [PROJECT]: { mcpServers: { docs: { command: "docs-mcp" } }, allowedTools: [] },
      "/work/other": { mcpServers: { secret: { command: "x" } } },
    },
  });
  assertEquals(mcpServersIn(text, CLAUDE_JSON, PROJECT), [
    { name: "leann", source: CLAUDE_JSON },
    { name: "my.docs", source: CLAUDE_JSON },
    { name: "docs", source: CLAUDE_JSON },
  ]);
  assertEquals(mcpServersIn(text, CLAUDE_JSON, "/work/unknown"), [
    { name: "leann", source: CLAUDE_JSON },
    { name: "my.docs", source: CLAUDE_JSON },
  ]);
  assertEquals(mcpServersIn(text, CLAUDE_JSON), [
    { name: "leann", source: CLAUDE_JSON },
    { name: "my.docs", source: CLAUDE_JSON },
  ]);
});

Deno.test("mcpServersIn: a project's .mcp.json", () => {
  const text = JSON.stringify({ mcpServers: { leann: { command: "leann_mcp", args: [] } } });
  assertEquals(mcpServersIn(text, MCP_JSON), [{ name: "leann", source: MCP_JSON }]);
});

Deno.test("mcpServersIn: no file, invalid JSON or no servers is none", () => {
  for (
    const text of [undefined, "", "{", '{"mcpServers": {"leann": {},}}', "{}", '{"mcpServers": []}', "[]"]
  ) {
    assertEquals(mcpServersIn(text, CLAUDE_JSON, PROJECT), [], JSON.stringify(text));
  }
});

Deno.test("mcpServersIn: JSON that is not an object is none, not a crash", () => {
  for (
    const text of ["null", "42", '"text"', "true", '{"projects": null}', '{"projects": {"/work/p": null}}']
  ) {
    assertEquals(mcpServersIn(text, CLAUDE_JSON, PROJECT), [], text);
  }
});

/** The example config's databases, plus a disabled one whose server is nowhere. */
const EXAMPLE_CONFIG = resolved({
  [USER_CONFIG]: EXAMPLE,
  [PROJECT_CONFIG]: JSON.stringify({
    databases: [entry("legacy", { mcp_tool_name: "mcp__old__x", enabled: false })],
  }),
});

Deno.test("mcp: a tool whose server is configured is ok, naming where", () => {
  const checks = mcpChecks(EXAMPLE_CONFIG, [{ name: "leann", source: CLAUDE_JSON }], [CLAUDE_JSON, MCP_JSON]);
  assertFixes(checks);
  const leann = checks.find((check) => check.name.includes("mcp__leann__leann_search"))!;
  assertEquals(leann.status, "ok");
  ok(leann.message.includes(CLAUDE_JSON), leann.message);
  match(leann.message, /\bleann\b/);
});

Deno.test("mcp: a tool whose server is missing is a problem (✗: its searches are denied for nothing) with claude mcp add", () => {
  const checks = mcpChecks(EXAMPLE_CONFIG, [{ name: "leann", source: CLAUDE_JSON }], [CLAUDE_JSON, MCP_JSON]);
  assertFixes(checks);
  // One line per tool: the two leann databases share one; the disabled database's tool is not checked.
  assertEquals(checks.length, 2, JSON.stringify(checks, null, 2));
  ok(
    !checks.some((check) => `${check.name} ${check.message}`.includes("mcp__old__x")),
    JSON.stringify(checks),
  );
  const docs = checks.find((check) => check.name.includes("mcp__docs__search"))!;
  assertEquals(docs.status, "fail");
  match(docs.fix!, /claude mcp add docs\b/);
  ok(docs.message.includes(CLAUDE_JSON) && docs.message.includes(MCP_JSON), docs.message);
  // docsearch-hook's own server: the command that registers it.
  const [own] = mcpChecks(
    {
      ...EXAMPLE_CONFIG,
      databases: EXAMPLE_CONFIG.databases.map((d) => ({ ...d, mcpToolName: "mcp__docsearch__search" })),
    },
    [],
    [CLAUDE_JSON],
  );
  assertEquals([own.status, own.fix], [
    "fail",
    "docsearch-hook install --mcp registers docsearch-hook's own (or install the plugin, which brings it)",
  ]);
});

Deno.test("mcp: server names are matched as Claude Code normalises them", () => {
  const tools = config([
    database({ name: "a", mcpToolName: "mcp__my_docs__search" }),
    database({ name: "b", mcpToolName: "mcp__team_wiki__lookup" }),
  ]);
  const checks = mcpChecks(
    tools,
    [{ name: "my.docs", source: MCP_JSON }, { name: "team wiki", source: CLAUDE_JSON }],
    [CLAUDE_JSON, MCP_JSON],
  );
  assertEquals(checks.map((check) => check.status), ["ok", "ok"], JSON.stringify(checks, null, 2));
  ok(checks[0].message.includes(MCP_JSON), checks[0].message);
});

Deno.test("mcp: a server whose name only starts like the tool's is not it", () => {
  const tools = config([database({ name: "a", mcpToolName: "mcp__leann2__search" })]);
  const check = only(mcpChecks(tools, [{ name: "leann", source: CLAUDE_JSON }], [CLAUDE_JSON]));
  assertEquals(check.status, "fail");
  match(check.fix!, /claude mcp add leann2\b/);
});

Deno.test("mcp: a tool name that is not mcp__<server>__<tool> is a warning", () => {
  const check = only(
    mcpChecks(
      config([database({ name: "a", mcpToolName: "leann_search" })]),
      [{ name: "leann", source: CLAUDE_JSON }],
      [CLAUDE_JSON],
    ),
  );
  assertEquals(check.status, "warn");
  ok(check.name.includes("leann_search") || check.message.includes("leann_search"), JSON.stringify(check));
});

// ---- the report ----------------------------------------------------------------------------------------

Deno.test("formatChecks: one line per check with its mark, fixes under them, a summary last", () => {
  const text = formatChecks([
    { status: "ok", name: "binary", message: "docsearch-hook 0.1.0" },
    { status: "warn", name: "kill switch", message: "set", fix: "unset it" },
    { status: "fail", name: "config", message: "none", fix: "docsearch-hook install" },
  ]);
  const lines = text.trimEnd().split("\n");
  assertEquals(lines.slice(0, 5), [
    "✓ binary: docsearch-hook 0.1.0",
    "! kill switch: set",
    "    fix: unset it",
    "✗ config: none",
    "    fix: docsearch-hook install",
  ]);
  match(lines[lines.length - 1], /\b1 problem\b.*\b1 warning\b/);
  const fine = formatChecks([{ status: "ok", name: "a", message: "b" }]).trimEnd().split("\n");
  assertEquals(fine[0], "✓ a: b");
  ok(fine.length > 1 && !/problem|warning/.test(fine[fine.length - 1]), fine.join("\n"));
});

Deno.test("registration: Claude Code's disableAllHooks, decided by the most specific file; Ripperdoc's ignored", () => {
  const allOff = (texts: Parameters<typeof machine>[0]) =>
    registrationChecks(machine(texts), SELF, facts([BIN])).filter((check) =>
      check.name === "Claude Code, all hooks"
    );
  const off = edited(COMMAND, (settings) => (settings.disableAllHooks = true));
  const [check] = allOff({ "claude/user": off });
  assertEquals(check.status, "fail");
  ok(check.message.includes(pathOf("claude", "user")), check.message);
  ok(check.fix?.includes("disableAllHooks"), check.fix);
  // The local file sets it back: nothing to report.
  assertEquals(allOff({ "claude/user": off, "claude/local": '{"disableAllHooks": false}' }), []);
  // The project file turns it off over a user file that says false.
  assertEquals(
    allOff({ "claude/user": registered(COMMAND), "claude/project": '{"disableAllHooks": true}' }).length,
    1,
  );
  // Not a Ripperdoc setting.
  assertEquals(
    allOff({ "claude/user": registered(COMMAND), "ripperdoc/user": '{"disableAllHooks": true}' }),
    [],
  );
});

// ---- Gemini CLI and Qwen Code -----------------------------------------------------------------------------

Deno.test("registration: Gemini CLI and Qwen Code registered as install writes them are ok, in their own files", () => {
  const checks = registrationChecks(
    machine({ "gemini/user": registered(COMMAND, "gemini"), "qwen/project": registered(COMMAND, "qwen") }),
    SELF,
    facts([BIN]),
  );
  const gemini = named(checks, "Gemini CLI, user scope");
  assertEquals(gemini.status, "ok", gemini.message);
  match(gemini.message, /registered for all 6 events/);
  ok(gemini.message.includes("/home/u/.gemini/settings.json"), gemini.message);
  const qwen = named(checks, "Qwen Code, project scope");
  assertEquals(qwen.status, "ok", qwen.message);
  match(qwen.message, /registered for all 9 events/);
  assertEquals(checks.length, 2);
});

Deno.test("registration: a Gemini CLI settings file with comments is read as Gemini CLI reads it", () => {
  const text = registered(COMMAND, "gemini").replace("{", "{\n  // my settings\n  /* and more */");
  assertEquals(only(registrationChecks(machine({ "gemini/user": text }), SELF, facts([BIN]))).status, "ok");
  // Claude Code does not read comments: the same is a file it cannot read.
  const claude = registered(COMMAND).replace("{", "{ // mine");
  const checks = registrationChecks(machine({ "claude/user": claude }), SELF, facts([BIN]));
  match(named(checks, "Claude Code, user scope").message, /invalid JSON at line 1, column 3/);
});

Deno.test("registration: Gemini CLI's matcher and timeouts are judged in its names and milliseconds", () => {
  const narrow = only(registrationChecks(
    machine({
      "gemini/user": edited(
        COMMAND,
        (s) => (ourGroup(s, "BeforeTool").matcher = "google_web_search"),
        "gemini",
      ),
    }),
    SELF,
    facts([BIN]),
  ));
  assertEquals(narrow.status, "warn");
  match(
    narrow.message,
    /the BeforeTool matcher "google_web_search" does not cover all of google_web_search, web_fetch and run_shell_command/,
  );
  match(narrow.fix!, /^docsearch-hook install --agent gemini$/);
  // An entry from before Bash's page reads were redirected, alone: install again brings them.
  const older = claudeCheck(preToolUse({ matcher: "WebSearch|WebFetch" }));
  assertEquals(older.status, "warn");
  match(older.message, /matcher "WebSearch\|WebFetch" does not cover all of WebSearch, WebFetch and Bash/);
  // Seconds written where Gemini CLI counts milliseconds.
  const seconds = only(registrationChecks(
    machine({
      "gemini/project": edited(COMMAND, (s) => (ourHandler(s, "SessionEnd").timeout = 1), "gemini"),
    }),
    SELF,
    facts([BIN]),
  ));
  assertEquals(seconds.status, "warn");
  match(seconds.message, /SessionEnd has a 1 ms timeout, not 1000 ms/);
  match(seconds.fix!, /^docsearch-hook install --scope project --agent gemini$/);
});

Deno.test("registration: Gemini CLI's hooksConfig.enabled and Qwen Code's disableAllHooks, where they are registered", () => {
  const allOff = (texts: Parameters<typeof machine>[0], agent: string) =>
    registrationChecks(machine(texts), SELF, facts([BIN])).filter((check) =>
      check.name === `${agent}, all hooks`
    );
  const gemini = registered(COMMAND, "gemini");
  const [off] = allOff(
    { "gemini/user": gemini, "gemini/project": '{"hooksConfig": {"enabled": false}}' },
    "Gemini CLI",
  );
  assertEquals(off.status, "fail");
  ok(off.message.startsWith(`"hooksConfig.enabled": false in ${pathOf("gemini", "project")}`), off.message);
  ok(off.fix?.includes('set "hooksConfig.enabled" to true'), off.fix);
  // Its older versions' switch, inside `hooks`.
  const legacy = edited(COMMAND, (s) => Object.assign(s.hooks!, { enabled: false }), "gemini");
  assertEquals(allOff({ "gemini/user": legacy }, "Gemini CLI").length, 1);
  // The project turns it back on.
  assertEquals(
    allOff({ "gemini/user": legacy, "gemini/project": '{"hooksConfig": {"enabled": true}}' }, "Gemini CLI"),
    [],
  );
  // Not registered with Gemini CLI: its switch is none of our business.
  assertEquals(
    allOff(
      { "claude/user": registered(COMMAND), "gemini/user": '{"hooksConfig": {"enabled": false}}' },
      "Gemini CLI",
    ),
    [],
  );
  const qwen = edited(COMMAND, (s) => (s.disableAllHooks = true), "qwen");
  const [qwenOff] = allOff({ "qwen/user": qwen }, "Qwen Code");
  assertEquals(qwenOff.status, "fail");
  ok(qwenOff.fix?.includes('remove "disableAllHooks"'), qwenOff.fix);
});

Deno.test("mcp: a server in Gemini CLI's settings serves the tool by either agent's name for it", () => {
  const GEMINI = "/home/u/.gemini/settings.json";
  const tools = config([
    database({ name: "a", mcpToolName: "mcp_leann_leann_search" }),
    database({ name: "b", mcpToolName: "mcp__docsearch__search" }),
    database({ name: "c", mcpToolName: "mcp_wiki_lookup" }),
  ]);
  const checks = mcpChecks(
    tools,
    [{ name: "leann", source: GEMINI }, { name: "docsearch", source: GEMINI }],
    [CLAUDE_JSON, GEMINI],
  );
  assertFixes(checks);
  assertEquals(checks.map((check) => check.status), ["ok", "ok", "fail"], JSON.stringify(checks, null, 2));
  ok(checks[0].message.includes(GEMINI), checks[0].message);
  match(checks[2].message, /no MCP server "wiki" is configured/);
});
