/**
 * What Go's and Rust's doc comments have in common once a parser has found them: a comment documents the
 * item right below it, with no blank line between; the item is shown by its one-line signature; and the
 * comment's own headings sit below the item's section heading. Pure.
 */
import type { SyntaxNode } from "@lezer/common";

/** A signature longer than this (a long parameter list) is cut: the comment says the rest. */
const MAX_SIGNATURE_CHARS = 400;

/**
 * Source text on one line, cut at a length a reader takes in. Text already on one line is kept as written (a
 * string constant's spaces are its value); else whitespace runs are one space, and a list laid out one element
 * a line reads `(a, b)`, a `where` clause without its last comma.
 */
export function oneLine(text: string): string {
  const line = !text.trim().includes("\n")
    ? text.trim()
    : text.replace(/\s+/g, " ").replace(/([([]) /g, "$1").replace(/,? ([)\]])/g, "$1").trim().replace(
      /,$/,
      "",
    );
  return line.length <= MAX_SIGNATURE_CHARS ? line : `${line.slice(0, MAX_SIGNATURE_CHARS)}…`;
}

/**
 * The comments right above `node`, first to last: each on a line of its own (a comment after code on its
 * line is that code's), each ending on the line before the next, the last on the line before `node`. A blank
 * line ends the group, as in Go's and Rust's own tools.
 */
export function commentsAbove(
  source: string,
  node: SyntaxNode,
  isComment: (node: SyntaxNode) => boolean,
): SyntaxNode[] {
  const group: SyntaxNode[] = [];
  let next = node.from;
  for (
    let comment = node.prevSibling;
    comment !== null && isComment(comment);
    comment = comment.prevSibling
  ) {
    if (!/^[ \t]*\r?\n[ \t]*$/.test(source.slice(comment.to, next))) break;
    const lineStart = source.lastIndexOf("\n", comment.from - 1) + 1;
    if (source.slice(lineStart, comment.from).trim() !== "") break;
    group.unshift(comment);
    next = comment.from;
  }
  return group;
}

const FENCE = /^[ \t]*(```|~~~)/;
const HEADING = /^(#{1,6})([ \t]+\S)/;

/**
 * A doc comment's Markdown with its headings `by` levels lower, so that a comment's `# Examples` falls under
 * the item's section (at most `######`); lines inside code fences are code, not headings.
 */
export function lowerHeadings(markdown: string, by: number): string {
  let fenced = false;
  return markdown.split("\n").map((line) => {
    if (FENCE.test(line)) fenced = !fenced;
    const heading = fenced ? null : HEADING.exec(line);
    return heading === null
      ? line
      : `${"#".repeat(Math.min(heading[1].length + by, 6))}${line.slice(heading[1].length)}`;
  }).join("\n");
}
