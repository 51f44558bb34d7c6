/**
 * One command of the command line: its spec (summary, usage, option table, run), its help, and the one error
 * boundary every command runs in, where errors are mapped to exit codes. The table of commands is in
 * commands.ts; lib/hook/main.ts runs the hook's spec through this boundary too.
 */
import { describeOptions, hasFlag, type OptionTable, parseArgv, type ParsedArgs } from "./args.ts";
import { exitCodeOf, InvalidInputError, messageOf, Problem } from "../errors.ts";
import type { CommandContext } from "./context.ts";

/**
 * The words a command takes besides its options, named as its usage names them (`["name", "file"]`); a last
 * name ending in "…" takes any number of words. A command with actions (`index add …`) names each action's
 * words after the action; an action not in the table is the command's to refuse, with its list of actions.
 */
export type Positionals = readonly string[] | { readonly [action: string]: readonly string[] };

export interface Command<T extends OptionTable> {
  summary: string;
  usage: string;
  options: T;
  /** Any word more than these is refused before the command runs (a stray `dry-run` must not be ignored). */
  positionals: Positionals;
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

/** A word more than a command takes, and what the command (or its action) takes. */
export interface StrayWord {
  word: string;
  /** The word after it, which may be its value: `install scope project`. */
  next?: string;
  /** The command, with its action where it has actions: `index remove`. */
  what: string;
  takes: readonly string[];
}

function strayWord(name: string, takes: Positionals, positionals: readonly string[]): StrayWord | undefined {
  let names: readonly string[];
  let words = positionals;
  let what = name;
  if (Array.isArray(takes)) names = takes as readonly string[];
  else {
    const [action, ...rest] = positionals;
    if (action === undefined || !Object.hasOwn(takes, action)) return undefined;
    names = (takes as Record<string, readonly string[]>)[action];
    words = rest;
    what = `${name} ${action}`;
  }
  if (names.at(-1)?.endsWith("…") || words.length <= names.length) return undefined;
  return { word: words[names.length], next: words[names.length + 1], what, takes: names };
}

/**
 * Parses a command's arguments as it takes them: its options, and no more words than it names, for a command
 * that ignored a stray word would do something other than what was asked (`uninstall dry-run` uninstalling
 * for real). Nothing runs, so every example in the docs can be checked against the table. The refusal, with
 * its guess at what was meant, is loaded only when there is one: the hook runs through here.
 */
export async function parseCommand(
  name: string,
  spec: Command<OptionTable>,
  argv: readonly string[],
): Promise<ParsedArgs<OptionTable>> {
  const args = parseArgv(argv, spec.options);
  const stray = strayWord(name, spec.positionals, args.positionals);
  if (stray !== undefined) throw (await import("./stray.ts")).strayWordError(stray, spec.options);
  return args;
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
    return await spec.run(await parseCommand(name, spec, argv), context);
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
