/**
 * Doctor's check of the state database, made by using it: opened (created when missing, as the first hook
 * event would), read whole, and written to under the lock, with the write rolled back.
 */
import { messageOf } from "../errors.ts";
import type { CommandContext } from "../cli/context.ts";
import { exists } from "../files.ts";
import type { Check } from "./checks.ts";

const size = (bytes: number) =>
  bytes < 1024
    ? `${bytes} B`
    : bytes < 1024 ** 2
    ? `${(bytes / 1024).toFixed(0)} KB`
    : `${(bytes / 1024 ** 2).toFixed(1)} MB`;

/**
 * Opens the state database (creating it when missing, as the first hook event would; an existing one as it
 * is, so a damaged file is reported, not moved aside), reads every page, and proves a write would succeed.
 */
export async function stateCheck(
  lockWaitMs: number,
  { os, stateDir: dir }: Pick<CommandContext, "os" | "stateDir">,
): Promise<Check> {
  const name = "state";
  if (dir === undefined) {
    return {
      status: "fail",
      name,
      message: "no state directory: neither DOCSEARCH_HOME nor HOME is set, so no escape hatch works",
      fix: "set DOCSEARCH_HOME (or HOME) in the agent's environment",
    };
  }
  const {
    corruptionFix,
    isBusy,
    isCorruption,
    openExistingStateDb,
    openStateDb,
    SCHEMA_VERSION,
    stateDbPath,
    waitForLock,
  } = await import("../state/db.ts");
  const file = stateDbPath(dir, os);
  const existed = exists(file);
  const damaged = (problem: string): Check => ({
    status: "fail",
    name,
    // The hook replaces it only once an event reads a damaged page; until then reports may fail.
    message: `${file} is damaged: ${problem}`,
    fix: corruptionFix(file),
  });
  const busy: Check = {
    status: "warn",
    name,
    message: `${file} is busy: other hook processes hold the write lock; try again`,
    fix:
      `run docsearch-hook doctor again in a moment; if it stays busy, see which process holds it: lsof ${file}`,
  };
  /** What an error means here: damage and a busy lock the same whether opening or writing failed. */
  const failure = (error: unknown, otherwise: Omit<Check, "status" | "name">): Check =>
    isCorruption(error)
      ? damaged(messageOf(error))
      : isBusy(error)
      ? busy
      : { status: "fail", name, ...otherwise };
  let db;
  try {
    db = openExistingStateDb(dir, os) ?? openStateDb(dir, os);
  } catch (error) {
    return failure(error, {
      message: `cannot open ${file}: ${messageOf(error)}`,
      fix: `make ${dir} a directory of yours (mode 0700), or set DOCSEARCH_HOME to one`,
    });
  }
  try {
    // Every page is read (on the build machine, 65 ms for 100k observations when cached, 0.7 s from disk):
    // opening reads only the first, and a garbled page elsewhere fails whatever event or report reads it.
    const [check] = db.prepare("PRAGMA quick_check(1)").all() as { quick_check: string }[];
    if (check.quick_check !== "ok") {
      return damaged(check.quick_check.split("\n").filter((line) => !line.startsWith("***")).join(" "));
    }
    const mode = (db.prepare("PRAGMA journal_mode").get() as { journal_mode: string }).journal_mode;
    const version = (db.prepare("PRAGMA user_version").get() as { user_version: number }).user_version;
    // Rewriting the version under a write lock, then rolling back: a real write, and nothing changes.
    waitForLock(() => db.exec("BEGIN IMMEDIATE"), lockWaitMs);
    try {
      db.exec(`PRAGMA user_version = ${version}`);
    } finally {
      db.exec("ROLLBACK");
    }
    const bytes = [file, `${file}-wal`].reduce(
      (sum, path) => sum + (exists(path) ? Deno.statSync(path).size : 0),
      0,
    );
    const facts = `${file}: schema ${version}, ${mode.toUpperCase()}, writable, ${size(bytes)}${
      existed ? "" : " (created now)"
    }`;
    if (mode.toLowerCase() !== "wal") {
      return {
        status: "warn",
        name,
        message: `${facts}: not in WAL mode, so parallel hook events wait for each other`,
        fix: `sqlite3 ${file} 'PRAGMA journal_mode=WAL'`,
      };
    }
    if (version !== SCHEMA_VERSION) {
      return {
        status: "fail",
        name,
        message: `${facts}: expected schema ${SCHEMA_VERSION}`,
        fix: "upgrade docsearch-hook",
      };
    }
    const open = os !== "windows" && ((Deno.statSync(dir).mode ?? 0) & 0o077) !== 0;
    return open
      ? {
        status: "warn",
        name,
        message: `${facts}; ${dir} can be read by other users, and it holds what your sessions did`,
        fix: `chmod 700 ${dir}`,
      }
      : { status: "ok", name, message: facts };
  } catch (error) {
    return failure(error, {
      message: `${file} is not writable: ${messageOf(error)}`,
      fix: `make ${file} and ${dir} yours and writable (file 0600, directory 0700)`,
    });
  } finally {
    db.close();
  }
}
