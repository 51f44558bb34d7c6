/**
 * The names the protocol's two tables are keyed by: the agents docsearch-hook runs under, and the events it
 * knows, by Claude Code's names. The event table (events.ts) says what each event is for and how install
 * registers it in each agent's words, which the agents' dialects (agents.ts) give by the table's event names:
 * both take the names from here, so that neither has to import the other for them.
 */

export const AGENTS = ["claude", "ripperdoc", "gemini", "qwen"] as const;
export type Agent = typeof AGENTS[number];

/** The event table's rows (events.ts): it must have one for each of these, and no other. */
export type EventName =
  | "PreToolUse"
  | "UserPromptSubmit"
  | "SessionStart"
  | "PostToolUse"
  | "PostToolUseFailure"
  | "Stop"
  | "SubagentStop"
  | "PreCompact"
  | "SessionEnd"
  | "Notification";
