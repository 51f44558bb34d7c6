/**
 * Search across indexes, shared by the `search` command and the MCP server. Every word must match first;
 * when that finds too little, any word may.
 */
import { CommandFailedError } from "../cli/errors.ts";
import { printError } from "../cli/io.ts";
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
    throw new CommandFailedError(
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

/** The best `limit` passages for `query` in the named indexes, best first. */
export function searchIndexes(names: readonly string[], query: string, limit: number): Result[] {
  const ranked: (Result & { match: string })[] = [];
  for (const name of names) {
    let index: DocsIndex;
    try {
      index = DocsIndex.open(indexFile(name));
    } catch (error) {
      const problem = `the index ${name} cannot be read: ${(error as Error).message}`;
      const fix = `docsearch-hook index remove ${name}, then index add it again`;
      // One broken index must not take the others' answers away; asked for alone, it is the answer.
      if (names.length === 1) throw new CommandFailedError(problem, fix);
      printError(`docsearch-hook search: ${problem} (skipped; fix: ${fix})`);
      continue;
    }
    try {
      // A word no passage holds (the product's own name, a typo) cannot narrow anything: leave it out.
      const known = terms(query).filter((term) => index.passagesWith(quoted(term)) > 0);
      if (known.length === 0) continue;
      const match = matchExpression(known, "any");
      const candidates = index.search(match, CANDIDATES);
      const holders = known.map((term) => index.holding(quoted(term)));
      const headed = known.map((term) => index.holding(`{title trail} : ${quoted(term)}`));
      for (const hit of candidates) {
        const coverage = holders.filter((set) => set.has(hit.passage)).length / known.length;
        const headings = headed.filter((set) => set.has(hit.passage)).length / known.length;
        const score = hit.score * coverage * (1 + HEADINGS_BOOST * headings);
        ranked.push({ ...hit, index: name, score, match });
      }
    } finally {
      index.close();
    }
  }
  ranked.sort((a, b) => a.score - b.score);
  const perPage = new Map<string, number>();
  const best = ranked.filter((hit) => {
    const shown = perPage.get(`${hit.index}\u0000${hit.source}`) ?? 0;
    perPage.set(`${hit.index}\u0000${hit.source}`, shown + 1);
    return shown < PER_PAGE;
  }).slice(0, limit);
  return names.flatMap((name) => {
    const mine = best.filter((hit) => hit.index === name);
    if (mine.length === 0) return [];
    const index = DocsIndex.open(indexFile(name));
    try {
      return mine.map(({ match, ...hit }) => ({ ...hit, snippet: index.snippet(match, hit.passage) }));
    } finally {
      index.close();
    }
  }).sort((a, b) => a.score - b.score);
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
