/** Finding a session for the interactive commands: by id, by the start of one, or by its directory. */
import type { DatabaseSync } from "node:sqlite";
import { parseSwitches, type SessionSwitches } from "../switches/switches.ts";
import { sessionKey } from "./session_key.ts";

export interface SessionRow {
  /** The id as stored (see sessionKey): the agent's id for every ordinary one. */
  id: string;
  cwd: string | null;
  agent: string;
  lastSeen: number;
  endedAt: number | null;
  switches: SessionSwitches;
}

interface RawRow {
  id: string;
  cwd: string | null;
  agent: string;
  lastSeen: number;
  endedAt: number | null;
  switches: string | null;
}

const COLUMNS =
  "session_key AS id, cwd, agent, last_seen AS lastSeen, ended_at AS endedAt, switches FROM sessions";

const toRow = (raw: RawRow): SessionRow => ({ ...raw, switches: parseSwitches(raw.switches) });

export function sessionById(db: DatabaseSync, id: string): SessionRow | undefined {
  const raw = db.prepare(`SELECT ${COLUMNS} WHERE session_key = ?`).get(sessionKey(id)) as RawRow | undefined;
  return raw && toRow(raw);
}

/** Sessions whose id starts with `prefix`, latest first (at most `limit`). */
export function sessionsByPrefix(db: DatabaseSync, prefix: string, limit: number): SessionRow[] {
  const key = sessionKey(prefix);
  return (db.prepare(
    `SELECT ${COLUMNS} WHERE substr(session_key, 1, length(?1)) = ?1 ORDER BY last_seen DESC LIMIT ?2`,
  ).all(key, limit) as unknown as RawRow[]).map(toRow);
}

/** The most recently active session whose working directory is one of `dirs`. */
export function latestSessionIn(db: DatabaseSync, dirs: readonly string[]): SessionRow | undefined {
  if (dirs.length === 0) return undefined;
  const raw = db.prepare(
    `SELECT ${COLUMNS} WHERE cwd IN (${
      dirs.map(() => "?").join(", ")
    }) ORDER BY last_seen DESC, sessions.id DESC LIMIT 1`,
  ).get(...dirs) as RawRow | undefined;
  return raw && toRow(raw);
}
