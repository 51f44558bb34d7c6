/**
 * The text the agent reads when a web request is denied. Claude Code shows the model
 * `permissionDecisionReason`, so the reason alone must say what matched, which tool to call with which
 * literal arguments, and how to get the web request through anyway.
 */
import type { Database } from "../config/types.ts";
import { isBuiltInTool } from "../docs/built_in.ts";
import { urlPath } from "../match/domains.ts";
import type { Match } from "../match/match.ts";
import { clipTo } from "../text.ts";
import { requestTool, requestUrls, type WebRequest } from "./request.ts";

/** Long queries are cut in the guidance; the agent only needs enough to search with. */
const MAX_QUERY_CHARS = 500;

export interface GuidanceOptions {
  ttlSeconds: number;
  /** False when the denial could not be recorded, so an identical retry would be denied again. */
  retryWillPass: boolean;
  /**
   * The agent defers MCP tools behind its ToolSearch tool (current Claude Code): a deferred tool called by
   * name fails until loaded, so the guidance says how to load the ones it names (`loadToolsLine`).
   */
  deferredTools?: boolean;
}

/** A query of at most MAX_QUERY_CHARS and the mark of the cut, never half a surrogate pair (a lone "\ud83d"). */
export const clip = (text: string): string => clipTo(text, MAX_QUERY_CHARS + 1);

/**
 * What to search the local docs for: the search query, what the agent wanted from the page, or the words of
 * the (first) page's path.
 */
export function localQuery(request: WebRequest): string {
  if (request.tool === "WebSearch") return clip(request.query.trim());
  if (request.tool === "WebFetch" && request.prompt.trim() !== "") return clip(request.prompt.trim());
  return clip(urlWords(requestUrls(request)[0]));
}

/** The words of a URL's path ("/docs/sql-create_index.html": "docs sql create index"); the URL when it has none. */
export function urlWords(url: string): string {
  const path = urlPath(url);
  if (path === undefined) return url;
  const words: string[] = [];
  let word = "";
  for (const c of `${path}/`) {
    if (c !== "/" && c !== "_" && c !== "-" && c !== ".") word += c;
    else {
      if (word !== "" && !PAGE_SUFFIXES.has(word)) words.push(word);
      word = "";
    }
  }
  return words.join(" ");
}

/** What a page's last word may be without being one of its words. */
const PAGE_SUFFIXES = new Set(["html", "htm", "php", "asp", "aspx"]);

/** Literal arguments when the config gives enough to build them (`index_name` / `tool_args`), else undefined. */
export function literalArguments(database: Database, query: string): Record<string, unknown> | undefined {
  if (database.indexName === undefined && database.toolArgs === undefined) return undefined;
  const args: Record<string, unknown> = {};
  if (database.indexName !== undefined) args.index_name = database.indexName;
  let placed = false;
  for (const [key, value] of Object.entries(database.toolArgs ?? {})) {
    // "{query}" in tool_args marks where the query goes, for tools whose parameter is not called "query".
    if (value === "{query}") {
      args[key] = query;
      placed = true;
    } else args[key] = value;
  }
  if (!placed) args.query = query;
  return args;
}

/** `tool {"arg": …}` when the arguments are known, else the tool and what to search. */
export function toolCall(database: Database, query: string): string {
  const args = literalArguments(database, query);
  if (args !== undefined) return `${database.mcpToolName} ${JSON.stringify(args)}`;
  return `${database.mcpToolName} for ${JSON.stringify(query)}${database.path ? ` in ${database.path}` : ""}`;
}

function why(match: Match): string {
  return match.reason.kind === "keyword" ? `"${match.reason.keyword}"` : `domain ${match.reason.host}`;
}

function about(database: Database): string {
  return `${database.description}${database.path ? `; database ${database.path}` : ""}`;
}

/** Which docs a request matched and why: `"postgres" matches the "pg" docs (PostgreSQL manual)`. */
export const matchedDocs = (match: Match): string =>
  `${why(match)} matches the "${match.database.name}" docs (${about(match.database)})`;

export function formatDuration(seconds: number): string {
  if (seconds % 3600 === 0) return seconds === 3600 ? "1 hour" : `${seconds / 3600} hours`;
  if (seconds % 60 === 0) return seconds === 60 ? "1 minute" : `${seconds / 60} minutes`;
  return seconds === 1 ? "1 second" : `${seconds} seconds`;
}

/** How to get the web request through anyway (the escape hatch), or why repeating it will not help. */
export function retrySentence(request: WebRequest, options: GuidanceOptions): string {
  if (!options.retryWillPass) {
    return "docsearch-hook could not record this denial (its state database is unavailable), so repeating " +
      "the request would be denied again; tell the user that docsearch-hook cannot save its state (its stderr says why).";
  }
  const tool = request.calledAs ?? requestTool(request);
  const identical = {
    WebSearch: `${tool} (same query and domains)`,
    WebFetch: `${tool} (same URL)`,
    Bash: `${tool} command (same command text)`,
    MCP: `${tool} call (same URL)`,
  }[request.tool];
  return `If the local results are not enough, repeat this identical ${identical} within ` +
    `${formatDuration(options.ttlSeconds)} and it will be allowed.`;
}

/** The built-in search ranks by words, not meaning: how to ask it, and what to do when it misses. */
export const KEYWORD_HINT =
  "The local search is a keyword index: use the docs' own terms and API names when you " +
  "know them; if the results miss, search again with other words (its query also takes a list of phrasings).";

/** What the denial is about: "this web search", the page's URL, or the pages a command reads. */
export function requestSubject(request: WebRequest): string {
  return request.tool === "WebSearch"
    ? "this web search"
    : request.tool === "WebFetch"
    ? clip(request.url)
    : `${clip(requestUrls(request).join(" "))} (read by this ${
      request.calledAs ?? requestTool(request)
    } call)`;
}

export function denyReason(request: WebRequest, matches: readonly Match[], options: GuidanceOptions): string {
  const query = localQuery(request);
  const subject = requestSubject(request);
  const lines: string[] = [];
  if (matches.length === 1) {
    const [match] = matches;
    lines.push(
      `Local documentation covers ${subject}: ${matchedDocs(match)}.`,
      `Search it instead of the web: ${toolCall(match.database, query)}`,
    );
  } else {
    lines.push(
      `Local documentation covers ${subject}: it matches ${matches.length} local docs databases. ` +
        `Search them IN PARALLEL (all calls in one message) instead of the web:`,
      ...matches.map((match, i) =>
        `${i + 1}. "${match.database.name}" (${why(match)}; ${about(match.database)}): ${
          toolCall(match.database, query)
        }`
      ),
    );
  }
  if (matches.some((match) => isBuiltInTool(match.database.mcpToolName))) lines.push(KEYWORD_HINT);
  const load = options.deferredTools
    ? loadToolsLine(matches.map((match) => match.database.mcpToolName))
    : undefined;
  if (load !== undefined) lines.push(load);
  lines.push(retrySentence(request, options));
  return lines.join("\n");
}

/**
 * How to load the tools a denial names, where the agent defers them (Claude Code lists a deferred tool by name
 * only, and calling it before ToolSearch loads it fails with InputValidationError). The built-in search is
 * left out: its server marks it to be loaded from the start. Undefined when only the built-in search is named.
 */
export function loadToolsLine(tools: readonly string[]): string | undefined {
  const external = [...new Set(tools.filter((tool) => !isBuiltInTool(tool)))];
  if (external.length === 0) return undefined;
  return `If ${external.length === 1 ? "that tool is" : "those tools are"} not loaded yet, load ${
    external.length === 1 ? "it" : "them"
  } first: ToolSearch {"query": ${JSON.stringify(`select:${external.join(",")}`)}}`;
}

/** A short summary beside the reason, for agents that surface `additionalContext` separately. */
export function denyContext(matches: readonly Match[]): string {
  const names = matches.map((m) => `${m.database.name} (${m.database.mcpToolName})`).join(", ");
  return `docsearch-hook: local documentation is available for this topic: ${names}. Prefer it to web search.`;
}
