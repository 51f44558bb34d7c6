/**
 * A page's one-line summary: what the page is about in its authors' words ("CREATE INDEX — define a new
 * index", "Clean install a project"). Every passage of the page is indexed with it, so a passage deep in a
 * long page still matches a question about what the page as a whole is for. Pure: text in, text out.
 */

/** Longer summaries are cut here: a summary is a line, not a paragraph. */
export const SUMMARY_CHARS = 300;

/** A Markdown file's leading `---` block of `key: value` lines (YAML front matter) and the text after it. */
export function frontMatter(text: string): { fields: Record<string, string>; body: string } {
  const block = /^\uFEFF?---[ \t]*\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/.exec(text);
  if (block === null) return { fields: {}, body: text };
  const fields: Record<string, string> = {};
  for (const line of block[1].split(/\r?\n/)) {
    // Plain scalars only: a nested map or a list is no title or description. The value is trimmed after, not
    // matched as `(.+?)[ \t]*$`, which scanned the spaces after each end it tried: quadratic on a long line.
    const field = /^([A-Za-z_][\w-]*):[ \t](.*)$/.exec(line);
    if (field === null) continue;
    const value = field[2].trim().replace(/^(["'])(.*)\1$/, "$2").trim();
    if (value !== "" && !/^[[{|>]/.test(value)) fields[field[1].toLowerCase()] = value;
  }
  return { fields, body: text.slice(block[0].length) };
}

/** "Source code: Lib/json.py", "Version: 2.1": a label and a value, not a sentence about the page. */
const LABEL_LINE = /^[\p{L} ]{1,24}:\s*\S+$/u;
/** A summary says something: fewer words than this is a label ("Note", "Deprecated since 3.2"). */
const MIN_WORDS = 4;

/**
 * The first sentence of the first paragraph of prose in `text` (the chunker's Markdown-like text): not a
 * heading, code, a list, a table or a label line. Undefined when the text has none.
 */
export function firstSentence(text: string): string | undefined {
  let fenced = false;
  // Paragraph by paragraph from the top, not split all at once: the answer is near the start of long pages.
  const breaks = /\n[ \t]*\n|$/g;
  for (let start = 0; start < text.length;) {
    const gap = breaks.exec(text)!;
    const paragraph = text.slice(start, gap.index);
    start = gap.index + Math.max(gap[0].length, 1);
    const trimmed = paragraph.trim();
    const fences = trimmed.match(/^[ \t]*(```|~~~)/gm)?.length ?? 0;
    const wasFenced = fenced;
    if (fences % 2 === 1) fenced = !fenced;
    if (wasFenced || fences > 0 || trimmed === "") continue;
    if (/^(#|[-*+] |\d+\. |\||>)/.test(trimmed) || LABEL_LINE.test(trimmed)) continue;
    const line = trimmed.replace(/\s+/g, " ");
    if ((line.match(/\p{L}{2,}/gu) ?? []).length < MIN_WORDS) continue;
    // A sentence ends at ". " before a capital letter; "3.11 added" and "e.g. SHA-256" do not end one.
    const end = /(?<!\b(?:e\.g|i\.e|etc|vs|cf))[.!?](?=\s+[\p{Lu}\d"“(])/u.exec(line);
    const sentence = end === null ? line : line.slice(0, end.index + 1);
    return sentence.length > SUMMARY_CHARS ? `${sentence.slice(0, SUMMARY_CHARS - 1)}…` : sentence;
  }
  return undefined;
}

/** The page's own description when it declares one (meta description, front matter), else its first sentence. */
export function pageSummary(declared: string | undefined, text: string): string {
  const own = declared?.replace(/\s+/g, " ").trim();
  if (own) return own.length > SUMMARY_CHARS ? `${own.slice(0, SUMMARY_CHARS - 1)}…` : own;
  return firstSentence(text) ?? "";
}
