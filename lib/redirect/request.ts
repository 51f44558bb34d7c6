/** The web requests the redirect acts on, read from a PreToolUse `tool_input`. */
import { normalizeHost } from "../match/domains.ts";
import { shellFetchUrls } from "./shell_fetch.ts";

export type WebRequest =
  & (
    | { tool: "WebSearch"; query: string; allowedDomains: string[]; blockedDomains: string[] }
    | { tool: "WebFetch"; url: string; prompt: string }
    /** A Bash command that only reads web pages (see shell_fetch.ts): `urls` in the order it reads them. */
    | { tool: "Bash"; command: string; urls: string[] }
    /** Another tool given a page's `url`: an MCP fetch or browser tool, when `fetch_tools` lists it. */
    | { tool: "MCP"; name: string; url: string }
  )
  & {
    /**
     * The agent's own name for the tool where it is not Claude Code's (Gemini CLI's `google_web_search`):
     * what the guidance tells the model to repeat.
     */
    calledAs?: string;
  };

/** A request of the agent's own web tools. */
export type WebToolRequest = Extract<WebRequest, { tool: "WebSearch" | "WebFetch" }>;

function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === "string") : [];
}

const nonEmpty = (value: unknown): value is string => typeof value === "string" && value.trim() !== "";

/**
 * Undefined for other tools and for inputs without a query / URL: the hook then allows without reading its
 * config. That is the answer for almost every Bash command, and the hook runs before each of them.
 */
export function webRequestFrom(
  toolName: string | undefined,
  input: Record<string, unknown> | undefined,
): WebRequest | undefined {
  if (input === undefined || toolName === undefined) return undefined;
  if (toolName === "WebSearch") {
    if (!nonEmpty(input.query)) return undefined;
    return {
      tool: "WebSearch",
      query: input.query,
      allowedDomains: stringList(input.allowed_domains),
      blockedDomains: stringList(input.blocked_domains),
    };
  }
  if (toolName === "WebFetch") {
    if (!nonEmpty(input.url)) return undefined;
    return { tool: "WebFetch", url: input.url, prompt: typeof input.prompt === "string" ? input.prompt : "" };
  }
  if (toolName === "Bash") {
    const urls = typeof input.command === "string" ? shellFetchUrls(input.command) : undefined;
    return urls && { tool: "Bash", command: input.command as string, urls };
  }
  return nonEmpty(input.url) ? { tool: "MCP", name: toolName, url: input.url } : undefined;
}

/** Whether a `fetch_tools` pattern names the tool: `*` matches any run of characters, the rest itself. */
export function toolPatternMatches(pattern: string, tool: string): boolean {
  const [first, ...parts] = pattern.split("*");
  if (parts.length === 0) return pattern === tool;
  if (!tool.startsWith(first)) return false;
  let at = first.length;
  const last = parts.pop()!;
  for (const part of parts) {
    const found = tool.indexOf(part, at);
    if (found < 0) return false;
    at = found + part.length;
  }
  return tool.length - last.length >= at && tool.endsWith(last);
}

/** The tool the agent called, as it names it. */
export const requestTool = (request: WebRequest): string =>
  request.tool === "MCP" ? request.name : request.tool;

/** Whether `fetch_tools` lists the tool (WebSearch and WebFetch are always redirected). */
export function redirectsTool(request: WebRequest, fetchTools: readonly string[]): boolean {
  const tool = requestTool(request);
  return fetchTools.some((pattern) => toolPatternMatches(pattern, tool));
}

/** Domain lists compare as sets of hostnames: order, case and duplicates do not make a request different. */
function domainSet(domains: string[]): string[] {
  return [...new Set(domains.map((d) => normalizeHost(d) ?? d.trim().toLowerCase()))].sort();
}

/**
 * What makes two requests "identical" for the escape hatch: the exact query and the domain lists as sets
 * (WebSearch), the exact URL (WebFetch, where the prompt is only what the agent wants to read there, and an
 * MCP tool, whose other arguments only shape the answer), or the exact command text (Bash: the same pages
 * read the same way). The tool is part of it, so a page denied to WebFetch is denied again to curl.
 */
export function requestIdentity(request: WebRequest): string {
  switch (request.tool) {
    case "WebSearch":
      return JSON.stringify([
        request.tool,
        request.query,
        domainSet(request.allowedDomains),
        domainSet(request.blockedDomains),
      ]);
    case "WebFetch":
      return JSON.stringify([request.tool, request.url]);
    case "Bash":
      return JSON.stringify([request.tool, request.command]);
    case "MCP":
      return JSON.stringify([request.name, request.url]);
  }
}

/** What the request asks the web for: the search query, the URL, or the command. */
export function requestTarget(request: WebRequest): string {
  switch (request.tool) {
    case "WebSearch":
      return request.query;
    case "Bash":
      return request.command;
    default:
      return request.url;
  }
}

/** The pages a request reads (none for a search). */
export const requestUrls = (request: WebRequest): string[] =>
  request.tool === "WebSearch" ? [] : request.tool === "Bash" ? request.urls : [request.url];
