/**
 * The built-in docs search as the rest of the program refers to it: the names the agent knows it by, and the
 * index file a database entry sends the agent to. Small and pure: the hook reads it on every event.
 */
import type { Database } from "../config/types.ts";
import { exists } from "../files.ts";
import { type Env, join, type OS } from "../paths.ts";
import { DIALECTS } from "../protocol/agents.ts";
import type { Agent } from "../protocol/events.ts";

/** The MCP server `install --mcp` registers; Claude Code names a server's tools `mcp__<server>__<tool>`. */
export const SERVER_NAME = "docsearch";

/** The built-in search by the name config entries give it: that of the server `install --mcp` registers. */
export const BUILT_IN_TOOL = `mcp__${SERVER_NAME}__search`;

/**
 * The Claude Code plugin (`/plugin install docsearch@docsearch-hook`). Its slash commands are `/docsearch:…`,
 * as install's are, and its launcher sets DOCSEARCH_PLUGIN to this name for the processes it starts.
 */
export const PLUGIN_NAME = "docsearch";

/** Claude Code keeps [A-Za-z0-9_-] of a name in its tools' names and writes anything else as `_`. */
const inToolName = (name: string) => name.replace(/[^A-Za-z0-9_-]/g, "_");

/** A plugin's server is `plugin:<plugin>:<server>` to Claude Code, and its tools `mcp__plugin_<plugin>_<server>__…`. */
const PLUGIN_TOOL = new RegExp(`^mcp__plugin_[A-Za-z0-9_-]+_${SERVER_NAME}__search$`);

/**
 * The name the agent running this process has for the built-in search: BUILT_IN_TOOL, or, when the plugin's
 * launcher started it (DOCSEARCH_PLUGIN names the plugin), `mcp__plugin_<plugin>_docsearch__search`. Config
 * entries keep BUILT_IN_TOOL, whichever way docsearch-hook was installed; everything that names the tool to
 * the agent or the user (the hook's guidance, doctor) asks here. Another `agent` (an event's) names it its own
 * way: Gemini CLI `mcp_docsearch_search`.
 */
export function builtInToolName(env: Env, agent?: Agent): string {
  const plugin = env("DOCSEARCH_PLUGIN");
  if (plugin) return `mcp__plugin_${inToolName(plugin)}_${SERVER_NAME}__search`;
  return agent === undefined ? BUILT_IN_TOOL : DIALECTS[agent].mcpTool(SERVER_NAME, "search");
}

/** The built-in search as each agent names it. */
const AGENT_TOOLS = new Set(Object.values(DIALECTS).map((dialect) => dialect.mcpTool(SERVER_NAME, "search")));

/** Whether `tool` (a config entry's, as written) is the built-in search, by any name builtInToolName gives it. */
export const isBuiltInTool = (tool: unknown): boolean =>
  typeof tool === "string" && (AGENT_TOOLS.has(tool) || PLUGIN_TOOL.test(tool));

/** The databases with the built-in search called `tool` (builtInToolName's answer); the others as they are. */
export function withBuiltInTool(databases: readonly Database[], tool: string): Database[] {
  return databases.map((database) =>
    isBuiltInTool(database.mcpToolName) && database.mcpToolName !== tool
      ? { ...database, mcpToolName: tool }
      : database
  );
}

/** The next step while no database is enabled: what `install` and `doctor` tell a new user. */
export const NEXT_STEP = "docsearch-hook index add <name> <docs folder|file|URL> indexes docs and adds a " +
  "database for them; config.example.json shows entries for LEANN and other MCP search tools";

/** What can name an index: a file name in the indexes' folder, never a path out of it. */
export const INDEX_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** The folder of the index files under the state directory: one `<name>.db` per index. */
export const indexesIn = (os: OS, stateDir: string): string => join(os, stateDir, "indexes");

export const indexFileIn = (os: OS, stateDir: string, name: string): string =>
  join(os, indexesIn(os, stateDir), `${name}.db`);

/**
 * The built-in index a database entry sends the agent to (its `tool_args.index`, as `index add` writes it);
 * undefined for another tool, or for the built-in tool searching every index.
 */
export function builtInIndex(database: Database): string | undefined {
  if (!isBuiltInTool(database.mcpToolName)) return undefined;
  const index = database.toolArgs?.index ?? database.indexName;
  return typeof index === "string" && index !== "all" ? index : undefined;
}

/**
 * The databases the agent can be sent to: a built-in index that does not exist (never built, or removed)
 * would send it to a search that says "no such index", so its entry is left out until the index is there;
 * so is an entry whose `index` is no index's name (`../../app`, from a cloned project's config), which would
 * have the hook open whatever file that names. `indexExists` is asked only for built-in entries with a valid
 * name, one look each.
 */
export function reachableDatabases(
  databases: readonly Database[],
  indexExists: (name: string) => boolean,
): Database[] {
  return databases.filter((database) => {
    const index = builtInIndex(database);
    return index === undefined || (INDEX_NAME.test(index) && indexExists(index));
  });
}

/** Indexes looked for in the state directory `dir` (none when there is none). */
export const indexesUnder = (os: OS, dir: string | undefined) => (name: string): boolean =>
  dir !== undefined && exists(indexFileIn(os, dir, name));

/**
 * The databases a decision names to the agent: those it can be sent to, the built-in search called as the
 * running agent calls it. The hook and `check` both decide with these, so that they agree.
 */
export const answeringDatabases = (
  databases: readonly Database[],
  indexExists: (name: string) => boolean,
  env: Env,
  agent?: Agent,
): Database[] => withBuiltInTool(reachableDatabases(databases, indexExists), builtInToolName(env, agent));
