/**
 * Which session `disable`, `enable` and `status` act on: `--session ID` (or the start of a known one), else
 * the agent's own variable (Claude Code sets CLAUDE_CODE_SESSION_ID in its Bash tool, Ripperdoc
 * RIPPERDOC_SESSION_ID), else the most recently active session in this directory.
 */
import type { DatabaseSync } from "node:sqlite";
import { Problem } from "../errors.ts";
import { commandConfig } from "../config/resolve.ts";
import type { Config } from "../config/types.ts";
import type { Env } from "../paths.ts";
import type { CommandContext } from "../cli/context.ts";
import { latestSessionIn, sessionById, type SessionRow, sessionsByPrefix } from "../state/sessions.ts";
import { explainingCorruption, openStateForCommand, readState } from "../state/open_state.ts";

export interface SessionChoice {
  id: string;
  /** How it was chosen, for the user. */
  via: string;
  /** Undefined for a session the hook has not seen (yet). */
  row?: SessionRow;
}

export const SESSION_VARIABLES = ["CLAUDE_CODE_SESSION_ID", "RIPPERDOC_SESSION_ID"] as const;

export const SESSION_HINT = "pass --session ID (`docsearch-hook log` shows session ids), run it from the " +
  "agent's project directory, or use the /docsearch:disable, /docsearch:enable, /docsearch:status " +
  "slash commands inside Claude Code";

function byFlag(flag: string, db: DatabaseSync | undefined): SessionChoice {
  const exact = db && sessionById(db, flag);
  if (exact) return { id: exact.id, via: "--session", row: exact };
  const starting = db ? sessionsByPrefix(db, flag, 5) : [];
  if (starting.length === 1) {
    return { id: starting[0].id, via: "--session (start of its id)", row: starting[0] };
  }
  if (starting.length > 1) {
    throw new Problem(
      `several sessions start with "${flag}": ${starting.map((s) => s.id).join(", ")}`,
      "give more of the session id",
    );
  }
  return { id: flag, via: "--session" };
}

/**
 * Empty values count as absent: a slash command passes `--session "${CLAUDE_SESSION_ID}"`, which older
 * agents leave empty. `dirs` are this directory's spellings (as given, and with symlinks resolved).
 */
export function chooseSession(
  flag: string | undefined,
  env: Env,
  dirs: readonly string[],
  db: DatabaseSync | undefined,
): SessionChoice | undefined {
  if (flag?.trim()) return byFlag(flag.trim(), db);
  for (const name of SESSION_VARIABLES) {
    const id = env(name)?.trim();
    if (id) return { id, via: name, row: db && sessionById(db, id) };
  }
  const row = db && latestSessionIn(db, dirs);
  return row && { id: row.id, via: "latest session in this directory", row };
}

const realPath = (dir: string) => {
  try {
    return Deno.realPathSync(dir);
  } catch {
    return undefined;
  }
};

/**
 * The directory `cwd` as the agent may have reported it: as the shell spells it ($PWD keeps symlinks, when it
 * still names that directory) and with symlinks resolved.
 */
export function currentDirs(cwd: string, env: Env): string[] {
  const real = realPath(cwd);
  const pwd = env("PWD");
  const shell = pwd && real !== undefined && realPath(pwd) === real ? pwd : undefined;
  return [...new Set([cwd, shell, real].filter((d): d is string => d !== undefined))];
}

export function ago(ms: number, now: number): string {
  const seconds = Math.max(0, Math.round((now - ms) / 1000));
  if (seconds < 60) return "just now";
  const [value, unit] = seconds < 3600
    ? [Math.round(seconds / 60), "minute"]
    : seconds < 86400
    ? [Math.round(seconds / 3600), "hour"]
    : [Math.round(seconds / 86400), "day"];
  return `${value} ${unit}${value === 1 ? "" : "s"} ago`;
}

/** `session 3f2a… (CLAUDE_CODE_SESSION_ID; claude-code in /p, last active 2 minutes ago)`. */
export function describeSession(choice: SessionChoice, now: number): string {
  const row = choice.row;
  if (row === undefined) return `session ${choice.id} (${choice.via}; not seen by the hook yet)`;
  const known = [row.agent === "unknown" ? "" : row.agent, row.cwd ? `in ${row.cwd}` : ""].filter(Boolean);
  const seen = [known.join(" "), `last active ${ago(row.lastSeen, now)}`, row.endedAt !== null ? "ended" : ""]
    .filter(Boolean).join(", ");
  return `session ${choice.id} (${choice.via}; ${seen})`;
}

export interface SessionContext {
  /** The existing state database, if the hook has created one. */
  db?: DatabaseSync;
  /** Where the state database is, or would be. */
  file: string;
  choice?: SessionChoice;
  config: Config;
}

type SessionValues = { session?: string; config?: string };

const choose = (values: SessionValues, { env, cwd }: CommandContext, db: DatabaseSync | undefined) =>
  chooseSession(values.session, env, currentDirs(cwd, env), db);

/** The session's own project decides which databases exist, as it does for the hook's events. */
const sessionConfig = (values: SessionValues, choice: SessionChoice | undefined, context: CommandContext) =>
  commandConfig(values.config, choice?.row?.cwd ?? context.cwd, context.env, context.os).config;

/** The session a switch command acts on, the config it sees, and the state database to change. */
export function sessionContext(values: SessionValues, context: CommandContext): SessionContext {
  const { db, file } = openStateForCommand(context);
  const choice = explainingCorruption(file, () => choose(values, context, db));
  return { db, file, choice, config: sessionConfig(values, choice, context) };
}

/** As sessionContext, for a command that only looks: the state is read and closed again. */
export function sessionLook(
  values: SessionValues,
  context: CommandContext,
): Omit<SessionContext, "db" | "file"> {
  const choice = readState(context, (db) => choose(values, context, db));
  return { choice, config: sessionConfig(values, choice, context) };
}
