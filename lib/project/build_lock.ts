/**
 * One build of dependency docs at a time on a machine, whoever starts it (a session's background upkeep,
 * `index add --project` typed by hand): two builds of one package@version would write one index file at once.
 * Fetching thin packages' published docs has a lock of its own: a fetch waits on the network (up to 90 s a
 * package when a host does not answer), and under the build lock it would hold up every other project's build
 * for as long; two fetches still never write one package's published docs at once.
 *
 * A lock is the operating system's lock on a file beside the indexes (flock, LockFileEx), not the file's
 * existence: it goes with the process that holds it, so a process killed mid-build leaves no lock behind and
 * the next one takes it at once, where a lock file with a heartbeat would keep the others waiting for its
 * bound to pass.
 */
import { indexesDir, type IndexHome } from "../docs/indexes.ts";
import { join } from "../paths.ts";
import { ensurePrivateDir } from "../state/dir.ts";

/** What each lock guards: building the installed copies' indexes, or fetching published docs. */
const LOCK_FILES = { build: "dependency-docs.lock", fetch: "published-docs.lock" } as const;

export type LockKind = keyof typeof LOCK_FILES;

/** Held until released (again is a no-op), or until the process (or worker) that took it ends. */
export interface Lock {
  release(): void;
}

function open(home: IndexHome, kind: LockKind): Deno.FsFile {
  const indexes = indexesDir(home);
  ensurePrivateDir(indexes);
  return Deno.openSync(join(home.os, indexes, LOCK_FILES[kind]), {
    read: true,
    write: true,
    create: true,
    mode: 0o600,
  });
}

function held(file: Deno.FsFile): Lock {
  let open = true;
  return {
    release: () => {
      if (open) file.close();
      open = false;
    },
  };
}

/** The lock, when no one holds it now; undefined when another build (or fetch) does. */
export function tryLock(home: IndexHome, kind: LockKind): Lock | undefined {
  const file = open(home, kind);
  let locked = false;
  try {
    locked = file.tryLockSync(true);
  } finally {
    if (!locked) file.close();
  }
  return locked ? held(file) : undefined;
}

/**
 * Whether no process builds or fetches dependency docs now: neither lock is held. A progress record that says
 * "building" then speaks for a session that ended without saying so (killed), however recently it wrote.
 */
export function nobodyAtWork(home: IndexHome): boolean {
  const locks: Lock[] = [];
  try {
    for (const kind of ["build", "fetch"] as const) {
      const lock = tryLock(home, kind);
      if (lock === undefined) return false;
      locks.push(lock);
    }
    return true;
  } finally {
    for (const lock of locks) lock.release();
  }
}

/**
 * The lock, tried again after each `pause` while someone holds it: the thread is not blocked meanwhile (a
 * server's answers, a fetch in the same process go on). Undefined when `pause` says to stop (false).
 * `waiting` is called once, first, when someone holds it.
 */
export async function lockWhenFree(
  home: IndexHome,
  kind: LockKind,
  pause: () => Promise<boolean>,
  waiting: () => void = () => {},
): Promise<Lock | undefined> {
  let lock = tryLock(home, kind);
  if (lock === undefined) waiting();
  while (lock === undefined) {
    if (!await pause()) return undefined;
    lock = tryLock(home, kind);
  }
  return lock;
}

/** The lock, tried every `ms` until whoever holds it lets go: for a wait no one calls off. */
export async function lockPolling(
  home: IndexHome,
  kind: LockKind,
  ms: number,
  waiting?: () => void,
): Promise<Lock> {
  const pause = () => new Promise<boolean>((resolve) => setTimeout(() => resolve(true), ms));
  const lock = await lockWhenFree(home, kind, pause, waiting);
  // A pause that never says to stop: the lock always comes.
  return lock!;
}
