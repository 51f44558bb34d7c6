/**
 * `docsearch-hook doctor` end to end: real processes (`deno run -A main.ts …`) in a temp HOME, set up the
 * way a user's machine would be (by `install`, by hand, or broken on purpose), checking the exit code, stdout
 * and stderr of each run.
 */
import { deepStrictEqual as assertEquals, match, ok } from "node:assert/strict";
import { VERSION } from "../../lib/version.ts";
import { type CliResult, readFixture, ROOT, runCli, type Sandbox, sandbox } from "../helpers.ts";

const EXAMPLE = JSON.parse(readFixture("../config.example.json"));
const USER_CONFIG = ".claude/hooks/docsearch-config.json";
const USER_SETTINGS = ".claude/settings.json";

interface Machine extends Sandbox {
  /** The directory commands run in (the agent's project), by its real path as the process sees it. */
  project: string;
}

async function machine(): Promise<Machine> {
  const box = await sandbox();
  const project = `${await Deno.realPath(box.home)}/project`;
  await Deno.mkdir(project);
  return Object.assign(box, { project });
}

const cli = (box: Machine, args: string[], env: Record<string, string> = {}) =>
  runCli(args, { env: { ...box.env, ...env }, cwd: box.project });

async function install(box: Machine, args: string[] = [], env: Record<string, string> = {}) {
  const result = await cli(box, ["install", ...args], env);
  assertEquals([result.code, result.stderr], [0, ""], result.stdout);
}

/** The example config as the user config: install writes one with no databases. */
async function exampleConfig(box: Machine) {
  await write(box, USER_CONFIG, JSON.stringify(EXAMPLE, null, 2));
}

async function write(box: Machine, path: string, text: string) {
  const full = path.startsWith("/") ? path : `${box.home}/${path}`;
  await Deno.mkdir(full.slice(0, full.lastIndexOf("/")), { recursive: true });
  await Deno.writeTextFile(full, text);
}

/** The index folders the example config points at. */
async function indexes(box: Machine) {
  for (const name of ["gitlab", "kubernetes"]) {
    await Deno.mkdir(`${box.home}/.leann/indexes/${name}`, { recursive: true });
  }
}

const LEANN = { type: "stdio", command: "leann_mcp", args: [] };

// ---- reading the report --------------------------------------------------------------------------------

/** A report doctor printed: stdout only, stderr empty. */
function report(result: CliResult): string[] {
  assertEquals(result.stderr, "", result.stderr);
  ok(result.stdout.endsWith("\n"), result.stdout);
  return result.stdout.slice(0, -1).split("\n");
}

/** The check lines (`✓ name: message`, `! …`, `✗ …`). */
const checkLines = (lines: readonly string[]) => lines.filter((line) => /^[✓!✗] /.test(line));

/** The one check line for `name`, and the fix printed under it. */
function line(lines: readonly string[], name: string): { mark: string; text: string; fix?: string } {
  const at = lines.map((l, i) => [l, i] as const).filter(([l]) =>
    /^[✓!✗] /.test(l) && l.startsWith(`${name}:`, 2)
  );
  assertEquals(at.length, 1, `one line for "${name}" in:\n${lines.join("\n")}`);
  const [text, i] = at[0];
  const fix = /^\s+fix: (.+)$/.exec(lines[i + 1] ?? "")?.[1];
  return { mark: text[0], text, fix };
}

/** Every ! and ✗ line is followed by its fix. */
function assertFixes(lines: readonly string[]) {
  lines.forEach((l, i) => {
    if (/^[!✗] /.test(l)) match(lines[i + 1] ?? "", /^\s+fix: \S/, `no fix under: ${l}`);
  });
}

/** Every file under `dir` (but `skip`) with its bytes: equal snapshots mean nothing was written. */
async function snapshot(dir: string, skip: string[]): Promise<Record<string, string>> {
  const files: Record<string, string> = {};
  for await (const entry of Deno.readDir(dir)) {
    const path = `${dir}/${entry.name}`;
    if (skip.includes(path)) continue;
    if (entry.isDirectory) Object.assign(files, await snapshot(path, skip));
    else files[path] = await Deno.readTextFile(path);
  }
  return files;
}

const selfTestLatency = /\d+(\.\d+)? ?ms\b/;

// ---- the tests -----------------------------------------------------------------------------------------

Deno.test("doctor after install with the example config: all ✓ but the ✗ for its unconfigured MCP server, exit 1", async (t) => {
  await using box = await machine();
  const unrelated = { matcher: "Bash", hooks: [{ type: "command", command: "~/bin/guard.sh" }] };
  await write(
    box,
    USER_SETTINGS,
    JSON.stringify({ model: "opus", hooks: { PreToolUse: [unrelated] } }, null, 2),
  );
  await indexes(box);
  await write(box, ".claude.json", JSON.stringify({ numStartups: 3, mcpServers: { leann: LEANN } }));
  await install(box);
  await exampleConfig(box);
  const before = await snapshot(box.home, [box.state]);
  const userConfig = `${box.home}/${USER_CONFIG}`;
  let names: string[] = [];

  await t.step("text: one line per check, exit 1 for the missing server, the summary last", async () => {
    const result = await cli(box, ["doctor"]);
    const lines = report(result);
    assertEquals(result.code, 1, result.stdout);
    assertFixes(lines);
    const checks = checkLines(lines);
    const problems = checks.filter((l) => !l.startsWith("✓ "));
    assertEquals(problems.length, 1, result.stdout);
    // Every web search its database matches would be sent to a tool the agent does not have.
    match(problems[0], /^✗ MCP tool mcp__docs__search: no MCP server "docs" is configured/);
    match(line(lines, "MCP tool mcp__docs__search").fix!, /claude mcp add docs\b/);
    assertEquals(lines[lines.length - 1], "1 problem, 0 warnings.");

    match(line(lines, "binary").text, new RegExp(`^✓ binary: .*\\b${VERSION.replaceAll(".", "\\.")}\\b`));
    match(line(lines, "Claude Code, user scope").text, /^✓ .*\b9 events\b/);
    ok(line(lines, `config ${userConfig}`).mark === "✓");
    ok(line(lines, "database gitlab").mark === "✓");
    ok(line(lines, "database kubernetes").mark === "✓");
    const leann = line(lines, "MCP tool mcp__leann__leann_search");
    ok(leann.mark === "✓" && leann.text.includes(`${box.home}/.claude.json`), leann.text);
    ok(line(lines, "kill switch").mark === "✓");

    const state = line(lines, "state");
    ok(state.mark === "✓", state.text);
    match(state.text, /\(created now\)/);
    ok((await Deno.stat(`${box.state}/docsearch.db`)).isFile, "doctor created the state database");

    const self = line(lines, "self-test");
    ok(self.mark === "✓", self.text);
    match(self.text, /denied/);
    ok(self.text.includes("mcp__leann__leann_search"), self.text);
    match(self.text, selfTestLatency);

    names = checks.map((l) => l.slice(2, l.indexOf(": ")));
  });

  await t.step("--json: the same checks, parseable, ok: false; a second run creates no state", async () => {
    const result = await cli(box, ["doctor", "--json"]);
    assertEquals([result.code, result.stderr], [1, ""], result.stdout);
    const parsed = JSON.parse(result.stdout);
    assertEquals([parsed.ok, parsed.version], [false, VERSION]);
    const checks = parsed.checks as { status: string; name: string; message: string; fix?: string }[];
    for (const check of checks) {
      ok(["ok", "warn", "fail"].includes(check.status), JSON.stringify(check));
      ok(typeof check.name === "string" && check.name.length > 0, JSON.stringify(check));
      ok(typeof check.message === "string" && check.message.length > 0, JSON.stringify(check));
      if (check.status !== "ok") {
        ok(typeof check.fix === "string" && check.fix.length > 0, JSON.stringify(check));
      }
    }
    assertEquals(checks.map((check) => check.name), names);
    assertEquals(
      checks.filter((check) => check.status !== "ok").map((check) => [check.status, check.name]),
      [["fail", "MCP tool mcp__docs__search"]],
    );
    const state = checks.find((check) => check.name === "state")!;
    ok(!state.message.includes("created now"), state.message);
  });

  await t.step("nothing of the user's changed", async () => {
    assertEquals(await snapshot(box.home, [box.state]), before);
    const settings = JSON.parse(await Deno.readTextFile(`${box.home}/${USER_SETTINGS}`));
    assertEquals(settings.hooks.PreToolUse[0], unrelated, "the unrelated hook is still first");
  });
});

Deno.test("doctor without install: ✗ registration and exit 1", async () => {
  await using box = await machine();
  const result = await cli(box, ["doctor"]);
  const lines = report(result);
  assertEquals(result.code, 1, result.stdout);
  assertFixes(lines);
  const registration = checkLines(lines).filter((l) => /registered/.test(l));
  ok(registration.length > 0 && registration.every((l) => l.startsWith("✗ ")), result.stdout);
  ok(lines.some((l) => /^\s+fix: docsearch-hook install\b/.test(l)), result.stdout);
  match(lines[lines.length - 1], /^[1-9]\d* problems?\b/);
});

Deno.test("doctor with a malformed ~/.claude/settings.json: ✗ with line and column, exit 1, file untouched", async () => {
  await using box = await machine();
  const text = '{\n  "model": "opus",\n  "hooks": {\n    "Stop": []\n  },\n}\n';
  await write(box, USER_SETTINGS, text);
  const result = await cli(box, ["doctor"]);
  const lines = report(result);
  assertEquals(result.code, 1, result.stdout);
  assertFixes(lines);
  const settings = line(lines, "Claude Code, user scope");
  ok(settings.mark === "✗", settings.text);
  ok(settings.text.includes(`${box.home}/${USER_SETTINGS}`), settings.text);
  match(settings.text, /line 6,? column 1\b/);
  assertEquals(await Deno.readTextFile(`${box.home}/${USER_SETTINGS}`), text);
});

Deno.test("doctor with DOCSEARCH_HOOK_DISABLED=1: a ! kill switch line, and the self-test still runs", async () => {
  await using box = await machine();
  await install(box);
  await exampleConfig(box);
  const result = await cli(box, ["doctor"], { DOCSEARCH_HOOK_DISABLED: "1" });
  const lines = report(result);
  // The example's MCP servers (leann, docs) are not configured here: those are the failures, not the switch.
  assertEquals(result.code, 1, result.stdout);
  assertFixes(lines);
  const kill = line(lines, "kill switch");
  ok(kill.mark === "!", kill.text);
  match(kill.fix!, /DOCSEARCH_HOOK_DISABLED/);
  const self = line(lines, "self-test");
  ok(self.mark === "✓", self.text);
  match(self.text, /denied/);
  assertEquals(
    checkLines(lines).filter((l) => l.startsWith("✗ ")).map((l) => l.slice(0, l.indexOf(": "))),
    ["✗ MCP tool mcp__leann__leann_search", "✗ MCP tool mcp__docs__search"],
    result.stdout,
  );
});

Deno.test("doctor --config with no databases: the self-test's search passes", async () => {
  await using box = await machine();
  const path = `${box.home}/empty-config.json`;
  await write(box, path, JSON.stringify({ databases: [] }));
  const result = await cli(box, ["doctor", "--config", path]);
  const lines = report(result);
  assertFixes(lines);
  ok(line(lines, `config ${path}`).mark === "✓", result.stdout);
  const self = line(lines, "self-test");
  ok(self.mark === "✓", self.text);
  match(self.text, /passed/);
  match(self.text, selfTestLatency);
  ok(checkLines(lines).some((l) => /^! .*no enabled database/.test(l)), result.stdout);
});

Deno.test("doctor with a broken config entry: ✗ config line with the JSON path, exit 1", async () => {
  await using box = await machine();
  await install(box);
  const broken = structuredClone(EXAMPLE);
  broken.databases[1].keywords = "kubernetes";
  await write(box, USER_CONFIG, JSON.stringify(broken, null, 2));
  const result = await cli(box, ["doctor"]);
  const lines = report(result);
  assertEquals(result.code, 1, result.stdout);
  assertFixes(lines);
  const config = line(lines, `config ${box.home}/${USER_CONFIG}`);
  ok(config.mark === "✗", config.text);
  match(config.text, /databases\[1\]\.keywords/);
  ok(line(lines, "Claude Code, user scope").mark === "✓", result.stdout);
  // The hook itself still works on the entries that are valid (it may note the broken one).
  const self = line(lines, "self-test");
  ok(self.mark !== "✗" && /denied/.test(self.text), self.text);
});

Deno.test("doctor with a registration whose program is gone: ✗ naming it, exit 1", async () => {
  await using box = await machine();
  const gone = `${box.home}/old/bin/docsearch-hook`;
  await install(box, [], { DOCSEARCH_HOOK_SELF: gone });
  const result = await cli(box, ["doctor"]);
  const lines = report(result);
  assertEquals(result.code, 1, result.stdout);
  assertFixes(lines);
  const settings = line(lines, "Claude Code, user scope");
  ok(settings.mark === "✗" && settings.text.includes(gone), settings.text);
  match(settings.fix!, /docsearch-hook install\b/);
});

Deno.test("doctor with two scopes running different docsearch-hooks: a duplicates warning", async () => {
  await using box = await machine();
  const launcher = `${box.home}/bin/docsearch-hook`;
  await write(
    box,
    launcher,
    `#!/bin/sh\nexec '${Deno.execPath()}' run -A --quiet --config='${ROOT}deno.json' '${ROOT}main.ts' "$@"\n`,
  );
  await Deno.chmod(launcher, 0o755);
  await install(box);
  await install(box, ["--scope", "project"], { DOCSEARCH_HOOK_SELF: launcher });
  const result = await cli(box, ["doctor"]);
  const lines = report(result);
  assertEquals(result.code, 0, result.stdout);
  assertFixes(lines);
  ok(line(lines, "Claude Code, user scope").mark === "✓", result.stdout);
  const project = line(lines, "Claude Code, project scope");
  ok(project.mark === "!" && project.text.includes(launcher), project.text);
  const duplicates = checkLines(lines).filter((l) => /duplicate/i.test(l));
  assertEquals(duplicates.length, 1, result.stdout);
  match(duplicates[0], /^! Claude Code.*\buser\b.*\bproject\b/);
});

Deno.test("doctor finds MCP servers in a project's .mcp.json and its entry in ~/.claude.json: all ✓", async () => {
  await using box = await machine();
  await install(box);
  await exampleConfig(box);
  await indexes(box);
  await write(box, `${box.project}/.mcp.json`, JSON.stringify({ mcpServers: { leann: LEANN } }));
  await write(
    box,
    ".claude.json",
    JSON.stringify({
      mcpServers: {},
      projects: {
        [box.project]: { mcpServers: { docs: { type: "http", url: "http://127.0.0.1:9/mcp" } } },
        "/somewhere/else": { mcpServers: { leann2: LEANN } },
      },
    }),
  );
  const result = await cli(box, ["doctor"]);
  const lines = report(result);
  assertEquals(result.code, 0, result.stdout);
  const leann = line(lines, "MCP tool mcp__leann__leann_search");
  ok(leann.mark === "✓" && leann.text.includes(`${box.project}/.mcp.json`), leann.text);
  const docs = line(lines, "MCP tool mcp__docs__search");
  ok(docs.mark === "✓" && docs.text.includes(`${box.home}/.claude.json`), docs.text);
  assertEquals(checkLines(lines).filter((l) => !l.startsWith("✓ ")), [], result.stdout);
  ok(!/\b[1-9]\d* (problem|warning)/.test(lines[lines.length - 1]), lines[lines.length - 1]);
});

Deno.test("doctor sees a Ripperdoc registration and its 8 events", async () => {
  await using box = await machine();
  await install(box, ["--agent", "ripperdoc"]);
  const result = await cli(box, ["doctor"]);
  const lines = report(result);
  assertFixes(lines);
  match(line(lines, "Ripperdoc, user scope").text, /^✓ .*\b8 events\b/);
  ok(!checkLines(lines).some((l) => /^✗ .*not registered/.test(l)), result.stdout);
  ok(!checkLines(lines).some((l) => /^. Claude Code, /.test(l)), result.stdout);
});

Deno.test("doctor: disableAllHooks in a settings file is ✗, a malformed ~/.claude.json is named, exit 1", async () => {
  await using box = await machine();
  await install(box);
  const settings = JSON.parse(await Deno.readTextFile(`${box.home}/${USER_SETTINGS}`));
  await write(box, USER_SETTINGS, JSON.stringify({ ...settings, disableAllHooks: true }, null, 2));
  await write(box, ".claude.json", '{"mcpServers": {"leann": {},}}');
  const result = await cli(box, ["doctor"]);
  const lines = report(result);
  assertEquals(result.code, 1, result.stdout);
  assertFixes(lines);
  const allOff = line(lines, "Claude Code, all hooks");
  assertEquals(allOff.mark, "✗");
  match(allOff.text, /"disableAllHooks": true/);
  // A more specific file that sets it back to false decides.
  await write(box, "project/.claude/settings.local.json", '{"disableAllHooks": false}');
  const again = report(await cli(box, ["doctor"]));
  ok(!again.some((l) => l.startsWith("✗ Claude Code, all hooks")), again.join("\n"));
  const mcp = line(lines, "MCP servers");
  assertEquals(mcp.mark, "!");
  match(mcp.text, /\.claude\.json: invalid JSON at line 1, column 29/);
});

Deno.test("doctor with an unusable TMPDIR: the self-test is ✗ with a fix, no crash", async () => {
  await using box = await machine();
  await install(box);
  const result = await cli(box, ["doctor"], { TMPDIR: `${box.home}/no-such-dir` });
  const lines = report(result);
  assertEquals(result.code, 1, result.stdout);
  const selfTest = line(lines, "self-test");
  assertEquals(selfTest.mark, "✗");
  match(selfTest.fix ?? "", /TMPDIR/);
});
