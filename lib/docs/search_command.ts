/**
 * `docsearch-hook search <name|all> <query…>`: ranked passages from the local indexes, with where each comes
 * from.
 */
import { UsageError } from "../errors.ts";
import type { CommandContext } from "../cli/context.ts";
import { formatResults, searchIndexes, targetIndexes } from "./search.ts";

export interface SearchArgs {
  positionals: string[];
  values: { limit?: string; json?: boolean };
}

export function run({ positionals, values }: SearchArgs, context: CommandContext): number {
  const { stdout: print, stderr: printError } = context;
  const [target, ...words] = positionals;
  const query = words.join(" ");
  if (target === undefined || query.trim() === "") {
    throw new UsageError(
      target === undefined
        ? "say which index to search (or all), then what to search for"
        : "say what to search for",
    );
  }
  const limit = Number(values.limit ?? 5);
  if (!Number.isInteger(limit) || limit < 1 || limit > 100) {
    throw new UsageError(`--limit must be a whole number from 1 to 100, not "${values.limit}"`);
  }
  const results = searchIndexes(
    context,
    targetIndexes(context, target),
    query,
    limit,
    (problem, fix) => printError(`docsearch-hook search: ${problem} (skipped; fix: ${fix})`),
  );
  if (values.json) {
    print(JSON.stringify(results.map(({ score: _, passage: __, ...result }) => result), null, 2));
    return 0;
  }
  print(
    results.length === 0
      ? `Nothing in ${target === "all" ? "any index" : target} matches "${query}".`
      : formatResults(results),
  );
  return 0;
}
