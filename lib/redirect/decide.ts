/**
 * The redirect decision (SPEC §3) as a function of the request, the config, the session's state and the
 * clock. State access is injected; when it fails the hook still denies, it just cannot remember.
 */
import type { Config } from "../config/types.ts";
import { hash53 } from "../hash.ts";
import { type Match, matchRequest } from "../match/match.ts";
import { denyOutput } from "../protocol/output.ts";
import { denyContext, denyReason, type GuidanceOptions } from "./guidance.ts";
import { requestIdentity, type WebRequest } from "./request.ts";
import type { DenialRecord } from "../state/denials.ts";

/** The part of the state store the redirect needs (see DenialStore); throws when the state is unavailable. */
export interface RedirectState {
  retryOrRecord(denial: DenialRecord, notBefore: number): "retry" | "recorded";
}

export type RedirectDecision =
  | { action: "allow"; why: "no-match" }
  | { action: "allow"; why: "escape-hatch"; matches: Match[] }
  | { action: "deny"; matches: Match[]; output: string; stateProblem?: string };

export function buildDenial(
  request: WebRequest,
  matches: readonly Match[],
  options: GuidanceOptions,
): string {
  return denyOutput(denyReason(request, matches, options), denyContext(matches));
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export async function decideRedirect(
  request: WebRequest,
  sessionId: string,
  config: Config,
  openState: () => Promise<RedirectState>,
  now: number,
): Promise<RedirectDecision> {
  const matches = matchRequest(request, config.databases);
  if (matches.length === 0) return { action: "allow", why: "no-match" };

  const ttlMs = config.escapeHatchTtlSeconds * 1000;
  const requestKey = hash53(requestIdentity(request));
  let stateProblem: string | undefined;
  try {
    const state = await openState();
    const outcome = state.retryOrRecord({
      sessionId,
      requestKey,
      tool: request.tool,
      request: request.tool === "WebSearch" ? request.query : request.url,
      databases: matches.map((m) => m.database.name),
      at: now,
    }, now - ttlMs);
    if (outcome === "retry") return { action: "allow", why: "escape-hatch", matches };
  } catch (error) {
    stateProblem = describe(error);
  }
  const output = buildDenial(request, matches, {
    ttlSeconds: config.escapeHatchTtlSeconds,
    retryWillPass: stateProblem === undefined,
  });
  return { action: "deny", matches, output, stateProblem };
}
