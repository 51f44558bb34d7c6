/**
 * Which URLs a crawl may read, spelled one way each. Pure: URLs in, decisions out.
 */
import { patternFilter, type UrlPatterns } from "./url_patterns.ts";

const NOT_PAGES =
  /\.(png|jpe?g|gif|svg|webp|avif|ico|bmp|css|js|mjs|map|json|xml|pdf|zip|gz|tgz|bz2|xz|tar|7z|woff2?|ttf|otf|eot|mp[34]|webm|ogg|wasm|exe|dmg|deb|rpm)$/i;

/** The folder a start URL names, ending in "/": its pages are the ones an index of it reads. */
export function scopeFolder(start: URL): string {
  const path = start.pathname;
  // "/docs/v2" names a folder as much as "/docs/v2/" does; "/docs/v2/index.html" names a page in one.
  const lastSegment = path.slice(path.lastIndexOf("/") + 1);
  return path.endsWith("/")
    ? path
    : lastSegment.includes(".")
    ? path.slice(0, path.lastIndexOf("/") + 1)
    : `${path}/`;
}

/** The pages a crawl may read: the start URL's origin, under its folder. */
export function crawlScope(start: URL): (url: URL) => boolean {
  const path = start.pathname;
  const prefix = scopeFolder(start);
  return (url) =>
    url.origin === start.origin && (url.pathname === path || url.pathname.startsWith(prefix)) &&
    !NOT_PAGES.test(url.pathname);
}

/** The pages an index of a site reads, whatever its source: in the start URL's scope, through the patterns. */
export function pagesToRead(start: URL, patterns: UrlPatterns): (url: URL) => boolean {
  const scope = crawlScope(start);
  const wanted = patternFilter(patterns);
  return (url) => scope(url) && wanted(url);
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

/** The links of the page at `base` (as written in it) that the crawl goes on to, as URLs. */
export function linksToFollow(
  links: readonly string[],
  base: URL,
  inScope: (url: URL) => boolean,
): string[] {
  return links.map((link) => pageUrl(link, base)).filter((link) => link !== undefined).filter(inScope)
    .map((link) => link.href);
}
