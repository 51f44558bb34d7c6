#!/usr/bin/env -S deno run -A
/**
 * docsearch-hook's entry point. `hook`, which the agent starts once per event, is imported with it, so that in
 * the built artifact (dist/docsearch-hook.js, which is this file) the hook is in the one file `deno run` loads
 * first. Every other command goes to the command line (lib/cli/commands.ts), imported only then, by a computed
 * specifier (see lib/program.ts), so that the hook never loads it.
 */
import { main as hook } from "./lib/hook/main.ts";
import { processContext } from "./lib/cli/context.ts";
import { programModule } from "./lib/program.ts";

type CommandLine = typeof import("./lib/cli/commands.ts");

if (import.meta.main) {
  const [command] = Deno.args;
  const main = command === "hook"
    ? hook
    : (await import(programModule("lib/cli/commands")) as CommandLine).main;
  Deno.exit(await main(Deno.args, processContext()));
}
