/**
 * The agent events docsearch-hook knows, in one table: what the hook answers, what it captures, whether the
 * agent waits for it, and how install registers it for each agent. The hook, capture, install, doctor, stats
 * and the tests all read it rather than keep lists of their own. Plain data and no imports: the hook reads it
 * on every event.
 */

export const AGENTS = ["claude", "ripperdoc"] as const;
export type Agent = typeof AGENTS[number];

/**
 * Whether the agent can run a hook in the background (Claude Code's `"async": true`); Ripperdoc runs every
 * hook in turn.
 */
export const BACKGROUND_HOOKS: Readonly<Record<Agent, boolean>> = { claude: true, ripperdoc: false };

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
    registered: { matcher: "WebSearch|WebFetch", timeout: 10 },
  },
  UserPromptSubmit: { answer: "context", captured: false, sync: true, registered: { timeout: 10 } },
  SessionStart: { answer: "context", captured: true, sync: true, registered: { timeout: 10 } },
  PostToolUse: { captured: true, sync: false, registered: { matcher: "*", timeout: 30 } },
  PostToolUseFailure: {
    captured: true,
    sync: false,
    registered: { matcher: "*", timeout: 30, agents: ["claude"] },
  },
  Stop: { captured: true, sync: true, registered: { timeout: 10 } },
  SubagentStop: { captured: true, sync: true, registered: { timeout: 10 } },
  PreCompact: { captured: true, sync: false, registered: { timeout: 30 } },
  SessionEnd: { captured: true, sync: true, registered: { timeout: 1 } },
  // An agent runs a hook in turn unless told otherwise.
  Notification: { captured: false, sync: true },
} as const satisfies Record<string, EventSpec>;

export type EventName = keyof typeof EVENTS;

/** The event's row; undefined for an event the hook does not know (nor "toString" and the like). */
export function eventSpec(name: string): EventSpec | undefined {
  return Object.hasOwn(EVENTS, name) ? EVENTS[name as EventName] : undefined;
}

/** One entry install writes for an agent. */
export interface Registration {
  event: EventName;
  matcher?: string;
  timeout: number;
  /** Claude Code's `"async": true`: the agent does not wait. */
  async: boolean;
}

export function registrationsFor(agent: Agent): Registration[] {
  return Object.entries(EVENTS).flatMap(([event, spec]: [string, EventSpec]) => {
    const registered = spec.registered;
    if (registered === undefined || !(registered.agents ?? AGENTS).includes(agent)) return [];
    return [{
      event: event as EventName,
      ...(registered.matcher === undefined ? {} : { matcher: registered.matcher }),
      timeout: registered.timeout,
      async: !spec.sync && BACKGROUND_HOOKS[agent],
    }];
  });
}
