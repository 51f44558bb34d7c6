/**
 * The state database: one SQLite file, WAL, bounded busy wait, schema versioned with
 * `PRAGMA user_version`. Only imported when a hook event needs state, since loading SQLite costs start-up.
 */
import { DatabaseSync } from "node:sqlite";
import { join, type OS } from "../paths.ts";
import { ensurePrivateDir } from "./dir.ts";

export const DB_FILE = "docsearch.db";
/** How long a write waits for another process's lock; the hook sets its own, shorter bounds. */
export const BUSY_TIMEOUT_MS = 5000;
/**
 * SQLite's own busy wait sleeps longer the longer it waits (up to 100 ms a time), so with dozens of hook
 * processes queued on the write lock, waiters oversleep and the tail grows. It is kept this short, and
 * `waitForLock` retries with short jittered sleeps instead until the caller's bound.
 */
const SQLITE_BUSY_MS = 10;

const sleeper = new Int32Array(new SharedArrayBuffer(4));
const sleepSync = (ms: number) => Atomics.wait(sleeper, 0, 0, ms);

export const isBusy = (error: unknown): boolean =>
  error instanceof Error && /database is locked|database is busy/.test(error.message);

/** Runs `take` (a statement that takes a lock) until it gets it or `waitMs` have passed. */
export function waitForLock<T>(take: () => T, waitMs: number): T {
  const deadline = Date.now() + waitMs;
  for (let attempt = 1;; attempt++) {
    try {
      return take();
    } catch (error) {
      if (!isBusy(error) || Date.now() >= deadline) throw error;
      sleepSync(Math.min(deadline - Date.now(), 1 + Math.random() * Math.min(attempt, 8)));
    }
  }
}

export interface OpenOptions {
  /** Hears where a corrupted database was moved before a fresh one replaced it. */
  onCorrupt?: (movedTo: string) => void;
  busyTimeoutMs?: number;
}

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
  // Capture. Observations and redirects point at sessions by number: a session id can be 10 KB.
  `CREATE TABLE sessions (
     id INTEGER PRIMARY KEY,
     session_key TEXT NOT NULL UNIQUE,
     cwd TEXT,
     agent TEXT NOT NULL,
     first_seen INTEGER NOT NULL,
     last_seen INTEGER NOT NULL,
     source TEXT,
     ended_at INTEGER,
     end_reason TEXT
   );
   CREATE INDEX sessions_by_cwd ON sessions (cwd, last_seen);
   CREATE INDEX sessions_by_last_seen ON sessions (last_seen);
   CREATE TABLE observations (
     id INTEGER PRIMARY KEY,
     session INTEGER NOT NULL,
     at INTEGER NOT NULL,
     event TEXT NOT NULL,
     tool TEXT,
     tool_use_id TEXT,
     summary TEXT NOT NULL,
     outcome TEXT,
     duration_ms INTEGER
   );
   CREATE UNIQUE INDEX observations_once ON observations (session, event, tool_use_id)
     WHERE tool_use_id IS NOT NULL;
   CREATE INDEX observations_by_time ON observations (at);
   CREATE INDEX observations_by_session ON observations (session, at);
   CREATE TABLE redirects (
     id INTEGER PRIMARY KEY,
     session INTEGER NOT NULL,
     at INTEGER NOT NULL,
     request_key TEXT NOT NULL,
     tool TEXT NOT NULL,
     request TEXT NOT NULL,
     database TEXT NOT NULL,
     mcp_tool TEXT NOT NULL,
     followed_at INTEGER,
     escaped_at INTEGER
   );
   CREATE INDEX redirects_by_session ON redirects (session, request_key);
   CREATE INDEX redirects_by_time ON redirects (at);
   CREATE TABLE hook_runs (
     id INTEGER PRIMARY KEY,
     at INTEGER NOT NULL,
     event TEXT NOT NULL,
     ms REAL NOT NULL
   );
   CREATE INDEX hook_runs_by_time ON hook_runs (at);`,
  // Per-session switches (`disable` / `enable`): JSON, NULL when nothing is switched off.
  `ALTER TABLE sessions ADD COLUMN switches TEXT;`,
  // The escape hatch tells a second registration of the hook (the same tool call, the same tool_use_id) from
  // the agent's retry: the denied call's id, and the id of the retry that took the record. NULL on older rows.
  `ALTER TABLE denials ADD COLUMN tool_use_id TEXT;
   ALTER TABLE denials ADD COLUMN retried_by TEXT;`,
  // Which registration of the hook let the retry through: the retry seen again by another registration passes
  // again, and seen again by the same one (two identical events at once) is denied, so it opens once.
  `ALTER TABLE denials ADD COLUMN retried_via TEXT;`,
];

export const SCHEMA_VERSION = MIGRATIONS.length;

export class StateSchemaTooNewError extends Error {
  override name = "StateSchemaTooNewError";
}

export class StateSchemaTooOldError extends Error {
  override name = "StateSchemaTooOldError";
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

function migrate(db: DatabaseSync, waitMs: number): void {
  const version = waitForLock(() => userVersion(db), waitMs);
  if (version === SCHEMA_VERSION) return;
  // A newer program's database is refused before anything (even the journal mode) is changed in it.
  refuseNewer(version);
  waitForLock(() => db.exec("PRAGMA journal_mode = WAL"), waitMs);
  waitForLock(() => db.exec("BEGIN IMMEDIATE"), waitMs);
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

/** SQLite's words for a file that is not (or no longer) a database; nothing else is treated as corruption. */
export function isCorruption(error: unknown): boolean {
  return error instanceof Error &&
    /file is not a database|database disk image is malformed/.test(error.message);
}

/** How to get rid of a corrupted database that the hook has not replaced (yet). */
export const corruptionFix = (file: string) =>
  `move it aside, keeping it for inspection (mv ${file} ${file}.corrupt): the next hook event starts a fresh one`;

/**
 * Moves a corrupted database (and its -wal/-shm) aside, kept for inspection, so a fresh one can start.
 * Returns where it went. Losing the race to another process that moved it first is fine.
 */
export function moveAside(file: string, now = new Date()): string {
  const aside = `${file}.corrupt-${now.toISOString().replace(/[:.]/g, "-")}-${Deno.pid}`;
  // The database last: once it is gone, a process that opens meanwhile starts a fresh one, whose -wal and
  // -shm must not then be moved away with the corrupted one's.
  for (const suffix of ["-wal", "-shm", ""]) {
    try {
      Deno.renameSync(file + suffix, aside + suffix);
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound)) throw error;
    }
  }
  return aside;
}

/** The file's inode: null where the OS has none, undefined when there is no file. */
function inode(file: string): number | null | undefined {
  try {
    return Deno.statSync(file).ino;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return undefined;
    throw error;
  }
}

/** As inode(), creating the file (and its 0700 directory) when missing. */
function statOrCreate(dir: string, file: string): number | null {
  const found = inode(file);
  if (found !== undefined) return found;
  ensurePrivateDir(dir);
  createPrivateFile(file);
  // The new file's own inode, so that a later move aside can tell it from one another process put there.
  return inode(file) ?? null;
}

/**
 * The state database of a directory, and the means to replace it when it turns out corrupted. SQLite reads
 * most pages only when a statement needs them, so a file with garbled pages opens fine and fails later, in
 * the middle of an event.
 */
export class StateFile {
  private readonly file: string;
  /** The inode the database was opened from: only that file may be moved aside. */
  private opened: number | null = null;

  constructor(private readonly dir: string, os: OS, private readonly options: OpenOptions = {}) {
    this.file = stateDbPath(dir, os);
  }

  /**
   * Opens (creating 0700 dir / 0600 file when missing) and migrates the state database; a file that is
   * corrupted where opening reads it (its header, its schema) is replaced. Throws when it cannot open.
   */
  open(): DatabaseSync {
    this.opened = statOrCreate(this.dir, this.file);
    try {
      return openFile(this.file, this.options.busyTimeoutMs);
    } catch (error) {
      if (!isCorruption(error)) throw error;
      return this.replace();
    }
  }

  /**
   * Moves the corrupted database aside and opens a fresh one; the caller has closed its connection. Another
   * hook process may have replaced the file already: its fresh database must not be moved too.
   */
  replace(): DatabaseSync {
    const current = inode(this.file);
    if (current !== undefined && (this.opened === null || current === this.opened)) {
      this.options.onCorrupt?.(moveAside(this.file));
    }
    this.opened = statOrCreate(this.dir, this.file);
    return openFile(this.file, this.options.busyTimeoutMs);
  }

  /** The size of the database's WAL: 0 when there is none. */
  walBytes(): number {
    try {
      return Deno.statSync(`${this.file}-wal`).size;
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) return 0;
      throw error;
    }
  }
}

/**
 * How much WAL a hook process leaves behind for the next one (see StateStore): about seven denials' worth on
 * a fresh database. The next process, finding itself alone, reads what it holds to index it.
 */
export const WAL_KEPT_BYTES = 512 * 1024;

/**
 * Moves the WAL into the database and empties it: SQLite syncs the WAL, writes the database, syncs it, then
 * truncates the WAL, so a power loss at any point leaves a consistent database. It does not wait for another
 * process: one that is reading or writing leaves the WAL to a later event.
 */
export function truncateWal(db: DatabaseSync): void {
  db.exec("PRAGMA busy_timeout = 0");
  db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
}

/** Opens the state database (see StateFile.open) for a caller that will not need to replace it later. */
export function openStateDb(dir: string, os: OS, options: OpenOptions = {}): DatabaseSync {
  return new StateFile(dir, os, options).open();
}

function openFile(file: string, waitMs = BUSY_TIMEOUT_MS): DatabaseSync {
  const db = new DatabaseSync(file, { timeout: SQLITE_BUSY_MS });
  try {
    // WAL needs no fsync per commit to stay consistent; it could lose the last denial on power loss. The
    // first statement reads the schema, which a migrating writer can hold locked on a new database.
    waitForLock(() => db.exec("PRAGMA synchronous = NORMAL"), waitMs);
    migrate(db, waitMs);
  } catch (error) {
    db.close();
    throw error;
  }
  return db;
}

/**
 * For the commands that change the state but must not create it, and for doctor: the state database if there
 * is one (migrated to the current schema, which keeps all data), else undefined. A corrupted file is left
 * where it is.
 */
export function openExistingStateDb(dir: string, os: OS): DatabaseSync | undefined {
  const file = stateDbPath(dir, os);
  return inode(file) === undefined ? undefined : openFile(file);
}

/**
 * `file` as an SQLite URI that opens it read-only, its -shm included (`readonly_shm`): where no other process
 * has the database open, SQLite indexes the WAL in memory rather than rebuilding the -shm in place.
 */
export function readOnlyUri(file: string, os: OS): string {
  const path = os === "windows" ? file.replaceAll("\\", "/") : file;
  const escaped = path.replace(/[%?#]/g, (c) => encodeURIComponent(c));
  const authority = escaped.startsWith("/") ? "//" : /^[a-zA-Z]:/.test(escaped) ? "///" : "";
  return `file:${authority}${escaped}?mode=ro&readonly_shm=1`;
}

/**
 * For the commands that only look: the state database as it is (never migrated), or undefined when the hook
 * has not set one up yet. Nothing is written or left behind. To read a WAL database SQLite needs its -wal and
 * -shm files: where they are there (a hook process leaves them, see StateStore), the connection reads them
 * without writing either; where they are not, SQLite makes them, and only a read-write connection (which
 * writes nothing here) removes them again on closing, as the last connection to a database does. The caller
 * closes it.
 */
export function openStateDbForLooking(dir: string, os: OS): DatabaseSync | undefined {
  const file = stateDbPath(dir, os);
  if (inode(file) === undefined) return undefined;
  const shared = inode(`${file}-wal`) !== undefined && inode(`${file}-shm`) !== undefined;
  const db = shared
    ? new DatabaseSync(readOnlyUri(file, os), { readOnly: true, timeout: BUSY_TIMEOUT_MS })
    : new DatabaseSync(file, { timeout: BUSY_TIMEOUT_MS });
  let version: number;
  try {
    version = userVersion(db);
  } catch (error) {
    db.close();
    throw error;
  }
  if (version === SCHEMA_VERSION) return db;
  db.close();
  refuseNewer(version);
  // Schema 0: a file that a hook event created a moment ago and has not set up yet.
  if (version === 0) return undefined;
  throw new StateSchemaTooOldError(
    `state database schema ${version} is older than this docsearch-hook's (${SCHEMA_VERSION}), and looking does not upgrade it`,
  );
}
