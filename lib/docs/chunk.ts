/**
 * Documents cut into search-sized chunks, each with the trail of headings above it, so that a result can say
 * where in a page it comes from ("Install > From source > Linux"). Pure: text in, chunks out.
 */

export interface Chunk {
  /** The document's title: its first top-level heading, else its file name. */
  title: string;
  /** The headings above this chunk, outermost first, the title not repeated. */
  trail: string[];
  text: string;
}

/** Long sections are cut at paragraph breaks into pieces of about this many characters. */
export const CHUNK_CHARS = 1500;

/** An ATX heading's opening: its #s and a space or tab. */
const HEADING_OPEN = /^(#{1,6})[ \t]/;

/**
 * An ATX heading's level and text, its closing #s and spaces dropped; null when the line is no heading.
 * Written as a loop, not one regular expression: `(.+?)[ \t#]*$` tried every end for the text and scanned
 * the spaces after each, quadratic on one long line (45 s for a 200 KB README line).
 */
export function atxHeading(line: string): { level: number; text: string } | null {
  const open = HEADING_OPEN.exec(line);
  // Text after the opening space, and no line terminator: what `[ \t]+(.+)$` required.
  if (open === null || line.length < open[0].length + 1 || /[\n\r\u2028\u2029]/.test(line)) return null;
  let start = open[0].length;
  while (start < line.length && (line[start] === " " || line[start] === "\t")) start++;
  let end = line.length;
  while (end > start && (line[end - 1] === " " || line[end - 1] === "\t" || line[end - 1] === "#")) end--;
  // A heading of #s only ("# ##") has its first one as its text.
  if (end === start && start < line.length) end = start + 1;
  return { level: open[1].length, text: line.slice(start, end).trim() };
}
/** A line that opens or closes a fenced code block. */
export const FENCE = /^[ \t]*(```|~~~)/;

/** Paragraphs joined up to `CHUNK_CHARS`; a single longer paragraph is cut at the limit. */
function pieces(text: string): string[] {
  const out: string[] = [];
  let current = "";
  for (const paragraph of text.split(/\n[ \t]*\n/)) {
    const trimmed = paragraph.trim();
    if (trimmed === "") continue;
    if (current !== "" && current.length + trimmed.length + 2 > CHUNK_CHARS) {
      out.push(current);
      current = "";
    }
    current = current === "" ? trimmed : `${current}\n\n${trimmed}`;
    while (current.length > CHUNK_CHARS) {
      out.push(current.slice(0, CHUNK_CHARS));
      current = current.slice(CHUNK_CHARS);
    }
  }
  if (current !== "") out.push(current);
  return out;
}

/**
 * Markdown by its ATX headings (`#` … `######`); headings inside fenced code blocks are code, not structure.
 * A section with no text of its own (a heading right before a subheading) yields no chunk.
 */
export function chunkMarkdown(text: string, fileName: string): Chunk[] {
  const sections: { trail: string[]; lines: string[] }[] = [{ trail: [], lines: [] }];
  const stack: { level: number; text: string }[] = [];
  let title: string | undefined;
  let fenced = false;
  for (const line of text.replace(/\r\n?/g, "\n").split("\n")) {
    if (FENCE.test(line)) fenced = !fenced;
    const heading = fenced ? null : atxHeading(line);
    if (heading === null) {
      sections[sections.length - 1].lines.push(line);
      continue;
    }
    const { level, text: name } = heading;
    if (level === 1 && title === undefined) {
      title = name;
      stack.length = 0;
      sections.push({ trail: [], lines: [] });
      continue;
    }
    while (stack.length > 0 && stack[stack.length - 1].level >= level) stack.pop();
    stack.push({ level, text: name });
    sections.push({ trail: stack.map((entry) => entry.text), lines: [] });
  }
  const docTitle = title ?? fileName;
  return sections.flatMap((section) => {
    // Pages whose title is not an h1 (HTML with its title in <title> and an h2) repeat it as the first heading.
    const trail = section.trail[0] === docTitle ? section.trail.slice(1) : section.trail;
    return pieces(section.lines.join("\n")).map((piece) => ({ title: docTitle, trail, text: piece }));
  });
}

/** Plain text has no structure to follow: paragraphs, grouped. */
export function chunkPlainText(text: string, fileName: string): Chunk[] {
  return pieces(text.replace(/\r\n?/g, "\n")).map((piece) => ({ title: fileName, trail: [], text: piece }));
}
