/**
 * What the llms.txt proposal (https://llmstxt.org) has a site publish for language models, read as an index's
 * source: `llms.txt`, a Markdown list of the pages worth reading (an H1, a summary, then H2 sections of
 * `- [title](url): notes` items, the section "Optional" the least needed), and by convention `llms-full.txt`,
 * the docs themselves as one Markdown file. Either lives at the site's root or in a folder of it. Pure: where
 * to look, and what the files say.
 */
import { atxHeading, FENCE } from "./chunk.ts";
import { pageName } from "./crawl_page.ts";
import { pageUrl, scopeFolder } from "./crawl_scope.ts";
import { frontMatter } from "./summary.ts";

export type LlmsKind = "llms-full.txt" | "llms.txt";

/**
 * Where a site's llms files may be, best first: the start URL's folder, then each folder above it up to the
 * root, and in each the whole docs (llms-full.txt) before the list of pages (llms.txt).
 */
export function llmsCandidates(start: URL): { kind: LlmsKind; url: URL }[] {
  const folders: string[] = [];
  for (let folder = scopeFolder(start); folder !== ""; folder = folder.replace(/[^/]*\/$/, "")) {
    folders.push(folder);
  }
  return folders.flatMap((folder) =>
    (["llms-full.txt", "llms.txt"] as const).map((kind) => ({ kind, url: new URL(folder + kind, start) }))
  );
}

/**
 * Whether an answer for an llms file is one: sites that answer every path with their app's HTML page (a 200
 * for a file they do not have) are common, and their HTML is no llms file.
 */
export function isLlmsFile(contentType: string | null, text: string): boolean {
  const type = (contentType ?? "").split(";")[0].trim().toLowerCase();
  if (type === "text/html" || type === "application/xhtml+xml") return false;
  return !/^\uFEFF?\s*</.test(text);
}

/** A page an llms.txt lists. */
export interface ListedPage {
  url: URL;
  title: string;
}

const LIST_ITEM = /^[ \t]*(?:[-*+]|\d+[.)])[ \t]+/;
/** A Markdown link of a line: an image when `!` comes before it. */
interface Link {
  image: boolean;
  text: string;
  destination: string;
}

/**
 * The Markdown links of a line, left to right, as `(!?)\[((?:[^[\]]|\[[^\]]*\])*)\]\(\s*(?:<([^<>]*)>|([^\s)]+))
 * (?:\s+["'(][^)]*)?\s*\)` finds them with `matchAll`: its text (one level of brackets allowed), its
 * destination in <…> (where spaces may be) or bare, then maybe a title. Read by hand, with where each scan
 * stops worked out once for the whole line: as that regular expression, every `[` of a long line scanned on
 * to the line's end (1.2 s for 40,000 `[`s, minutes for a line of `[](`s).
 */
function markdownLinks(line: string): Link[] {
  const n = line.length;
  const space = (i: number) => i < n && /\s/.test(line[i]);
  // next(i, test): the first index from i where test holds, n when none; filled from the end, once.
  const next = (test: (c: string) => boolean) => {
    const out = new Int32Array(n + 1).fill(n);
    for (let i = n - 1; i >= 0; i--) out[i] = test(line[i]) ? i : out[i + 1];
    return out;
  };
  const nonSpace = next((c) => !/\s/.test(c));
  const closeBracket = next((c) => c === "]");
  const closeParen = next((c) => c === ")");
  const angle = next((c) => c === "<" || c === ">");
  const bareEnd = next((c) => c === ")" || /\s/.test(c));
  // textEnd[i]: the `]` that ends a link text starting at i (a `[` there opens a bracket that runs to the
  // next `]`), -1 when none does.
  const textEnd = new Int32Array(n + 1).fill(-1);
  for (let i = n - 1; i >= 0; i--) {
    if (line[i] === "]") textEnd[i] = i;
    else if (line[i] !== "[") textEnd[i] = textEnd[i + 1];
    else if (closeBracket[i + 1] < n) textEnd[i] = textEnd[closeBracket[i + 1] + 1];
  }
  // Where a link ends when its destination ends at i: after a title's `)`, or after spaces and a `)`.
  const tailEnd = (i: number): number => {
    const after = nonSpace[i];
    if (space(i) && `"'(`.includes(line[after] ?? "\n") && closeParen[after + 1] < n) {
      return closeParen[after + 1] + 1;
    }
    return line[after] === ")" ? after + 1 : -1;
  };
  const links: Link[] = [];
  for (let open = line.indexOf("["); open !== -1;) {
    const close = textEnd[open + 1];
    let found: { destination: string; end: number } | undefined;
    if (close !== -1 && line[close + 1] === "(") {
      const start = nonSpace[close + 2];
      const inAngles = line[start] === "<" ? angle[start + 1] : n;
      const angled = line[inAngles] === ">" ? tailEnd(inAngles + 1) : -1;
      const bare = bareEnd[start] > start ? tailEnd(bareEnd[start]) : -1;
      if (angled !== -1) found = { destination: line.slice(start + 1, inAngles), end: angled };
      else if (bare !== -1) found = { destination: line.slice(start, bareEnd[start]), end: bare };
    }
    if (found === undefined) {
      open = line.indexOf("[", open + 1);
      continue;
    }
    links.push({
      image: line[open - 1] === "!",
      text: line.slice(open + 1, close),
      destination: found.destination,
    });
    open = line.indexOf("[", found.end);
  }
  return links;
}

/**
 * The pages an llms.txt lists: the first link of each list item (its notes may hold others), resolved against
 * the file's URL, each once, in the file's order except that the section "Optional" comes last.
 */
export function parseLlmsTxt(text: string, base: URL): ListedPage[] {
  const pages: ListedPage[] = [];
  const optional: ListedPage[] = [];
  let inOptional = false;
  let fenced = false;
  for (const line of text.replace(/\r\n?/g, "\n").split("\n")) {
    if (FENCE.test(line)) fenced = !fenced;
    if (fenced) continue;
    const heading = atxHeading(line);
    if (heading !== null) {
      if (heading.level <= 2) inOptional = heading.level === 2 && /^optional$/i.test(heading.text);
      continue;
    }
    if (!LIST_ITEM.test(line)) continue;
    const link = markdownLinks(line).find((link) => !link.image);
    const url = link === undefined ? undefined : pageUrl(link.destination, base);
    if (url === undefined) continue;
    (inOptional ? optional : pages).push({ url, title: link!.text.trim() });
  }
  const seen = new Set<string>();
  return [...pages, ...optional].filter(({ url }) => !seen.has(url.href) && seen.add(url.href));
}

/** A page of an llms-full.txt. */
export interface FullPage {
  title: string;
  /** Its own address, where the file says it; else the file's URL with the title as fragment. */
  url: URL;
  /** Its Markdown, front matter included when it has some. */
  text: string;
}

/** Where a page of an llms-full.txt starts, and what the file says of it there. */
interface PageStart {
  line: number;
  title?: string;
  url?: URL;
  /** The line that gave the address, which is not the page's text. */
  addressLine?: number;
}

/** "Source: https://…" or "URL: /docs/x" under a page's heading, as Mintlify and others write it. */
const SOURCE_LINE = /^(?:source|url):[ \t]*(\S+)$/i;
/** "# Title (/docs/x)", as fumadocs writes it: a path or URL in parentheses ends the heading. */
const HEADING_SOURCE = /^(.*\S)[ \t]+\(((?:\/|https?:\/\/)[^\s()]*)\)$/;
/** A thematic break: llms-full.txt files often put one between pages. */
const BREAK = /^[ \t]*([-*_])(?:[ \t]*\1){2,}[ \t]*$/;
/** How far below a "---" line a page's front matter may end. */
const FRONT_MATTER_LINES = 30;

/**
 * An llms-full.txt cut into its pages, the way such files are written: either each page opens with front
 * matter naming its `url` (VitePress's plugin), or each page is a section under a heading of the file's top
 * level (the highest level that occurs more than once, outside code), maybe with its address on a line below
 * (`Source: …`) or in the heading (`# Title (/path)`). What comes before the first page is a page of its own
 * when it says something besides headings. A file with no heading at all is no llms-full.txt (a site's "not
 * found" text, answered with a 200): no pages.
 */
export function splitLlmsFull(text: string, file: URL): FullPage[] {
  const lines = text.replace(/^\uFEFF/, "").replace(/\r\n?/g, "\n").split("\n");
  const fenced = fencedLines(lines);
  let starts = frontMatterStarts(lines, fenced, file);
  if (starts.length === 0) starts = headingStarts(lines, fenced, file);
  if (starts.length === 0) return [];
  const pages: FullPage[] = [];
  const anchors = new Map<string, number>();
  const cuts: PageStart[] = [{ line: 0 }, ...starts];
  for (const [n, start] of cuts.entries()) {
    const end = cuts[n + 1]?.line ?? lines.length;
    const own: string[] = [];
    for (let i = start.line; i < end; i++) if (i !== start.addressLine) own.push(lines[i]);
    while (own.length > 0 && (own.at(-1)!.trim() === "" || BREAK.test(own.at(-1)!))) own.pop();
    if (
      n === 0 && !own.some((line) => line.trim() !== "" && atxHeading(line) === null && !BREAK.test(line))
    ) {
      continue;
    }
    const title = start.title ?? firstHeading(lines, fenced, start.line, end) ??
      pageName(start.url ?? file);
    pages.push({ title, url: start.url ?? anchored(file, title, anchors), text: own.join("\n") });
  }
  return pages;
}

/** Whether each line is inside a fenced code block (the fence lines themselves count as inside). */
function fencedLines(lines: readonly string[]): boolean[] {
  let inside = false;
  return lines.map((line) => {
    if (FENCE.test(line)) {
      inside = !inside;
      return true;
    }
    return inside;
  });
}

/** The "---" lines that open front matter with a `url`: each starts a page. */
function frontMatterStarts(lines: readonly string[], fenced: readonly boolean[], file: URL): PageStart[] {
  return lines.flatMap((line, i) => {
    if (line.trimEnd() !== "---" || fenced[i]) return [];
    const { fields } = frontMatter(lines.slice(i, i + FRONT_MATTER_LINES + 2).join("\n"));
    const url = fields.url === undefined ? undefined : pageUrl(fields.url, file);
    return url === undefined ? [] : [{ line: i, title: fields.title, url }];
  });
}

/** The headings that start pages, each with its title and the address it gives. */
function headingStarts(lines: readonly string[], fenced: readonly boolean[], file: URL): PageStart[] {
  const headings = lines.flatMap((line, i) => {
    const heading = fenced[i] ? null : atxHeading(line);
    return heading === null ? [] : [{ line: i, ...heading }];
  });
  const count = (level: number) => headings.filter((heading) => heading.level === level).length;
  const levels = [...new Set(headings.map((heading) => heading.level))].sort((a, b) => a - b);
  const top = levels.find((level) => count(level) > 1) ?? levels[0];
  return headings.filter((heading) => heading.level === top).map((heading): PageStart => {
    const inHeading = HEADING_SOURCE.exec(heading.text);
    const url = inHeading === null ? undefined : pageUrl(inHeading[2], file);
    if (url !== undefined) return { line: heading.line, title: inHeading![1], url };
    // The address line comes right under the heading, maybe after a blank line or two.
    for (let i = heading.line + 1; i < lines.length && i <= heading.line + 3; i++) {
      const source = SOURCE_LINE.exec(lines[i].trim());
      const url = source === null ? undefined : pageUrl(source[1], file);
      if (url !== undefined) return { line: heading.line, title: heading.text, url, addressLine: i };
      if (lines[i].trim() !== "") break;
    }
    return { line: heading.line, title: heading.text };
  });
}

function firstHeading(lines: readonly string[], fenced: readonly boolean[], from: number, to: number) {
  for (let i = from; i < to; i++) {
    const heading = fenced[i] ? null : atxHeading(lines[i]);
    if (heading !== null) return heading.text;
  }
  return undefined;
}

/** A page with no address of its own: the file's, with a fragment made of its title, unique in the file. */
function anchored(file: URL, title: string, anchors: Map<string, number>): URL {
  const slug = title.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, "-").replace(/^-|-$/g, "") || "page";
  const seen = (anchors.get(slug) ?? 0) + 1;
  anchors.set(slug, seen);
  const url = new URL(file);
  url.hash = seen === 1 ? slug : `${slug}-${seen}`;
  return url;
}
