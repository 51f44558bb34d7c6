/** The words that run this docsearch-hook: what install registers, and what doctor expects to find registered. */
import type { CommandContext } from "../cli/context.ts";
import { ARTIFACT_ENTRY, BUILT, PROGRAM_ROOT } from "../program.ts";
import { baseName, fileUrlPath, resolvePath } from "../paths.ts";

/**
 * The command that runs this docsearch-hook: the compiled binary, or deno running the built artifact or this
 * checkout.
 * DOCSEARCH_HOOK_SELF names a launcher that runs this program (a wrapper script, a package manager's shim),
 * so that what gets registered is the launcher's path.
 */
export function selfCommand({ env, os, cwd, execPath }: CommandContext): string[] {
  const launcher = env("DOCSEARCH_HOOK_SELF");
  // The agent runs hooks from the project's folder: a relative path would name another file there.
  if (launcher) {
    // A bare name is for the shell to find on PATH, as it would be typed.
    return [/[\\/]/.test(launcher) ? resolvePath(cwd, launcher, os) : launcher];
  }
  const name = baseName(execPath);
  if (name !== "deno" && name !== "deno.exe") return [execPath];
  // --quiet: Deno's own download notes would otherwise show up in the slash command's output.
  const file = (name: string) => fileUrlPath(new URL(name, PROGRAM_ROOT), os);
  // --no-config: a deno.json near the artifact is not its own, as a binary has none.
  if (BUILT) return [execPath, "run", "-A", "--quiet", "--no-config", file(ARTIFACT_ENTRY)];
  return [execPath, "run", "-A", "--quiet", `--config=${file("deno.json")}`, file("main.ts")];
}
