/**
 * `docsearch-hook search <name|all> <query…>`: ranked passages from the local indexes, with where each comes
 * from. Every word must match first; when that finds too little, any word may.
 */
import { CommandFailedError, UsageError } from "../cli/errors.ts";
import { print } from "../cli/io.ts";
import { matchExpression } from "../docs/query.ts";
import { DocsIndex, type Hit } from "../docs/store.ts";
import { indexFile, indexNames } from "./index.ts";

export interface SearchArgs {
  positionals: string[];
  values: { limit?: string; json?: boolean };
}

export interface Result extends Hit {
  index: string;
}

/** The best `limit` passages for `query` in the named indexes, best first. */
export function searchIndexes(names: readonly string[], query: string, limit: number): Result[] {
  const results: Result[] = [];
  for (const name of names) {
    const index = DocsIndex.open(indexFile(name));
    try {
      const seen = new Set<string>();
      for (const mode of ["all", "any"] as const) {
        const match = matchExpression(query, mode);
        if (match === undefined) break;
        for (const hit of index.search(match, limit)) {
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

export function run({ positionals, values }: SearchArgs): number {
  const [target, ...words] = positionals;
  const query = words.join(" ");
  if (target === undefined || query.trim() === "") {
    throw new UsageError("docsearch-hook search <index name|all> <query…>");
  }
  const limit = Number(values.limit ?? 5);
  if (!Number.isInteger(limit) || limit < 1 || limit > 100) {
    throw new UsageError(`--limit must be a whole number from 1 to 100, not "${values.limit}"`);
  }
  const names = indexNames();
  if (target !== "all" && !names.includes(target)) {
    throw new CommandFailedError(
      `there is no index ${target}${names.length > 0 ? ` (there are: ${names.join(", ")})` : ""}`,
      "docsearch-hook index add <name> <folder>",
    );
  }
  const results = searchIndexes(target === "all" ? names : [target], query, limit);
  if (values.json) {
    print(JSON.stringify(results.map(({ score: _, ...result }) => result), null, 2));
    return 0;
  }
  if (results.length === 0) {
    print(`Nothing in ${target === "all" ? "any index" : target} matches "${query}".`);
    return 0;
  }
  print(
    results.map((result, i) => {
      const where = [result.title, ...result.trail].join(" › ");
      return `${i + 1}. ${where}  (${result.index})\n   ${result.source}\n   ${
        result.snippet.replace(/\s+/g, " ")
      }`;
    }).join("\n\n"),
  );
  return 0;
}
