/**
 * `deno task build`: the program as it ships, in dist/ (or `--outdir DIR`). Its entry, dist/docsearch-hook.js,
 * is main.ts with the hook in it; the modules main.ts and the config loader import by computed specifiers
 * (see lib/program.ts) are entries of their own at their sources' paths (dist/lib/cli/commands.js …), so that
 * `hook` loads only the hook's code, and each command's code is a chunk loaded when it runs. The release binaries compile exactly this
 * (compile.ts), and the benchmark times it.
 *
 *   deno task build [--outdir DIR]
 */
import { parseArgv } from "../cli/args.ts";
import { fileUrlPath } from "../paths.ts";
import { ARTIFACT_ENTRY } from "../program.ts";
import { eagerFunctions } from "./eager.ts";

/**
 * main.ts, with the hook in it, is one file: `deno run` pays about 0.1 ms for every module it loads, and
 * split, the hook loaded 18 chunks it shares with the command line. The modules imported by computed
 * specifiers, the command line, the config's validation and the redirect's local answer, are split (their
 * common code in chunks), under lib/ as in the sources; so is the worker that builds dependency docs for the
 * MCP server, which a thread loads by its path.
 */
const SPLIT_ENTRIES = [
  "lib/cli/commands.ts",
  "lib/config/resolve.ts",
  "lib/answer/hook_answer.ts",
  "lib/project/upkeep_worker.ts",
];

const root = new URL("../../", import.meta.url);

async function bundle(args: string[]): Promise<void> {
  const bundled = await new Deno.Command(Deno.execPath(), {
    // Minified: about half the size, and the hook loads it on every event.
    args: ["bundle", "--quiet", "--platform", "deno", "--minify", ...args],
    cwd: root,
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (!bundled.success) {
    throw new BuildFailedError(`deno bundle failed:\n${new TextDecoder().decode(bundled.stderr)}`);
  }
}

export class BuildFailedError extends Error {
  override name = "BuildFailedError";
}

/**
 * Writes the artifact to `outdir` (relative to the checkout), replacing what a previous build left there;
 * anything else in it (compiled binaries in `bin/`) stays. Returns the entry's path.
 */
export async function build(outdir = "dist"): Promise<string> {
  const out = new URL(`${outdir.replace(/\/*$/, "")}/`, root);
  const scratch = await Deno.makeTempDir({ prefix: "docsearch-build-" });
  try {
    // Their common folder, lib/, is where esbuild puts the split entries' paths from.
    await bundle(["--code-splitting", "--outdir", `${scratch}/lib`, ...SPLIT_ENTRIES]);
    const entry = `${scratch}/${ARTIFACT_ENTRY}`;
    await bundle(["--output", entry, "main.ts"]);
    // The hook runs most of the entry on every event: compiled with it, its functions come from the code cache.
    await Deno.writeTextFile(entry, eagerFunctions(await Deno.readTextFile(entry)));
    await Deno.mkdir(out, { recursive: true });
    for await (const entry of Deno.readDir(out)) {
      if (entry.name !== "bin") await Deno.remove(new URL(entry.name, out), { recursive: true });
    }
    for await (const entry of Deno.readDir(scratch)) {
      await Deno.rename(`${scratch}/${entry.name}`, new URL(entry.name, out));
    }
    return fileUrlPath(new URL(ARTIFACT_ENTRY, out), Deno.build.os);
  } finally {
    await Deno.remove(scratch, { recursive: true });
  }
}

/** The newest modification time of what the artifact is built from: main.ts, deno.json and lock, lib/. */
async function newestSource(): Promise<number> {
  let newest = 0;
  const look = async (url: URL) => {
    const info = await Deno.stat(url);
    if (info.isDirectory) {
      for await (const entry of Deno.readDir(url)) {
        await look(new URL(`${entry.name}${entry.isDirectory ? "/" : ""}`, url));
      }
    } else newest = Math.max(newest, info.mtime?.getTime() ?? 0);
  };
  for (const path of ["main.ts", "deno.json", "deno.lock", "lib/"]) await look(new URL(path, root));
  return newest;
}

async function builtAt(entry: URL): Promise<number | undefined> {
  try {
    return (await Deno.stat(entry)).mtime?.getTime();
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return undefined;
    throw error;
  }
}

/** A lock older than this was left by a build that was killed. */
const STALE_LOCK_MS = 5 * 60_000;

/**
 * The checkout's artifact in `outdir`, built first when it is missing or older than a source it is built from
 * (install from a checkout registers it). One build at a time: installs run at once wait for the one that
 * builds, then find it built.
 */
export async function builtArtifact(outdir = "dist"): Promise<{ entry: string; built: boolean }> {
  const entry = new URL(`${outdir.replace(/\/*$/, "")}/${ARTIFACT_ENTRY}`, root);
  const fresh = async () => ((await builtAt(entry)) ?? -1) >= await newestSource();
  const asBuilt = { entry: fileUrlPath(entry, Deno.build.os), built: false };
  if (await fresh()) return asBuilt;
  const lock = new URL(".cache/build.lock", root);
  await Deno.mkdir(new URL(".cache/", root), { recursive: true });
  for (;;) {
    try {
      await Deno.mkdir(lock);
      break;
    } catch (error) {
      if (!(error instanceof Deno.errors.AlreadyExists)) throw error;
      const since = Date.now() - ((await builtAt(lock)) ?? Date.now());
      if (since > STALE_LOCK_MS) await Deno.remove(lock, { recursive: true }).catch(() => {});
      else await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  try {
    return await fresh() ? asBuilt : { entry: await build(outdir), built: true };
  } finally {
    await Deno.remove(lock, { recursive: true });
  }
}

if (import.meta.main) {
  const { values } = parseArgv(Deno.args, {
    outdir: { type: "string", value: "DIR", description: "where to write it (default dist)" },
  });
  console.log(`built ${await build(values.outdir)}`);
}
