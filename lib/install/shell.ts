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

/**
 * A command line split into words the way a POSIX shell would for the forms people write in settings files:
 * single and double quotes and backslash escapes. A backslash before an ordinary character stays, so an
 * unquoted Windows path keeps its separators. `compound` tells whether an unquoted operator (or `$(`) makes
 * it more than one simple command.
 */
export function shellWords(line: string): string[] & { compound?: boolean } {
  const words: string[] & { compound?: boolean } = [];
  let word = "";
  let inWord = false;
  let quote: "'" | '"' | undefined;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quote === "'") {
      if (c === "'") quote = undefined;
      else word += c;
      continue;
    }
    if (c === "\\" && i + 1 < line.length) {
      const next = line[i + 1];
      const escapable = quote === '"' ? `"$\`\\` : ` '"$\`\\`;
      if (escapable.includes(next)) {
        word += next;
        i++;
      } else word += c;
      inWord = true;
      continue;
    }
    if (quote === '"') {
      if (c === '"') quote = undefined;
      else word += c;
      if (c === "`" || (c === "$" && line[i + 1] === "(")) words.compound = true;
      continue;
    }
    if (OPERATORS.includes(c) || (c === "$" && line[i + 1] === "(")) words.compound = true;
    if (c === "'" || c === '"') {
      quote = c;
      inWord = true;
    } else if (/\s/.test(c)) {
      if (inWord) words.push(word);
      word = "";
      inWord = false;
    } else {
      word += c;
      inWord = true;
    }
  }
  if (inWord) words.push(word);
  return words;
}
