/**
 * `docsearch-hook hook …`, as main.ts runs it when the first word is `hook`: the hook's modules and the error
 * boundary, nothing of the other commands or their packages (the agent starts the hook once per event).
 */
import { runCommand } from "../cli/command.ts";
import type { CommandContext } from "../cli/context.ts";
import { hookCommand } from "./command.ts";

/** main.ts gives it the whole command line, whose first word is `hook`. */
export const main = (argv: string[], context: CommandContext): Promise<number> =>
  runCommand("hook", hookCommand, argv.slice(1), context);
