/**
 * `docsearch-hook hook`: one agent event in, at most one JSON object out, always exit 0.
 * Everything here is on the hot path: heavy modules (zod, SQLite) are imported only when an event needs them.
 * In the built artifact, `node:sqlite` is imported with the rest of the one file: a Bash command that reads no
 * web page, the one event that needs no state, measured no slower without it (about 0.2 ms, within the noise),
 * while a separate file for the state cost every event that needs it about 1 ms.
 */
import { messageOf } from "../errors.ts";
import { hash53 } from "../hash.ts";
import { PROGRAM_ROOT, programModule } from "../program.ts";
import { answeringDatabases, builtInIndex, indexesUnder } from "../docs/built_in.ts";
import { changedLockfile } from "../project/stamp.ts";
import { createRedactor } from "../capture/redact.ts";
import { promptContext, sessionStartContext } from "../context/inject.ts";
import { eventRecord } from "../capture/record.ts";
import { escapeControl } from "../cli/io.ts";
import type { CommandContext } from "../cli/context.ts";
import { configLocation, projectDirectory } from "../config/layers.ts";
import { loadConfig } from "../config/load.ts";
import type { Config } from "../config/types.ts";
import { type Env, homeDir, type OS, stateDir } from "../paths.ts";
import { matchRequest } from "../match/match.ts";
import {
  type HookEvent,
  parseHookEvent,
  readStdin,
  STDIN_BOUNDS,
  type StdinRead,
  stringField,
} from "../protocol/event.ts";
import { type EventSpec, eventSpec } from "../protocol/events.ts";
import { agentOutput, runningAgent } from "../protocol/agents.ts";
import { ALLOW, contextOutput, type HookOutput } from "../protocol/output.ts";
import {
  type Circumstances,
  decideRedirect,
  type RedirectDecision,
  type RedirectState,
  type StateAccess,
  takesRequest,
} from "../redirect/decide.ts";
import { type WebRequest, webRequestFrom } from "../redirect/request.ts";
import type { OpenOptions } from "../state/db.ts";
import type { EventRecord } from "../state/store.ts";
import {
  killSwitchOn,
  NO_SWITCHES,
  type SessionSwitches,
  type SessionView,
  sessionView,
} from "../switches/switches.ts";

/** The state as the hook uses it (see StateStore). Every method throws when the state is unavailable. */
export interface HookState extends RedirectState, Disposable {
  write<T>(fn: () => T): T;
  switchesOf(sessionId: string): SessionSwitches;
  record(entry: EventRecord): void;
}

export interface HookDeps {
  env: Env;
  os: OS;
  now: () => number;
  /** Milliseconds since the process started: the latency the hook records of itself. */
  elapsed: () => number;
  openState: (dir: string, options: OpenOptions) => Promise<HookState>;
  /** Whether the built-in index of that name exists: a database whose index is missing is passed over. */
  indexExists: (name: string) => boolean;
  /** The project's lockfile when it changed since its dependencies' docs were indexed (asked at SessionStart). */
  changedLockfile: (project: string) => string | undefined;
  /**
   * What a decision on `request` may need to read: the answers of the built-in indexes it matches, and the
   * tools of the subagent the event comes from. Nothing is read for a request that needs neither.
   */
  redirectAids: (request: WebRequest, event: HookEvent, config: Config) => Promise<RedirectAids>;
  /**
   * What tells this registration of the hook from another that the agent runs for the same event (settings
   * and the plugin, or two settings files naming different programs): the plugin it runs for, the program and
   * its modules. Claude Code runs two identical hook commands once, so identical commands need not differ.
   */
  registration: string;
}

/** What redirectAids gives: none, or the answers and tools, with the indexes to close afterwards. */
export type RedirectAids = Pick<Circumstances, "answer" | "hasTool"> & Disposable;

/** A request that needs no reading: no built-in index matched it, and no subagent asks. */
export const NO_AIDS: RedirectAids = { [Symbol.dispose]: () => {} };

type AidsModule = typeof import("../answer/hook_answer.ts");

/** The answers of the built-in indexes under `dir`, and a subagent's tools, read only when a request needs them. */
async function readRedirectAids(
  request: WebRequest,
  event: HookEvent,
  config: Config,
  { env, os }: { env: Env; os: OS },
  dir: string | undefined,
): Promise<RedirectAids> {
  const agentType = stringField(event.raw, "agent_type");
  const builtIn = dir !== undefined &&
    matchRequest(request, config.databases).some((match) => builtInIndex(match.database) !== undefined);
  if (!builtIn && agentType === undefined) return NO_AIDS;
  // Loaded by a computed specifier: SQLite's index reading and the answer's writing stay off every other event.
  const aids = await import(programModule("lib/answer/hook_answer")) as AidsModule;
  const answer = builtIn ? aids.indexAnswers(request, os, dir) : undefined;
  return {
    answer,
    hasTool: agentType === undefined ? undefined : aids.subagentTools(
      agentType,
      { project: projectDirectory(env, event.cwd), home: homeDir(env, os) },
      os,
    ),
    [Symbol.dispose]: () => answer?.[Symbol.dispose](),
  };
}

/**
 * The hook's dependencies in the context it runs in: its environment, clocks, state directory and OS.
 * `exiting`: the process ends once the event is answered (the hook command), so its connection to the state is
 * left open (see StateStore); a caller that goes on (doctor's self-test) closes it.
 */
export function hookDeps(
  { env, os, now, elapsed, execPath, stateDir: dir }: CommandContext,
  { exiting = false } = {},
): HookDeps {
  return {
    env,
    os,
    now,
    elapsed,
    registration: [env("DOCSEARCH_PLUGIN") ?? "", execPath, PROGRAM_ROOT].join("\n"),
    indexExists: indexesUnder(os, dir),
    changedLockfile: (project) => dir === undefined ? undefined : changedLockfile(os, dir, project),
    redirectAids: (request, event, config) => readRedirectAids(request, event, config, { env, os }, dir),
    openState: async (at, options) =>
      (await import("../state/store.ts")).openStateStore(at, os, options, { leaveOpen: exiting }),
  };
}

/**
 * How long the hook waits for another process's lock on the state before it gives up on this event: short
 * where the agent waits for the hook, longer for capture it runs in the background, so that a burst of
 * parallel tool calls on a busy machine queues up instead of losing events.
 */
const WAIT_MS = { sync: 500, background: 3000 };

function configNote(config: Config): string | undefined {
  const [first, ...rest] = config.problems;
  if (first === undefined) return undefined;
  return rest.length === 0
    ? first
    : `${first} (and ${rest.length} more: run \`docsearch-hook check\` to see all)`;
}

async function openAccess(
  spec: EventSpec,
  dir: string | undefined,
  deps: HookDeps,
  notes: (string | undefined)[],
): Promise<StateAccess & { state?: HookState }> {
  if (dir === undefined) return { unavailable: "no state directory (set DOCSEARCH_HOME)" };
  try {
    return {
      state: await deps.openState(dir, {
        onCorrupt: (movedTo) => notes.push(`state database was corrupt, moved to ${movedTo}`),
        busyTimeoutMs: spec.sync ? WAIT_MS.sync : WAIT_MS.background,
      }),
    };
  } catch (error) {
    return { unavailable: messageOf(error) };
  }
}

/** SessionStart's note on the local docs, or a hint on a prompt that mentions them. */
function injectedContext(event: HookEvent, view: SessionView, deps: HookDeps): string | undefined {
  const name = event.hookEventName;
  const text = name === "SessionStart"
    ? sessionStartContext(view, staleLockfile(event, view, deps))
    : name === "UserPromptSubmit"
    ? promptContext(stringField(event.raw, "prompt") ?? "", view)
    : undefined;
  return text === undefined ? undefined : contextOutput(name, text);
}

/** At SessionStart with its note on: the project's changed lockfile, if its dependency docs were indexed. */
function staleLockfile(event: HookEvent, view: SessionView, deps: HookDeps): string | undefined {
  const { context } = view.config;
  if (!context.enabled || !context.sessionStart) return undefined;
  const project = projectDirectory(deps.env, event.cwd);
  return project === undefined ? undefined : deps.changedLockfile(project);
}

/**
 * One event, under the session's switches: the redirect's decision (PreToolUse on a web tool), the context to
 * inject, and everything the event leaves in the state, in one transaction. Without state the redirect still
 * denies (it just cannot remember) and context is still given, as if nothing were switched off.
 */
async function handle(event: HookEvent, configFlag: string | undefined, deps: HookDeps): Promise<HookOutput> {
  const name = event.hookEventName;
  // Anything the table does not know is a no-op that touches nothing.
  const spec = eventSpec(name);
  if (spec === undefined) return ALLOW;
  const read = name === "PreToolUse" ? webRequestFrom(event.toolName, event.toolInput) : undefined;
  const request = read && event.calledAs !== undefined ? { ...read, calledAs: event.calledAs } : read;
  if (name === "PreToolUse" && request === undefined) return ALLOW;
  const now = deps.now();
  const dir = stateDir(deps.env, deps.os);
  const location = configLocation(configFlag, deps.env, deps.os, event.cwd);
  const loaded = await loadConfig(location, dir, deps.os, now);
  // Only an event that answers (a decision, context) names databases to the agent: the others skip the looks.
  // It names the built-in search as this agent has it, which is also what a followed redirect calls.
  const config = spec.answer === undefined ? loaded : {
    ...loaded,
    databases: answeringDatabases(
      loaded.databases,
      deps.indexExists,
      deps.env,
      runningAgent(deps.env, event.agent),
    ),
  };
  if (request !== undefined && !takesRequest(request, config)) return ALLOW;
  const notes = [configNote(config)];
  const redactor = createRedactor(config.capture.redactPatterns, config.capture.excludeFiles);
  const access = await openAccess(spec, dir, deps, notes);
  using aids = request === undefined ? undefined : await deps.redirectAids(request, event, config);
  const agent = runningAgent(deps.env, event.agent);
  const circumstances: Circumstances = {
    answer: aids?.answer,
    hasTool: aids?.hasTool,
    // Claude Code (2.1.2xx and later) lists MCP tools by name only until ToolSearch loads them.
    deferredTools: (agent ?? "claude") === "claude",
    toolUseId: event.toolUseId,
    via: hash53(`${deps.registration}\n${configFlag ?? ""}`),
  };
  const decide = (view: SessionView, stateAccess: StateAccess) =>
    request && view.redirect
      ? decideRedirect(
        request,
        event.sessionId,
        view.config,
        stateAccess,
        now,
        redactor.redact,
        circumstances,
      )
      : undefined;

  let decision: RedirectDecision | undefined;
  let context: string | undefined;
  let stateProblem = "unavailable" in access ? access.unavailable : undefined;
  using state = access.state;
  // Read before taking the write lock: in WAL mode a read never waits for a writer, so the session's own
  // switches hold even when the lock is busy and the event cannot be recorded.
  let view = sessionView(config, NO_SWITCHES);
  if (state !== undefined) {
    try {
      view = sessionView(config, state.switchesOf(event.sessionId));
      state.write(() => {
        decision = decide(view, access);
        context = injectedContext(event, view, deps);
        const redirect = request && decision && { request, decision };
        state.record(
          eventRecord({
            event,
            config: view.config,
            redactor,
            env: deps.env,
            now,
            hookMs: deps.elapsed(),
            redirect,
          }),
        );
      });
    } catch (error) {
      stateProblem = messageOf(error);
    }
  }
  // A failed transaction remembered nothing: decide again without state, under the switches if they were read.
  if (stateProblem !== undefined) {
    decision = decide(view, { unavailable: stateProblem });
    context = injectedContext(event, view, deps);
  }
  const denied = decision?.action === "deny" ? decision : undefined;
  // The escape-hatch record can fail on its own while the rest of the event is recorded.
  const lost = stateProblem ?? denied?.stateProblem;
  if (lost !== undefined) {
    notes.push(
      denied
        ? `state unavailable, denial not remembered: ${lost}`
        : `state unavailable, ${name} not recorded: ${lost}`,
    );
  }
  // Paths and messages can carry control characters (a NUL in a cwd); stderr gets one clean line.
  const note = escapeControl(notes.filter(Boolean).join("; "));
  return {
    stdout: denied?.output ?? context,
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
  const parsed = parseHookEvent(input.text, input.parsed);
  if (!parsed.ok) return { stderr: `docsearch-hook: ${parsed.problem}; allowing` };
  return agentOutput(parsed.event.agent, await handle(parsed.event, configFlag, deps));
}

export async function run(values: { config?: string }, context: CommandContext): Promise<number> {
  const { stdin, stdout, stderr } = context;
  const interactive = stdin.isTerminal();
  if (interactive) {
    stderr("docsearch-hook hook: reading one hook event (JSON) from stdin; end with Ctrl-D");
  }
  const input = await readStdin(stdin, interactive ? null : STDIN_BOUNDS);
  const output = await hookOutput(input, values.config, hookDeps(context, { exiting: true }));
  if (output.stdout !== undefined) stdout(output.stdout);
  if (output.stderr !== undefined) stderr(output.stderr);
  return 0;
}
