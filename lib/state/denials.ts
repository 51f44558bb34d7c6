/** Escape-hatch records: one row per denial, taken (deleted) by the identical retry. */
import type { DatabaseSync } from "node:sqlite";

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

export class DenialStore {
  constructor(private readonly db: DatabaseSync) {}

  /**
   * Removes the oldest unexpired denial of this request in this session, in one statement so that two
   * concurrent retries cannot both take the same record. True when one was taken.
   */
  takeDenial(sessionId: string, requestKey: string, notBefore: number): boolean {
    const row = this.db.prepare(
      `DELETE FROM denials WHERE id = (
         SELECT id FROM denials WHERE session_id = ? AND request_key = ? AND created_at >= ?
         ORDER BY created_at, id LIMIT 1)
       RETURNING id`,
    ).get(sessionId, requestKey, notBefore);
    return row !== undefined;
  }

  /** Records a denial and drops records that expired before `pruneBefore` (all sessions). */
  recordDenial(record: DenialRecord, pruneBefore: number): void {
    this.db.prepare("DELETE FROM denials WHERE created_at < ?").run(pruneBefore);
    this.db.prepare(
      `INSERT INTO denials (session_id, request_key, tool, request, databases, created_at)
       VALUES (?, ?, ?, ?, ?, ?)`,
    ).run(
      record.sessionId,
      record.requestKey,
      record.tool,
      record.request.slice(0, MAX_REQUEST_CHARS),
      JSON.stringify(record.databases),
      record.at,
    );
  }

  /** Unexpired denials waiting for a retry, per session; for tests and diagnostics. */
  pending(sessionId: string, notBefore: number): { request: string; tool: string }[] {
    return this.db.prepare(
      "SELECT request, tool FROM denials WHERE session_id = ? AND created_at >= ? ORDER BY id",
    ).all(sessionId, notBefore) as unknown as { request: string; tool: string }[];
  }
}
