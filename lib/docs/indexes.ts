/**
 * Where the documentation indexes live and what they are called: one SQLite file per index, `<name>.db` in
 * `indexes/` under the state directory, so removing an index is removing its file.
 */
import type { CommandContext } from "../cli/context.ts";
import { InvalidInputError, messageOf, Problem } from "../errors.ts";
import { INDEX_NAME, indexesIn, indexFileIn } from "./built_in.ts";
import { DocsIndex } from "./store.ts";

/** Where the indexes are: under the state directory of the context a command runs in. */
export type IndexHome = Pick<CommandContext, "os" | "stateDir">;

function requiredStateDir({ stateDir }: IndexHome): string {
  if (stateDir === undefined) {
    throw new Problem("neither DOCSEARCH_HOME nor HOME is set", "set DOCSEARCH_HOME");
  }
  return stateDir;
}

export const indexesDir = (home: IndexHome): string => indexesIn(home.os, requiredStateDir(home));

export const indexFile = (home: IndexHome, name: string): string =>
  indexFileIn(home.os, requiredStateDir(home), name);

/** The index file and SQLite's companions; what is already gone is fine. */
export function deleteIndexFiles(home: IndexHome, name: string): void {
  for (const suffix of ["", "-wal", "-shm"]) {
    try {
      Deno.removeSync(indexFile(home, name) + suffix);
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound)) throw error;
    }
  }
}

/** The name as given, when it can name an index file on every OS. */
export function checkIndexName(name: string | undefined): string {
  if (name === undefined) {
    throw new InvalidInputError("name the index, e.g. docsearch-hook index add gitlab ~/docs/gitlab");
  }
  if (name.toLowerCase() === "all") {
    throw new InvalidInputError('"all" cannot name an index: `search all` means every index');
  }
  if (!INDEX_NAME.test(name)) {
    throw new InvalidInputError(
      `"${name}" cannot name an index: use letters, digits, ".", "_" and "-" (up to 64, starting with a letter or digit)`,
    );
  }
  return name;
}

/** The index names there are, sorted. */
export function indexNames(home: IndexHome): string[] {
  try {
    return [...Deno.readDirSync(indexesDir(home))]
      .filter((entry) => entry.isFile && entry.name.endsWith(".db"))
      .map((entry) => entry.name.slice(0, -3))
      .sort();
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return [];
    throw error;
  }
}

/** What `index list` and the MCP server's `list_indexes` say of an index, or why it cannot be read. */
export type IndexSummary =
  | {
    name: string;
    documents: number;
    chunks: number;
    /** The folder, file or URL it was built from. */
    root?: string;
    /** Of a site: what it was read from, as site.ts's sourceKey says it (none said by an older version's crawl). */
    source?: string;
    /** Pages still queued when a crawl was interrupted (refresh resumes it); undefined when none was. */
    interruptedWithQueued?: number;
  }
  | { name: string; problem: string };

export function indexSummaries(home: IndexHome): IndexSummary[] {
  return indexNames(home).map((name) => {
    let index: DocsIndex;
    try {
      index = DocsIndex.open(indexFile(home, name));
    } catch (error) {
      return { name, problem: messageOf(error) };
    }
    try {
      return {
        name,
        ...index.counts(),
        root: index.meta("root"),
        source: index.meta("source"),
        interruptedWithQueued: index.meta("crawl") === "running" ? index.crawlCounts().queued : undefined,
      };
    } finally {
      index.close();
    }
  });
}
