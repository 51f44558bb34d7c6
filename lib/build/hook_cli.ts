/**
 * What `deno task bundle` makes into one module (see hot_path.ts): `docsearch-hook hook …` with the hook's
 * modules in it and nothing of the other commands, run through the command line's one error boundary.
 */
import * as hook from "../commands/hook.ts";
import { commandLoader, runCommand } from "../cli/command.ts";
import { hookCommand } from "../cli/hook_command.ts";

/** main.ts gives it the whole command line, whose first word is `hook`. */
export const main = (argv: string[]): Promise<number> =>
  runCommand("hook", hookCommand, argv.slice(1), commandLoader({ hook }));
