/**
 * `index add --include/--exclude`: which of a site's pages an index reads, as URL path patterns written the way
 * robots.txt writes its rules (a path prefix; `*` any characters; a final `$` ends the match). A page is read
 * when it matches some --include (any page, when none is given) and no --exclude. Pure: patterns in, a
 * decision out; patterns are checked where the command line gives them.
 */
import { InvalidInputError } from "../errors.ts";
import { pathPattern } from "./robots.ts";

export interface UrlPatterns {
  include: readonly string[];
  exclude: readonly string[];
}

export const NO_PATTERNS: UrlPatterns = { include: [], exclude: [] };

const HINT = "give a path on the site: /docs/api/ (every page under it), /docs/*/reference/ (* stands for " +
  "any characters), /changelog$ (that page only), or the page's whole URL";

/**
 * A pattern as the user wrote it, checked and made a path: a URL on the site stands for its path and query; a
 * pattern that is neither a path (/…, *…) nor a URL on the site is refused, with how to write one.
 */
export function checkPattern(option: "--include" | "--exclude", pattern: string, site: URL): string {
  const written = pattern.trim();
  if (/^https?:\/\//i.test(written)) {
    let url: URL;
    try {
      url = new URL(written);
    } catch {
      throw new InvalidInputError(`${option} "${pattern}" is not a URL`, HINT);
    }
    if (url.origin !== site.origin) {
      throw new InvalidInputError(`${option} "${pattern}" is not on ${site.origin}`, HINT);
    }
    return url.pathname + url.search;
  }
  if (!written.startsWith("/") && !written.startsWith("*")) {
    throw new InvalidInputError(`${option} "${pattern}" is not a URL path`, HINT);
  }
  return written;
}

/** Whether a page's URL passes the patterns. */
export function patternFilter({ include, exclude }: UrlPatterns): (url: URL) => boolean {
  const included = include.map(pathPattern);
  const excluded = exclude.map(pathPattern);
  return (url) => {
    const path = url.pathname + url.search;
    return (included.length === 0 || included.some((pattern) => pattern.test(path))) &&
      !excluded.some((pattern) => pattern.test(path));
  };
}

/** The patterns, as a line says them: "" when there are none. */
export function describePatterns({ include, exclude }: UrlPatterns): string {
  return [
    ...include.map((pattern) => `--include ${pattern}`),
    ...exclude.map((pattern) => `--exclude ${pattern}`),
  ]
    .join(" ");
}
