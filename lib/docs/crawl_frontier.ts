/**
 * The crawl's queue and where a pass stands, kept in the index file: an interrupted pass is picked up where
 * it stopped, and a pass that ends tells which documents it no longer reached.
 */
import { linksToFollow } from "./crawl_scope.ts";
import type { CrawlState, DocsIndex } from "./store.ts";

/** How a pass begins: over again, or finishing one that did not end (with `retried` failed pages queued again). */
export type PassStart = { resumed: false } | { resumed: true; retried: number };

/** What a finished pass leaves out. */
export interface PassEnd {
  removed: number;
  skipped: { url: string; note: string }[];
}

export class Frontier {
  constructor(private readonly index: DocsIndex, private readonly inScope: (url: URL) => boolean) {}

  /** Marks a pass over `start` as running; one that did not end (interrupted, the site down) is resumed. */
  begin(start: URL, maxPages: number): PassStart {
    const resumed = this.index.meta("root") === start.href && this.index.meta("crawl") === "running";
    // The pages that failed are asked again.
    const begun: PassStart = resumed ? { resumed, retried: this.index.retryFailed() } : { resumed };
    this.index.setMeta("root", start.href);
    this.index.setMeta("crawl", "running");
    // A refresh crawls as far as the add that made the index did, unless told otherwise.
    this.index.setMeta("max_pages", String(maxPages));
    return begun;
  }

  /** A new pass: nothing read yet, the start page queued. */
  startOver(start: URL): void {
    this.index.resetCrawl();
    this.add([start]);
  }

  /** Queues pages known to be in scope; pages already known (queued, read or skipped) stay as they are. */
  add(urls: readonly URL[]): void {
    this.index.enqueue(urls.map((url) => url.href));
  }

  /** Queues the in-scope links of the page at `base`. */
  follow(links: readonly string[], base: URL): void {
    this.index.enqueue(linksToFollow(links, base, this.inScope));
  }

  /** What became of a page taken from the queue; `failed` ones are asked for again when the pass resumes. */
  mark(href: string, state: Exclude<CrawlState, "queued">, note?: string): void {
    this.index.markCrawled(href, state, note);
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
  skipped(): { url: string; note: string }[] {
    return this.index.skippedPages();
  }
}
