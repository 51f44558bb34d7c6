/**
 * The hook's input boundary. Events are read leniently by hand rather than with zod: this runs on every
 * agent event and zod's import alone would double the start-up time. Anything missing or of the wrong
 * type is treated as absent, and the hook then allows (fails open). Every agent's event is read in Claude
 * Code's shape (agents.ts).
 */
import { concatBytes } from "../bytes.ts";
import { messageOf } from "../errors.ts";
import { canonicalEvent } from "./agents.ts";
import type { Agent } from "./events.ts";

export interface HookEvent {
  /** Set where the event's shape tells the agent (Gemini CLI, Qwen Code); its answer is written for it. */
  agent?: Agent;
  /** Claude Code's name for the event, whatever the agent calls it; the tool names below are Claude Code's too. */
  hookEventName: string;
  /** Data, never part of a path; "" when the agent sent none. */
  sessionId: string;
  cwd?: string;
  toolName?: string;
  /**
   * The tool's name as the agent gave it, where that is not Claude Code's: the name the model called it by, which
   * is the one a redirect told it (Gemini CLI's `mcp_docsearch_search`).
   */
  calledAs?: string;
  toolInput?: Record<string, unknown>;
  toolUseId?: string;
  /** The whole payload in Claude Code's shape, for event-specific fields. */
  raw: Record<string, unknown>;
}

export type EventParse = { ok: true; event: HookEvent } | { ok: false; problem: string };

/** Larger events are refused unread: no agent sends one, and parsing it would stall the agent. */
export const MAX_EVENT_BYTES = 64 * 1024 * 1024;

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function stringField(record: Record<string, unknown>, key: string): string | undefined {
  const value = record[key];
  return typeof value === "string" ? value : undefined;
}

/** `parsed` is the text's JSON value when the reader has already parsed it (see readStdin). */
export function parseHookEvent(text: string, parsed?: { value: unknown }): EventParse {
  if (text.trim() === "") return { ok: false, problem: "empty input on stdin" };
  let raw: unknown;
  if (parsed !== undefined) raw = parsed.value;
  else {
    try {
      raw = JSON.parse(text);
    } catch {
      return { ok: false, problem: "input on stdin is not JSON" };
    }
  }
  if (!isRecord(raw)) return { ok: false, problem: "input on stdin is not a JSON object" };
  if (stringField(raw, "hook_event_name") === undefined) {
    return { ok: false, problem: "input has no hook_event_name" };
  }
  const { agent, payload } = canonicalEvent(raw);
  const calledAs = stringField(raw, "tool_name");
  return { ok: true, event: eventOf(payload, agent, calledAs) };
}

function eventOf(
  raw: Record<string, unknown>,
  agent: Agent | undefined,
  calledAs: string | undefined,
): HookEvent {
  const toolInput = raw.tool_input;
  const toolName = stringField(raw, "tool_name");
  return {
    ...(agent === undefined ? {} : { agent }),
    hookEventName: stringField(raw, "hook_event_name")!,
    sessionId: stringField(raw, "session_id") ?? "",
    cwd: stringField(raw, "cwd"),
    toolName,
    ...(calledAs === toolName ? {} : { calledAs }),
    toolInput: isRecord(toolInput) ? toolInput : undefined,
    toolUseId: stringField(raw, "tool_use_id"),
    raw,
  };
}

export type StdinRead =
  /** `parsed` is set when the reader parsed the text already (it had to, to tell the event was whole). */
  | { ok: true; text: string; parsed?: { value: unknown } }
  | { ok: false; problem: string };

/**
 * How long the hook waits for its input before it acts on what arrived. An agent writes the whole event at
 * once, so a pause in the middle of one means a writer that will not close stdin. The first byte gets longer:
 * when the agent starts many hooks at once on a busy machine, its writes can come a second after the spawn.
 */
export interface StdinBounds {
  firstByteMs: number;
  idleMs: number;
}

export const STDIN_BOUNDS: StdinBounds = { firstByteMs: 5000, idleMs: 1000 };

/** A pending wait for the idle bound; `cancel` ends it, so that nothing is left pending once a read wins. */
export interface IdleTimer {
  elapsed: Promise<void>;
  cancel(): void;
}

/**
 * Atomics.waitAsync's timeout rather than setTimeout: a process's first setTimeout costs about 6 ms of
 * start-up here (measured over whole `deno run` processes), waitAsync none that could be measured, and the hook
 * starts once per event. Unlike a timer, the wait does not keep Deno's event loop alive by itself: the pending
 * read it races does.
 */
export function idleTimer(ms: number): IdleTimer {
  const cell = new Int32Array(new SharedArrayBuffer(4));
  const wait = Atomics.waitAsync(cell, 0, 0, ms);
  return {
    elapsed: wait.async ? wait.value.then(() => {}) : Promise.resolve(),
    cancel: () => void Atomics.notify(cell, 0),
  };
}

const IDLE = Symbol("idle");
const CLOSE_BRACE = 0x7d;

/** Whether the last byte that is not JSON white space closes an object: the cheap test before a parse. */
function endsWithBrace(bytes: Uint8Array, end: number): boolean {
  for (let i = end - 1; i >= 0; i--) {
    const byte = bytes[i];
    if (byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09) continue;
    return byte === CLOSE_BRACE;
  }
  return false;
}

/** The input as a whole JSON value, or undefined while it is not one. */
function whole(text: string): { ok: true; text: string; parsed: { value: unknown } } | undefined {
  try {
    return { ok: true, text, parsed: { value: JSON.parse(text) } };
  } catch {
    return undefined;
  }
}

/**
 * Reads one event from stdin: to its end, or until a whole JSON object has arrived, whichever comes first, so a
 * writer that never closes stdin costs nothing once its event is complete; past a bound with neither, what
 * arrived is used if it is whole, else the read fails (and the hook allows). No bounds for a terminal, where a
 * person types the event (`bounds` null). Events over MAX_EVENT_BYTES are refused at once.
 */
export async function readStdin(
  reader: Pick<typeof Deno.stdin, "read">,
  bounds: StdinBounds | null = STDIN_BOUNDS,
  timer: (ms: number) => IdleTimer = idleTimer,
): Promise<StdinRead> {
  const chunks: Uint8Array[] = [];
  let total = 0;
  const decode = () => new TextDecoder().decode(concatBytes(chunks, total));
  for (;;) {
    const buffer = new Uint8Array(1 << 16);
    const waitMs = bounds && (total === 0 ? bounds.firstByteMs : bounds.idleMs);
    const idle = waitMs === null ? undefined : timer(waitMs);
    let n: number | null | typeof IDLE;
    try {
      n = await (idle
        ? Promise.race([
          reader.read(buffer),
          idle.elapsed.then((): typeof IDLE => IDLE),
        ])
        : reader.read(buffer));
    } catch (error) {
      return { ok: false, problem: `cannot read stdin: ${messageOf(error)}` };
    } finally {
      idle?.cancel();
    }
    if (n === null || n === IDLE && total > MAX_EVENT_BYTES) break;
    if (n === IDLE) {
      return whole(decode()) ?? {
        ok: false,
        problem: total === 0
          ? `nothing came on stdin within ${waitMs} ms, and it was not closed`
          : `stdin was not closed, and the event stopped short for ${waitMs} ms`,
      };
    }
    total += n;
    // No agent sends more, and a writer that never stops (`< /dev/zero`) must not keep the hook running.
    if (total > MAX_EVENT_BYTES) break;
    chunks.push(buffer.subarray(0, n));
    // A read that did not fill the buffer drained the pipe: the writer paused, perhaps for good. Parsing only
    // then keeps a large event from being parsed once per chunk.
    if (n < buffer.length && endsWithBrace(buffer, n)) {
      const event = whole(decode());
      if (event !== undefined) return event;
    }
  }
  if (total > MAX_EVENT_BYTES) {
    return { ok: false, problem: `input on stdin is over ${MAX_EVENT_BYTES} bytes` };
  }
  return { ok: true, text: decode() };
}
