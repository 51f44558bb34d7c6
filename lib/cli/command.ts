/**
 * One command of the command line: its spec (summary, usage, option table, run), its help, and the one error
 * boundary every command runs in, where errors are mapped to exit codes. The table of commands is in
 * commands.ts; the hook's bundle (lib/build/hook_cli.ts) runs the hook's spec through this boundary too.
 */
import { describeOptions, hasFlag, type OptionTable, parseArgv, type ParsedArgs } from "./args.ts";
import { CommandFailedError, UsageError } from "./errors.ts";
import { print, printError } from "./io.ts";

/**
 * The modules of the commands, each imported when its command runs. The specifier is computed on purpose:
 * `deno run` loads the whole graph of every import it can read in the source (a template too) before the
 * first line runs, which cost every hook event about 3 ms (measured) for the modules and npm packages of the
 * other commands. `deno compile` embeds them through `--include lib/commands` (deno.json).
 */
export interface CommandModules {
  check: typeof import("../commands/check.ts");
  doctor: typeof import("../commands/doctor.ts");
  hook: typeof import("../commands/hook.ts");
  index: typeof import("../commands/index.ts");
  install: typeof import("../commands/install.ts");
  log: typeof import("../commands/log.ts");
  mcp: typeof import("../commands/mcp.ts");
  prune: typeof import("../commands/prune.ts");
  search: typeof import("../commands/search.ts");
  stats: typeof import("../commands/stats.ts");
  status: typeof import("../commands/status.ts");
  switch: typeof import("../commands/switch.ts");
}

export type LoadCommand = <K extends keyof CommandModules>(name: K) => Promise<CommandModules[K]>;

/** Imports a command's module, unless the caller has it already (the hook's bundle has the hook's). */
export const commandLoader = (loaded: Partial<CommandModules> = {}): LoadCommand => async (name) =>
  loaded[name] ?? await import(new URL(`../commands/${name}.ts`, import.meta.url).href);

export interface Command<T extends OptionTable> {
  summary: string;
  usage: string;
  options: T;
  /** The hook must never block the agent: any error becomes exit 0 and one stderr line. */
  failOpen?: boolean;
  run: (args: ParsedArgs<T>, load: LoadCommand) => Promise<number>;
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
  load: LoadCommand,
): Promise<number> {
  try {
    if (hasFlag(argv, "--help", "-h")) {
      print(commandHelp(name, spec));
      return 0;
    }
    return await spec.run(parseArgv(argv, spec.options), load);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (spec.failOpen) {
      printError(`docsearch-hook ${name}: ${message}; allowing`);
      return 0;
    }
    const slash = Object.hasOwn(spec.options, "slash") && hasFlag(argv, "--slash");
    const report = (text: string, exitCode: number) => {
      (slash ? print : printError)(`docsearch-hook ${name}: ${text}`);
      return slash ? 0 : exitCode;
    };
    if (error instanceof UsageError) {
      return report(`${message}\nUsage: ${spec.usage}\nMore: docsearch-hook ${name} --help`, error.exitCode);
    }
    if (error instanceof CommandFailedError) {
      return report(`${message}${error.hint ? `\n  fix: ${error.hint}` : ""}`, error.exitCode);
    }
    return report(`unexpected error: ${error instanceof Error ? error.stack : message}`, 1);
  }
}
