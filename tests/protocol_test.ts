import { deepStrictEqual as assertEquals } from "node:assert/strict";
import {
  type IdleTimer,
  idleTimer,
  MAX_EVENT_BYTES,
  parseHookEvent,
  readStdin,
} from "../lib/protocol/event.ts";
import { denyOutput } from "../lib/protocol/output.ts";

/** A stdin that hands out the given chunks, each in reads of at most the buffer's size, then `end`. */
function fakeStdin(chunks: (string | Uint8Array)[], end: "close" | "hang" = "close") {
  const queue = chunks.map((chunk) => typeof chunk === "string" ? new TextEncoder().encode(chunk) : chunk);
  return {
    reads: 0,
    read(buffer: Uint8Array): Promise<number | null> {
      this.reads++;
      const next = queue[0];
      if (next === undefined) return end === "close" ? Promise.resolve(null) : new Promise(() => {});
      const n = Math.min(buffer.length, next.length);
      buffer.set(next.subarray(0, n));
      if (n === next.length) queue.shift();
      else queue[0] = next.subarray(n);
      return Promise.resolve(n);
    },
  };
}

/** An idle bound that the test decides: never, or at once. */
const timers = {
  never: (): IdleTimer => ({ elapsed: new Promise(() => {}), cancel() {} }),
  atOnce: (): IdleTimer => ({ elapsed: Promise.resolve(), cancel() {} }),
  forbidden: (): IdleTimer => {
    throw new Error("no idle bound was wanted");
  },
};

const BOUNDS = { firstByteMs: 5000, idleMs: 1000 };

/** The bounds each read of one input was given, as a timer records them. */
function recordingTimer(waits: number[]) {
  return (ms: number): IdleTimer => (waits.push(ms), timers.never());
}

const WEB_SEARCH = JSON.stringify({ hook_event_name: "PreToolUse", tool_input: { query: "gitlab ci" } });

Deno.test("stdin: reassembled across chunk edges, even inside a multi-byte character", async () => {
  const text = JSON.stringify({ hook_event_name: "PreToolUse", prompt: "セッション🚀".repeat(50) });
  const bytes = new TextEncoder().encode(text);
  const chunks = Array.from(
    { length: Math.ceil(bytes.length / 7) },
    (_, i) => bytes.subarray(i * 7, i * 7 + 7),
  );
  const read = await readStdin(fakeStdin(chunks), BOUNDS, timers.never);
  assertEquals(read.ok && read.text, text);
  assertEquals(await readStdin(fakeStdin([]), BOUNDS, timers.never), { ok: true, text: "" });
});

Deno.test("stdin: a whole event is used at once, whether or not the writer ever closes stdin", async () => {
  for (const text of [WEB_SEARCH, `${WEB_SEARCH}\n`, `  ${WEB_SEARCH} \r\n\t`]) {
    const stdin = fakeStdin([text], "hang");
    const read = await readStdin(stdin, BOUNDS, timers.never);
    assertEquals(read, { ok: true, text, parsed: { value: JSON.parse(text) } });
    assertEquals(stdin.reads, 1);
  }
  // Cut where an object closes inside the event: not yet whole, so the reader goes on.
  const cut = WEB_SEARCH.indexOf("}") + 1;
  const split = await readStdin(
    fakeStdin([WEB_SEARCH.slice(0, cut), WEB_SEARCH.slice(cut)], "hang"),
    BOUNDS,
    timers.never,
  );
  assertEquals(split.ok && split.text, WEB_SEARCH);
});

Deno.test("stdin never closed: after the idle bound, what arrived is used when whole, else the read fails", async () => {
  const partial = await readStdin(fakeStdin([WEB_SEARCH.slice(0, 30)], "hang"), BOUNDS, timers.atOnce);
  assertEquals(partial, {
    ok: false,
    problem: "stdin was not closed, and the event stopped short for 1000 ms",
  });
  assertEquals(await readStdin(fakeStdin([], "hang"), BOUNDS, timers.atOnce), {
    ok: false,
    problem: "nothing came on stdin within 5000 ms, and it was not closed",
  });
  // A whole event that fills the read buffer exactly is not parsed when it arrives (a large event would be
  // parsed once per chunk), but when the idle bound comes.
  const large = JSON.stringify({ hook_event_name: "PostToolUse", pad: "x".repeat((1 << 16) - 100) });
  const padded = large + " ".repeat((1 << 16) - new TextEncoder().encode(large).length);
  let elapse: () => void = () => {};
  const timer = (): IdleTimer => ({ elapsed: new Promise<void>((resolve) => elapse = resolve), cancel() {} });
  const pending = readStdin(fakeStdin([padded], "hang"), BOUNDS, timer);
  await new Promise((resolve) => setTimeout(resolve, 0));
  elapse();
  assertEquals(await pending, { ok: true, text: padded, parsed: { value: JSON.parse(large) } });
});

Deno.test("stdin: the first byte may take longer than a pause in the middle of an event", async () => {
  const waits: number[] = [];
  const half = WEB_SEARCH.length >> 1;
  await readStdin(
    fakeStdin([WEB_SEARCH.slice(0, half), WEB_SEARCH.slice(half)]),
    BOUNDS,
    recordingTimer(waits),
  );
  assertEquals(waits, [5000, 1000]);
});

Deno.test("stdin from a terminal has no idle bound; a failed read is a problem, not an exception", async () => {
  assertEquals((await readStdin(fakeStdin([WEB_SEARCH]), null, timers.forbidden)).ok, true);
  const broken = { read: () => Promise.reject(new Deno.errors.BadResource("Bad resource ID")) };
  assertEquals(await readStdin(broken, BOUNDS, timers.never), {
    ok: false,
    problem: "cannot read stdin: Bad resource ID",
  });
});

Deno.test("stdin: an input past the size cap is refused at once, even one that never ends (< /dev/zero)", async () => {
  const endless = { read: (buffer: Uint8Array) => Promise.resolve(buffer.length) };
  assertEquals(await readStdin(endless, BOUNDS, timers.never), {
    ok: false,
    problem: `input on stdin is over ${MAX_EVENT_BYTES} bytes`,
  });
});

Deno.test("idleTimer: elapses after its time, and a cancelled one ends at once", async () => {
  // The wait keeps no event loop alive; in the hook, the read it races does, here this timer.
  const keepAlive = setTimeout(() => {}, 10_000);
  try {
    const started = performance.now();
    await idleTimer(30).elapsed;
    assertEquals(performance.now() - started >= 25, true);
    const cancelled = idleTimer(60_000);
    cancelled.cancel();
    await cancelled.elapsed;
  } finally {
    clearTimeout(keepAlive);
  }
});

Deno.test("events: fields of the wrong type are absent, unknown fields kept only in raw", () => {
  const parsed = parseHookEvent(JSON.stringify({
    hook_event_name: "PreToolUse",
    session_id: 7,
    cwd: "/p",
    tool_name: "WebSearch",
    tool_input: ["not", "an", "object"],
    tool_use_id: "toolu_1",
    future_field: { x: 1 },
  }));
  assertEquals(parsed.ok && { ...parsed.event, raw: undefined }, {
    hookEventName: "PreToolUse",
    sessionId: "",
    cwd: "/p",
    toolName: "WebSearch",
    toolInput: undefined,
    toolUseId: "toolu_1",
    raw: undefined,
  });
  assertEquals(parseHookEvent("{}"), { ok: false, problem: "input has no hook_event_name" });
  assertEquals(parseHookEvent("[]"), { ok: false, problem: "input on stdin is not a JSON object" });
  assertEquals(parseHookEvent("{"), { ok: false, problem: "input on stdin is not JSON" });
  assertEquals(parseHookEvent(" "), { ok: false, problem: "empty input on stdin" });
});

Deno.test("the deny output has exactly the fields Claude Code reads", () => {
  assertEquals(JSON.parse(denyOutput("why", "ctx")), {
    hookSpecificOutput: {
      hookEventName: "PreToolUse",
      permissionDecision: "deny",
      permissionDecisionReason: "why",
      additionalContext: "ctx",
    },
  });
});
