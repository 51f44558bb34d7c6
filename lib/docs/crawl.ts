/**
 * A docs site crawled into an index: pages on the start URL's host under its path prefix, robots.txt
 * honoured, sitemap.xml used when there is one, a few requests at a time (one, with the site's Crawl-delay
 * between them, when it asks). The queue lives in the index file, so an interrupted crawl picks up where it
 * stopped; a finished one, run again, asks for each page with its ETag/Last-Modified and re-reads only what
 * changed.
 */
import { DomUtils, parseDocument } from "htmlparser2";
import { hash53 } from "../hash.ts";
import { VERSION } from "../version.ts";
import { ALLOW_ALL, parseRobots, type Robots, USER_AGENT } from "./robots.ts";
import { chunkDocument, MAX_FILE_BYTES } from "./sources.ts";
import type { DocsIndex } from "./store.ts";

export interface CrawlOptions {
  maxPages: number;
  /** Requests in flight at once when the site sets no Crawl-delay. */
  concurrency: number;
  /** Per request. */
  timeoutMs: number;
  /** Waits before the second and third try of a request that failed for a reason that may pass. */
  retryDelaysMs: readonly number[];
}

export const DEFAULT_CRAWL: CrawlOptions = {
  maxPages: 1000,
  concurrency: 4,
  timeoutMs: 30_000,
  retryDelaysMs: [1000, 4000],
};

export interface CrawlDeps {
  fetch: typeof fetch;
  sleep: (ms: number) => Promise<void>;
  /** Progress lines (stderr). */
  progress: (line: string) => void;
}

export interface CrawlReport {
  resumed: boolean;
  fetched: number;
  changed: number;
  unchanged: number;
  removed: number;
  skipped: { url: string; note: string }[];
  limitReached: boolean;
}

/** The site stopped answering mid-crawl; what was read is kept and the same command resumes. */
export class CrawlInterruptedError extends Error {}

/** A start URL nothing could be read from. */
export class SiteUnreachableError extends Error {}

/** Several failures in a row mean the site (or the network) is down, not that some pages are broken. */
const FAILURES_TO_STOP = 5;
const MAX_SITEMAPS = 20;
const NOT_PAGES =
  /\.(png|jpe?g|gif|svg|webp|avif|ico|bmp|css|js|mjs|map|json|xml|pdf|zip|gz|tgz|bz2|xz|tar|7z|woff2?|ttf|otf|eot|mp[34]|webm|ogg|wasm|exe|dmg|deb|rpm)$/i;
const HEADERS = { "user-agent": `${USER_AGENT}/${VERSION} (docs indexer)` };

/** The pages a crawl may read: the start URL's origin, under its folder. */
export function crawlScope(start: URL): (url: URL) => boolean {
  const path = start.pathname;
  // "/docs/v2" names a folder as much as "/docs/v2/" does; "/docs/v2/index.html" names a page in one.
  const lastSegment = path.slice(path.lastIndexOf("/") + 1);
  const prefix = path.endsWith("/")
    ? path
    : lastSegment.includes(".")
    ? path.slice(0, path.lastIndexOf("/") + 1)
    : `${path}/`;
  return (url) =>
    url.origin === start.origin && (url.pathname === path || url.pathname.startsWith(prefix)) &&
    !NOT_PAGES.test(url.pathname);
}

/** One spelling per page: no fragment, http(s) only. */
export function pageUrl(href: string, base: URL): URL | undefined {
  try {
    const url = new URL(href, base);
    if (url.protocol !== "http:" && url.protocol !== "https:") return undefined;
    url.hash = "";
    return url;
  } catch {
    return undefined;
  }
}

type Kind = "html" | "markdown" | "text";

function kindOf(contentType: string | null, url: URL): Kind | undefined {
  const type = (contentType ?? "").split(";")[0].trim().toLowerCase();
  if (type === "text/html" || type === "application/xhtml+xml") return "html";
  if (type === "text/markdown" || /\.(md|markdown|mdx)$/i.test(url.pathname)) return "markdown";
  if (type === "text/plain") return "text";
  return undefined;
}

/** The body, up to the size limit; undefined when it is larger (and then it is not read to the end). */
async function readCapped(response: Response): Promise<Uint8Array | undefined> {
  const declared = Number(response.headers.get("content-length") ?? NaN);
  if (declared > MAX_FILE_BYTES) {
    await response.body?.cancel();
    return undefined;
  }
  const parts: Uint8Array[] = [];
  let total = 0;
  for await (const part of response.body ?? []) {
    total += part.length;
    // Leaving the loop cancels the stream: the rest is never downloaded.
    if (total > MAX_FILE_BYTES) return undefined;
    parts.push(part);
  }
  const bytes = new Uint8Array(total);
  let at = 0;
  for (const part of parts) {
    bytes.set(part, at);
    at += part.length;
  }
  return bytes;
}

const transient = (status: number) => status === 429 || status >= 500;

export async function crawl(
  index: DocsIndex,
  start: URL,
  options: CrawlOptions,
  deps: CrawlDeps,
): Promise<CrawlReport> {
  const inScope = crawlScope(start);
  const stamps = index.stamps();
  // A pass that did not end (interrupted, the site down) is finished first, the pages that failed asked again.
  const resumed = index.meta("root") === start.href && index.meta("crawl") === "running";
  const retried = resumed ? index.retryFailed() : 0;
  const report: CrawlReport = {
    resumed,
    fetched: 0,
    changed: 0,
    unchanged: 0,
    removed: 0,
    skipped: [],
    limitReached: false,
  };
  index.setMeta("root", start.href);
  index.setMeta("crawl", "running");
  // A refresh crawls as far as the add that made the index did, unless told otherwise.
  index.setMeta("max_pages", String(options.maxPages));

  /** A request with retries for what may pass (timeouts, 429, 5xx); the last response or error otherwise. */
  const request = async (url: URL, headers: Record<string, string> = {}): Promise<Response> => {
    for (let attempt = 0;; attempt++) {
      try {
        const response = await deps.fetch(url, {
          headers: { ...HEADERS, ...headers },
          redirect: "manual",
          signal: AbortSignal.timeout(options.timeoutMs),
        });
        if (!transient(response.status) || attempt >= options.retryDelaysMs.length) return response;
        await response.body?.cancel();
      } catch (error) {
        if (attempt >= options.retryDelaysMs.length) throw error;
      }
      await deps.sleep(options.retryDelaysMs[attempt]);
    }
  };

  const robots = await readRobots(start, request);
  if (!resumed) {
    index.resetCrawl();
    index.enqueue([start.href]);
    const fromSitemaps = (await sitemapPages(start, robots, request)).filter(inScope);
    index.enqueue(fromSitemaps.map((url) => url.href));
    if (fromSitemaps.length > 0) deps.progress(`sitemap: ${fromSitemaps.length} pages under ${start.href}`);
  } else {
    const { done, queued } = index.crawlCounts();
    deps.progress(
      `resuming the crawl of ${start.href}: ${done} pages read, ${queued} queued` +
        (retried > 0 ? ` (${retried} the site did not answer last time)` : ""),
    );
  }

  const polite = robots.crawlDelay !== undefined && robots.crawlDelay > 0;
  const concurrency = polite ? 1 : options.concurrency;
  let failuresInARow = 0;
  let lastFailure = "";
  /** A page the site did not serve: counted toward "the site is down", and asked for again next run. */
  const fail = (href: string, why: string, note = `could not be read: ${why}`) => {
    failuresInARow++;
    lastFailure = why;
    index.markCrawled(href, "failed", note);
  };
  /** Nothing was read: not a pass to resume, so the next run starts over (and asks for robots.txt again). */
  const unreachable = (why: string) => {
    index.setMeta("crawl", "unreachable");
    return new SiteUnreachableError(`cannot read ${start.href}: ${why}`);
  };

  const visit = async (href: string): Promise<void> => {
    const url = new URL(href);
    if (!robots.allowed(url.pathname + url.search)) {
      index.markCrawled(href, "skipped", robots.blockedBecause ?? "disallowed by robots.txt");
      return;
    }
    const validator = stamps.get(href)?.validator;
    let response: Response;
    try {
      response = await request(url, validator === undefined ? {} : conditional(validator));
    } catch (error) {
      fail(href, (error as Error).message);
      return;
    }
    report.fetched++;
    if (transient(response.status)) {
      await response.body?.cancel();
      const status = `HTTP ${response.status}`;
      fail(href, status, `${status}, after ${options.retryDelaysMs.length + 1} tries`);
      return;
    }
    failuresInARow = 0;
    const follow = (links: readonly string[]) =>
      index.enqueue(
        links.map((link) => pageUrl(link, url)).filter((link) => link !== undefined).filter(inScope)
          .map((link) => link.href),
      );
    if (response.status === 304) {
      await response.body?.cancel();
      // No body: the links are the ones the page had when it was read.
      follow(index.linksOf(href));
      report.unchanged++;
      index.markCrawled(href, "done");
      return;
    }
    if (response.status >= 300 && response.status < 400) {
      await response.body?.cancel();
      const target = pageUrl(response.headers.get("location") ?? "", url);
      if (target !== undefined && inScope(target)) {
        index.enqueue([target.href]);
        index.markCrawled(href, "done", `redirects to ${target.href}`);
      } else {
        index.markCrawled(href, "skipped", `redirects off-site to ${target?.href ?? "nowhere"}`);
      }
      return;
    }
    if (!response.ok) {
      await response.body?.cancel();
      index.markCrawled(href, "skipped", `HTTP ${response.status}`);
      return;
    }
    const kind = kindOf(response.headers.get("content-type"), url);
    if (kind === undefined) {
      await response.body?.cancel();
      index.markCrawled(href, "skipped", `not a page (${response.headers.get("content-type") ?? "no type"})`);
      return;
    }
    let bytes: Uint8Array | undefined;
    try {
      bytes = await readCapped(response);
    } catch (error) {
      // The connection broke (or timed out) mid-body: like a request that failed.
      fail(href, (error as Error).message);
      return;
    }
    if (bytes === undefined) {
      index.markCrawled(href, "skipped", `larger than ${MAX_FILE_BYTES / 1024 / 1024} MB`);
      return;
    }
    const last = url.pathname.split("/").filter(Boolean).pop() ?? url.host;
    let name = last;
    try {
      name = decodeURIComponent(last);
    } catch {
      // A stray "%" in a link: the raw name titles the page just as well.
    }
    const read = chunkDocument(bytes, kind, name, response.headers.get("content-type"));
    if ("skipped" in read) {
      index.markCrawled(href, "skipped", read.skipped);
      return;
    }
    follow(read.links);
    const version = hash53(new TextDecoder().decode(bytes));
    const responseValidator = response.headers.get("etag") ?? response.headers.get("last-modified") ??
      undefined;
    if (stamps.get(href)?.version === version) report.unchanged++;
    else {
      index.put(
        href,
        read.title,
        { size: bytes.length, version, validator: responseValidator },
        read.chunks,
        read.links,
      );
      report.changed++;
    }
    index.markCrawled(href, "done");
  };

  while (true) {
    const room = options.maxPages - index.crawlCounts().done;
    if (room <= 0) {
      report.limitReached = index.crawlCounts().queued > 0;
      break;
    }
    const batch = index.queued(Math.min(concurrency, room));
    if (batch.length === 0) break;
    await Promise.all(batch.map(visit));
    if (failuresInARow >= FAILURES_TO_STOP) {
      if (index.crawlCounts().done === 0) throw unreachable(lastFailure);
      throw new CrawlInterruptedError(
        `the site stopped answering (${lastFailure}) after ${index.crawlCounts().done} pages`,
      );
    }
    if (report.fetched > 0 && report.fetched % 50 < batch.length) {
      const { done, queued } = index.crawlCounts();
      deps.progress(`${done} pages read, ${queued} queued`);
    }
    if (polite) await deps.sleep(Math.min(robots.crawlDelay!, 30) * 1000);
  }
  const { done } = index.crawlCounts();
  if (done === 0) throw unreachable(index.skippedPages()[0]?.note ?? "nothing answered");
  // The pass is complete: what it did not reach is gone from the site (or now past the page limit).
  index.dropQueue();
  for (const source of index.unreachedDocuments()) {
    index.remove(source);
    report.removed++;
  }
  report.skipped = index.skippedPages();
  index.setMeta("crawl", "complete");
  return report;
}

function conditional(validator: string): Record<string, string> {
  // An ETag is quoted ("…" or W/"…"); anything else is a Last-Modified date.
  return /^(W\/)?"/.test(validator) ? { "if-none-match": validator } : { "if-modified-since": validator };
}

async function readRobots(start: URL, request: (url: URL) => Promise<Response>): Promise<Robots> {
  let response: Response;
  try {
    response = await request(new URL("/robots.txt", start));
  } catch {
    // The start page's own request says whether the site is there at all.
    return ALLOW_ALL;
  }
  if (!response.ok) {
    await response.body?.cancel();
    // RFC 9309: an unreachable robots.txt (5xx) means "assume complete disallow"; a missing one allows all.
    if (response.status >= 500) {
      return {
        allowed: () => false,
        sitemaps: [],
        blockedBecause:
          `robots.txt answered HTTP ${response.status}, which means "crawl nothing" until it answers`,
      };
    }
    return ALLOW_ALL;
  }
  try {
    return parseRobots(await response.text());
  } catch {
    // Cut off mid-file: as if there were none, like a robots.txt the site does not answer at all.
    return ALLOW_ALL;
  }
}

/** Page URLs listed by the site's sitemaps (robots.txt's, else /sitemap.xml), following sitemap indexes. */
async function sitemapPages(
  start: URL,
  robots: Robots,
  request: (url: URL) => Promise<Response>,
): Promise<URL[]> {
  const queue = robots.sitemaps.length > 0 ? robots.sitemaps : [new URL("/sitemap.xml", start).href];
  const pages: URL[] = [];
  for (let read = 0; read < queue.length && read < MAX_SITEMAPS; read++) {
    const url = pageUrl(queue[read], start);
    if (url === undefined || url.origin !== start.origin) continue;
    let xml: string;
    try {
      const response = await request(url);
      if (!response.ok) {
        await response.body?.cancel();
        continue;
      }
      xml = await response.text();
    } catch {
      continue;
    }
    const document = parseDocument(xml, { xmlMode: true });
    const locs = (name: string) =>
      DomUtils.findAll((element) => element.name === name, document.children)
        .flatMap((element) => DomUtils.getElementsByTagName("loc", element, true, 1))
        .map((loc) => DomUtils.textContent(loc).trim());
    queue.push(...locs("sitemap"));
    for (const loc of locs("url")) {
      const page = pageUrl(loc, url);
      if (page !== undefined) pages.push(page);
    }
  }
  return pages;
}
