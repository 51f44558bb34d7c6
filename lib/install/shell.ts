/**
 * Command lines for the agent's shell. Claude Code runs hook commands with `sh -c` on Linux and macOS and
 * with Git Bash on Windows, where a backslash in a path is an escape character: Windows paths are therefore
 * written with forward slashes, which Windows and Deno accept, and quoted for a POSIX shell either way.
 */
import type { OS } from "../paths.ts";

const SAFE_WORD = /^[A-Za-z0-9_@%+=:,./-]+$/;

/** POSIX shell quoting of one word. */
export function shellQuote(word: string): string {
  return SAFE_WORD.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}

/**
 * Double quotes rather than single on Windows: cmd.exe (Ripperdoc's shell there) knows only those, and Git
 * Bash reads them the same once `"`, `$`, `` ` `` and `\` are escaped.
 */
function windowsQuote(word: string): string {
  const slashed = word.replaceAll("\\", "/");
  return SAFE_WORD.test(slashed) ? slashed : `"${slashed.replace(/["$`\\]/g, "\\$&")}"`;
}

export function commandLine(words: readonly string[], os: OS): string {
  return words.map(os === "windows" ? windowsQuote : shellQuote).join(" ");
}

/** Unquoted characters that make a command line more than one simple command (pipes, lists, redirections). */
const OPERATORS = "|&;<>()`";

/** The words of a command line, where each stands in it, and whether it is more than one simple command. */
export interface ShellWords extends Array<string> {
  /** `[start, end)` of each word in the line, quotes included: its text exactly as written. */
  spans: [number, number][];
  /** An unquoted operator, newline, `$(` or comment makes the line more than one simple command. */
  compound: boolean;
}

/**
 * A command line split into words the way a POSIX shell would for the forms people write in settings files:
 * single and double quotes and backslash escapes. A backslash before an ordinary character stays, so an
 * unquoted Windows path keeps its separators.
 */
export function shellWords(line: string): ShellWords {
  const words = Object.assign([] as string[], { spans: [] as [number, number][], compound: false });
  let word = "";
  let start = -1;
  let quote: "'" | '"' | undefined;
  const begin = (i: number) => {
    if (start < 0) start = i;
  };
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quote === "'") {
      if (c === "'") quote = undefined;
      else word += c;
      continue;
    }
    if (c === "\\" && i + 1 < line.length) {
      begin(i);
      const next = line[i + 1];
      const escapable = quote === '"' ? `"$\`\\` : ` '"$\`\\#${OPERATORS}`;
      if (escapable.includes(next)) {
        word += next;
        i++;
      } else word += c;
      continue;
    }
    if (quote === '"') {
      if (c === '"') quote = undefined;
      else word += c;
      if (c === "`" || (c === "$" && line[i + 1] === "(")) words.compound = true;
      continue;
    }
    // A line break ends the command unless only blanks follow it.
    const breaks = (c === "\n" || c === "\r") && line.slice(i).trim() !== "";
    if (breaks || "|&;<>()`".includes(c) || (c === "$" && line[i + 1] === "(") || (c === "#" && start < 0)) {
      words.compound = true;
    }
    if (c === "'" || c === '"') {
      begin(i);
      quote = c;
    } else if (/\s/.test(c)) {
      if (start >= 0) {
        words.push(word);
        words.spans.push([start, i]);
      }
      word = "";
      start = -1;
    } else {
      begin(i);
      word += c;
    }
  }
  if (start >= 0) {
    words.push(word);
    words.spans.push([start, line.length]);
  }
  return words;
}
