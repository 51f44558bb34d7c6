/**
 * The progress lines a crawl reports as it goes. Pure: counts in, a line out; the caller says where it goes.
 */

/** A line per this many pages requested: enough to show a long crawl is moving, not one per page. */
const PAGES_PER_LINE = 50;

export interface QueueCounts {
  done: number;
  queued: number;
}

export const sitemapLine = (pages: number, start: URL): string =>
  `sitemap: ${pages} pages under ${start.href}`;

export function resumeLine(start: URL, { done, queued }: QueueCounts, retried: number): string {
  return `resuming the crawl of ${start.href}: ${done} pages read, ${queued} queued` +
    (retried > 0 ? ` (${retried} the site did not answer last time)` : "");
}

/** Whether the batch of `batchSize` requests that brought the total to `fetched` crossed a multiple of 50. */
export const progressDue = (fetched: number, batchSize: number): boolean =>
  fetched > 0 && fetched % PAGES_PER_LINE < batchSize;

export const countsLine = ({ done, queued }: QueueCounts): string => `${done} pages read, ${queued} queued`;
