/** Read-only queries behind `log` and `stats`: plain rows, no formatting. */
import type { DatabaseSync } from "node:sqlite";
import { eventSpec } from "../protocol/events.ts";
import { sessionKey } from "./session_key.ts";

export interface ObservationRow {
  at: number;
  session: string;
  event: string;
  tool: string | null;
  outcome: string | null;
  summary: string;
  durationMs: number | null;
}

/**
 * The latest observations, oldest first (as a log reads). `session` is an id as the agent sent it, or the
 * start of one as `log` prints it.
 */
export function latestObservations(db: DatabaseSync, limit: number, session?: string): ObservationRow[] {
  const key = session === undefined ? undefined : sessionKey(session);
  const rows = db.prepare(
    `SELECT o.at, s.session_key AS session, o.event, o.tool, o.outcome, o.summary, o.duration_ms AS durationMs
     FROM observations o JOIN sessions s ON s.id = o.session
     WHERE ?1 IS NULL OR s.session_key = ?1 OR substr(s.session_key, 1, length(?1)) = ?1
     ORDER BY o.at DESC, o.id DESC LIMIT ?2`,
  ).all(key ?? null, limit) as unknown as ObservationRow[];
  return rows.reverse().map((row) => ({ ...row }));
}

export interface DatabaseRedirects {
  database: string;
  denied: number;
  followed: number;
  escaped: number;
}

export interface StatsRows {
  /** Per database; a denial naming two databases counts for each. */
  byDatabase: DatabaseRedirects[];
  /** Per denial: followed if any suggested tool was called, escaped if the request came back. */
  denials: { denied: number; followed: number; escaped: number };
  /** WebSearch queries no database matched, newest first (already privacy-filtered). */
  unmatched: string[];
  /**
   * Web requests a built-in index matched but did not answer, so they went to the web: newest first, as
   * recorded ("query\n→ database").
   */
  unanswered: string[];
  sessions: { agent: string; count: number }[];
  outcomes: { outcome: string; count: number }[];
  observations: number;
  /** The hook's own latency per invocation, in ms: web decisions, context answers, capture. */
  latency: { decision: number[]; context: number[]; capture: number[] };
}

const MAX_UNMATCHED = 5000;
type Latency = keyof StatsRows["latency"];
/** Where a run's time counts: by what the hook answered, else as capture (the event is only recorded). */
const latencyOf = (event: string): Latency => eventSpec(event)?.answer ?? "capture";

export function statsRows(db: DatabaseSync, since: number): StatsRows {
  const all = <T>(sql: string, ...params: (number | string)[]) =>
    (db.prepare(sql).all(...params) as unknown as T[]).map((row) => ({ ...row }));
  const denials = db.prepare(
    `SELECT count(*) AS denied, coalesce(sum(followed), 0) AS followed, coalesce(sum(escaped), 0) AS escaped
     FROM (SELECT max(followed_at IS NOT NULL) AS followed, max(escaped_at IS NOT NULL) AS escaped
           FROM redirects WHERE at >= ? GROUP BY session, request_key, at)`,
  ).get(since) as { denied: number; followed: number; escaped: number };
  const runs = all<{ event: string; ms: number }>("SELECT event, ms FROM hook_runs WHERE at >= ?", since);
  const msOf = (latency: Latency) => runs.filter((r) => latencyOf(r.event) === latency).map((r) => r.ms);
  return {
    byDatabase: all<DatabaseRedirects>(
      `SELECT database, count(*) AS denied, count(followed_at) AS followed, count(escaped_at) AS escaped
       FROM redirects WHERE at >= ? GROUP BY database ORDER BY denied DESC, database`,
      since,
    ),
    denials: { ...denials },
    unmatched: all<{ summary: string }>(
      `SELECT summary FROM observations
       WHERE at >= ? AND event = 'PreToolUse' AND tool = 'WebSearch' AND outcome = 'no-match'
       ORDER BY at DESC LIMIT ?`,
      since,
      MAX_UNMATCHED,
    ).map((row) => row.summary),
    unanswered: all<{ summary: string }>(
      `SELECT summary FROM observations
       WHERE at >= ? AND event = 'PreToolUse' AND outcome = 'no-local-answer' ORDER BY at DESC LIMIT ?`,
      since,
      MAX_UNMATCHED,
    ).map((row) => row.summary),
    sessions: all<{ agent: string; count: number }>(
      "SELECT agent, count(*) AS count FROM sessions WHERE last_seen >= ? GROUP BY agent ORDER BY count DESC",
      since,
    ),
    outcomes: all<{ outcome: string; count: number }>(
      `SELECT outcome, count(*) AS count FROM observations
       WHERE at >= ? AND outcome IS NOT NULL GROUP BY outcome ORDER BY count DESC`,
      since,
    ),
    observations:
      (db.prepare("SELECT count(*) AS n FROM observations WHERE at >= ?").get(since) as { n: number })
        .n,
    latency: { decision: msOf("decision"), context: msOf("context"), capture: msOf("capture") },
  };
}
