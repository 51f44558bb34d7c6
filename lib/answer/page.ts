/**
 * A page the index holds: a read of a URL whose page a built-in index has (the same URL after normalizing)
 * is answered with that page's local text from its top, within the budget, saying when it was indexed.
 */
import type { DocsIndex } from "../docs/store.ts";
import type { Match } from "../match/match.ts";
import { matchedDocs, requestSubject } from "../redirect/guidance.ts";
import { requestUrls, type WebRequest } from "../redirect/request.ts";
import {
  type Answer,
  type AnswerOptions,
  layout,
  QUOTES_ARE_DOCS,
  quotesRoom,
  type QuotingDenial,
  tailLines,
} from "./answer.ts";
import { quote } from "./quote.ts";

/**
 * The spellings a page may be indexed under: the URL without its fragment (a crawl keeps none), with and
 * without a trailing slash, over https and http. Nothing for what is not an http(s) URL.
 */
export function pageSpellings(url: string): string[] {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return [];
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") return [];
  parsed.hash = "";
  const spellings: string[] = [];
  for (const protocol of [parsed.protocol, parsed.protocol === "https:" ? "http:" : "https:"]) {
    const variant = new URL(parsed.href);
    variant.protocol = protocol;
    spellings.push(variant.href);
    const path = variant.pathname;
    if (path !== "/") {
      variant.pathname = path.endsWith("/") ? path.slice(0, -1) : `${path}/`;
      spellings.push(variant.href);
    }
  }
  return [...new Set(spellings)];
}

/** A page as the index holds it. */
export interface IndexedPage {
  /** The URL it is indexed under. */
  source: string;
  title: string;
  passages: { trail: string[]; text: string }[];
}

/** The first page the request reads that the index holds, under any of its spellings. */
export function findPage(index: DocsIndex, request: WebRequest): IndexedPage | undefined {
  for (const url of requestUrls(request)) {
    for (const source of pageSpellings(url)) {
      const page = index.page(source);
      if (page !== undefined) return { source, ...page };
    }
  }
  return undefined;
}

/** The page's text in order, each section under a line naming its headings when they change. */
export function pageText(page: IndexedPage): string {
  const parts: string[] = [];
  let heading = "";
  for (const passage of page.passages) {
    const trail = passage.trail.join(" › ");
    if (trail !== heading && trail !== "") parts.push(`## ${trail}`);
    heading = trail;
    parts.push(passage.text.trim());
  }
  return parts.join("\n\n");
}

/** A day as the docs' readers write it: 2026-11-20 (UTC). */
export const dayOf = (time: Date): string => time.toISOString().slice(0, 10);

/**
 * The denial that answers a page read with the indexed page: its text from the top, quoted, cut to fit
 * `maxChars`. `indexedAt` is when the index was last written (`indexWrittenAt`), undefined when unknown.
 * Undefined when not even the quote's frame fits.
 */
export function pageReason(
  request: WebRequest,
  match: Match,
  page: IndexedPage,
  options: AnswerOptions & { indexedAt?: Date },
  others: readonly Match[] = [],
): Answer | undefined {
  const when = options.indexedAt === undefined ? "" : `, indexed ${dayOf(options.indexedAt)}`;
  const denial: QuotingDenial = {
    head:
      `Local documentation has the page ${requestSubject(request)} reads: ${matchedDocs(match)}, and its ` +
      `index holds ${page.source}${when}. Its text follows from the top. ${QUOTES_ARE_DOCS}`,
    tail: tailLines(request, match, others, options),
  };
  const text = quote(
    {
      source: page.source,
      title: page.title,
      trail: [],
      ...options.version === undefined ? {} : { version: options.version },
      ...options.indexedAt === undefined ? {} : { note: `indexed ${dayOf(options.indexedAt)}` },
    },
    pageText(page),
    quotesRoom(denial, options.maxChars, 1),
  );
  if (text === undefined) return undefined;
  return { reason: layout(denial, [text]), pages: [page.source] };
}

/**
 * When the index file was last written, its write-ahead log counted (a write lands there first): the edge
 * that reads the clock of the file system for `pageReason`. Undefined when neither can be stat'ed.
 */
export function indexWrittenAt(file: string): Date | undefined {
  const times = [file, `${file}-wal`].flatMap((path) => {
    try {
      const mtime = Deno.statSync(path).mtime;
      return mtime === null ? [] : [mtime.getTime()];
    } catch {
      return [];
    }
  });
  return times.length === 0 ? undefined : new Date(Math.max(...times));
}
