/**
 * The refusal of a word more than a command takes (command.ts finds it), with a guess at the option that was
 * meant: `dry-run` → `--dry-run`, `365d` for prune → `--older-than 365d`.
 */
import type { OptionTable } from "./args.ts";
import type { StrayWord } from "./command.ts";
import { isDuration } from "./duration.ts";
import { UsageError } from "../errors.ts";

/** The option a stray word looks like: its name without the dashes, or a value only one option takes. */
function optionLike(options: OptionTable, { word, next }: StrayWord): string | undefined {
  const [, name, value] = /^([a-z][\w-]*)(?:=(.*))?$/s.exec(word) ?? [];
  if (name !== undefined && Object.hasOwn(options, name)) {
    const spec = options[name];
    if (spec.type === "boolean") return value === undefined ? `--${name}` : undefined;
    return value !== undefined ? `--${name}=${value}` : `--${name} ${next ?? spec.value ?? "VALUE"}`;
  }
  const shaped = (placeholder: string, looksLike: (text: string) => boolean) => {
    const takers = Object.keys(options).filter((key) => options[key].value === placeholder);
    return takers.length === 1 && looksLike(word) ? `--${takers[0]} ${word}` : undefined;
  };
  return shaped("AGE", isDuration) ?? shaped("N", (text) => /^\d+$/.test(text));
}

export function strayWordError(stray: StrayWord, options: OptionTable): UsageError {
  const named = stray.takes.map((name) => `<${name}>`).join(" ");
  const anyOptions = Object.keys(options).length > 0;
  const takes = named === ""
    ? (anyOptions ? "only options" : "no arguments")
    : `${named}${anyOptions ? " and options" : ""}`;
  const guess = optionLike(options, stray);
  return new UsageError(
    `unexpected word "${stray.word}" (${stray.what} takes ${takes})`,
    guess === undefined ? "leave it out" : `did you mean ${guess}?`,
  );
}
