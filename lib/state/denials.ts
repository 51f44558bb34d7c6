/** Escape-hatch records: one row per denial, taken (deleted) by the identical retry. */
import type { DatabaseSync } from "node:sqlite";
import type { OS } from "../paths.ts";
import { openStateDb } from "./db.ts";
import { sessionKey } from "./session_key.ts";

export interface DenialRecord {
  sessionId: string;
  /** Hash of the request's identity (see requestIdentity). */
  requestKey: string;
  tool: string;
  /** The query or URL, for people reading the state; clipped. */
  request: string;
  databases: string[];
  at: number;
}

const MAX_REQUEST_CHARS = 2000;

/** The hook's one dynamic import for state: opening the database and the store come together. */
export function openDenialStore(dir: string, os: OS = Deno.build.os): DenialStore {
  return new DenialStore(openStateDb(dir, os));
}

export class DenialStore {
  constructor(readonly db: DatabaseSync) {}

  /**
   * The escape hatch in one write transaction: takes the oldest unexpired denial of this request in this
   * session ("retry": the request passes), or else records this denial ("recorded"), pruning expired
   * records of every session. Concurrent retries of one denial cannot both take it.
   */
  retryOrRecord(denial: DenialRecord, notBefore: number): "retry" | "recorded" {
    const session = sessionKey(denial.sessionId);
    this.db.exec("BEGIN IMMEDIATE");
    try {
      const taken = this.db.prepare(
        `DELETE FROM denials WHERE id = (
           SELECT id FROM denials WHERE session_id = ? AND request_key = ? AND created_at >= ?
           ORDER BY created_at, id LIMIT 1)
         RETURNING id`,
      ).get(session, denial.requestKey, notBefore);
      if (taken === undefined) {
        this.db.prepare("DELETE FROM denials WHERE created_at < ?").run(notBefore);
        this.db.prepare(
          `INSERT INTO denials (session_id, request_key, tool, request, databases, created_at)
           VALUES (?, ?, ?, ?, ?, ?)`,
        ).run(
          session,
          denial.requestKey,
          denial.tool,
          denial.request.slice(0, MAX_REQUEST_CHARS),
          JSON.stringify(denial.databases),
          denial.at,
        );
      }
      this.db.exec("COMMIT");
      return taken === undefined ? "recorded" : "retry";
    } catch (error) {
      if (this.db.isTransaction) this.db.exec("ROLLBACK");
      throw error;
    }
  }

  /** Unexpired denials waiting for a retry, per session; for tests and diagnostics. */
  pending(sessionId: string, notBefore: number): { request: string; tool: string }[] {
    return this.db.prepare(
      "SELECT request, tool FROM denials WHERE session_id = ? AND created_at >= ? ORDER BY id",
    ).all(sessionKey(sessionId), notBefore) as unknown as { request: string; tool: string }[];
  }
}
