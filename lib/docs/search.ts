/**
 * Search across indexes, shared by the `search` command and the MCP server. A passage matches when it holds
 * any of the query's words; it ranks by BM25 times the share of the words it holds, more when they are in
 * its headings.
 */
import { messageOf, Problem } from "../errors.ts";
import { indexFile, type IndexHome, indexNames } from "./indexes.ts";
import { anyOf, quoted, termExpressions } from "./query.ts";
import { DocsIndex, type Hit } from "./store.ts";

export interface Result extends Hit {
  index: string;
}

/** The indexes `target` names ("all" or one name); an unknown name fails with the names there are. */
export function targetIndexes(home: IndexHome, target: string): string[] {
  const names = indexNames(home);
  if (target === "all") return names;
  if (!names.includes(target)) {
    throw new Problem(
      `there is no index ${target}${names.length > 0 ? ` (there are: ${names.join(", ")})` : ""}`,
      // The first word is the index: a query typed without one loses its first word to it.
      names.length > 0
        ? "name one of them first, or all: docsearch-hook search all <query…>"
        : "docsearch-hook index add <name> <folder|file|URL>",
    );
  }
  return [target];
}

/** Candidates ranked per index: enough that the right passage is among them when any word matches. */
const CANDIDATES = 200;
/**
 * How much more a passage counts when the query's words are in its page title, headings or page summary (all
 * of them: 1.5×).
 */
const HEADINGS_BOOST = 0.5;

/**
 * Hears of an index that is skipped because it cannot be read: what is wrong, and how to fix it. The caller
 * decides where that goes (a command's stderr, the MCP server's log).
 */
export type SkippedIndex = (problem: string, fix: string) => void;

/** The indexes that open; one that does not is the error when asked for alone, else named and skipped. */
function openIndexes(
  home: IndexHome,
  names: readonly string[],
  skipped: SkippedIndex,
): Map<string, DocsIndex> {
  const open = new Map<string, DocsIndex>();
  for (const name of names) {
    let problem: string;
    let fix = rebuild(name);
    try {
      const index = DocsIndex.open(indexFile(home, name));
      if (!index.isOutdated) {
        open.set(name, index);
        continue;
      }
      index.close();
      problem =
        `the index ${name} was built by an older docsearch-hook, in a layout this version does not search`;
      fix = `docsearch-hook index refresh ${name}`;
    } catch (error) {
      problem = `the index ${name} cannot be read: ${messageOf(error)}`;
    }
    reportBroken(names.length, problem, fix, skipped);
  }
  return open;
}

/** One broken index must not take the others' answers away; asked for alone, it is the answer. */
function reportBroken(asked: number, problem: string, fix: string, skipped: SkippedIndex): void {
  if (asked === 1) throw new Problem(problem, fix);
  skipped(problem, fix);
}

const rebuild = (name: string) => `docsearch-hook index remove ${name}, then index add it again`;

/**
 * The best `limit` pages for `query` in the named indexes, best first, each by its best passage: a list of
 * five results names five pages. A passage whose text a better passage of another page has (a single-page
 * edition of the manual repeating a module's page) is passed over.
 */
export function searchIndexes(
  home: IndexHome,
  names: readonly string[],
  query: string,
  limit: number,
  skipped: SkippedIndex = () => {},
): Result[] {
  const indexes = openIndexes(home, names, skipped);
  try {
    return rankIndexes(indexes, query, limit, { skipped, asked: names.length });
  } finally {
    for (const index of indexes.values()) index.close();
  }
}

/**
 * `searchIndexes` over indexes already open, by name: for a caller that holds an index open anyway (the
 * hook's answer in a denial). The indexes stay open. An index whose tables cannot be searched (not the ones
 * docsearch-hook writes) is the error when it is the only one, else named to `skipped` and left out.
 */
export function rankIndexes(
  indexes: ReadonlyMap<string, DocsIndex>,
  query: string,
  limit: number,
  { snippets = true, skipped = () => {}, asked = indexes.size }: {
    snippets?: boolean;
    skipped?: SkippedIndex;
    /** How many indexes the search was asked for, those that did not open included (`searchIndexes`). */
    asked?: number;
  } = {},
): Result[] {
  const ranked: Result[] = [];
  /** Per index, the expression its candidates were found with: the snippets mark what it matches. */
  const matches = new Map<string, string>();
  for (const [name, index] of indexes) {
    try {
      const found = candidates(index, name, query);
      if (found === undefined) continue;
      matches.set(name, found.match);
      ranked.push(...found.hits);
    } catch (error) {
      reportBroken(
        asked,
        `the index ${name} cannot be searched: ${messageOf(error)}`,
        rebuild(name),
        skipped,
      );
    }
  }
  ranked.sort((a, b) => a.score - b.score);
  const pages = new Set<string>();
  const texts = new Set<string>();
  const results: Result[] = [];
  for (const hit of ranked) {
    if (results.length === limit) break;
    const page = `${hit.index}\u0000${hit.source}`;
    const index = indexes.get(hit.index)!;
    // Text a better passage already has (shown, or passed over as its page's second best) adds nothing.
    const text = `${hit.index}\u0000${index.textKey(hit.passage)}`;
    const repeated = texts.has(text);
    texts.add(text);
    if (pages.has(page) || repeated) continue;
    pages.add(page);
    results.push(hit);
  }
  // A caller that quotes the passages whole (the hook's answer) needs no snippets, which cost more than ranking.
  if (!snippets) return results;
  for (const [name, index] of indexes) {
    const own = results.filter((result) => result.index === name);
    if (own.length === 0) continue;
    const snippets = index.snippets(matches.get(name)!, own.map((result) => result.passage));
    for (const result of own) result.snippet = snippets.get(result.passage) ?? "";
  }
  return results;
}

/**
 * One index's best passages for `query`, scored for the fusion across indexes, and the FTS5 expression they
 * were found with; undefined when the index holds none of the query's words.
 */
function candidates(
  index: DocsIndex,
  name: string,
  query: string,
): { match: string; hits: Result[] } | undefined {
  const isWord = (word: string) => index.passagesWith(quoted(word)) > 0;
  // A word no passage holds (the product's own name, a typo) cannot narrow anything: leave it out.
  const known = termExpressions(query, isWord).filter((term) => index.passagesWith(term) > 0);
  if (known.length === 0) return undefined;
  const match = anyOf(known);
  const holders = known.map((term) => index.holding(term));
  const headed = known.map((term) => index.holding(`{title trail summary} : (${term})`));
  const hits = index.search(match, CANDIDATES).map((hit) => {
    const coverage = holders.filter((set) => set.has(hit.passage)).length / known.length;
    const headings = headed.filter((set) => set.has(hit.passage)).length / known.length;
    return { ...hit, index: name, score: hit.score * coverage * (1 + HEADINGS_BOOST * headings) };
  });
  return { match, hits };
}

/** Reciprocal rank fusion's constant: how much a top rank outweighs a lower one across lists. */
const FUSION_K = 60;

/**
 * Several rankings of the same indexes (one per phrasing of a question) as one: each page scores the sum
 * of 1 / (K + rank) over the lists it is in, so a page several phrasings find rises above one that a
 * single phrasing puts first. A page is shown by its passage from the list that ranked it highest.
 */
export function fuseRankings(lists: readonly (readonly Result[])[], limit: number): Result[] {
  const fused = new Map<string, { score: number; best: number; result: Result }>();
  for (const list of lists) {
    list.forEach((result, i) => {
      const page = `${result.index}\u0000${result.source}`;
      const entry = fused.get(page);
      const share = 1 / (FUSION_K + i + 1);
      if (entry === undefined) fused.set(page, { score: share, best: i, result });
      else {
        entry.score += share;
        if (i < entry.best) Object.assign(entry, { best: i, result });
      }
    });
  }
  return [...fused.values()].sort((a, b) => b.score - a.score || a.best - b.best).slice(0, limit)
    .map((entry) => entry.result);
}

/** Each phrasing searched, the rankings fused (`fuseRankings`); one phrasing is a plain search. */
export function searchPhrasings(
  home: IndexHome,
  names: readonly string[],
  queries: readonly string[],
  limit: number,
  skipped: SkippedIndex = () => {},
): Result[] {
  if (queries.length === 1) return searchIndexes(home, names, queries[0], limit, skipped);
  // Deeper lists than shown: a page second in every phrasing's list must be able to rise to the top.
  const depth = Math.max(limit, 10);
  const told = new Set<string>();
  const once: SkippedIndex = (problem, fix) => {
    if (!told.has(problem)) skipped(problem, fix);
    told.add(problem);
  };
  return fuseRankings(queries.map((query) => searchIndexes(home, names, query, depth, once)), limit);
}

/** Results as numbered text with where each comes from: what a person or an agent reads and quotes. */
export function formatResults(results: readonly Result[]): string {
  return results.map((result, i) => {
    const where = [result.title, ...result.trail].join(" › ");
    return `${i + 1}. ${where}  (${result.index})\n   ${result.source}\n   ${
      result.snippet.replace(/\s+/g, " ")
    }`;
  }).join("\n\n");
}
