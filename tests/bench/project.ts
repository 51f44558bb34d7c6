/**
 * `index add --project` on real projects: this one, whose `deno.json` imports its npm dependencies, which
 * Deno's npm cache holds (the tests and the build put them there); a Python project that needs every
 * distribution installed in the site-packages of the `python3` on PATH; and a typical Next.js/Express app
 * (fixtures/projects/typical-app: 26 direct dependencies at exact versions, its lockfile installed by `npm ci`
 * from the registry into the sandbox). A project that cannot be had (no python3, no registry) is skipped, and
 * the output and the tables say so. Times a whole process that builds every package's index into a fresh state
 * directory (median of --runs), then one that finds them all built, and counts the packages whose installed
 * docs are thin (under THIN_WORDS words), by name.
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
import { THIN_WORDS } from "../../lib/project/published_docs.ts";
import { readProgress, type UpkeepProgress } from "../../lib/project/upkeep_progress.ts";
import { event, fixture, noFetching, ROOT, runProgram, sandbox } from "../helpers.ts";
import { timedCli } from "../eval/corpora.ts";

const { values } = parseArgv(Deno.args, {
  runs: { type: "string", value: "N", description: "builds and reuses timed (default 3)" },
  json: { type: "boolean", description: "print the results as JSON" },
});
const runs = Number(values.runs ?? 3);

const median = (samples: number[]) => samples.toSorted((a, b) => a - b)[Math.floor(samples.length / 2)];
// The sandbox keeps the caller's DENO_DIR, where this project's npm packages are, and PATH, where python3 is.
await using box = await sandbox();
// The local build is what is timed: fetching a thin package's published docs depends on the network and the
// sites (it is tested against servers on 127.0.0.1, tests/published_docs_test.ts).
await noFetching(box);

/**
 * A project of the bench: `dir` is the folder `index add --project` reads, `serverDir` the one its MCP server
 * starts in (they differ where the server's config layer is not to land in the folder read).
 */
interface Project {
  label: string;
  dir: string;
  serverDir: string;
}
/** A project the bench could not have, and why. */
interface Skipped {
  label: string;
  skipped: string;
}

/**
 * A folder that is this project as far as its dependencies go (its deno.json and deno.lock): the server writes
 * the project's local config layer, which is not to land in the checkout.
 */
async function thisProject(): Promise<Project> {
  const dir = `${box.home}/this-project`;
  await Deno.mkdir(dir);
  for (const file of ["deno.json", "deno.lock"]) {
    await Deno.copyFile(`${ROOT}${file}`, `${dir}/${file}`);
    // As old as the checkout's: a copy made now would look like an install that just ended, which the upkeep
    // waits 3 s to see settle.
    const { atime, mtime } = await Deno.stat(`${ROOT}${file}`);
    await Deno.utime(`${dir}/${file}`, atime ?? new Date(), mtime ?? new Date());
  }
  const label = "this project (its deno.json's npm imports)";
  return { label, dir: ROOT.replace(/\/$/, ""), serverDir: dir };
}

/** A project whose requirements are every distribution python3's environment has: a large real install. */
async function pythonProject(): Promise<Project | Skipped> {
  const label = "a Python project requiring all of python3's site-packages";
  const dir = `${box.home}/python-app`;
  const environment = pythonEnvironment(dir, (name) => Deno.env.get(name), Deno.build.os);
  if (environment === undefined) return { label, skipped: "no python3 on PATH" };
  const names = environment.sitePackages.flatMap((site) =>
    [...Deno.readDirSync(site)].map((entry) => /^(.+?)-\d[^-]*\.(dist|egg)-info$/.exec(entry.name)?.[1])
  ).filter((name) => name !== undefined);
  await Deno.mkdir(dir);
  await Deno.writeTextFile(`${dir}/requirements.txt`, [...new Set(names)].join("\n"));
  return { label, dir, serverDir: dir };
}

/** npm's error block, "npm error code ECONNREFUSED" then the message among key lines and a stack, in one line. */
function npmError(stderr: string): string {
  const lines = stderr.split("\n");
  const first = (pattern: RegExp) => lines.map((line) => pattern.exec(line)?.[1]).find(Boolean);
  const code = first(/^npm (?:error|ERR!) code (\S+)/) ?? "no code";
  return `${code}: ${first(/^npm (?:error|ERR!) (?!code |syscall |errno |\s)(.+)/) ?? "no message"}`;
}

/**
 * The typical app's fixture installed from the registry: its package.json and lockfile copied into the sandbox
 * and `npm ci` run there, so every run installs the same tree. npm runs with the caller's environment, so its
 * cache makes a second run quick; no package's install scripts run. The install ends before the first timed
 * build, longer ago than the upkeep's 3 s wait for an install to settle by the time its server starts.
 */
async function typicalApp(): Promise<Project | Skipped> {
  const label = "a typical Next.js/Express app (fixtures/projects/typical-app, npm ci)";
  const dir = `${box.home}/typical-app`;
  await Deno.mkdir(dir);
  for (const file of ["package.json", "package-lock.json"]) {
    await Deno.copyFile(fixture(`projects/typical-app/${file}`), `${dir}/${file}`);
  }
  const start = performance.now();
  try {
    const { code, stderr } = await new Deno.Command("npm", {
      args: ["ci", "--ignore-scripts", "--no-audit", "--no-fund"],
      cwd: dir,
      stdin: "null",
      stdout: "null",
      stderr: "piped",
    }).output();
    if (code !== 0) {
      return { label, skipped: `npm ci exited ${code} (${npmError(new TextDecoder().decode(stderr))})` };
    }
  } catch (error) {
    return { label, skipped: `npm ci could not run: ${error instanceof Error ? error.message : error}` };
  }
  console.error(`typical app: npm ci in ${((performance.now() - start) / 1000).toFixed(1)} s`);
  return { label, dir, serverDir: dir };
}

const found = [await thisProject(), await pythonProject(), await typicalApp()];
const projects = found.filter((project): project is Project => "dir" in project);
const skipped = found.filter((project): project is Skipped => "skipped" in project);
/** Said before the runs and under the tables: a project missing from them is never missing silently. */
const skips = skipped.map(({ label, skipped }) => `Skipped ${label}: ${skipped}.`);
for (const line of skips) console.error(line);

/** The packages `index add --project` reported, with their words: "  react 19.3.1: 130 words". */
const packageWords = (report: string) =>
  [...report.matchAll(/^ {2}(\S+) \S+: (\d+) words?/gm)].map(([, name, words]) => ({
    name,
    words: Number(words),
  }));

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
  const words = packageWords(report);
  const thin = words.filter((pkg) => pkg.words < THIN_WORDS).sort((a, b) => a.words - b.words);
  results.push({ ...project, buildMs: median(builds), reuseMs: median(reuses), report, words, thin });
}
/** The table in Markdown, with the thin packages named under it: printed, and written into docs/performance.md. */
const thinWords = THIN_WORDS.toLocaleString("en");
const table = [
  [
    `| project | packages | build every index, s | again: all found built, s | under ${thinWords} words |`,
    "| --- | ---: | ---: | ---: | ---: |",
    ...results.map(({ label, buildMs, reuseMs, words, thin }) =>
      `| ${label} | ${words.length} | ${(buildMs / 1000).toFixed(2)} | ${
        (reuseMs / 1000).toFixed(2)
      } | ${thin.length} |`
    ),
  ].join("\n"),
  ...results.filter(({ thin }) => thin.length > 0).map(({ label, thin }) =>
    `Under ${thinWords} words in ${label}: ${thin.map(({ name, words }) => `${name} (${words})`).join(", ")}.`
  ),
  ...skips,
].join("\n\n");

// ---- the background upkeep -----------------------------------------------------------------------------

/** The artifact, as the agent's MCP server and hook run it (the binaries compile it). */
const artifact = await build();
const runArtifact = (args: string[], options: { env: Record<string, string>; cwd: string; stdin: string }) =>
  runProgram(Deno.execPath(), ["run", "-A", "--quiet", "--no-config", artifact, ...args], options);

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
  upkeeps.push(await upkeep(project.label, project.serverDir, `${box.home}/state-upkeep-${i}`));
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
  console.log(JSON.stringify({ runs, results, skipped, upkeeps }, null, 2));
} else {
  console.log(`index add --project, whole process, median of ${runs}\n`);
  console.log(table);
  for (const { report } of results) console.log(`\n${report.trim()}`);
  console.log();
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
