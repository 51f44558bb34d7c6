/** What one hook event leaves in the state, as a pure function of the event, config and decision. */
import type { Config } from "../config/types.ts";
import type { Env } from "../paths.ts";
import type { HookEvent } from "../protocol/event.ts";
import { stringField } from "../protocol/event.ts";
import { runningAgent } from "../protocol/agents.ts";
import { type Agent, eventSpec } from "../protocol/events.ts";
import type { RedirectDecision } from "../redirect/decide.ts";
import { requestTarget, requestTool, type WebRequest } from "../redirect/request.ts";
import type { EventRecord } from "../state/store.ts";
import { decisionObservation, type Observation, observe } from "./observe.ts";
import { KEPT_REQUEST_CHARS, redactHead, type Redactor } from "./redact.ts";
import { clipTo } from "../text.ts";
import { excerpt } from "./summary.ts";

const DAY_MS = 86_400_000;

/** A session's `source` and end `reason` are a word (`startup`, `logout`): more is not what the field is for. */
const SESSION_WORD_CHARS = 200;
/** Longer than any path a system opens (Linux's PATH_MAX is 4096 bytes), so a real cwd is never clipped. */
const CWD_CHARS = 4096;

/** How the sessions table names each agent. */
const RECORDED: Readonly<Record<Agent, string>> = {
  claude: "claude-code",
  ripperdoc: "ripperdoc",
  gemini: "gemini-cli",
  qwen: "qwen-code",
};

/** The agent as recorded: runningAgent's answer, by the name stats and the capture show. */
export function agentOf(env: Env, agent?: Agent): string {
  const running = runningAgent(env, agent);
  return running === undefined ? "unknown" : RECORDED[running];
}

export interface RecordInput {
  event: HookEvent;
  config: Config;
  redactor: Redactor;
  env: Env;
  now: number;
  hookMs: number;
  /** PreToolUse on a web tool: the request and what the redirect decided. */
  redirect?: { request: WebRequest; decision: RedirectDecision };
}

function decisionOf(input: RecordInput): Observation | undefined {
  const { request, decision } = input.redirect!;
  const outcome = decision.action === "deny"
    ? decision.answered ? "answered" : "denied"
    : decision.why === "escape-hatch"
    ? "escaped"
    : decision.why;
  const names = decision.action === "allow" && decision.why === "no-match"
    ? []
    : decision.matches.map((m) => m.database.name);
  const target = requestTarget(request);
  return decisionObservation(input.event, outcome, target, names, input.redactor);
}

/** A session field the agent sends as it likes, kept as the summary keeps it: redacted and clipped. */
const sessionWord = (value: string | undefined, redactor: Redactor) =>
  value === undefined ? undefined : excerpt(value, SESSION_WORD_CHARS, redactor);

export function eventRecord(input: RecordInput): EventRecord {
  const { event, config, now } = input;
  const name = event.hookEventName;
  const capture = config.capture;
  let observation: Observation | undefined;
  if (capture.enabled && input.redirect !== undefined) observation = decisionOf(input);
  else if (capture.enabled && eventSpec(name)?.captured) {
    const captured = observe(event, capture, input.redactor);
    if (captured.kind === "store") observation = captured.observation;
  }
  const decision = input.redirect?.decision;
  const request = input.redirect?.request;
  const start = name === "SessionStart";
  return {
    event: name,
    session: {
      sessionId: event.sessionId,
      cwd: event.cwd === undefined ? undefined : clipTo(event.cwd, CWD_CHARS),
      agent: agentOf(input.env, event.agent),
      at: now,
      source: start ? sessionWord(stringField(event.raw, "source"), input.redactor) ?? "startup" : undefined,
      ended: name === "SessionEnd",
      endReason: name === "SessionEnd"
        ? sessionWord(stringField(event.raw, "reason"), input.redactor) ?? "other"
        : undefined,
    },
    observation,
    // A repeat (the hook registered twice) was counted when the call was first denied.
    denied: decision?.action === "deny" && !decision.repeat && request !== undefined
      ? {
        requestKey: decision.requestKey,
        tool: requestTool(request),
        request: redactHead(input.redactor.redact, requestTarget(request), KEPT_REQUEST_CHARS),
        databases: decision.matches.map((m) => ({ name: m.database.name, mcpTool: m.database.mcpToolName })),
      }
      : undefined,
    escapedKey: decision?.action === "allow" && decision.why === "escape-hatch"
      ? decision.requestKey
      : undefined,
    calledTool: name === "PostToolUse" || name === "PostToolUseFailure"
      ? event.calledAs ?? event.toolName
      : undefined,
    pruneBefore: start ? now - capture.retentionDays * DAY_MS : undefined,
    denialsBefore: start ? now - config.escapeHatchTtlSeconds * 1000 : undefined,
    hookMs: input.hookMs,
  };
}
