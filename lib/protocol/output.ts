/**
 * What the hook prints. Allow is exit 0 with nothing on stdout: printing
 * `permissionDecision: "allow"` would bypass the user's own permission rules.
 */

/** One hook run's effect: stdout (absent = allow / no-op) and at most one short stderr line. */
export interface HookOutput {
  stdout?: string;
  stderr?: string;
}

export const ALLOW: HookOutput = {};

/** Claude Code shows `permissionDecisionReason` to the model on deny, so it must carry the whole guidance. */
export function denyOutput(reason: string, additionalContext: string): string {
  return JSON.stringify({
    hookSpecificOutput: {
      hookEventName: "PreToolUse",
      permissionDecision: "deny",
      permissionDecisionReason: reason,
      additionalContext,
    },
  });
}

/** Context injection (SessionStart, UserPromptSubmit): the agent adds `additionalContext` to what it knows. */
export function contextOutput(hookEventName: string, additionalContext: string): string {
  return JSON.stringify({ hookSpecificOutput: { hookEventName, additionalContext } });
}
