/**
 * `install` / `uninstall` end to end: each case a real `deno run -A main.ts install|uninstall …` under a
 * temp HOME, checking exit code, stdout and stderr separately and what ends up on disk. (`--commands` alone
 * is covered in switch_test.ts.)
 */
import { deepStrictEqual as assertEquals, match, ok } from "node:assert/strict";
import { NEXT_STEP } from "../../lib/docs/built_in.ts";
import { shellWords } from "../../lib/install/shell.ts";
import { parseSettings, registrationsIn } from "../../lib/install/settings.ts";
import { keptInOrder } from "../kept_lines.ts";
import { tree } from "../command_context.ts";
import {
  backupsOf,
  CLAUDE_ENTRIES,
  CLAUDE_REGISTRATION,
  event,
  exists,
  fixture,
  handlerKeys,
  listDir,
  REGISTERED,
  RIPPERDOC_EVENTS,
  ROOT,
  runCli,
  runProgram,
  type Sandbox,
  sandbox,
  succeeded,
} from "../helpers.ts";

const HOOK_WORDS = [...REGISTERED, "hook"];

/** Claude Code's handlers: one per event, but PreToolUse's 8 (the web tools', and one per fetcher under Bash). */
const CLAUDE_HANDLERS = 16;

const SLASH_FILES = ["disable.md", "enable.md", "status.md"];

const settingsOf = (box: Sandbox) => `${box.home}/.claude/settings.json`;
const configOf = (box: Sandbox) => `${box.home}/.claude/hooks/docsearch-config.json`;
const slashDirOf = (root: string) => `${root}/.claude/commands/docsearch`;

/** A user's settings with a hook and settings of their own. */
const USER_SETTINGS = {
  model: "opus",
  permissions: { allow: ["Bash(git status)"] },
  hooks: {
    PreToolUse: [{
      matcher: "Bash",
      hooks: [{ type: "command", command: "/usr/local/bin/guard.sh", timeout: 5 }],
    }],
  },
};
const USER_TEXT = JSON.stringify(USER_SETTINGS, null, 4) + "\n";

// ---- helpers -------------------------------------------------------------------------------------------

const cli = (
  box: Sandbox,
  args: string[],
  { env = {}, cwd }: { env?: Record<string, string>; cwd?: string } = {},
) => runCli(args, { env: { ...box.env, ...env }, cwd });

/** `text` names `path` (with either separator: Windows prints backslashes). */
const mentions = (text: string, path: string) =>
  ok(text.replaceAll("\\", "/").includes(path.replaceAll("\\", "/")), `${path} not in:\n${text}`);

const POSIX = Deno.build.os !== "windows";

interface Handler {
  type: string;
  command?: string;
  timeout?: number;
  async?: boolean;
  if?: string;
}
interface Group {
  matcher?: string;
  hooks: Handler[];
}

/** Our handlers in a settings file, by event: those whose command runs `words`. */
async function ours(
  path: string,
  words = HOOK_WORDS,
): Promise<{ event: string; group: Group; handler: Handler }[]> {
  const settings = JSON.parse(await Deno.readTextFile(path)) as { hooks?: Record<string, Group[]> };
  return Object.entries(settings.hooks ?? {}).flatMap(([event, groups]) =>
    groups.flatMap((group) =>
      group.hooks.filter((h) => h.command !== undefined && sameWords(shellWords(h.command), words))
        .map((handler) => ({ event, group, handler }))
    )
  );
}

const sameWords = (a: string[], b: string[]) => a.length === b.length && a.every((word, i) => word === b[i]);

/** What the agent waits for: the answers, and the ends that `claude -p` would cut off in the background. */
const WAITED_FOR = ["PreToolUse", "UserPromptSubmit", "SessionStart", "Stop", "SubagentStop", "SessionEnd"];

/**
 * Our handlers, with their matcher and `if`, for each event of the agent: one, but for Claude Code's PreToolUse
 * (the web tools', and one per fetcher under Bash); capture async on Claude Code only.
 */
async function registered(path: string, agent: "claude" | "ripperdoc", words = HOOK_WORDS) {
  const found = await ours(path, words);
  const expected = agent === "claude"
    ? CLAUDE_REGISTRATION
    : RIPPERDOC_EVENTS.map((event) => ({ event, ...CLAUDE_ENTRIES[event] }));
  const sorted = (keys: unknown[][]) => keys.map((key) => JSON.stringify(key)).sort();
  assertEquals(
    sorted(found.map((f) => [f.event, f.group.matcher, f.handler.if])),
    sorted(handlerKeys(expected)),
  );
  for (const f of found) {
    assertEquals(f.handler.type, "command");
    const background = !WAITED_FOR.includes(f.event);
    assertEquals(f.handler.async, agent === "claude" && background ? true : undefined, f.event);
    assertEquals(f.handler.timeout, f.event === "SessionEnd" ? 1 : background ? 30 : 10, f.event);
  }
}

/** `settings.json.bak-20261121T101500Z`: a UTC time from this test's run. */
function checkStamp(backup: string, started: Date) {
  const stamp = /\.bak-(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z(-\d+)?$/.exec(backup);
  ok(stamp, backup);
  const time = Date.parse(`${stamp[1]}-${stamp[2]}-${stamp[3]}T${stamp[4]}:${stamp[5]}:${stamp[6]}Z`);
  ok(time >= Math.floor(started.getTime() / 1000) * 1000 && time <= Date.now(), backup);
}

// ---- install -------------------------------------------------------------------------------------------

Deno.test("install in a fresh HOME: settings with the 9 events, a config with no databases, the slash commands; a second run changes nothing", async () => {
  await using box = await sandbox();
  const stdout = succeeded(await cli(box, ["install"]));
  mentions(stdout, settingsOf(box));
  ok(
    stdout.includes(
      `Created ${configOf(box)} with no databases yet: every web search passes until you add one.\n` +
        `Next: ${NEXT_STEP}.\n`,
    ),
    stdout,
  );
  await registered(settingsOf(box), "claude");
  assertEquals(JSON.parse(await Deno.readTextFile(configOf(box))), {
    escape_hatch_ttl_seconds: 300,
    databases: [],
  });
  assertEquals(await listDir(slashDirOf(box.home)), SLASH_FILES);
  assertEquals(await backupsOf(settingsOf(box)), []);

  const files = await tree(box.home);
  const text = await Deno.readTextFile(settingsOf(box));
  const config = await Deno.readTextFile(configOf(box));
  const again = succeeded(await cli(box, ["install"]));
  match(again, /already registered .*nothing changed/);
  assertEquals(await Deno.readTextFile(settingsOf(box)), text);
  assertEquals(await Deno.readTextFile(configOf(box)), config);
  assertEquals(await tree(box.home), files);
  assertEquals(await backupsOf(settingsOf(box)), []);
});

Deno.test("the first run is safe: after a fresh install the hook lets a docs web search through untouched, and doctor names the next step", async () => {
  await using box = await sandbox();
  const project = `${box.home}/project`;
  await Deno.mkdir(project);
  succeeded(await cli(box, ["install"], { cwd: project }));
  const search = event("PreToolUse.WebSearch.json", {
    cwd: project,
    tool_input: { query: "gitlab runner registration token", allowed_domains: [], blocked_domains: [] },
  });
  const hook = (env: Record<string, string> = {}) =>
    runCli(["hook"], { env: { ...box.env, ...env }, cwd: project, stdin: search });

  assertEquals(await hook(), { code: 0, stdout: "", stderr: "" });
  // The control: the same event with the example config, which install used to write, is denied.
  const example = await hook({ DOCSEARCH_CONFIG: `${ROOT}config.example.json` });
  assertEquals([example.code, example.stderr], [0, ""]);
  ok(example.stdout.includes('"permissionDecision":"deny"'), example.stdout);

  const doctor = await cli(box, ["doctor"], { cwd: project });
  assertEquals([doctor.code, doctor.stderr], [0, ""], doctor.stdout);
  const lines = doctor.stdout.split("\n");
  const problems = lines.filter((line) => /^[!✗] /.test(line));
  assertEquals(problems, ["! databases: no enabled database: every web search passes"], doctor.stdout);
  const fix = lines[lines.indexOf(problems[0]) + 1];
  assertEquals(fix, `    fix: ${NEXT_STEP}`);
  match(fix, /fix: docsearch-hook index add <name> /);
  match(doctor.stdout, /^✓ self-test: a WebSearch passed, as it should with no enabled database /m);
});

Deno.test("install into existing settings keeps the user's hook, settings and indentation, with a backup; uninstall restores them", async () => {
  await using box = await sandbox();
  await Deno.mkdir(`${box.home}/.claude/hooks`, { recursive: true });
  await Deno.writeTextFile(settingsOf(box), USER_TEXT);
  if (POSIX) await Deno.chmod(settingsOf(box), 0o640);
  // The user's own config is never overwritten.
  const myConfig = '{ "databases": [] }\n';
  await Deno.writeTextFile(configOf(box), myConfig);

  const started = new Date();
  const stdout = succeeded(await cli(box, ["install"]));
  const after = await Deno.readTextFile(settingsOf(box));
  const parsed = JSON.parse(after);
  assertEquals(after, JSON.stringify(parsed, null, 4) + "\n");
  if (POSIX) assertEquals((await Deno.stat(settingsOf(box))).mode! & 0o777, 0o640);
  assertEquals([parsed.model, parsed.permissions], [USER_SETTINGS.model, USER_SETTINGS.permissions]);
  ok(
    parsed.hooks.PreToolUse.some((g: Group) =>
      JSON.stringify(g) === JSON.stringify(USER_SETTINGS.hooks.PreToolUse[0])
    ),
    after,
  );
  await registered(settingsOf(box), "claude");
  const [backup, ...more] = await backupsOf(settingsOf(box));
  assertEquals(more, []);
  match(backup, /\/settings\.json\.bak-\d{8}T\d{6}Z$/);
  checkStamp(backup, started);
  assertEquals(await Deno.readTextFile(backup), USER_TEXT);
  mentions(stdout, backup);
  assertEquals(await Deno.readTextFile(configOf(box)), myConfig);
  ok(!/Created .*docsearch-config\.json/.test(stdout), stdout);
  assertEquals(await listDir(slashDirOf(box.home)), SLASH_FILES);

  const removed = succeeded(await cli(box, ["uninstall"]));
  mentions(removed, settingsOf(box));
  assertEquals(await Deno.readTextFile(settingsOf(box)), USER_TEXT);
  assertEquals(await exists(slashDirOf(box.home)), false);
  assertEquals(await Deno.readTextFile(configOf(box)), myConfig);
  // Uninstall backs up too: the file as install left it.
  const backups = await backupsOf(settingsOf(box));
  assertEquals(backups.length, 2);
  assertEquals(
    new Set(await Promise.all(backups.map((b) => Deno.readTextFile(b)))),
    new Set([USER_TEXT, after]),
  );

  const restored = await Deno.readTextFile(settingsOf(box));
  const files = await tree(box.home);
  const again = succeeded(await cli(box, ["uninstall"]));
  match(again, /No docsearch-hook entries in /);
  assertEquals(await Deno.readTextFile(settingsOf(box)), restored);
  assertEquals(await tree(box.home), files);
});

Deno.test("install over an older install's background Stop, SubagentStop and SessionEnd rewrites them in place, once", async () => {
  await using box = await sandbox();
  succeeded(await cli(box, ["install"]));
  // The file as an older install left it: the same command, but those three async with 30 s.
  const settings = JSON.parse(await Deno.readTextFile(settingsOf(box)));
  for (const event of ["Stop", "SubagentStop", "SessionEnd"]) {
    Object.assign(settings.hooks[event][0].hooks[0], { timeout: 30, async: true });
  }
  settings.hooks.Stop.unshift({ hooks: [{ type: "command", command: "notify-send done" }] });
  const older = JSON.stringify(settings, null, 2) + "\n";
  await Deno.writeTextFile(settingsOf(box), older);

  const stdout = succeeded(await cli(box, ["install"]));
  match(stdout, /Registered docsearch-hook for Claude Code/);
  await registered(settingsOf(box), "claude");
  const after = JSON.parse(await Deno.readTextFile(settingsOf(box)));
  assertEquals(after.hooks.Stop[0], { hooks: [{ type: "command", command: "notify-send done" }] });
  assertEquals(Object.keys(after.hooks), Object.keys(settings.hooks));
  const [backup, ...more] = await backupsOf(settingsOf(box));
  assertEquals(more, []);
  assertEquals(await Deno.readTextFile(backup), older);

  const text = await Deno.readTextFile(settingsOf(box));
  match(succeeded(await cli(box, ["install"])), /already registered .*nothing changed/);
  assertEquals(await Deno.readTextFile(settingsOf(box)), text);
  assertEquals((await backupsOf(settingsOf(box))).length, 1);
});

Deno.test("install --dry-run prints the diff and writes nothing", async () => {
  await using box = await sandbox();
  const fresh = succeeded(await cli(box, ["install", "--dry-run"]));
  const added = fresh.split("\n").filter((line) => line.startsWith("+") && !line.startsWith("+++"));
  ok(added.some((line) => line.includes(JSON.stringify(HOOK_WORDS.join(" ")))), fresh);
  mentions(fresh, settingsOf(box));
  assertEquals(await tree(box.home), []);

  await Deno.mkdir(`${box.home}/.claude`);
  await Deno.writeTextFile(settingsOf(box), USER_TEXT);
  const existing = succeeded(await cli(box, ["install", "--dry-run"]));
  ok(
    existing.split("\n").some((line) => line.startsWith("+") && line.includes("WebSearch|WebFetch")),
    existing,
  );
  ok(
    existing.split("\n").some((line) => line.startsWith("+") && line.includes(HOOK_WORDS.join(" "))),
    existing,
  );
  assertEquals(await tree(box.home), [".claude/", ".claude/settings.json"]);
  assertEquals(await Deno.readTextFile(settingsOf(box)), USER_TEXT);
});

Deno.test("install refuses a malformed settings.json with its line and column, changing nothing", async () => {
  await using box = await sandbox();
  await Deno.mkdir(`${box.home}/.claude`);
  const broken = '{\n    "model": "opus",\n}\n';
  await Deno.writeTextFile(settingsOf(box), broken);
  const result = await cli(box, ["install"]);
  assertEquals([result.code, result.stdout], [1, ""]);
  mentions(result.stderr, settingsOf(box));
  match(result.stderr, /line 3,? column 1\b/);
  assertEquals(await Deno.readTextFile(settingsOf(box)), broken);
  assertEquals(await tree(box.home), [".claude/", ".claude/settings.json"]);
});

Deno.test("install names the line and column of a trailing comma in a hooks list too", async () => {
  await using box = await sandbox();
  await Deno.mkdir(`${box.home}/.claude`);
  // What removing the last group of a list by hand leaves behind.
  const broken = '{\n  "hooks": {\n    "Stop": [\n      { "hooks": [] },\n    ]\n  }\n}\n';
  await Deno.writeTextFile(settingsOf(box), broken);
  const result = await cli(box, ["install"]);
  assertEquals([result.code, result.stdout], [1, ""]);
  mentions(result.stderr, settingsOf(box));
  match(result.stderr, /line 5,? column 5: a comma before the closing bracket\b/);
  assertEquals(await Deno.readTextFile(settingsOf(box)), broken);
  assertEquals(await tree(box.home), [".claude/", ".claude/settings.json"]);
});

Deno.test("install --agent gemini --mcp edits a settings file with comments in place; uninstall --mcp gives it back byte for byte", async () => {
  await using box = await sandbox();
  const path = `${box.home}/.gemini/settings.json`;
  const text = [
    "// Gemini CLI, from my dotfiles",
    "{",
    '    "model": {"name": "gemini-2.5-pro", "temperature": 1.0}, /* pinned */',
    '    "mcpServers": {',
    "        // local search",
    '        "leann": {"command": "leann_mcp", "timeout": 1e3}',
    "    }",
    "}",
    "",
  ].join("\n");
  await Deno.mkdir(`${box.home}/.gemini`);
  await Deno.writeTextFile(path, text);

  succeeded(await cli(box, ["install", "--agent", "gemini", "--mcp"]));
  const after = await Deno.readTextFile(path);
  // The user's lines, as typed, in order; only the leann server's and the end of mcpServers gain a comma.
  assertEquals(keptInOrder(text, after), 2);
  ok(
    after.includes('\n        "leann": {"command": "leann_mcp", "timeout": 1e3},\n        "docsearch": {\n'),
    after,
  );
  const settings = parseSettings(after, path, true);
  // Gemini CLI's six events (pinned in tests/install_agents_test.ts).
  assertEquals(registrationsIn(settings).length, 6);

  succeeded(await cli(box, ["uninstall", "--agent", "gemini", "--mcp"]));
  assertEquals(await Deno.readTextFile(path), text);
});

Deno.test("install --scope project and --scope local write under the current directory; local has no slash commands", async () => {
  await using box = await sandbox();
  const project = `${box.home}/project`;
  await Deno.mkdir(project);

  succeeded(await cli(box, ["install", "--scope", "project"], { cwd: project }));
  await registered(`${project}/.claude/settings.json`, "claude");
  assertEquals(await listDir(slashDirOf(project)), SLASH_FILES);
  assertEquals(await exists(settingsOf(box)), false);
  assertEquals(await exists(`${box.home}/.claude/commands`), false);

  const local = `${box.home}/local-project`;
  await Deno.mkdir(local);
  succeeded(await cli(box, ["install", "--scope", "local"], { cwd: local }));
  await registered(`${local}/.claude/settings.local.json`, "claude");
  assertEquals(await tree(local), [".claude/", ".claude/settings.local.json"]);
  assertEquals(await exists(settingsOf(box)), false);
  assertEquals(await exists(`${box.home}/.claude/commands`), false);
});

Deno.test("install --agent ripperdoc writes ~/.ripperdoc/hooks.json: 8 events, no async, no slash commands", async () => {
  await using box = await sandbox();
  succeeded(await cli(box, ["install", "--agent", "ripperdoc"]));
  const path = `${box.home}/.ripperdoc/hooks.json`;
  await registered(path, "ripperdoc");
  ok(!(await Deno.readTextFile(path)).includes('"async"'));
  assertEquals(await exists(settingsOf(box)), false);
  assertEquals(await exists(`${box.home}/.claude/commands`), false);
});

Deno.test("install --settings PATH writes that file instead of the scope's", async () => {
  await using box = await sandbox();
  const path = `${box.home}/elsewhere/my settings.json`;
  succeeded(await cli(box, ["install", "--settings", path]));
  await registered(path, "claude");
  assertEquals(await exists(settingsOf(box)), false);
});

Deno.test("install with a bad --scope or --agent is a usage error that writes nothing", async () => {
  await using box = await sandbox();
  for (const args of [["--scope", "global"], ["--agent", "cursor"]]) {
    const result = await cli(box, ["install", ...args]);
    assertEquals([result.code, result.stdout], [2, ""], args.join(" "));
    ok(result.stderr.includes(`"${args[1]}"`), result.stderr);
    match(result.stderr, /Usage: docsearch-hook install/);
  }
  assertEquals(await tree(box.home), []);
});

Deno.test("uninstall when the settings file does not exist says so and creates nothing", async () => {
  await using box = await sandbox();
  const stdout = succeeded(await cli(box, ["uninstall"]));
  match(stdout, /No docsearch-hook entries in /);
  mentions(stdout, settingsOf(box));
  assertEquals(await tree(box.home), []);
});

Deno.test({
  name: "a settings.json that is a symlink stays one; its target gets the change",
  ignore: !POSIX,
  fn: async () => {
    await using box = await sandbox();
    const target = `${box.home}/dotfiles/claude-settings.json`;
    await Deno.mkdir(`${box.home}/dotfiles`);
    await Deno.mkdir(`${box.home}/.claude`);
    await Deno.writeTextFile(target, USER_TEXT);
    await Deno.symlink(target, settingsOf(box));

    succeeded(await cli(box, ["install"]));
    ok((await Deno.lstat(settingsOf(box))).isSymlink);
    assertEquals(await Deno.readLink(settingsOf(box)), target);
    await registered(target, "claude");
    assertEquals(await listDir(`${box.home}/dotfiles`), ["claude-settings.json"]);
  },
});

Deno.test("DOCSEARCH_HOOK_SELF is the command that gets registered", async () => {
  await using box = await sandbox({ DOCSEARCH_HOOK_SELF: "/opt/x/docsearch-hook" });
  succeeded(await cli(box, ["install"]));
  await registered(settingsOf(box), "claude", ["/opt/x/docsearch-hook", "hook"]);
  const commands = (await ours(settingsOf(box), ["/opt/x/docsearch-hook", "hook"])).map((f) =>
    f.handler.command
  );
  assertEquals(new Set(commands), new Set(["/opt/x/docsearch-hook hook"]));
});

Deno.test({
  name: "the registered command, run by a shell as the agent runs it, denies the demo web search",
  ignore: !POSIX,
  fn: async () => {
    await using box = await sandbox();
    succeeded(await cli(box, ["install"]));
    const pre = (await ours(settingsOf(box))).find((f) => f.event === "PreToolUse")!;
    const out = await runProgram("sh", ["-c", pre.handler.command!], {
      cwd: box.home,
      env: { ...box.env, DOCSEARCH_CONFIG: `${ROOT}config.example.json` },
      stdin: await Deno.readFile(fixture("events/PreToolUse.WebSearch.demo.json")),
    });
    assertEquals([out.code, out.stderr], [0, ""]);
    ok(out.stdout.includes('"permissionDecision":"deny"'), out.stdout);
  },
});

// ---- what a reviewer found -----------------------------------------------------------------------------

Deno.test("install over slash commands written by 0.1.0's `install --commands` rewrites them, then registers", async () => {
  await using box = await sandbox();
  const dir = slashDirOf(box.home);
  await Deno.mkdir(dir, { recursive: true });
  const old = "---\ndescription: old\n---\n" +
    "<!-- written by docsearch-hook install --commands; rewritten on each install -->\n!`x status`\n";
  for (const name of SLASH_FILES) await Deno.writeTextFile(`${dir}/${name}`, old);
  succeeded(await cli(box, ["install"]));
  assertEquals((await ours(settingsOf(box))).length, CLAUDE_HANDLERS);
  for (const name of SLASH_FILES) ok((await Deno.readTextFile(`${dir}/${name}`)) !== old, name);
  succeeded(await cli(box, ["uninstall"]));
  assertEquals(await exists(dir), false);
});

Deno.test("DOCSEARCH_HOOK_SELF given as a relative path is registered as an absolute one", async () => {
  await using box = await sandbox();
  const cwd = `${box.home}/work`;
  await Deno.mkdir(cwd);
  succeeded(await cli(box, ["install"], { env: { DOCSEARCH_HOOK_SELF: "./bin/docsearch-hook" }, cwd }));
  const words = [`${cwd}/bin/docsearch-hook`, "hook"];
  assertEquals((await ours(settingsOf(box), words)).length, CLAUDE_HANDLERS);
});

Deno.test({
  name: "install that fails after writing the settings says what it did and how to finish",
  ignore: !POSIX,
  fn: async () => {
    await using box = await sandbox();
    // A link to nowhere where the slash commands' folder goes: the last step cannot be done.
    await Deno.mkdir(`${box.home}/.claude/commands`, { recursive: true });
    await Deno.symlink(`${box.home}/nowhere/docsearch`, `${box.home}/.claude/commands/docsearch`);
    const result = await cli(box, ["install"]);
    assertEquals(result.code, 1, result.stdout + result.stderr);
    match(result.stdout, /^Registered docsearch-hook for Claude Code in /);
    match(result.stderr, /cannot create the folder .*docsearch: .*; the rest above was done\n/);
    match(result.stderr, /fix: move away what stands at that path/);
    ok(!/at \S+\.ts:\d+/.test(result.stderr), result.stderr);
    assertEquals((await ours(settingsOf(box))).length, CLAUDE_HANDLERS);
  },
});

Deno.test({
  name: "a settings.json linked to a file not created yet: the link stays and its target is written",
  ignore: !POSIX,
  fn: async () => {
    await using box = await sandbox();
    await Deno.mkdir(`${box.home}/.claude`);
    await Deno.mkdir(`${box.home}/dotfiles`);
    await Deno.symlink("../dotfiles/claude-settings.json", settingsOf(box));
    succeeded(await cli(box, ["install"]));
    ok((await Deno.lstat(settingsOf(box))).isSymlink);
    assertEquals((await ours(`${box.home}/dotfiles/claude-settings.json`)).length, CLAUDE_HANDLERS);
  },
});
