/**
 * The state database (SPEC §4): one SQLite file, WAL, bounded busy wait, schema versioned with
 * `PRAGMA user_version`. Only imported when a hook event needs state, since loading SQLite costs start-up.
 */
import { DatabaseSync } from "node:sqlite";
import { join, type OS } from "../paths.ts";
import { ensurePrivateDir } from "./dir.ts";

export const DB_FILE = "docsearch.db";
/** How long a write waits for another process's lock before the hook gives up and decides without state. */
export const BUSY_TIMEOUT_MS = 500;

/** Migration N takes the schema from version N to N+1; append only, never edit a released one. */
const MIGRATIONS: readonly string[] = [
  `CREATE TABLE denials (
     id INTEGER PRIMARY KEY,
     session_id TEXT NOT NULL,
     request_key TEXT NOT NULL,
     tool TEXT NOT NULL,
     request TEXT NOT NULL,
     databases TEXT NOT NULL,
     created_at INTEGER NOT NULL
   );
   CREATE INDEX denials_by_request ON denials (session_id, request_key, created_at);
   CREATE INDEX denials_by_age ON denials (created_at);`,
];

export const SCHEMA_VERSION = MIGRATIONS.length;

export class StateSchemaTooNewError extends Error {
  override name = "StateSchemaTooNewError";
}

function createPrivateFile(file: string): void {
  try {
    Deno.openSync(file, { write: true, createNew: true, mode: 0o600 }).close();
  } catch (error) {
    if (!(error instanceof Deno.errors.AlreadyExists)) throw error;
  }
}

function userVersion(db: DatabaseSync): number {
  return (db.prepare("PRAGMA user_version").get() as { user_version: number }).user_version;
}

function refuseNewer(version: number): void {
  if (version > SCHEMA_VERSION) {
    throw new StateSchemaTooNewError(
      `state database schema ${version} is newer than this docsearch-hook understands (${SCHEMA_VERSION}); upgrade docsearch-hook`,
    );
  }
}

function migrate(db: DatabaseSync): void {
  const version = userVersion(db);
  if (version === SCHEMA_VERSION) return;
  // A newer program's database is refused before anything (even the journal mode) is changed in it.
  refuseNewer(version);
  db.exec("PRAGMA journal_mode = WAL");
  db.exec("BEGIN IMMEDIATE");
  try {
    // Re-read under the write lock: a concurrent hook process may have migrated meanwhile.
    const from = userVersion(db);
    refuseNewer(from);
    for (let v = from; v < SCHEMA_VERSION; v++) db.exec(MIGRATIONS[v]);
    db.exec(`PRAGMA user_version = ${SCHEMA_VERSION}`);
    db.exec("COMMIT");
  } catch (error) {
    db.exec("ROLLBACK");
    throw error;
  }
}

export function stateDbPath(dir: string, os: OS): string {
  return join(os, dir, DB_FILE);
}

/** Opens (creating 0700 dir / 0600 file when missing) and migrates the state database. Throws when it cannot. */
export function openStateDb(dir: string, os: OS = Deno.build.os): DatabaseSync {
  const file = stateDbPath(dir, os);
  try {
    Deno.statSync(file);
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
    ensurePrivateDir(dir);
    createPrivateFile(file);
  }
  const db = new DatabaseSync(file, { timeout: BUSY_TIMEOUT_MS });
  try {
    // WAL needs no fsync per commit to stay consistent; it could lose the last denial on power loss.
    db.exec("PRAGMA synchronous = NORMAL");
    migrate(db);
  } catch (error) {
    db.close();
    throw error;
  }
  return db;
}
