/**
 * `index add --project` on a real project: this one, whose `deno.json` imports its npm dependencies, which
 * Deno's npm cache holds (the tests and the build put them there). Times a whole process that builds every
 * package's index into a fresh state directory (median of --runs), then one that finds them all built.
 *
 *   deno run -A tests/bench/project.ts [--runs N] [--json]
 */
import { parseArgv } from "../../lib/cli/args.ts";
import { ROOT, sandbox } from "../helpers.ts";
import { timedCli } from "../eval/corpora.ts";

const { values } = parseArgv(Deno.args, {
  runs: { type: "string", value: "N", description: "builds and reuses timed (default 3)" },
  json: { type: "boolean", description: "print the results as JSON" },
});
const runs = Number(values.runs ?? 3);

const median = (samples: number[]) => samples.toSorted((a, b) => a - b)[Math.floor(samples.length / 2)];
// The sandbox keeps the caller's DENO_DIR, where this project's npm packages are.
await using box = await sandbox();
const builds: number[] = [];
const reuses: number[] = [];
let report = "";
for (let run = 0; run < runs; run++) {
  const env = { ...box.env, DOCSEARCH_HOME: `${box.home}/state-${run}` };
  const args = ["index", "add", "--project", ROOT.replace(/\/$/, ""), "--no-config"];
  const built = await timedCli(args, env);
  builds.push(built.ms);
  report = built.out.stdout;
  reuses.push((await timedCli(args, env)).ms);
}
if (values.json) {
  console.log(JSON.stringify({ runs, buildMs: median(builds), reuseMs: median(reuses), report }, null, 2));
} else {
  console.log(`index add --project on this project (its deno.json's npm imports), median of ${runs}\n`);
  console.log("| run | whole process s |\n| --- | ---: |");
  console.log(`| build every package's index | ${(median(builds) / 1000).toFixed(2)} |`);
  console.log(`| again: every index found built | ${(median(reuses) / 1000).toFixed(2)} |`);
  console.log(`\n${report.trim()}\n`);
}
