/**
 * The redirect decision as a function of the request, the config, the session's state and the
 * clock. State access is injected; when it fails the hook still denies, it just cannot remember.
 */
import { messageOf } from "../errors.ts";
import type { Config } from "../config/types.ts";
import { hash53 } from "../hash.ts";
import { type Match, matchRequest } from "../match/match.ts";
import { denyOutput } from "../protocol/output.ts";
import { denyContext, denyReason, type GuidanceOptions } from "./guidance.ts";
import { redirectsTool, requestIdentity, requestTarget, requestTool, type WebRequest } from "./request.ts";
import type { DenialRecord } from "../state/store.ts";

/** The part of the state store the redirect needs (see StateStore); throws when the state is unavailable. */
export interface RedirectState {
  retryOrRecord(denial: DenialRecord, notBefore: number): "retry" | "recorded" | "repeat";
}

export type RedirectDecision =
  | { action: "allow"; why: "no-match" }
  | { action: "allow"; why: "escape-hatch"; matches: Match[]; requestKey: string }
  | {
    action: "deny";
    matches: Match[];
    requestKey: string;
    output: string;
    stateProblem?: string;
    /** The call was denied already: the hook registered twice sees it again (same tool_use_id). */
    repeat?: true;
  };

/** The state, or why there is none (the hook then denies without remembering). */
export type StateAccess = { state: RedirectState } | { unavailable: string };

export function buildDenial(
  request: WebRequest,
  matches: readonly Match[],
  options: GuidanceOptions,
): string {
  return denyOutput(denyReason(request, matches, options), denyContext(matches));
}

/**
 * Whether the hook acts on the request: WebSearch and WebFetch always (an unmatched search is recorded, for
 * stats); a page read from Bash or another tool only when `fetch_tools` lists the tool and a database covers the
 * page. The hook runs before every Bash command: the others pass without touching the state.
 */
export function takesRequest(request: WebRequest, config: Config): boolean {
  if (request.tool === "WebSearch" || request.tool === "WebFetch") return true;
  return redirectsTool(request, config.fetchTools) && matchRequest(request, config.databases).length > 0;
}

/**
 * The decision on one web request. `request` in the denial record is what the state keeps for people to
 * read, so it goes through `redact` (the privacy filter) first.
 * `call` says which call this is (the agent's tool_use_id) and which registration of the hook sees it: the same
 * call seen again is denied again, not taken as the retry (see StateStore.retryOrRecord).
 */
export function decideRedirect(
  request: WebRequest,
  sessionId: string,
  config: Config,
  access: StateAccess,
  now: number,
  redact: (text: string) => string = (text) => text,
  call: Pick<DenialRecord, "toolUseId" | "via"> = {},
): RedirectDecision {
  const matches = matchRequest(request, config.databases);
  if (matches.length === 0) return { action: "allow", why: "no-match" };

  const ttlMs = config.escapeHatchTtlSeconds * 1000;
  const requestKey = hash53(requestIdentity(request));
  let stateProblem = "unavailable" in access ? access.unavailable : undefined;
  let repeat = false;
  if ("state" in access) {
    try {
      const outcome = access.state.retryOrRecord({
        sessionId,
        requestKey,
        tool: requestTool(request),
        request: redact(requestTarget(request)),
        databases: matches.map((m) => m.database.name),
        at: now,
        ...call,
      }, now - ttlMs);
      if (outcome === "retry") return { action: "allow", why: "escape-hatch", matches, requestKey };
      repeat = outcome === "repeat";
    } catch (error) {
      stateProblem = messageOf(error);
    }
  }
  const output = buildDenial(request, matches, {
    ttlSeconds: config.escapeHatchTtlSeconds,
    retryWillPass: stateProblem === undefined,
  });
  return { action: "deny", matches, requestKey, output, stateProblem, ...(repeat ? { repeat } : {}) };
}
