/**
 * The capture pipeline as a pure function: event → summary (privacy-filtered as it is built) →
 * admission filter → one observation of bounded size, or the reason it was dropped.
 */
import type { CaptureConfig } from "../config/types.ts";
import type { HookEvent } from "../protocol/event.ts";
import { isNoiseOutput } from "./commands.ts";
import type { Redactor } from "./redact.ts";
import { excerpt, summarize, type Summary } from "./summary.ts";

export interface Observation {
  event: string;
  tool?: string;
  toolUseId?: string;
  summary: string;
  /** ok | error | interrupted | passed | failed (tests and builds) | denied | escaped | no-match (the redirect). */
  outcome?: string;
  durationMs?: number;
}

export type Capture = { kind: "store"; observation: Observation } | { kind: "drop"; reason: string };

/** The hard cap on one observation's stored text, whatever the agent sent. */
export const MAX_SUMMARY_CHARS = 2000;
const MAX_NAME_CHARS = 200;

const FILE_EDITS = new Set(["Write", "Edit", "MultiEdit", "NotebookEdit"]);

export function skipsTool(skipTools: readonly string[], tool: string): boolean {
  return skipTools.some((skip) => skip.endsWith("*") ? tool.startsWith(skip.slice(0, -1)) : skip === tool);
}

function outcomeOf(event: HookEvent, summary: Summary): string {
  const failed = event.hookEventName === "PostToolUseFailure";
  const command = summary.command;
  if (command?.interrupted || event.raw.is_interrupt === true) return "interrupted";
  if (command && (command.kind === "test" || command.kind === "build")) {
    return !failed && command.exitCode === 0 ? "passed" : "failed";
  }
  return failed || (command?.exitCode ?? 0) !== 0 ? "error" : "ok";
}

/** Why an admitted-looking event is noise, or undefined to keep it. Write/Edit are never judged on content. */
function noise(event: HookEvent, summary: Summary, outcome: string): string | undefined {
  const command = summary.command;
  if (command === undefined || FILE_EDITS.has(event.toolName ?? "")) return undefined;
  if (command.kind === "own") return "docsearch-hook's own command";
  if (outcome !== "ok") return undefined;
  if (command.kind === "install") return "package install";
  if (isNoiseOutput(command.output)) return "no meaningful output";
  return undefined;
}

function durationOf(event: HookEvent): number | undefined {
  const value = event.raw.duration_ms;
  return typeof value === "number" && Number.isFinite(value) && value >= 0 ? Math.round(value) : undefined;
}

const clipName = (value: string | undefined) => value?.slice(0, MAX_NAME_CHARS);

/** A PostToolUse/lifecycle event through the pipeline. */
export function observe(event: HookEvent, capture: CaptureConfig, redactor: Redactor): Capture {
  const tool = event.toolName;
  if (tool !== undefined && skipsTool(capture.skipTools, tool)) {
    return { kind: "drop", reason: "tool skipped by config (capture.skip_tools)" };
  }
  const summary = summarize(event, redactor);
  const isToolEvent = tool !== undefined && event.hookEventName.startsWith("PostToolUse");
  const outcome = isToolEvent ? outcomeOf(event, summary) : undefined;
  const reason = outcome === undefined ? undefined : noise(event, summary, outcome);
  if (reason !== undefined) return { kind: "drop", reason };
  return {
    kind: "store",
    observation: {
      event: event.hookEventName,
      tool: clipName(tool),
      toolUseId: clipName(event.toolUseId),
      summary: excerpt(summary.text, MAX_SUMMARY_CHARS, redactor),
      outcome,
      durationMs: durationOf(event),
    },
  };
}

/**
 * How the redirect ended a web request (tracked in `stats`): denied with guidance, denied with the local docs'
 * answer quoted, let through by the escape hatch, matched by no docs, matched by built-in docs whose pages do
 * not answer it, or matched by docs only a tool the agent lacks can search.
 */
export type DecisionOutcome = "denied" | "answered" | "escaped" | "no-match" | "no-local-answer" | "no-tool";

/** The redirect's own decision on a web request, as an observation (tracked in `stats`). */
export function decisionObservation(
  event: HookEvent,
  outcome: DecisionOutcome,
  request: string,
  databases: readonly string[],
  redactor: Redactor,
): Observation {
  const target = excerpt(request, 500, redactor);
  return {
    event: event.hookEventName,
    tool: clipName(event.toolName),
    toolUseId: clipName(event.toolUseId),
    summary: databases.length > 0 ? `${target}\n→ ${databases.join(", ")}` : target,
    outcome,
  };
}
