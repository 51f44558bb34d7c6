/**
 * Documentation quoted in what the hook tells the agent: cut to a budget where a line or sentence ends,
 * never inside a character, and delimited so that nothing a page says reads as the hook's own words. Pure.
 */

import { lazily } from "../lazy.ts";

/** Ends a text that was cut. */
export const CUT_MARK = " …";

/** The tag around quoted documentation; a page's own text never holds it (see `neutralized`). */
export const QUOTE_TAG = "docs";

/** What a quote says of where its text comes from: page-supplied strings all, so all neutralized. */
export interface QuoteSource {
  /** The file or URL the page was read from. */
  source: string;
  title: string;
  /** The headings above the text, outermost first. */
  trail: readonly string[];
  /** What the docs describe, with its version ("zod 4.1.12"), when the index knows it. */
  version?: string;
  /** A word on the quote itself ("indexed 2026-11-20, from the top of the page"). */
  note?: string;
}

/** Made on first use: a segmenter loads ICU's data (15 ms measured in the hook), and most cuts need none. */
const graphemes = lazily(() => new Intl.Segmenter(undefined, { granularity: "grapheme" }));

/**
 * The last place at or before `at` where a cut splits no character: not between the halves of a surrogate
 * pair, nor between a letter and the marks or joiners that make one character with it (é as e + ◌́, a family
 * emoji of four people joined).
 */
function characterStart(text: string, at: number): number {
  let start = 0;
  for (const { index } of graphemes().segment(text)) {
    if (index > at) break;
    start = index;
  }
  return start;
}

/** Where a line or a sentence ends in `text`: after "\n", or after ". ", "? ", "! " (the space kept out). */
function ends(text: string, kind: "line" | "sentence" | "word"): number[] {
  const pattern = kind === "line" ? /\n/g : kind === "sentence" ? /[.!?。！？](?=\s)/g : /\s/g;
  return [...text.matchAll(pattern)].map((m) => kind === "word" ? m.index : m.index + m[0].length);
}

/**
 * `text` when it has at most `max` characters (UTF-16 units, as the budget counts them), else its longest
 * start that fits with `CUT_MARK` after it and ends where a line or a sentence does. A start that would keep
 * less than half of what fits (one long line, no sentence ends) ends at a word instead, and one long word at
 * a whole character: a cut that throws most of the room away serves the reader less than a cut mid-sentence.
 */
export function cutText(text: string, max: number): string {
  if (text.length <= max) return text;
  const room = max - CUT_MARK.length;
  if (room <= 0) return "";
  const head = text.slice(0, room + 1);
  const fits = (at: number) => at > room / 2 && at <= room;
  const lastFitting = (positions: number[]) => positions.filter(fits).pop();
  const at = lastFitting([...ends(head, "line"), ...ends(head, "sentence")].sort((a, b) => a - b)) ??
    // The whole text, not its head, is segmented: the head may end inside a character, and a character
    // cut short has boundaries that the whole one does not.
    lastFitting(ends(head, "word")) ?? characterStart(text, room);
  return text.slice(0, at).trimEnd() + CUT_MARK;
}

/**
 * The tag's opening or closing, however spaced or cased (`<docs`, `</docs`, `< / DOCS`), with invisible
 * characters between (a zero-width space, a soft hyphen: format characters a reader does not see) or the
 * fullwidth `＜` and `／` that read the same.
 */
const TAG_IN_TEXT = new RegExp(`[<＜](?=[\\s\\p{Cf}]*[/／]?[\\s\\p{Cf}]*${QUOTE_TAG}\\b)`, "giu");

/**
 * Page text that cannot close (or open) a quote: a `<` that starts the quote tag is written `&lt;`, which a
 * reader takes for the same character and no delimiter matches.
 */
export const neutralized = (text: string): string => text.replace(TAG_IN_TEXT, "&lt;");

/** A quote's attribute value: JSON-quoted (so no `"` or line break ends it early), then neutralized. */
const attribute = (value: string) => neutralized(JSON.stringify(value));

/** A page's title and headings are a line, not a page: a title longer than this is cut. */
const HEADING_CHARS = 300;

/** The lines a quote adds around its text: their length is what the text's budget must leave room for. */
function frame(from: QuoteSource): { open: string; heading: string; close: string } {
  const attributes = [
    `source=${attribute(from.source)}`,
    ...from.version === undefined ? [] : [`version=${attribute(from.version)}`],
    ...from.note === undefined ? [] : [`note=${attribute(from.note)}`],
  ];
  return {
    open: `<${QUOTE_TAG} ${attributes.join(" ")}>`,
    heading: cutText(
      neutralized([from.title, ...from.trail].join(" › ").replace(/\s+/g, " ").trim()),
      HEADING_CHARS,
    ),
    close: `</${QUOTE_TAG}>`,
  };
}

/** The characters a quote of `from` takes besides its text. */
export function frameLength(from: QuoteSource): number {
  const { open, heading, close } = frame(from);
  return open.length + heading.length + close.length + 3;
}

/**
 * Documentation as a quote: the tag with where it comes from, the page's title and headings, the text, the
 * closing tag. The text is cut (`cutText`) so that the whole quote takes at most `max` characters; undefined
 * when not even the frame fits.
 */
export function quote(from: QuoteSource, text: string, max: number): string | undefined {
  const { open, heading, close } = frame(from);
  const room = max - frameLength(from);
  if (room < 0) return undefined;
  // Cut after neutralizing: a cut only takes a tail away, and no tail taken away makes a tag.
  const whole = neutralized(text.trim());
  return [open, heading, closedCut(whole, room), close].join("\n");
}

/**
 * `cutText`, with a code block the cut leaves open closed, so that the guidance after the quote does not read
 * as code: cut shorter by the closing line's length, once more if that cut is inside a longer fence.
 */
function closedCut(text: string, room: number): string {
  let reserve = 0;
  for (let attempt = 0; attempt < 3; attempt++) {
    const cut = cutText(text, room - reserve);
    const fence = openFence(cut);
    if (fence === undefined) return cut;
    if (cut.length + 1 + fence.length <= room) return `${cut}\n${fence}`;
    reserve = 1 + fence.length;
  }
  return cutText(text, room);
}

/** A fence line of Markdown: ``` or ~~~ (and what follows it). */
const FENCE = /^[ \t]*(`{3,}|~{3,})/;

/** The fence of the code block the text ends inside, if it does. */
export function openFence(text: string): string | undefined {
  let open: string | undefined;
  for (const line of text.split("\n")) {
    const fence = FENCE.exec(line)?.[1];
    if (fence === undefined) continue;
    if (open === undefined) open = fence;
    else if (fence[0] === open[0] && fence.length >= open.length) open = undefined;
  }
  return open;
}
