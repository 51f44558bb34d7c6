import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { MAX_EVENT_BYTES, parseHookEvent, readChunksSync } from "../lib/protocol/event.ts";
import { denyOutput } from "../lib/protocol/output.ts";

/** A stdin that hands out the given bytes in chunks of at most `size`. */
function fakeStdin(bytes: Uint8Array, size: number) {
  let at = 0;
  return {
    readSync(buffer: Uint8Array): number | null {
      if (at >= bytes.length) return null;
      const n = Math.min(size, buffer.length, bytes.length - at);
      buffer.set(bytes.subarray(at, at + n));
      at += n;
      return n;
    },
  };
}

Deno.test("chunked stdin: reassembled across chunk edges, even inside a multi-byte character", () => {
  const text = JSON.stringify({ hook_event_name: "PreToolUse", prompt: "セッション🚀".repeat(50) });
  assertEquals(readChunksSync(fakeStdin(new TextEncoder().encode(text), 7)), { ok: true, text });
  assertEquals(readChunksSync(fakeStdin(new Uint8Array(), 7)), { ok: true, text: "" });
});

Deno.test("chunked stdin: an oversized input is drained and refused", () => {
  let calls = 0;
  const endless = {
    readSync(buffer: Uint8Array): number | null {
      return calls++ * buffer.length > MAX_EVENT_BYTES ? null : buffer.length;
    },
  };
  assertEquals(readChunksSync(endless), {
    ok: false,
    problem: `input on stdin is over ${MAX_EVENT_BYTES} bytes`,
  });
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
