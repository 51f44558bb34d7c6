/**
 * A declarative argv parser. `node:util` parseArgs would do, but it adds ~6 ms of start-up to every hook
 * event; this covers what our commands need: `--name value`, `--name=value`, `-x`, booleans, repeatable
 * strings, `--` and strict errors.
 */
import { UsageError } from "../errors.ts";

export interface OptionSpec {
  type: "string" | "boolean";
  short?: string;
  multiple?: boolean;
  /** Placeholder shown in help, e.g. PATH. */
  value?: string;
  description: string;
}

export type OptionTable = Record<string, OptionSpec>;

type ValueOf<S extends OptionSpec> = S["type"] extends "boolean" ? boolean
  : S["multiple"] extends true ? string[]
  : string;

export type ParsedValues<T extends OptionTable> = { [K in keyof T]?: ValueOf<T[K]> };

export interface ParsedArgs<T extends OptionTable> {
  values: ParsedValues<T>;
  positionals: string[];
}

export function parseArgv<T extends OptionTable>(argv: readonly string[], table: T): ParsedArgs<T> {
  const values: Record<string, string | boolean | string[]> = {};
  const positionals: string[] = [];
  const byShort = new Map(
    Object.entries(table).flatMap(([name, spec]) => spec.short ? [[spec.short, name] as const] : []),
  );
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "--") {
      positionals.push(...argv.slice(i + 1));
      break;
    }
    let name: string | undefined;
    let inline: string | undefined;
    if (arg.startsWith("--")) {
      const eq = arg.indexOf("=");
      name = eq < 0 ? arg.slice(2) : arg.slice(2, eq);
      inline = eq < 0 ? undefined : arg.slice(eq + 1);
      // Own names only: `in` would take every object's (`--constructor`, `--toString`) for options.
      if (!Object.hasOwn(table, name)) throw new UsageError(`unknown option --${name}`);
    } else if (arg.length > 1 && arg.startsWith("-") && arg !== "-") {
      name = byShort.get(arg.slice(1));
      if (name === undefined) throw new UsageError(`unknown option ${arg}`);
    } else {
      positionals.push(arg);
      continue;
    }
    const spec = table[name];
    if (spec.type === "boolean") {
      if (inline !== undefined) throw new UsageError(`option --${name} takes no value`);
      values[name] = true;
      continue;
    }
    const value = inline ?? argv[++i];
    const placeholder = spec.value ?? "VALUE";
    if (value === undefined) throw new UsageError(`option --${name} needs a value (${placeholder})`);
    // `--settings --dry-run` is a forgotten value, not a file named --dry-run: only `=` gives such a value.
    if (inline === undefined && value.startsWith("--")) {
      throw new UsageError(
        `option --${name} needs a value (${placeholder}), but the next word is ${value}`,
        `give the value after it (--${name} ${placeholder}), or with = if it starts with -- (--${name}=${value})`,
      );
    }
    if (spec.multiple) values[name] = [...(values[name] as string[] | undefined ?? []), value];
    else values[name] = value;
  }
  return { values: values as ParsedValues<T>, positionals };
}

/** Whether `flag` stands among the options, that is before a `--` (after it, `-h` is a positional). */
export function hasFlag(argv: readonly string[], ...flags: string[]): boolean {
  const end = argv.indexOf("--");
  return (end < 0 ? argv : argv.slice(0, end)).some((arg) => flags.includes(arg));
}

/** The option lines of a command's help, aligned. */
export function describeOptions(table: OptionTable): string {
  const rows = Object.entries(table).map(([name, spec]) => {
    const flag = `${spec.short ? `-${spec.short}, ` : "    "}--${name}${
      spec.type === "string" ? ` ${spec.value ?? "VALUE"}` : ""
    }`;
    return [flag, spec.description + (spec.multiple ? " (repeatable)" : "")] as const;
  });
  const width = Math.max(0, ...rows.map(([flag]) => flag.length));
  return rows.map(([flag, text]) => `  ${flag.padEnd(width)}  ${text}`).join("\n");
}
