/**
 * A docs site crawled into an index: pages on the start URL's host under its path prefix, robots.txt
 * honoured, sitemap.xml used when there is one, a few requests at a time (one, with the site's Crawl-delay
 * between them, when it asks). The queue lives in the index file, so an interrupted crawl picks up where it
 * stopped; a finished one, run again, asks for each page with its ETag/Last-Modified and re-reads only what
 * changed.
 *
 * This module runs a pass; its parts live beside it: the queue and its resume state (crawl_frontier.ts),
 * scope (crawl_scope.ts), requests and retries (crawl_fetch.ts), robots.txt and sitemaps (crawl_site.ts),
 * what an answer means and reading a page (crawl_page.ts), progress lines (crawl_progress.ts).
 */
import { budgetedSleep, conditional, readCapped, type Request, requester } from "./crawl_fetch.ts";
import { CRAWLED, Frontier, type PageLeftOut, type PassStart } from "./crawl_frontier.ts";
import { failureOf, type Kind, mayPass, readPage, responseAction } from "./crawl_page.ts";
import { countsLine, progressDue, resumeLine, sitemapLine } from "./crawl_progress.ts";
import { pagesToRead } from "./crawl_scope.ts";
import { readRobots, sitemapPages } from "./crawl_site.ts";
import { messageOf } from "../errors.ts";
import type { Robots } from "./robots.ts";
import { MAX_FILE_BYTES } from "./sources.ts";
import type { DocsIndex, DocumentStamp } from "./store.ts";
import type { UrlPatterns } from "./url_patterns.ts";

export { crawlScope, pageUrl } from "./crawl_scope.ts";

/** `include` and `exclude`: which pages in scope are read (url_patterns.ts). */
export interface CrawlOptions extends UrlPatterns {
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
  include: [],
  exclude: [],
};

export interface CrawlDeps {
  fetch: typeof fetch;
  sleep: (ms: number) => Promise<void>;
  /** Progress lines (stderr). */
  progress: (line: string) => void;
  /**
   * The time the run is allowed (a package's published docs have a budget; `index add` typed by hand has
   * none): when it aborts, waits and requests in flight end, nothing more is asked, and the pass ends with
   * what it read (CrawlReport.cutShort).
   */
  budget?: AbortSignal;
}

export interface CrawlReport {
  resumed: boolean;
  /** Requests for pages this run. */
  fetched: number;
  /** Pages the whole pass read (resumed or not), redirects included: what failures are a share of. */
  read: number;
  changed: number;
  unchanged: number;
  removed: number;
  /** Pages left out on purpose: robots.txt, not a page, too large, the same as another, off-site. */
  skipped: PageLeftOut[];
  /** Pages the site failed (an HTTP error, a timeout), each with the kind of failure. */
  failed: Required<PageLeftOut>[];
  limitReached: boolean;
  /** The budget (CrawlDeps.budget) ran out with pages still queued: they were not asked for. */
  cutShort: boolean;
}

/** How a run asks a site for anything: requests with their retries, and what its robots.txt allows. */
export interface SiteAccess {
  request: Request;
  robots: Robots;
}

/** Reads the site's robots.txt, once per run: whatever the run reads from the site is asked through this. */
export async function siteAccess(start: URL, options: CrawlOptions, deps: CrawlDeps): Promise<SiteAccess> {
  const request = requester(deps.fetch, deps.sleep, options, deps.budget);
  return { request, robots: await readRobots(start, request) };
}

/** What a pass reads, when not the whole site from its start page. */
export interface CrawlPlan {
  /** The site's access, when the run has read it already. */
  access?: SiteAccess;
  /** These pages and no others (an llms.txt's list, in scope already): no link followed, no sitemap read. */
  pages?: readonly URL[];
  /** What the pages come from, recorded in the index: a pass resumes only from the same source. */
  source?: string;
}

/**
 * A crawl that ended without what it came for, and whether its cause may pass: a timeout, a network error,
 * HTTP 429 or 5xx, a robots.txt that did not answer (`transient`); or the site's answer, which asking again
 * does not change: HTTP 404, 403 or 410, robots.txt's refusal, a request the network policy refuses.
 */
export class CrawlEndedError extends Error {
  constructor(message: string, readonly transient: boolean) {
    super(message);
  }
}

/** The site stopped answering mid-crawl; what was read is kept and the same command resumes. */
export class CrawlInterruptedError extends CrawlEndedError {}

/** A start URL nothing could be read from. */
export class SiteUnreachableError extends CrawlEndedError {}

/** Several failures in a row mean the site (or the network) is down, not that some pages are broken. */
const FAILURES_TO_STOP = 5;
/** The most a Crawl-delay is honoured, in seconds: a site asking for more would take days to index. */
const MAX_CRAWL_DELAY = 30;

/** Pages in a row the site did not serve, and the last reason why (and whether it may pass). */
export class FailureStreak {
  length = 0;
  last = "";
  lastMayPass = true;

  add(why: string, mayPass: boolean): void {
    this.length++;
    this.last = why;
    this.lastMayPass = mayPass;
  }

  /** The site served a page: the failures before were the pages', not the site's. */
  reset(): void {
    this.length = 0;
  }

  get siteDown(): boolean {
    return this.length >= FAILURES_TO_STOP;
  }
}

/** One pass over a site, shared by the pages it reads at once. */
interface Pass {
  index: DocsIndex;
  start: URL;
  options: CrawlOptions;
  deps: CrawlDeps;
  /** The pages the pass may read: in the start URL's scope, through the patterns. */
  inScope: (url: URL) => boolean;
  /** Whether the pass follows the links of the pages it reads. */
  follows: boolean;
  frontier: Frontier;
  /** The documents as the last pass read them: the validators to ask with, the versions to compare. */
  stamps: Map<string, DocumentStamp>;
  request: Request;
  robots: Robots;
  failures: FailureStreak;
  report: CrawlReport;
}

/**
 * Reads the site into the index: from the start page, following links, with the sitemap's pages too; or the
 * pages `plan` names and only those. The start page is read for its links whatever the patterns say, and
 * indexed only when they take it.
 */
export async function crawl(
  index: DocsIndex,
  start: URL,
  options: CrawlOptions,
  deps: CrawlDeps,
  plan: CrawlPlan = {},
): Promise<CrawlReport> {
  const inScope = pagesToRead(start, options);
  const frontier = new Frontier(index, inScope);
  const stamps = index.stamps();
  const begun = frontier.begin(start, { ...options, source: plan.source ?? CRAWLED });
  const { request, robots } = plan.access ?? await siteAccess(start, options, deps);
  const pass: Pass = {
    index,
    start,
    options,
    deps,
    inScope,
    follows: plan.pages === undefined,
    frontier,
    stamps,
    request,
    robots,
    failures: new FailureStreak(),
    report: {
      resumed: begun.resumed,
      fetched: 0,
      read: 0,
      changed: 0,
      unchanged: 0,
      removed: 0,
      skipped: [],
      failed: [],
      limitReached: false,
      cutShort: false,
    },
  };
  await queueStart(pass, begun, plan.pages);
  await readQueue(pass);
  const read = frontier.counts().done;
  if (read === 0) throw nothingRead(pass);
  const { removed, skipped } = frontier.finish();
  return {
    ...pass.report,
    read,
    removed: pass.report.removed + removed,
    skipped: skipped.filter((page) => page.failure === undefined),
    failed: skipped.filter((page): page is Required<PageLeftOut> => page.failure !== undefined),
  };
}

/**
 * A new pass queues the start page and the sitemap's pages, or the pages it was given; a resumed one goes on
 * with its queue.
 */
async function queueStart(pass: Pass, begun: PassStart, pages: readonly URL[] | undefined): Promise<void> {
  const { start, frontier, deps } = pass;
  if (begun.resumed) {
    deps.progress(resumeLine(start, frontier.counts(), begun.retried));
    return;
  }
  if (pages !== undefined) return frontier.startOver(pages);
  frontier.startOver([start]);
  const fromSitemaps = (await sitemapPages(start, pass.robots, pass.request)).filter(pass.inScope);
  frontier.add(fromSitemaps);
  if (fromSitemaps.length > 0) deps.progress(sitemapLine(fromSitemaps.length, start));
}

/**
 * Reads queued pages, a batch at a time, until none are left, the page limit, the budget, or the site stops
 * answering.
 */
async function readQueue(pass: Pass): Promise<void> {
  const { robots, options, frontier, deps } = pass;
  const polite = robots.crawlDelay !== undefined && robots.crawlDelay > 0;
  const concurrency = polite ? 1 : options.concurrency;
  const sleep = budgetedSleep(deps.sleep, deps.budget);
  while (true) {
    const { batch, limitReached } = frontier.next(concurrency, options.maxPages);
    if (batch.length === 0) {
      pass.report.limitReached = limitReached;
      return;
    }
    if (deps.budget?.aborted) {
      pass.report.cutShort = true;
      return;
    }
    await Promise.all(batch.map((href) => visit(pass, href)));
    if (pass.failures.siteDown) throw siteStopped(pass);
    if (progressDue(pass.report.fetched, batch.length)) deps.progress(countsLine(frontier.counts()));
    if (polite) await sleep(Math.min(robots.crawlDelay!, MAX_CRAWL_DELAY) * 1000);
  }
}

/** Asks for one queued page and does what its answer means. */
async function visit(pass: Pass, href: string): Promise<void> {
  const { frontier, report } = pass;
  const url = new URL(href);
  if (!pass.robots.allowed(url.pathname + url.search)) {
    frontier.mark(href, "skipped", pass.robots.blockedBecause ?? "disallowed by robots.txt");
    return;
  }
  let response: Response;
  try {
    response = await pass.request(url, conditional(pass.stamps.get(href)?.validator));
  } catch (error) {
    // Ended by the budget, not by the site: the page stays queued, and the pass ends without it.
    if (pass.deps.budget?.aborted) return;
    failed(pass, href, failureOf(error), `could not be read: ${messageOf(error)}`, messageOf(error));
    return;
  }
  report.fetched++;
  const action = responseAction(response, url, pass.inScope, pass.options.retryDelaysMs.length + 1);
  if (action.do !== "fail") pass.failures.reset();
  if (action.do !== "read") await response.body?.cancel();
  switch (action.do) {
    case "fail":
      return failed(pass, href, action.why, action.note);
    case "missing":
      // Not asked again when the pass resumes: the site answered, and a document it had leaves the index.
      return frontier.mark(href, "skipped", action.why, action.why);
    case "unchanged":
      // No body: the links are the ones the page had when it was read.
      if (pass.follows) frontier.follow(pass.index.linksOf(href), url);
      report.unchanged++;
      return frontier.mark(href, "done");
    case "redirect":
      frontier.add([action.target]);
      return frontier.mark(href, "done", `redirects to ${action.target.href}`);
    case "skip":
      return frontier.mark(href, "skipped", action.note);
    case "read":
      return await readInto(pass, href, url, response, action.kind);
  }
}

/** Reads a page's body into the index, unless it is too large, not a page after all, or unchanged. */
async function readInto(pass: Pass, href: string, url: URL, response: Response, kind: Kind): Promise<void> {
  const { frontier, report } = pass;
  let bytes: Uint8Array | undefined;
  try {
    bytes = await readCapped(response);
  } catch (error) {
    if (pass.deps.budget?.aborted) return;
    // The connection broke (or timed out) mid-body: like a request that failed.
    return failed(pass, href, failureOf(error), `could not be read: ${messageOf(error)}`, messageOf(error));
  }
  if (bytes === undefined) {
    return frontier.mark(href, "skipped", `larger than ${MAX_FILE_BYTES / 1024 / 1024} MB`);
  }
  const page = readPage(bytes, kind, url, response.headers);
  if ("skipped" in page) return frontier.mark(href, "skipped", page.skipped);
  if (pass.follows) frontier.follow(page.links, url);
  // The start page, read for its links, is not indexed unless the patterns take it.
  if (!pass.inScope(url)) {
    if (pass.stamps.has(href)) {
      pass.index.remove(href);
      report.removed++;
    }
    return frontier.mark(href, "done");
  }
  if (pass.stamps.get(href)?.version === page.stamp.version) report.unchanged++;
  else {
    // The same page under a second address (a trailing "index.html", a mirror path) is indexed once. Only
    // what this pass keeps counts: a document of the source an `add --replace` replaces leaves at the end, and
    // a page the old and new versions share must not go with it.
    const same = pass.index.sameAs(href, page.digest, (source) => pass.frontier.keeps(source));
    if (same !== undefined) {
      pass.index.remove(href);
      return frontier.mark(href, "skipped", `the same page as ${same}`);
    }
    pass.index.put(href, page);
    report.changed++;
  }
  frontier.mark(href, "done");
}

/**
 * A page the site did not serve, `kind` the kind of failure ("HTTP 503", "timeout"): counted toward "the site
 * is down" (`why` is what that error says of it), and asked for again next run.
 */
function failed(pass: Pass, href: string, kind: string, note: string, why = kind): void {
  pass.failures.add(why, mayPass(kind));
  pass.frontier.mark(href, "failed", note, kind);
}

/** The error that ends a pass whose site stopped answering: unreachable if nothing was read yet. */
function siteStopped(pass: Pass): Error {
  const { done } = pass.frontier.counts();
  const { last, lastMayPass } = pass.failures;
  if (done === 0) return unreachable(pass, last, lastMayPass);
  return new CrawlInterruptedError(`the site stopped answering (${last}) after ${done} pages`, lastMayPass);
}

/**
 * The pass ended with nothing read. Said of the budget when it ran out (which may pass); else of the first
 * page left out that failed for a reason that may pass, else of the first page left out (the start page, a 404
 * or robots.txt's refusal: the site's answer, final), unless robots.txt itself did not answer, which may pass.
 */
function nothingRead(pass: Pass): SiteUnreachableError {
  if (pass.report.cutShort) return unreachable(pass, "the time allowed ran out before a page was read", true);
  const left = pass.frontier.skipped();
  const passing = left.find((page) => page.failure !== undefined && mayPass(page.failure));
  const said = passing ?? left[0];
  return unreachable(
    pass,
    said?.note ?? "nothing answered",
    said === undefined || passing !== undefined || pass.robots.blockedBecause !== undefined,
  );
}

/** Nothing was read: of the site from its start page, or of the pages the pass was given. */
function unreachable(pass: Pass, why: string, transient: boolean): SiteUnreachableError {
  pass.frontier.unreachable();
  if (pass.follows) return new SiteUnreachableError(`cannot read ${pass.start.href}: ${why}`, transient);
  return new SiteUnreachableError(
    `none of the pages listed for ${pass.start.href} could be read (${why})`,
    transient,
  );
}
