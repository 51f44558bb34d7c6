/**
 * What `deno task bundle` makes into one module (see hot_path.ts): the command line with the hook's modules
 * already in it, so that `docsearch-hook hook` runs from a checkout without importing anything else.
 */
import * as hook from "../commands/hook.ts";
import { main as commandLine } from "../cli/commands.ts";

export const main = (argv: string[]): Promise<number> => commandLine(argv, { hook });
