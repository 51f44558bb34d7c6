/**
 * A scripted stand-in for the Anthropic Messages API, enough for `claude -p` to run a session offline: the
 * first turn of a conversation asks for one tool call (by default a Bash command, so the session has a tool
 * call to record), the turn after the tool's result answers in text. Streaming (SSE) and plain JSON, as the
 * request asks.
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

/** The model's answer: the tool call while the conversation has none yet and the tool is offered, then text. */
function answer(request: MessagesRequest, call: ToolCall): { content: Block[]; stopReason: string } {
  const hasToolResult = (request.messages ?? []).some((message) =>
    Array.isArray(message.content) && message.content.some((block) => block.type === "tool_result")
  );
  const offered = (request.tools ?? []).some((tool) => tool.name === call.name);
  if (offered && !hasToolResult) {
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
  call: ToolCall,
  requests: MessagesRequest[],
): Promise<Response> {
  const path = new URL(request.url).pathname;
  if (request.method !== "POST" || path !== "/v1/messages") return Response.json({}, { status: 404 });
  const body = await request.json() as MessagesRequest;
  requests.push(body);
  await new Promise((resolve) => setTimeout(resolve, delayMs));
  const model = body.model ?? "claude-fake";
  const { content, stopReason } = answer(body, call);
  if (!body.stream) return Response.json(message(model, content, stopReason));
  return new Response(sse(model, content, stopReason), {
    headers: { "content-type": "text/event-stream", "cache-control": "no-cache" },
  });
}

/**
 * Serves on a free port of 127.0.0.1, answering each request after `delayMs` (a real model takes a second or
 * more, time in which hooks still running in the background finish) with `call` as the tool call; the base
 * URL, the requests so far, and how to stop it.
 */
export function serveFakeApi(
  delayMs = 0,
  call: ToolCall = BASH_CALL,
): { baseUrl: string; requests: MessagesRequest[]; close: () => Promise<void> } {
  const requests: MessagesRequest[] = [];
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    (request) => handle(request, delayMs, call, requests),
  );
  return { baseUrl: `http://127.0.0.1:${server.addr.port}`, requests, close: () => server.shutdown() };
}
