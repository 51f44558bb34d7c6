/**
 * The built-in docs search as the rest of the program refers to it: the names the agent knows it by, and the
 * index file a database entry sends the agent to. Small and pure: the hook reads it on every event.
 */
import type { Database } from "../config/types.ts";
import { join, type OS } from "../paths.ts";

/** The MCP server `install --mcp` registers; Claude Code names a server's tools `mcp__<server>__<tool>`. */
export const SERVER_NAME = "docsearch";

export const BUILT_IN_TOOL = `mcp__${SERVER_NAME}__search`;

/** The next step while no database is enabled: what `install` and `doctor` tell a new user. */
export const NEXT_STEP = "docsearch-hook index add <name> <docs folder|file|URL> indexes docs and adds a " +
  "database for them; config.example.json shows entries for LEANN and other MCP search tools";

/** The folder of the index files under the state directory: one `<name>.db` per index. */
export const indexesIn = (os: OS, stateDir: string): string => join(os, stateDir, "indexes");

export const indexFileIn = (os: OS, stateDir: string, name: string): string =>
  join(os, indexesIn(os, stateDir), `${name}.db`);

/**
 * The built-in index a database entry sends the agent to (its `tool_args.index`, as `index add` writes it);
 * undefined for another tool, or for the built-in tool searching every index.
 */
export function builtInIndex(database: Database): string | undefined {
  if (database.mcpToolName !== BUILT_IN_TOOL) return undefined;
  const index = database.toolArgs?.index ?? database.indexName;
  return typeof index === "string" && index !== "all" ? index : undefined;
}

/**
 * The databases the agent can be sent to: a built-in index that does not exist (never built, or removed)
 * would send it to a search that says "no such index", so its entry is left out until the index is there.
 * `indexExists` is asked only for built-in entries, one look each.
 */
export function reachableDatabases(
  databases: readonly Database[],
  indexExists: (name: string) => boolean,
): Database[] {
  return databases.filter((database) => {
    const index = builtInIndex(database);
    return index === undefined || indexExists(index);
  });
}
