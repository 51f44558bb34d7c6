/**
 * `deno task compile`: the built artifact (build.ts) compiled into native binaries, in dist/bin/. What users
 * run is exactly what `deno task build` wrote and the benchmark timed.
 *
 *   deno task compile                 this machine's binary: dist/bin/docsearch-hook
 *   deno task compile --target T      one release target: dist/bin/docsearch-hook-T[.exe]
 *   deno task compile --all           the five release targets
 */
import { parseArgv } from "../cli/args.ts";
import { ARTIFACT_ENTRY } from "../program.ts";
import { build, BuildFailedError } from "./build.ts";

export const TARGETS = [
  "x86_64-unknown-linux-gnu",
  "aarch64-unknown-linux-gnu",
  "x86_64-apple-darwin",
  "aarch64-apple-darwin",
  "x86_64-pc-windows-msvc",
] as const;

/**
 * Read and write (state, config, settings, indexes), the environment, and the network only for crawling a docs
 * site: no subprocesses, no FFI. `--include dist/lib` embeds the modules the artifact imports by computed
 * specifiers (the command line, the config's validation), which the compiler cannot follow on its own.
 */
const COMPILE_FLAGS = [
  "--allow-read",
  "--allow-write",
  "--allow-env",
  "--allow-net",
  "--no-config",
  "--include",
  "dist/lib",
];

/** The binary's path for a target (this machine's when none). */
export const binaryPath = (target?: string): string =>
  target === undefined
    ? "dist/bin/docsearch-hook"
    : `dist/bin/docsearch-hook-${target}${target.includes("windows") ? ".exe" : ""}`;

async function compile(target?: string): Promise<void> {
  const args = ["compile", ...COMPILE_FLAGS, ...(target ? ["--target", target] : [])];
  const compiled = await new Deno.Command(Deno.execPath(), {
    args: [...args, "--output", binaryPath(target), `dist/${ARTIFACT_ENTRY}`],
    cwd: new URL("../../", import.meta.url),
    stdout: "inherit",
    stderr: "inherit",
  }).output();
  if (!compiled.success) throw new BuildFailedError(`deno ${args.join(" ")} failed (exit ${compiled.code})`);
}

if (import.meta.main) {
  const { values } = parseArgv(Deno.args, {
    target: { type: "string", value: "TARGET", multiple: true, description: "a release target" },
    all: { type: "boolean", description: "every release target" },
  });
  const unknown = values.target?.find((target) => !(TARGETS as readonly string[]).includes(target));
  if (unknown !== undefined) {
    console.error(`unknown target ${unknown}; the release targets are ${TARGETS.join(", ")}`);
    Deno.exit(2);
  }
  await build();
  const targets = values.all ? [...TARGETS] : values.target ?? [undefined];
  for (const target of targets) {
    await compile(target);
    console.log(`compiled ${binaryPath(target)}`);
  }
}
