/**
 * The program as it ships: `deno task build`'s artifact answers every event as the modules do, loads the
 * modules it imports by computed specifiers (the command line, the config's validation, the npm packages of
 * `index` and `mcp`), and registers itself as what runs it.
 */
import { deepStrictEqual as assertEquals, match } from "node:assert/strict";
import { build, builtArtifact } from "../../lib/build/build.ts";
import { ARTIFACT_ENTRY } from "../../lib/program.ts";
import { event, exists, readFixture, ROOT, runCli, runProgram, type Sandbox, sandbox } from "../helpers.ts";

const EVENTS = [
  event("PreToolUse.WebSearch.json"),
  event("PreToolUse.WebSearch.json"),
  event("PreToolUse.WebSearch.multi.json"),
  event("PreToolUse.WebFetch.json"),
  event("PreToolUse.WebSearch.nomatch.json"),
  event("PreToolUse.Bash.json"),
  event("SessionStart.json"),
  event("UserPromptSubmit.json"),
  event("PostToolUse.Write.json"),
  event("PostToolUseFailure.Bash.json"),
  event("Stop.json"),
  event("SessionEnd.json"),
  '{"hook_event_name": "FutureEvent"}',
  "not json",
];

async function withConfig(box: Sandbox) {
  await Deno.mkdir(`${box.home}/.claude/hooks`, { recursive: true });
  await Deno.writeTextFile(
    `${box.home}/.claude/hooks/docsearch-config.json`,
    readFixture("../config.example.json"),
  );
}

/**
 * The artifact's MCP server, held open in a project as the agent holds it, builds the project's dependency
 * docs: its worker thread loads from dist/lib as the server's other modules do.
 */
async function upkeepBuilds(entry: string, box: Sandbox): Promise<void> {
  const project = `${box.home}/app`;
  const words = Array.from({ length: 1200 }, (_, i) => `alphaword${i}`).join(" ");
  await Deno.mkdir(`${project}/node_modules/alpha`, { recursive: true });
  await Deno.writeTextFile(`${project}/node_modules/alpha/README.md`, `# alpha\n\n${words}\n`);
  await Deno.writeTextFile(
    `${project}/node_modules/alpha/package.json`,
    '{"name": "alpha", "version": "1.0.0"}',
  );
  await Deno.writeTextFile(`${project}/package.json`, '{"dependencies": {"alpha": "1.0.0"}}');
  const server = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--quiet", "--no-config", entry, "mcp"],
    cwd: project,
    env: { ...box.env, DOCSEARCH_HOME: `${box.home}/state-upkeep` },
    clearEnv: true,
    stdin: "piped",
    stdout: "null",
    stderr: "piped",
  }).spawn();
  const input = server.stdin.getWriter();
  const local = `${project}/.claude/docsearch.local.json`;
  const start = performance.now();
  while (!(await exists(local)) && performance.now() - start < 30_000) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await input.close();
  const { code, stderr } = await server.output();
  const log = new TextDecoder().decode(stderr);
  assertEquals(code, 0, log);
  match(log, /: alpha 1\.0\.0 indexed \(\d+ words\)/);
  match(await Deno.readTextFile(local), /"index": "npm-alpha-1\.0\.0"/);
}

Deno.test("the built artifact answers as the modules do, and runs every command's modules", async () => {
  const outdir = `.cache/artifact-test-${crypto.randomUUID()}`;
  try {
    const entry = await build(outdir);
    assertEquals(entry, `${ROOT}${outdir}/${ARTIFACT_ENTRY}`);
    // The modules imported by computed specifiers, at their sources' paths: compile.ts embeds dist/lib.
    for (
      const module of [
        "lib/cli/commands.js",
        "lib/config/resolve.js",
        "lib/answer/hook_answer.js",
        "lib/project/upkeep_worker.js",
      ]
    ) {
      assertEquals(await exists(`${ROOT}${outdir}/${module}`), true, module);
    }
    await using box = await sandbox();
    await withConfig(box);
    const artifact = (args: string[], state: string, stdin = "") =>
      runProgram(Deno.execPath(), ["run", "-A", "--quiet", "--no-config", entry, ...args], {
        env: { ...box.env, DOCSEARCH_HOME: state },
        stdin,
      });
    // Each side its own state, so that the escape hatch and the config cache (a miss first: zod loads) play
    // out alike on both.
    for (const stdin of EVENTS) {
      const built = await artifact(["hook"], `${box.home}/state-built`, stdin);
      const modules = await runCli(["hook"], {
        env: { ...box.env, DOCSEARCH_HOME: `${box.home}/state-modules` },
        stdin,
      });
      assertEquals(built, modules, stdin.slice(0, 80));
    }
    const state = `${box.home}/state-built`;
    const version = await artifact(["--version"], state);
    assertEquals(version, await runCli(["--version"], { env: box.env }));
    const check = await artifact(
      ["check", "--config", `${ROOT}config.example.json`, "gitlab", "runners"],
      state,
    );
    assertEquals(check.code, 0, check.stderr);
    match(check.stdout, /Decision: +deny/);
    const log = await artifact(["log", "--json"], state);
    assertEquals(log.code, 0, log.stderr);
    assertEquals(JSON.parse(log.stdout).length > 0, true);
    const index = await artifact(["index", "list"], state);
    assertEquals([index.code, index.stderr], [0, ""]);
    // The MCP SDK loads, and the server ends with its input.
    const mcp = await artifact(["mcp"], state);
    assertEquals(mcp.code, 0, mcp.stderr);
    await upkeepBuilds(entry, box);
    const install = await artifact(["install", "--dry-run"], state);
    assertEquals(install.code, 0, install.stderr);
    match(
      install.stdout,
      new RegExp(`"command": ".*run -A --quiet --no-config ${entry.replaceAll("/", "\\/")} hook"`),
    );
    // Installed, the artifact's entries are recognised as its own: a second install changes nothing.
    assertEquals((await artifact(["install"], state)).code, 0);
    match((await artifact(["install"], state)).stdout, /already registered .*nothing changed/);
  } finally {
    await Deno.remove(`${ROOT}${outdir}`, { recursive: true }).catch(() => {});
  }
});

Deno.test("install from a checkout builds the artifact it registers once, however many installs ask at once", async () => {
  const outdir = `.cache/artifact-test-${crypto.randomUUID()}`;
  try {
    // Three at once on a folder with nothing built: one builds, the others wait for it and find it built.
    const first = await Promise.all([0, 1, 2].map(() => builtArtifact(outdir)));
    assertEquals(first.map((result) => result.built).sort(), [false, false, true]);
    assertEquals(
      new Set(first.map((result) => result.entry)),
      new Set([`${ROOT}${outdir}/${ARTIFACT_ENTRY}`]),
    );
    // Newer than every source: nothing to build.
    assertEquals((await builtArtifact(outdir)).built, false);
    // Older than a source (as after an edit): built again.
    await Deno.utime(first[0].entry, 0, 0);
    assertEquals((await builtArtifact(outdir)).built, true);
  } finally {
    await Deno.remove(`${ROOT}${outdir}`, { recursive: true });
  }
});
