/**
 * The hook path on the eval's corpora: each question sent as a web search matched to its corpus's index, as
 * the hook answers it (lib/answer/local.ts: the local search, the gate, the denial at the default budget).
 *
 * - inline answer: the share of a corpus's questions whose denial quotes an answering page;
 * - negatives allowed: the share of the other corpora's questions, sent to this corpus's index, that the
 *   gate lets through (no denial). A few of them the other manual does answer (Python's uuid module
 *   generates random UUIDs as PostgreSQL's gen_random_uuid does): a gate that lets all of them through
 *   would be wrong too;
 * - off-topic allowed: the same for fixtures/eval/negatives.json, web searches about other tools (React,
 *   Docker, git …) that none of the corpora answers, so that a corpus evaluated alone has negatives too.
 */
import { ANSWER_MAX_CHARS } from "../../lib/config/types.ts";
import { localAnswer } from "../../lib/answer/local.ts";
import { BUILT_IN_TOOL, indexFileIn } from "../../lib/docs/built_in.ts";
import { DocsIndex } from "../../lib/docs/store.ts";
import type { Match } from "../../lib/match/match.ts";
import type { WebRequest } from "../../lib/redirect/request.ts";
import { readFixture } from "../helpers.ts";
import { type CorpusName, loadQuestions, type Question } from "./corpora.ts";

/** A corpus whose index the retrieval evaluation built. */
export interface Indexed {
  corpus: CorpusName;
  label: string;
  root: string;
}

export interface HookPath {
  corpus: CorpusName;
  label: string;
  questions: number;
  /** Own questions the gate denies, with an answer. */
  denied: number;
  /** Own questions whose denial quotes an answering page. */
  inlineAnswer: number;
  negatives: number;
  /** Other corpora's questions the gate lets through. */
  negativesAllowed: number;
  /** The mean length of a denial's reason, in characters. */
  meanReasonChars: number;
  /** Own questions not answered inline: what the denial quoted instead, or that it let them through. */
  misses: { q: string; pages: string[]; quoted: string[] | "allowed" }[];
  offTopic: number;
  /** Off-topic searches the gate lets through. */
  offTopicAllowed: number;
  /** Negatives denied (other corpora's questions and off-topic searches): the question and the page quoted first. */
  deniedNegatives: { q: string; from: CorpusName | "off-topic"; top: string }[];
}

/** The off-topic web searches: `{ "q": … }` each. */
export function loadOffTopic(): string[] {
  const file = "eval/negatives.json";
  const entries = JSON.parse(readFixture(file)) as { q?: unknown }[];
  const bad = entries.findIndex((entry) => typeof entry.q !== "string" || entry.q.trim() === "");
  if (bad >= 0) throw new Error(`fixtures/${file}: entry ${bad + 1} needs a "q"`);
  return entries.map((entry) => entry.q as string);
}

/** A web search for `query`, as the agent sends it. */
const webSearch = (query: string): WebRequest => ({
  tool: "WebSearch",
  query,
  allowedDomains: [],
  blockedDomains: [],
});

/** The config entry `index add` writes for a corpus's index, matched by its name. */
function matchOf(indexed: Indexed): Match {
  return {
    database: {
      name: indexed.corpus,
      keywords: [indexed.corpus],
      mcpToolName: BUILT_IN_TOOL,
      description: indexed.label,
      domains: [],
      toolArgs: { index: indexed.corpus },
      enabled: true,
      source: "eval",
    },
    reason: { kind: "keyword", keyword: indexed.corpus },
  };
}

const relative = (source: string, root: string) => source.slice(root.replace(/\/$/, "").length + 1);

/** Every indexed corpus's hook path, its negatives the questions of the others. */
export async function hookPaths(indexed: readonly Indexed[], state: string): Promise<HookPath[]> {
  const questions = new Map<CorpusName, Question[]>();
  for (const corpus of indexed) questions.set(corpus.corpus, await loadQuestions(corpus.corpus, corpus.root));
  const offTopic = loadOffTopic();
  return indexed.map((corpus) => {
    const index = DocsIndex.open(indexFileIn(Deno.build.os, state, corpus.corpus));
    try {
      const match = matchOf(corpus);
      const denial = (query: string) => {
        const local = localAnswer(index, corpus.corpus, webSearch(query), match, {
          ttlSeconds: 300,
          retryWillPass: true,
          maxChars: ANSWER_MAX_CHARS.default,
        });
        return local.kind === "none" ? undefined : local.answer;
      };
      const own = questions.get(corpus.corpus)!;
      let denied = 0, inlineAnswer = 0, reasonChars = 0;
      const misses: HookPath["misses"] = [];
      for (const question of own) {
        const answer = denial(question.q);
        const pages = [question.page, ...question.also ?? []];
        const quoted = answer?.pages.map((source) => relative(source, corpus.root)) ?? [];
        if (answer !== undefined) {
          denied++;
          reasonChars += answer.reason.length;
        }
        if (quoted.some((page) => pages.includes(page))) inlineAnswer++;
        else misses.push({ q: question.q, pages, quoted: answer === undefined ? "allowed" : quoted });
      }
      const deniedNegatives: HookPath["deniedNegatives"] = [];
      /** How many of the queries the gate lets through; the others are listed as denied. */
      const allowed = (queries: readonly string[], from: HookPath["deniedNegatives"][number]["from"]) =>
        queries.filter((q) => {
          const answer = denial(q);
          if (answer !== undefined) {
            deniedNegatives.push({ q, from, top: relative(answer.pages[0], corpus.root) });
          }
          return answer === undefined;
        }).length;
      const others = [...questions].filter(([from]) => from !== corpus.corpus);
      const negatives = others.reduce((sum, [, list]) => sum + list.length, 0);
      const negativesAllowed = others.reduce(
        (sum, [from, list]) => sum + allowed(list.map((question) => question.q), from),
        0,
      );
      const offTopicAllowed = allowed(offTopic, "off-topic");
      return {
        corpus: corpus.corpus,
        label: corpus.label,
        questions: own.length,
        denied,
        inlineAnswer,
        negatives,
        negativesAllowed,
        offTopic: offTopic.length,
        offTopicAllowed,
        meanReasonChars: denied === 0 ? 0 : Math.round(reasonChars / denied),
        misses,
        deniedNegatives,
      };
    } finally {
      index.close();
    }
  });
}

const share = (part: number, whole: number) => whole === 0 ? "–" : (part / whole).toFixed(2);

/** The hook path as a Markdown table, a row per corpus. */
export function hookPathTable(paths: readonly HookPath[]): string {
  return [
    "| corpus | questions | denied | inline answer | negatives | negatives allowed | off-topic | off-topic allowed " +
    "| mean denial chars |",
    "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ...paths.map((path) =>
      `| ${path.label} | ${path.questions} | ${share(path.denied, path.questions)} | ${
        share(path.inlineAnswer, path.questions)
      } | ${path.negatives} | ${share(path.negativesAllowed, path.negatives)} | ${path.offTopic} | ${
        share(path.offTopicAllowed, path.offTopic)
      } | ${path.meanReasonChars} |`
    ),
  ].join("\n");
}

/** The hook path as a table, and with `verbose` every question it gets wrong. */
export function reportHookPaths(paths: readonly HookPath[], verbose: boolean): void {
  if (paths.length === 0) return;
  console.log(
    `\nhook path: each question as a web search matched to its corpus's index, denied with passages ` +
      `inline (${ANSWER_MAX_CHARS.default} characters) only when the local docs answer it\n`,
  );
  console.log(hookPathTable(paths));
  if (!verbose) return;
  for (const path of paths) {
    console.log(`\n${path.label}: ${path.misses.length} of ${path.questions} questions not answered inline`);
    for (const miss of path.misses) {
      console.log(
        `  "${miss.q}"\n    answer ${miss.pages.join(" or ")}: ${
          miss.quoted === "allowed" ? "let through (no local answer)" : `quoted ${miss.quoted.join(", ")}`
        }`,
      );
    }
    console.log(
      `\n${path.label}: ${path.deniedNegatives.length} of ${path.negatives + path.offTopic} negatives denied`,
    );
    for (const negative of path.deniedNegatives) {
      console.log(`  "${negative.q}" (${negative.from}): quoted ${negative.top} first`);
    }
  }
}
