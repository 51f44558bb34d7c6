/**
 * Docs index and search speed on the retrieval evaluation's corpora (tests/eval/corpora.ts): a full
 * `index add` (documents/s and MB/s, median of fresh state directories), a `index refresh` with nothing
 * changed, then search latency over every eval question, in this process (what the MCP server pays) and
 * as a whole `search --json` process (what an agent's shell call pays), next to an empty Deno program. The
 * results also go into docs/performance.md, stamped with the date and the machine.
 *
 *   deno run -A tests/bench/docs.ts [--runs N] [--rounds N] [--spawns N] [--json]
 */
import { MEASURED, writeMeasurement } from "../../lib/build/doc_pages.ts";
import { parseArgv } from "../../lib/cli/args.ts";
import { searchIndexes } from "../../lib/docs/search.ts";
import {
  addIndex,
  CORPORA,
  CORPUS_NAMES,
  indexContents,
  indexHome,
  loadQuestions,
  timedCli,
} from "../eval/corpora.ts";
import { TOP } from "../eval/run.ts";
import { runScript, sandbox } from "../helpers.ts";

const { values } = parseArgv(Deno.args, {
  runs: { type: "string", value: "N", description: "full index builds, and no-change refreshes (default 3)" },
  rounds: { type: "string", value: "N", description: "in-process passes over the questions (default 20)" },
  spawns: { type: "string", value: "N", description: "whole-process searches (default 30)" },
  json: { type: "boolean", description: "print the results as JSON" },
});
const runs = Number(values.runs ?? 3);
const rounds = Number(values.rounds ?? 20);
const spawns = Number(values.spawns ?? 30);

const quantile = (samples: number[], q: number) => {
  const sorted = samples.toSorted((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
};
const spread = (samples: number[]) => ({ p50: quantile(samples, 0.5), p95: quantile(samples, 0.95) });

await using box = await sandbox();

interface Row {
  corpus: string;
  documents: number;
  chunks: number;
  megabytes: number;
  questions: number;
  addMs: number;
  documentsPerSecond: number;
  megabytesPerSecond: number;
  refreshMs: number;
  inProcess: { p50: number; p95: number; samples: number };
  cli: { p50: number; p95: number; samples: number };
  emptyProgram: { p50: number; p95: number; samples: number };
}

const rows: Row[] = [];
const notes: string[] = [];

for (const name of CORPUS_NAMES) {
  const corpus = CORPORA[name];
  const located = await corpus.locate();
  if ("missing" in located) {
    notes.push(`${corpus.label}: not measured: ${located.missing}`);
    continue;
  }
  const { root } = located;
  const questions = await loadQuestions(name, root);

  // Each build starts from nothing: a state directory of its own.
  const adds: number[] = [];
  let env = box.env;
  let state = box.state;
  for (let run = 0; run < runs; run++) {
    state = `${box.home}/state-${name}-${run}`;
    env = { ...box.env, DOCSEARCH_HOME: state };
    adds.push((await addIndex(name, root, env)).ms);
  }
  const contents = indexContents(name, state);
  if (contents.documents === 0) {
    notes.push(`${corpus.label}: not measured: indexed 0 documents from ${root}`);
    continue;
  }
  const refreshes: number[] = [];
  for (let run = 0; run < runs; run++) refreshes.push((await timedCli(["index", "refresh", name], env)).ms);

  // The last build's indexes; one pass first, so no sample pays a cold cache.
  const inProcess: number[] = [];
  for (let round = -1; round < rounds; round++) {
    for (const { q } of questions) {
      const start = performance.now();
      searchIndexes(indexHome(state), [name], q, TOP);
      if (round >= 0) inProcess.push(performance.now() - start);
    }
  }

  // Whole processes, each search next to an empty program, so machine noise hits both alike.
  const cli: number[] = [];
  const empty: number[] = [];
  for (let i = -1; i < spawns; i++) {
    const { q } = questions[(i + questions.length) % questions.length];
    const { ms, out } = await timedCli(["search", name, q, "--json", "--limit", String(TOP)], env);
    if (!Array.isArray(JSON.parse(out.stdout))) throw new Error(`search ${name} "${q}": not a JSON list`);
    const start = performance.now();
    await runScript("tests/bench/empty.ts", [], { env, stdin: "{}" });
    if (i >= 0) {
      cli.push(ms);
      empty.push(performance.now() - start);
    }
  }

  const addMs = quantile(adds, 0.5);
  const megabytes = contents.bytes / 1e6;
  rows.push({
    corpus: corpus.label,
    documents: contents.documents,
    chunks: contents.chunks,
    megabytes,
    questions: questions.length,
    addMs,
    documentsPerSecond: contents.documents / (addMs / 1000),
    megabytesPerSecond: megabytes / (addMs / 1000),
    refreshMs: quantile(refreshes, 0.5),
    inProcess: { ...spread(inProcess), samples: inProcess.length },
    cli: { ...spread(cli), samples: cli.length },
    emptyProgram: { ...spread(empty), samples: empty.length },
  });
}

/** The results in Markdown: printed, and written into docs/performance.md. */
const report = [
  ...(rows.length === 0 ? [] : [
    `Index: a whole \`index add\` process into a fresh state directory, median of ${runs}; ` +
    `refresh: nothing changed, median of ${runs}.`,
    "",
    "| corpus | documents | chunks | MB | index add s | documents/s | MB/s | refresh ms |",
    "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ...rows.map((r) =>
      `| ${r.corpus} | ${r.documents} | ${r.chunks} | ${r.megabytes.toFixed(1)} | ${
        (r.addMs / 1000).toFixed(2)
      } | ${r.documentsPerSecond.toFixed(0)} | ${r.megabytesPerSecond.toFixed(1)} | ${
        r.refreshMs.toFixed(0)
      } |`
    ),
    "",
    `Search, top ${TOP} passages: in process over every question ${rounds} times; ` +
    `\`search --json\` as a whole process ${spawns} times, next to an empty deno program.`,
    "",
    "| corpus | questions | in-process p50 ms | p95 ms | CLI p50 ms | p95 ms | empty program p50 ms | p95 ms |",
    "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ...rows.map((r) => {
      const cells = [
        r.inProcess.p50,
        r.inProcess.p95,
        r.cli.p50,
        r.cli.p95,
        r.emptyProgram.p50,
        r.emptyProgram.p95,
      ];
      return `| ${r.corpus} | ${r.questions} | ${cells.map((ms) => ms.toFixed(1)).join(" | ")} |`;
    }),
  ]),
  ...notes.flatMap((note) => ["", `${note}.`]),
].join("\n");

if (values.json) {
  console.log(JSON.stringify({ runs, rounds, spawns, rows, notes }, null, 2));
} else {
  console.log(`docs index and search, deno ${Deno.version.deno} (${Deno.build.target})\n`);
  console.log(report);
  // What runs next in `deno task bench` starts on a line of its own.
  console.log();
}
await writeMeasurement({
  id: MEASURED.docs,
  body: report,
  how: `\`deno task bench\` (tests/bench/docs.ts, ${runs} runs, ${rounds} rounds, ${spawns} spawns)`,
});
