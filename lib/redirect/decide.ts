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
import { builtInIndex } from "../docs/built_in.ts";
import { KEPT_REQUEST_CHARS, redactHead } from "../capture/redact.ts";

/** The part of the state store the redirect needs (see StateStore); throws when the state is unavailable. */
export interface RedirectState {
  retryOrRecord(denial: DenialRecord, notBefore: number): "retry" | "recorded" | "repeat";
}

export type RedirectDecision =
  | { action: "allow"; why: "no-match" }
  | { action: "allow"; why: "escape-hatch"; matches: Match[]; requestKey: string }
  /**
   * What matched is built-in docs whose pages do not answer the request (the gate), or docs the agent cannot
   * search (a subagent whose tools leave the search out): denying would cost a turn and end on the web.
   */
  | { action: "allow"; why: "no-local-answer" | "no-tool"; matches: Match[] }
  | {
    action: "deny";
    matches: Match[];
    requestKey: string;
    output: string;
    /** The denial quotes the local docs' answer (a page, or the best passages). */
    answered: boolean;
    stateProblem?: string;
    /** The call was denied already: the hook registered twice sees it again (same tool_use_id). */
    repeat?: true;
  };

/**
 * What the local docs say to a request a built-in index matched (see localAnswer), written with `options`:
 * the quoting denial, or none when the pages do not answer it.
 */
export type AnswerFor = (
  match: Match,
  others: readonly Match[],
  options: GuidanceOptions & { maxChars: number; withoutDocsTool: boolean },
) => { answered: true; reason: string } | { answered: false };

/** Which call this is and what the agent making it has: the facts a decision needs beyond the request. */
export interface Circumstances extends Pick<DenialRecord, "toolUseId" | "via"> {
  /** The local answer from a matched built-in index; absent, a denial gives guidance only. */
  answer?: AnswerFor;
  /** The agent defers MCP tools behind ToolSearch: guidance says how to load the tools it names. */
  deferredTools?: boolean;
  /** Whether the agent (a subagent with a tools list) can call that tool; absent, every tool. */
  hasTool?: (tool: string) => boolean;
}

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
 * The decision on one web request. A built-in index that matched is searched (`circumstances.answer`): its
 * answer is quoted in the denial, and without one the request is let through unless other docs matched too.
 * Docs the agent cannot search are left out of the guidance. `request` in the denial record is what the state
 * keeps for people to read, so it goes through `redact` (the privacy filter) first. The same call seen again is
 * denied again, not taken as the retry (see StateStore.retryOrRecord).
 */
export function decideRedirect(
  request: WebRequest,
  sessionId: string,
  config: Config,
  access: StateAccess,
  now: number,
  redact: (text: string) => string = (text) => text,
  circumstances: Circumstances = {},
): RedirectDecision {
  const matches = matchRequest(request, config.databases);
  if (matches.length === 0) return { action: "allow", why: "no-match" };
  const { answer, deferredTools, hasTool = () => true, toolUseId, via } = circumstances;
  // Each built-in index that matched is asked in turn, until one answers: the first may not hold the answer
  // another does ("zod react form validation").
  const builtIns = answer ? matches.filter((match) => builtInIndex(match.database) !== undefined) : [];
  // What the denial may name besides the answer: docs the agent can search (a subagent may lack a tool).
  const searchable = matches.filter((match) => hasTool(match.database.mcpToolName));
  type Written = { answered: boolean; output: string } | { why: "no-local-answer" | "no-tool" };
  const write = (retryWillPass: boolean): Written => {
    const guidance = { ttlSeconds: config.escapeHatchTtlSeconds, retryWillPass, deferredTools };
    for (const builtIn of builtIns) {
      const answered = answer!(builtIn, searchable.filter((match) => match !== builtIn), {
        ...guidance,
        maxChars: config.answerMaxChars,
        withoutDocsTool: !hasTool(builtIn.database.mcpToolName),
      });
      if (answered.answered) {
        const named = searchable.includes(builtIn) ? searchable : [builtIn, ...searchable];
        return { answered: true, output: denyOutput(answered.reason, denyContext(named)) };
      }
    }
    // Unanswered built-in docs are no reason to deny, nor docs the agent cannot search.
    const guided = searchable.filter((match) =>
      builtIns.length === 0 || builtInIndex(match.database) === undefined
    );
    if (guided.length > 0) return { answered: false, output: buildDenial(request, guided, guidance) };
    return { why: builtIns.length === 0 ? "no-tool" : "no-local-answer" };
  };
  const first = write(true);
  if ("why" in first) return { action: "allow", why: first.why, matches };

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
        request: redactHead(redact, requestTarget(request), KEPT_REQUEST_CHARS),
        databases: matches.map((m) => m.database.name),
        at: now,
        ...toolUseId === undefined ? {} : { toolUseId },
        ...via === undefined ? {} : { via },
      }, now - ttlMs);
      if (outcome === "retry") return { action: "allow", why: "escape-hatch", matches, requestKey };
      repeat = outcome === "repeat";
    } catch (error) {
      stateProblem = messageOf(error);
    }
  }
  // Unrecorded, the denial says a retry would not pass: the same decision, written again.
  const written = stateProblem === undefined ? first : write(false);
  const denial = "why" in written ? first : written;
  return { action: "deny", matches, requestKey, ...denial, stateProblem, ...(repeat ? { repeat } : {}) };
}
