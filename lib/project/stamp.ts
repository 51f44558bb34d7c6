/**
 * Whether a project's dependencies changed since `index add --project` indexed their docs: the lockfile's
 * size and modification time then, kept in the state directory, against its stat now. The hook asks at
 * SessionStart only: one small read and one stat, no scan of node_modules.
 */
import { hash53 } from "../hash.ts";
import { join, type OS } from "../paths.ts";

interface LockStamp {
  project: string;
  lockfile: string;
  size: number;
  mtime: number;
}

/** One file per project, named by a hash of its path. */
const stampFile = (os: OS, stateDir: string, project: string) =>
  join(os, stateDir, "projects", `${hash53(project)}.json`);

function stat(path: string): { size: number; mtime: number } | undefined {
  try {
    const info = Deno.statSync(path);
    return { size: info.size, mtime: info.mtime?.getTime() ?? 0 };
  } catch {
    return undefined;
  }
}

/** Records the lockfile as it is now, after the project's dependency docs were indexed. */
export function recordLockfile(os: OS, stateDir: string, project: string, lockfile: string): void {
  const now = stat(lockfile);
  if (now === undefined) return;
  const file = stampFile(os, stateDir, project);
  Deno.mkdirSync(join(os, stateDir, "projects"), { recursive: true, mode: 0o700 });
  const stamp: LockStamp = { project, lockfile, ...now };
  Deno.writeTextFileSync(file, JSON.stringify(stamp));
}

function readStamp(os: OS, stateDir: string, project: string): LockStamp | undefined {
  try {
    const stamp: LockStamp = JSON.parse(Deno.readTextFileSync(stampFile(os, stateDir, project)));
    return stamp?.project === project && typeof stamp.lockfile === "string" ? stamp : undefined;
  } catch {
    return undefined;
  }
}

const unchanged = (stamp: LockStamp) => {
  const now = stat(stamp.lockfile);
  return now?.size === stamp.size && now.mtime === stamp.mtime;
};

/**
 * The lockfile, when it changed (or went) since the project's dependency docs were indexed; undefined when it
 * did not, or when they never were. A stamp that cannot be read says nothing.
 */
export function changedLockfile(os: OS, stateDir: string, project: string): string | undefined {
  const stamp = readStamp(os, stateDir, project);
  return stamp === undefined || unchanged(stamp) ? undefined : stamp.lockfile;
}

/** Whether the project's dependency docs were indexed from `lockfile` as it is now. */
export function indexedFrom(os: OS, stateDir: string, project: string, lockfile: string): boolean {
  const stamp = readStamp(os, stateDir, project);
  return stamp?.lockfile === lockfile && unchanged(stamp);
}
