/**
 * Keyword matching. A keyword matches where the characters just outside it are not letters,
 * digits or underscores. A `\b` regex gets symbol keywords wrong: `\bc\+\+\b` never matches "c++ "
 * (no word boundary after "+"), and `\b.net` needs a word character before the dot.
 */

let unicodeWordChar: RegExp | undefined;

/**
 * Letter, digit (any script), combining mark or underscore. ASCII is decided by hand: compiling the
 * Unicode property regex costs ~1 ms, so it is built only when a non-ASCII character needs it.
 */
function isWordChar(char: string): boolean {
  if (char === "") return false;
  const code = char.charCodeAt(0);
  if (code < 0x80) {
    return (code >= 0x30 && code <= 0x39) || (code >= 0x61 && code <= 0x7a) ||
      (code >= 0x41 && code <= 0x5a) ||
      code === 0x5f;
  }
  unicodeWordChar ??= /^[\p{L}\p{N}\p{M}_]$/u;
  return unicodeWordChar.test(char);
}

/** Lower-case with whitespace runs collapsed, so "GitHub\n  Actions" meets the keyword "github actions". */
export function normalizeText(text: string): string {
  return text.toLowerCase().replace(/\s+/g, " ");
}

function codePointBefore(text: string, index: number): string {
  if (index <= 0) return "";
  const low = text.charCodeAt(index - 1);
  const isLowSurrogate = low >= 0xdc00 && low <= 0xdfff;
  return isLowSurrogate && index >= 2 ? text.slice(index - 2, index) : text[index - 1];
}

function codePointAt(text: string, index: number): string {
  const cp = text.codePointAt(index);
  return cp === undefined ? "" : String.fromCodePoint(cp);
}

/** Both arguments already passed through normalizeText. */
export function containsKeyword(text: string, keyword: string): boolean {
  if (keyword === "") return false;
  for (let at = text.indexOf(keyword); at >= 0; at = text.indexOf(keyword, at + 1)) {
    const before = codePointBefore(text, at);
    const after = codePointAt(text, at + keyword.length);
    if (!isWordChar(before) && !isWordChar(after)) return true;
  }
  return false;
}
