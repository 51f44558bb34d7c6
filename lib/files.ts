/** Reading and replacing the user's files so that a failure half-way never leaves a half-written one. */
import { messageOf, Problem } from "./errors.ts";
import { baseName, dirName, isAbsolute, join, type OS } from "./paths.ts";

/** What a write needs of the process it runs in: path rules, and a temp name no other process picks. */
export interface Writer {
  os: OS;
  pid: number;
}

/**
 * The file's bytes when it holds at most `cap`, else undefined. Read to at most one byte past the cap: a stat's
 * size can lie (`/proc/self/pagemap` says 0 and reads for hundreds of GB), so the cap holds on what is read, not
 * on what was promised. Open a FIFO only after a stat said it is a regular file: opening one blocks.
 */
export function readBytesCapped(path: string, cap: number): Uint8Array | undefined {
  using file = Deno.openSync(path);
  // Sized by what the stat says, and grown (doubled, up to one byte past the cap) when the file holds more: a
  // buffer of the cap for every small file cost a folder of 2,000 pages 2.6 times the time and 4 times the
  // memory (10 MB each).
  let buffer = new Uint8Array(Math.min(cap, file.statSync().size) + 1);
  let total = 0;
  for (;;) {
    if (total === buffer.length) {
      if (buffer.length > cap) break;
      const grown = new Uint8Array(Math.min(cap + 1, buffer.length * 2));
      grown.set(buffer);
      buffer = grown;
    }
    const n = file.readSync(buffer.subarray(total));
    if (n === null) break;
    total += n;
  }
  return total > cap ? undefined : buffer.subarray(0, total);
}

/** The file's text when it holds at most `cap` bytes, else undefined (see `readBytesCapped`). */
export function readTextCapped(path: string, cap: number): string | undefined {
  const bytes = readBytesCapped(path, cap);
  return bytes && new TextDecoder().decode(bytes);
}

/**
 * A regular file's text when it holds at most `cap` bytes; undefined when `path` is missing, unreadable, not a
 * regular file (a FIFO would block the open) or larger. For the files a checkout supplies, which may be anything.
 */
export function readRegularTextCapped(path: string, cap: number): string | undefined {
  try {
    return isFile(path) ? readTextCapped(path, cap) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Whether `path`, its links resolved, lies in `folder` (its links resolved too): a link in a package that
 * points out of it (at `~/.ssh/id_rsa`, at another project) does not make that file the package's.
 */
export function isWithin(folder: string, path: string): boolean {
  const root = realPath(folder);
  const real = realPath(path);
  return real.startsWith(root) && (real.length === root.length || /[\\/]/.test(real[root.length]) ||
    /[\\/]$/.test(root));
}

function statIs(path: string, kind: "isFile" | "isDirectory"): boolean {
  try {
    return Deno.statSync(path)[kind];
  } catch {
    return false;
  }
}

/** Whether `path` is a regular file (a link is followed); false when it cannot be stat'ed. */
export const isFile = (path: string): boolean => statIs(path, "isFile");
/** Whether `path` is a folder (a link is followed); false when it cannot be stat'ed. */
export const isDirectory = (path: string): boolean => statIs(path, "isDirectory");

/** Whether `path` names something that can be stat'ed (a link is followed). */
export function exists(path: string): boolean {
  try {
    Deno.statSync(path);
    return true;
  } catch {
    return false;
  }
}

export function readIfExists(path: string): string | undefined {
  try {
    return Deno.readTextFileSync(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return undefined;
    throw new Problem(`cannot read ${path}: ${messageOf(error)}`);
  }
}

/**
 * The file a write to `path` should replace: a symlink's target (dotfile managers link settings files),
 * so that the link stays a link.
 */
function realTarget(path: string, os: OS): string {
  try {
    if (!Deno.lstatSync(path).isSymlink) return path;
  } catch {
    return path;
  }
  try {
    return Deno.realPathSync(path);
  } catch {
    // A link (through links) to a file not created yet: write where the last one points.
    let target = path;
    for (let hops = 0; hops < 40; hops++) {
      try {
        if (!Deno.lstatSync(target).isSymlink) break;
      } catch {
        break;
      }
      const link = Deno.readLinkSync(target);
      target = isAbsolute(link, os) ? link : join(os, dirName(target), link);
    }
    return target;
  }
}

/** The entries of a folder; none when it is missing or cannot be read (a project's folders are inputs). */
export function entriesOf(path: string): Deno.DirEntry[] {
  try {
    return [...Deno.readDirSync(path)];
  } catch {
    return [];
  }
}

/** The path with its links resolved (and, on Windows, its case as on disk); as given when it is not there. */
export function realPath(path: string): string {
  try {
    return Deno.realPathSync(path);
  } catch {
    return path;
  }
}

/** A folder and its parents; what stands in the way is named, with what to do about it. */
export function makeDir(path: string): void {
  try {
    Deno.mkdirSync(path, { recursive: true });
  } catch (error) {
    throw new Problem(
      `cannot create the folder ${path}: ${messageOf(error)}`,
      "move away what stands at that path (a file, or a link to nowhere), or make its parent writable",
    );
  }
}

/** Temp file beside the target, then rename: readers see the old file or the new one, never a part. */
export function writeAtomically(path: string, text: string, { os, pid }: Writer): void {
  const target = realTarget(path, os);
  let mode: number | undefined;
  try {
    mode = Deno.statSync(target).mode ?? undefined;
  } catch {
    // A new file: the umask decides, as for any file the user creates.
  }
  const temp = `${target}.tmp-${pid}`;
  try {
    Deno.writeTextFileSync(temp, text, mode === undefined ? {} : { mode: mode & 0o777 });
    Deno.renameSync(temp, target);
  } catch (error) {
    try {
      Deno.removeSync(temp);
    } catch {
      // Never created.
    }
    throw new Problem(`cannot write ${path}: ${messageOf(error)}`);
  }
}

/** `20261121T101500Z`: sorts by time, and has no characters that any file system refuses. */
function stamp(now: Date): string {
  return now.toISOString().replace(/\.\d+Z$/, "Z").replaceAll(/[-:]/g, "");
}

/** Backups kept of a file the program rewrites often (pruneBackups): nobody reads a tenth. */
export const KEPT_BACKUPS = 5;

/**
 * Deletes all but the newest `keep` of `path`'s backups (backUp's names, by when they were written: a name's
 * number is reused once its file is gone): for a file the program rewrites often, where one backup per edit
 * would pile up unseen.
 */
export function pruneBackups(path: string, os: OS, keep = KEPT_BACKUPS): void {
  const dir = dirName(path);
  const prefix = `${baseName(path)}.bak-`;
  let backups: { file: string; written: number }[];
  try {
    backups = [...Deno.readDirSync(dir)]
      // Only backUp's names: a file the user named alike is not ours to delete.
      .filter((entry) =>
        entry.isFile && entry.name.startsWith(prefix) &&
        /^\d{8}T\d{6}Z(?:-\d+)?$/.test(entry.name.slice(prefix.length))
      )
      .map((entry) => {
        const file = join(os, dir, entry.name);
        return { file, written: Deno.statSync(file).mtime?.getTime() ?? 0 };
      });
  } catch {
    return;
  }
  // Equal times (a file system that keeps whole seconds) fall back to the name, which holds the time too.
  backups.sort((a, b) => a.written - b.written || (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
  for (const { file } of backups.slice(0, Math.max(0, backups.length - keep))) {
    try {
      Deno.removeSync(file);
    } catch {
      // One that cannot go now goes next time.
    }
  }
}

/** Copies `path` to `<path>.bak-<UTC time>` (a new name even when two backups fall in the same second). */
export function backUp(path: string, now: Date, os: OS): string {
  const base = `${path}.bak-${stamp(now)}`;
  for (let n = 1;; n++) {
    const backup = n === 1 ? base : `${base}-${n}`;
    try {
      Deno.writeTextFileSync(backup, Deno.readTextFileSync(realTarget(path, os)), {
        createNew: true,
        mode: 0o600,
      });
      return backup;
    } catch (error) {
      if (!(error instanceof Deno.errors.AlreadyExists)) {
        throw new Problem(
          `cannot back up ${path}: ${messageOf(error)}; nothing was changed`,
        );
      }
    }
  }
}
