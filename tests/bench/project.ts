/**
 * `index add --project` on real projects: this one, whose `deno.json` imports its npm dependencies, which
 * Deno's npm cache holds (the tests and the build put them there); and a Python project that needs every
 * distribution installed in the site-packages of the `python3` on PATH (skipped where there is none). Times a
 * whole process that builds every package's index into a fresh state directory (median of --runs), then one
 * that finds them all built. The table also goes into docs/performance.md, stamped with the date and the
 * machine.
 *
 *   deno run -A tests/bench/project.ts [--runs N] [--json]
 */
import { MEASURED, writeMeasurement } from "../../lib/build/doc_pages.ts";
import { parseArgv } from "../../lib/cli/args.ts";
import { pythonEnvironment } from "../../lib/project/python.ts";
import { ROOT, sandbox } from "../helpers.ts";
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
if (values.json) {
  console.log(JSON.stringify({ runs, results }, null, 2));
} else {
  console.log(`index add --project, whole process, median of ${runs}\n`);
  console.log(table);
  console.log(`\n${results[0].report.trim()}\n`);
}
await writeMeasurement({
  id: MEASURED.project,
  body: table,
  how: `\`deno task bench\` (tests/bench/project.ts, whole processes, median of ${runs})`,
});
