/**
 * The hook's input boundary. Events are read leniently by hand rather than with zod: this runs on every
 * agent event and zod's import alone would double the start-up time. Anything missing or of the wrong
 * type is treated as absent, and the hook then allows (fails open).
 */

export interface HookEvent {
  hookEventName: string;
  /** Data, never part of a path; "" when the agent sent none. */
  sessionId: string;
  cwd?: string;
  toolName?: string;
  toolInput?: Record<string, unknown>;
  toolUseId?: string;
  /** The whole payload, for event-specific fields. */
  raw: Record<string, unknown>;
}

export type EventParse = { ok: true; event: HookEvent } | { ok: false; problem: string };

/** Larger events are drained and ignored: no agent sends one, and parsing it would stall the agent. */
export const MAX_EVENT_BYTES = 64 * 1024 * 1024;

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function stringField(record: Record<string, unknown>, key: string): string | undefined {
  const value = record[key];
  return typeof value === "string" ? value : undefined;
}

export function parseHookEvent(text: string): EventParse {
  if (text.trim() === "") return { ok: false, problem: "empty input on stdin" };
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return { ok: false, problem: "input on stdin is not JSON" };
  }
  if (!isRecord(raw)) return { ok: false, problem: "input on stdin is not a JSON object" };
  const hookEventName = stringField(raw, "hook_event_name");
  if (hookEventName === undefined) return { ok: false, problem: "input has no hook_event_name" };
  const toolInput = raw.tool_input;
  return {
    ok: true,
    event: {
      hookEventName,
      sessionId: stringField(raw, "session_id") ?? "",
      cwd: stringField(raw, "cwd"),
      toolName: stringField(raw, "tool_name"),
      toolInput: isRecord(toolInput) ? toolInput : undefined,
      toolUseId: stringField(raw, "tool_use_id"),
      raw,
    },
  };
}

export type StdinRead = { ok: true; text: string } | { ok: false; problem: string };

/**
 * Reads stdin to its end. Where the OS has /dev/stdin, the runtime reads and decodes it in one call (the
 * first TextDecoder use alone costs ~0.15 ms of start-up); elsewhere, blocking chunked reads, still far
 * cheaper than `Deno.stdin.readable`.
 */
export function readStdinSync(os: typeof Deno.build.os = Deno.build.os): StdinRead {
  if (os !== "windows") {
    try {
      const text = Deno.readTextFileSync("/dev/stdin");
      return text.length > MAX_EVENT_BYTES
        ? { ok: false, problem: `input on stdin is over ${MAX_EVENT_BYTES} bytes` }
        : { ok: true, text };
    } catch {
      // No /dev/stdin after all (a chroot, a sandbox): read it as a stream.
    }
  }
  return readChunksSync(Deno.stdin);
}

export function readChunksSync(reader: Pick<typeof Deno.stdin, "readSync">): StdinRead {
  const chunks: Uint8Array[] = [];
  let total = 0;
  const buffer = new Uint8Array(1 << 16);
  for (;;) {
    const n = reader.readSync(buffer);
    if (n === null) break;
    total += n;
    if (total <= MAX_EVENT_BYTES) chunks.push(buffer.slice(0, n));
  }
  if (total > MAX_EVENT_BYTES) {
    return { ok: false, problem: `input on stdin is over ${MAX_EVENT_BYTES} bytes` };
  }
  const bytes = new Uint8Array(total);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.length;
  }
  return { ok: true, text: new TextDecoder().decode(bytes) };
}
