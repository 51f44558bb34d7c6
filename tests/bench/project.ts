/**
 * `index add --project` on real projects: this one, whose `deno.json` imports its npm dependencies, which
 * Deno's npm cache holds (the tests and the build put them there); and a Python project that needs every
 * distribution installed in the site-packages of the `python3` on PATH (skipped where there is none). Times a
 * whole process that builds every package's index into a fresh state directory (median of --runs), then one
 * that finds them all built.
 *
 * Then the same projects kept by the background upkeep, as a session gets it with nothing typed: the built
 * artifact's MCP server started in the project's folder, its input held open, into a fresh state directory.
 * Times it from the server's start to every index built (the progress record's end), and runs hook processes
 * one after another meanwhile (a web search in that project, as the agent sends it) and as many after, to see
 * whether the build slows the hook. The tables also go into docs/performance.md, stamped with the date and
 * the machine.
 *
 *   deno run -A tests/bench/project.ts [--runs N] [--json]
 */
import { build } from "../../lib/build/build.ts";
import { MEASURED, writeMeasurement } from "../../lib/build/doc_pages.ts";
import { parseArgv } from "../../lib/cli/args.ts";
import { pythonEnvironment } from "../../lib/project/python.ts";
import { readProgress, type UpkeepProgress } from "../../lib/project/upkeep_progress.ts";
import { event, ROOT, runProgram, sandbox } from "../helpers.ts";
import { timedCli } from "../eval/corpora.ts";

const { values } = parseArgv(Deno.args, {
  runs: { type: "string", value: "N", description: "builds and reuses timed (default 3)" },
  json: { type: "boolean", description: "print the results as JSON" },
});
const runs = Number(values.runs ?? 3);

const median = (samples: number[]) => samples.toSorted((a, b) => a - b)[Math.floor(samples.length / 2)];
// The sandbox keeps the caller's DENO_DIR, where this project's npm packages are, and PATH, where python3 is.
await using box = await sandbox();

/** A project whose requirements are every distribution python3's environment has: a large real install. */
async function pythonProject(): Promise<string | undefined> {
  const dir = `${box.home}/python-app`;
  const environment = pythonEnvironment(dir, (name) => Deno.env.get(name), Deno.build.os);
  if (environment === undefined) return undefined;
  const names = environment.sitePackages.flatMap((site) =>
    [...Deno.readDirSync(site)].map((entry) => /^(.+?)-\d[^-]*\.(dist|egg)-info$/.exec(entry.name)?.[1])
  ).filter((name) => name !== undefined);
  await Deno.mkdir(dir);
  await Deno.writeTextFile(`${dir}/requirements.txt`, [...new Set(names)].join("\n"));
  return dir;
}

const projects = [
  { label: "this project (its deno.json's npm imports)", dir: ROOT.replace(/\/$/, "") },
  { label: "a Python project requiring all of python3's site-packages", dir: await pythonProject() },
].filter((project): project is { label: string; dir: string } => project.dir !== undefined);

const results = [];
for (const [i, project] of projects.entries()) {
  const builds: number[] = [];
  const reuses: number[] = [];
  let report = "";
  for (let run = 0; run < runs; run++) {
    const env = { ...box.env, DOCSEARCH_HOME: `${box.home}/state-${i}-${run}` };
    const args = ["index", "add", "--project", project.dir, "--no-config"];
    const built = await timedCli(args, env);
    builds.push(built.ms);
    report = built.out.stdout;
    reuses.push((await timedCli(args, env)).ms);
  }
  results.push({ ...project, buildMs: median(builds), reuseMs: median(reuses), report });
}
/** The table in Markdown: printed, and written into docs/performance.md. */
const table = [
  "| project | packages | build every index, s | again: all found built, s |",
  "| --- | ---: | ---: | ---: |",
  ...results.map(({ label, buildMs, reuseMs, report }) =>
    `| ${label} | ${/docs of (\d+) direct/.exec(report)?.[1] ?? "?"} | ${(buildMs / 1000).toFixed(2)} | ${
      (reuseMs / 1000).toFixed(2)
    } |`
  ),
].join("\n");

// ---- the background upkeep -----------------------------------------------------------------------------

/** The artifact, as the agent's MCP server and hook run it (the binaries compile it). */
const artifact = await build();
const runArtifact = (args: string[], options: { env: Record<string, string>; cwd: string; stdin: string }) =>
  runProgram(Deno.execPath(), ["run", "-A", "--quiet", "--no-config", artifact, ...args], options);

/**
 * A folder that is this project as far as its dependencies go (its deno.json and deno.lock): the server writes
 * the project's local config layer, which is not to land in the checkout.
 */
async function thisProjectsDependencies(): Promise<string> {
  const dir = `${box.home}/this-project`;
  await Deno.mkdir(dir);
  for (const file of ["deno.json", "deno.lock"]) {
    await Deno.copyFile(`${ROOT}${file}`, `${dir}/${file}`);
    // As old as the checkout's: a copy made now would look like an install that just ended, which the upkeep
    // waits 3 s to see settle.
    const { atime, mtime } = await Deno.stat(`${ROOT}${file}`);
    await Deno.utime(`${dir}/${file}`, atime ?? new Date(), mtime ?? new Date());
  }
  return dir;
}

/** At least this many hook processes after the build, to compare with those during it. */
const MIN_AFTER = 20;

interface UpkeepResult {
  label: string;
  packages: number;
  /** From the server's start to the progress record's end. */
  builtMs: number;
  phase: UpkeepProgress["phase"];
  /** Hook processes run while packages were being built, and after every one was. */
  during: number[];
  after: number[];
}

async function upkeep(label: string, project: string, state: string): Promise<UpkeepResult> {
  const env = { ...box.env, DOCSEARCH_HOME: state, CLAUDE_PROJECT_DIR: project };
  let session = 0;
  /** One hook process, a web search in the project as the agent sends it; its time, spawn to exit. */
  const hook = async () => {
    const start = performance.now();
    const out = await runArtifact(["hook"], {
      env,
      cwd: project,
      // One that no package's docs answer, so that every run does the same work: read the config (the local
      // layer the build keeps changing among it) and let the search through.
      stdin: event("PreToolUse.WebSearch.nomatch.json", { cwd: project, session_id: `upkeep-${session++}` }),
    });
    if (out.code !== 0) throw new Error(`the hook exited ${out.code}: ${out.stderr}`);
    return performance.now() - start;
  };
  const record = () => readProgress(Deno.build.os, state, project);
  const startedAt = Date.now();
  const server = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--quiet", "--no-config", artifact, "mcp"],
    cwd: project,
    env,
    clearEnv: true,
    stdin: "piped",
    stdout: "null",
    stderr: "piped",
  }).spawn();
  const input = server.stdin.getWriter();
  const measure = async (): Promise<UpkeepResult> => {
    const during: number[] = [];
    for (;;) {
      const before = record();
      if (before?.phase === "done" || before?.phase === "failed") break;
      if (Date.now() - startedAt > 600_000) throw new Error(`${label}: not built within 10 minutes`);
      const ms = await hook();
      // Counted when a build ran the whole time: before it starts, the server only looks and waits.
      if (before?.phase === "building" && record()?.phase === "building") during.push(ms);
    }
    const progress = record()!;
    const after: number[] = [];
    while (after.length < Math.max(MIN_AFTER, during.length)) after.push(await hook());
    return {
      label,
      packages: progress.total,
      builtMs: (progress.finished ?? progress.updated) - startedAt,
      phase: progress.phase,
      during,
      after,
    };
  };
  let result: UpkeepResult;
  try {
    result = await measure();
  } finally {
    // The session ends: the server ends with its input.
    await input.close();
  }
  const { code, stderr } = await server.output();
  if (code !== 0) {
    throw new Error(`${label}: the MCP server exited ${code}: ${new TextDecoder().decode(stderr)}`);
  }
  return result;
}

const upkeeps: UpkeepResult[] = [];
for (const [i, project] of projects.entries()) {
  const dir = project.dir === ROOT.replace(/\/$/, "") ? await thisProjectsDependencies() : project.dir;
  upkeeps.push(await upkeep(project.label, dir, `${box.home}/state-upkeep-${i}`));
}
/** The median and the 90th percentile: a config layer that changed costs the next hook a validation. */
const latency = (samples: number[]) => {
  if (samples.length === 0) return "–";
  const sorted = samples.toSorted((a, b) => a - b);
  return `${median(samples).toFixed(0)} / ${
    sorted[Math.floor(sorted.length * 0.9)].toFixed(0)
  } (${samples.length})`;
};
const upkeepTable = [
  "| project | packages | server start to all built, s | hook while building, median / p90 ms (runs) | hook after, median / p90 ms (runs) |",
  "| --- | ---: | ---: | ---: | ---: |",
  ...upkeeps.map(({ label, packages, builtMs, phase, during, after }) =>
    `| ${label} | ${packages} | ${(builtMs / 1000).toFixed(2)}${phase === "done" ? "" : ` (${phase})`} | ${
      latency(during)
    } | ${latency(after)} |`
  ),
].join("\n");

if (values.json) {
  console.log(JSON.stringify({ runs, results, upkeeps }, null, 2));
} else {
  console.log(`index add --project, whole process, median of ${runs}\n`);
  console.log(table);
  console.log(`\n${results[0].report.trim()}\n`);
  console.log("background upkeep by the MCP server; hook processes while it builds and after\n");
  console.log(upkeepTable);
}
await writeMeasurement({
  id: MEASURED.project,
  body: `${table}\n\nThe background upkeep of the same projects: the artifact's MCP server started in the ` +
    "project's folder (a fresh state directory), and the hook's latency, whole process, run one after another " +
    `while it builds and as many times after:\n\n${upkeepTable}`,
  how: `\`deno task bench\` (tests/bench/project.ts, whole processes, median of ${runs}; the upkeep once)`,
});
