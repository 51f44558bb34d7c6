/**
 * What differs between the agents docsearch-hook runs under, in one place: the names each gives the events and
 * tools, and the shape of the answers each reads. The hook turns an agent's event into Claude Code's shape
 * (`canonicalEvent`) before anything else reads it, and its answer back into the agent's (`agentOutput`); install
 * writes registrations in each agent's vocabulary from the same tables. The agent is told by the event where the
 * shapes differ: Gemini CLI by its event names, Qwen Code by its tool names and the typed prompt only it sends.
 * Plain data and small functions: the hook runs this on every event.
 */
import type { Env } from "../paths.ts";
import type { Agent, EventName } from "./names.ts";
import type { HookOutput } from "./output.ts";

export interface Dialect {
  /** The agent's name, as its users know it. */
  readonly name: string;
  /** The agent's names for the events of the table that it calls otherwise. */
  readonly events: Readonly<Partial<Record<EventName, string>>>;
  /**
   * `[Claude Code's name, the agent's name]` for the tools the hook acts on or summarises; where one tool has
   * had several names, the first pair is the current one, which install writes into matchers.
   */
  readonly tools: readonly (readonly [string, string])[];
  /** What a registration's `timeout` counts. */
  readonly timeoutUnit: "s" | "ms";
  /** The name the model knows an MCP server's tool by. */
  readonly mcpTool: (server: string, tool: string) => string;
  /** A matcher's pattern for MCP tools (`^mcp__.*__fetch$`) in the agent's naming. */
  readonly mcpPattern: (pattern: string) => string;
  /**
   * The agent runs a handler only for the tool calls its `if` (a permission rule, `Bash(curl *)`) matches, so
   * that a Bash command that reads no page starts no hook process (Claude Code 2.1.85 and later).
   */
  readonly conditionalHandlers: boolean;
}

/** Claude Code keeps [A-Za-z0-9_-] of a server's or tool's name and writes anything else as `_`. */
const claudeMcpTool = (server: string, tool: string) =>
  `mcp__${server}__${tool}`.replace(/[^A-Za-z0-9_-]/g, "_");

/**
 * Gemini CLI's `mcp_<server>_<tool>`, sanitised for its API's function names (`[A-Za-z0-9_.:-]`, at most 63
 * characters, the middle cut out of a longer one).
 */
function geminiMcpTool(server: string, tool: string): string {
  const name = `mcp_${server}_${tool}`.replace(/[^A-Za-z0-9_.:-]/g, "_");
  return name.length > 63 ? `${name.slice(0, 30)}...${name.slice(-30)}` : name;
}

const CLAUDE: Dialect = {
  name: "Claude Code",
  events: {},
  tools: [],
  timeoutUnit: "s",
  mcpTool: claudeMcpTool,
  mcpPattern: (pattern) => pattern,
  conditionalHandlers: true,
};

export const DIALECTS: Readonly<Record<Agent, Dialect>> = {
  claude: CLAUDE,
  ripperdoc: { ...CLAUDE, name: "Ripperdoc", conditionalHandlers: false },
  gemini: {
    name: "Gemini CLI",
    events: {
      PreToolUse: "BeforeTool",
      PostToolUse: "AfterTool",
      UserPromptSubmit: "BeforeAgent",
      Stop: "AfterAgent",
      PreCompact: "PreCompress",
    },
    tools: [
      ["WebSearch", "google_web_search"],
      ["WebFetch", "web_fetch"],
      ["Bash", "run_shell_command"],
      ["Write", "write_file"],
      ["Edit", "replace"],
      ["Read", "read_file"],
      ["Glob", "glob"],
      ["Grep", "grep_search"],
      ["Grep", "search_file_content"],
      ["LS", "list_directory"],
      ["TodoWrite", "write_todos"],
    ],
    timeoutUnit: "ms",
    mcpTool: geminiMcpTool,
    mcpPattern: (pattern) => pattern.replaceAll("__", "_"),
    conditionalHandlers: false,
  },
  qwen: {
    name: "Qwen Code",
    events: {},
    tools: [
      ["WebSearch", "web_search"],
      ["WebFetch", "web_fetch"],
      ["Bash", "run_shell_command"],
      ["Write", "write_file"],
      ["Edit", "edit"],
      ["Edit", "replace"],
      ["Read", "read_file"],
      ["Glob", "glob"],
      ["Grep", "grep_search"],
      ["LS", "list_directory"],
      ["Agent", "agent"],
    ],
    // Qwen Code reads a timeout of 1000 or more as milliseconds both before and after it moved to seconds, and
    // every timeout install writes is at least 1 s: milliseconds mean the same to every version.
    timeoutUnit: "ms",
    mcpTool: claudeMcpTool,
    mcpPattern: (pattern) => pattern,
    conditionalHandlers: false,
  },
};

/** The agent's name for one of its tools: `Claude Code's name → the agent's`, or the name as it is. */
export function agentToolName(agent: Agent, tool: string): string {
  return DIALECTS[agent].tools.find(([ours]) => ours === tool)?.[1] ?? tool;
}

/**
 * A matcher of Claude Code's tool names (`WebSearch|WebFetch|^mcp__.*__fetch$`) in the agent's names, one
 * alternative at a time; `*` and the rest stay.
 */
export function agentMatcher(agent: Agent, matcher: string): string {
  return matcher.split("|").map((tool) =>
    /^\^?mcp__/.test(tool) ? DIALECTS[agent].mcpPattern(tool) : agentToolName(agent, tool)
  ).join("|");
}

/** The agent's name for a table event (`PreToolUse` → Gemini CLI's `BeforeTool`). */
export const agentEventName = (agent: Agent, event: EventName): string =>
  DIALECTS[agent].events[event] ?? event;

const reverse = (pairs: readonly (readonly [string, string])[]) =>
  new Map(pairs.map(([ours, theirs]) => [theirs, ours]));

const GEMINI_EVENTS = reverse(Object.entries(DIALECTS.gemini.events) as [string, string][]);
const GEMINI_TOOLS = reverse(DIALECTS.gemini.tools);
const QWEN_TOOLS = reverse(DIALECTS.qwen.tools);

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

const text = (value: unknown): string | undefined => typeof value === "string" ? value : undefined;

/**
 * The URLs in a web_fetch prompt, as Gemini CLI finds them: whitespace-separated words with `://` that parse as
 * http(s) URLs.
 */
export function promptUrls(prompt: string): string[] {
  return prompt.split(/\s+/).flatMap((word) => {
    if (!word.includes("://")) return [];
    try {
      const url = new URL(word);
      return url.protocol === "http:" || url.protocol === "https:" ? [url.href] : [];
    } catch {
      return [];
    }
  });
}

/**
 * Gemini CLI's web_fetch takes a prompt naming up to 20 URLs (or, in its experimental direct mode, one `url`).
 * The request is judged by its first URL, as the one the agent put first; the rest of the prompt, without the
 * URLs, is what it wants to read there.
 */
function geminiFetch(input: Record<string, unknown>): Record<string, unknown> {
  const prompt = text(input.prompt) ?? "";
  const url = text(input.url) ?? promptUrls(prompt)[0];
  const rest = prompt.split(/\s+/).filter((word) => !word.includes("://")).join(" ");
  return url === undefined ? input : { ...input, url, prompt: rest };
}

/**
 * A Gemini CLI tool result (`llmContent`, `returnDisplay`, an optional `error`) as Claude Code reports one: the
 * text the model got as `output`, and a failure as PostToolUseFailure with its `error`.
 */
function geminiResult(payload: Record<string, unknown>): Record<string, unknown> {
  const response = payload.tool_response;
  if (!isRecord(response)) return payload;
  const output = text(response.llmContent) ?? text(response.returnDisplay);
  const error = isRecord(response.error) ? text(response.error.message) : undefined;
  return {
    ...payload,
    ...(output === undefined ? {} : { tool_response: { output } }),
    ...(error === undefined ? {} : { hook_event_name: "PostToolUseFailure", error }),
  };
}

/** Gemini CLI names an MCP tool `mcp_<server>_<tool>`, which cannot be split; its `mcp_context` says which. */
function geminiTool(name: string, payload: Record<string, unknown>): string {
  const mcp = payload.mcp_context;
  const server = isRecord(mcp) ? text(mcp.server_name) : undefined;
  const tool = isRecord(mcp) ? text(mcp.tool_name) : undefined;
  if (server !== undefined && tool !== undefined) return claudeMcpTool(server, tool);
  return GEMINI_TOOLS.get(name) ?? name;
}

/**
 * Run headless, Gemini CLI puts the SessionStart context in front of the first prompt, in `<hook_context>` tags:
 * the prompt is what follows (the prompt's hints would otherwise answer the session's note, naming every database).
 */
const HOOK_CONTEXT = /^(?:\s*<hook_context>[\s\S]*?<\/hook_context>)+\s*/;

export interface CanonicalEvent {
  /** Set where the event's shape tells the agent; Claude Code's shape is shared by several. */
  agent?: Agent;
  /** The payload in Claude Code's shape: event and tool names, and the fields the hook reads. */
  payload: Record<string, unknown>;
}

/** An agent's event in Claude Code's shape; one already in that shape comes back as it is. */
export function canonicalEvent(raw: Record<string, unknown>): CanonicalEvent {
  const name = text(raw.hook_event_name) ?? "";
  const tool = text(raw.tool_name);
  const event = GEMINI_EVENTS.get(name);
  if (event !== undefined) {
    let payload: Record<string, unknown> = { ...raw, hook_event_name: event };
    if (tool !== undefined) {
      const canonical = geminiTool(tool, raw);
      payload.tool_name = canonical;
      if (canonical === "WebFetch" && isRecord(raw.tool_input)) {
        payload.tool_input = geminiFetch(raw.tool_input);
      }
    }
    if (event === "PostToolUse") payload = geminiResult(payload);
    const prompt = text(raw.prompt);
    if (event === "UserPromptSubmit" && prompt !== undefined) {
      payload.prompt = prompt.replace(HOOK_CONTEXT, "");
    }
    return { agent: "gemini", payload };
  }
  const qwen = tool === undefined ? undefined : QWEN_TOOLS.get(tool);
  if (qwen !== undefined) return { agent: "qwen", payload: { ...raw, tool_name: qwen } };
  // Qwen Code's `prompt` can be a tool result it sends on; what the user typed, when it knows, is this.
  const submitted = text(raw.submitted_prompt);
  if (submitted !== undefined) return { agent: "qwen", payload: { ...raw, prompt: submitted } };
  return { payload: raw };
}

/**
 * Which agent runs the hook: the one the event's shape tells, else the one the variables it sets for its hooks
 * tell (an event both share, such as SessionStart, still needs the agent's name for our search tool). Qwen Code
 * sets Gemini CLI's and Claude Code's too, Gemini CLI and Ripperdoc Claude Code's, for hooks written for those:
 * the most specific goes first.
 */
export function runningAgent(env: Env, agent?: Agent): Agent | undefined {
  if (agent !== undefined) return agent;
  if (env("QWEN_PROJECT_DIR")) return "qwen";
  if (env("GEMINI_PROJECT_DIR")) return "gemini";
  if (env("RIPPERDOC_PROJECT_DIR") || env("RIPPERDOC_SESSION_ID")) return "ripperdoc";
  if (env("CLAUDE_PROJECT_DIR") || env("CLAUDECODE")) return "claude";
  return undefined;
}

/**
 * The hook's answer (written in Claude Code's shape) as the agent reads it. Gemini CLI reads a denial as a
 * top-level `decision` and `reason` (the reason goes to the model, so it carries the whole guidance), and context
 * under its own event names; Claude Code's shape is the one the others read.
 */
export function agentOutput(agent: Agent | undefined, output: HookOutput): HookOutput {
  if (agent !== "gemini" || output.stdout === undefined) return output;
  const answer = JSON.parse(output.stdout).hookSpecificOutput;
  if (answer.permissionDecision === "deny") {
    return {
      ...output,
      stdout: JSON.stringify({ decision: "deny", reason: answer.permissionDecisionReason }),
    };
  }
  const hookEventName = agentEventName(agent, answer.hookEventName);
  return {
    ...output,
    stdout: JSON.stringify({
      hookSpecificOutput: { hookEventName, additionalContext: answer.additionalContext },
    }),
  };
}
