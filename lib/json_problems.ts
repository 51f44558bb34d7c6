/** How a problem in a JSON file the user wrote is named: the JSON path, and line and column for syntax. */
import { messageOf } from "./errors.ts";

/** `databases[1].keywords[0]`, the form users search their file for. */
export function jsonPath(path: readonly PropertyKey[]): string {
  return path.map((key, i) => typeof key === "number" ? `[${key}]` : `${i > 0 ? "." : ""}${String(key)}`)
    .join("") ||
    "(top level)";
}

const LITERAL = /true|false|null|-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

/**
 * The offset of the first character that is not valid JSON where it stands, or -1 when the text parses.
 * V8 names the position for most mistakes but not all (a trailing comma in an array, a cut-off file, `tru`),
 * and those are the ones people make in settings files. Only run once JSON.parse has failed.
 */
export function syntaxErrorOffset(text: string): number {
  let i = 0;
  const fail = (): never => {
    throw i;
  };
  const space = () => {
    while (i < text.length && " \t\n\r".includes(text[i])) i++;
  };
  const string = () => {
    i++;
    while (i < text.length && text[i] !== '"') {
      if (text[i] < " ") fail();
      i += text[i] === "\\" ? 2 : 1;
    }
    if (i >= text.length) fail();
    i++;
  };
  /** The members of an object or array, after its opening bracket. */
  const members = (close: "}" | "]", member: () => void) => {
    i++;
    space();
    if (text[i] === close) {
      i++;
      return;
    }
    for (;;) {
      member();
      space();
      if (text[i] === close) {
        i++;
        return;
      }
      if (text[i] !== ",") fail();
      i++;
    }
  };
  const value = (): void => {
    space();
    if (text[i] === "{") {
      return members("}", () => {
        space();
        if (text[i] !== '"') fail();
        string();
        space();
        if (text[i] !== ":") fail();
        i++;
        value();
      });
    }
    if (text[i] === "[") return members("]", value);
    if (text[i] === '"') return string();
    LITERAL.lastIndex = i;
    if (LITERAL.exec(text) === null) fail();
    i = LITERAL.lastIndex;
  };
  try {
    value();
    space();
    return i < text.length ? i : -1;
  } catch (at) {
    // A nesting deeper than the stack allows: no position to give.
    return typeof at === "number" ? at : -1;
  }
}

/** Line and column (both from 1) of an offset. */
export function lineAndColumn(text: string, offset: number): string {
  const before = text.slice(0, offset);
  return `line ${before.split("\n").length}, column ${before.length - before.lastIndexOf("\n")}`;
}

/** A syntax error with line and column, and without the chunk of the file V8 quotes in some messages. */
export function syntaxProblem(file: string, text: string, error: unknown): string {
  const original = messageOf(error);
  // V8's position where it gives one (our scan does not check escapes inside strings, `"\x"`); the scan's where
  // it gives none ("Unexpected token '}', … is not valid JSON").
  // Anchored to V8's own words: the piece of the file some messages quote may say "position 3" too.
  const given = / JSON at position (\d+)/.exec(original)?.[1];
  const offset = given !== undefined ? Number(given) : syntaxErrorOffset(text);
  // The slip people make most, deleting a list's last item, in words: V8 names the bracket, not the comma.
  // V8 names the token after a bare word (`tru}`: "Unexpected token '}'"); the word is the slip.
  const word = given === undefined && /^Unexpected token/.test(original)
    ? /^[^\s,:[\]{}"]{1,40}/.exec(text.slice(offset))?.[0]
    : undefined;
  const message = /^[}\]]/.test(text.slice(offset)) && /,\s*$/.test(text.slice(0, offset))
    ? "a comma before the closing bracket, which JSON does not allow"
    : word !== undefined
    ? `unexpected ${word}: a value is true, false, null, a number, a string in double quotes, an object or a list`
    : original
      .replace(/, ".*" is not valid JSON$/s, "")
      .replace(/ (?:in|after) JSON at position \d+(?: \(line \d+ column \d+\))?/, "")
      .replace(
        /^Expected (?:double-quoted )?property name(?: or '}')?$/,
        "a property name in double quotes was expected",
      );
  return offset < 0
    ? `${file}: invalid JSON: ${message}`
    : `${file}: invalid JSON at ${lineAndColumn(text, offset)}: ${message}`;
}
