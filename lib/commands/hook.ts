/**
 * `docsearch-hook hook`: one agent event in, at most one JSON object out, always exit 0 (SPEC §2).
 * Everything here is on the hot path: heavy modules (zod, SQLite) are imported only when an event needs them.
 */
import { print, printError } from "../cli/io.ts";
import { configLocation } from "../config/layers.ts";
import { loadConfig } from "../config/load.ts";
import type { Config } from "../config/types.ts";
import { type Env, type OS, processEnv, stateDir } from "../paths.ts";
import { type HookEvent, parseHookEvent, readStdinSync, type StdinRead } from "../protocol/event.ts";
import { ALLOW, type HookOutput } from "../protocol/output.ts";
import { decideRedirect, type RedirectState } from "../redirect/decide.ts";
import { webRequestFrom } from "../redirect/request.ts";

export interface HookDeps {
  env: Env;
  os: OS;
  now: () => number;
  openState: (dir: string) => Promise<RedirectState>;
}

export const processDeps: HookDeps = {
  env: processEnv,
  os: Deno.build.os,
  now: Date.now,
  openState: async (dir) => (await import("../state/denials.ts")).openDenialStore(dir),
};

const KILL_SWITCH_ON = new Set(["1", "true", "yes", "on"]);

/** `DOCSEARCH_HOOK_DISABLED=1` (or true/yes/on) turns every hook action into a silent allow. */
export function killSwitchOn(env: Env): boolean {
  return KILL_SWITCH_ON.has(env("DOCSEARCH_HOOK_DISABLED")?.trim().toLowerCase() ?? "");
}

function configNote(config: Config): string | undefined {
  const [first, ...rest] = config.problems;
  if (first === undefined) return undefined;
  return rest.length === 0
    ? first
    : `${first} (and ${rest.length} more: run \`docsearch-hook check\` to see all)`;
}

async function preToolUse(
  event: HookEvent,
  configFlag: string | undefined,
  deps: HookDeps,
): Promise<HookOutput> {
  const request = webRequestFrom(event.toolName, event.toolInput);
  if (request === undefined) return ALLOW;
  const now = deps.now();
  const dir = stateDir(deps.env, deps.os);
  const location = configLocation(configFlag, deps.env, deps.os, event.cwd);
  const config = await loadConfig(location, dir, deps.os, now);
  const decision = await decideRedirect(
    request,
    event.sessionId,
    config,
    () =>
      dir === undefined
        ? Promise.reject(new Error("no state directory (set DOCSEARCH_HOME)"))
        : deps.openState(dir),
    now,
  );
  const notes = [configNote(config)];
  if (decision.action === "deny" && decision.stateProblem !== undefined) {
    notes.push(`state unavailable, denial not remembered: ${decision.stateProblem}`);
  }
  // Paths and messages can carry control characters (a NUL in a cwd); stderr gets one clean line.
  const note = notes.filter(Boolean).join("; ").replace(
    // deno-lint-ignore no-control-regex -- control characters are what is being escaped
    /[\u0000-\u001f\u007f]/g,
    (c) => JSON.stringify(c).slice(1, -1),
  );
  return {
    stdout: decision.action === "deny" ? decision.output : undefined,
    stderr: note ? `docsearch-hook: ${note}` : undefined,
  };
}

/** The whole hook as a function of its input; throws only on bugs (main.ts then fails open). */
export async function hookOutput(
  input: StdinRead,
  configFlag: string | undefined,
  deps: HookDeps,
): Promise<HookOutput> {
  if (killSwitchOn(deps.env)) return ALLOW;
  if (!input.ok) return { stderr: `docsearch-hook: ${input.problem}; allowing` };
  const parsed = parseHookEvent(input.text);
  if (!parsed.ok) return { stderr: `docsearch-hook: ${parsed.problem}; allowing` };
  switch (parsed.event.hookEventName) {
    case "PreToolUse":
      return await preToolUse(parsed.event, configFlag, deps);
    default:
      return ALLOW;
  }
}

export async function run(values: { config?: string }): Promise<number> {
  if (Deno.stdin.isTerminal()) {
    printError("docsearch-hook hook: reading one hook event (JSON) from stdin; end with Ctrl-D");
  }
  const output = await hookOutput(readStdinSync(), values.config, processDeps);
  if (output.stdout !== undefined) print(output.stdout);
  if (output.stderr !== undefined) printError(output.stderr);
  return 0;
}
