/**
 * Where this program's own modules are. From a checkout, main.ts runs the TypeScript sources; the shipped
 * artifact (`deno task build`: dist/docsearch-hook.js, which the release binaries compile) holds the same
 * modules as JavaScript: the ones loaded on demand laid out as the sources are (dist/lib/cli/commands.js for
 * lib/cli/commands.ts).
 *
 * The few modules loaded on demand are imported by a specifier computed here: `deno run` reads and analyses
 * every module a literal `import("…")` names before the first line runs, so the hook would pay for the
 * command line's modules and zod on every event (10 ms measured with the artifact's chunks). Strings, not
 * URLs: a process's first `new URL` costs 0.2 ms.
 */

export const ARTIFACT_ENTRY = "docsearch-hook.js";

/**
 * The main module, as the runtime names it (a `file:` URL from a checkout, the artifact or a binary). A worker
 * thread has none: programWorker names it the main thread's, so the program's modules are where they are there.
 */
const main = Deno.mainModule ?? (globalThis as { name?: string }).name ?? "";
/** Running the artifact (from `deno run` or compiled), rather than the sources. */
export const BUILT = main.endsWith(`/${ARTIFACT_ENTRY}`);

/**
 * The folder that holds main.ts or the artifact's entry, with a trailing `/`. Elsewhere (a test importing a
 * module directly) the sources' own folder, which this file's place names.
 */
export const PROGRAM_ROOT = BUILT
  ? main.slice(0, main.lastIndexOf("/") + 1)
  : import.meta.url.slice(0, import.meta.url.lastIndexOf("/lib/") + 1);

/** The specifier of one of the program's modules, by its path from the root without extension. */
export const programModule = (path: string): string => `${PROGRAM_ROOT}${path}${BUILT ? ".js" : ".ts"}`;

/** A worker thread running one of the program's modules (by its path, as programModule takes it). */
export const programWorker = (path: string): Worker =>
  new Worker(programModule(path), { type: "module", name: main });
