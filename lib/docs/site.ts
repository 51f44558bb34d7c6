/**
 * A docs site read into an index from the best source it offers: the llms-full.txt it publishes (the docs as
 * one Markdown file: one request, no HTML to clean), else the pages its llms.txt lists (often Markdown
 * versions), else a crawl from the start URL. Every source is read through the same access (robots.txt, the
 * crawler's requests and retries) and kept to the same pages: the start URL's scope, through the patterns.
 * The index records which source it read; `index refresh` reads that one again.
 */
import { messageOf } from "../errors.ts";
import {
  crawl,
  type CrawlDeps,
  type CrawlOptions,
  type CrawlReport,
  type SiteAccess,
  siteAccess,
  SiteUnreachableError,
} from "./crawl.ts";
import { readCapped } from "./crawl_fetch.ts";
import { CRAWLED, type PageLeftOut, recordPass } from "./crawl_frontier.ts";
import { failureOf, mayPass, readPage } from "./crawl_page.ts";
import { pagesToRead, pageUrl, scopeFolder } from "./crawl_scope.ts";
import {
  type FullPage,
  isLlmsFile,
  llmsCandidates,
  type LlmsKind,
  parseLlmsTxt,
  splitLlmsFull,
} from "./llms.ts";
import type { DocsIndex } from "./store.ts";
import { MAX_FILE_BYTES } from "./sources.ts";
import { describePatterns, type UrlPatterns } from "./url_patterns.ts";

/** What an index of a site was read from. */
export type SiteSource = { kind: "crawl" } | LlmsSource;
export type LlmsSource = { kind: LlmsKind; url: URL };

/** The source as the index records it. */
export const sourceKey = (source: SiteSource): string =>
  source.kind === "crawl" ? CRAWLED : `${source.kind} ${source.url.href}`;

/** The source an index records; a crawl when it records something else. */
export function sourceOf(key: string): SiteSource {
  const [kind, url] = key.split(" ");
  if ((kind === "llms-full.txt" || kind === "llms.txt") && URL.canParse(url)) {
    return { kind, url: new URL(url) };
  }
  return { kind: "crawl" };
}

export interface SiteReport extends CrawlReport {
  source: SiteSource;
  /** Of an llms file: the pages it has or lists, and how many of them are in scope (and so read). */
  listed?: { pages: number; inScope: number };
}

/**
 * `"find"`: the best source the site offers; `"crawl"`: a crawl whatever it offers; or the source to read again
 * (a refresh), found anew when it is gone.
 */
export type SourceChoice = "find" | "crawl" | SiteSource;

/** An llms-full.txt is the whole docs: it may be far larger than one page may be. */
export const MAX_LLMS_FULL_BYTES = 64 * 1024 * 1024;
/** Redirects followed to an llms file, on its own site only. */
const MAX_REDIRECTS = 3;

/** Reads the site into the index from the source `choice` says, and reports what was read from where. */
export async function readSite(
  index: DocsIndex,
  start: URL,
  options: CrawlOptions,
  deps: CrawlDeps,
  choice: SourceChoice,
): Promise<SiteReport> {
  const access = await siteAccess(start, options, deps);
  const crawled = async (): Promise<SiteReport> => ({
    ...await crawl(index, start, options, deps, { access }),
    source: { kind: "crawl" },
  });
  if (choice === "crawl" || (typeof choice === "object" && choice.kind === "crawl")) return await crawled();
  const recorded = typeof choice === "object" ? choice : undefined;
  const found = await findLlms(start, options, access, deps, recorded);
  if (found === undefined) return await crawled();
  const source: SiteSource = { kind: found.kind, url: found.url };
  const listed = { pages: found.total, inScope: found.pages.length };
  const spec = { ...options, source: sourceKey(source) };
  const report = found.kind === "llms-full.txt"
    ? indexFullPages(index, start, spec, found.pages)
    : await crawl(index, start, options, deps, { access, pages: found.pages, source: spec.source });
  return { ...report, source, listed };
}

/** An llms file with pages in scope: all it has or lists (`total`), and those in scope. */
type Found =
  | { kind: "llms-full.txt"; url: URL; total: number; pages: FullPage[] }
  | { kind: "llms.txt"; url: URL; total: number; pages: URL[] };

/**
 * The first llms file (in llmsCandidates' order, the one read last time first) that robots.txt lets us read
 * and that has pages in scope; undefined when there is none. A request that fails outright means the site is
 * not there: the run ends, without asking for the rest.
 */
async function findLlms(
  start: URL,
  patterns: UrlPatterns,
  access: SiteAccess,
  deps: CrawlDeps,
  recorded: LlmsSource | undefined,
): Promise<Found | undefined> {
  const inScope = pagesToRead(start, patterns);
  const candidates = llmsCandidates(start);
  if (recorded !== undefined) candidates.unshift(recorded);
  const tried = new Set<string>();
  for (const { kind, url } of candidates) {
    if (tried.has(url.href) || !access.robots.allowed(url.pathname + url.search)) continue;
    tried.add(url.href);
    const text = await fetchLlmsFile(start, access, url, kind);
    let why: string;
    if (typeof text !== "string") why = text.why;
    else {
      const found = llmsPages(kind, text, url, inScope);
      if (found.pages.length > 0) return found;
      why = found.total === 0 ? "has no page in it" : noneInScope(found.total, start, patterns);
    }
    if (url.href === recorded?.url.href) {
      deps.progress(`${url.href}, which the index was read from, ${why}: looking for another source`);
    } else if (why !== NOT_THERE) deps.progress(`${url.href} ${why}: not used`);
  }
  return undefined;
}

function noneInScope(total: number, start: URL, patterns: UrlPatterns): string {
  const taken = describePatterns(patterns);
  return `has none of its ${total} pages under ${new URL(scopeFolder(start), start).href}` +
    (taken === "" ? "" : ` that ${taken} take`);
}

function llmsPages(kind: LlmsKind, text: string, url: URL, inScope: (url: URL) => boolean): Found {
  if (kind === "llms-full.txt") {
    const all = splitLlmsFull(text, url);
    return { kind, url, total: all.length, pages: all.filter((page) => inScope(page.url)) };
  }
  const all = parseLlmsTxt(text, url);
  return { kind, url, total: all.length, pages: all.map((page) => page.url).filter(inScope) };
}

/** What a site without the file answers: nothing worth a line. */
const NOT_THERE = "is not there";

/** An llms file's text; or why there is none to read. */
async function fetchLlmsFile(
  start: URL,
  access: SiteAccess,
  url: URL,
  kind: LlmsKind,
): Promise<string | { why: string }> {
  let at = url;
  for (let redirects = 0;; redirects++) {
    let response: Response;
    try {
      response = await access.request(at);
    } catch (error) {
      throw new SiteUnreachableError(
        `cannot read ${start.href}: could not be read: ${messageOf(error)}`,
        mayPass(failureOf(error)),
      );
    }
    if (response.status >= 300 && response.status < 400 && redirects < MAX_REDIRECTS) {
      await response.body?.cancel();
      const target = pageUrl(response.headers.get("location") ?? "", at);
      if (target === undefined || target.origin !== start.origin) return { why: NOT_THERE };
      at = target;
      continue;
    }
    if (response.status !== 200) {
      await response.body?.cancel();
      return { why: NOT_THERE };
    }
    const limit = kind === "llms-full.txt" ? MAX_LLMS_FULL_BYTES : MAX_FILE_BYTES;
    let bytes: Uint8Array | undefined;
    try {
      bytes = await readCapped(response, limit);
    } catch (error) {
      return { why: `could not be read (${messageOf(error)})` };
    }
    if (bytes === undefined) return { why: `is larger than ${limit / 1024 / 1024} MB` };
    const text = new TextDecoder().decode(bytes);
    // A site that answers every path with its app's page is common: that HTML is no llms file.
    return isLlmsFile(response.headers.get("content-type"), text) ? text : { why: NOT_THERE };
  }
}

/**
 * The pages of an llms-full.txt into the index, up to the page limit: a page whose text is as the last pass
 * read it is left as it is, and documents the file no longer has leave the index.
 */
function indexFullPages(
  index: DocsIndex,
  start: URL,
  spec: CrawlOptions & { source: string },
  pages: readonly FullPage[],
): CrawlReport {
  recordPass(index, start, spec);
  // Nothing of a crawl before is left to resume.
  index.resetCrawl();
  index.deleteMeta("crawl");
  const stamps = index.stamps();
  const kept = new Set<string>();
  const skipped: PageLeftOut[] = [];
  let changed = 0;
  let unchanged = 0;
  const taken = pages.slice(0, spec.maxPages);
  const encoder = new TextEncoder();
  for (const page of taken) {
    const href = page.url.href;
    if (kept.has(href)) {
      skipped.push({ url: href, note: "a second page with the same address in the file" });
      continue;
    }
    const read = readPage(encoder.encode(page.text), "markdown", page.url, new Headers(), page.title);
    if ("skipped" in read) {
      skipped.push({ url: href, note: read.skipped });
      continue;
    }
    if (stamps.get(href)?.version === read.stamp.version) {
      kept.add(href);
      unchanged++;
      continue;
    }
    // Only pages of this file count: documents of the source an `add --replace` replaces are about to go.
    const same = index.sameAs(href, read.digest, (source) => kept.has(source));
    if (same !== undefined) {
      skipped.push({ url: href, note: `the same page as ${same}` });
      continue;
    }
    index.put(href, read);
    kept.add(href);
    changed++;
  }
  const gone = [...stamps.keys()].filter((source) => !kept.has(source));
  for (const source of gone) index.remove(source);
  index.settleSummaries();
  return {
    resumed: false,
    fetched: 1,
    read: taken.length,
    changed,
    unchanged,
    removed: gone.length,
    skipped,
    failed: [],
    limitReached: pages.length > taken.length,
    cutShort: false,
  };
}
