/**
 * The hook's hot path as one file. `deno run` pays ~0.1 ms of start-up per TypeScript module it loads
 * (resolution, emit and code caches, instantiation), and the hook's ~30 modules were a third of its own
 * time; `deno task bundle` (bundle_hook.ts) writes them, with the `hook` command's spec and error boundary,
 * as one module to lib/.build/, with the size and modification time of every source it was made from.
 * main.ts runs that file only while every source is unchanged, else the modules themselves: an edit is never
 * run stale, only slower until the next bundle. Paths are plain strings here: the first `new URL` of a
 * process costs the hook 0.2 ms.
 */

/**
 * The V8 flag a checkout runs with (install registers it): every function is compiled when its module is,
 * so Deno's code cache holds them all and a later run does not compile each one again at its first call.
 * Measured on the hook's start-up: 1.3 ms less with the bundle, 1.8 ms with the modules; no slower for the
 * commands that load zod. Compiled binaries do not get it: their code cache could not be measured here.
 */
export const V8_FLAGS = "--v8-flags=--no-lazy";

/** The module bundled: `docsearch-hook hook` with the hook's modules in it. */
export const BUNDLE_ENTRY = "lib/build/hook_cli.ts";

const BUILD_NAME = ".build";
/**
 * Where the bundle goes, relative to the checkout: two levels down like lib/config/load.ts, so that its
 * `new URL("../config/resolve.ts", import.meta.url)` names the same file from the bundle.
 */
export const BUILD_DIR = `lib/${BUILD_NAME}/`;
export const BUNDLE_FILE = "hook.js";
export const MANIFEST_FILE = "hook.json";

/** A file as the bundle saw it: path relative to the checkout (with `/`), size in bytes, modification time in ms. */
export type SourceStamp = [path: string, size: number, mtimeMs: number];

export interface Manifest {
  /** The bundle itself, so that a truncated or hand-edited bundle is not run. */
  bundle: SourceStamp;
  sources: SourceStamp[];
}

/** What the check needs of the file system (Deno's, in the hook), by path. */
export interface HotPathFs {
  readDir(path: string): Iterable<{ name: string }>;
  readText(path: string): string;
  stat(path: string): { size: number; mtime: Date | null };
}

const denoFs: HotPathFs = {
  readDir: (path) => Deno.readDirSync(path),
  readText: (path) => Deno.readTextFileSync(path),
  stat: (path) => Deno.statSync(path),
};

/** `root` is the checkout's folder; Deno takes `/` after it on every system. */
export function stampOf(root: string, path: string, fs: Pick<HotPathFs, "stat"> = denoFs): SourceStamp {
  const info = fs.stat(`${root}/${path}`);
  // Without a modification time (a file system that keeps none) a stamp never matches: only the modules run.
  return [path, info.size, info.mtime?.getTime() ?? NaN];
}

const unchanged = (root: string, [path, size, mtimeMs]: SourceStamp, fs: HotPathFs) => {
  const [, nowSize, nowMtime] = stampOf(root, path, fs);
  return nowSize === size && nowMtime === mtimeMs;
};

/**
 * The bundle's path relative to the checkout when it was made from the sources as they are now, else
 * undefined. A checkout without a bundle costs one folder listing: opening a missing file would cost more
 * (Deno builds the error's stack).
 */
export function freshBundle(root: string, fs: HotPathFs = denoFs): string | undefined {
  try {
    if (!Array.from(fs.readDir(`${root}/lib`), (entry) => entry.name).includes(BUILD_NAME)) {
      return undefined;
    }
    const manifest = JSON.parse(fs.readText(`${root}/${BUILD_DIR}${MANIFEST_FILE}`)) as Manifest;
    const stamps = [manifest.bundle, ...manifest.sources];
    if (!stamps.every((stamp) => unchanged(root, stamp, fs))) return undefined;
    return manifest.bundle[0];
  } catch {
    // An unreadable or torn manifest, a source gone: the modules are always right.
    return undefined;
  }
}
