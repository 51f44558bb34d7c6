/**
 * One command of the command line: its spec (summary, usage, option table, run), its help, and the one error
 * boundary every command runs in, where errors are mapped to exit codes. The table of commands is in
 * commands.ts; lib/hook/main.ts runs the hook's spec through this boundary too.
 */
import { describeOptions, hasFlag, type OptionTable, parseArgv, type ParsedArgs } from "./args.ts";
import { exitCodeOf, InvalidInputError, messageOf, Problem } from "../errors.ts";
import type { CommandContext } from "./context.ts";

export interface Command<T extends OptionTable> {
  summary: string;
  usage: string;
  options: T;
  /** The hook must never block the agent: any error becomes exit 0 and one stderr line. */
  failOpen?: boolean;
  run: (args: ParsedArgs<T>, context: CommandContext) => Promise<number>;
}

export const command = <T extends OptionTable>(spec: Command<T>): Command<T> => spec;

export const configOption = {
  type: "string",
  value: "PATH",
  description: "config file to use instead of the usual lookup (also DOCSEARCH_CONFIG)",
} as const;

export function commandHelp(name: string, spec: Command<OptionTable>): string {
  return [
    `docsearch-hook ${name}: ${spec.summary}`,
    "",
    `Usage: ${spec.usage}`,
    "",
    "Options:",
    describeOptions(spec.options),
  ]
    .join("\n");
}

/** Runs one command with its arguments (those after its name); every error ends here. */
export async function runCommand(
  name: string,
  spec: Command<OptionTable>,
  argv: string[],
  context: CommandContext,
): Promise<number> {
  const { stdout: print, stderr: printError } = context;
  try {
    if (hasFlag(argv, "--help", "-h")) {
      print(commandHelp(name, spec));
      return 0;
    }
    return await spec.run(parseArgv(argv, spec.options), context);
  } catch (error) {
    const message = messageOf(error);
    if (spec.failOpen) {
      printError(`docsearch-hook ${name}: ${message}; allowing`);
      return 0;
    }
    const slash = Object.hasOwn(spec.options, "slash") && hasFlag(argv, "--slash");
    const report = (text: string) => {
      (slash ? print : printError)(`docsearch-hook ${name}: ${text}`);
      return slash ? 0 : exitCodeOf(error);
    };
    if (error instanceof Problem) {
      const fix = error.hint ? `\n  fix: ${error.hint}` : "";
      const usage = error instanceof InvalidInputError
        ? `\nUsage: ${spec.usage}\nMore: docsearch-hook ${name} --help`
        : "";
      return report(`${message}${fix}${usage}`);
    }
    return report(`unexpected error: ${error instanceof Error ? error.stack : message}`);
  }
}
