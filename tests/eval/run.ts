/**
 * Retrieval quality of the local docs search on real documentation: for each question, the rank of the page
 * that answers it among the pages of the top 10 passages (what `search --limit 10` shows), then recall@1,
 * @5, @10 and the mean reciprocal rank. The indexes are built by the real CLI into a throw-away state
 * directory; the questions run in this process through the search the CLI and the MCP server share. A run of
 * every corpus writes its table into docs/performance.md, stamped with the date and the machine.
 *
 *   deno task eval [--corpus npm|postgresql|python] [--json] [--verbose]
 */
import { MEASURED, writeMeasurement } from "../../lib/build/doc_pages.ts";
import { parseArgv } from "../../lib/cli/args.ts";
import { searchIndexes } from "../../lib/docs/search.ts";
import { sandbox } from "../helpers.ts";
import { hookPaths, hookPathTable, reportHookPaths } from "./hook_path.ts";
import {
  addIndex,
  CORPORA,
  CORPUS_NAMES,
  type CorpusName,
  indexContents,
  indexHome,
  loadQuestions,
} from "./corpora.ts";

/** Passages asked for per question, as `search --limit 10` shows them; an answer not among their pages is not found. */
export const TOP = 10;

/** Pages in the order they first appear: results are passages, and one page may give several. */
export function distinctPages(pages: readonly string[]): string[] {
  return [...new Set(pages)];
}

/** The 1-based rank of the first page that is one of `expected`, each page counted once; undefined if none is. */
export function pageRank(pages: readonly string[], expected: ReadonlySet<string>): number | undefined {
  const rank = distinctPages(pages).findIndex((page) => expected.has(page)) + 1;
  return rank === 0 ? undefined : rank;
}

export interface Metrics {
  questions: number;
  recallAt1: number;
  recallAt5: number;
  recallAt10: number;
  /** Mean reciprocal rank, a page below rank 10 or not found counting 0. */
  mrr: number;
}

/** The scores for a set of questions, from the rank each one's answer got (undefined: not found). */
export function metrics(ranks: readonly (number | undefined)[]): Metrics {
  if (ranks.length === 0) throw new RangeError("no questions: nothing to measure");
  const found = (k: number) => ranks.filter((rank) => rank !== undefined && rank <= k).length / ranks.length;
  const reciprocal = ranks.reduce<number>(
    (sum, rank) => sum + (rank !== undefined && rank <= TOP ? 1 / rank : 0),
    0,
  );
  return {
    questions: ranks.length,
    recallAt1: found(1),
    recallAt5: found(5),
    recallAt10: found(TOP),
    mrr: reciprocal / ranks.length,
  };
}

/** A result's page as the questions name it: relative to the corpus root, "/" between folders. */
export function pageOf(source: string, root: string): string {
  const normalize = (path: string) => path.replaceAll("\\", "/");
  const base = normalize(root).replace(/\/$/, "") + "/";
  const path = normalize(source);
  return path.startsWith(base) ? path.slice(base.length) : path;
}

interface Miss {
  q: string;
  /** The answering pages, the main one first. */
  pages: string[];
  rank: number | undefined;
  top: string[];
}

interface Skipped {
  corpus: CorpusName;
  label: string;
  skipped: string;
}

interface Evaluated {
  corpus: CorpusName;
  label: string;
  root: string;
  documents: number;
  chunks: number;
  indexSeconds: number;
  metrics: Metrics;
  misses: Miss[];
}

type Outcome = Skipped | Evaluated;

async function evaluate(name: CorpusName, state: string, env: Record<string, string>): Promise<Outcome> {
  const corpus = CORPORA[name];
  const located = await corpus.locate();
  if ("missing" in located) return { corpus: name, label: corpus.label, skipped: located.missing };
  const { root } = located;
  const { ms } = await addIndex(name, root, env);
  const { documents, chunks } = indexContents(name, state);
  if (documents === 0) {
    return {
      corpus: name,
      label: corpus.label,
      skipped: `indexed 0 documents from ${root}: nothing to evaluate`,
    };
  }
  const questions = await loadQuestions(name, root);
  const ranks: (number | undefined)[] = [];
  const misses: Miss[] = [];
  for (const question of questions) {
    const answers = [question.page, ...(question.also ?? [])];
    const pages = searchIndexes(indexHome(state), [name], question.q, TOP).map((result) =>
      pageOf(result.source, root)
    );
    const rank = pageRank(pages, new Set(answers));
    ranks.push(rank);
    if (rank !== 1) {
      misses.push({ q: question.q, pages: answers, rank, top: distinctPages(pages).slice(0, 3) });
    }
  }
  return {
    corpus: name,
    label: corpus.label,
    root,
    documents,
    chunks,
    indexSeconds: ms / 1000,
    metrics: metrics(ranks),
    misses,
  };
}

/** The scores in Markdown, with the corpora not evaluated: printed, and written into docs/performance.md. */
function qualityTable(outcomes: Outcome[]): string {
  const evaluated = outcomes.filter((o): o is Evaluated => !("skipped" in o));
  return [
    ...(evaluated.length === 0 ? [] : [
      "| corpus | documents | chunks | index s | questions | recall@1 | recall@5 | recall@10 | MRR |",
      "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
      ...evaluated.map(({ label, documents, chunks, indexSeconds, metrics: m }) =>
        `| ${label} | ${documents} | ${chunks} | ${indexSeconds.toFixed(1)} | ${m.questions} | ${
          [m.recallAt1, m.recallAt5, m.recallAt10, m.mrr].map((x) => x.toFixed(2)).join(" | ")
        } |`
      ),
    ]),
    ...outcomes.flatMap((o) => "skipped" in o ? ["", `${o.label}: not evaluated: ${o.skipped}`] : []),
  ].join("\n");
}

function report(outcomes: Outcome[], verbose: boolean): void {
  const evaluated = outcomes.filter((o): o is Evaluated => !("skipped" in o));
  console.log(`retrieval quality: the answering page among the pages of the top ${TOP} passages\n`);
  console.log(qualityTable(outcomes));
  if (!verbose) return;
  for (const o of evaluated) {
    console.log(`\n${o.label}: ${o.misses.length} of ${o.metrics.questions} questions not answered first`);
    for (const miss of o.misses) {
      console.log(
        `  "${miss.q}"\n    answer ${miss.pages.join(" or ")}: ${
          miss.rank === undefined ? `not in top ${TOP}` : `rank ${miss.rank}`
        }\n    top 3: ${miss.top.join(", ") || "nothing"}`,
      );
    }
  }
}

async function main(args: string[]): Promise<number> {
  const { values } = parseArgv(args, {
    corpus: { type: "string", value: "NAME", description: `one corpus (${CORPUS_NAMES.join(", ")})` },
    json: { type: "boolean", description: "print the numbers as JSON" },
    verbose: { type: "boolean", description: "list every question whose page did not come first" },
  });
  const names = values.corpus === undefined ? [...CORPUS_NAMES] : [values.corpus as CorpusName];
  if (!names.every((name) => CORPUS_NAMES.includes(name))) {
    console.error(`eval: --corpus is one of ${CORPUS_NAMES.join(", ")}, not "${values.corpus}"`);
    return 2;
  }
  await using box = await sandbox();
  const outcomes: Outcome[] = [];
  for (const name of names) outcomes.push(await evaluate(name, box.state, box.env));
  const hook = await hookPaths(outcomes.filter((o): o is Evaluated => !("skipped" in o)), box.state);
  if (values.json) {
    const hookPath = (o: Outcome) => {
      const path = hook.find((p) => p.corpus === o.corpus);
      return path && (values.verbose ? path : { ...path, misses: undefined, deniedNegatives: undefined });
    };
    console.log(JSON.stringify(
      outcomes.map((o) =>
        "skipped" in o ? o : { ...values.verbose ? o : { ...o, misses: undefined }, hookPath: hookPath(o) }
      ),
      null,
      2,
    ));
  } else {
    report(outcomes, values.verbose === true);
    reportHookPaths(hook, values.verbose === true);
  }
  // Only a run of every corpus stands for the table; one corpus asked for by name is a look, not a measure.
  if (values.corpus === undefined) {
    await writeMeasurement({ id: MEASURED.quality, body: qualityTable(outcomes), how: "`deno task eval`" });
    if (hook.length > 0) {
      await writeMeasurement({ id: MEASURED.hookPath, body: hookPathTable(hook), how: "`deno task eval`" });
    }
  }
  // A corpus asked for by name and not evaluated is a failure; in the full run, a missing one is only noted.
  const skipped = outcomes.filter((o) => "skipped" in o).length;
  return skipped === outcomes.length || (values.corpus !== undefined && skipped > 0) ? 1 : 0;
}

if (import.meta.main) {
  try {
    Deno.exit(await main(Deno.args));
  } catch (error) {
    // A bad question file or a failing CLI: the message says what, a stack trace would only bury it.
    console.error(`eval: ${(error as Error).message}`);
    Deno.exit(1);
  }
}
