/**
 * One build of dependency docs at a time on a machine, whoever starts it (a session's background upkeep,
 * `index add --project` typed by hand): two builds of one package@version would write one index file at once.
 * The lock is the operating system's lock on a file beside the indexes (flock, LockFileEx), not the
 * file's existence: it goes with the process that holds it, so a process killed mid-build leaves no lock
 * behind and the next one takes it at once, where a lock file with a heartbeat would keep the others waiting
 * for its bound to pass.
 */
import { join, type OS } from "../paths.ts";
import { ensurePrivateDir } from "../state/dir.ts";

const LOCK_FILE = "dependency-docs.lock";

/** Held until released, or until the process that took it ends. */
export interface BuildLock {
  release(): void;
}

/** `indexes` is the folder of the indexes (indexesDir), where the builds write. */
function open(os: OS, indexes: string): Deno.FsFile {
  ensurePrivateDir(indexes);
  return Deno.openSync(join(os, indexes, LOCK_FILE), { read: true, write: true, create: true, mode: 0o600 });
}

const held = (file: Deno.FsFile): BuildLock => ({ release: () => file.close() });

/** The lock, when no one holds it now; undefined when another build does. */
export function tryBuildLock(os: OS, indexes: string): BuildLock | undefined {
  const file = open(os, indexes);
  if (file.tryLockSync(true)) return held(file);
  file.close();
  return undefined;
}

/** The lock, waiting (blocked) for the build that holds it; `waiting` is called first when there is one. */
export function buildLock(os: OS, indexes: string, waiting: () => void): BuildLock {
  const file = open(os, indexes);
  if (!file.tryLockSync(true)) {
    waiting();
    file.lockSync(true);
  }
  return held(file);
}
