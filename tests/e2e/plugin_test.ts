/**
 * The Claude Code plugin end to end. Its launcher, run as the plugin's hooks and MCP server run it (the
 * checkout is the plugin's folder), fetches the release binary from a release served on 127.0.0.1 by the test,
 * with install.sh's checksum check, and runs it. The released "binary" is a script that runs this checkout,
 * because `deno compile` cannot run on every build machine. Then the real Claude Code (from npm, cached in
 * .cache/claude-code/): `claude plugin validate`, and the plugin installed from a copy of this marketplace.
 */
import { deepStrictEqual as assertEquals, match, ok } from "node:assert/strict";
import { PLUGIN_ID } from "../../lib/install/plugin.ts";
import { VERSION } from "../../lib/version.ts";
import { claude, claudeBinary } from "../claude/cli.ts";
import { loading, type MessagesRequest, serveFakeApi } from "../claude/fake_api.ts";
import {
  builtIndex,
  type CliResult,
  event,
  exists,
  HANG_MS,
  listDir,
  readFixture,
  ROOT,
  runCli,
  RUNNERS_PAGE,
  runProgram,
  type Sandbox,
  sandbox,
} from "../helpers.ts";

// Deno's own target triple is the release's naming scheme, so it names this machine's asset.
const ASSET = `docsearch-hook-${Deno.build.target}`;
const PINNED = `/releases/download/v${VERSION}`;
const PLUGIN_TOOL = "mcp__plugin_docsearch_docsearch__search";
const LAUNCHER = `${ROOT}bin/docsearch-hook`;

// The launcher runs under Git Bash there, and a script cannot stand in for an .exe.
const ignore = Deno.build.os === "windows";

const STAND_IN = `#!/bin/sh
exec '${Deno.execPath()}' run -A --quiet --config='${ROOT}deno.json' '${ROOT}main.ts' "$@"
`;

/** The command the plugin's hooks run, as hooks/hooks.json has it. */
const HOOK_COMMAND: string = JSON.parse(Deno.readTextFileSync(`${ROOT}hooks/hooks.json`))
  .hooks.PreToolUse[0].hooks[0].command;

async function sha256(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, "0")).join("");
}

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits until `done` holds; a wait past HANG_MS is a hang, and fails. */
async function until(what: string, done: () => Promise<boolean>): Promise<void> {
  for (const start = Date.now(); !await done();) {
    if (Date.now() - start > HANG_MS) throw new Error(`still waiting for ${what}`);
    await delay(50);
  }
}

interface Setup extends AsyncDisposable {
  box: Sandbox;
  /** The plugin's data folder, and where the binary goes in it. */
  data: string;
  binary: string;
  /** install.sh's TMPDIR. */
  tmp: string;
  /** URL paths requested from the release server, in order. */
  requests: string[];
  env: Record<string, string>;
  /** The plugin's hook command on one event, through the shell as Claude Code runs it. */
  hook(event: string, env?: Record<string, string>): Promise<CliResult>;
  /** The launcher with ARGS, as the MCP server and the slash commands run it. */
  launcher(args: string[]): Promise<CliResult>;
  /** Until no fetch holds the lock. */
  fetched(): Promise<void>;
}

/** A sandbox with a config that sends GitLab searches to the built-in search, and a release served locally. */
async function setup(options: { sums?: (real: string) => string } = {}): Promise<Setup> {
  const box = await sandbox();
  const releaseDir = `${box.home}/release${PINNED}`;
  await Deno.mkdir(releaseDir, { recursive: true });
  await Deno.writeTextFile(`${releaseDir}/${ASSET}`, STAND_IN);
  const sums = `${await sha256(STAND_IN)}  ${ASSET}\n`;
  await Deno.writeTextFile(`${releaseDir}/SHA256SUMS`, options.sums?.(sums) ?? sums);
  await Deno.mkdir(`${box.home}/.claude/hooks`, { recursive: true });
  await Deno.writeTextFile(
    `${box.home}/.claude/hooks/docsearch-config.json`,
    JSON.stringify({
      databases: [{
        name: "gitlab",
        keywords: ["gitlab"],
        mcp_tool_name: "mcp__docsearch__search",
        tool_args: { index: "all", query: "{query}" },
        description: "GitLab documentation",
      }],
    }),
  );
  const tmp = `${box.home}/tmp`;
  await Deno.mkdir(tmp);
  const project = `${box.home}/project`;
  await Deno.mkdir(project);

  const requests: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (request) => {
    const path = new URL(request.url).pathname;
    requests.push(path);
    try {
      if (path.includes("..")) throw new Error("outside");
      return new Response(await Deno.readFile(`${box.home}/release${path}`));
    } catch {
      return new Response("not found", { status: 404 });
    }
  });
  const data = `${box.home}/.claude/plugins/data/docsearch-docsearch-hook`;
  const env = {
    ...box.env,
    CLAUDE_PLUGIN_ROOT: ROOT,
    CLAUDE_PLUGIN_DATA: data,
    DOCSEARCH_HOOK_BASE_URL: `http://127.0.0.1:${server.addr.port}/releases`,
    TMPDIR: tmp,
  };
  return {
    box,
    data,
    binary: `${data}/${VERSION}/docsearch-hook`,
    tmp,
    requests,
    env,
    hook: (stdin, extra = {}) =>
      runProgram("sh", ["-c", HOOK_COMMAND], { env: { ...env, ...extra }, stdin, cwd: project }),
    launcher: (args) => runProgram("sh", [LAUNCHER, ...args], { env, cwd: project }),
    fetched: () => until("the background fetch", async () => !await exists(`${data}/${VERSION}.lock`)),
    async [Symbol.asyncDispose]() {
      await server.shutdown();
      await box[Symbol.asyncDispose]();
    },
  };
}

const webSearch = (session: string) =>
  event("PreToolUse.WebSearch.demo.json", { session_id: session, tool_use_id: `toolu_${session}` });

/** Only the binary in its folder, the log beside it, and nothing left in TMPDIR. */
async function assertInstalledCleanly(t: Setup) {
  assertEquals(await listDir(t.data), [VERSION, `${VERSION}.log`]);
  assertEquals(await listDir(`${t.data}/${VERSION}`), ["docsearch-hook"]);
  assertEquals(await Deno.readTextFile(t.binary), STAND_IN);
  assertEquals((await Deno.stat(t.binary)).mode! & 0o777, 0o755);
  assertEquals(await listDir(t.tmp), []);
}

Deno.test({
  name: "plugin launcher: fetches the release binary of the plugin's version, checked, then runs it",
  ignore,
  async fn() {
    await using t = await setup();
    const first = await t.launcher(["--version"]);
    assertEquals([first.code, first.stdout, first.stderr], [0, `docsearch-hook ${VERSION}\n`, ""]);
    assertEquals(t.requests, [`${PINNED}/SHA256SUMS`, `${PINNED}/${ASSET}`]);
    await assertInstalledCleanly(t);
    match(await Deno.readTextFile(`${t.data}/${VERSION}.log`), /installed docsearch-hook .* to /);

    // From now on the launcher only runs it.
    const again = await t.launcher(["--version"]);
    assertEquals([again.code, again.stdout], [0, `docsearch-hook ${VERSION}\n`]);
    assertEquals(t.requests.length, 2);
    // The MCP server runs (and ends when the agent closes its stdin).
    const mcp = await t.launcher(["mcp"]);
    assertEquals(mcp.code, 0, mcp.stderr);
  },
});

Deno.test({
  name:
    "plugin hook: the first event passes while the binary is fetched; then denials name the plugin's tool",
  ignore,
  async fn() {
    await using t = await setup();
    const first = await t.hook(webSearch("s1"));
    assertEquals([first.code, first.stdout], [0, ""]);
    assertEquals(
      first.stderr,
      `docsearch-hook: fetching the release binary v${VERSION} in the background (log: ${t.data}/${VERSION}.log); events pass until it is there\n`,
    );
    await t.fetched();
    await assertInstalledCleanly(t);

    const denied = await t.hook(webSearch("s2"));
    assertEquals([denied.code, denied.stderr], [0, ""]);
    const output = JSON.parse(denied.stdout).hookSpecificOutput;
    assertEquals(output.permissionDecision, "deny");
    match(
      output.permissionDecisionReason,
      new RegExp(`Search it instead of the web: ${PLUGIN_TOOL} \\{"index":"all"`),
    );
    ok(!output.permissionDecisionReason.includes("mcp__docsearch__"), output.permissionDecisionReason);

    // The agent calls the tool by that name, which counts as following the redirect.
    const called = await t.hook(JSON.stringify({
      session_id: "s2",
      transcript_path: "/dev/null",
      cwd: t.box.home,
      hook_event_name: "PostToolUse",
      tool_name: PLUGIN_TOOL,
      tool_input: { index: "all", query: "configure gitlab ci runners" },
      tool_response: [{ type: "text", text: "1. GitLab Runner › Configuration" }],
      tool_use_id: "toolu_called",
    }));
    assertEquals([called.code, called.stdout, called.stderr], [0, "", ""]);
    const stats = JSON.parse((await runCli(["stats", "--json"], { env: t.env })).stdout);
    assertEquals([stats.redirects.denied, stats.redirects.followed], [1, 1]);

    // Without the launcher (an install from curl | sh), the same config names the server install --mcp adds.
    const plain = await runCli(["hook"], { env: t.env, stdin: webSearch("s3") });
    match(JSON.parse(plain.stdout).hookSpecificOutput.permissionDecisionReason, /mcp__docsearch__search \{/);
  },
});

Deno.test({
  name: "plugin launcher: a checksum that does not match installs nothing; a hook event still passes",
  ignore,
  async fn() {
    const wrong = await sha256("something else");
    await using t = await setup({ sums: (real) => real.replace(/^[0-9a-f]{64}/, wrong) });
    const mcp = await t.launcher(["mcp"]);
    assertEquals([mcp.code, mcp.stdout], [1, ""]);
    assertEquals(
      mcp.stderr,
      `docsearch-hook: could not install the release binary v${VERSION}: the download is corrupt or was ` +
        `tampered with; try again, and report it at https://github.com/docsearch-hook/docsearch-hook/issues if ` +
        `it persists (log: ${t.data}/${VERSION}.log)\n`,
    );
    match(await Deno.readTextFile(`${t.data}/${VERSION}.log`), /checksum mismatch/);
    assertEquals(await listDir(t.data), [`${VERSION}.log`], "nothing installed, no lock left");
    assertEquals(await listDir(t.tmp), []);

    // A hook event passes and says why in one line; right after a failure it does not download again.
    const soon = await t.hook(webSearch("s1"));
    assertEquals([soon.code, soon.stdout], [0, ""]);
    match(
      soon.stderr,
      /^docsearch-hook: the last download of the release binary v\S+ failed \(the download is corrupt or was tampered with; .*\); it is tried again 10 minutes after \(log: .*\); this event passes\n$/,
    );
    assertEquals(t.requests.filter((path) => path.endsWith(ASSET)).length, 1);
    // Ten minutes on, an event tries again in the background, which fails the same way.
    const earlier = new Date(Date.now() - 11 * 60 * 1000);
    await Deno.utime(`${t.data}/${VERSION}.log`, earlier, earlier);
    const hook = await t.hook(webSearch("s2"));
    assertEquals([hook.code, hook.stdout], [0, ""]);
    match(
      hook.stderr,
      /^docsearch-hook: the last download of the release binary v\S+ failed \(the download is corrupt or was tampered with; .*\); trying again in the background \(log: .*\); this event passes\n$/,
    );
    await t.fetched();
    assertEquals(t.requests.filter((path) => path.endsWith(ASSET)).length, 2);
    assertEquals(await listDir(t.data), [`${VERSION}.log`]);
  },
});

Deno.test({
  name: "plugin launcher: first runs at once download the binary once, and each runs it whole",
  ignore,
  async fn() {
    await using t = await setup();
    const runs = await Promise.all(Array.from({ length: 6 }, () => t.launcher(["--version"])));
    for (const run of runs) {
      assertEquals([run.code, run.stdout, run.stderr], [0, `docsearch-hook ${VERSION}\n`, ""]);
    }
    assertEquals(t.requests.filter((path) => path.endsWith(ASSET)).length, 1);
    await assertInstalledCleanly(t);
  },
});

Deno.test({
  name: "plugin hook: events at once all pass while one background fetch downloads the binary",
  ignore,
  async fn() {
    await using t = await setup();
    const events = await Promise.all(Array.from({ length: 6 }, (_, i) => t.hook(webSearch(`s${i}`))));
    for (const run of events) {
      assertEquals([run.code, run.stdout], [0, ""]);
      match(run.stderr, /^docsearch-hook: (fetching|still fetching) the release binary v\S+ .*\n$/);
    }
    await t.fetched();
    assertEquals(t.requests.filter((path) => path.endsWith(ASSET)).length, 1);
    await assertInstalledCleanly(t);
  },
});

Deno.test({
  name:
    "plugin launcher on the Bash tool's PATH, without CLAUDE_PLUGIN_DATA: runs the plugin's fetched binary",
  ignore,
  async fn() {
    await using t = await setup();
    const { CLAUDE_PLUGIN_DATA: _, ...env } = t.env;
    const bash = (args: string[], stdin?: string) => runProgram("sh", [LAUNCHER, ...args], { env, stdin });
    // Nothing fetched yet: a hook event passes and anything else fails, each with one line.
    const hook = await bash(["hook"], webSearch("s1"));
    assertEquals([hook.code, hook.stdout], [0, ""]);
    match(
      hook.stderr,
      /^docsearch-hook: CLAUDE_PLUGIN_DATA is not set, and no docsearch plugin's data folder holds release v\S+ yet: .* is the launcher of the Claude Code plugin, which fetches it on its first event\n$/,
    );
    const early = await bash(["--version"]);
    assertEquals([early.code, early.stdout, early.stderr.split("\n").length], [1, "", 2]);
    assertEquals(t.requests, []);

    // Once the plugin has fetched it, the agent's Bash finds it, and names the built-in search as the plugin's.
    assertEquals((await t.launcher(["--version"])).code, 0);
    assertEquals((await bash(["--version"])).stdout, `docsearch-hook ${VERSION}\n`);
    const check = await bash(["check", "how", "to", "configure", "gitlab", "ci", "runners"]);
    assertEquals(check.code, 0, check.stderr);
    ok(check.stdout.includes(`${PLUGIN_TOOL} {"index":"all"`), check.stdout);
  },
});

// ---- the real Claude Code ------------------------------------------------------------------------------

/** The plugin's own files: a marketplace holding only this plugin, as a clone of the repository would. */
const PLUGIN_FILES = [".claude-plugin", "hooks", "commands", "bin", "install.sh"];

async function copyPlugin(to: string): Promise<void> {
  for (const name of PLUGIN_FILES) {
    const copied = await runProgram("cp", ["-Rp", `${ROOT}${name}`, `${to}/${name}`], { env: {} });
    assertEquals(copied.code, 0, copied.stderr);
  }
}

Deno.test({
  name: "claude plugin validate passes the marketplace and the plugin, and fails a broken copy",
  ignore,
  async fn() {
    const binary = await claudeBinary();
    await using box = await sandbox();
    for (const path of [ROOT, `${ROOT}.claude-plugin/plugin.json`]) {
      const result = await claude(binary, ["plugin", "validate", "--strict", path], box.env);
      assertEquals(result.code, 0, result.stdout + result.stderr);
      match(result.stdout, /Validation passed/);
    }
    // The same check on a copy with a broken hooks file: it does read it. (2.1.197 also refused a command
    // whose front matter is not YAML; 2.1.332 passes it, so commands are left to plugin_test.ts.)
    const copy = `${box.home}/broken`;
    await Deno.mkdir(copy);
    await copyPlugin(copy);
    await Deno.writeTextFile(
      `${copy}/hooks/hooks.json`,
      JSON.stringify({ hooks: { PreToolUse: [{ matcher: 1 }] } }),
    );
    const broken = await claude(binary, [
      "plugin",
      "validate",
      "--strict",
      `${copy}/.claude-plugin/plugin.json`,
    ], box.env);
    assertEquals(broken.code, 1, broken.stdout);
    // 2.1.197 named the matcher; 2.1.332 the group's missing hooks list first: either way, that entry.
    match(broken.stdout, /hooks\.PreToolUse\.0\b/);
  },
});

/** `/plugin marketplace add` of a copy of this marketplace, then `/plugin install docsearch@docsearch-hook`. */
async function installPlugin(binary: string, t: Setup): Promise<void> {
  const marketplace = `${t.box.home}/marketplace`;
  await Deno.mkdir(marketplace);
  await copyPlugin(marketplace);
  const added = await claude(binary, ["plugin", "marketplace", "add", marketplace], t.box.env);
  assertEquals(added.code, 0, added.stdout + added.stderr);
  const installed = await claude(binary, ["plugin", "install", PLUGIN_ID], t.box.env);
  assertEquals(installed.code, 0, installed.stdout + installed.stderr);
}

Deno.test({
  name:
    "Claude Code installs the plugin: its MCP server connects, doctor counts it, install will not add a second",
  ignore,
  async fn() {
    const binary = await claudeBinary();
    await using t = await setup();
    await installPlugin(binary, t);

    const settingsPath = `${t.box.home}/.claude/settings.json`;
    const settings = JSON.parse(await Deno.readTextFile(settingsPath));
    assertEquals(settings.enabledPlugins, { [PLUGIN_ID]: true });
    const list = JSON.parse(await Deno.readTextFile(`${t.box.home}/.claude/plugins/installed_plugins.json`));
    const [entry] = list.plugins[PLUGIN_ID];
    assertEquals([entry.scope, entry.version], ["user", VERSION]);
    // The installed copy holds install.sh, which its launcher needs.
    ok(await exists(`${entry.installPath}/install.sh`), entry.installPath);

    // The hook as Claude Code runs it from the installed copy, with the data folder it gives the plugin.
    const fromCopy = { CLAUDE_PLUGIN_ROOT: entry.installPath };
    const first = await t.hook(webSearch("s1"), fromCopy);
    assertEquals([first.code, first.stdout], [0, ""]);
    await t.fetched();
    const denied = await t.hook(webSearch("s2"), fromCopy);
    match(JSON.parse(denied.stdout).hookSpecificOutput.permissionDecisionReason, new RegExp(PLUGIN_TOOL));

    // Claude Code names the plugin's server plugin:docsearch:docsearch (so its tools mcp__plugin_docsearch_docsearch__…).
    const mcp = await claude(binary, ["mcp", "list"], t.env, t.box.home);
    match(mcp.stdout, /^plugin:docsearch:docsearch: .*bin\/docsearch-hook mcp - \S+ Connected$/m);

    const doctor = await runCli(["doctor"], { env: t.box.env, cwd: t.box.home });
    match(
      doctor.stdout,
      new RegExp(`^✓ Claude Code plugin: ${PLUGIN_ID} is enabled \\(${settingsPath}\\)`, "m"),
    );
    match(
      doctor.stdout,
      new RegExp(
        `^✓ MCP tool ${PLUGIN_TOOL}: server "plugin:docsearch:docsearch" is configured in the plugin`,
        "m",
      ),
    );
    match(
      doctor.stdout,
      new RegExp(
        `^✓ self-test: a WebSearch for "gitlab documentation" was denied with guidance to ${PLUGIN_TOOL}`,
        "m",
      ),
    );
    ok(!/^✗ registration/m.test(doctor.stdout), doctor.stdout);

    const before = await Deno.readTextFile(settingsPath);
    const install = await runCli(["install"], { env: t.box.env, cwd: t.box.home });
    assertEquals([install.code, install.stdout], [1, ""]);
    match(install.stderr, new RegExp(`the Claude Code plugin ${PLUGIN_ID} is enabled \\(${settingsPath}\\)`));
    match(install.stderr, new RegExp(`claude plugin uninstall ${PLUGIN_ID}`));
    assertEquals(await Deno.readTextFile(settingsPath), before);

    // Once the plugin is off, install registers as usual.
    const disabled = await claude(binary, ["plugin", "disable", PLUGIN_ID], t.box.env);
    assertEquals(disabled.code, 0, disabled.stdout + disabled.stderr);
    const again = await runCli(["install"], { env: t.box.env, cwd: t.box.home });
    assertEquals(again.code, 0, again.stderr);
  },
});

/** The results of the tool calls the model was sent back, in order. */
const toolResults = (requests: readonly MessagesRequest[]) =>
  requests.at(-1)?.messages?.flatMap((message) =>
    Array.isArray(message.content) ? message.content.filter((block) => block.type === "tool_result") : []
  ) ?? [];

Deno.test({
  name:
    "claude -p with the plugin: search is loaded from the first request, a WebSearch the docs answer is denied with the answer, one they do not answer runs; /docsearch:status runs",
  ignore,
  async fn() {
    const binary = await claudeBinary();
    await using t = await setup();
    await installPlugin(binary, t);
    // Fetched beforehand, into the data folder Claude Code gives the plugin: the first events would pass.
    assertEquals((await t.launcher(["--version"])).code, 0);
    // The docs of one index, which its entry names: the hook quotes them.
    await builtIndex(t.box, "gitlab", RUNNERS_PAGE);
    await Deno.writeTextFile(
      `${t.box.home}/.claude/hooks/docsearch-config.json`,
      JSON.stringify({
        databases: [{
          name: "gitlab",
          keywords: ["gitlab"],
          mcp_tool_name: "mcp__docsearch__search",
          tool_args: { index: "gitlab", query: "{query}" },
          description: "GitLab documentation",
        }],
      }),
    );
    // The MCP server's modules compiled once, so that it connects while Claude Code waits for it.
    assertEquals((await t.launcher(["mcp"])).code, 0);
    const session = async (query: string) => {
      const api = serveFakeApi(0, loading({ name: "WebSearch", input: { query } }));
      try {
        const run = await claude(
          binary,
          ["-p", `Find out ${query}.`, "--model", "claude-sonnet-4-5", "--allowedTools", "WebSearch"],
          { ...t.box.env, ANTHROPIC_BASE_URL: api.baseUrl, ANTHROPIC_API_KEY: "dummy" },
          t.box.home,
        );
        assertEquals(run.code, 0, run.stderr + run.stdout);
      } finally {
        await api.close();
      }
      return api.requests;
    };

    const answered = await session("how to configure gitlab ci runners");
    // Loaded up front (anthropic/alwaysLoad): the tool a denial names is callable in one step.
    const loaded = answered[0].tools?.map((tool) => tool.name) ?? [];
    ok(loaded.includes(PLUGIN_TOOL), JSON.stringify(loaded));
    const [loadedWebSearch, denied] = toolResults(answered);
    ok(JSON.stringify(loadedWebSearch).includes("WebSearch"), JSON.stringify(loadedWebSearch));
    const denial = JSON.stringify(denied.content);
    ok(denial.includes("Local documentation answers this web search"), denial);
    ok(
      denial.includes("Configure GitLab CI runners\\nTo configure a runner, edit its `config.toml`"),
      denial,
    );
    ok(denial.includes(`To search these docs for more: ${PLUGIN_TOOL} {`), denial);

    // A search the pages do not answer is let through on the first try: the web search runs.
    const unanswered = await session("gitlab kubernetes autoscaling helm chart values");
    const [, searched] = toolResults(unanswered);
    const result = JSON.stringify(searched.content);
    ok(result.includes("Web search results for query"), result);
    ok(!result.includes("Local documentation"), result);

    // The plugin's slash command runs the launcher before the model sees the prompt (a tool it is never
    // offered keeps the scripted model to text).
    const quiet = serveFakeApi(0, { name: "NoSuchTool", input: {} });
    try {
      const status = await claude(
        binary,
        ["-p", "/docsearch:status", "--model", "claude-sonnet-4-5"],
        { ...t.box.env, ANTHROPIC_BASE_URL: quiet.baseUrl, ANTHROPIC_API_KEY: "dummy" },
        t.box.home,
      );
      assertEquals(status.code, 0, status.stderr + status.stdout);
    } finally {
      await quiet.close();
    }
    const prompt = JSON.stringify(quiet.requests[0]?.messages ?? []);
    match(prompt, /Status for session \S+ \(--session; claude-code in /);
    match(prompt, /gitlab +on +GitLab documentation/);
  },
});

Deno.test({
  name:
    "claude -p with install's settings: a Bash command that reads no page starts no hook process; a curl of a covered page is denied",
  ignore,
  async fn() {
    const binary = await claudeBinary();
    await using box = await sandbox();
    await Deno.mkdir(`${box.home}/.claude/hooks`, { recursive: true });
    await Deno.writeTextFile(
      `${box.home}/.claude/hooks/docsearch-config.json`,
      readFixture("../config.example.json"),
    );
    // The registered command keeps every event it is given, then runs this checkout's hook on it.
    const log = `${box.home}/events.jsonl`;
    const logged = `${box.home}/docsearch-hook-logged`;
    await Deno.writeTextFile(
      logged,
      `#!/bin/sh
if [ "$1" = hook ]; then
  input=$(cat)
  printf '%s\\n' "$input" >> '${log}'
  printf '%s' "$input" | exec '${Deno.execPath()}' run -A --quiet --config='${ROOT}deno.json' '${ROOT}main.ts' "$@"
fi
exec '${Deno.execPath()}' run -A --quiet --config='${ROOT}deno.json' '${ROOT}main.ts' "$@"
`,
    );
    await Deno.chmod(logged, 0o755);
    const installed = await runCli(["install"], { env: { ...box.env, DOCSEARCH_HOOK_SELF: logged } });
    assertEquals(installed.code, 0, installed.stderr);

    const session = async (command: string) => {
      await Deno.writeTextFile(log, "");
      const api = serveFakeApi(0, { name: "Bash", input: { command, description: "Run it" } });
      try {
        const run = await claude(
          binary,
          ["-p", "Run it.", "--model", "claude-sonnet-4-5", "--allowedTools", "Bash"],
          { ...box.env, ANTHROPIC_BASE_URL: api.baseUrl, ANTHROPIC_API_KEY: "dummy" },
          box.home,
        );
        assertEquals(run.code, 0, run.stderr + run.stdout);
      } finally {
        await api.close();
      }
      const events = (await Deno.readTextFile(log)).split("\n").filter(Boolean).map((line) =>
        JSON.parse(line)
      );
      return {
        requests: api.requests,
        events: events.map((e) => `${e.hook_event_name} ${e.tool_name ?? ""}`),
      };
    };

    const plain = await session("ls -la && echo listed");
    // The hook ran for the session's other events, and for the command once it had run, but not before it.
    ok(plain.events.includes("PostToolUse Bash"), JSON.stringify(plain.events));
    ok(!plain.events.includes("PreToolUse Bash"), JSON.stringify(plain.events));

    const read = await session("cd /tmp && curl -s https://docs.gitlab.com/ee/ci/runners/ | head -5");
    assertEquals(read.events.filter((e) => e === "PreToolUse Bash").length, 1, JSON.stringify(read.events));
    const denial = JSON.stringify(toolResults(read.requests));
    ok(denial.includes("Local documentation covers https://docs.gitlab.com/ee/ci/runners/"), denial);
  },
});
