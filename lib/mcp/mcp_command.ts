/**
 * `docsearch-hook mcp`: the local documentation indexes served to the agent over MCP on stdio, with the tools
 * `search` and `list_indexes`. stdout is the protocol, so nothing else may write there: problems go to
 * stderr, and a tool's failure goes back to the agent as its result. Runs until the agent closes stdin and
 * every request read before that is answered. Meanwhile it keeps the docs of the project's dependencies built
 * (project/upkeep.ts): the agent starts it per session in the project's folder.
 */
// The SDK's `./*` export maps `server/mcp.js` to types at `server/mcp.js.d.ts`, which do not exist: without
// these the type checker would see `any`.
// @ts-types="@modelcontextprotocol/sdk/server/mcp"
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import { messageOf, Problem } from "../errors.ts";
import type { CommandContext } from "../cli/context.ts";
import { count } from "../cli/io.ts";
import { configLocation } from "../config/layers.ts";
import { loadConfig } from "../config/load.ts";
import type { Database } from "../config/types.ts";
import { indexNames, indexSummaries } from "../docs/indexes.ts";
import { formatResults, searchPhrasings, targetIndexes } from "../docs/search.ts";
import { describeProgress, readProgress, upkeepProject } from "../project/upkeep_progress.ts";
import { SERVER_NAME } from "../docs/built_in.ts";
import { VERSION } from "../version.ts";
import { LineTransport } from "./transport.ts";

/** The agent reads these to decide when to call the tools: what the docs are and that they beat the web. */
const INSTRUCTIONS = "Local, version-correct documentation indexed on this machine by docsearch-hook. " +
  "For questions about a library, tool or product these indexes cover, call search before searching the " +
  "web, and cite the source path or URL of the passages you use.";

/** The most index names the instructions list: the agent reads them in every session's prompt. */
const MAX_LISTED = 40;

/**
 * The instructions with the indexes there are when the server starts, by name: a package's index names its
 * version (`npm-react-18.3.1`), so the agent knows which docs are local, and at which version, before asking.
 */
export function instructions(names: readonly string[]): string {
  if (names.length === 0) return INSTRUCTIONS;
  const listed = names.slice(0, MAX_LISTED).join(", ");
  const more = names.length > MAX_LISTED
    ? ` and ${names.length - MAX_LISTED} more (list_indexes lists all)`
    : "";
  return `${INSTRUCTIONS} The indexes here: ${listed}${more}.`;
}

/**
 * Claude Code (2.1.2xx and later) lists an MCP tool by name only until the model loads it with ToolSearch; a
 * tool marked so is sent whole from the first request, so that a denial's "search it instead" is one call.
 */
const ALWAYS_LOAD = { "anthropic/alwaysLoad": true };

const SEARCH_DESCRIPTION = "Search the local documentation indexes (the docs of the versions in use here, " +
  "indexed on this machine) and get the best page for each result, with its title, heading trail, source " +
  "path or URL and a snippet with the matching words in **bold**. Prefer this over web search for " +
  "documentation questions; search the web only when these passages do not answer. It is a keyword index: " +
  "use the docs' own terms and API names when you know them (e.g. 'register runner token'). If the first " +
  "results miss, search again with other words, or pass several phrasings at once as a list; their " +
  "rankings are fused.";

const LIST_DESCRIPTION = "List the local documentation indexes: the name to pass to search, how many " +
  "documents and passages each holds, where it was built from, and what it covers.";

/** More phrasings than this are one question asked too many ways: each costs a search. */
const MAX_PHRASINGS = 5;
const phrasing = z.string().trim().min(1, "the query is empty: say what to look for");

const searchInput = {
  index: z.string().trim().min(1).default("all").describe(
    'An index name from list_indexes, or "all" to search every index (the default).',
  ),
  query: z.union([phrasing, z.array(phrasing).min(1).max(MAX_PHRASINGS)]).describe(
    `What to look for, in the docs' own words; or up to ${MAX_PHRASINGS} phrasings of it, searched together.`,
  ),
  limit: z.number().int().min(1).max(20).default(5).describe("How many passages to return (1 to 20)."),
};

const NO_INDEXES = "There are no local documentation indexes yet. The user can add one with " +
  "`docsearch-hook index add <name> <folder|URL>`.";

interface ToolResult {
  [key: string]: unknown;
  content: { type: "text"; text: string }[];
  isError?: boolean;
}

const reply = (text: string): ToolResult => ({ content: [{ type: "text", text }] });

/** A failure is the agent's to read (an unknown index names the ones there are); only the unexpected is logged. */
function answer(
  { stderr }: CommandContext,
  tool: string,
  work: () => string | Promise<string>,
): Promise<ToolResult> {
  return Promise.resolve().then(work).then(reply, (error: unknown) => {
    if (error instanceof Problem) {
      return { ...reply(`${error.message}${error.hint ? `\nfix: ${error.hint}` : ""}`), isError: true };
    }
    stderr(`docsearch-hook mcp: ${tool}: ${error instanceof Error ? error.stack : String(error)}`);
    return {
      ...reply(`${tool} failed: ${messageOf(error)}`),
      isError: true,
    };
  });
}

function search(
  context: CommandContext,
  target: string,
  phrasings: string | string[],
  limit: number,
): string {
  const queries = typeof phrasings === "string" ? [phrasings] : phrasings;
  const query = queries.join('" or "');
  const results = searchPhrasings(
    context,
    targetIndexes(context, target),
    queries,
    limit,
    (problem, fix) => context.stderr(`docsearch-hook mcp: ${problem} (skipped; fix: ${fix})`),
  );
  if (results.length > 0) {
    return `${count(results.length, "passage")} from the local docs for "${query}", best first ` +
      `(index: ${target}). Each gives its page › headings (index), then its source, then a snippet.\n\n` +
      formatResults(results);
  }
  const names = indexNames(context);
  if (names.length === 0) return NO_INDEXES;
  return `Nothing in ${target === "all" ? "the local indexes" : `the index ${target}`} matches "${query}". ` +
    `The indexes there are: ${names.join(", ")}. Try other words, another index, or "all".`;
}

/**
 * The config's databases served by this server, by index: their descriptions and keywords say what an index
 * covers better than its name does. The config is a nicety here, so a config that cannot be read is none.
 */
async function databasesByIndex(context: CommandContext): Promise<Map<string, Database[]>> {
  const { env, os, cwd, stateDir } = context;
  const byIndex = new Map<string, Database[]>();
  try {
    const location = configLocation(undefined, env, os, cwd);
    const config = await loadConfig(location, stateDir, os, context.now());
    for (const database of config.databases) {
      if (!database.enabled || !database.mcpToolName.startsWith(`mcp__${SERVER_NAME}__`)) continue;
      const index = database.indexName ?? database.name;
      byIndex.set(index, [...byIndex.get(index) ?? [], database]);
    }
  } catch (error) {
    context.stderr(`docsearch-hook mcp: the config was not read: ${messageOf(error)}`);
  }
  return byIndex;
}

/** How the upkeep of this project's dependency docs is doing, when it has been at work here. */
function dependencyDocsLine(context: CommandContext): string | undefined {
  const { os, stateDir } = context;
  const project = upkeepProject(context);
  const progress = stateDir === undefined || project === undefined
    ? undefined
    : readProgress(os, stateDir, project);
  return progress &&
    `Dependency docs of this project (${project}): ${describeProgress(progress, context.now()).text}`;
}

async function listIndexes(context: CommandContext): Promise<string> {
  const upkeep = dependencyDocsLine(context);
  const after = upkeep === undefined ? "" : `\n\n${upkeep}`;
  const summaries = indexSummaries(context);
  if (summaries.length === 0) return NO_INDEXES + after;
  const databases = await databasesByIndex(context);
  const lines = summaries.map((summary) => {
    if ("problem" in summary) return `- ${summary.name}: cannot be read (${summary.problem})`;
    const about = (databases.get(summary.name) ?? []).flatMap((database) => [
      ...database.description ? [`   about: ${database.description}`] : [],
      `   keywords: ${database.keywords.join(", ")}`,
    ]);
    return [
      `- ${summary.name}: ${count(summary.documents, "document")}, ${
        count(summary.chunks, "passage")
      }, from ${summary.root ?? "(unknown)"}`,
      ...about,
    ].join("\n");
  });
  return `${count(summaries.length, "local documentation index", "local documentation indexes")} ` +
    `(search one with search {"index": "<name>", "query": "…"}, or all with "all"):\n${
      lines.join("\n")
    }${after}`;
}

/**
 * The index names the instructions give; none when they cannot be read (no state directory, a file where the
 * indexes' folder should be): the server starts all the same, and each tool call says what is wrong.
 */
function namesToAnnounce(context: CommandContext): string[] {
  try {
    return indexNames(context);
  } catch (error) {
    context.stderr(`docsearch-hook mcp: the indexes cannot be listed: ${messageOf(error)}`);
    return [];
  }
}

/** Serves the context's indexes on its stdin and stdout until the input ends and all it asked is answered. */
export async function run(context: CommandContext): Promise<number> {
  const server = new McpServer({ name: SERVER_NAME, version: VERSION }, {
    instructions: instructions(namesToAnnounce(context)),
  });
  server.registerTool("search", {
    title: "Search local documentation",
    description: SEARCH_DESCRIPTION,
    inputSchema: searchInput,
    annotations: { readOnlyHint: true, openWorldHint: false },
    _meta: ALWAYS_LOAD,
  }, ({ index, query, limit }) => answer(context, "search", () => search(context, index, query, limit)));
  server.registerTool("list_indexes", {
    title: "List local documentation indexes",
    description: LIST_DESCRIPTION,
    annotations: { readOnlyHint: true, openWorldHint: false },
  }, () => answer(context, "list_indexes", () => listIndexes(context)));

  const closed = new Promise<void>((resolve) => server.server.onclose = resolve);
  server.server.onerror = (error) => context.stderr(`docsearch-hook mcp: ${error.message}`);
  await server.connect(new LineTransport(context.stdin, context.stdout));
  // After connect, and loaded only then (the package readers are a third of the server's modules): the agent
  // waits for the server's first answers, not for a look at the project.
  const { startUpkeep } = await import("../project/upkeep.ts");
  const upkeep = startUpkeep(context, (line) => context.stderr(`docsearch-hook mcp: ${line}`));
  await closed;
  await upkeep.stop();
  return 0;
}
