/**
 * The hook's hot path as one file. `deno run` pays ~0.1 ms of start-up per TypeScript module it loads
 * (resolution, emit and code caches, instantiation), and the hook's ~30 modules were a third of its own
 * time; `deno task bundle` (bundle_hook.ts) writes them as one module to lib/.build/, with the size and
 * modification time of every source it was made from. The hook runs that file only while every source is
 * unchanged, else the modules themselves: an edit is never run stale, only slower until the next bundle.
 */

/**
 * The V8 flag a checkout runs with (install registers it): every function is compiled when its module is,
 * so Deno's code cache holds them all and a later run does not compile each one again at its first call.
 * Measured on the hook's start-up: 1.3 ms less with the bundle, 1.8 ms with the modules; no slower for the
 * commands that load zod. Compiled binaries do not get it: their code cache could not be measured here.
 */
export const V8_FLAGS = "--v8-flags=--no-lazy";

const BUILD_NAME = ".build";
/**
 * Where the bundle goes, relative to the checkout: two levels down like lib/config/load.ts, so that its
 * `new URL("../config/resolve.ts", import.meta.url)` names the same file from the bundle.
 */
export const BUILD_DIR = `lib/${BUILD_NAME}/`;
export const BUNDLE_FILE = "hook.js";
export const MANIFEST_FILE = "hook.json";

/** A file as the bundle saw it: path relative to the checkout, size in bytes, modification time in ms. */
export type SourceStamp = [path: string, size: number, mtimeMs: number];

export interface Manifest {
  /** The bundle itself, so that a truncated or hand-edited bundle is not run. */
  bundle: SourceStamp;
  sources: SourceStamp[];
}

/** What the check needs of the file system (Deno's, in the hook). */
export interface HotPathFs {
  readDir(url: URL): Iterable<{ name: string }>;
  readText(url: URL): string;
  stat(url: URL): { size: number; mtime: Date | null };
}

const denoFs: HotPathFs = {
  readDir: (url) => Deno.readDirSync(url),
  readText: (url) => Deno.readTextFileSync(url),
  stat: (url) => Deno.statSync(url),
};

export function stampOf(root: URL, path: string, fs: Pick<HotPathFs, "stat"> = denoFs): SourceStamp {
  const info = fs.stat(new URL(path, root));
  // Without a modification time (a file system that keeps none) a stamp never matches: only the modules run.
  return [path, info.size, info.mtime?.getTime() ?? NaN];
}

const unchanged = (root: URL, [path, size, mtimeMs]: SourceStamp, fs: HotPathFs) => {
  const [, nowSize, nowMtime] = stampOf(root, path, fs);
  return nowSize === size && nowMtime === mtimeMs;
};

/**
 * The bundle's URL when it was made from the sources as they are now, else undefined. A checkout without a
 * bundle costs one folder listing: opening a missing file would cost more (Deno builds the error's stack).
 */
export function freshBundle(root: URL, fs: HotPathFs = denoFs): string | undefined {
  try {
    if (!Array.from(fs.readDir(new URL("lib/", root)), (entry) => entry.name).includes(BUILD_NAME)) {
      return undefined;
    }
    const manifest = JSON.parse(fs.readText(new URL(BUILD_DIR + MANIFEST_FILE, root))) as Manifest;
    const stamps = [manifest.bundle, ...manifest.sources];
    if (!stamps.every((stamp) => unchanged(root, stamp, fs))) return undefined;
    return new URL(manifest.bundle[0], root).href;
  } catch {
    // An unreadable or torn manifest, a source gone: the modules are always right.
    return undefined;
  }
}
