#!/usr/bin/env -S deno run -A
/**
 * docsearch-hook's entry point. `hook`, which the agent starts once per event, is imported with it: a dynamic
 * import costs `deno run` a module graph of its own, about 4 ms (measured). Every other command goes to the
 * command line (lib/cli/commands.ts), imported only then, by a computed specifier (see lib/program.ts), so
 * that the hook never loads it. The built artifact (dist/docsearch-hook.js) is this file too.
 */
import { main as hook } from "./lib/cli/hook_main.ts";
import { programModule } from "./lib/program.ts";

type CommandLine = typeof import("./lib/cli/commands.ts");

if (import.meta.main) {
  const [command] = Deno.args;
  const main = command === "hook"
    ? hook
    : (await import(programModule("lib/cli/commands")) as CommandLine).main;
  Deno.exit(await main(Deno.args));
}
