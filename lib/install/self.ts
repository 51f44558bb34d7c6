/** The words that run this docsearch-hook: what install registers, and what doctor expects to find registered. */
import type { CommandContext } from "../cli/context.ts";
import { ARTIFACT_ENTRY, BUILT, PROGRAM_ROOT } from "../program.ts";
import { baseName, fileUrlPath, resolvePath } from "../paths.ts";

/**
 * The command that runs this docsearch-hook: the compiled binary, or deno running the built artifact (this
 * checkout's, from its sources).
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
  if (!runByDeno(execPath)) return [execPath];
  // --quiet: Deno's own download notes would otherwise show up in the slash command's output. --no-config: a
  // deno.json near the artifact is not its own, as a binary has none. From a checkout, the artifact built in
  // its dist/ (install builds it first): what ships, where the sources would load every module one by one.
  const artifact = BUILT ? ARTIFACT_ENTRY : `${CHECKOUT_ARTIFACT}/${ARTIFACT_ENTRY}`;
  return [execPath, "run", "-A", "--quiet", "--no-config", fileUrlPath(new URL(artifact, PROGRAM_ROOT), os)];
}

/** Where a checkout's artifact is built, under the checkout: `deno task build`'s folder. */
export const CHECKOUT_ARTIFACT = "dist";

/** Whether this program runs from a checkout's sources, whose registration needs the artifact built. */
export const fromSources = ({ env, execPath }: Pick<CommandContext, "env" | "execPath">): boolean =>
  !BUILT && !env("DOCSEARCH_HOOK_SELF") && runByDeno(execPath);

/** Whether deno runs this program (a checkout, or the artifact), rather than the compiled binary being it. */
const runByDeno = (execPath: string): boolean => /^deno(\.exe)?$/.test(baseName(execPath));
