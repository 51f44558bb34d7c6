/**
 * Pages the site failed to serve: counted by kind, and weighed. A run where too many failed is not a success,
 * even though the index keeps what was read. Pure: the failures in, a line and a verdict out.
 */
import type { PageLeftOut } from "./crawl_frontier.ts";

/** More than this share of the pages asked for failing leaves an index too partial to call the run done. */
export const MAX_FAILED_SHARE = 0.2;

export type FailedPage = Required<PageLeftOut>;

/** The failures by kind, the most common first: "HTTP 404: 6, HTTP 500: 2". */
export function failureCounts(failed: readonly FailedPage[]): string {
  const counts = new Map<string, number>();
  for (const page of failed) counts.set(page.failure, (counts.get(page.failure) ?? 0) + 1);
  return [...counts].sort(([a, m], [b, n]) => n - m || (a < b ? -1 : 1))
    .map(([kind, n]) => `${kind}: ${n}`).join(", ");
}

/**
 * Whether a run failed: more than MAX_FAILED_SHARE of the pages it asked for (those it read and those that
 * failed) failed, or the page it started from did (`start`, when it had one).
 */
export function tooManyFailed(read: number, failed: readonly FailedPage[], start?: string): boolean {
  if (start !== undefined && failed.some((page) => page.url === start)) return true;
  return failed.length > MAX_FAILED_SHARE * (read + failed.length);
}
