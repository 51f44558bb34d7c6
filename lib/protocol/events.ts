/**
 * The agent events docsearch-hook knows, in one table: what the hook answers, what it captures, whether the
 * agent waits for it, and how install registers it for each agent. The hook, capture, install, doctor, stats
 * and the tests all read it rather than keep lists of their own. Events go by Claude Code's names; how other
 * agents name them is in agents.ts. Plain data but for that: the hook reads it on every event.
 */
import { agentEventName, agentMatcher, DIALECTS } from "./agents.ts";
import { type Agent, AGENTS, type EventName } from "./names.ts";
import { SHELL_FETCHERS } from "../redirect/shell_fetch.ts";

// The table's readers name the agents by these, as its rows' `agents` and BACKGROUND_HOOKS do.
export { type Agent, AGENTS };

/**
 * Whether the agent can run a hook in the background (`"async": true`); Ripperdoc and Gemini CLI run every
 * hook in turn.
 */
export const BACKGROUND_HOOKS: Readonly<Record<Agent, boolean>> = {
  claude: true,
  ripperdoc: false,
  gemini: false,
  qwen: true,
};

export interface EventSpec {
  /**
   * What the agent gets back: a permission decision (PreToolUse on a web tool) or context for the model.
   * Absent: nothing, the event is only recorded.
   */
  readonly answer?: "decision" | "context";
  /**
   * Whether the event goes through capture to become an observation; the rest only touch the session (a web
   * tool's PreToolUse is recorded with the redirect's decision instead).
   */
  readonly captured: boolean;
  /**
   * Whether the agent waits for the hook. Not for capture after which the agent always has more to do (a
   * model call follows a tool call or a compaction): that runs in the background where the agent can.
   */
  readonly sync: boolean;
  /** How install registers it; absent: handled when a user registers it by hand, not registered. */
  readonly registered?: {
    readonly matcher?: string;
    /** Seconds: only for a hook that hangs, since the hook gives up on a busy state database by itself. */
    readonly timeout: number;
    /** The agents that have the event; absent: every agent. */
    readonly agents?: readonly Agent[];
  };
}

/**
 * The page-reading tools of the common fetch and browser MCP servers, by the tool's own name (a user names the
 * server, and a plugin's are `mcp__plugin_<plugin>_<server>__…`): the reference fetch server's `fetch`,
 * fetch-mcp's `fetch_html`/`fetch_markdown`/`fetch_txt`, Playwright's `browser_navigate`, Puppeteer's
 * `puppeteer_navigate`, Chrome DevTools' `navigate_page` and `new_page`, Firecrawl's `firecrawl_scrape`. The
 * default `fetch_tools` (config/types.ts) and the PreToolUse matcher below are both made from this one list.
 */
export const MCP_PAGE_TOOLS: readonly string[] = [
  "fetch",
  "fetch_html",
  "fetch_markdown",
  "fetch_txt",
  "browser_navigate",
  "puppeteer_navigate",
  "navigate_page",
  "new_page",
  "firecrawl_scrape",
];
/**
 * The tools PreToolUse acts on: the web tools, Bash (the hook passes a command that reads no web page before it
 * reads its config) and the MCP page tools under any server name. One alternative per tool, so that an agent's
 * own names can replace Claude Code's (agents.ts).
 */
const PAGE_TOOLS = ["WebSearch", "WebFetch", "Bash", ...MCP_PAGE_TOOLS.map((tool) => `^mcp__.*__${tool}$`)]
  .join("|");

/**
 * Where the agent runs a handler only for the calls its `if` matches (Dialect.conditionalHandlers), Bash gets
 * an entry of its own, with one handler per program whose page reads the redirect knows: a command that starts
 * none of them starts no hook process, and one that starts two starts two (seen in Claude Code 2.1.332, where
 * `curl a && wget b` ran both handlers). The handlers run one command, which a Claude Code that ignores `if`
 * (before 2.1.85) runs once: it runs identical hook commands once.
 */
export const BASH_CONDITIONS: readonly string[] = SHELL_FETCHERS.map((name) => `Bash(${name} *)`);

/**
 * In the order install writes them. The answers are waited for, so their timeouts are short. The ends of a
 * turn, a subagent and the session are waited for too, tens of milliseconds each: `claude -p` kills background
 * hooks still running when it exits, so headless sessions would lose their end. SessionEnd's timeout stays
 * under the 1.5 s Claude Code gives all SessionEnd hooks together: a longer one raises that budget, which every
 * exit would then wait out when the hook is stuck.
 */
export const EVENTS = {
  PreToolUse: {
    answer: "decision",
    captured: false,
    sync: true,
    registered: { matcher: PAGE_TOOLS, timeout: 10 },
  },
  UserPromptSubmit: { answer: "context", captured: false, sync: true, registered: { timeout: 10 } },
  SessionStart: { answer: "context", captured: true, sync: true, registered: { timeout: 10 } },
  PostToolUse: { captured: true, sync: false, registered: { matcher: "*", timeout: 30 } },
  // Ripperdoc has none; Gemini CLI reports a failed tool in its AfterTool, which the hook reads as this event.
  PostToolUseFailure: {
    captured: true,
    sync: false,
    registered: { matcher: "*", timeout: 30, agents: ["claude", "qwen"] },
  },
  Stop: { captured: true, sync: true, registered: { timeout: 10 } },
  SubagentStop: {
    captured: true,
    sync: true,
    registered: { timeout: 10, agents: ["claude", "ripperdoc", "qwen"] },
  },
  // Gemini CLI's PreCompress comes before every turn, whether it compresses or not.
  PreCompact: {
    captured: true,
    sync: false,
    registered: { timeout: 30, agents: ["claude", "ripperdoc", "qwen"] },
  },
  SessionEnd: { captured: true, sync: true, registered: { timeout: 1 } },
  // An agent runs a hook in turn unless told otherwise.
  Notification: { captured: false, sync: true },
} as const satisfies Record<EventName, EventSpec>;

/** The event's row; undefined for an event the hook does not know (nor "toString" and the like). */
export function eventSpec(name: string): EventSpec | undefined {
  return Object.hasOwn(EVENTS, name) ? EVENTS[name as EventName] : undefined;
}

/** One entry install writes for an agent. */
export interface Registration {
  event: EventName;
  /** Claude Code's tool names. */
  matcher?: string;
  /** Seconds. */
  timeout: number;
  /** `"async": true`: the agent does not wait. */
  async: boolean;
  /**
   * The same in the agent's vocabulary: its names for the event and the tools, its unit for the timeout, and
   * the `if` of each of its handlers (absent: one handler, run for every call the matcher matches).
   */
  entry: { event: string; matcher?: string; timeout: number; conditions?: readonly string[] };
}

/** PreToolUse split where the agent runs handlers by their `if`: the other page tools, and Bash's page reads. */
function matchersOf(
  agent: Agent,
  event: EventName,
  matcher: string | undefined,
): { matcher?: string; conditions?: readonly string[] }[] {
  if (event !== "PreToolUse" || !DIALECTS[agent].conditionalHandlers) return [{ matcher }];
  return [
    { matcher: matcher!.split("|").filter((tool) => tool !== "Bash").join("|") },
    { matcher: "Bash", conditions: BASH_CONDITIONS },
  ];
}

export function registrationsFor(agent: Agent): Registration[] {
  const perSecond = DIALECTS[agent].timeoutUnit === "ms" ? 1000 : 1;
  return Object.entries(EVENTS).flatMap(([name, spec]: [string, EventSpec]) => {
    const registered = spec.registered;
    if (registered === undefined || !(registered.agents ?? AGENTS).includes(agent)) return [];
    const event = name as EventName;
    return matchersOf(agent, event, registered.matcher).map(({ matcher, conditions }) => ({
      event,
      ...(matcher === undefined ? {} : { matcher }),
      timeout: registered.timeout,
      async: !spec.sync && BACKGROUND_HOOKS[agent],
      entry: {
        event: agentEventName(agent, event),
        ...(matcher === undefined ? {} : { matcher: agentMatcher(agent, matcher) }),
        timeout: registered.timeout * perSecond,
        ...(conditions === undefined ? {} : { conditions }),
      },
    }));
  });
}
