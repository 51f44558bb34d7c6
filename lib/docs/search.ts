/**
 * Search across indexes, shared by the `search` command and the MCP server. Every word must match first;
 * when that finds too little, any word may.
 */
import { messageOf, Problem } from "../errors.ts";
import { indexFile, indexNames } from "./indexes.ts";
import { matchExpression, quoted, terms } from "./query.ts";
import { DocsIndex, type Hit } from "./store.ts";

export interface Result extends Hit {
  index: string;
}

/** The indexes `target` names ("all" or one name); an unknown name fails with the names there are. */
export function targetIndexes(target: string): string[] {
  const names = indexNames();
  if (target === "all") return names;
  if (!names.includes(target)) {
    throw new Problem(
      `there is no index ${target}${names.length > 0 ? ` (there are: ${names.join(", ")})` : ""}`,
      "docsearch-hook index add <name> <folder|file|URL>",
    );
  }
  return [target];
}

/** More than this many passages of one page would crowd other pages out of a short list. */
const PER_PAGE = 2;
/** Candidates ranked per index: enough that the right passage is among them when any word matches. */
const CANDIDATES = 200;
/** How much more a passage counts when the query's words are in its page title or headings (all of them: 1.5×). */
const HEADINGS_BOOST = 0.5;

/**
 * Hears of an index that is skipped because it cannot be read: what is wrong, and how to fix it. The caller
 * decides where that goes (a command's stderr, the MCP server's log).
 */
export type SkippedIndex = (problem: string, fix: string) => void;

/** The indexes that open; one that does not is the error when asked for alone, else named and skipped. */
function openIndexes(names: readonly string[], skipped: SkippedIndex): Map<string, DocsIndex> {
  const open = new Map<string, DocsIndex>();
  for (const name of names) {
    try {
      open.set(name, DocsIndex.open(indexFile(name)));
    } catch (error) {
      const problem = `the index ${name} cannot be read: ${messageOf(error)}`;
      const fix = `docsearch-hook index remove ${name}, then index add it again`;
      // One broken index must not take the others' answers away; asked for alone, it is the answer.
      if (names.length === 1) throw new Problem(problem, fix);
      skipped(problem, fix);
    }
  }
  return open;
}

/** The best `limit` passages for `query` in the named indexes, best first. */
export function searchIndexes(
  names: readonly string[],
  query: string,
  limit: number,
  skipped: SkippedIndex = () => {},
): Result[] {
  const indexes = openIndexes(names, skipped);
  try {
    const ranked: Result[] = [];
    /** Per index, the expression its candidates were found with: the snippets mark what it matches. */
    const matches = new Map<string, string>();
    for (const [name, index] of indexes) {
      // A word no passage holds (the product's own name, a typo) cannot narrow anything: leave it out.
      const known = terms(query).filter((term) => index.passagesWith(quoted(term)) > 0);
      if (known.length === 0) continue;
      const match = matchExpression(known, "any");
      matches.set(name, match);
      const holders = known.map((term) => index.holding(quoted(term)));
      const headed = known.map((term) => index.holding(`{title trail} : ${quoted(term)}`));
      for (const hit of index.search(match, CANDIDATES)) {
        const coverage = holders.filter((set) => set.has(hit.passage)).length / known.length;
        const headings = headed.filter((set) => set.has(hit.passage)).length / known.length;
        ranked.push({ ...hit, index: name, score: hit.score * coverage * (1 + HEADINGS_BOOST * headings) });
      }
    }
    ranked.sort((a, b) => a.score - b.score);
    const perPage = new Map<string, number>();
    return ranked.filter((hit) => {
      const page = `${hit.index}\u0000${hit.source}`;
      const shown = perPage.get(page) ?? 0;
      perPage.set(page, shown + 1);
      return shown < PER_PAGE;
    }).slice(0, limit).map((hit) => ({
      ...hit,
      snippet: indexes.get(hit.index)!.snippet(matches.get(hit.index)!, hit.passage),
    }));
  } finally {
    for (const index of indexes.values()) index.close();
  }
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
