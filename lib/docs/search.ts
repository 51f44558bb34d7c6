/**
 * Search across indexes, shared by the `search` command and the MCP server. Every word must match first;
 * when that finds too little, any word may.
 */
import { CommandFailedError } from "../cli/errors.ts";
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

/** The best `limit` passages for `query` in the named indexes, best first. */
export function searchIndexes(names: readonly string[], query: string, limit: number): Result[] {
  const results: Result[] = [];
  for (const name of names) {
    const index = DocsIndex.open(indexFile(name));
    try {
      // A word no passage holds (the product's own name, a typo) cannot narrow anything: leave it out.
      const known = terms(query).filter((term) => index.passagesWith(quoted(term)) > 0);
      if (known.length === 0) continue;
      const seen = new Set<string>();
      for (const mode of ["all", "any"] as const) {
        for (const hit of index.search(matchExpression(known, mode), limit)) {
          const key = `${hit.source}\u0000${hit.trail.join(">")}\u0000${hit.snippet}`;
          if (seen.has(key)) continue;
          seen.add(key);
          // Passages that hold every word rank above those that hold some.
          results.push({ ...hit, index: name, score: mode === "all" ? hit.score - 1000 : hit.score });
        }
        if (seen.size >= limit) break;
      }
    } finally {
      index.close();
    }
  }
  return results.sort((a, b) => a.score - b.score).slice(0, limit);
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
