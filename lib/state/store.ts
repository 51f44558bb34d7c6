/**
 * The session store over the state database: escape-hatch records, sessions, observations, the
 * life of each redirect and the hook's own latency. Everything one event writes goes in one transaction.
 */
import type { DatabaseSync } from "node:sqlite";
import type { Observation } from "../capture/observe.ts";
// What the hook filters a request down to is what is kept here: the filter loads with the hook anyway.
import { KEPT_REQUEST_CHARS } from "../capture/redact.ts";
import type { OS } from "../paths.ts";
import { parseSwitches, serializeSwitches, type SessionSwitches } from "../switches/switches.ts";
import {
  BUSY_TIMEOUT_MS,
  isCorruption,
  type OpenOptions,
  StateFile,
  truncateWal,
  waitForLock,
  WAL_KEPT_BYTES,
} from "./db.ts";
import { sessionKey } from "./session_key.ts";

export interface DenialRecord {
  sessionId: string;
  /** Hash of the request's identity (see requestIdentity). */
  requestKey: string;
  tool: string;
  /** The query or URL (privacy-filtered), for people reading the state; clipped. */
  request: string;
  databases: string[];
  at: number;
  /** The agent's id for this tool call, where it sends one: the same call seen twice is not a retry. */
  toolUseId?: string;
  /**
   * Which registration of the hook sees the call (see HookDeps.registration): the hook registered twice sees
   * each call once per registration.
   */
  via?: string;
}

export interface SessionTouch {
  sessionId: string;
  cwd?: string;
  /** claude-code | ripperdoc | unknown */
  agent: string;
  at: number;
  /** SessionStart's `source`; a new start also clears an earlier end (a resumed session). */
  source?: string;
  /** SessionEnd's `reason`. */
  endReason?: string;
  ended?: boolean;
}

export interface EventRecord {
  event: string;
  session: SessionTouch;
  observation?: Observation;
  /** A denial to follow: one row per suggested database. */
  denied?: {
    requestKey: string;
    tool: string;
    request: string;
    databases: { name: string; mcpTool: string }[];
  };
  /** The escape hatch let this request through: its redirects were escaped. */
  escapedKey?: string;
  /** A tool the agent called: if a redirect suggested it, the redirect was followed. */
  calledTool?: string;
  /** Delete captured data older than this (SessionStart applies the retention). */
  pruneBefore?: number;
  /** Expired escape-hatch records go too. */
  denialsBefore?: number;
  /** The hook's own latency so far, for `stats`. */
  hookMs: number;
}

export interface PruneCounts {
  observations: number;
  redirects: number;
  hookRuns: number;
  sessions: number;
  denials: number;
}

/** A hook prunes at most this many rows per table, so one SessionStart after months away stays quick. */
export const HOOK_PRUNE_BATCH = 5000;

/**
 * The hook's one dynamic import for state: opening the database and the store come together. A database
 * found corrupted on the way is moved aside (see OpenOptions.onCorrupt), and the work done again on a fresh
 * one. `leaveOpen`: for a process that exits right after (see StateStore's dispose).
 */
export function openStateStore(
  dir: string,
  os: OS,
  options: OpenOptions = {},
  { leaveOpen = false } = {},
): StateStore {
  const file = new StateFile(dir, os, options);
  return new StateStore(
    file.open(),
    options.busyTimeoutMs,
    () => file.replace(),
    leaveOpen ? file : undefined,
  );
}

/** A suggested tool may be named in full (`mcp__leann__leann_search`) or, seed-style, bare (`leann_search`). */
export function toolNames(tool: string): string[] {
  const bare = tool.startsWith("mcp__") ? tool.slice(tool.lastIndexOf("__") + 2) : tool;
  return bare === tool ? [tool] : [tool, bare];
}

export class StateStore {
  private current: DatabaseSync;
  /** A corruption that a caller inside the open transaction caught and went on from: it must not commit. */
  private corruption: unknown;

  /**
   * `waitMs` bounds the wait for another process's write lock. `replace`, when given, moves a corrupted
   * database aside and opens a fresh one, on which the failed work is done again. `leaving`, when given, is
   * where the WAL's size is read when the store is disposed of without closing (see there).
   */
  constructor(
    db: DatabaseSync,
    readonly waitMs = BUSY_TIMEOUT_MS,
    private readonly replace?: () => DatabaseSync,
    private readonly leaving?: Pick<StateFile, "walBytes">,
  ) {
    this.current = db;
  }

  get db(): DatabaseSync {
    return this.current;
  }

  /**
   * Closes the connection, or for a hook process (`leaving`), which exits right after, leaves it open: every
   * write is committed, and closing only costs time. The last connection to close moves the WAL into the
   * database and removes it, syncing both files twice, and the next process makes a new WAL and syncs it
   * twice more; that was most of what SQLite cost an event, and all of it that grew with a busy disk. A
   * process that exits with the database open leaves the WAL to the next, which, finding itself alone, reads
   * it whole to index it: so once the WAL holds more than WAL_KEPT_BYTES, the process leaving it empties it
   * first. A power loss can lose what the WAL holds that was not synced yet (the last events), never make the
   * database inconsistent (see truncateWal). Neither a close nor an emptying that fails loses anything, so
   * neither replaces the caller's result.
   */
  [Symbol.dispose](): void {
    try {
      if (!this.current.isOpen) return;
      if (this.leaving === undefined) this.current.close();
      else if (this.leaving.walBytes() > WAL_KEPT_BYTES) truncateWal(this.current);
    } catch {
      // Nothing to do: the data is committed, and the next opener recovers the WAL.
    }
  }

  /**
   * Runs `work`, and when the database turns out corrupted, runs it again on a fresh one. Inside a
   * transaction the corruption is only noted: the redirect catches a failed escape-hatch record and goes on
   * without it, and the transaction must still fail where it began, to be done again, whole, on a fresh
   * database.
   */
  private healing<T>(work: () => T): T {
    const inTransaction = this.current.isTransaction;
    try {
      return work();
    } catch (error) {
      if (!isCorruption(error)) throw error;
      if (inTransaction) {
        this.corruption = error;
        throw error;
      }
      if (this.replace === undefined) throw error;
      try {
        this.current.close();
      } catch {
        // A corrupted file may fail to close; it is moved aside all the same.
      }
      this.current = this.replace();
      return work();
    }
  }

  /** Runs `fn` in one write transaction (or inside the one already open). */
  write<T>(fn: () => T): T {
    return this.healing(() => this.current.isTransaction ? fn() : this.transaction(fn));
  }

  private transaction<T>(fn: () => T): T {
    this.corruption = undefined;
    waitForLock(() => this.current.exec("BEGIN IMMEDIATE"), this.waitMs);
    try {
      const result = fn();
      if (this.corruption !== undefined) throw this.corruption;
      this.current.exec("COMMIT");
      return result;
    } catch (error) {
      if (this.current.isTransaction) this.current.exec("ROLLBACK");
      throw error;
    }
  }

  /**
   * The escape hatch: takes the oldest unexpired denial of this request in this session ("retry": the request
   * passes), or else records this denial ("recorded"), pruning expired records of every session. Concurrent
   * retries of one denial cannot both take it. The hook registered twice (settings and plugin) sees each call
   * twice, with one tool_use_id: the denied call seen again is "repeat" (denied again, the record kept), and
   * the retry seen again by the other registration passes again, as the retry that took the record. Seen again
   * by the registration that let it through, it is "repeat": one call is one retry, however often it comes.
   */
  retryOrRecord(denial: DenialRecord, notBefore: number): "retry" | "recorded" | "repeat" {
    const session = sessionKey(denial.sessionId);
    const id = denial.toolUseId ?? null;
    const via = denial.via ?? null;
    return this.write(() => {
      if (id !== null) {
        const seen = this.db.prepare(
          `SELECT retried_by = ? AND retried_via IS NOT ? AS retry FROM denials
           WHERE session_id = ? AND request_key = ? AND created_at >= ? AND (tool_use_id = ? OR retried_by = ?)
           LIMIT 1`,
        ).get(id, via, session, denial.requestKey, notBefore, id, id) as { retry: number | null } | undefined;
        if (seen !== undefined) return seen.retry === 1 ? "retry" : "repeat";
      }
      const oldest = `SELECT id FROM denials WHERE session_id = ? AND request_key = ? AND created_at >= ?
                        AND retried_by IS NULL ORDER BY created_at, id LIMIT 1`;
      // A retry with an id keeps the record, marked, for the same retry seen again; one without goes.
      const taken = id === null
        ? this.db.prepare(`DELETE FROM denials WHERE id = (${oldest}) RETURNING id`)
          .get(session, denial.requestKey, notBefore)
        : this.db.prepare(
          `UPDATE denials SET retried_by = ?, retried_via = ? WHERE id = (${oldest}) RETURNING id`,
        )
          .get(id, via, session, denial.requestKey, notBefore);
      if (taken !== undefined) return "retry";
      this.db.prepare("DELETE FROM denials WHERE created_at < ?").run(notBefore);
      this.db.prepare(
        `INSERT INTO denials (session_id, request_key, tool, request, databases, created_at, tool_use_id)
         VALUES (?, ?, ?, ?, ?, ?, ?)`,
      ).run(
        session,
        denial.requestKey,
        denial.tool,
        denial.request.slice(0, KEPT_REQUEST_CHARS),
        JSON.stringify(denial.databases),
        denial.at,
        id,
      );
      return "recorded";
    });
  }

  /** Unexpired denials waiting for a retry, per session; for tests and diagnostics. */
  pending(sessionId: string, notBefore: number): { request: string; tool: string }[] {
    return this.db.prepare(
      "SELECT request, tool FROM denials WHERE session_id = ? AND created_at >= ? AND retried_by IS NULL ORDER BY id",
    ).all(sessionKey(sessionId), notBefore) as unknown as { request: string; tool: string }[];
  }

  /** The session's switches (none for a session not seen yet). */
  switchesOf(sessionId: string): SessionSwitches {
    const row = this.healing(() =>
      this.db.prepare("SELECT switches FROM sessions WHERE session_key = ?").get(sessionKey(sessionId))
    ) as { switches: string | null } | undefined;
    return parseSwitches(row?.switches);
  }

  /**
   * Reads and rewrites a session's switches in one transaction, so two commands cannot lose each other's
   * change. `change` returns the new switches, or undefined to leave them. A session the hook has not seen
   * yet is created, so that the switch holds from its first event on.
   */
  updateSwitches<T>(
    sessionId: string,
    now: number,
    change: (current: SessionSwitches) => { switches?: SessionSwitches; result: T },
  ): T {
    return this.write(() => {
      const { switches, result } = change(this.switchesOf(sessionId));
      if (switches === undefined) return result;
      this.db.prepare(
        `INSERT INTO sessions (session_key, agent, first_seen, last_seen, switches) VALUES (?, 'unknown', ?, ?, ?)
         ON CONFLICT (session_key) DO UPDATE SET switches = excluded.switches`,
      ).run(sessionKey(sessionId), now, now, serializeSwitches(switches));
      return result;
    });
  }

  /** Returns the session's row id. */
  private touchSession(touch: SessionTouch): number {
    const ended = touch.ended ? touch.at : null;
    const row = this.db.prepare(
      `INSERT INTO sessions (session_key, cwd, agent, first_seen, last_seen, source, ended_at, end_reason)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (session_key) DO UPDATE SET
         cwd = coalesce(excluded.cwd, cwd),
         agent = CASE excluded.agent WHEN 'unknown' THEN agent ELSE excluded.agent END,
         first_seen = min(first_seen, excluded.first_seen),
         last_seen = max(last_seen, excluded.last_seen),
         source = coalesce(excluded.source, source),
         ended_at = CASE WHEN excluded.ended_at IS NOT NULL THEN excluded.ended_at
                         WHEN excluded.source IS NOT NULL THEN NULL ELSE ended_at END,
         end_reason = CASE WHEN excluded.ended_at IS NOT NULL THEN excluded.end_reason
                           WHEN excluded.source IS NOT NULL THEN NULL ELSE end_reason END
       RETURNING id`,
    ).get(
      sessionKey(touch.sessionId),
      touch.cwd ?? null,
      touch.agent,
      touch.at,
      touch.at,
      touch.source ?? null,
      ended,
      touch.ended ? touch.endReason ?? null : null,
    ) as { id: number };
    return row.id;
  }

  /** Everything one event leaves behind, in one transaction. */
  record(entry: EventRecord): void {
    this.write(() => {
      const session = this.touchSession(entry.session);
      const at = entry.session.at;
      const o = entry.observation;
      if (o !== undefined) {
        this.db.prepare(
          `INSERT INTO observations (session, at, event, tool, tool_use_id, summary, outcome, duration_ms)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
        ).run(
          session,
          at,
          o.event,
          o.tool ?? null,
          o.toolUseId ?? null,
          o.summary,
          o.outcome ?? null,
          o.durationMs ?? null,
        );
      }
      if (entry.denied !== undefined) {
        const insert = this.db.prepare(
          `INSERT INTO redirects (session, at, request_key, tool, request, database, mcp_tool)
           VALUES (?, ?, ?, ?, ?, ?, ?)`,
        );
        const { requestKey, tool, request, databases } = entry.denied;
        for (const database of databases) {
          insert.run(
            session,
            at,
            requestKey,
            tool,
            request.slice(0, KEPT_REQUEST_CHARS),
            database.name,
            database.mcpTool,
          );
        }
      }
      if (entry.escapedKey !== undefined) {
        this.db.prepare(
          `UPDATE redirects SET escaped_at = ? WHERE session = ? AND request_key = ? AND escaped_at IS NULL`,
        ).run(at, session, entry.escapedKey);
      }
      if (entry.calledTool !== undefined) {
        const [full, bare = full] = toolNames(entry.calledTool);
        this.db.prepare(
          `UPDATE redirects SET followed_at = ?
           WHERE session = ? AND followed_at IS NULL AND mcp_tool IN (?, ?) AND at <= ?`,
        ).run(at, session, full, bare, at);
      }
      if (entry.pruneBefore !== undefined) this.prune(entry.pruneBefore, HOOK_PRUNE_BATCH);
      if (entry.denialsBefore !== undefined) {
        this.db.prepare("DELETE FROM denials WHERE created_at < ?").run(entry.denialsBefore);
      }
      this.db.prepare("INSERT INTO hook_runs (at, event, ms) VALUES (?, ?, ?)").run(
        at,
        entry.event,
        entry.hookMs,
      );
    });
  }

  /** Deletes captured data older than `before` (at most `limit` rows per table), and sessions idle since. */
  prune(before: number, limit = -1): PruneCounts {
    return this.write(() => {
      const bounded = (table: string, column: string) =>
        Number(
          this.db.prepare(
            `DELETE FROM ${table} WHERE id IN (SELECT id FROM ${table} WHERE ${column} < ? LIMIT ?)`,
          ).run(before, limit).changes,
        );
      return {
        observations: bounded("observations", "at"),
        redirects: bounded("redirects", "at"),
        hookRuns: bounded("hook_runs", "at"),
        denials: bounded("denials", "created_at"),
        // A session goes only once nothing of it is left.
        sessions: Number(
          this.db.prepare(
            `DELETE FROM sessions WHERE last_seen < ?
               AND NOT EXISTS (SELECT 1 FROM observations WHERE session = sessions.id)
               AND NOT EXISTS (SELECT 1 FROM redirects WHERE session = sessions.id)`,
          ).run(before).changes,
        ),
      };
    });
  }
}
