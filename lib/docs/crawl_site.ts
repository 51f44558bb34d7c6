/**
 * What a site says about crawling it: its robots.txt, and the pages its sitemaps list.
 */
import { DomUtils, parseDocument } from "htmlparser2";
import { readHead } from "../bytes.ts";
import { readCapped, type Request } from "./crawl_fetch.ts";
import { pageUrl } from "./crawl_scope.ts";
import { ALLOW_ALL, parseRobots, type Robots } from "./robots.ts";

const MAX_SITEMAPS = 20;
/** RFC 9309: a crawler reads at least 500 KiB of a robots.txt; what lies past that may be left unread. */
const MAX_ROBOTS_BYTES = 500 * 1024;

export async function readRobots(start: URL, request: Request): Promise<Robots> {
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
    return parseRobots(new TextDecoder().decode(await readHead(response.body ?? [], MAX_ROBOTS_BYTES)));
  } catch {
    // Cut off mid-file: as if there were none, like a robots.txt the site does not answer at all.
    return ALLOW_ALL;
  }
}

/** Page URLs listed by the site's sitemaps (robots.txt's, else /sitemap.xml), following sitemap indexes. */
export async function sitemapPages(start: URL, robots: Robots, request: Request): Promise<URL[]> {
  // A copy: the sitemap indexes read add to it.
  const queue = robots.sitemaps.length > 0 ? [...robots.sitemaps] : [new URL("/sitemap.xml", start).href];
  const pages: URL[] = [];
  for (let read = 0; read < queue.length && read < MAX_SITEMAPS; read++) {
    const url = pageUrl(queue[read], start);
    if (url === undefined || url.origin !== start.origin) continue;
    const xml = await readSitemap(url, request);
    if (xml === undefined) continue;
    const listed = sitemapLocs(xml);
    queue.push(...listed.sitemaps);
    for (const loc of listed.pages) {
      const page = pageUrl(loc, url);
      if (page !== undefined) pages.push(page);
    }
  }
  return pages;
}

/** A sitemap's text; undefined when the site has none there or it could not be read (it is optional). */
async function readSitemap(url: URL, request: Request): Promise<string | undefined> {
  try {
    const response = await request(url);
    if (!response.ok) {
      await response.body?.cancel();
      return undefined;
    }
    // Bounded like a page: a sitemap larger than a page may be is passed over, as one that cannot be read.
    const bytes = await readCapped(response);
    return bytes && new TextDecoder().decode(bytes);
  } catch {
    return undefined;
  }
}

/** The <loc>s of a sitemap: of further sitemaps (a sitemap index) and of pages (a urlset). */
export function sitemapLocs(xml: string): { sitemaps: string[]; pages: string[] } {
  const document = parseDocument(xml, { xmlMode: true });
  const locs = (name: string) =>
    DomUtils.findAll((element) => element.name === name, document.children)
      .flatMap((element) => DomUtils.getElementsByTagName("loc", element, true, 1))
      .map((loc) => DomUtils.textContent(loc).trim());
  return { sitemaps: locs("sitemap"), pages: locs("url") };
}
