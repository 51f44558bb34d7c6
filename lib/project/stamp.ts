/**
 * Whether a project's dependencies changed since their docs were indexed: its lockfiles' sizes and
 * modification times then (one per ecosystem the project uses: package-lock.json beside go.sum), kept in the
 * state directory, against their stats now. The hook asks at SessionStart only: one small read and a stat a
 * lockfile, no scan of node_modules.
 */
import { hash53 } from "../hash.ts";
import { join, type OS } from "../paths.ts";

interface FileStamp {
  path: string;
  size: number;
  mtime: number;
}

interface LockStamp {
  project: string;
  lockfiles: FileStamp[];
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

/** Records the lockfiles as they are now, after the project's dependency docs were indexed. */
export function recordLockfiles(
  os: OS,
  stateDir: string,
  project: string,
  lockfiles: readonly string[],
): void {
  const stamps = lockfiles.flatMap((path) => {
    const now = stat(path);
    return now === undefined ? [] : [{ path, ...now }];
  });
  if (stamps.length === 0) return;
  Deno.mkdirSync(join(os, stateDir, "projects"), { recursive: true, mode: 0o700 });
  const stamp: LockStamp = { project, lockfiles: stamps };
  Deno.writeTextFileSync(stampFile(os, stateDir, project), JSON.stringify(stamp));
}

function readStamp(os: OS, stateDir: string, project: string): LockStamp | undefined {
  try {
    const stamp = JSON.parse(Deno.readTextFileSync(stampFile(os, stateDir, project)));
    if (stamp?.project !== project) return undefined;
    // Written by a version that kept one lockfile a project.
    if (typeof stamp.lockfile === "string") {
      return { project, lockfiles: [{ path: stamp.lockfile, size: stamp.size, mtime: stamp.mtime }] };
    }
    return Array.isArray(stamp.lockfiles) &&
        stamp.lockfiles.every((file: Partial<FileStamp>) => typeof file?.path === "string")
      ? stamp
      : undefined;
  } catch {
    return undefined;
  }
}

const unchanged = (file: FileStamp) => {
  const now = stat(file.path);
  return now?.size === file.size && now.mtime === file.mtime;
};

/**
 * A lockfile that changed (or went) since the project's dependency docs were indexed; undefined when none did,
 * or when they never were. A stamp that cannot be read says nothing.
 */
export function changedLockfile(os: OS, stateDir: string, project: string): string | undefined {
  return readStamp(os, stateDir, project)?.lockfiles.find((file) => !unchanged(file))?.path;
}

/** Whether the project's dependency docs were indexed from `lockfiles`, each as it is now. */
export function indexedFrom(
  os: OS,
  stateDir: string,
  project: string,
  lockfiles: readonly string[],
): boolean {
  const stamp = readStamp(os, stateDir, project);
  if (stamp === undefined || lockfiles.length === 0) return false;
  const recorded = new Map(stamp.lockfiles.map((file) => [file.path, file]));
  return recorded.size === lockfiles.length &&
    lockfiles.every((path) => recorded.has(path) && unchanged(recorded.get(path)!));
}
