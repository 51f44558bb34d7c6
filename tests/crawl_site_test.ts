/**
 * What a site says about crawling it, read within bounds: a robots.txt is read to 500 KiB (RFC 9309's floor),
 * a sitemap no further than a page may be long, whatever size the site sends.
 */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { MAX_FILE_BYTES } from "../lib/docs/sources.ts";
import { readRobots, sitemapPages } from "../lib/docs/crawl_site.ts";

const START = new URL("https://docs.example.com/guide/");

/** A site that answers each path with the text given, and any other with a 404. */
function site(files: Record<string, string>) {
  return (url: URL) =>
    Promise.resolve(
      url.pathname in files
        ? new Response(files[url.pathname], { headers: { "content-type": "text/plain" } })
        : new Response("not here", { status: 404 }),
    );
}

Deno.test("robots.txt: the rules in its first 500 KiB apply, those past them are not read", async () => {
  const padding = `# ${"x".repeat(1000)}\n`.repeat(520);
  const robots = await readRobots(
    START,
    site({ "/robots.txt": `User-agent: *\nDisallow: /private/\n${padding}Disallow: /late/\n` }),
  );
  assertEquals([robots.allowed("/private/a"), robots.allowed("/late/a"), robots.allowed("/guide/")], [
    false,
    true,
    true,
  ]);
});

Deno.test("sitemaps: one larger than a page may be is passed over; the others are read", async () => {
  const entry = (path: string) => `<url><loc>https://docs.example.com${path}</loc></url>`;
  const huge = `<urlset>${entry("/guide/huge")}${" ".repeat(MAX_FILE_BYTES)}</urlset>`;
  const robots = {
    allowed: () => true,
    sitemaps: ["https://docs.example.com/big.xml", "https://docs.example.com/small.xml"],
  };
  const pages = await sitemapPages(
    START,
    robots,
    site({ "/big.xml": huge, "/small.xml": `<urlset>${entry("/guide/a")}</urlset>` }),
  );
  assertEquals(pages.map((page) => page.href), ["https://docs.example.com/guide/a"]);
});
