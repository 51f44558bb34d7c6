/** The web requests the redirect acts on, read from a PreToolUse `tool_input`. */
import { normalizeHost } from "../match/domains.ts";

export type WebRequest =
  | { tool: "WebSearch"; query: string; allowedDomains: string[]; blockedDomains: string[] }
  | { tool: "WebFetch"; url: string; prompt: string };

function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === "string") : [];
}

/** Undefined for other tools and for inputs without a query / URL: the hook then allows. */
export function webRequestFrom(
  toolName: string | undefined,
  input: Record<string, unknown> | undefined,
): WebRequest | undefined {
  if (input === undefined) return undefined;
  if (toolName === "WebSearch" && typeof input.query === "string" && input.query.trim() !== "") {
    return {
      tool: "WebSearch",
      query: input.query,
      allowedDomains: stringList(input.allowed_domains),
      blockedDomains: stringList(input.blocked_domains),
    };
  }
  if (toolName === "WebFetch" && typeof input.url === "string" && input.url.trim() !== "") {
    return { tool: "WebFetch", url: input.url, prompt: typeof input.prompt === "string" ? input.prompt : "" };
  }
  return undefined;
}

/** Domain lists compare as sets of hostnames: order, case and duplicates do not make a request different. */
function domainSet(domains: string[]): string[] {
  return [...new Set(domains.map((d) => normalizeHost(d) ?? d.trim().toLowerCase()))].sort();
}

/**
 * What makes two requests "identical" for the escape hatch: the exact query and the domain lists as sets
 * (WebSearch), or the exact URL (WebFetch; the prompt is only what the agent wants to read there).
 */
export function requestIdentity(request: WebRequest): string {
  return JSON.stringify(
    request.tool === "WebSearch"
      ? [request.tool, request.query, domainSet(request.allowedDomains), domainSet(request.blockedDomains)]
      : [request.tool, request.url],
  );
}

/** What the request asks the web for: the search query or the URL. */
export const requestTarget = (request: WebRequest): string =>
  request.tool === "WebSearch" ? request.query : request.url;
