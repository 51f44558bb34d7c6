/**
 * A scripted stand-in for the Anthropic Messages API, enough for `claude -p` to run a session offline: the
 * model makes its scripted tool calls one per turn (by default one Bash command, so the session has a tool
 * call to record), then answers in text. Streaming (SSE) and plain JSON, as the request asks.
 *
 * Claude Code (2.1.2xx and later) defers most tools: the first request lists them by name only, in a
 * system reminder, and a direct call fails until `ToolSearch` with `select:<name>` has loaded the tool. A
 * script for such a tool therefore calls ToolSearch first (see `loading`), as a real model must.
 */

/** The Bash command the scripted model runs. */
export const TOOL_COMMAND = "echo docsearch-headless-check";

/** The one tool call the scripted model makes. */
export interface ToolCall {
  name: string;
  input: Record<string, unknown>;
}

const BASH_CALL: ToolCall = { name: "Bash", input: { command: TOOL_COMMAND, description: "Print a marker" } };

interface Block {
  type: "text" | "tool_use";
  text?: string;
  id?: string;
  name?: string;
  input?: Record<string, unknown>;
}

export interface MessagesRequest {
  model?: string;
  stream?: boolean;
  tools?: { name?: string }[];
  messages?: { role: string; content: string | { type: string; content?: unknown }[] }[];
}

/** The calls that load a deferred tool through ToolSearch and then make `call`. */
export const loading = (call: ToolCall): ToolCall[] => [
  { name: "ToolSearch", input: { query: `select:${call.name}` } },
  call,
];

/** Whether the request names the tool at all: in its tool list, or as a deferred tool in its messages. */
function known(request: MessagesRequest, name: string): boolean {
  if ((request.tools ?? []).some((tool) => tool.name === name)) return true;
  return JSON.stringify(request.messages ?? []).includes(name);
}

/**
 * The model's answer: the next scripted call, counted by the tool results the conversation holds, while the
 * request names that tool; then text.
 */
function answer(
  request: MessagesRequest,
  calls: readonly ToolCall[],
): { content: Block[]; stopReason: string } {
  const results =
    (request.messages ?? []).filter((message) =>
      Array.isArray(message.content) && message.content.some((block) => block.type === "tool_result")
    ).length;
  const call = calls[results];
  if (call !== undefined && known(request, call.name)) {
    return {
      content: [{
        type: "tool_use",
        id: `toolu_${crypto.randomUUID().replaceAll("-", "")}`,
        name: call.name,
        input: call.input,
      }],
      stopReason: "tool_use",
    };
  }
  return { content: [{ type: "text", text: "Done." }], stopReason: "end_turn" };
}

const USAGE = {
  input_tokens: 10,
  output_tokens: 5,
  cache_creation_input_tokens: 0,
  cache_read_input_tokens: 0,
};

function message(model: string, content: Block[], stopReason: string | null) {
  return {
    id: `msg_${crypto.randomUUID().replaceAll("-", "")}`,
    type: "message",
    role: "assistant",
    model,
    content,
    stop_reason: stopReason,
    stop_sequence: null,
    usage: USAGE,
  };
}

function sse(model: string, content: Block[], stopReason: string): string {
  const events: [string, unknown][] = [["message_start", { message: message(model, [], null) }]];
  content.forEach((block, index) => {
    const start = block.type === "text" ? { type: "text", text: "" } : { ...block, input: {} };
    const delta = block.type === "text"
      ? { type: "text_delta", text: block.text }
      : { type: "input_json_delta", partial_json: JSON.stringify(block.input) };
    events.push(["content_block_start", { index, content_block: start }]);
    events.push(["content_block_delta", { index, delta }]);
    events.push(["content_block_stop", { index }]);
  });
  events.push(["message_delta", {
    delta: { stop_reason: stopReason, stop_sequence: null },
    usage: { output_tokens: USAGE.output_tokens },
  }]);
  events.push(["message_stop", {}]);
  return events.map(([type, data]) =>
    `event: ${type}\ndata: ${JSON.stringify({ type, ...data as object })}\n\n`
  )
    .join("");
}

async function handle(
  request: Request,
  delayMs: number,
  calls: readonly ToolCall[],
  requests: MessagesRequest[],
): Promise<Response> {
  const path = new URL(request.url).pathname;
  if (request.method !== "POST" || path !== "/v1/messages") return Response.json({}, { status: 404 });
  const body = await request.json() as MessagesRequest;
  requests.push(body);
  await new Promise((resolve) => setTimeout(resolve, delayMs));
  const model = body.model ?? "claude-fake";
  const { content, stopReason } = answer(body, calls);
  if (!body.stream) return Response.json(message(model, content, stopReason));
  return new Response(sse(model, content, stopReason), {
    headers: { "content-type": "text/event-stream", "cache-control": "no-cache" },
  });
}

/**
 * Serves on a free port of 127.0.0.1, answering each request after `delayMs` (a real model takes a second or
 * more, time in which hooks still running in the background finish) with `calls` as the tool calls, one a
 * turn; the base URL, the requests so far, and how to stop it.
 */
export function serveFakeApi(
  delayMs = 0,
  calls: ToolCall | readonly ToolCall[] = BASH_CALL,
): { baseUrl: string; requests: MessagesRequest[]; close: () => Promise<void> } {
  const script = Array.isArray(calls) ? calls : [calls as ToolCall];
  const requests: MessagesRequest[] = [];
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    (request) => handle(request, delayMs, script, requests),
  );
  return { baseUrl: `http://127.0.0.1:${server.addr.port}`, requests, close: () => server.shutdown() };
}
