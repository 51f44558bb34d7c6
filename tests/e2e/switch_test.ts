/**
 * Per-session switches end to end: `disable` / `enable` / `status` and the hook they steer, each a real
 * process (`deno run -A main.ts …`) sharing one sandboxed state database, plus the slash commands that
 * `install --commands` writes, run the way Claude Code runs them.
 */
import { deepStrictEqual as assertEquals, match, ok } from "node:assert/strict";
import {
  type CliResult,
  event,
  exists,
  listDir,
  readFixture,
  REGISTERED,
  runCli,
  runProgram,
  type Sandbox,
  sandbox,
} from "../helpers.ts";

const EXAMPLE = JSON.parse(readFixture("../config.example.json"));
const USER_CONFIG = ".claude/hooks/docsearch-config.json";

const projectOf = (box: Sandbox) => `${box.home}/project`;

/** A sandbox with the example config as the user's, and an empty project directory to run commands in. */
async function configured(config: unknown = EXAMPLE): Promise<Sandbox> {
  const box = await sandbox();
  await Deno.mkdir(`${box.home}/.claude/hooks`, { recursive: true });
  await Deno.writeTextFile(`${box.home}/${USER_CONFIG}`, JSON.stringify(config));
  await Deno.mkdir(projectOf(box));
  return box;
}

/** The example config with some top-level fields replaced. */
const exampleWith = (overrides: Record<string, unknown>) => ({ ...structuredClone(EXAMPLE), ...overrides });

// ---- running things ------------------------------------------------------------------------------------

interface Run {
  env?: Record<string, string>;
  /** Defaults to the sandbox's project directory, where no session has been seen. */
  cwd?: string;
}

/** A command as typed in a shell in `cwd` (which sets PWD, and symlinks in it matter for sessions). */
const cli = (box: Sandbox, args: string[], { env = {}, cwd = projectOf(box) }: Run = {}) =>
  runCli(args, { env: { ...box.env, PWD: cwd, ...env }, cwd });

const hook = (box: Sandbox, stdin: string, env: Record<string, string> = {}) =>
  runCli(["hook"], { env: { ...box.env, ...env }, stdin });

/** The fixture search (gitlab, by keyword and by its allowed domain) from one session. */
const gitlabSearch = (session: string) => event("PreToolUse.WebSearch.json", { session_id: session });

/** A search that only the named topic matches; distinct queries keep the escape hatch out of the way. */
const searchFor = (session: string, query: string) =>
  event("PreToolUse.WebSearch.json", {
    session_id: session,
    tool_input: { query, allowed_domains: [], blocked_domains: [] },
  });

const sessionStart = (session: string, overrides: Record<string, unknown> = {}) =>
  event("SessionStart.json", { session_id: session, ...overrides });

/** The fixture prompt (it mentions GitLab CI) unless `text` is given. */
const prompt = (session: string, text?: string, overrides: Record<string, unknown> = {}) =>
  event("UserPromptSubmit.json", {
    session_id: session,
    ...(text === undefined ? {} : { prompt: text }),
    ...overrides,
  });

// ---- what came out -------------------------------------------------------------------------------------

function denied(result: CliResult): string {
  assertEquals([result.code, result.stderr], [0, ""], result.stderr);
  const output = JSON.parse(result.stdout).hookSpecificOutput;
  assertEquals([output.hookEventName, output.permissionDecision], ["PreToolUse", "deny"]);
  return output.permissionDecisionReason as string;
}

/** The hook's silent allow: the only answer that leaves the agent's own permission rules in charge. */
function silent(result: CliResult) {
  assertEquals(result, { code: 0, stdout: "", stderr: "" });
}

/** Exactly one JSON object with exactly the two fields Claude Code reads; returns the context text. */
function injected(result: CliResult, hookEventName: string): string {
  assertEquals([result.code, result.stderr], [0, ""], result.stderr);
  assertEquals(result.stdout.trimEnd().split("\n").length, 1, result.stdout);
  const parsed = JSON.parse(result.stdout);
  assertEquals(Object.keys(parsed), ["hookSpecificOutput"]);
  assertEquals(Object.keys(parsed.hookSpecificOutput).sort(), ["additionalContext", "hookEventName"]);
  assertEquals(parsed.hookSpecificOutput.hookEventName, hookEventName);
  const text = parsed.hookSpecificOutput.additionalContext;
  ok(typeof text === "string" && text.length > 0);
  return text;
}

/** A command that did what it was asked: exit 0, nothing on stderr, and it names the session it acted on. */
function done(result: CliResult, session: string): string {
  assertEquals([result.code, result.stderr], [0, ""], result.stderr);
  ok(result.stdout.startsWith(`In session ${session} (`), result.stdout);
  return result.stdout;
}

/** A command that refused: exit 1, nothing on stdout, the reason on stderr. */
function refused(result: CliResult): string {
  assertEquals([result.code, result.stdout], [1, ""], result.stderr);
  ok(result.stderr.length > 0);
  return result.stderr;
}

interface Status {
  session?: { id: string; via: string; seen: boolean };
  killSwitch: boolean;
  off: Record<string, string>;
}

/** `status --json`, reduced to what is off and why (what is on is simply absent). */
async function status(box: Sandbox, args: string[] = [], run: Run = {}): Promise<Status> {
  const result = await cli(box, ["status", "--json", ...args], run);
  assertEquals([result.code, result.stderr], [0, ""], result.stderr);
  const report = JSON.parse(result.stdout);
  const lines = report.switches as { name: string; on: boolean; why?: string }[];
  for (const line of lines) assertEquals(line.on, line.why === undefined, line.name);
  return {
    session: report.session,
    killSwitch: report.killSwitch,
    off: Object.fromEntries(lines.filter((l) => !l.on).map((l) => [l.name, l.why!])),
  };
}

const SESSION_OFF = "switched off for this session";

// ---- 1. the "done when" --------------------------------------------------------------------------

Deno.test("disable redirect lets one session's searches through; enable redirect denies them again", async () => {
  await using box = await configured();
  denied(await hook(box, gitlabSearch("warm-up")));

  const off = done(await cli(box, ["disable", "redirect", "--session", "alpha"]), "alpha");
  match(off, /Disabled the redirect feature for this session\. Web searches pass through\./);
  match(off, /Other sessions are not affected\./);
  match(off, /Turn it back on: docsearch-hook enable redirect\n$/);

  silent(await hook(box, gitlabSearch("alpha")));
  silent(await hook(box, searchFor("alpha", "kubectl rollout undo")));
  denied(await hook(box, gitlabSearch("beta")));

  const text = await cli(box, ["status", "--session", "alpha"]);
  assertEquals([text.code, text.stderr], [0, ""]);
  match(text.stdout, /^Status for session alpha \(/);
  match(text.stdout, /^ {2}redirect +off +deny web searches.*\[off: switched off for this session\]$/m);
  match(text.stdout, /^ {2}gitlab +on +GitLab documentation/m);
  assertEquals((await status(box, ["--session", "alpha"])).off, { redirect: SESSION_OFF });

  const on = done(await cli(box, ["enable", "redirect", "--session", "alpha"]), "alpha");
  match(on, /Re-enabled the redirect feature for this session\.\n$/);
  // Nothing was remembered while the redirect was off, so this is a first request again.
  match(denied(await hook(box, gitlabSearch("alpha"))), /"gitlab" matches the "gitlab" docs/);
  match((await cli(box, ["status", "--session", "alpha"])).stdout, /^ {2}redirect +on +deny web searches/m);
  assertEquals((await status(box, ["--session", "alpha"])).off, {});
});

// ---- 2. which session a command acts on ------------------------------------------------------------------

Deno.test("session choice: --session, then CLAUDE_CODE_SESSION_ID, then RIPPERDOC_SESSION_ID, then the directory", async () => {
  await using box = await configured();
  const dir = projectOf(box);
  injected(await hook(box, sessionStart("in-dir", { cwd: dir })), "SessionStart");

  const byDir = done(await cli(box, ["disable", "redirect"]), "in-dir");
  // The agent is unknown here (the sandbox sets no agent variables), so only the directory is named.
  match(byDir, /^In session in-dir \(latest session in this directory; in \/.*\/project, last active/);

  const claude = { CLAUDE_CODE_SESSION_ID: "from-claude" };
  const ripper = { RIPPERDOC_SESSION_ID: "from-ripperdoc" };
  match(
    done(await cli(box, ["disable", "redirect"], { env: ripper }), "from-ripperdoc"),
    /\(RIPPERDOC_SESSION_ID; not seen by the hook yet\)/,
  );
  match(
    done(await cli(box, ["disable", "redirect"], { env: { ...ripper, ...claude } }), "from-claude"),
    /\(CLAUDE_CODE_SESSION_ID; not seen by the hook yet\)/,
  );
  match(
    done(await cli(box, ["disable", "redirect", "--session", "from-flag"], { env: claude }), "from-flag"),
    /\(--session; not seen by the hook yet\)/,
  );
  // Slash commands pass `--session "${CLAUDE_SESSION_ID}"`, which older agents leave empty.
  match(
    done(await cli(box, ["enable", "redirect", "--session", ""], { env: claude }), "from-claude"),
    /\(CLAUDE_CODE_SESSION_ID; .*\):\nRe-enabled the redirect feature/,
  );
  match(
    done(await cli(box, ["enable", "redirect", "--session", "  "], { env: ripper }), "from-ripperdoc"),
    /Re-enabled/,
  );

  // Each command changed only the session it named.
  assertEquals((await status(box, ["--session", "in-dir"])).off, { redirect: SESSION_OFF });
  assertEquals((await status(box, ["--session", "from-flag"])).off, { redirect: SESSION_OFF });
  assertEquals((await status(box, ["--session", "from-claude"])).off, {});
  assertEquals((await status(box, ["--session", "from-ripperdoc"])).off, {});
  // status chooses the same way.
  assertEquals((await status(box)).session?.id, "in-dir");
  assertEquals((await status(box, [], { env: claude })).session?.id, "from-claude");
  assertEquals((await status(box, ["--session", "from-flag"], { env: claude })).session?.id, "from-flag");
});

Deno.test("the directory's latest session wins, and a session elsewhere is never chosen", async () => {
  await using box = await configured();
  const dir = projectOf(box);
  const elsewhere = `${box.home}/elsewhere`;
  await Deno.mkdir(elsewhere);
  injected(await hook(box, sessionStart("older", { cwd: dir })), "SessionStart");
  injected(await hook(box, sessionStart("newer", { cwd: dir })), "SessionStart");
  injected(await hook(box, sessionStart("other-dir", { cwd: elsewhere })), "SessionStart");
  done(await cli(box, ["disable", "capture"]), "newer");

  // Any event makes a session the latest again.
  silent(await hook(box, prompt("older", "Fix the failing auth test", { cwd: dir })));
  done(await cli(box, ["disable", "context"]), "older");

  done(await cli(box, ["disable", "redirect"], { cwd: elsewhere }), "other-dir");
  assertEquals((await status(box, ["--session", "newer"])).off, { capture: SESSION_OFF });
  assertEquals((await status(box, ["--session", "older"])).off, { context: SESSION_OFF });
  assertEquals((await status(box, ["--session", "other-dir"])).off, { redirect: SESSION_OFF });
});

Deno.test("a session reported through a symlinked directory is found from there, and from its target", async () => {
  await using box = await configured();
  const real = `${box.home}/real`;
  const link = `${box.home}/link`;
  await Deno.mkdir(real);
  await Deno.symlink(real, link);
  injected(await hook(box, sessionStart("via-link", { cwd: link })), "SessionStart");
  done(await cli(box, ["disable", "redirect"], { cwd: link }), "via-link");

  injected(await hook(box, sessionStart("via-real", { cwd: real })), "SessionStart");
  done(await cli(box, ["disable", "capture"], { cwd: link }), "via-real");
});

Deno.test("a unique start of a session id is enough; an ambiguous one is refused", async () => {
  await using box = await configured();
  for (const id of ["3f2a9c-one", "3f2b77-two", "3f2b88-three"]) {
    injected(await hook(box, sessionStart(id)), "SessionStart");
  }
  match(
    done(await cli(box, ["disable", "redirect", "--session", "3f2a"]), "3f2a9c-one"),
    /\(--session \(start of its id\); /,
  );
  const ambiguous = refused(await cli(box, ["disable", "redirect", "--session", "3f2b"]));
  match(ambiguous, /several sessions start with "3f2b": /);
  ok(ambiguous.includes("3f2b77-two") && ambiguous.includes("3f2b88-three"), ambiguous);
  match(ambiguous, /fix: give more of the session id/);

  assertEquals((await status(box, ["--session", "3f2a9c-one"])).off, { redirect: SESSION_OFF });
  assertEquals((await status(box, ["--session", "3f2b77-two"])).off, {});
  assertEquals((await status(box, ["--session", "3f2b88-three"])).off, {});
  silent(await hook(box, gitlabSearch("3f2a9c-one")));
  denied(await hook(box, gitlabSearch("3f2b77-two")));
});

Deno.test("no flag, no variable and no session in this directory: exit 1 pointing at --session", async () => {
  await using box = await configured();
  // A session exists, but in another directory (the fixture's).
  injected(await hook(box, sessionStart("far-away")), "SessionStart");
  for (
    const args of [["disable", "redirect"], ["enable", "redirect"], ["disable", "redirect", "--session", ""]]
  ) {
    const stderr = refused(await cli(box, args, { env: { CLAUDE_CODE_SESSION_ID: "" } }));
    match(stderr, /^docsearch-hook (disable|enable): no agent session found for \/.*\/project\n/);
    match(stderr, /fix: pass --session ID/);
  }
  assertEquals((await status(box, ["--session", "far-away"])).off, {});

  // status still answers, for what holds in every session.
  const text = await cli(box, ["status"]);
  assertEquals([text.code, text.stderr], [0, ""]);
  match(text.stdout, /^No session found for this directory \(pass --session ID/);
});

// ---- 3. isolation and persistence ------------------------------------------------------------------------

Deno.test("a switch holds for its session only, across events, a resume and new processes", async () => {
  await using box = await configured();
  injected(await hook(box, sessionStart("session-a")), "SessionStart");
  injected(await hook(box, sessionStart("session-b")), "SessionStart");
  done(await cli(box, ["disable", "redirect", "--session", "session-a"]), "session-a");

  silent(await hook(box, gitlabSearch("session-a")));
  denied(await hook(box, gitlabSearch("session-b")));

  // The session goes on, ends, and is resumed: none of its events resets the switch.
  silent(await hook(box, prompt("session-a", "Fix the failing auth test")));
  silent(await hook(box, event("SessionEnd.json", { session_id: "session-a" })));
  const resumed = injected(await hook(box, sessionStart("session-a", { source: "resume" })), "SessionStart");
  ok(!resumed.includes("redirected"), resumed);
  silent(await hook(box, searchFor("session-a", "kubectl get pods")));
  denied(await hook(box, searchFor("session-b", "kubectl get pods")));

  assertEquals((await status(box, ["--session", "session-a"])).off, { redirect: SESSION_OFF });
  assertEquals((await status(box, ["--session", "session-b"])).off, {});
});

Deno.test("a switch set before the session's first event holds from that event on", async () => {
  await using box = await configured();
  match(
    done(await cli(box, ["disable", "redirect", "--session", "not-yet"]), "not-yet"),
    /\(--session; not seen by the hook yet\)/,
  );
  const context = injected(await hook(box, sessionStart("not-yet")), "SessionStart");
  ok(!context.includes("Web searches on these topics are redirected"), context);
  silent(await hook(box, gitlabSearch("not-yet")));
  const seen = await status(box, ["--session", "not-yet"]);
  assertEquals([seen.session?.seen, seen.off], [true, { redirect: SESSION_OFF }]);
});

// ---- 4. one database at a time ---------------------------------------------------------------------------

Deno.test("disable gitlab: gitlab searches pass and leave the context; kubernetes is still redirected", async () => {
  await using box = await configured();
  const off = done(await cli(box, ["disable", "gitlab", "--session", "s1"]), "s1");
  match(off, /Disabled the "gitlab" docs for this session\. Web searches about gitlab pass through/);
  match(off, /Turn it back on: docsearch-hook enable gitlab\n$/);

  silent(await hook(box, gitlabSearch("s1")));
  match(
    denied(await hook(box, searchFor("s1", "kubectl drain a node"))),
    /"kubectl" matches the "kubernetes"/,
  );
  // A search both match is redirected to kubernetes alone.
  const both = denied(await hook(box, event("PreToolUse.WebSearch.multi.json", { session_id: "s1" })));
  match(both, /"kubernetes"/);
  ok(!both.includes('"gitlab"'), both);
  ok(!both.includes("IN PARALLEL"), both);
  denied(await hook(box, gitlabSearch("s2")));

  const context = injected(await hook(box, sessionStart("s1")), "SessionStart");
  match(context, /^- kubernetes: /m);
  match(context, /^- dotnet: /m);
  ok(!context.toLowerCase().includes("gitlab"), context);
  match(injected(await hook(box, sessionStart("s2")), "SessionStart"), /^- gitlab: /m);

  silent(await hook(box, prompt("s1")));
  match(
    injected(await hook(box, prompt("s1", "How do I use kubectl to roll back?")), "UserPromptSubmit"),
    /"kubectl" is covered by the local "kubernetes" docs/,
  );
  match(injected(await hook(box, prompt("s2")), "UserPromptSubmit"), /local "gitlab" docs/);

  assertEquals((await status(box, ["--session", "s1"])).off, { gitlab: SESSION_OFF });
  done(await cli(box, ["enable", "gitlab", "--session", "s1"]), "s1");
  denied(await hook(box, gitlabSearch("s1")));
});

Deno.test("disable runner finds gitlab by its keyword and switches only gitlab off", async () => {
  await using box = await configured();
  match(
    done(await cli(box, ["disable", "runner", "--session", "s1"]), "s1"),
    /Disabled the "gitlab" docs for this session\./,
  );
  assertEquals((await status(box, ["--session", "s1"])).off, { gitlab: SESSION_OFF });
  silent(await hook(box, gitlabSearch("s1")));
  denied(await hook(box, searchFor("s1", "k8s ingress annotations")));
  // A whole keyword with a space, and a different case, name the same database.
  match(
    done(await cli(box, ["enable", "GitLab Runner", "--session", "s1"]), "s1"),
    /Re-enabled the "gitlab"/,
  );
  assertEquals((await status(box, ["--session", "s1"])).off, {});
});

// ---- 5. names, exit codes and messages -------------------------------------------------------------------

Deno.test("an ambiguous name lists the candidates and an unknown one lists what exists: exit 1, nothing changed", async () => {
  await using box = await configured();
  const ambiguous = refused(await cli(box, ["disable", "a", "--session", "s1"]));
  match(ambiguous, /^docsearch-hook disable: several things match "a":\n/);
  for (const name of ["capture", "all", "gitlab", "dotnet"]) {
    match(ambiguous, new RegExp(`^ {2}- ${name}: `, "m"));
  }
  ok(!/^ {2}- (redirect|context|kubernetes):/m.test(ambiguous), ambiguous);
  match(ambiguous, /fix: be more specific/);

  const unknown = refused(await cli(box, ["enable", "terraform", "--session", "s1"]));
  match(unknown, /^docsearch-hook enable: nothing matches "terraform"\. What exists:\nFeatures:\n/);
  for (const name of ["redirect", "capture", "context", "all", "gitlab", "kubernetes", "dotnet"]) {
    match(unknown, new RegExp(`^ {2}${name} +\\S`, "m"));
  }

  // Neither touched the session's switches.
  assertEquals((await status(box, ["--session", "s1"])).off, {});
  denied(await hook(box, gitlabSearch("s1")));
});

Deno.test("no name prints what can be switched and a Usage line; an unknown option is exit 2", async () => {
  await using box = await configured();
  // No session is needed just to see the list.
  for (const verb of ["disable", "enable"]) {
    const list = await cli(box, [verb]);
    assertEquals([list.code, list.stderr], [0, ""]);
    match(
      list.stdout,
      new RegExp(`^What can be switched ${verb === "disable" ? "off" : "on"} for a session:\n`),
    );
    match(list.stdout, /^Features:\n {2}redirect /m);
    match(
      list.stdout,
      /^Databases:\n {2}gitlab +GitLab documentation.*\(keywords: gitlab, gitlab-ci, gitlab runner\)$/m,
    );
    match(
      list.stdout,
      new RegExp(`\nUsage: docsearch-hook ${verb} <name> .*/docsearch:${verb} <name>\\)\n$`),
    );
  }

  const bad = await cli(box, ["disable", "--sesion", "s1", "redirect"]);
  assertEquals([bad.code, bad.stdout], [2, ""]);
  match(bad.stderr, /^docsearch-hook disable: unknown option --sesion\nUsage: docsearch-hook disable <name>/);
  const missing = await cli(box, ["enable", "redirect", "--session"]);
  assertEquals([missing.code, missing.stdout], [2, ""]);
  match(missing.stderr, /option --session needs a value/);
  assertEquals((await status(box, ["--session", "s1"])).off, {});
});

Deno.test("switching what is already so says so with exit 0", async () => {
  await using box = await configured();
  const notYet = done(await cli(box, ["enable", "redirect", "--session", "s1"]), "s1");
  match(notYet, /\nThe redirect feature is not disabled for this session\.\n$/);
  done(await cli(box, ["disable", "kubernetes", "--session", "s1"]), "s1");
  const again = done(await cli(box, ["disable", "k8s", "--session", "s1"]), "s1");
  match(again, /\nThe "kubernetes" docs is already disabled for this session\.\n$/);
  ok(!again.includes("Turn it back on"), again);
  done(await cli(box, ["enable", "all", "--session", "s1"]), "s1");
  match(
    done(await cli(box, ["enable", "all", "--session", "s1"]), "s1"),
    /\nEverything \(all\) is not disabled for this session\.\n$/,
  );
});

Deno.test("disable all silences the session; enabling one part is refused; enable all clears every switch", async () => {
  await using box = await configured();
  done(await cli(box, ["disable", "gitlab", "--session", "s1"]), "s1");
  done(await cli(box, ["disable", "redirect", "--session", "s1"]), "s1");
  match(
    done(await cli(box, ["disable", "all", "--session", "s1"]), "s1"),
    /Disabled everything \(all\) for this session\. docsearch-hook stays out of the way\./,
  );
  silent(await hook(box, sessionStart("s1")));
  silent(await hook(box, prompt("s1")));
  silent(await hook(box, searchFor("s1", "kubectl logs")));
  const all = await status(box, ["--session", "s1"]);
  assertEquals(all.off, {
    redirect: SESSION_OFF,
    capture: '"all" is switched off for this session',
    context: '"all" is switched off for this session',
    all: SESSION_OFF,
    gitlab: SESSION_OFF,
    kubernetes: '"all" is switched off for this session',
    dotnet: '"all" is switched off for this session',
  });

  // Nothing to do while "all" is off: exit 0, and the message says why.
  const under = await cli(box, ["enable", "context", "--session", "s1"]);
  assertEquals([under.code, under.stderr], [0, ""]);
  match(under.stdout, /^In session s1 \(/);
  match(under.stdout, /\nThe context feature is off because "all" is disabled for this session\.\n/);
  match(under.stdout, /Turn everything back on with: docsearch-hook enable all/);
  assertEquals((await status(box, ["--session", "s1"])).off, all.off);

  match(done(await cli(box, ["enable", "all", "--session", "s1"]), "s1"), /Re-enabled everything \(all\)/);
  assertEquals((await status(box, ["--session", "s1"])).off, {});
  denied(await hook(box, gitlabSearch("s1")));
  match(injected(await hook(box, sessionStart("s1")), "SessionStart"), /^- gitlab: /m);
});

// ---- 6. config and kill switch over session switches -----------------------------------------------------

Deno.test("a database the config turns off cannot be enabled for a session, and is already off", async () => {
  const config = structuredClone(EXAMPLE);
  config.databases[0].enabled = false;
  await using box = await configured(config);
  const file = `${box.home}/${USER_CONFIG}`;

  const enable = await cli(box, ["enable", "gitlab", "--session", "s1"]);
  assertEquals([enable.code, enable.stderr], [0, ""]);
  assertEquals(
    enable.stdout,
    `In session s1 (--session; not seen by the hook yet):\nThe "gitlab" docs stays off: "enabled": false in ${file}, ` +
      "which a session switch cannot override.\n",
  );
  const disable = done(await cli(box, ["disable", "gitlab", "--session", "s1"]), "s1");
  match(disable, /\nThe "gitlab" docs is already off for every session \("enabled": false in .*\)\.\n$/);
  ok(!disable.includes("Turn it back on"), disable);

  assertEquals((await status(box, ["--session", "s1"])).off, { gitlab: `"enabled": false in ${file}` });
  silent(await hook(box, searchFor("s1", "gitlab pipelines")));
  denied(await hook(box, searchFor("s1", "kubectl port-forward")));
});

Deno.test("context turned off in the config cannot be enabled for a session", async () => {
  await using box = await configured(exampleWith({ context: { enabled: false } }));
  const enable = await cli(box, ["enable", "context", "--session", "s1"]);
  assertEquals([enable.code, enable.stderr], [0, ""]);
  match(enable.stdout, /The context feature stays off: "context\.enabled": false in the config/);
  silent(await hook(box, sessionStart("s1")));
  silent(await hook(box, prompt("s1")));
});

Deno.test("DOCSEARCH_HOOK_DISABLED=1 silences the hook with everything enabled, and status says so", async () => {
  await using box = await configured();
  const kill = { DOCSEARCH_HOOK_DISABLED: "1" };
  silent(await hook(box, gitlabSearch("s1"), kill));
  silent(await hook(box, sessionStart("s1"), kill));
  silent(await hook(box, prompt("s1"), kill));

  const text = await cli(box, ["status", "--session", "s1"], { env: kill });
  assertEquals([text.code, text.stderr], [0, ""]);
  match(
    text.stdout,
    /\nDOCSEARCH_HOOK_DISABLED is set: every hook action is a silent allow, in every session\.\n/,
  );
  match(text.stdout, /^ {2}redirect +off .*\[off: DOCSEARCH_HOOK_DISABLED is set\]$/m);
  const json = await status(box, ["--session", "s1"], { env: kill });
  assertEquals(json.killSwitch, true);
  assertEquals(Object.values(json.off).length, 7);
  ok(Object.values(json.off).every((why) => why === "DOCSEARCH_HOOK_DISABLED is set"));

  match(
    done(await cli(box, ["enable", "redirect", "--session", "s1"], { env: kill }), "s1"),
    /\nNote: DOCSEARCH_HOOK_DISABLED is set, so the hook does nothing anyway\.\n$/,
  );
  // Without it, the same session is redirected as usual: the kill switch stored nothing.
  denied(await hook(box, gitlabSearch("s1")));
  assertEquals((await status(box, ["--session", "s1"])).killSwitch, false);
});

// ---- 7. context injection --------------------------------------------------------------------------------

Deno.test("SessionStart lists every enabled database with its tool and literal arguments", async () => {
  await using box = await configured();
  const context = injected(await hook(box, sessionStart("s1")), "SessionStart");
  match(context, /^docsearch-hook: local, version-correct documentation is available on this machine\./);
  match(context, /Web searches on these topics are redirected to them/);
  const entries = context.split("\n").filter((line) => line.startsWith("- "));
  assertEquals(entries, [
    "- gitlab: GitLab documentation from docs.gitlab.com (topics: gitlab, gitlab-ci, gitlab runner). " +
    'Search: mcp__leann__leann_search {"index_name":"gitlab","query":"<your question>"}',
    "- kubernetes: Kubernetes official documentation (topics: kubernetes, k8s, kubectl). " +
    'Search: mcp__leann__leann_search {"index_name":"kubernetes","query":"<your question>"}',
    "- dotnet: .NET and C# documentation (topics: .net, c#, asp.net core). " +
    'Search: mcp__docs__search {"collection":"dotnet","q":"<your question>","limit":5}',
  ]);
});

Deno.test("a prompt naming a keyword gets a hint; an unrelated prompt gets nothing at all", async () => {
  await using box = await configured();
  const hint = injected(await hook(box, prompt("s1")), "UserPromptSubmit");
  match(hint, /^docsearch-hook: "gitlab" is covered by the local "gitlab" docs \(GitLab documentation/);
  ok(hint.includes('mcp__leann__leann_search {"index_name":"gitlab","query":"<your question>"}'), hint);
  match(
    injected(await hook(box, prompt("s1", "Is C# faster than Go?")), "UserPromptSubmit"),
    /"c#" is covered by the local "dotnet" docs.*mcp__docs__search \{"collection":"dotnet"/,
  );
  const both = injected(await hook(box, prompt("s1", "Run the gitlab runner on k8s")), "UserPromptSubmit");
  match(both, /^docsearch-hook: this prompt touches 2 local docs databases; search them IN PARALLEL/);
  silent(await hook(box, prompt("s1", "Fix the failing auth test")));
  silent(await hook(box, prompt("s1", "")));
});

Deno.test("disable context silences SessionStart and prompt hints for that session only; the redirect stays", async () => {
  await using box = await configured();
  match(
    done(await cli(box, ["disable", "context", "--session", "quiet"]), "quiet"),
    /Disabled the context feature for this session\. No more notes or hints about local docs\./,
  );
  silent(await hook(box, sessionStart("quiet")));
  silent(await hook(box, prompt("quiet")));
  denied(await hook(box, gitlabSearch("quiet")));

  injected(await hook(box, sessionStart("chatty")), "SessionStart");
  injected(await hook(box, prompt("chatty")), "UserPromptSubmit");

  done(await cli(box, ["enable", "context", "--session", "quiet"]), "quiet");
  injected(await hook(box, sessionStart("quiet")), "SessionStart");
});

Deno.test("context.max_chars bounds the injected text", async () => {
  await using box = await configured(exampleWith({ context: { max_chars: 200 } }));
  const start = injected(await hook(box, sessionStart("s1")), "SessionStart");
  ok(start.length <= 200, `${start.length} chars: ${start}`);
  match(start, /^docsearch-hook: /);
  const hint = injected(await hook(box, prompt("s1")), "UserPromptSubmit");
  ok(hint.length <= 200, `${hint.length} chars: ${hint}`);
  match(hint, /"gitlab"/);
});

Deno.test("context.user_prompt false silences prompt hints only", async () => {
  await using box = await configured(exampleWith({ context: { user_prompt: false } }));
  silent(await hook(box, prompt("s1")));
  silent(await hook(box, prompt("s1", "kubectl apply -f deploy.yaml")));
  match(injected(await hook(box, sessionStart("s1")), "SessionStart"), /^- gitlab: /m);
  denied(await hook(box, gitlabSearch("s1")));
});

// ---- 8. the slash commands -------------------------------------------------------------------------------

const COMMAND_NAMES = ["disable", "enable", "status"] as const;
const commandsDir = (box: Sandbox) => `${box.home}/.claude/commands/docsearch`;
const commandFile = (box: Sandbox, name: string) => `${commandsDir(box)}/${name}.md`;
/** The program the slash commands run: the artifact install builds from this checkout. */
const MAIN = REGISTERED.at(-1)!;

/** The command between "!`" and "`": what Claude Code runs before the model sees the file. */
function bangCommand(text: string): string {
  const lines = text.split("\n").filter((line) => line.startsWith("!"));
  assertEquals(lines.length, 1, text);
  match(lines[0], /^!`[^`]+`$/);
  return lines[0].slice(2, -1);
}

/**
 * Claude Code replaces `${CLAUDE_SESSION_ID}` (2.1.9+; older versions leave it for the shell) and
 * `$ARGUMENTS` in the text, then has a shell run it in the project directory.
 */
async function runSlashCommand(
  box: Sandbox,
  name: string,
  { session, args = "", env = {} }: { session?: string; args?: string; env?: Record<string, string> },
): Promise<CliResult> {
  let command = bangCommand(await Deno.readTextFile(commandFile(box, name)));
  if (session !== undefined) command = command.replaceAll("${CLAUDE_SESSION_ID}", session);
  command = command.replaceAll("$ARGUMENTS", args);
  return await runProgram("sh", ["-c", command], {
    cwd: projectOf(box),
    env: { ...box.env, PWD: projectOf(box), ...env },
  });
}

/** The `!` line runs deno with --quiet: nothing but the command's own output reaches the agent. */
function quietSlash(result: CliResult) {
  assertEquals([result.code, result.stderr], [0, ""]);
}

Deno.test("install --commands writes the three slash commands running this checkout; a second run changes nothing", async () => {
  await using box = await configured();
  const first = await cli(box, ["install", "--commands"]);
  assertEquals([first.code, first.stderr], [0, ""]);
  match(first.stdout, /^Wrote 3 slash commands to .*\/\.claude\/commands\/docsearch: \/docsearch:disable/);
  assertEquals(await listDir(commandsDir(box)), ["disable.md", "enable.md", "status.md"]);

  const texts: Record<string, string> = {};
  for (const name of COMMAND_NAMES) {
    const text = await Deno.readTextFile(commandFile(box, name));
    texts[name] = text;
    match(text, /^---\ndescription: .+\n/);
    ok(text.includes("<!-- written by docsearch-hook install;"), text);
    const command = bangCommand(text);
    ok(
      command.startsWith(`${REGISTERED.join(" ")} ${name} `),
      command,
    );
    match(text, new RegExp(`^allowed-tools: Bash\\(.*docsearch-hook\\.js ${name}:\\*\\)$`, "m"));
  }
  ok(
    bangCommand(texts.disable).endsWith(
      ` ${MAIN} disable --slash --session "\${CLAUDE_SESSION_ID}" -- "$ARGUMENTS"`,
    ),
  );
  ok(
    bangCommand(texts.enable).endsWith(
      ` ${MAIN} enable --slash --session "\${CLAUDE_SESSION_ID}" -- "$ARGUMENTS"`,
    ),
  );
  ok(bangCommand(texts.status).endsWith(` ${MAIN} status --slash --session "\${CLAUDE_SESSION_ID}"`));
  match(texts.disable, /^argument-hint: /m);

  const before = await Promise.all(COMMAND_NAMES.map((n) => Deno.stat(commandFile(box, n))));
  const second = await cli(box, ["install", "--commands"]);
  assertEquals([second.code, second.stderr], [0, ""]);
  match(second.stdout, /^The slash commands in .* are up to date\.\n$/);
  for (const [i, name] of COMMAND_NAMES.entries()) {
    assertEquals(await Deno.readTextFile(commandFile(box, name)), texts[name]);
    const after = await Deno.stat(commandFile(box, name));
    assertEquals([after.ino, after.mtime?.getTime()], [before[i].ino, before[i].mtime?.getTime()], name);
  }
  assertEquals(await listDir(commandsDir(box)), ["disable.md", "enable.md", "status.md"]);
});

Deno.test("install --commands refuses, writing nothing, when a file of the same name is not ours", async () => {
  await using box = await configured();
  await Deno.mkdir(commandsDir(box), { recursive: true });
  const foreign = "---\ndescription: my own status command\n---\n!`git status`\n";
  await Deno.writeTextFile(commandFile(box, "status"), foreign);

  for (const extra of [[], ["--dry-run"]]) {
    const result = await cli(box, ["install", "--commands", ...extra]);
    const stderr = refused(result);
    match(stderr, /status\.md exists and was not written by docsearch-hook; nothing was changed\n/);
    match(stderr, /fix: move that file away/);
    assertEquals(await listDir(commandsDir(box)), ["status.md"]);
    assertEquals(await Deno.readTextFile(commandFile(box, "status")), foreign);
  }
});

Deno.test("install and uninstall --dry-run write and remove nothing", async () => {
  await using box = await configured();
  const dry = await cli(box, ["install", "--commands", "--dry-run"]);
  assertEquals([dry.code, dry.stderr], [0, ""]);
  for (const name of COMMAND_NAMES) ok(dry.stdout.includes(`Would write ${commandFile(box, name)}:\n---\n`));
  assertEquals(await exists(`${box.home}/.claude/commands`), false);

  assertEquals((await cli(box, ["install", "--commands"])).code, 0);
  const dryUninstall = await cli(box, ["uninstall", "--commands", "--dry-run"]);
  assertEquals([dryUninstall.code, dryUninstall.stderr], [0, ""]);
  assertEquals(
    dryUninstall.stdout,
    COMMAND_NAMES.map((name) => `Would remove ${commandFile(box, name)}\n`).join(""),
  );
  assertEquals(await listDir(commandsDir(box)), ["disable.md", "enable.md", "status.md"]);
});

Deno.test("uninstall --commands removes only the files install wrote", async () => {
  await using box = await configured();
  assertEquals((await cli(box, ["install", "--commands"])).code, 0);
  // The user's own command in the same folder, and one of ours replaced by their own version.
  const mine = "---\ndescription: mine\n---\nHello\n";
  await Deno.writeTextFile(`${commandsDir(box)}/mine.md`, mine);
  await Deno.writeTextFile(commandFile(box, "status"), mine);

  const result = await cli(box, ["uninstall", "--commands"]);
  assertEquals([result.code, result.stderr], [0, ""]);
  assertEquals(result.stdout, `Removed ${commandFile(box, "disable")}, ${commandFile(box, "enable")}.\n`);
  assertEquals(await listDir(commandsDir(box)), ["mine.md", "status.md"]);
  assertEquals(await Deno.readTextFile(commandFile(box, "status")), mine);

  const again = await cli(box, ["uninstall", "--commands"]);
  assertEquals([again.code, again.stderr], [0, ""]);
  match(again.stdout, /^No docsearch-hook slash commands in /);

  // With nothing of the user's left, the folder itself goes too.
  await Deno.remove(`${commandsDir(box)}/mine.md`);
  await Deno.remove(commandFile(box, "status"));
  assertEquals((await cli(box, ["install", "--commands"])).code, 0);
  assertEquals((await cli(box, ["uninstall", "--commands"])).code, 0);
  assertEquals(await exists(commandsDir(box)), false);
  assertEquals(await exists(`${box.home}/.claude/commands`), true);
});

Deno.test("the installed slash commands, run as Claude Code runs them, switch the session they name", async () => {
  await using box = await configured();
  assertEquals((await cli(box, ["install", "--commands"])).code, 0);
  injected(await hook(box, sessionStart("slash-a")), "SessionStart");

  const off = await runSlashCommand(box, "disable", { session: "slash-a", args: "redirect" });
  quietSlash(off);
  match(off.stdout, /^In session slash-a \(--session; /);
  match(off.stdout, /Disabled the redirect feature for this session\./);
  silent(await hook(box, gitlabSearch("slash-a")));
  denied(await hook(box, gitlabSearch("slash-b")));

  // What the user typed after the command, spaces and all, is one name.
  const keyword = await runSlashCommand(box, "disable", { session: "slash-a", args: "gitlab runner" });
  quietSlash(keyword);
  match(keyword.stdout, /Disabled the "gitlab" docs for this session\./);

  const shown = await runSlashCommand(box, "status", { session: "slash-a" });
  quietSlash(shown);
  match(shown.stdout, /^Status for session slash-a \(--session; /);
  match(shown.stdout, /^ {2}redirect +off /m);
  match(shown.stdout, /^ {2}gitlab +off /m);

  // An agent that leaves ${CLAUDE_SESSION_ID} to the shell: it is empty there, and the variable decides.
  const older = await runSlashCommand(box, "enable", {
    args: "redirect",
    env: { CLAUDE_CODE_SESSION_ID: "slash-a" },
  });
  quietSlash(older);
  match(older.stdout, /^In session slash-a \(CLAUDE_CODE_SESSION_ID; /);
  match(older.stdout, /Re-enabled the redirect feature for this session\./);
  // The redirect is back, for every database but the one still switched off.
  denied(await hook(box, searchFor("slash-a", "kubectl top nodes")));
  silent(await hook(box, searchFor("slash-a", "gitlab pages")));
  assertEquals((await status(box, ["--session", "slash-a"])).off, { gitlab: SESSION_OFF });

  // A name starting with "-" is a name, not an option, thanks to the `--` before it. A failure still exits 0
  // with its message on stdout (--slash): Claude Code would show only an error line otherwise.
  const dash = await runSlashCommand(box, "disable", { session: "slash-a", args: "--all" });
  assertEquals([dash.code, dash.stderr], [0, ""]);
  match(dash.stdout, /^docsearch-hook disable: nothing matches "--all"/);
  match(dash.stdout, /\n {2}fix: use one of the names above/);
  const typo = await runSlashCommand(box, "enable", { session: "slash-a", args: "a" });
  assertEquals([typo.code, typo.stderr], [0, ""]);
  match(typo.stdout, /several things match "a"/);
});

Deno.test('a switch under "all" says it stays off; status and --session read the session\'s own project config', async () => {
  await using box = await configured();
  const other = `${box.home}/other`;
  await Deno.mkdir(`${other}/.claude`, { recursive: true });
  await Deno.writeTextFile(
    `${other}/.claude/docsearch.local.json`,
    JSON.stringify({
      databases: [{ name: "terraform", keywords: ["terraform"], mcp_tool_name: "mcp__tf__search" }],
    }),
  );
  injected(await hook(box, sessionStart("elsewhere", { cwd: other })), "SessionStart");
  // Run from the sandbox's project: the terraform database exists only in the session's own project.
  const off = done(await cli(box, ["disable", "terraform", "--session", "elsewhere"]), "elsewhere");
  match(off, /Disabled the "terraform" docs for this session\./);
  assertEquals((await status(box, ["--session", "elsewhere"])).off, { terraform: SESSION_OFF });

  done(await cli(box, ["disable", "all", "--session", "elsewhere"]), "elsewhere");
  const back = done(await cli(box, ["enable", "terraform", "--session", "elsewhere"]), "elsewhere");
  match(back, /Re-enabled the "terraform" docs for this session\.\nIt stays off while "all" is disabled/);
});
