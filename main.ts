#!/usr/bin/env -S deno run -A
/**
 * docsearch-hook's entry point: it picks the module that runs the command line (lib/cli/commands.ts) and runs
 * it. For `hook`, which the agent starts once per event, a checkout takes the faster one when it has it: the
 * `hook` command and its modules bundled into one module by `deno task bundle`, while every source it was made
 * from is unchanged (lib/build/hot_path.ts). Nothing else is imported here, so that the hook pays for nothing
 * it does not run.
 */
import { freshBundle } from "./lib/build/hot_path.ts";

type CommandLine = typeof import("./lib/cli/commands.ts");

/**
 * The specifiers are computed so that `deno run` does not load the command line's modules before it knows
 * which it needs (see CommandModules in lib/cli/command.ts); `deno compile` embeds them through `--include`
 * (deno.json), and its binaries run the modules: they never carry a bundle.
 */
function commandLine(command: string | undefined): Promise<CommandLine> {
  const modules = () => import(new URL("./lib/cli/commands.ts", import.meta.url).href);
  const bundle = command === "hook" && !Deno.build.standalone && import.meta.dirname !== undefined
    ? freshBundle(import.meta.dirname)
    : undefined;
  if (bundle === undefined) return modules();
  // A variable, not a template: `deno compile` would embed every file a template could name.
  const bundleSpecifier = `./${bundle}`;
  // A bundle that does not load (a hand edit, another Deno's output) is outside every error boundary, and
  // the hook must fail open: the modules answer instead.
  return import(bundleSpecifier).catch(modules);
}

if (import.meta.main) Deno.exit(await (await commandLine(Deno.args[0])).main(Deno.args));
