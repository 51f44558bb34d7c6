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
 * common code in chunks), under lib/ as in the sources.
 */
const SPLIT_ENTRIES = ["lib/cli/commands.ts", "lib/config/resolve.ts", "lib/answer/hook_answer.ts"];

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

if (import.meta.main) {
  const { values } = parseArgv(Deno.args, {
    outdir: { type: "string", value: "DIR", description: "where to write it (default dist)" },
  });
  console.log(`built ${await build(values.outdir)}`);
}
