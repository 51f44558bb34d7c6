/**
 * `install` / `uninstall` as pure functions: where the settings live, the command that is registered and how
 * it is recognised again, parsing and re-formatting the user's file, the merge in and out, shell quoting,
 * the dry-run diff and the path helpers.
 */
import { deepStrictEqual as assertEquals, match, ok, throws } from "node:assert/strict";
import { unifiedDiff } from "../lib/install/diff.ts";
import { diffOf, type JsonChange, planSettings, type SettingsPlan } from "../lib/install/json_file.ts";
import { Problem } from "../lib/errors.ts";
import {
  type Agent,
  formatSettings,
  hookCommand,
  layoutOf,
  ourCommand,
  parseSettings,
  registrationsIn,
  type Settings,
  SettingsError,
  settingsPath,
  withoutRegistration,
  withRegistration,
} from "../lib/install/settings.ts";
import { commandLine, shellWords } from "../lib/install/shell.ts";

/** Just the words, without the spans and the compound flag. */
const wordsOf = (line: string): string[] => [...shellWords(line)];
import { baseName, dirName, type Env, resolvePath } from "../lib/paths.ts";
import {
  CLAUDE_ENTRIES,
  CLAUDE_EVENTS,
  CLAUDE_PRE_TOOL_USE,
  CLAUDE_REGISTRATION,
  type EventEntry,
  group,
  handlerKeys,
  PAGE_TOOLS_MATCHER,
  runProgram,
  WEB_TOOLS_MATCHER,
} from "./helpers.ts";
import { keptInOrder, onlyCommasTakenOut } from "./kept_lines.ts";

const envOf = (vars: Record<string, string>): Env => (name) => vars[name];

const COMMAND = "/home/me/.local/bin/docsearch-hook hook";
const OLD_COMMAND = "/old/place/docsearch-hook hook";

// ---- settingsPath ----------------------------------------------------------------------------------------

Deno.test("settingsPath: Claude Code and Ripperdoc, user, project and local scope on POSIX", () => {
  const env = envOf({ HOME: "/home/me" });
  const at = (agent: "claude" | "ripperdoc", scope: "user" | "project" | "local") =>
    settingsPath(agent, scope, env, "linux", "/work/proj");
  assertEquals(at("claude", "user"), "/home/me/.claude/settings.json");
  assertEquals(at("claude", "project"), "/work/proj/.claude/settings.json");
  assertEquals(at("claude", "local"), "/work/proj/.claude/settings.local.json");
  assertEquals(at("ripperdoc", "user"), "/home/me/.ripperdoc/hooks.json");
  assertEquals(at("ripperdoc", "project"), "/work/proj/.ripperdoc/hooks.json");
  assertEquals(at("ripperdoc", "local"), "/work/proj/.ripperdoc/hooks.local.json");
  // A trailing separator on HOME or the project is not doubled.
  assertEquals(
    settingsPath("claude", "user", envOf({ HOME: "/home/me/" }), "darwin", "/p/"),
    "/home/me/.claude/settings.json",
  );
  assertEquals(
    settingsPath("claude", "project", envOf({ HOME: "/home/me/" }), "darwin", "/p/"),
    "/p/.claude/settings.json",
  );
});

Deno.test("settingsPath: Windows uses USERPROFILE before HOME and joins with backslashes", () => {
  const env = envOf({ USERPROFILE: "C:\\Users\\me", HOME: "/c/Users/someone-else" });
  assertEquals(
    settingsPath("claude", "user", env, "windows", "D:\\proj"),
    "C:\\Users\\me\\.claude\\settings.json",
  );
  assertEquals(
    settingsPath("claude", "local", env, "windows", "D:\\proj"),
    "D:\\proj\\.claude\\settings.local.json",
  );
  assertEquals(
    settingsPath("ripperdoc", "user", env, "windows", "D:\\proj"),
    "C:\\Users\\me\\.ripperdoc\\hooks.json",
  );
  assertEquals(
    settingsPath("ripperdoc", "project", env, "windows", "D:\\proj\\"),
    "D:\\proj\\.ripperdoc\\hooks.json",
  );
  // Without USERPROFILE, HOME (Git Bash sets it) is the home directory.
  assertEquals(
    settingsPath("claude", "user", envOf({ HOME: "C:\\Users\\me" }), "windows", "D:\\proj"),
    "C:\\Users\\me\\.claude\\settings.json",
  );
  // USERPROFILE means nothing outside Windows.
  assertEquals(
    settingsPath("claude", "user", envOf({ USERPROFILE: "C:\\Users\\me", HOME: "/home/me" }), "linux", "/p"),
    "/home/me/.claude/settings.json",
  );
});

Deno.test("settingsPath: CLAUDE_CONFIG_DIR moves Claude Code's user settings only", () => {
  const env = envOf({ HOME: "/home/me", CLAUDE_CONFIG_DIR: "/etc/claude-me" });
  assertEquals(settingsPath("claude", "user", env, "linux", "/p"), "/etc/claude-me/settings.json");
  assertEquals(settingsPath("claude", "project", env, "linux", "/p"), "/p/.claude/settings.json");
  assertEquals(settingsPath("claude", "local", env, "linux", "/p"), "/p/.claude/settings.local.json");
  assertEquals(settingsPath("ripperdoc", "user", env, "linux", "/p"), "/home/me/.ripperdoc/hooks.json");
  // It is enough on its own, without a home directory.
  assertEquals(
    settingsPath("claude", "user", envOf({ CLAUDE_CONFIG_DIR: "/cfg" }), "linux", "/p"),
    "/cfg/settings.json",
  );
  // An empty value is not set.
  assertEquals(
    settingsPath("claude", "user", envOf({ HOME: "/home/me", CLAUDE_CONFIG_DIR: "" }), "linux", "/p"),
    "/home/me/.claude/settings.json",
  );
});

Deno.test("settingsPath: no home directory leaves the user scope undefined, the others still resolve", () => {
  const env = envOf({});
  assertEquals(settingsPath("claude", "user", env, "linux", "/p"), undefined);
  assertEquals(settingsPath("ripperdoc", "user", env, "linux", "/p"), undefined);
  assertEquals(settingsPath("claude", "user", env, "windows", "C:\\p"), undefined);
  assertEquals(settingsPath("claude", "project", env, "linux", "/p"), "/p/.claude/settings.json");
  assertEquals(settingsPath("ripperdoc", "local", env, "linux", "/p"), "/p/.ripperdoc/hooks.local.json");
});

// ---- hookCommand and ourCommand ------------------------------------------------------------------------

Deno.test("hookCommand on POSIX: plain paths bare, awkward ones single-quoted", () => {
  assertEquals(hookCommand(["/home/me/.local/bin/docsearch-hook"], "linux"), COMMAND);
  assertEquals(
    hookCommand(["/Users/me/My Tools/docsearch-hook"], "darwin"),
    "'/Users/me/My Tools/docsearch-hook' hook",
  );
  assertEquals(hookCommand(["/opt/it's/docsearch-hook"], "linux"), "'/opt/it'\\''s/docsearch-hook' hook");
  assertEquals(hookCommand(["/opt/$HOME/docsearch-hook"], "linux"), "'/opt/$HOME/docsearch-hook' hook");
  assertEquals(
    hookCommand(
      ["/usr/bin/deno", "run", "-A", "--quiet", "--config=/a b/deno.json", "/a b/main.ts"],
      "linux",
    ),
    "/usr/bin/deno run -A --quiet '--config=/a b/deno.json' '/a b/main.ts' hook",
  );
});

Deno.test("hookCommand on Windows: forward slashes, double quotes, $ and backtick escaped", () => {
  assertEquals(
    hookCommand(["C:\\Users\\me\\bin\\docsearch-hook.exe"], "windows"),
    "C:/Users/me/bin/docsearch-hook.exe hook",
  );
  assertEquals(
    hookCommand(["C:\\Program Files\\docsearch\\docsearch-hook.exe"], "windows"),
    '"C:/Program Files/docsearch/docsearch-hook.exe" hook',
  );
  assertEquals(
    hookCommand(["C:\\Users\\a$b c\\docsearch-hook.exe"], "windows"),
    '"C:/Users/a\\$b c/docsearch-hook.exe" hook',
  );
  assertEquals(
    hookCommand(["C:\\odd`dir\\docsearch-hook.exe"], "windows"),
    '"C:/odd\\`dir/docsearch-hook.exe" hook',
  );
  assertEquals(
    hookCommand(["C:\\it's here\\docsearch-hook.exe"], "windows"),
    `"C:/it's here/docsearch-hook.exe" hook`,
  );
});

Deno.test("ourCommand recognises the binary under any folder, target suffix and quoting", () => {
  assertEquals(ourCommand("/x/docsearch-hook hook"), { program: "/x/docsearch-hook" });
  assertEquals(ourCommand("docsearch-hook.exe hook"), { program: "docsearch-hook.exe" });
  assertEquals(ourCommand("'/a b/docsearch-hook-x86_64-unknown-linux-gnu' hook"), {
    program: "/a b/docsearch-hook-x86_64-unknown-linux-gnu",
  });
  assertEquals(ourCommand('"C:/Program Files/docsearch-hook.exe" hook'), {
    program: "C:/Program Files/docsearch-hook.exe",
  });
  assertEquals(ourCommand("C:\\Users\\me\\docsearch-hook-x86_64-pc-windows-msvc.exe hook"), {
    program: "C:\\Users\\me\\docsearch-hook-x86_64-pc-windows-msvc.exe",
  });
  assertEquals(ourCommand("  /x/docsearch-hook   hook  "), { program: "/x/docsearch-hook" });
});

Deno.test("ourCommand recognises a checkout run by deno in the shape install writes", () => {
  assertEquals(ourCommand("deno run -A --quiet --config=/src/deno.json /src/main.ts hook"), {
    program: "deno",
    script: "/src/main.ts",
  });
  assertEquals(
    ourCommand("'/opt/my deno/deno' run -A --quiet '--config=/my src/deno.json' '/my src/main.ts' hook"),
    { program: "/opt/my deno/deno", script: "/my src/main.ts" },
  );
  assertEquals(
    ourCommand(
      '"C:/Program Files/deno/deno.exe" run -A --quiet "--config=C:/my src/deno.json" "C:/my src/main.ts" hook',
    ),
    { program: "C:/Program Files/deno/deno.exe", script: "C:/my src/main.ts" },
  );
});

Deno.test("ourCommand rejects other programs, other checkouts and other subcommands", () => {
  for (
    const command of [
      "echo hook",
      "other-tool hook",
      "my-docsearch-hook hook",
      "/x/docsearch-hookish hook",
      "deno run -A /other/main.ts hook",
      "deno run -A --config=/src/deno.json /other/main.ts hook",
      "deno run -A --config=/src/deno.json /src/other.ts hook",
      "node --config=/src/deno.json /src/main.ts hook",
      "docsearch-hook status",
      "/x/docsearch-hook",
      "hook",
      "",
    ]
  ) {
    assertEquals(ourCommand(command), undefined, command);
  }
});

Deno.test("hookCommand's output is recognised by ourCommand, on POSIX and on Windows", () => {
  const cases: [string[], "linux" | "windows"][] = [
    [["/a b/it's/docsearch-hook"], "linux"],
    [["/usr/bin/deno", "run", "-A", "--quiet", "--config=/s p/$x/deno.json", "/s p/$x/main.ts"], "linux"],
    [["C:\\Program Files\\docsearch-hook.exe"], "windows"],
    [
      ["C:\\deno\\deno.exe", "run", "-A", "--quiet", "--config=C:\\my src\\deno.json", "C:\\my src\\main.ts"],
      "windows",
    ],
  ];
  for (const [self, os] of cases) {
    const ours = ourCommand(hookCommand(self, os));
    ok(ours !== undefined, `${os}: ${self.join(" ")}`);
    const slashed = (path: string) => os === "windows" ? path.replaceAll("\\", "/") : path;
    assertEquals(ours.program, slashed(self[0]));
    if (self.length > 1) assertEquals(ours.script, slashed(self[self.length - 1]));
  }
});

// ---- parseSettings --------------------------------------------------------------------------------------

const FILE = "/home/me/.claude/settings.json";

function settingsError(text: string): string {
  let message = "";
  throws(() => parseSettings(text, FILE), (error: unknown) => {
    ok(error instanceof SettingsError, String(error));
    message = error.message;
    return true;
  });
  return message;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** The message names `path` itself, not a longer path that starts with it. */
const namesPath = (message: string, path: string) =>
  match(message, new RegExp(`${escapeRegExp(path)}(?![\\w.\\[])`), message);

Deno.test("parseSettings: an empty file is empty settings; the file's own object comes back", () => {
  assertEquals(parseSettings("", FILE), {});
  assertEquals(parseSettings(" \n\t\n", FILE), {});
  const text =
    '{"model": "opus", "hooks": {"Stop": [{"hooks": [{"type": "prompt", "prompt": "x"}]}]}, "z": [1]}';
  const parsed = parseSettings(text, FILE);
  assertEquals(parsed, JSON.parse(text));
  assertEquals(Object.keys(parsed), ["model", "hooks", "z"]);
});

Deno.test("parseSettings: invalid JSON is a SettingsError naming the file, line and column", () => {
  const trailingComma = settingsError('{\n    "model": "opus",\n}\n');
  ok(trailingComma.startsWith(FILE), trailingComma);
  match(trailingComma, /line 3,? column 1: a comma before the closing bracket\b/);
  const missingComma = settingsError('{\n  "a": 1\n  "b": 2\n}\n');
  match(missingComma, /line 3,? column 3\b/);
  const extra = settingsError('{\n  "a": 1\n}\n}\n');
  match(extra, /line 4,? column 1\b/);
});

Deno.test("parseSettings: a trailing comma in an array and a truncated file also get line and column", () => {
  // The common hand-editing slip: removing the last group of a list and leaving its comma.
  const arrayComma = settingsError(
    '{\n  "hooks": {\n    "PreToolUse": [\n      { "hooks": [] },\n    ]\n  }\n}\n',
  );
  ok(arrayComma.startsWith(FILE), arrayComma);
  match(arrayComma, /line 5,? column 5: a comma before the closing bracket\b/);
  const truncated = settingsError('{\n  "model": ');
  match(truncated, /line 2,? column \d+\b/);
  const misspelt = settingsError('{\n  "a": tru\n}\n');
  match(misspelt, /line 2,? column \d+\b/);
});

Deno.test("parseSettings: a wrong shape is a SettingsError naming the JSON path", () => {
  const cases: [unknown, string][] = [
    [{ hooks: [] }, "hooks"],
    [{ hooks: { PreToolUse: {} } }, "hooks.PreToolUse"],
    [{ hooks: { PreToolUse: [{ hooks: "docsearch-hook hook" }] } }, "hooks.PreToolUse[0].hooks"],
    [{ hooks: { Stop: [{ hooks: [] }, { matcher: 3, hooks: [] }] } }, "hooks.Stop[1].matcher"],
    [{ hooks: { Stop: [{ hooks: [{ command: "x" }] }] } }, "hooks.Stop[0].hooks[0].type"],
    [{ hooks: { Stop: [{ hooks: [{ type: "command", command: 7 }] }] } }, "hooks.Stop[0].hooks[0].command"],
  ];
  for (const [value, path] of cases) {
    const message = settingsError(JSON.stringify(value, null, 2));
    ok(message.startsWith(FILE), message);
    namesPath(message, path);
  }
  for (const text of ["[]", "null", '"hooks"', "42"]) ok(settingsError(text).startsWith(FILE), text);
});

// ---- layoutOf and formatSettings ----------------------------------------------------------------------

const SAMPLE: Settings = {
  model: "opus",
  hooks: { Stop: [{ hooks: [{ type: "command", command: "notify-send done" }] }] },
};

Deno.test("layoutOf/formatSettings keep 4-space or tab indentation and the final newline or its absence", () => {
  for (const indent of ["    ", "\t", "  "]) {
    for (const newline of ["\n", ""]) {
      const text = JSON.stringify(SAMPLE, null, indent) + newline;
      const label = JSON.stringify({ indent, newline });
      assertEquals(formatSettings(parseSettings(text, FILE), layoutOf(text)), text, label);
      // A change keeps the layout too.
      const { settings } = withRegistration(parseSettings(text, FILE), COMMAND, "claude");
      assertEquals(
        formatSettings(settings, layoutOf(text)),
        JSON.stringify(settings, null, indent) + newline,
      );
    }
  }
});

Deno.test("layoutOf: a new or empty file gets an indented layout that ends with a newline", () => {
  for (const text of [undefined, "", "  \n"]) {
    const layout = layoutOf(text);
    assertEquals(layout.finalNewline, true);
    match(layout.indent, /^( +|\t)$/);
    const formatted = formatSettings(SAMPLE, layout);
    assertEquals(JSON.parse(formatted), SAMPLE);
    ok(formatted.endsWith("}\n"), formatted);
  }
});

// ---- editing in place ------------------------------------------------------------------------------------

/** planSettings on `text` in a file of its own, as install and uninstall plan their changes. */
function planOn(text: string, change: (settings: Settings) => JsonChange, comments = false): SettingsPlan {
  const path = Deno.makeTempFileSync({ suffix: ".json" });
  try {
    Deno.writeTextFileSync(path, text);
    return planSettings(path, change, { comments });
  } finally {
    Deno.removeSync(path);
  }
}

const installed = (text: string) => planOn(text, (s) => withRegistration(s, COMMAND, "claude"));
const uninstalled = (text: string) => planOn(text, (s) => withoutRegistration(s, COMMAND)).after;

/** A Claude Code settings file written by hand: odd indentation, a tab, unknown keys, numbers as typed. */
const HAND_WRITTEN = [
  "{",
  '   "model" : "opus",',
  '\t"permissions": {"allow": ["Bash(git status)"], "deny": []},',
  '   "cleanupPeriodDays": 1.0,',
  '   "feedbackSurveyRate": 1e3,',
  '   "workspaceId": 12345678901234567890,',
  '   "unknownKey": {"nested": [1, 2.50, -0, "a//b", "/* not a comment */"]},',
  '   "hooks": {',
  '      "Stop": [',
  '        { "hooks": [ { "type": "command", "command": "notify-send done" } ] }',
  "      ]",
  "   }",
  "}",
].join("\n");

Deno.test("planSettings edits a hand-written settings file in place; uninstall gives it back byte for byte", () => {
  const plan = installed(HAND_WRITTEN);
  // The Stop group and the Stop list gain a comma; every other line stays exactly as typed.
  assertEquals(keptInOrder(HAND_WRITTEN, plan.after), 2);
  assertEquals(JSON.parse(plan.after), plan.merge.settings);
  // 9 events, 16 handlers: PreToolUse's Bash entry holds one per fetcher (7).
  assertEquals(registrationsIn(JSON.parse(plan.after)).length, 16);
  ok(plan.after.endsWith("\n   }\n}"), "no final newline, as before");
  // Our members are indented like their neighbours, and inside by the file's own step (3 spaces).
  ok(plan.after.includes('\n      "PreToolUse": [\n         {\n            "matcher": '), plan.after);
  // The dry run shows the real change: no line is taken out but to gain a comma.
  onlyCommasTakenOut(diffOf(plan));
  assertEquals(uninstalled(plan.after), HAND_WRITTEN);
});

Deno.test("planSettings replaces an earlier entry of ours where it stands, changing only what differs", () => {
  const line = (matcher: string, command: string, timeout: number) =>
    `      { "matcher": "${matcher}", "hooks": [{ "type": "command", "command": "${command}", "timeout": ${timeout} }] },`;
  const head = ["{", '  "hooks": {', '    "PreToolUse": ['];
  const lint = '      { "matcher": "Bash", "hooks": [{ "type": "command", "command": "lint.sh" }] },';
  const fmt = '      { "matcher": "Write", "hooks": [{ "type": "command", "command": "fmt.sh" }] }';
  const text = [...head, lint, line("WebSearch|WebFetch", OLD_COMMAND, 10), fmt, "    ]", "  }", "}", ""];
  const after = installed(text.join("\n")).after;
  // The old entry's line becomes the first new entry, laid out as it was; Bash's entry follows it, before the
  // user's next one, whose line stays as typed.
  ok(after.startsWith([...head, lint, line(WEB_TOOLS_MATCHER, COMMAND, 10)].join("\n") + "\n"), after);
  ok(after.includes(`\n${fmt}\n    ]`), after);
  const pre = JSON.parse(after).hooks.PreToolUse;
  assertEquals(pre.map((g: GroupShape) => g.matcher), ["Bash", WEB_TOOLS_MATCHER, "Bash", "Write"]);
  assertEquals(pre[2], group(CLAUDE_PRE_TOOL_USE[1], COMMAND));
});

Deno.test("planSettings: uninstall takes our handler out of the user's group, whose other lines stay as typed", () => {
  const text = [
    "{",
    '  "hooks": {',
    '    "PreToolUse": [',
    `      { "matcher": "WebSearch|WebFetch", "hooks": [{ "type": "command", "command": "${OLD_COMMAND}" }] },`,
    "      {",
    '        "matcher": "WebSearch|WebFetch",',
    '        "hooks": [',
    '          { "type": "command", "command": "lint.sh", "timeout": 5 },',
    `          { "type": "command", "command": "${OLD_COMMAND}", "timeout": 10 }`,
    "        ]",
    "      }",
    "    ]",
    "  }",
    "}",
    "",
  ];
  assertEquals(
    uninstalled(text.join("\n")),
    [...text.slice(0, 3), ...text.slice(4, 8), ...text.slice(9)].join("\n").replace(
      '"timeout": 5 },',
      '"timeout": 5 }',
    ),
  );
});

Deno.test("planSettings: a comment in a Claude Code settings file is refused with line and column (it reads plain JSON)", () => {
  throws(() => installed('{\n  // mine\n  "model": "opus"\n}\n'), (error: Error) => {
    ok(error instanceof Problem, String(error));
    match(
      error.message,
      /: invalid JSON at line 2, column 3: a comment, .* plain JSON; nothing was changed$/,
    );
    return true;
  });
});

Deno.test("planSettings keeps CRLF line endings, a one-line file on its line, and an empty object's brackets", () => {
  const crlf = '{\r\n  "model": "opus"\r\n}\r\n';
  const after = installed(crlf).after;
  assertEquals(after.split("\r\n").length, after.split("\n").length);
  assertEquals(uninstalled(after), crlf);
  const oneLine = '{"model":"opus"}';
  const inline = installed(oneLine).after;
  ok(
    inline.startsWith('{"model":"opus", "hooks": {"PreToolUse": [{"matcher": "') && !inline.includes("\n"),
    inline,
  );
  assertEquals(uninstalled(inline), oneLine);
  const grown = installed("{}\n").after;
  assertEquals(grown, JSON.stringify(JSON.parse(grown), null, 2) + "\n");
  assertEquals(uninstalled(grown), "{}\n");
});

Deno.test("planSettings edits the copy of a key written twice that JSON readers keep, the last", () => {
  const text = '{\n  "hooks": {"Stop": []},\n  "model": "opus",\n  "hooks": {}\n}\n';
  const after = installed(text).after;
  ok(after.startsWith('{\n  "hooks": {"Stop": []},\n  "model": "opus",\n  "hooks": {\n'), after);
  assertEquals(registrationsIn(JSON.parse(after)).length, 16);
  // Taking a twice-written key out takes out both: the earlier one would otherwise be read.
  assertEquals(JSON.parse(uninstalled(after)), { model: "opus" });
});

// ---- withRegistration ----------------------------------------------------------------------------------

interface HandlerShape {
  type: string;
  command?: string;
  timeout?: number;
  async?: boolean;
  [key: string]: unknown;
}
interface GroupShape {
  matcher?: string;
  hooks: HandlerShape[];
  [key: string]: unknown;
}

const hooksOf = (settings: Settings) => (settings.hooks ?? {}) as Record<string, GroupShape[]>;

/** Every handler running `command`, with its event and group. */
function handlersOf(settings: Settings, command: string) {
  return Object.entries(hooksOf(settings)).flatMap(([event, groups]) =>
    groups.flatMap((group, index) =>
      group.hooks.filter((h) => h.command === command).map((handler) => ({ event, index, group, handler }))
    )
  );
}

/** Claude Code's entries; Ripperdoc has no PostToolUseFailure, runs every hook in turn, and gets one PreToolUse. */
const entriesFor = (agent: Agent): readonly EventEntry[] =>
  agent === "claude" ? CLAUDE_REGISTRATION : Object.entries(CLAUDE_ENTRIES)
    .filter(([event]) => event !== "PostToolUseFailure")
    .map(([event, { async: _, ...entry }]) => ({ event, ...entry }));

/** Our registration, groups of our own, each event's in order, exactly as the agent needs them. */
function checkRegistration(settings: Settings, command: string, agent: Agent) {
  const expected = entriesFor(agent);
  const ours = Object.entries(hooksOf(settings)).flatMap(([event, groups]) =>
    groups.filter((g) => g.hooks.some((h) => h.command === command)).map((group) => ({ event, group }))
  );
  assertEquals(ours.map((o) => o.event).sort(), expected.map((e) => e.event).sort());
  for (const event of new Set(expected.map((e) => e.event))) {
    assertEquals(
      ours.filter((o) => o.event === event).map((o) => o.group),
      expected.filter((e) => e.event === event).map((entry) => group(entry, command)),
      event,
    );
  }
}

Deno.test("withRegistration: the 9 Claude Code events into empty settings, in 10 entries (PreToolUse's 2)", () => {
  const merge = withRegistration({}, COMMAND, "claude");
  assertEquals(merge.changed, true);
  assertEquals(merge.removed, 0);
  checkRegistration(merge.settings, COMMAND, "claude");
  assertEquals(Object.keys(hooksOf(merge.settings)), CLAUDE_EVENTS);
  assertEquals(Object.keys(merge.settings), ["hooks"]);
  // PreToolUse: the web and MCP page tools, then Bash with a handler per fetcher, each with its `if`.
  assertEquals(hooksOf(merge.settings).PreToolUse, [
    ...CLAUDE_PRE_TOOL_USE.map((entry) => group(entry, COMMAND)),
  ]);
});

Deno.test("withRegistration: Ripperdoc gets 8 events, no PostToolUseFailure and no async field", () => {
  const merge = withRegistration({}, COMMAND, "ripperdoc");
  assertEquals(merge.changed, true);
  checkRegistration(merge.settings, COMMAND, "ripperdoc");
  assertEquals(Object.keys(hooksOf(merge.settings)).length, 8);
  ok(!("PostToolUseFailure" in hooksOf(merge.settings)));
  ok(!JSON.stringify(merge.settings).includes('"async"'));
  // It runs every handler whatever its `if`: one PreToolUse entry, Bash in its matcher.
  assertEquals(hooksOf(merge.settings).PreToolUse, [
    { matcher: PAGE_TOOLS_MATCHER, hooks: [{ type: "command", command: COMMAND, timeout: 10 }] },
  ]);
});

/** A user's settings with hooks and settings of their own, unknown fields included. */
function userSettings(): Settings {
  return {
    model: "opus",
    permissions: { allow: ["Bash(git status)"], deny: ["WebFetch(domain:evil.example)"] },
    hooks: {
      PreToolUse: [
        {
          matcher: "Bash",
          hooks: [{
            type: "command",
            command: "/usr/local/bin/guard.sh",
            timeout: 5,
            statusMessage: "guarding",
          }],
        },
      ],
      Notification: [{ hooks: [{ type: "command", command: "notify-send 'Claude needs you'" }] }],
      Stop: [{ hooks: [{ type: "prompt", prompt: "Did you run the tests?" }] }],
    },
    statusLine: { type: "command", command: "~/.claude/statusline.sh" },
  };
}

Deno.test("withRegistration keeps every unrelated hook and setting, in order, and leaves its input alone", () => {
  const before = userSettings();
  const input = structuredClone(before);
  const merge = withRegistration(input, COMMAND, "claude");
  assertEquals(input, before);
  assertEquals(merge.changed, true);
  assertEquals(merge.removed, 0);
  checkRegistration(merge.settings, COMMAND, "claude");

  const after = merge.settings as Record<string, unknown>;
  assertEquals(Object.keys(after), ["model", "permissions", "hooks", "statusLine"]);
  for (const key of ["model", "permissions", "statusLine"]) {
    assertEquals(after[key], (before as Record<string, unknown>)[key], key);
  }
  const hooks = hooksOf(merge.settings);
  const old = hooksOf(before);
  // The user's events come first, as they were; only the events the user did not have are added after them.
  assertEquals(Object.keys(hooks).slice(0, 3), ["PreToolUse", "Notification", "Stop"]);
  assertEquals(hooks.Notification, old.Notification);
  // Ours after the user's: PreToolUse's two entries, Stop's one.
  assertEquals(hooks.PreToolUse.length, 3);
  assertEquals(hooks.PreToolUse[0], old.PreToolUse[0]);
  assertEquals(hooks.Stop.length, 2);
  assertEquals(hooks.Stop[0], old.Stop[0]);
});

Deno.test("withRegistration twice changes nothing the second time", () => {
  for (const agent of ["claude", "ripperdoc"] as const) {
    for (const start of [{}, userSettings()]) {
      const once = withRegistration(start, COMMAND, agent);
      const twice = withRegistration(once.settings, COMMAND, agent);
      assertEquals(twice.changed, false, agent);
      // Claude Code's 16 handlers (PreToolUse's Bash entry holds 7), Ripperdoc's 8.
      assertEquals(twice.removed, agent === "claude" ? 16 : 8);
      assertEquals(twice.settings, once.settings);
      assertEquals(JSON.stringify(twice.settings), JSON.stringify(once.settings));
    }
  }
});

Deno.test("withRegistration replaces an old entry of ours (another path) where it stood, not duplicated", () => {
  const mine = (command: string): GroupShape => ({ matcher: "Bash", hooks: [{ type: "command", command }] });
  const settings: Settings = {
    hooks: {
      PreToolUse: [
        mine("/usr/local/bin/first.sh"),
        { matcher: "WebSearch|WebFetch", hooks: [{ type: "command", command: OLD_COMMAND, timeout: 10 }] },
        mine("/usr/local/bin/last.sh"),
      ],
    },
  };
  const merge = withRegistration(settings, COMMAND, "claude");
  assertEquals(merge.changed, true);
  assertEquals(merge.removed, 1);
  ok(!JSON.stringify(merge.settings).includes("/old/place/"));
  const pre = hooksOf(merge.settings).PreToolUse;
  assertEquals(pre.length, 4);
  assertEquals(pre[0], mine("/usr/local/bin/first.sh"));
  assertEquals(pre[1], group(CLAUDE_PRE_TOOL_USE[0], COMMAND));
  assertEquals(pre[2], group(CLAUDE_PRE_TOOL_USE[1], COMMAND));
  assertEquals(pre[3], mine("/usr/local/bin/last.sh"));
  checkRegistration(merge.settings, COMMAND, "claude");

  // A whole registration from an older place (a checkout, before the binary) is moved over the same way.
  const checkout = "deno run -A --quiet --config=/src/deno.json /src/main.ts hook";
  const moved = withRegistration(
    withRegistration(userSettings(), checkout, "claude").settings,
    COMMAND,
    "claude",
  );
  assertEquals(moved.removed, 16);
  assertEquals(handlersOf(moved.settings, checkout), []);
  checkRegistration(moved.settings, COMMAND, "claude");
  assertEquals(moved.settings, withRegistration(userSettings(), COMMAND, "claude").settings);
});

Deno.test("withRegistration: our handler in a group with the user's handler: the user's stays", () => {
  const user = { type: "command", command: "~/bin/log-search.sh", timeout: 3 };
  const settings: Settings = {
    hooks: {
      PreToolUse: [
        {
          matcher: "WebSearch|WebFetch",
          hooks: [user, { type: "command", command: OLD_COMMAND, timeout: 10 }],
        },
      ],
    },
  };
  const merge = withRegistration(settings, COMMAND, "claude");
  assertEquals(merge.changed, true);
  assertEquals(merge.removed, 1);
  ok(!JSON.stringify(merge.settings).includes("/old/place/"));
  const userGroups = hooksOf(merge.settings).PreToolUse.filter((g) =>
    g.hooks.some((h) => h.command === user.command)
  );
  assertEquals(userGroups, [{ matcher: "WebSearch|WebFetch", hooks: [user] }]);
  checkRegistration(merge.settings, COMMAND, "claude");
});

/**
 * What install wrote before Stop, SubagentStop and SessionEnd were waited for: all capture async, 30 s; and
 * PreToolUse in one entry, Bash in its matcher, before Claude Code's handlers took an `if`.
 */
function olderInstall(command: string): Settings {
  const entry = (event: string): GroupShape => ({
    ...(CLAUDE_ENTRIES[event].matcher === undefined ? {} : { matcher: CLAUDE_ENTRIES[event].matcher }),
    hooks: [
      ["PreToolUse", "UserPromptSubmit", "SessionStart"].includes(event)
        ? { type: "command", command, timeout: 10 }
        : { type: "command", command, timeout: 30, async: true },
    ],
  });
  const hooks = Object.fromEntries(Object.keys(CLAUDE_ENTRIES).map((event) => [event, [entry(event)]]));
  // The user's own hooks around ours, so that "in place" means something.
  hooks.Stop.unshift({ hooks: [{ type: "command", command: "notify-send done" }] });
  hooks.SessionEnd.push({ hooks: [{ type: "command", command: "~/bin/archive.sh", timeout: 5 }] });
  return { model: "opus", hooks };
}

Deno.test("withRegistration rewrites an older install's background Stop, SubagentStop and SessionEnd in place, once", () => {
  const old = olderInstall(COMMAND);
  const merge = withRegistration(old, COMMAND, "claude");
  assertEquals(merge.changed, true);
  // One handler per event, as it wrote them.
  assertEquals(merge.removed, 9);
  checkRegistration(merge.settings, COMMAND, "claude");
  const hooks = hooksOf(merge.settings);
  assertEquals(Object.keys(hooks), Object.keys(hooksOf(old)));
  assertEquals(hooks.Stop, [
    { hooks: [{ type: "command", command: "notify-send done" }] },
    { hooks: [{ type: "command", command: COMMAND, timeout: 10 }] },
  ]);
  assertEquals(hooks.SessionEnd, [
    { hooks: [{ type: "command", command: COMMAND, timeout: 1 }] },
    { hooks: [{ type: "command", command: "~/bin/archive.sh", timeout: 5 }] },
  ]);
  // What was already right is left exactly as it was.
  for (const event of ["PostToolUse", "PreCompact"]) {
    assertEquals(hooks[event], hooksOf(old)[event], event);
  }
  const again = withRegistration(merge.settings, COMMAND, "claude");
  assertEquals(again.changed, false);
  assertEquals(again.settings, merge.settings);
});

Deno.test("withRegistration splits an older install's one PreToolUse entry, Bash in its matcher, into its two in place, once; uninstall takes both", () => {
  const guard = { matcher: "Bash", hooks: [{ type: "command", command: "/usr/local/bin/guard.sh" }] };
  const format = { matcher: "Write", hooks: [{ type: "command", command: "fmt.sh" }] };
  const old = olderInstall(COMMAND);
  old.hooks!.PreToolUse = [guard, ...old.hooks!.PreToolUse, format];
  assertEquals(old.hooks!.PreToolUse[1], {
    matcher: PAGE_TOOLS_MATCHER,
    hooks: [{ type: "command", command: COMMAND, timeout: 10 }],
  });
  const merge = withRegistration(old, COMMAND, "claude");
  assertEquals(merge.changed, true);
  assertEquals(hooksOf(merge.settings).PreToolUse, [
    guard,
    ...CLAUDE_PRE_TOOL_USE.map((entry) => group(entry, COMMAND)),
    format,
  ]);
  checkRegistration(merge.settings, COMMAND, "claude");
  const again = withRegistration(merge.settings, COMMAND, "claude");
  assertEquals([again.changed, again.removed], [false, 16]);
  assertEquals(again.settings, merge.settings);
  const removed = withoutRegistration(merge.settings);
  assertEquals(removed.removed, 16);
  assertEquals(hooksOf(removed.settings).PreToolUse, [guard, format]);
  assertEquals(handlersOf(removed.settings, COMMAND), []);
});

// ---- withoutRegistration -------------------------------------------------------------------------------

Deno.test("withoutRegistration takes out only ours and restores the user's settings", () => {
  for (const agent of ["claude", "ripperdoc"] as const) {
    const installed = withRegistration(userSettings(), COMMAND, agent).settings;
    const input = structuredClone(installed);
    const merge = withoutRegistration(input);
    assertEquals(input, installed);
    assertEquals(merge.changed, true);
    assertEquals(merge.removed, agent === "claude" ? 16 : 8);
    assertEquals(merge.settings, userSettings());
    assertEquals(JSON.stringify(merge.settings), JSON.stringify(userSettings()));
  }
});

Deno.test("withoutRegistration: events and `hooks` that only we filled disappear", () => {
  const merge = withoutRegistration(withRegistration({ model: "opus" }, COMMAND, "claude").settings);
  assertEquals(merge.settings, { model: "opus" });
  assertEquals(merge.changed, true);
  assertEquals(withoutRegistration(withRegistration({}, COMMAND, "claude").settings).settings, {});
});

Deno.test("withoutRegistration with nothing of ours changes nothing; the user's empty hooks stay", () => {
  for (const settings of [{}, userSettings(), { hooks: {} }, { hooks: { Stop: [] } }] as Settings[]) {
    const merge = withoutRegistration(structuredClone(settings));
    assertEquals(merge, { settings, changed: false, removed: 0 });
  }
  // An event list the user left empty is theirs, even when ours go from another.
  const mixed: Settings = {
    hooks: {
      Stop: [],
      PreToolUse: [{ matcher: "WebSearch|WebFetch", hooks: [{ type: "command", command: COMMAND }] }],
    },
  };
  assertEquals(withoutRegistration(mixed).settings, { hooks: { Stop: [] } });
});

Deno.test("withoutRegistration: in a shared group only our handler goes; other checkouts and tools stay", () => {
  const user = { type: "command", command: "~/bin/log-search.sh" };
  const foreign = [
    { type: "command", command: "deno run -A /other/main.ts hook" },
    { type: "command", command: "other-tool hook" },
    { type: "command", command: "/x/docsearch-hook status" },
  ];
  const settings: Settings = {
    hooks: {
      PreToolUse: [{
        matcher: "WebSearch|WebFetch",
        hooks: [user, { type: "command", command: OLD_COMMAND }],
      }],
      Stop: [{ hooks: foreign }, { hooks: [{ type: "command", command: "'/a b/docsearch-hook.exe' hook" }] }],
    },
  };
  const merge = withoutRegistration(settings);
  assertEquals(merge.removed, 2);
  assertEquals(merge.settings, {
    hooks: { PreToolUse: [{ matcher: "WebSearch|WebFetch", hooks: [user] }], Stop: [{ hooks: foreign }] },
  });
});

// ---- registrationsIn -----------------------------------------------------------------------------------

Deno.test("registrationsIn lists our handlers with their event, matcher and `if`, and nothing of the user's", () => {
  assertEquals(registrationsIn(userSettings()), []);
  assertEquals(registrationsIn({}), []);
  const found = registrationsIn(withRegistration(userSettings(), COMMAND, "claude").settings);
  const sorted = (keys: unknown[][]) => keys.map((key) => JSON.stringify(key)).sort();
  assertEquals(
    sorted(found.map((f) => [f.event, f.matcher, f.condition])),
    sorted(handlerKeys(CLAUDE_REGISTRATION)),
  );
  for (const f of found) {
    assertEquals(f.command, COMMAND);
    assertEquals(f.ours, { program: "/home/me/.local/bin/docsearch-hook" });
    // A handler without `if` has no `condition` either.
    assertEquals("condition" in f, f.matcher === "Bash", JSON.stringify(f));
  }
  const checkout = "'/opt/d/deno' run -A --quiet '--config=/s p/deno.json' '/s p/main.ts' hook";
  const fromCheckout = registrationsIn(withRegistration({}, checkout, "ripperdoc").settings);
  assertEquals(fromCheckout.length, 8);
  assertEquals(fromCheckout[0].ours, { program: "/opt/d/deno", script: "/s p/main.ts" });
});

// ---- shell words ---------------------------------------------------------------------------------------

Deno.test("shellWords: blanks, quotes and escapes as a POSIX shell reads them", () => {
  assertEquals(wordsOf(""), []);
  assertEquals(wordsOf(" \t \n"), []);
  assertEquals(wordsOf("a  b\tc\nd"), ["a", "b", "c", "d"]);
  assertEquals(wordsOf(`'a b' "c d" e\\ f`), ["a b", "c d", "e f"]);
  assertEquals(wordsOf(`"a"'b'c`), ["abc"]);
  assertEquals(wordsOf(`'it'\\''s'`), ["it's"]);
  assertEquals(wordsOf(`a '' "" b`), ["a", "", "", "b"]);
  assertEquals(wordsOf(`"say \\"hi\\" \\$HOME \\\\ \\\`x\\\`"`), ['say "hi" $HOME \\ `x`']);
  assertEquals(wordsOf(`'no \\escapes "here"'`), ['no \\escapes "here"']);
  assertEquals(wordsOf(`"keeps \\n and \\'"`), ["keeps \\n and \\'"]);
  assertEquals(wordsOf(`\\'quoted\\"`), [`'quoted"`]);
});

Deno.test("shellWords: unquoted Windows paths keep their backslashes", () => {
  assertEquals(wordsOf("C:\\Users\\me\\bin\\docsearch-hook.exe hook"), [
    "C:\\Users\\me\\bin\\docsearch-hook.exe",
    "hook",
  ]);
  assertEquals(wordsOf('"C:\\Program Files\\docsearch-hook.exe" hook'), [
    "C:\\Program Files\\docsearch-hook.exe",
    "hook",
  ]);
  assertEquals(wordsOf("D:\\tools\\x.exe --config=D:\\cfg\\a.json"), [
    "D:\\tools\\x.exe",
    "--config=D:\\cfg\\a.json",
  ]);
});

const AWKWARD = [
  "/plain/path",
  "/Users/me/My Tools/docsearch-hook",
  "it's",
  "'single'",
  '"double"',
  "$HOME and ${PATH}",
  "`uname`",
  "back\\slash",
  "a\\'b",
  "tab\there",
  "*?[x]~!#&;|<>(){}",
  "--config=/a b/deno.json",
  "",
  "-n",
  "ünïcødé",
];

Deno.test("commandLine round-trips through shellWords for awkward words", () => {
  assertEquals(wordsOf(commandLine(AWKWARD, "linux")), AWKWARD);
  assertEquals(wordsOf(commandLine(["line\nbreak"], "darwin")), ["line\nbreak"]);
  // Windows: the same words, with forward slashes for backslashes.
  assertEquals(
    wordsOf(commandLine(AWKWARD, "windows")),
    AWKWARD.map((word) => word.replaceAll("\\", "/")),
  );
  assertEquals(
    wordsOf(commandLine(["C:\\Program Files\\a$b`c\\docsearch-hook.exe", "hook"], "windows")),
    ["C:/Program Files/a$b`c/docsearch-hook.exe", "hook"],
  );
});

async function shPrint(line: string): Promise<string[]> {
  const out = await runProgram("sh", ["-c", `printf '%s\\n' ${line}`], {
    env: { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin", HOME: "/nonexistent-home" },
  });
  assertEquals([out.code, out.stderr], [0, ""]);
  return out.stdout.split("\n").slice(0, -1);
}

Deno.test({
  name: "commandLine on POSIX: a real sh -c gets exactly the words given",
  ignore: Deno.build.os === "windows",
  fn: async () => {
    assertEquals(await shPrint(commandLine(AWKWARD, "linux")), AWKWARD);
    // Windows quoting is read the same by a POSIX shell (Git Bash), with forward slashes.
    const windowsWords = ["C:\\Program Files\\a$b`c\\docsearch-hook.exe", 'it\'s "quoted"', "hook"];
    assertEquals(
      await shPrint(commandLine(windowsWords, "windows")),
      windowsWords.map((word) => word.replaceAll("\\", "/")),
    );
  },
});

// ---- unifiedDiff ---------------------------------------------------------------------------------------

const LABELS: [string, string] = ["a/settings.json", "b/settings.json"];

Deno.test("unifiedDiff: equal texts are no diff", () => {
  assertEquals(unifiedDiff("", "", LABELS), "");
  assertEquals(unifiedDiff("a\nb\n", "a\nb\n", LABELS), "");
});

Deno.test("unifiedDiff: changes with up to 3 context lines around them", () => {
  assertEquals(
    unifiedDiff("a\nb\nc\n", "a\nB\nc\n", LABELS),
    ["--- a/settings.json", "+++ b/settings.json", " a", "-b", "+B", " c"].join("\n"),
  );
  assertEquals(
    unifiedDiff("", "{\n}\n", ["/dev/null", "s.json"]),
    ["--- /dev/null", "+++ s.json", "+{", "+}"].join("\n"),
  );
  assertEquals(
    unifiedDiff("x\ny\n", "", LABELS),
    ["--- a/settings.json", "+++ b/settings.json", "-x", "-y"].join("\n"),
  );
  const lines = ["1", "2", "3", "4", "5", "6", "7", "8"];
  assertEquals(
    unifiedDiff(lines.join("\n"), [...lines.slice(0, 3), "new", ...lines.slice(3)].join("\n"), LABELS),
    ["--- a/settings.json", "+++ b/settings.json", " 1", " 2", " 3", "+new", " 4", " 5", " 6"].join("\n"),
  );
  assertEquals(
    unifiedDiff(lines.join("\n"), lines.filter((l) => l !== "1").join("\n"), LABELS),
    ["--- a/settings.json", "+++ b/settings.json", "-1", " 2", " 3", " 4"].join("\n"),
  );
});

Deno.test("unifiedDiff: distant changes are separate hunks with @@ between them", () => {
  const before = Array.from({ length: 20 }, (_, i) => `line ${i + 1}`);
  const after = before.map((line) =>
    line === "line 2" ? "CHANGED 2" : line === "line 18" ? "CHANGED 18" : line
  );
  assertEquals(
    unifiedDiff(before.join("\n") + "\n", after.join("\n") + "\n", LABELS),
    [
      "--- a/settings.json",
      "+++ b/settings.json",
      " line 1",
      "-line 2",
      "+CHANGED 2",
      " line 3",
      " line 4",
      " line 5",
      "@@",
      " line 15",
      " line 16",
      " line 17",
      "-line 18",
      "+CHANGED 18",
      " line 19",
      " line 20",
    ].join("\n"),
  );
  // With less context the hunks stay apart; close changes share one hunk.
  assertEquals(
    unifiedDiff(before.join("\n"), after.join("\n"), LABELS, 1),
    [
      "--- a/settings.json",
      "+++ b/settings.json",
      " line 1",
      "-line 2",
      "+CHANGED 2",
      " line 3",
      "@@",
      " line 17",
      "-line 18",
      "+CHANGED 18",
      " line 19",
    ].join("\n"),
  );
  // Changes 4 unchanged lines apart share one hunk; 7 apart, one line between the contexts is left out.
  const twelve = before.slice(0, 12);
  const near = twelve.map((line) => line === "line 3" || line === "line 8" ? line.toUpperCase() : line);
  assertEquals(
    unifiedDiff(twelve.join("\n"), near.join("\n"), LABELS).split("\n"),
    [
      "--- a/settings.json",
      "+++ b/settings.json",
      " line 1",
      " line 2",
      "-line 3",
      "+LINE 3",
      " line 4",
      " line 5",
      " line 6",
      " line 7",
      "-line 8",
      "+LINE 8",
      " line 9",
      " line 10",
      " line 11",
    ],
  );
  const fourteen = before.slice(0, 14);
  const apart = fourteen.map((line) => line === "line 3" || line === "line 11" ? line.toUpperCase() : line);
  assertEquals(
    unifiedDiff(fourteen.join("\n"), apart.join("\n"), LABELS).split("\n"),
    [
      "--- a/settings.json",
      "+++ b/settings.json",
      " line 1",
      " line 2",
      "-line 3",
      "+LINE 3",
      " line 4",
      " line 5",
      " line 6",
      "@@",
      " line 8",
      " line 9",
      " line 10",
      "-line 11",
      "+LINE 11",
      " line 12",
      " line 13",
      " line 14",
    ],
  );
});

// ---- paths ---------------------------------------------------------------------------------------------

Deno.test("baseName and dirName with either separator", () => {
  assertEquals(baseName("/a/b/settings.json"), "settings.json");
  assertEquals(baseName("C:\\Users\\me\\docsearch-hook.exe"), "docsearch-hook.exe");
  assertEquals(baseName("C:\\Users\\me/mixed\\deno.exe"), "deno.exe");
  assertEquals(baseName("C:/Program Files/deno"), "deno");
  assertEquals(baseName("main.ts"), "main.ts");
  assertEquals(baseName("/a/b/"), "");

  assertEquals(dirName("/a/b/settings.json"), "/a/b");
  assertEquals(dirName("C:\\Users\\me\\.claude\\settings.json"), "C:\\Users\\me\\.claude");
  assertEquals(dirName("C:\\Users\\me/.claude\\settings.json"), "C:\\Users\\me/.claude");
  assertEquals(dirName("relative/settings.json"), "relative");
  assertEquals(dirName("settings.json"), ".");
});

Deno.test("dirName of a file at the root is the root, not the current directory", () => {
  assertEquals(dirName("/settings.json"), "/");
  assertEquals(dirName("C:\\settings.json"), "C:\\");
  assertEquals(dirName("c:/settings.json"), "c:/");
  assertEquals(dirName("\\settings.json"), "\\");
  // A drive without a separator is relative to that drive's current folder: no root to keep.
  assertEquals(dirName("C:a\\settings.json"), "C:a");
  assertEquals(dirName("1:\\x"), "1:");
});

// ---- what a reviewer found: compound lines, hand-made additions, values a rewrite would change -----------

Deno.test("ourCommand: a line that pipes or chains our command with another is the user's, never ours", () => {
  for (
    const line of [
      `~/bin/docsearch-hook hook || notify-send "hook failed"`,
      "/x/docsearch-hook hook && echo done",
      "/x/docsearch-hook hook | tee /tmp/log",
      "/x/docsearch-hook hook 2>>/tmp/err",
      "/x/docsearch-hook hook; echo next",
      "/x/docsearch-hook hook $(cat extra)",
      '/x/docsearch-hook hook "`date`"',
    ]
  ) assertEquals(ourCommand(line), undefined, line);
  // Quoted operators are data, not operators.
  assertEquals(ourCommand("/x/docsearch-hook hook --note 'a || b'")?.program, "/x/docsearch-hook");
});

Deno.test("ourCommand: variable assignments (or env) before the command, options after hook, as written", () => {
  assertEquals(ourCommand("DOCSEARCH_CONFIG=$HOME/c.json /x/docsearch-hook hook --config ~/y.json"), {
    program: "/x/docsearch-hook",
    before: "DOCSEARCH_CONFIG=$HOME/c.json",
    after: "--config ~/y.json",
  });
  assertEquals(ourCommand("env A=1 B='two words' docsearch-hook hook")?.before, "env A=1 B='two words'");
  assertEquals(ourCommand("/x/docsearch-hook hook"), { program: "/x/docsearch-hook" });
  // Escaped operators are literal characters, not operators.
  assertEquals(ourCommand("/x/docsearch-hook hook --x=a\\|b")?.after, "--x=a\\|b");
  for (
    const line of [
      "env",
      "env A=b",
      "A=b",
      "/x/docsearch-hook hook # note",
      "/x/docsearch-hook hook\necho hi",
    ]
  ) {
    assertEquals(ourCommand(line), undefined, line);
  }
  // A trailing line break is only a blank.
  assertEquals(ourCommand("/x/docsearch-hook hook\n")?.program, "/x/docsearch-hook");
});

Deno.test("withRegistration keeps what the user added to an entry of ours, and is then idempotent", () => {
  const custom = "DOCSEARCH_CONFIG='/my docs/c.json' /old/docsearch-hook hook --config ~/y.json";
  const before: Settings = { hooks: { Stop: [{ hooks: [{ type: "command", command: custom }] }] } };
  const first = withRegistration(before, COMMAND, "claude");
  const stop = first.settings.hooks!.Stop;
  assertEquals(stop.length, 1);
  assertEquals(
    stop[0].hooks[0].command,
    "DOCSEARCH_CONFIG='/my docs/c.json' /home/me/.local/bin/docsearch-hook hook --config ~/y.json",
  );
  // Only that event was customised: the others get the plain command.
  assertEquals(first.settings.hooks!.PreToolUse[0].hooks[0].command, COMMAND);
  assertEquals(withRegistration(first.settings, COMMAND, "claude").changed, false);
  // And uninstall recognises the customised entry as ours.
  assertEquals(withoutRegistration(first.settings).settings, {});
});

Deno.test("withRegistration leaves a compound line of the user's in place, next to ours", () => {
  const line = "/x/docsearch-hook hook || true";
  const before: Settings = { hooks: { Stop: [{ hooks: [{ type: "command", command: line }] }] } };
  const after = withRegistration(before, COMMAND, "claude").settings;
  assertEquals(after.hooks!.Stop.map((group) => group.hooks[0].command), [line, COMMAND]);
});

Deno.test("withRegistration drops an event list that only an entry of ours for another agent filled", () => {
  const before: Settings = {
    hooks: { PostToolUseFailure: [{ matcher: "*", hooks: [{ type: "command", command: OLD_COMMAND }] }] },
  };
  const after = withRegistration(before, COMMAND, "ripperdoc").settings;
  ok(!("PostToolUseFailure" in after.hooks!), JSON.stringify(after));
});

Deno.test("formatSettings keeps CRLF line endings", () => {
  const text = '{\r\n  "model": "opus"\r\n}\r\n';
  const merged = withRegistration(parseSettings(text, "s.json"), COMMAND, "claude").settings;
  const out = formatSettings(merged, layoutOf(text));
  ok(out.endsWith("}\r\n"));
  assertEquals(out.split("\r\n").length, out.split("\n").length);
});

Deno.test("unifiedDiff compares only the middle that differs, and summarises a change too large to show", () => {
  const lines = Array.from({ length: 30_000 }, (_, i) => `line ${i}`);
  const changed = [...lines.slice(0, 15_000), "new", ...lines.slice(15_000)];
  const diff = unifiedDiff(lines.join("\n"), changed.join("\n"), ["a", "b"]);
  assertEquals(diff.split("\n").filter((line) => /^[+-][^+-]/.test(line)), ["+new"]);
  const other = Array.from({ length: 3_000 }, (_, i) => `other ${i}`);
  const huge = unifiedDiff(lines.join("\n"), other.join("\n"), ["a", "b"]);
  match(huge, /30000 lines would be replaced by 3000: too large a change to show line by line/);
});

Deno.test("resolvePath: relative paths from a base, . and .. resolved, absolute ones as given", () => {
  assertEquals(
    resolvePath("/home/me/work", "./bin/docsearch-hook", "linux"),
    "/home/me/work/bin/docsearch-hook",
  );
  assertEquals(resolvePath("/home/me/work/", "../bin/x", "linux"), "/home/me/bin/x");
  assertEquals(resolvePath("/a", "../../x", "linux"), "/x");
  assertEquals(resolvePath("/opt", "/usr/bin/x", "linux"), "/usr/bin/x");
  assertEquals(resolvePath("C:\\Users\\me", "..\\tools\\x.exe", "windows"), "C:\\Users\\tools\\x.exe");
  assertEquals(resolvePath("C:\\Users\\me", "D:\\x.exe", "windows"), "D:\\x.exe");
  assertEquals(resolvePath("C:\\a", "..", "windows"), "C:\\");
  assertEquals(resolvePath("C:\\p", "\\x", "windows"), "C:\\x");
  assertEquals(resolvePath("\\\\srv\\share\\d", "..\\..\\..\\x", "windows"), "\\\\srv\\share\\x");
});

Deno.test("parseSettings: a bad escape inside a string still gets line and column (V8's own position)", () => {
  throws(
    () => parseSettings('{\n  "a": "bad \\x escape"\n}', "s.json"),
    /s\.json: invalid JSON at line 2, column \d+: /,
  );
});
