/**
 * `index add --project` on a real project: this project's own npm dependencies (deno.json's `npm:` imports),
 * installed by npm into `.cache/bench/project/` once. Times a whole process that builds every package's index
 * into a fresh state directory (median of --runs), then one that finds them all built (reuse).
 *
 *   deno run -A tests/bench/project.ts [--runs N] [--json]
 */
import { parseArgv } from "../../lib/cli/args.ts";
import { exists, ROOT, runProgram, sandbox } from "../helpers.ts";
import { timedCli } from "../eval/corpora.ts";

const { values } = parseArgv(Deno.args, {
  runs: { type: "string", value: "N", description: "builds and reuses timed (default 3)" },
  json: { type: "boolean", description: "print the results as JSON" },
});
const runs = Number(values.runs ?? 3);

/** deno.json's `npm:name@range` imports as package.json dependencies. */
function npmImports(): Record<string, string> {
  const imports = JSON.parse(Deno.readTextFileSync(`${ROOT}deno.json`)).imports as Record<string, string>;
  return Object.fromEntries(
    Object.values(imports).flatMap((specifier) => {
      const parsed = /^npm:(@?[^@]+)@(.+)$/.exec(specifier);
      return parsed === null ? [] : [[parsed[1], parsed[2]]];
    }),
  );
}

const project = `${ROOT}.cache/bench/project`;
const manifest = JSON.stringify(
  { name: "bench-project", private: true, dependencies: npmImports() },
  null,
  2,
);
if (
  !await exists(`${project}/node_modules`) || Deno.readTextFileSync(`${project}/package.json`) !== manifest
) {
  await Deno.mkdir(project, { recursive: true });
  await Deno.writeTextFile(`${project}/package.json`, manifest);
  const npm = await runProgram("npm", [
    "install",
    "--ignore-scripts",
    "--no-audit",
    "--no-fund",
    "--loglevel=error",
  ], {
    env: Deno.env.toObject(),
    cwd: project,
  });
  if (npm.code !== 0) throw new Error(`npm install in ${project} failed:\n${npm.stderr}`);
}

const median = (samples: number[]) => samples.toSorted((a, b) => a - b)[Math.floor(samples.length / 2)];
await using box = await sandbox();
const builds: number[] = [];
const reuses: number[] = [];
let report = "";
for (let run = 0; run < runs; run++) {
  const env = { ...box.env, DOCSEARCH_HOME: `${box.home}/state-${run}` };
  const built = await timedCli(["index", "add", "--project", project], env);
  builds.push(built.ms);
  report = built.out.stdout;
  reuses.push((await timedCli(["index", "add", "--project", project], env)).ms);
}
const packages = Object.keys(npmImports()).length;
if (values.json) {
  console.log(JSON.stringify({ runs, packages, buildMs: median(builds), reuseMs: median(reuses) }, null, 2));
} else {
  console.log(`index add --project on this project's ${packages} npm dependencies, median of ${runs}\n`);
  console.log("| run | whole process s |\n| --- | ---: |");
  console.log(`| build every package's index | ${(median(builds) / 1000).toFixed(2)} |`);
  console.log(`| again: every index found built | ${(median(reuses) / 1000).toFixed(2)} |`);
  console.log(`\n${report.trim()}\n`);
}
