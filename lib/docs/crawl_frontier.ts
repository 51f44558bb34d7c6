/**
 * The crawl's queue and where a pass stands, kept in the index file: an interrupted pass is picked up where
 * it stopped, and a pass that ends tells which documents it no longer reached.
 */
import { linksToFollow } from "./crawl_scope.ts";
import type { CrawlState, DocsIndex } from "./store.ts";
import { NO_PATTERNS, type UrlPatterns } from "./url_patterns.ts";

/** How a pass begins: over again, or finishing one that did not end (with `retried` failed pages queued again). */
export type PassStart = { resumed: false } | { resumed: true; retried: number };

/** A page a pass did not index, and why; `failure` is the kind of failure when the site failed it. */
export interface PageLeftOut {
  url: string;
  note: string;
  failure?: string;
}

/** What a finished pass leaves out. */
export interface PassEnd {
  removed: number;
  skipped: PageLeftOut[];
}

/** What a pass reads, as the index records it: where it starts, from what, how far and which pages. */
export interface PassSpec extends UrlPatterns {
  maxPages: number;
  /** "crawl", or the llms.txt the pages come from (site.ts's source key). */
  source: string;
}

/** A pass recorded before sources were told apart was a crawl. */
export const CRAWLED = "crawl";

const patternsKey = ({ include, exclude }: UrlPatterns): string => JSON.stringify({ include, exclude });

/** Records what a pass reads, for `index refresh` to read the same again. */
export function recordPass(index: DocsIndex, start: URL, spec: PassSpec): void {
  index.setMeta("root", start.href);
  index.setMeta("source", spec.source);
  // A refresh reads as far as the add that made the index did, unless told otherwise.
  index.setMeta("max_pages", String(spec.maxPages));
  index.setMeta("patterns", patternsKey(spec));
}

/** The keys recordPass writes. */
const PASS_KEYS = ["root", "source", "max_pages", "patterns"] as const;

/** What the index records of its source (recordPass's keys, unset ones undefined), for restorePass. */
export type SourceRecord = Record<(typeof PASS_KEYS)[number], string | undefined>;

export function sourceRecord(index: DocsIndex): SourceRecord {
  return Object.fromEntries(PASS_KEYS.map((key) => [key, index.meta(key)])) as SourceRecord;
}

/**
 * Puts back what sourceRecord read: a pass records its source before it reads anything, and one that read
 * nothing must not leave the index saying it holds that source.
 */
export function restoreSource(index: DocsIndex, record: SourceRecord): void {
  for (const key of PASS_KEYS) {
    const value = record[key];
    if (value === undefined) index.deleteMeta(key);
    else index.setMeta(key, value);
  }
}

/** What the last pass over a site read, as recordPass recorded it. */
export interface RecordedPass extends UrlPatterns {
  start: URL;
  source: string;
  /** Undefined when the index does not say (an index some other way made). */
  maxPages?: number;
}

/** What the last pass over a site read; undefined for an index of files. */
export function recordedPass(index: DocsIndex): RecordedPass | undefined {
  const root = index.meta("root");
  // An index of files records its folder or file, which may once have been a site.
  if (root === undefined || !/^https?:\/\//i.test(root) || !URL.canParse(root)) return undefined;
  const maxPages = Number(index.meta("max_pages"));
  const patterns = index.meta("patterns");
  return {
    start: new URL(root),
    source: index.meta("source") ?? CRAWLED,
    ...Number.isInteger(maxPages) ? { maxPages } : {},
    ...patterns === undefined ? NO_PATTERNS : JSON.parse(patterns) as UrlPatterns,
  };
}

export class Frontier {
  constructor(private readonly index: DocsIndex, private readonly inScope: (url: URL) => boolean) {}

  /**
   * Marks a pass over `start` as running; one that did not end (interrupted, the site down) is resumed, when
   * it read from the same source with the same patterns.
   */
  begin(start: URL, spec: PassSpec): PassStart {
    const { index } = this;
    const last = recordedPass(index);
    const resumed = index.meta("crawl") === "running" && last?.start.href === start.href &&
      last.source === spec.source && patternsKey(last) === patternsKey(spec);
    // The pages that failed are asked again.
    const begun: PassStart = resumed ? { resumed, retried: index.retryFailed() } : { resumed };
    recordPass(index, start, spec);
    index.setMeta("crawl", "running");
    return begun;
  }

  /** A new pass: nothing read yet, the first pages queued. */
  startOver(pages: readonly URL[]): void {
    this.index.resetCrawl();
    this.add(pages);
  }

  /** Queues pages known to be in scope; pages already known (queued, read or skipped) stay as they are. */
  add(urls: readonly URL[]): void {
    this.index.enqueue(urls.map((url) => url.href));
  }

  /** Queues the in-scope links of the page at `base`. */
  follow(links: readonly string[], base: URL): void {
    this.index.enqueue(linksToFollow(links, base, this.inScope));
  }

  /**
   * What became of a page taken from the queue; `failed` ones are asked for again when the pass resumes.
   * `failure` is the kind of failure when the site failed the page.
   */
  mark(href: string, state: Exclude<CrawlState, "queued">, note?: string, failure?: string): void {
    this.index.markCrawled(href, state, note, failure);
  }

  /**
   * The next pages to read, oldest first, at most `concurrency` and never past `maxPages` read; none when the
   * pass is over, with whether the limit left pages unread.
   */
  next(concurrency: number, maxPages: number): { batch: string[]; limitReached: boolean } {
    const { done, queued } = this.index.crawlCounts();
    const room = maxPages - done;
    if (room <= 0) return { batch: [], limitReached: queued > 0 };
    return { batch: this.index.queued(Math.min(concurrency, room)), limitReached: false };
  }

  /**
   * Whether the pass keeps the document of `href`: it read the page (or found it unchanged), or the site failed
   * it this time and what was read before stays. Documents of pages it has not reached may leave at the end.
   */
  keeps(href: string): boolean {
    const state = this.index.crawlState(href);
    return state === "done" || state === "failed";
  }

  counts(): { done: number; queued: number } {
    const { done, queued } = this.index.crawlCounts();
    return { done, queued };
  }

  /** Nothing was read: not a pass to resume, so the next run starts over (and asks for robots.txt again). */
  unreachable(): void {
    this.index.setMeta("crawl", "unreachable");
  }

  /** The pass is complete: what it did not reach is gone from the site (or now past the page limit). */
  finish(): PassEnd {
    this.index.dropQueue();
    const unreached = this.index.unreachedDocuments();
    for (const source of unreached) this.index.remove(source);
    this.index.settleSummaries();
    const skipped = this.skipped();
    this.index.setMeta("crawl", "complete");
    return { removed: unreached.length, skipped };
  }

  /** The pages skipped or failed so far and why, in the order they were queued. */
  skipped(): PageLeftOut[] {
    return this.index.skippedPages();
  }
}
