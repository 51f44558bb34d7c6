/**
 * Docs sites as pure parts: HTML to text, charsets, robots.txt, crawl scope, the config entry `index add`
 * writes, and `crawl()` itself driven with a fake `fetch` (no network, no waiting) against an index in a temp
 * folder.
 */
import { deepStrictEqual as assertEquals, match, ok, rejects, throws } from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { InvalidInputError, messageOf } from "../lib/errors.ts";
import { withIndexEntry, withoutIndexEntry } from "../lib/docs/config_entry.ts";
import {
  crawl,
  CrawlInterruptedError,
  type CrawlOptions,
  type CrawlReport,
  crawlScope,
  DEFAULT_CRAWL,
  FailureStreak,
  pageUrl,
  SiteUnreachableError,
} from "../lib/docs/crawl.ts";
import { failureCounts, MAX_FAILED_SHARE, tooManyFailed } from "../lib/docs/crawl_failures.ts";
import { conditional, NotAskedError, requester } from "../lib/docs/crawl_fetch.ts";
import { Frontier } from "../lib/docs/crawl_frontier.ts";
import { RefusedUrlError } from "../lib/project/net_policy.ts";
import { readPage, responseAction } from "../lib/docs/crawl_page.ts";
import { countsLine, progressDue, resumeLine, sitemapLine } from "../lib/docs/crawl_progress.ts";
import { linksToFollow } from "../lib/docs/crawl_scope.ts";
import { sitemapLocs } from "../lib/docs/crawl_site.ts";
import { decodeHtml, readHtml } from "../lib/docs/html.ts";
import { quoted } from "../lib/docs/query.ts";
import { parseRobots, pathPattern } from "../lib/docs/robots.ts";
import { chunkDocument, MAX_FILE_BYTES } from "../lib/docs/sources.ts";
import {
  MAX_LLMS_FULL_BYTES,
  readSite,
  type SiteReport,
  type SiteSource,
  type SourceChoice,
} from "../lib/docs/site.ts";
import { DocsIndex } from "../lib/docs/store.ts";
import { checkPattern, describePatterns, NO_PATTERNS, patternFilter } from "../lib/docs/url_patterns.ts";

// ---------------------------------------------------------------------------------------------------------
// readHtml

Deno.test("readHtml: the title loses a trailing site name after |, —, – or ·", () => {
  const title = (text: string) =>
    readHtml(`<html><head><title>${text}</title></head><body></body></html>`).title;
  assertEquals(title("CREATE INDEX | PostgreSQL 17"), "CREATE INDEX");
  assertEquals(title("Runners — GitLab Docs"), "Runners");
  assertEquals(title("Runners – GitLab"), "Runners");
  assertEquals(title("Cache · Site"), "Cache");
  // Only the last part is the site's name.
  assertEquals(title("A | B | Site"), "A | B");
  assertEquals(title("  Plain\n  title  "), "Plain title");
  // A separator without spaces is part of the name.
  assertEquals(title("either|or"), "either|or");
  assertEquals(title("   "), undefined);
  assertEquals(readHtml("<p>No title</p>").title, undefined);
});

Deno.test("readHtml: nav, aside, header, footer, role=navigation and sidebar/toc classes are left out", () => {
  const page = readHtml(`<html><head><title>T</title></head><body>
    <header class="top">Site banner</header>
    <nav><a href="/docs/">Home</a> <a href="/docs/guide.html">Guide</a></nav>
    <div role="navigation">Role navigation</div>
    <div class="wrapper sidebar">Sidebar text</div>
    <div id="toc">Table of contents</div>
    <aside>Aside text</aside>
    <div hidden>Hidden text</div>
    <span aria-hidden="true">Aria hidden</span>
    <p>First paragraph.</p>
    <div><p>Second paragraph.</p></div>
    <footer>Copyright footer</footer>
  </body></html>`);
  assertEquals(page.text, "First paragraph.\n\nSecond paragraph.");
  // The links in the furniture are still links: the crawler follows navigation.
  assertEquals(page.links, ["/docs/", "/docs/guide.html"]);
});

Deno.test("readHtml: main (or role=main, else article) is the content; an article's own header and footer stay", () => {
  const withMain = readHtml(`<body>
    <div class="banner">Outside main</div>
    <main>
      <article>
        <header><p>Article header</p></header>
        <nav>Nav inside main</nav>
        <p>Body text.</p>
        <footer>Article footnote</footer>
      </article>
    </main>
    <p>After main</p>
  </body>`);
  assertEquals(withMain.text, "Article header\n\nBody text.\n\nArticle footnote");

  const roleMain = readHtml(`<body><div>Outside</div><div role="main"><p>Inside role main.</p></div></body>`);
  assertEquals(roleMain.text, "Inside role main.");

  const article = readHtml(`<body><div>Outside</div><article><header><h1>Title</h1></header>
    <p>Article text.</p></article><div>Also outside</div></body>`);
  assertEquals(article.text, "# Title\n\nArticle text.");
});

Deno.test("readHtml: headings become # lines, pre becomes fenced code with its indentation, tables and lists", () => {
  const page = readHtml(`<main>
    <h1>Install</h1>
    <p>Intro   with
       spaces.</p>
    <h2>From <code>source</code></h2>
    <h3>Linux</h3>
    <pre><code class="language-python">def main():
    if True:
        return 1
</code></pre>
    <h6>Deep</h6>
    <table>
      <tr><th>Name</th><th>Default</th></tr>
      <tr><td>port</td><td>80</td></tr>
    </table>
    <ul><li>one</li><li>two</li></ul>
    <p>line<br>break</p>
  </main>`);
  assertEquals(
    page.text,
    [
      "# Install",
      "",
      "Intro with spaces.",
      "",
      "## From source",
      "",
      "### Linux",
      "",
      "```",
      "def main():",
      "    if True:",
      "        return 1",
      "```",
      "",
      "###### Deep",
      "",
      "| Name | Default",
      "",
      "| port | 80",
      "",
      "- one",
      "",
      "- two",
      "",
      "line",
      "break",
    ].join("\n"),
  );
});

Deno.test("readHtml: a pre loses its leading newlines and trailing space; 2 MB of spaces in one is linear", () => {
  assertEquals(readHtml("<pre>\n\n  indented\n  code \n\t</pre>").text, "```\n  indented\n  code\n```");
  // As .replace(/^\n+|\s+$/g, "") this took minutes (1.1 s at 40,000 spaces, quadratic); a test run of the old
  // code hangs here, which counts as failing. No duration is asserted.
  const spaces = " ".repeat(2_000_000);
  assertEquals(readHtml(`<pre>x${spaces}y${spaces}</pre>`).text, `\`\`\`\nx${spaces}y\n\`\`\``);
});

Deno.test("readHtml: a code line starting with a fence cannot close the block early", () => {
  const page = readHtml("<pre>before\n```\nafter</pre><p>Text.</p>");
  assertEquals(page.text, "```\nbefore\n ```\nafter\n```\n\nText.");
});

Deno.test("readHtml: entities decoded, script/style/noscript/template/forms dropped, links as written", () => {
  const page = readHtml(
    `<html><head><title>Q &amp; A | Site</title><style>p { color: red }</style></head><body>
    <script>var secret = "script text";</script>
    <noscript>Enable JavaScript</noscript>
    <template><p>Template text</p></template>
    <form><input value="x"><button>Send</button></form>
    <p>Use &lt;div&gt; &amp; &quot;quotes&quot; &copy; &#233;t&#xE9; &nbsp;end</p>
    <p><a href="b.html#part">B</a> <a href="https://other.test/x">X</a> <a>no href</a> <a href="">empty</a></p>
  </body></html>`,
  );
  assertEquals(page.title, "Q & A");
  // A no-break space is white space too.
  assertEquals(page.text, 'Use <div> & "quotes" © été end\n\nB X no href empty');
  assertEquals(page.links, ["b.html#part", "https://other.test/x", ""]);
});

Deno.test("readHtml: a heading's permalink (Sphinx's headerlink ¶) is not part of the heading", () => {
  // BUG: the heading text is DomUtils.textContent(heading), which keeps furniture inside it.
  const page = readHtml(
    `<main><h2>Install<a class="headerlink" href="#install" title="Link">¶</a></h2><p>Text.</p></main>`,
  );
  assertEquals(page.text, "## Install\n\nText.");
});

Deno.test("readHtml: a <title> without a <head> (optional in HTML5) is not body text", () => {
  // BUG: htmlparser2 does not invent the omitted <head>, and "title" is not a skipped tag.
  const page = readHtml("<!doctype html><title>Guide | Site</title><h1>Guide</h1><p>Body.</p>");
  assertEquals(page.title, "Guide");
  assertEquals(page.text, "# Guide\n\nBody.");
});

// ---------------------------------------------------------------------------------------------------------
// decodeHtml

const latin1 = (text: string) => Uint8Array.from(text, (char) => char.charCodeAt(0));

Deno.test("decodeHtml: the charset of the Content-Type header, else of <meta>, else UTF-8", () => {
  const cafe = latin1("<p>caf\xe9 cr\xe8me</p>");
  assertEquals(decodeHtml(cafe, "text/html; charset=ISO-8859-1"), "<p>café crème</p>");
  assertEquals(decodeHtml(cafe, 'text/html; charset="iso-8859-1"'), "<p>café crème</p>");
  assertEquals(decodeHtml(latin1("\x80"), "text/html;charset=windows-1252"), "€");

  const metaCharset = latin1('<html><head><meta charset="iso-8859-1"></head><p>caf\xe9</p>');
  ok(decodeHtml(metaCharset, "text/html").endsWith("<p>café</p>"));
  ok(decodeHtml(metaCharset).endsWith("<p>café</p>"));
  const httpEquiv = latin1(
    '<meta http-equiv="Content-Type" content="text/html; charset=ISO-8859-1"><p>caf\xe9</p>',
  );
  ok(decodeHtml(httpEquiv, null).endsWith("<p>café</p>"));

  // The header wins over the page's own <meta>.
  const utf8 = new TextEncoder().encode('<meta charset="iso-8859-1"><p>café</p>');
  ok(decodeHtml(utf8, "text/html; charset=utf-8").endsWith("<p>café</p>"));
  // No charset anywhere: UTF-8.
  assertEquals(decodeHtml(new TextEncoder().encode("<p>café</p>"), "text/html"), "<p>café</p>");
});

Deno.test("decodeHtml: an unknown charset reads as UTF-8; bad bytes become U+FFFD, never an error", () => {
  const utf8 = new TextEncoder().encode("<p>café</p>");
  assertEquals(decodeHtml(utf8, "text/html; charset=x-no-such-charset"), "<p>café</p>");
  assertEquals(
    decodeHtml(new TextEncoder().encode('<meta charset="bogus"><p>café</p>')),
    '<meta charset="bogus"><p>café</p>',
  );
  assertEquals(decodeHtml(latin1("caf\xe9"), "text/html; charset=utf-8"), "caf\ufffd");
});

// ---------------------------------------------------------------------------------------------------------
// chunkDocument for HTML

Deno.test("chunkDocument(html): trail from h2/h3, the title not repeated as the first heading", () => {
  const html = `<html><head><title>CREATE INDEX | PostgreSQL</title></head><body>
    <nav>Home Previous Next</nav>
    <main>
      <h2>CREATE INDEX</h2><p>Intro about indexes.</p>
      <h3>Synopsis</h3><p>CREATE INDEX name ON table.</p>
      <h3>Parameters</h3><h4>CONCURRENTLY</h4><p>Build without locking.</p>
      <h2>Examples</h2><p>Some examples.</p>
    </main></body></html>`;
  const read = chunkDocument(new TextEncoder().encode(html), "html", "sql-createindex.html");
  if ("skipped" in read) throw new Error(read.skipped);
  assertEquals(read.title, "CREATE INDEX");
  assertEquals(read.chunks.map((chunk) => [chunk.title, chunk.trail, chunk.text]), [
    ["CREATE INDEX", [], "Intro about indexes."],
    ["CREATE INDEX", ["Synopsis"], "CREATE INDEX name ON table."],
    ["CREATE INDEX", ["Parameters", "CONCURRENTLY"], "Build without locking."],
    ["CREATE INDEX", ["Examples"], "Some examples."],
  ]);

  // An h1 titles the page; no <title>: the name given does.
  const h1 = chunkDocument(
    new TextEncoder().encode("<main><h1>Runners</h1><h2>Register</h2><p>Run register.</p></main>"),
    "html",
    "runners.html",
  );
  if ("skipped" in h1) throw new Error(h1.skipped);
  assertEquals(h1.chunks.map((chunk) => [chunk.title, chunk.trail]), [["Runners", ["Register"]]]);
  const untitled = chunkDocument(new TextEncoder().encode("<p>Just text.</p>"), "html", "page.html");
  if ("skipped" in untitled) throw new Error(untitled.skipped);
  assertEquals(untitled.title, "page.html");
  // A NUL byte means binary, whatever the type says.
  assertEquals(chunkDocument(new Uint8Array([60, 112, 62, 0, 1]), "html", "x.html"), { skipped: "binary" });
});

// ---------------------------------------------------------------------------------------------------------
// parseRobots

/** RFC 9309, section 5.1. */
const RFC_SIMPLE = `User-Agent: *
Disallow: *.gif$
Disallow: /example/
Allow: /publications/

User-Agent: foobot
Disallow:/
Allow:/example/page.html
Allow:/example/allowed.gif

User-Agent: barbot
User-Agent: bazbot
Disallow: /example/page.html

User-Agent: quxbot

EOF
`;

Deno.test("parseRobots: RFC 9309's simple example, for each of its agents", () => {
  const star = parseRobots(RFC_SIMPLE, "otherbot");
  assertEquals(
    ["/", "/x.gif", "/a/b.gif", "/x.gif?v=1", "/example/", "/example/page.html", "/publications/a"]
      .map((path) => star.allowed(path)),
    [true, false, false, true, false, false, true],
  );
  // Longest match: Allow /publications/ (14 octets) beats Disallow *.gif$ (6).
  assertEquals(star.allowed("/publications/x.gif"), true);

  const foobot = parseRobots(RFC_SIMPLE, "foobot");
  assertEquals(
    ["/", "/other.html", "/example/page.html", "/example/allowed.gif", "/example/other.gif"]
      .map((path) => foobot.allowed(path)),
    [false, false, true, true, false],
  );

  // Grouped user-agent lines share the rules; the * group does not apply to them.
  for (const agent of ["barbot", "bazbot", "BarBot"]) {
    const robots = parseRobots(RFC_SIMPLE, agent.toLowerCase());
    assertEquals(
      ["/example/page.html", "/example/other.html", "/x.gif"].map((path) => robots.allowed(path)),
      [false, true, true],
      agent,
    );
  }
  // A group with no rules allows everything; it still replaces the * group.
  const quxbot = parseRobots(RFC_SIMPLE, "quxbot");
  assertEquals(["/example/page.html", "/x.gif"].map((path) => quxbot.allowed(path)), [true, true]);
});

Deno.test("parseRobots: RFC 9309's longest-match example; Allow wins a tie, whatever the order", () => {
  const robots = parseRobots(
    "User-Agent: foobot\nAllow: /example/page/\nDisallow: /example/page/disallowed.gif\n",
    "foobot",
  );
  assertEquals(robots.allowed("/example/page/"), true);
  assertEquals(robots.allowed("/example/page/other.html"), true);
  assertEquals(robots.allowed("/example/page/disallowed.gif"), false);

  for (
    const text of ["User-agent: *\nAllow: /p\nDisallow: /p\n", "User-agent: *\nDisallow: /p\nAllow: /p\n"]
  ) {
    assertEquals(parseRobots(text).allowed("/page"), true, text);
  }
  // Equal length but different rules: the one that matches counts.
  assertEquals(parseRobots("User-agent: *\nAllow: /a\nDisallow: /b\n").allowed("/b"), false);
  // No rules, or an empty Disallow: everything is allowed.
  assertEquals(parseRobots("").allowed("/x"), true);
  assertEquals(parseRobots("User-agent: *\nDisallow:\n").allowed("/x"), true);
});

Deno.test("parseRobots: * matches any run of characters, a final $ anchors, other characters are literal", () => {
  const robots = parseRobots(
    "User-agent: *\nDisallow: /*/private\nDisallow: /exact$\nDisallow: /a.b?c=(1)\nAllow: /*/private/ok$\n",
  );
  assertEquals(robots.allowed("/docs/private"), false);
  assertEquals(robots.allowed("/x/y/private/z"), false);
  assertEquals(robots.allowed("/private"), true);
  assertEquals(robots.allowed("/docs/private/ok"), true);
  assertEquals(robots.allowed("/docs/private/ok/more"), false);
  assertEquals(robots.allowed("/exact"), false);
  assertEquals(robots.allowed("/exact/more"), true);
  assertEquals(robots.allowed("/exactly"), true);
  // "." and "?" and parentheses are not regular-expression syntax.
  assertEquals(robots.allowed("/a.b?c=(1)&d"), false);
  assertEquals(robots.allowed("/aXb?c=(1)"), true);
  // Rules match from the start of the path.
  assertEquals(parseRobots("User-agent: *\nDisallow: /secret\n").allowed("/docs/secret"), true);
});

Deno.test("pathPattern: runs of *, pieces that must come in order, and $ after a * at the end", () => {
  const cases: [string, string, boolean][] = [
    ["/a**b", "/axxb", true],
    ["/a*b*c", "/acb", false],
    ["/a*b*c", "/abxc", true],
    ["/a*b*c", "/abcbc", true],
    ["/a*bb*b$", "/abb", false],
    ["/a*bb*b$", "/abbb", true],
    ["/a*bb*b$", "/abbxb", true],
    ["/a*b$", "/ab", true],
    ["/a*b$", "/abab", true],
    ["/a*b$", "/aba", false],
    ["/a*ab$", "/ab", false],
    ["/a*b*$", "/abc", true],
    ["/a*$", "/a", true],
    ["*.gif$", ".gif", true],
    ["*", "", true],
    ["$", "", true],
    ["$", "/", false],
    ["/a$b", "/a$bc", true],
    ["/a$b", "/ab", false],
    ["/caf\u00e9", "/caf%C3%A9/x", true],
  ];
  for (const [rule, path, expected] of cases) {
    assertEquals(pathPattern(rule).test(path), expected, `${rule} ${path}`);
  }
});

Deno.test("parseRobots: a rule of many *s against a long path answers, in linear time", () => {
  // As a regular expression (^/.*a.*a…x), this rule took minutes on a path of 60 "a"s, exponential in the
  // number of *s; a test run of the old code hangs here, which counts as failing. No duration is asserted.
  const robots = parseRobots(`User-agent: *\nDisallow: /${"*a".repeat(12)}*x\n`);
  assertEquals(robots.allowed(`/${"a".repeat(100_000)}`), true);
  assertEquals(robots.allowed(`/${"a".repeat(100_000)}x`), false);
  assertEquals(robots.allowed(`/${"a".repeat(11)}x`), true);
  assertEquals(robots.allowed(`/${"ba".repeat(12)}x`), false);
});

Deno.test("parseRobots: our agent's group (case-insensitive) wins over *, and our groups are combined", () => {
  const text = `User-agent: *
Disallow: /

User-agent: DocSearch-Hook
Disallow: /private/

User-agent: otherbot
Disallow: /docs/

user-agent: docsearch-hook
disallow: /drafts/
`;
  const robots = parseRobots(text);
  assertEquals(
    ["/", "/docs/a.html", "/private/a", "/drafts/b"].map((path) => robots.allowed(path)),
    [true, true, false, false],
  );
  // Without a group of ours, the * group.
  assertEquals(
    parseRobots("User-agent: *\nDisallow: /\n\nUser-agent: otherbot\nAllow: /\n").allowed("/a"),
    false,
  );
});

Deno.test("parseRobots: a group for another agent whose name starts like ours is not ours", () => {
  // BUG: groups are matched with agent.startsWith(name); RFC 9309 §2.2.1 matches the product token
  // ("docsearch-hook") case-insensitively, so "docs" or an empty User-agent value is someone else's group.
  for (const name of ["docs", "d", ""]) {
    const robots = parseRobots(`User-agent: ${name}\nDisallow: /\n\nUser-agent: *\nAllow: /\n`);
    assertEquals(robots.allowed("/docs/a.html"), true, `User-agent: ${name}`);
  }
});

Deno.test("parseRobots: Crawl-delay of the chosen group, Sitemap lines anywhere, comments and CRLF", () => {
  const text = [
    "# robots.txt for example.org",
    "User-agent: * # everyone",
    "Disallow: /tmp/ # scratch",
    "Crawl-delay: 2",
    "Sitemap: https://example.org/sitemap.xml",
    "",
    "User-agent: slowbot",
    "Crawl-delay: 60",
    "# Disallow: /commented/",
    "SITEMAP: https://example.org/other-sitemap.xml",
    "Crawl-delay: soon",
  ].join("\r\n");
  const robots = parseRobots(text);
  assertEquals(robots.crawlDelay, 2);
  assertEquals(robots.sitemaps, ["https://example.org/sitemap.xml", "https://example.org/other-sitemap.xml"]);
  assertEquals(robots.allowed("/tmp/x"), false);
  assertEquals(robots.allowed("/commented/x"), true);
  assertEquals(parseRobots(text, "slowbot").crawlDelay, 60);
  assertEquals(parseRobots("User-agent: *\nDisallow: /a\n").crawlDelay, undefined);
  // Rules before any User-agent line belong to no group.
  assertEquals(parseRobots("Disallow: /\nUser-agent: *\nDisallow: /x\n").allowed("/a"), true);
});

Deno.test("parseRobots: paths are compared percent-encoded (RFC 9309 §2.2.2's example)", () => {
  // BUG: rules are compiled as written, so a rule with a UTF-8 path never matches the crawler's
  // percent-encoded URL path (crawl.ts passes url.pathname + url.search).
  const robots = parseRobots("User-agent: *\nDisallow: /foo/bar/ツ\n");
  assertEquals(robots.allowed("/foo/bar/%E3%83%84"), false);
  assertEquals(
    parseRobots("User-agent: *\nDisallow: /foo/bar/%E3%83%84\n").allowed("/foo/bar/%E3%83%84"),
    false,
  );
});

// ---------------------------------------------------------------------------------------------------------
// crawlScope, pageUrl and linksToFollow

Deno.test("crawlScope: the start URL's origin, under its folder; not images, styles, scripts or archives", () => {
  const scope = crawlScope(new URL("http://docs.test/docs/"));
  const inScope = (href: string) => scope(new URL(href));
  assertEquals(
    [
      "http://docs.test/docs/",
      "http://docs.test/docs/guide/install.html",
      "http://docs.test/docs/a.html?x=1",
      "http://docs.test/docs/notes.md",
      "http://docs.test/docs",
      "http://docs.test/docsearch/a.html",
      "http://docs.test/blog/a.html",
      "https://docs.test/docs/a.html",
      "http://docs.test:8080/docs/a.html",
      "http://other.test/docs/a.html",
      "http://docs.test/docs/logo.PNG",
      "http://docs.test/docs/style.css",
      "http://docs.test/docs/app.js",
      "http://docs.test/docs/manual.pdf",
      "http://docs.test/docs/sitemap.xml",
      "http://docs.test/docs/site.tar.gz",
    ].map(inScope),
    [
      true,
      true,
      true,
      true,
      false,
      false,
      false,
      false,
      false,
      false,
      false,
      false,
      false,
      false,
      false,
      false,
    ],
  );

  // A start page's folder is the scope; the page itself is in it.
  const page = crawlScope(new URL("http://docs.test/docs/intro.html"));
  assertEquals(
    ["/docs/intro.html", "/docs/other.html", "/docs/sub/x.html", "/other.html", "/"]
      .map((path) => page(new URL(path, "http://docs.test"))),
    [true, true, true, false, false],
  );
  // A start URL without a trailing slash or an extension names a folder all the same: not the whole host.
  const bare = crawlScope(new URL("http://docs.test/manual"));
  assertEquals(
    ["/manual", "/manual/a.html", "/other.html", "/manualx/a.html"]
      .map((path) => bare(new URL(path, "http://docs.test"))),
    [true, true, false, false],
  );
  const root = crawlScope(new URL("http://docs.test/"));
  ok(root(new URL("http://docs.test/anything/at/all.html")));
});

Deno.test("pageUrl: resolved against the page, no fragment, http(s) only, junk ignored", () => {
  const base = new URL("http://docs.test/docs/guide/index.html");
  const href = (link: string) => pageUrl(link, base)?.href;
  assertEquals(href("install.html#linux"), "http://docs.test/docs/guide/install.html");
  assertEquals(href("../api.html"), "http://docs.test/docs/api.html");
  assertEquals(href("/docs/a.html?b=1#c"), "http://docs.test/docs/a.html?b=1");
  assertEquals(href("#top"), "http://docs.test/docs/guide/index.html");
  assertEquals(href("//other.test/x"), "http://other.test/x");
  assertEquals(href("HTTPS://Docs.Test/x"), "https://docs.test/x");
  assertEquals(href("mailto:docs@docs.test"), undefined);
  assertEquals(href("javascript:void(0)"), undefined);
  assertEquals(href("ftp://docs.test/file"), undefined);
  assertEquals(href("http://[not-a-host/"), undefined);
});

Deno.test("linksToFollow: a page's links resolved against it, in scope, without fragments", () => {
  const base = new URL("http://docs.test/docs/guide/index.html");
  assertEquals(
    linksToFollow(
      [
        "install.html#linux",
        "../api.html",
        "/blog/post.html",
        "logo.png",
        "mailto:x@docs.test",
        "http://[x/",
        "",
      ],
      base,
      crawlScope(START),
    ),
    ["http://docs.test/docs/guide/install.html", "http://docs.test/docs/api.html", base.href],
  );
});

// ---------------------------------------------------------------------------------------------------------
// The parts of a crawl: requests, answers, pages, the queue, progress

Deno.test("requester: 429 and 5xx retried after each delay, the last answer kept; errors thrown after the last try", async () => {
  const sleeps: number[] = [];
  const sleep = (ms: number) => {
    sleeps.push(ms);
    return Promise.resolve();
  };
  const policy = { timeoutMs: 1000, retryDelaysMs: [7, 11] };
  const statuses = [503, 429, 502];
  const busy = requester(
    () => Promise.resolve(new Response(null, { status: statuses.shift() })),
    sleep,
    policy,
  );
  assertEquals((await busy(START)).status, 502);
  assertEquals(sleeps, [7, 11]);

  sleeps.length = 0;
  let tries = 0;
  const refused = requester(() => Promise.reject(new TypeError(`refused ${++tries}`)), sleep, policy);
  await rejects(refused(START), /^TypeError: refused 3$/);
  assertEquals(sleeps, [7, 11]);

  // A 404 or a redirect is an answer: not asked again.
  sleeps.length = 0;
  const gone = requester(() => Promise.resolve(new Response(null, { status: 404 })), sleep, policy);
  assertEquals((await gone(START)).status, 404);
  assertEquals(sleeps, []);

  // A name that does not resolve, as Deno's fetch says it, and a request declined before it was made: tried
  // once, and said by their cause.
  /** A requester whose every try fails as Deno's fetch does, for `why`. */
  const failing = (why: string) => {
    tries = 0;
    return requester(
      () => {
        tries++;
        return Promise.reject(new TypeError("fetch failed", { cause: new Error(why) }));
      },
      sleep,
      policy,
    );
  };
  const error = await failing(
    `error sending request for url (${START.href}): client error (Connect): dns error: failed to lookup ` +
      "address information: Name or service not known",
  )(START).catch((error) => error);
  assertEquals(
    [tries, sleeps, messageOf(error)],
    [1, [], "dns error: failed to lookup address information: Name or service not known"],
  );
  // The same with a URL that holds ")" (Wikipedia's style of path): its cause is said, and it is not retried.
  const parenthesised = new URL("http://docs.test/wiki/Foo_(bar)");
  const inParens = await failing(
    `error sending request for url (${parenthesised.href}): client error (Connect): dns error: failed to ` +
      "lookup address information: Name or service not known",
  )(parenthesised).catch((error) => error);
  assertEquals(
    [tries, sleeps, messageOf(inParens)],
    [1, [], "dns error: failed to lookup address information: Name or service not known"],
  );
  // A resolver that failed for now is asked again.
  await rejects(failing("client error (Connect): dns error: Temporary failure in name resolution")(START));
  assertEquals([tries, sleeps], [3, [7, 11]]);
  sleeps.length = 0;
  tries = 0;
  const declined = requester(
    () => Promise.reject(new NotAskedError(`not fetched: ${++tries}`)),
    sleep,
    policy,
  );
  await rejects(declined(START), /^Error: not fetched: 1$/);
  assertEquals(sleeps, []);
});

Deno.test("conditional: an ETag asks If-None-Match, anything else If-Modified-Since, nothing read before nothing", () => {
  assertEquals(conditional('"abc"'), { "if-none-match": '"abc"' });
  assertEquals(conditional('W/"abc"'), { "if-none-match": 'W/"abc"' });
  assertEquals(conditional("Wed, 21 Oct 2015 07:28:00 GMT"), {
    "if-modified-since": "Wed, 21 Oct 2015 07:28:00 GMT",
  });
  assertEquals(conditional(undefined), {});
});

Deno.test("responseAction: what each answer means for the page asked for", () => {
  const url = new URL(`${ORIGIN}/docs/page`);
  const action = (status: number, headers: Record<string, string> = {}, at = url) =>
    responseAction({ status, headers: new Headers(headers) }, at, crawlScope(START), 3);
  assertEquals(action(503), { do: "fail", why: "HTTP 503", note: "HTTP 503, after 3 tries" });
  assertEquals(action(429).do, "fail");
  assertEquals(action(304), { do: "unchanged" });
  assertEquals(action(301, { location: "new.html#x" }), {
    do: "redirect",
    target: new URL(`${ORIGIN}/docs/new.html`),
  });
  assertEquals(action(302, { location: "/blog/" }), {
    do: "skip",
    note: `redirects out of scope to ${ORIGIN}/blog/`,
  });
  assertEquals(action(307, { location: "http://elsewhere.test/docs/page" }), {
    do: "skip",
    note: "redirects off-site to http://elsewhere.test/docs/page",
  });
  assertEquals(action(308, { location: "mailto:x@docs.test" }), {
    do: "skip",
    note: "redirects off-site to nowhere",
  });
  // The site answered: the page failed, not the site; not "fail", which counts toward "the site is down".
  assertEquals(action(404), { do: "missing", why: "HTTP 404" });
  assertEquals(action(403), { do: "missing", why: "HTTP 403" });
  assertEquals(action(200, { "content-type": "text/html; charset=utf-8" }), { do: "read", kind: "html" });
  assertEquals(action(200, { "content-type": "application/xhtml+xml" }), { do: "read", kind: "html" });
  assertEquals(action(200, { "content-type": "text/markdown" }), { do: "read", kind: "markdown" });
  // A Markdown file served as text/plain (or untyped) is still Markdown.
  assertEquals(action(200, { "content-type": "text/plain" }, new URL(`${ORIGIN}/docs/a.md`)), {
    do: "read",
    kind: "markdown",
  });
  assertEquals(action(200, {}, new URL(`${ORIGIN}/docs/a.mdx`)), { do: "read", kind: "markdown" });
  assertEquals(action(200, { "content-type": "text/plain" }), { do: "read", kind: "text" });
  assertEquals(action(200, { "content-type": "image/png" }), { do: "skip", note: "not a page (image/png)" });
  assertEquals(action(200), { do: "skip", note: "not a page (no type)" });
});

Deno.test("readPage: chunks, links and a stamp of the body's hash and the validator; the URL names an untitled page", () => {
  const body = new TextEncoder().encode('<p>Text. <a href="b.html">B</a></p>');
  const page = readPage(
    body,
    "html",
    new URL(`${ORIGIN}/docs/caf%C3%A9%20menu.html`),
    new Headers({ etag: '"v1"', "last-modified": "Wed, 21 Oct 2015 07:28:00 GMT" }),
  );
  if ("skipped" in page) throw new Error(page.skipped);
  assertEquals([page.title, page.links, page.stamp.size, page.stamp.validator], [
    "café menu.html",
    ["b.html"],
    body.length,
    '"v1"',
  ]);
  const again = readPage(body, "html", new URL(`${ORIGIN}/docs/100%.html`), new Headers());
  if ("skipped" in again) throw new Error(again.skipped);
  // Same body, same version; a stray "%" names the page as written; no validator without headers.
  assertEquals([again.title, again.stamp.version, again.stamp.validator], [
    "100%.html",
    page.stamp.version,
    undefined,
  ]);
  // The site's root has no last path segment: its host names it.
  const root = readPage(new TextEncoder().encode("Hi."), "text", new URL(ORIGIN), new Headers());
  assertEquals("skipped" in root ? root : root.title, "docs.test");
  assertEquals(readPage(new Uint8Array([0]), "text", START, new Headers()), { skipped: "binary" });
});

Deno.test("sitemapLocs: a urlset's pages and a sitemap index's sitemaps, trimmed", () => {
  assertEquals(
    sitemapLocs(
      `<urlset><url><loc> ${ORIGIN}/docs/a.html </loc></url><url><loc>/docs/b.html</loc></url></urlset>`,
    ),
    { sitemaps: [], pages: [`${ORIGIN}/docs/a.html`, "/docs/b.html"] },
  );
  assertEquals(sitemapLocs(`<sitemapindex><sitemap><loc>${ORIGIN}/a.xml</loc></sitemap></sitemapindex>`), {
    sitemaps: [`${ORIGIN}/a.xml`],
    pages: [],
  });
  assertEquals(sitemapLocs("not xml at all"), { sitemaps: [], pages: [] });
});

Deno.test("Frontier: batches oldest first, never past the page limit; a pass that did not end is resumed", async () => {
  const dir = await Deno.makeTempDir({ prefix: "docsearch-frontier-" });
  const index = DocsIndex.open(`${dir}/site.db`);
  try {
    const frontier = new Frontier(index, crawlScope(START));
    const spec = { maxPages: 3, source: "crawl", include: [], exclude: [] };
    assertEquals(frontier.begin(START, spec), { resumed: false });
    frontier.startOver([START]);
    frontier.follow(["a.html", "/blog/x.html", "b.html", "a.html#again", "c.html"], START);
    const href = (name: string) => `${ORIGIN}/docs/${name}`;
    assertEquals(frontier.next(2, 3), { batch: [START.href, href("a.html")], limitReached: false });
    frontier.mark(START.href, "done");
    frontier.mark(href("a.html"), "failed", "HTTP 503");
    // One page read, the limit is 3: room for two, whatever the concurrency.
    assertEquals(frontier.next(4, 3), { batch: [href("b.html"), href("c.html")], limitReached: false });
    frontier.mark(href("b.html"), "done");
    frontier.mark(href("c.html"), "done");
    assertEquals(frontier.next(4, 3), { batch: [], limitReached: false });

    // Not finished: the same start resumes, the failed page queued again; another start begins anew.
    assertEquals(frontier.begin(START, spec), { resumed: true, retried: 1 });
    assertEquals(frontier.counts(), { done: 3, queued: 1 });
    assertEquals(frontier.next(4, 3), { batch: [], limitReached: true });
    assertEquals(frontier.begin(new URL(`${ORIGIN}/other/`), spec), { resumed: false });
    assertEquals(frontier.begin(START, spec), { resumed: false });
  } finally {
    index.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("FailureStreak: five failures in a row mean the site is down; a page served starts the count again", () => {
  const streak = new FailureStreak();
  for (let i = 1; i <= 4; i++) streak.add(`HTTP 50${i}`, true);
  assertEquals(streak.siteDown, false);
  streak.reset();
  for (let i = 1; i <= 4; i++) streak.add("timeout", true);
  assertEquals(streak.siteDown, false);
  streak.add("HTTP 503", true);
  assertEquals([streak.siteDown, streak.last], [true, "HTTP 503"]);
});

Deno.test("progress: a line each time the requests pass a multiple of 50; the resume line names the retried", () => {
  // Batches of 4: the one that brings the total to 50 to 53 passed 50.
  assertEquals([0, 4, 49, 50, 51, 53, 54, 100].map((fetched) => progressDue(fetched, 4)), [
    false,
    false,
    false,
    true,
    true,
    true,
    false,
    true,
  ]);
  assertEquals(countsLine({ done: 50, queued: 7 }), "50 pages read, 7 queued");
  assertEquals(
    resumeLine(START, { done: 5, queued: 9 }, 2),
    `resuming the crawl of ${START.href}: 5 pages read, 9 queued (2 the site did not answer last time)`,
  );
  assertEquals(
    resumeLine(START, { done: 5, queued: 9 }, 0),
    `resuming the crawl of ${START.href}: 5 pages read, 9 queued`,
  );
  assertEquals(sitemapLine(3, START), `sitemap: 3 pages under ${START.href}`);
});

// ---------------------------------------------------------------------------------------------------------
// withIndexEntry and withoutIndexEntry

const ENTRY = {
  name: "gitlab",
  path: "/state/indexes/gitlab.db",
  source: "https://docs.gitlab.com/",
};

Deno.test("withIndexEntry: a new entry naming the built-in tool, with defaults from the name and source", () => {
  const config = { escape_hatch_ttl_seconds: 60, databases: [{ name: "other", keywords: ["other"] }] };
  const result = withIndexEntry(config, { ...ENTRY, domains: ["docs.gitlab.com"] });
  assertEquals(result.change, "added");
  assertEquals(result.replacedTool, undefined);
  assertEquals(result.config, {
    escape_hatch_ttl_seconds: 60,
    databases: [
      { name: "other", keywords: ["other"] },
      {
        name: "gitlab",
        keywords: ["gitlab"],
        domains: ["docs.gitlab.com"],
        path: "/state/indexes/gitlab.db",
        mcp_tool_name: "mcp__docsearch__search",
        tool_args: { index: "gitlab", query: "{query}" },
        description: "gitlab documentation (from https://docs.gitlab.com/)",
      },
    ],
  });
  // The input is not changed.
  assertEquals(config.databases.length, 1);
  // No domains given, none kept: no domains key; an empty config gets a databases list.
  const bare = withIndexEntry({}, { ...ENTRY, keywords: ["gl", "gitlab"], description: "Mine" });
  assertEquals(bare.config.databases, [{
    name: "gitlab",
    keywords: ["gl", "gitlab"],
    path: "/state/indexes/gitlab.db",
    mcp_tool_name: "mcp__docsearch__search",
    tool_args: { index: "gitlab", query: "{query}" },
    description: "Mine",
  }]);
});

Deno.test("withIndexEntry: an existing entry keeps the user's keywords, domains, description and own fields", () => {
  const old = {
    name: "gitlab",
    keywords: ["gitlab", "gitlab ci"],
    domains: ["docs.gitlab.com", "gitlab.com"],
    description: "My GitLab notes",
    enabled: false,
    path: "/old/place.db",
    mcp_tool_name: "mcp__docsearch__search",
    tool_args: { index: "gitlab", query: "{query}" },
  };
  const result = withIndexEntry({ databases: [old] }, ENTRY);
  assertEquals(result.change, "updated");
  assertEquals(result.replacedTool, undefined);
  assertEquals(result.config.databases, [{ ...old, path: "/state/indexes/gitlab.db" }]);
  // What the command line gives wins over what the entry had.
  const given = withIndexEntry({ databases: [old] }, { ...ENTRY, keywords: ["gl"], description: "New" });
  const entry = (given.config.databases as Record<string, unknown>[])[0];
  assertEquals([entry.keywords, entry.description, entry.domains], [["gl"], "New", old.domains]);
});

Deno.test("withIndexEntry: a LEANN entry (found by its first keyword) is switched, index_name dropped", () => {
  const leann = {
    keywords: ["gitlab", "gitlab runner"],
    mcp_tool_name: "mcp__leann__search",
    index_name: "gitlab-docs",
    tool_args: { index_name: "gitlab-docs", query: "{query}", top_k: 5 },
    description: "GitLab docs in LEANN",
  };
  const other = { name: "postgres", keywords: ["postgres"], mcp_tool_name: "mcp__leann__search" };
  const result = withIndexEntry({ databases: [other, leann] }, ENTRY);
  assertEquals(result.change, "updated");
  assertEquals(result.replacedTool, "mcp__leann__search");
  assertEquals(result.config.databases, [other, {
    keywords: ["gitlab", "gitlab runner"],
    mcp_tool_name: "mcp__docsearch__search",
    tool_args: { index: "gitlab", query: "{query}" },
    description: "GitLab docs in LEANN",
    name: "gitlab",
    path: "/state/indexes/gitlab.db",
  }]);
  ok(!("index_name" in (result.config.databases as Record<string, unknown>[])[1]));
});

Deno.test("withIndexEntry: a second run with the same arguments changes nothing", () => {
  const first = withIndexEntry({ databases: [] }, { ...ENTRY, domains: ["docs.gitlab.com"] });
  const second = withIndexEntry(first.config, { ...ENTRY, domains: ["docs.gitlab.com"] });
  assertEquals(second.change, "unchanged");
  ok(second.config === first.config);
  assertEquals(second.replacedTool, undefined);
  // Switched from LEANN, then run again: unchanged too (no replacedTool the second time).
  const switched = withIndexEntry(
    { databases: [{ name: "gitlab", mcp_tool_name: "mcp__leann__search" }] },
    ENTRY,
  );
  assertEquals(withIndexEntry(switched.config, ENTRY).change, "unchanged");
  // "databases" that is not a list is an error to fix, not something to overwrite.
  let message = "";
  try {
    withIndexEntry({ databases: {} }, ENTRY);
  } catch (error) {
    message = (error as Error).message;
  }
  match(message, /"databases" is not a list/);
});

Deno.test("withoutIndexEntry: only the entry index add made goes; a LEANN entry of that name stays", () => {
  const ours = withIndexEntry({}, ENTRY).config.databases as Record<string, unknown>[];
  const leann = { name: "gitlab", mcp_tool_name: "mcp__leann__search", tool_args: { index_name: "gitlab" } };
  const pointsElsewhere = {
    name: "gitlab",
    mcp_tool_name: "mcp__docsearch__search",
    tool_args: { index: "other", query: "{query}" },
  };
  const other = withIndexEntry({}, { ...ENTRY, name: "postgres" }).config.databases as unknown[];
  const config = { escape_hatch_ttl_seconds: 60, databases: [...other, ...ours] };

  const removed = withoutIndexEntry(config, "gitlab");
  assertEquals(removed.change, "updated");
  assertEquals(removed.config, { escape_hatch_ttl_seconds: 60, databases: other });

  for (const entry of [leann, pointsElsewhere]) {
    const kept = withoutIndexEntry({ databases: [entry] }, "gitlab");
    assertEquals(kept.change, "unchanged");
    assertEquals(kept.config, { databases: [entry] });
  }
  assertEquals(withoutIndexEntry({}, "gitlab").change, "unchanged");
});

// ---------------------------------------------------------------------------------------------------------
// crawl() with a fake site

const ORIGIN = "http://docs.test";
const START = new URL(`${ORIGIN}/docs/`);
/** No waiting: retries still happen, just at once. */
const FAST: CrawlOptions = { ...DEFAULT_CRAWL, retryDelaysMs: [0, 0] };

const html = (title: string, body: string) =>
  `<html><head><title>${title} | Test Docs</title></head><body>` +
  `<nav><a href="/docs/">Docs home</a> navigationword</nav><main>${body}</main></body></html>`;

type Route = string | ((request: { url: URL; headers: Headers }) => Response | Promise<Response>);

/** A site as a fake `fetch`: path (with query) → page or handler; anything else 404. Counts requests. */
function fakeSite(routes: Record<string, Route>) {
  const requests: string[] = [];
  const inits: RequestInit[] = [];
  let down = false;
  const site = {
    requests,
    inits,
    routes,
    /** Every request answered 503 while set. */
    set down(value: boolean) {
      down = value;
    },
    fetch: ((input: string | URL | Request, init?: RequestInit) => {
      const url = new URL(input instanceof Request ? input.url : input);
      const path = url.pathname + url.search;
      requests.push(url.origin === ORIGIN ? path : url.href);
      inits.push(init ?? {});
      if (down) return Promise.resolve(new Response("down", { status: 503 }));
      const route = routes[path];
      if (route === undefined) return Promise.resolve(new Response("not found", { status: 404 }));
      if (typeof route === "string") {
        return Promise.resolve(
          new Response(route, { headers: { "content-type": "text/html; charset=utf-8" } }),
        );
      }
      return Promise.resolve(route({ url, headers: new Headers(init?.headers) }));
    }) as typeof fetch,
    /** The requests for pages (not robots.txt or sitemaps) since the last call. */
    pageRequests(): string[] {
      const pages = requests.filter((path) => path !== "/robots.txt" && !path.includes("sitemap"));
      requests.length = 0;
      return pages;
    },
  };
  return site;
}

interface Run {
  index: DocsIndex;
  sleeps: number[];
  progress: string[];
  run(options?: Partial<CrawlOptions>, start?: URL): Promise<CrawlReport>;
  sources(): string[];
  find(word: string): string[];
}

/** An index in a temp folder, crawled with the fake site's fetch; closed and removed afterwards. */
async function withCrawl(site: { fetch: typeof fetch }, test: (run: Run) => Promise<void>) {
  const dir = await Deno.makeTempDir({ prefix: "docsearch-crawl-" });
  const index = DocsIndex.open(`${dir}/site.db`);
  const sleeps: number[] = [];
  const progress: string[] = [];
  try {
    await test({
      index,
      sleeps,
      progress,
      run: (options = {}, start = START) =>
        crawl(index, start, { ...FAST, ...options }, {
          fetch: site.fetch,
          sleep: (ms) => {
            sleeps.push(ms);
            return Promise.resolve();
          },
          progress: (line) => progress.push(line),
        }),
      sources: () => [...index.stamps().keys()].sort(),
      find: (word) => index.search(quoted(word), 50).map((hit) => hit.source).sort(),
    });
  } finally {
    index.close();
    await Deno.remove(dir, { recursive: true });
  }
}

const skippedOf = (report: CrawlReport) => report.skipped.map(({ url, note }) => [url, note]);

Deno.test("crawl: links and sitemap pages in scope, robots.txt honoured, furniture not indexed", async () => {
  const site = fakeSite({
    "/robots.txt": () => new Response("User-agent: *\nDisallow: /docs/private/\n"),
    "/sitemap.xml": () =>
      new Response(
        `<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
          <url><loc>${ORIGIN}/docs/hidden.html</loc></url>
          <url><loc>${ORIGIN}/blog/post.html</loc></url>
          <url><loc>http://elsewhere.test/docs/x.html</loc></url>
        </urlset>`,
        { headers: { "content-type": "application/xml" } },
      ),
    "/docs/": html(
      "Home",
      `<h1>Home</h1><p>Welcome. <a href="guide.html#top">Guide</a> <a href="private/secret.html">Secret</a>
       <a href="/blog/post.html">Blog</a> <a href="logo.png">Logo</a> <a href="mailto:x@docs.test">Mail</a>
       <a href="notes.md">Notes</a> <a href="plain">Plain</a></p>`,
    ),
    "/docs/guide.html": html("Guide", `<h1>Guide</h1><p>guideword <a href="guide.html">self</a></p>`),
    "/docs/hidden.html": html("Hidden", "<p>sitemaponlyword</p>"),
    "/docs/private/secret.html": html("Secret", "<p>secretword</p>"),
    "/blog/post.html": html("Blog", "<p>blogword</p>"),
    "/docs/notes.md": () =>
      new Response("# Notes\n\nmarkdownword\n", { headers: { "content-type": "text/plain" } }),
    "/docs/plain": () => new Response("plainword here\n", { headers: { "content-type": "text/plain" } }),
  });
  await withCrawl(site, async ({ run, sources, find, progress }) => {
    const report = await run();
    assertEquals(
      { ...report, skipped: skippedOf(report) },
      {
        resumed: false,
        fetched: 5,
        read: 5,
        changed: 5,
        unchanged: 0,
        removed: 0,
        skipped: [[`${ORIGIN}/docs/private/secret.html`, "disallowed by robots.txt"]],
        failed: [],
        limitReached: false,
        cutShort: false,
      },
    );
    assertEquals(sources(), [
      `${ORIGIN}/docs/`,
      `${ORIGIN}/docs/guide.html`,
      `${ORIGIN}/docs/hidden.html`,
      `${ORIGIN}/docs/notes.md`,
      `${ORIGIN}/docs/plain`,
    ]);
    assertEquals(site.requests.slice(0, 2), ["/robots.txt", "/sitemap.xml"]);
    assertEquals(site.pageRequests().sort(), [
      "/docs/",
      "/docs/guide.html",
      "/docs/hidden.html",
      "/docs/notes.md",
      "/docs/plain",
    ]);
    assertEquals(find("sitemaponlyword"), [`${ORIGIN}/docs/hidden.html`]);
    assertEquals(find("markdownword"), [`${ORIGIN}/docs/notes.md`]);
    assertEquals(find("navigationword"), []);
    assertEquals(find("secretword"), []);
    assertEquals(progress, [`sitemap: 1 pages under ${START.href}`]);
    // Every request says who asks and follows no redirect by itself.
    for (const init of site.inits) {
      assertEquals(init.redirect, "manual");
      match(new Headers(init.headers).get("user-agent") ?? "", /^docsearch-hook\/\d+\.\d+\.\d+ /);
    }
  });
});

Deno.test("crawl: sitemaps named by robots.txt, sitemap indexes followed", async () => {
  const xml = (body: string) => () => new Response(body, { headers: { "content-type": "application/xml" } });
  const site = fakeSite({
    "/robots.txt": () => new Response(`User-agent: *\nAllow: /\nSitemap: ${ORIGIN}/maps/index.xml\n`),
    "/maps/index.xml": xml(
      `<sitemapindex><sitemap><loc>${ORIGIN}/maps/a.xml</loc></sitemap>` +
        `<sitemap><loc> ${ORIGIN}/maps/b.xml </loc></sitemap></sitemapindex>`,
    ),
    "/maps/a.xml": xml(`<urlset><url><loc>${ORIGIN}/docs/a.html</loc></url></urlset>`),
    "/maps/b.xml": xml(`<urlset><url><loc>/docs/b.html</loc></url></urlset>`),
    "/docs/": html("Home", "<p>Home.</p>"),
    "/docs/a.html": html("A", "<p>alphaword</p>"),
    "/docs/b.html": html("B", "<p>bravoword</p>"),
  });
  await withCrawl(site, async ({ run, find }) => {
    const report = await run();
    assertEquals(report.changed, 3);
    assertEquals(find("alphaword"), [`${ORIGIN}/docs/a.html`]);
    assertEquals(find("bravoword"), [`${ORIGIN}/docs/b.html`]);
    ok(!site.requests.includes("/sitemap.xml"));
  });
});

Deno.test("crawl: redirects in scope followed, off-site ones skipped unrequested, non-pages skipped, 404 failed", async () => {
  const redirect = (location: string, status = 301) => () =>
    new Response(null, { status, headers: { location } });
  const site = fakeSite({
    "/docs/": html(
      "Home",
      `<p><a href="old.html">Old</a> <a href="away.html">Away</a> <a href="loop-a.html">Loop</a>
       <a href="gone.html">Gone</a> <a href="file.html">File</a> <a href="nul.html">Nul</a> <a href="outside.html">Outside</a></p>`,
    ),
    "/docs/old.html": redirect("new.html"),
    "/docs/new.html": html("New", "<p>newword</p>"),
    "/docs/away.html": redirect("http://elsewhere.test/docs/away.html", 302),
    "/docs/outside.html": redirect("/blog/x.html", 308),
    "/docs/loop-a.html": redirect("/docs/loop-b.html"),
    "/docs/loop-b.html": redirect("/docs/loop-a.html", 307),
    "/docs/file.html": () =>
      new Response(new Uint8Array([1, 2, 3]), { headers: { "content-type": "application/octet-stream" } }),
    "/docs/nul.html": () =>
      new Response(new Uint8Array([60, 112, 62, 0]), { headers: { "content-type": "text/html" } }),
  });
  await withCrawl(site, async ({ run, sources, find }) => {
    const report = await run();
    assertEquals(skippedOf(report), [
      [`${ORIGIN}/docs/away.html`, "redirects off-site to http://elsewhere.test/docs/away.html"],
      [`${ORIGIN}/docs/file.html`, "not a page (application/octet-stream)"],
      [`${ORIGIN}/docs/nul.html`, "binary"],
      [`${ORIGIN}/docs/outside.html`, `redirects out of scope to ${ORIGIN}/blog/x.html`],
    ]);
    assertEquals(report.failed, [{ url: `${ORIGIN}/docs/gone.html`, note: "HTTP 404", failure: "HTTP 404" }]);
    assertEquals(sources(), [`${ORIGIN}/docs/`, `${ORIGIN}/docs/new.html`]);
    assertEquals(find("newword"), [`${ORIGIN}/docs/new.html`]);
    const requested = site.pageRequests();
    ok(
      !requested.some((path) => path.includes("elsewhere.test") || path.startsWith("/blog/")),
      String(requested),
    );
    // Each redirect of the loop is asked once.
    assertEquals(requested.filter((path) => path.startsWith("/docs/loop-")).sort(), [
      "/docs/loop-a.html",
      "/docs/loop-b.html",
    ]);
  });
});

/** A body of `bytes` bytes as a stream, made on demand, saying how much of it was made. */
function bigBody(bytes: number) {
  const made = { bytes: 0 };
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (made.bytes >= bytes) return controller.close();
      const part = Math.min(1024 * 1024, bytes - made.bytes);
      made.bytes += part;
      controller.enqueue(new Uint8Array(part).fill(97));
    },
  });
  return { made, body };
}

Deno.test("crawl: a page declaring more than 10 MB is skipped without reading its body", async () => {
  const big = bigBody(MAX_FILE_BYTES + 1);
  const site = fakeSite({
    "/docs/": html("Home", `<p><a href="big.html">Big</a> <a href="small.html">Small</a></p>`),
    "/docs/big.html": () =>
      new Response(big.body, {
        headers: { "content-type": "text/html", "content-length": String(MAX_FILE_BYTES + 1) },
      }),
    // Exactly at the limit is allowed.
    "/docs/small.html": () =>
      new Response(`<p>smallword</p>`.padEnd(MAX_FILE_BYTES, " "), {
        headers: { "content-type": "text/html" },
      }),
  });
  await withCrawl(site, async ({ run, find }) => {
    const report = await run();
    assertEquals(skippedOf(report), [[`${ORIGIN}/docs/big.html`, "larger than 10 MB"]]);
    ok(big.made.bytes <= 2 * 1024 * 1024, String(big.made.bytes));
    assertEquals(find("smallword"), [`${ORIGIN}/docs/small.html`]);
  });
});

Deno.test("crawl: a page the reader cannot take (nested too deep for the parser) is skipped, the rest indexed", async () => {
  const site = fakeSite({
    "/docs/": html("Home", `<p>homeword <a href="deep.html">Deep</a> <a href="after.html">After</a></p>`),
    "/docs/deep.html": () =>
      new Response("<div>".repeat(6000) + "deepword", { headers: { "content-type": "text/html" } }),
    "/docs/after.html": html("After", "<p>afterword</p>"),
  });
  await withCrawl(site, async ({ run, find }) => {
    const report = await run();
    assertEquals(skippedOf(report), [[
      `${ORIGIN}/docs/deep.html`,
      "could not be read: Maximum call stack size exceeded",
    ]]);
    assertEquals(find("homeword"), [`${ORIGIN}/docs/`]);
    assertEquals(find("afterword"), [`${ORIGIN}/docs/after.html`]);
  });
});

Deno.test("crawl: a page streamed past 10 MB with no Content-Length is skipped, the rest not read", async () => {
  // BUG: readCapped (lib/docs/crawl_fetch.ts) calls response.body.cancel() inside its `for await` over the same
  // body, whose iterator holds the stream's lock: "TypeError: Cannot cancel a locked ReadableStream" escapes
  // crawl() and ends the whole crawl (the CLI prints "unexpected error"). Returning from the loop alone would
  // cancel the stream (the async iterator's return() does).
  const big = bigBody(50 * 1024 * 1024);
  const site = fakeSite({
    "/docs/": html("Home", `<p>homeword <a href="big.html">Big</a></p>`),
    "/docs/big.html": () => new Response(big.body, { headers: { "content-type": "text/html" } }),
  });
  await withCrawl(site, async ({ run, find }) => {
    const report = await run();
    assertEquals(skippedOf(report), [[`${ORIGIN}/docs/big.html`, "larger than 10 MB"]]);
    ok(big.made.bytes <= MAX_FILE_BYTES + 2 * 1024 * 1024, String(big.made.bytes));
    assertEquals(find("homeword"), [START.href]);
  });
});

Deno.test("crawl: 5xx and 429 are retried after the configured delays, then the page has failed", async () => {
  let flaky = 0;
  let busy = 0;
  const site = fakeSite({
    "/docs/": html(
      "Home",
      `<p><a href="flaky.html">F</a> <a href="busy.html">B</a> <a href="broken.html">X</a></p>`,
    ),
    "/docs/flaky.html": () =>
      ++flaky < 3 ? new Response("oops", { status: 502 }) : new Response(html("Flaky", "<p>flakyword</p>"), {
        headers: { "content-type": "text/html" },
      }),
    "/docs/busy.html": () =>
      ++busy < 2
        ? new Response("slow down", { status: 429 })
        : new Response(html("Busy", "<p>busyword</p>"), {
          headers: { "content-type": "text/html" },
        }),
    "/docs/broken.html": () => new Response("down", { status: 500 }),
  });
  await withCrawl(site, async ({ run, find, sleeps }) => {
    const report = await run({ retryDelaysMs: [7, 11] });
    assertEquals(report.skipped, []);
    assertEquals(report.failed, [
      { url: `${ORIGIN}/docs/broken.html`, note: "HTTP 500, after 3 tries", failure: "HTTP 500" },
    ]);
    assertEquals(find("flakyword"), [`${ORIGIN}/docs/flaky.html`]);
    assertEquals(find("busyword"), [`${ORIGIN}/docs/busy.html`]);
    const requested = site.pageRequests();
    assertEquals(requested.filter((path) => path === "/docs/flaky.html").length, 3);
    assertEquals(requested.filter((path) => path === "/docs/busy.html").length, 2);
    assertEquals(requested.filter((path) => path === "/docs/broken.html").length, 3);
    // flaky: 7 then 11; busy: 7; broken: 7 then 11.
    assertEquals(sleeps.sort((a, b) => a - b), [7, 7, 7, 11, 11]);
  });
});

Deno.test("crawl: Crawl-delay means one request at a time, with the delay between them", async () => {
  let inFlight = 0;
  let most = 0;
  const slow = (body: string) => async () => {
    inFlight++;
    most = Math.max(most, inFlight);
    await new Promise((resolve) => setTimeout(resolve, 5));
    inFlight--;
    return new Response(body, { headers: { "content-type": "text/html" } });
  };
  const links = Array.from({ length: 4 }, (_, i) => `<a href="p${i}.html">${i}</a>`).join(" ");
  const site = fakeSite({
    "/robots.txt": () => new Response("User-agent: *\nCrawl-delay: 2\n"),
    "/docs/": slow(html("Home", `<p>${links}</p>`)),
    ...Object.fromEntries(
      Array.from({ length: 4 }, (_, i) => [`/docs/p${i}.html`, slow(html(`P${i}`, "<p>x</p>"))]),
    ),
  });
  await withCrawl(site, async ({ run, sleeps }) => {
    const report = await run();
    assertEquals(report.changed, 5);
    assertEquals(most, 1);
    assertEquals(sleeps, [2000, 2000, 2000, 2000, 2000]);
  });
  // Without a delay, several at once.
  inFlight = 0;
  most = 0;
  site.routes["/robots.txt"] = () => new Response("", { status: 404 });
  await withCrawl(site, async ({ run, sleeps }) => {
    await run();
    ok(most > 1, String(most));
    assertEquals(sleeps, []);
  });
});

Deno.test("crawl: nothing readable is SiteUnreachableError; a robots.txt that fails (5xx) disallows all", async () => {
  const refused = {
    ...fakeSite({}),
    fetch: (() => Promise.reject(new TypeError("Connection refused"))) as typeof fetch,
  };
  await withCrawl(refused, async ({ run, index }) => {
    await rejects(run(), (error: Error) => {
      ok(error instanceof SiteUnreachableError);
      match(
        error.message,
        /^cannot read http:\/\/docs\.test\/docs\/: could not be read: Connection refused$/,
      );
      return true;
    });
    assertEquals(index.counts().documents, 0);
  });

  const robotsDown = fakeSite({
    "/robots.txt": () => new Response("", { status: 503 }),
    "/docs/": html("Home", "<p>Home.</p>"),
  });
  await withCrawl(robotsDown, async ({ run }) => {
    await rejects(
      run(),
      (error: Error) => error instanceof SiteUnreachableError && /robots\.txt/.test(error.message),
    );
    // Not one page asked for.
    assertEquals(robotsDown.pageRequests(), []);
  });
});

Deno.test("crawl: a site answering 503 to everything says so, not that robots.txt disallows it", async () => {
  // BUG (message): the robots.txt request's 503 turns into "disallow all" (right, RFC 9309 §2.3.1.4), and the
  // start page's skip note "disallowed by robots.txt" becomes the whole error: "cannot read …: disallowed by
  // robots.txt", which sends the user to the wrong cause.
  const down = fakeSite({ "/docs/": html("Home", "<p>Home.</p>") });
  down.down = true;
  await withCrawl(down, async ({ run }) => {
    await rejects(run(), (error: Error) => {
      ok(error instanceof SiteUnreachableError);
      match(error.message, /503/);
      return true;
    });
  });
});

Deno.test("crawl: an end that may pass (a 5xx, no connection, robots.txt down) is transient; the site's own answer (404, 403, robots.txt's refusal, a refused request) is not", async () => {
  const refusing = () => Promise.reject(new RefusedUrlError("not fetched: http://docs.test/docs/ (no)"));
  const cases: [string, typeof fetch, string, boolean][] = [
    ["404", fakeSite({}).fetch, "cannot read http://docs.test/docs/: HTTP 404", false],
    [
      "403",
      fakeSite({ "/docs/": () => new Response("no", { status: 403 }) }).fetch,
      "cannot read http://docs.test/docs/: HTTP 403",
      false,
    ],
    [
      "robots.txt disallows all",
      fakeSite({
        "/robots.txt": () => new Response("User-agent: *\nDisallow: /\n"),
        "/docs/": html("H", "h"),
      })
        .fetch,
      "cannot read http://docs.test/docs/: disallowed by robots.txt",
      false,
    ],
    [
      "a refused request",
      refusing as typeof fetch,
      "cannot read http://docs.test/docs/: could not be read: not fetched: http://docs.test/docs/ (no)",
      false,
    ],
    [
      "503",
      fakeSite({ "/docs/": () => new Response("busy", { status: 503 }) }).fetch,
      "cannot read http://docs.test/docs/: HTTP 503, after 3 tries",
      true,
    ],
    [
      "connection refused",
      (() => Promise.reject(new TypeError("Connection refused"))) as typeof fetch,
      "cannot read http://docs.test/docs/: could not be read: Connection refused",
      true,
    ],
    [
      "robots.txt down",
      fakeSite({ "/robots.txt": () => new Response("", { status: 500 }), "/docs/": html("H", "h") }).fetch,
      'cannot read http://docs.test/docs/: robots.txt answered HTTP 500, which means "crawl nothing" until it answers',
      true,
    ],
  ];
  for (const [label, fetch, message, transient] of cases) {
    await withCrawl({ fetch }, async ({ run }) => {
      const error = await run().catch((error) => error);
      ok(error instanceof SiteUnreachableError, `${label}: ${error}`);
      assertEquals([label, error.message, error.transient], [label, message, transient]);
    });
  }

  // Stopped mid-crawl: as the streak's last failure was.
  const site = numberedSite(20);
  dieAfter(site, 5);
  await withCrawl(site, async ({ run }) => {
    const error = await run().catch((error) => error);
    ok(error instanceof CrawlInterruptedError, String(error));
    assertEquals(error.transient, true);
  });
  const refusedMidway = numberedSite(20);
  const real = refusedMidway.fetch;
  let pages = 0;
  refusedMidway.fetch =
    ((input: URL, init?: RequestInit) =>
      new URL(input).pathname.startsWith("/docs/") && ++pages > 3
        ? Promise.reject(new RefusedUrlError(`not fetched: ${input} (no)`))
        : real(input, init)) as typeof fetch;
  await withCrawl(refusedMidway, async ({ run }) => {
    const error = await run().catch((error) => error);
    ok(error instanceof CrawlInterruptedError, String(error));
    match(
      error.message,
      /^the site stopped answering \(not fetched: http:\/\/docs\.test\/docs\/p\d+\.html \(no\)\) after 3 pages$/,
    );
    assertEquals(error.transient, false);
  });
});

/** A home page linking to `count` pages, each with its own word. */
function numberedSite(count: number) {
  const links = Array.from({ length: count }, (_, i) => `<a href="p${i}.html">Page ${i}</a>`).join(" ");
  return fakeSite({
    "/docs/": html("Home", `<p>homeword ${links}</p>`),
    ...Object.fromEntries(
      Array.from({ length: count }, (_, i) => [`/docs/p${i}.html`, html(`Page ${i}`, `<p>word${i}x</p>`)]),
    ),
  });
}

/** The site goes down (503) after answering `pages` page requests, until revived. */
function dieAfter(site: ReturnType<typeof fakeSite>, pages: number): { revive(): void } {
  let answered = 0;
  let dying = true;
  const real = site.fetch;
  site.fetch = ((input: URL, init?: RequestInit) => {
    const path = new URL(input).pathname;
    if (dying && path !== "/robots.txt" && !path.includes("sitemap")) {
      if (answered >= pages) site.down = true;
      answered++;
    }
    return real(input, init);
  }) as typeof fetch;
  return {
    revive() {
      dying = false;
      site.down = false;
    },
  };
}

Deno.test("crawl: an interrupted crawl resumes from its queue without asking again for pages read", async () => {
  const site = numberedSite(20);
  const outage = dieAfter(site, 5);
  await withCrawl(site, async ({ run, index, progress, sources }) => {
    await rejects(run(), (error: Error) => {
      ok(error instanceof CrawlInterruptedError, String(error));
      match(error.message, /^the site stopped answering \(HTTP 503\) after 5 pages$/);
      return true;
    });
    const read = site.pageRequests().filter((path, i, all) => all.indexOf(path) === i).slice(0, 5);
    assertEquals(read, ["/docs/", "/docs/p0.html", "/docs/p1.html", "/docs/p2.html", "/docs/p3.html"]);
    assertEquals(index.counts().documents, 5);
    ok(index.crawlCounts().queued > 0);

    outage.revive();
    const report = await run();
    assertEquals(report.resumed, true);
    match(
      progress.at(-1) ?? "",
      /^resuming the crawl of http:\/\/docs\.test\/docs\/: 5 pages read, \d+ queued \(\d+ the site did not answer last time\)$/,
    );
    const requests = [...site.requests];
    for (const path of read) ok(!requests.includes(path), `${path} asked again: ${requests}`);
    // The sitemap is read when a pass starts, not when it resumes.
    ok(!requests.includes("/sitemap.xml"), String(requests));
    for (const i of [12, 19]) ok(sources().includes(`${ORIGIN}/docs/p${i}.html`), String(i));
    assertEquals(index.crawlCounts().queued, 0);
  });
});

Deno.test("crawl: pages that failed while the site was down are read when the crawl resumes", async () => {
  // BUG: a page answered 5xx after its retries is marked "skipped", not left queued (crawl.ts visit():
  // `if (!response.ok) … markCrawled(href, "skipped", "HTTP 503")`), so the resumed crawl never asks for it
  // again: with 20 links, p4…p11 end up missing from the index, reported as "skipped (HTTP 503)". With 12
  // links, those failures empty the queue, so the next run is no resume at all but a new pass that asks
  // again for every page already read.
  for (const links of [20, 12]) {
    const site = numberedSite(links);
    const outage = dieAfter(site, 5);
    await withCrawl(site, async ({ run, sources }) => {
      await rejects(run(), CrawlInterruptedError);
      site.pageRequests();
      outage.revive();
      const report = await run();
      assertEquals(skippedOf(report), [], `${links} links`);
      assertEquals(sources().length, links + 1, `${links} links`);
      assertEquals(report.resumed, true, `${links} links`);
      const again = site.pageRequests();
      for (const path of ["/docs/", "/docs/p0.html"]) ok(!again.includes(path), `${links} links: ${path}`);
    });
  }
});

Deno.test("crawl: ETag and Last-Modified make the next pass conditional; 304 is unchanged", async () => {
  const seen: Record<string, string | null>[] = [];
  const site = fakeSite({
    "/docs/": ({ headers }) => {
      seen.push({ "if-none-match": headers.get("if-none-match") });
      return headers.get("if-none-match") === 'W/"v1"'
        ? new Response(null, { status: 304, headers: { etag: 'W/"v1"' } })
        : new Response(html("Home", "<p>etagword</p>"), {
          headers: { "content-type": "text/html", etag: 'W/"v1"' },
        });
    },
  });
  await withCrawl(site, async ({ run, index, find }) => {
    assertEquals((await run()).changed, 1);
    assertEquals(index.stamps().get(START.href)?.validator, 'W/"v1"');
    const again = await run();
    assertEquals([again.fetched, again.changed, again.unchanged, again.removed], [1, 0, 1, 0]);
    assertEquals(seen, [{ "if-none-match": null }, { "if-none-match": 'W/"v1"' }]);
    assertEquals(find("etagword"), [START.href]);
  });

  const modified = "Wed, 21 Oct 2015 07:28:00 GMT";
  const asked: (string | null)[] = [];
  const dated = fakeSite({
    "/docs/": ({ headers }) => {
      asked.push(headers.get("if-modified-since"));
      return headers.get("if-modified-since") === modified
        ? new Response(null, { status: 304 })
        : new Response(html("Home", "<p>datedword</p>"), {
          headers: { "content-type": "text/html", "last-modified": modified },
        });
    },
  });
  await withCrawl(dated, async ({ run, find }) => {
    await run();
    assertEquals((await run()).unchanged, 1);
    assertEquals(asked, [null, modified]);
    assertEquals(find("datedword"), [START.href]);
  });

  // No validator: the page is read again and its content hash tells it did not change.
  const plain = numberedSite(1);
  await withCrawl(plain, async ({ run }) => {
    await run();
    const again = await run();
    assertEquals([again.changed, again.unchanged, again.removed], [0, 2, 0]);
  });
});

Deno.test("crawl: the pages behind a page that answered 304 are still part of the index", async () => {
  // BUG: a 304 has no body, so the crawl learns none of the page's links; on a site that sends ETags (nginx
  // and most static hosts do) a refresh reaches only the start page and the sitemap, and removes the rest.
  const withEtag = (body: string, tag: string) => ({ headers }: { headers: Headers }) =>
    headers.get("if-none-match") === tag
      ? new Response(null, { status: 304, headers: { etag: tag } })
      : new Response(body, { headers: { "content-type": "text/html", etag: tag } });
  const site = fakeSite({
    "/docs/": withEtag(html("Home", `<p><a href="a.html">A</a></p>`), '"home"'),
    "/docs/a.html": withEtag(html("A", "<p>alphaword</p>"), '"a"'),
  });
  await withCrawl(site, async ({ run, find }) => {
    assertEquals((await run()).changed, 2);
    const again = await run();
    assertEquals([again.changed, again.unchanged, again.removed], [0, 2, 0]);
    assertEquals(find("alphaword"), [`${ORIGIN}/docs/a.html`]);
  });
});

Deno.test("crawl: a page gone from the site (404 or no longer linked) leaves the index on the next pass", async () => {
  const site = fakeSite({
    "/docs/": html("Home", `<p><a href="a.html">A</a> <a href="b.html">B</a> <a href="c.html">C</a></p>`),
    "/docs/a.html": html("A", "<p>alphaword</p>"),
    "/docs/b.html": html("B", "<p>bravoword</p>"),
    "/docs/c.html": html("C", "<p>charlieword</p>"),
  });
  await withCrawl(site, async ({ run, sources, find }) => {
    assertEquals((await run()).changed, 4);
    site.routes["/docs/"] = html("Home", `<p><a href="a.html">A</a> <a href="b.html">B</a></p>`);
    delete site.routes["/docs/b.html"];
    site.routes["/docs/a.html"] = html("A", "<p>alphaword changed</p>");
    const report = await run();
    assertEquals([report.changed, report.unchanged, report.removed], [2, 0, 2]);
    assertEquals(report.failed, [{ url: `${ORIGIN}/docs/b.html`, note: "HTTP 404", failure: "HTTP 404" }]);
    assertEquals(sources(), [`${ORIGIN}/docs/`, `${ORIGIN}/docs/a.html`]);
    assertEquals(find("bravoword"), []);
    assertEquals(find("charlieword"), []);
    assertEquals(find("changed"), [`${ORIGIN}/docs/a.html`]);
  });
});

Deno.test("crawl: the page limit stops the pass, drops the rest of the queue and says so", async () => {
  const site = numberedSite(10);
  await withCrawl(site, async ({ run, index, sources }) => {
    const report = await run({ maxPages: 3 });
    assertEquals([report.fetched, report.changed, report.limitReached], [3, 3, true]);
    assertEquals(sources().length, 3);
    assertEquals(site.pageRequests().length, 3);
    // A pass that stopped at the limit is finished, not interrupted.
    assertEquals(index.crawlCounts().queued, 0);

    const all = await run({ maxPages: 100 });
    assertEquals([all.resumed, all.changed, all.unchanged, all.limitReached], [false, 8, 3, false]);
    assertEquals(sources().length, 11);
    // A lower limit later: what is past it leaves the index.
    const fewer = await run({ maxPages: 2 });
    assertEquals([fewer.limitReached, fewer.removed], [true, 9]);
    assertEquals(sources().length, 2);
  });
  // Exactly as many pages as the limit: not "reached".
  await withCrawl(numberedSite(2), async ({ run }) => {
    assertEquals((await run({ maxPages: 3 })).limitReached, false);
  });
});

// ---------------------------------------------------------------------------------------------------------
// which pages: --include and --exclude

Deno.test("checkPattern: a path or a URL on the site, as written; anything else refused with how to write one", () => {
  assertEquals(checkPattern("--include", " /docs/api/ ", START), "/docs/api/");
  assertEquals(checkPattern("--exclude", "*.pdf$", START), "*.pdf$");
  assertEquals(checkPattern("--include", `${ORIGIN}/docs/v2/?lang=en`, START), "/docs/v2/?lang=en");
  const refused = (pattern: string, message: RegExp) =>
    throws(() => checkPattern("--include", pattern, START), (error: Error) => {
      ok(error instanceof InvalidInputError, String(error));
      match(error.message, message);
      match((error as InvalidInputError).hint ?? "", /^give a path on the site: \/docs\/api\//);
      return true;
    });
  refused("docs/api", /^--include "docs\/api" is not a URL path$/);
  refused("", /^--include "" is not a URL path$/);
  refused(
    "https://elsewhere.test/docs/",
    /^--include "https:\/\/elsewhere\.test\/docs\/" is not on http:\/\/docs\.test$/,
  );
  refused("https://[bad", /is not a URL$/);
});

Deno.test("patternFilter: robots.txt's syntax: a prefix, * any characters, $ the end; exclude wins", () => {
  const passes = (patterns: { include?: string[]; exclude?: string[] }, path: string) =>
    patternFilter({ include: [], exclude: [], ...patterns })(new URL(path, ORIGIN));
  assertEquals(passes({}, "/anything"), true);
  assertEquals(passes({ include: ["/docs/api/"] }, "/docs/api/widgets.html"), true);
  assertEquals(passes({ include: ["/docs/api/"] }, "/docs/apis.html"), false);
  assertEquals(passes({ include: ["/docs/api"] }, "/docs/apis.html"), true);
  assertEquals(passes({ include: ["/docs/*/reference/"] }, "/docs/v2/reference/x.html"), true);
  assertEquals(passes({ include: ["/docs/*/reference/"] }, "/docs/v2/guide/x.html"), false);
  assertEquals(passes({ include: ["/docs/", "/api/"] }, "/api/x"), true);
  assertEquals(passes({ exclude: ["*.pdf$"] }, "/docs/manual.pdf"), false);
  assertEquals(passes({ exclude: ["*.pdf$"] }, "/docs/manual.pdf.html"), true);
  assertEquals(passes({ exclude: ["/docs/changelog$"] }, "/docs/changelog"), false);
  assertEquals(passes({ exclude: ["/docs/changelog$"] }, "/docs/changelog/2024"), true);
  // The query is part of what is matched, as in robots.txt.
  assertEquals(passes({ exclude: ["/*?print="] }, "/docs/a.html?print=1"), false);
  assertEquals(passes({ include: ["/docs/"], exclude: ["/docs/v1/"] }, "/docs/v1/a.html"), false);
  // Written with raw UTF-8, compared percent-encoded.
  assertEquals(passes({ include: ["/docs/café/"] }, "/docs/caf%C3%A9/menu.html"), true);
  assertEquals(
    describePatterns({ include: ["/a/", "/b/"], exclude: ["/a/old/"] }),
    "--include /a/ --include /b/ --exclude /a/old/",
  );
  assertEquals(describePatterns(NO_PATTERNS), "");
});

// ---------------------------------------------------------------------------------------------------------
// failures

const failure = (url: string, kind: string) => ({ url, note: kind, failure: kind });

Deno.test("failureCounts: by kind, the most common first, then by name", () => {
  assertEquals(
    failureCounts([
      failure("a", "HTTP 500"),
      failure("b", "HTTP 404"),
      failure("c", "timeout"),
      failure("d", "HTTP 404"),
      failure("e", "HTTP 500"),
      failure("f", "HTTP 404"),
    ]),
    "HTTP 404: 3, HTTP 500: 2, timeout: 1",
  );
  assertEquals(failureCounts([]), "");
});

Deno.test("tooManyFailed: more than a fifth of the pages asked for, or the start page", () => {
  const failures = (n: number) => Array.from({ length: n }, (_, i) => failure(`p${i}`, "HTTP 404"));
  assertEquals(MAX_FAILED_SHARE, 0.2);
  // 1 of 20, then exactly a fifth (4 of 20), then more (5 of 20).
  assertEquals(tooManyFailed(19, failures(1)), false);
  assertEquals(tooManyFailed(16, failures(4)), false);
  assertEquals(tooManyFailed(15, failures(5)), true);
  assertEquals(tooManyFailed(12, failures(8)), true);
  assertEquals(tooManyFailed(10, []), false);
  // The page the crawl started from, whatever the share.
  assertEquals(tooManyFailed(99, [failure("start", "HTTP 404")], "start"), true);
  assertEquals(tooManyFailed(99, [failure("other", "HTTP 404")], "start"), false);
});

Deno.test("crawl: each failed page with its kind (HTTP status, timeout, network error); a resumed pass still lists them", async () => {
  const links = ["gone", "forbidden", "slow", "refused", "broken"].map((name) =>
    `<a href="${name}.html">x</a>`
  );
  const site = fakeSite({
    "/docs/": html("Home", `<p>${links.join(" ")}</p>`),
    "/docs/forbidden.html": () => new Response("no", { status: 403 }),
    "/docs/slow.html": () => Promise.reject(new DOMException("Signal timed out.", "TimeoutError")),
    "/docs/refused.html": () => Promise.reject(new TypeError("connection refused")),
    "/docs/broken.html": () => new Response("oops", { status: 500 }),
  });
  await withCrawl(site, async ({ run }) => {
    const report = await run();
    assertEquals(report.read, 1);
    assertEquals(report.failed.map(({ url, note, failure }) => [url.slice(ORIGIN.length), note, failure]), [
      ["/docs/gone.html", "HTTP 404", "HTTP 404"],
      ["/docs/forbidden.html", "HTTP 403", "HTTP 403"],
      ["/docs/slow.html", "could not be read: Signal timed out.", "timeout"],
      ["/docs/refused.html", "could not be read: connection refused", "network error"],
      ["/docs/broken.html", "HTTP 500, after 3 tries", "HTTP 500"],
    ]);
    assertEquals(report.skipped, []);
  });

  // Interrupted after the home page and a 404: the resumed pass reports the 404 it did not ask again.
  const numbered = numberedSite(12);
  delete numbered.routes["/docs/p0.html"];
  const outage = dieAfter(numbered, 2);
  await withCrawl(numbered, async ({ run }) => {
    await rejects(run(), CrawlInterruptedError);
    outage.revive();
    numbered.pageRequests();
    const report = await run();
    assertEquals(report.resumed, true);
    ok(!numbered.pageRequests().includes("/docs/p0.html"));
    assertEquals(report.failed, [failure(`${ORIGIN}/docs/p0.html`, "HTTP 404")]);
  });
});

Deno.test("DocsIndex.upgrade: an index whose crawl kept no kinds of failure gains the column, its queue kept", async () => {
  const dir = await Deno.makeTempDir({ prefix: "docsearch-upgrade-" });
  try {
    const file = `${dir}/old.db`;
    const old = new DatabaseSync(file);
    old.exec(`CREATE TABLE crawl (url TEXT PRIMARY KEY,
      state TEXT NOT NULL CHECK (state IN ('queued', 'done', 'skipped', 'failed')), note TEXT);
      INSERT INTO crawl VALUES ('${ORIGIN}/docs/a.html', 'skipped', 'HTTP 404')`);
    old.close();
    const index = DocsIndex.open(file);
    try {
      index.upgrade();
      assertEquals(index.skippedPages(), [{ url: `${ORIGIN}/docs/a.html`, note: "HTTP 404" }]);
      index.markCrawled(`${ORIGIN}/docs/a.html`, "skipped", "HTTP 410", "HTTP 410");
      assertEquals(index.skippedPages(), [{
        url: `${ORIGIN}/docs/a.html`,
        note: "HTTP 410",
        failure: "HTTP 410",
      }]);
      // Twice is once.
      index.upgrade();
    } finally {
      index.close();
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("crawl: --exclude'd pages are never asked for; with --include the start page is read for its links only", async () => {
  const site = fakeSite({
    "/sitemap.xml": () =>
      new Response(
        `<urlset><url><loc>${ORIGIN}/docs/api/mapped.html</loc></url>` +
          `<url><loc>${ORIGIN}/docs/v1/mapped.html</loc></url></urlset>`,
        { headers: { "content-type": "application/xml" } },
      ),
    "/docs/": html(
      "Home",
      `<p>homeword <a href="guide.html">G</a> <a href="api/">API</a> <a href="v1/old.html">Old</a></p>`,
    ),
    "/docs/guide.html": html("Guide", `<p>guideword <a href="api/hidden.html">H</a></p>`),
    "/docs/api/": html("API", `<p>apiword <a href="widgets.html">W</a> <a href="../v1/old.html">Old</a></p>`),
    "/docs/api/widgets.html": html("Widgets", "<p>widgetword</p>"),
    "/docs/api/hidden.html": html("Hidden", "<p>hiddenword</p>"),
    "/docs/api/mapped.html": html("Mapped", "<p>mappedword</p>"),
    "/docs/v1/old.html": html("Old", "<p>oldword</p>"),
    "/docs/v1/mapped.html": html("Old mapped", "<p>oldmappedword</p>"),
  });
  await withCrawl(site, async ({ run, sources }) => {
    await run({ exclude: ["/docs/v1/"] });
    ok(!site.pageRequests().some((path) => path.startsWith("/docs/v1/")));
    assertEquals(sources(), [
      `${ORIGIN}/docs/`,
      `${ORIGIN}/docs/api/`,
      `${ORIGIN}/docs/api/hidden.html`,
      `${ORIGIN}/docs/api/mapped.html`,
      `${ORIGIN}/docs/api/widgets.html`,
      `${ORIGIN}/docs/guide.html`,
    ]);

    // Now only the API: the home page is read for its links and leaves the index; pages only a page left
    // out links to (hidden.html, through the guide) are not reached.
    const report = await run({ include: ["/docs/api/"], exclude: ["/docs/v1/"] });
    assertEquals(site.pageRequests().sort(), [
      "/docs/",
      "/docs/api/",
      "/docs/api/mapped.html",
      "/docs/api/widgets.html",
    ]);
    assertEquals(sources(), [
      `${ORIGIN}/docs/api/`,
      `${ORIGIN}/docs/api/mapped.html`,
      `${ORIGIN}/docs/api/widgets.html`,
    ]);
    assertEquals([report.read, report.changed, report.unchanged, report.removed], [4, 0, 3, 3]);
  });
});

Deno.test("crawl: given pages, it reads those and only those: no sitemap, no link followed", async () => {
  const site = fakeSite({
    "/sitemap.xml": () =>
      new Response(`<urlset><url><loc>${ORIGIN}/docs/mapped.html</loc></url></urlset>`, {
        headers: { "content-type": "application/xml" },
      }),
    "/docs/": html("Home", "<p>homeword</p>"),
    "/docs/a.md": () =>
      new Response("# Alpha\n\nalphaword, see [b](b.md).\n", {
        headers: { "content-type": "text/markdown" },
      }),
    "/docs/b.md": () => new Response("# Bravo\n\nbravoword\n", { headers: { "content-type": "text/plain" } }),
    "/docs/c.html": html("Charlie", `<p>charlieword <a href="d.html">D</a></p>`),
    "/docs/d.html": html("Delta", "<p>deltaword</p>"),
  });
  await withCrawl(site, async ({ run, index, sources }) => {
    const pages = ["a.md", "c.html", "missing.md"].map((name) => new URL(`${ORIGIN}/docs/${name}`));
    const report = await crawl(index, START, FAST, {
      fetch: site.fetch,
      sleep: () => Promise.resolve(),
      progress: () => {},
    }, { pages, source: "llms.txt http://docs.test/docs/llms.txt" });
    assertEquals(sources(), [`${ORIGIN}/docs/a.md`, `${ORIGIN}/docs/c.html`]);
    assertEquals(site.requests.sort(), ["/docs/a.md", "/docs/c.html", "/docs/missing.md", "/robots.txt"]);
    assertEquals(report.failed, [failure(`${ORIGIN}/docs/missing.md`, "HTTP 404")]);
    assertEquals(index.meta("source"), "llms.txt http://docs.test/docs/llms.txt");
    // A crawl of the same index is another pass, from its start page, that does not resume the list.
    site.requests.length = 0;
    await run();
    ok(site.requests.includes("/docs/"), String(site.requests));
    assertEquals(index.meta("source"), "crawl");
  });
});

// ---------------------------------------------------------------------------------------------------------
// readSite(): the best source a site offers

const markdown = (text: string, type = "text/markdown; charset=utf-8") => () =>
  new Response(text, { headers: { "content-type": type } });

/** An index in a temp folder read with readSite from the fake site; closed and removed afterwards. */
async function withSite(
  site: { fetch: typeof fetch },
  test: (run: {
    index: DocsIndex;
    progress: string[];
    read(choice?: SourceChoice, options?: Partial<CrawlOptions>, start?: URL): Promise<SiteReport>;
    sources(): string[];
    find(word: string): string[];
  }) => Promise<void>,
) {
  await withCrawl(site, async ({ index, progress, sources, find }) => {
    await test({
      index,
      progress,
      read: (choice = "find", options = {}, start = START) =>
        readSite(index, start, { ...FAST, ...options }, {
          fetch: site.fetch,
          sleep: () => Promise.resolve(),
          progress: (line) => progress.push(line),
        }, choice),
      sources,
      find,
    });
  });
}

const FULL = [
  "# Quickstart",
  `Source: ${ORIGIN}/docs/quickstart`,
  "",
  "Install the quasarwidget package.",
  "",
  "# Configuration",
  `Source: ${ORIGIN}/docs/config`,
  "",
  "Set the nebulaflag option.",
  "",
  "# Changelog",
  `Source: ${ORIGIN}/blog/changelog`,
  "",
  "Outside the docs: pulsarword.",
].join("\n");

Deno.test("readSite: a site's llms-full.txt is the whole docs: one request, its pages in scope indexed, no crawl", async () => {
  const site = fakeSite({
    "/docs/llms-full.txt": markdown(FULL, "text/plain; charset=utf-8"),
    "/docs/": html("Home", "<p>homeword</p>"),
  });
  await withSite(site, async ({ read, index, sources, find, progress }) => {
    const report = await read();
    assertEquals(report.source, { kind: "llms-full.txt", url: new URL(`${ORIGIN}/docs/llms-full.txt`) });
    assertEquals(report.listed, { pages: 3, inScope: 2 });
    assertEquals([report.fetched, report.read, report.changed, report.removed, report.limitReached], [
      1,
      2,
      2,
      0,
      false,
    ]);
    assertEquals(site.requests, ["/robots.txt", "/docs/llms-full.txt"]);
    assertEquals(sources(), [`${ORIGIN}/docs/config`, `${ORIGIN}/docs/quickstart`]);
    assertEquals(find("nebulaflag"), [`${ORIGIN}/docs/config`]);
    assertEquals(find("pulsarword"), []);
    // The Source line is where the page lives, not its text.
    assertEquals(index.page(`${ORIGIN}/docs/quickstart`)?.passages.map((passage) => passage.text), [
      "Install the quasarwidget package.",
    ]);
    assertEquals(index.meta("source"), `llms-full.txt ${ORIGIN}/docs/llms-full.txt`);
    assertEquals(progress, []);

    // Read again: unchanged; then a page gone from the file leaves the index, and the limit cuts the rest.
    assertEquals((await read()).unchanged, 2);
    site.routes["/docs/llms-full.txt"] = markdown(FULL.replace(/# Quickstart[^]*?(?=# Configuration)/, ""));
    const fewer = await read();
    assertEquals([fewer.changed, fewer.unchanged, fewer.removed], [0, 1, 1]);
    assertEquals(sources(), [`${ORIGIN}/docs/config`]);
    site.routes["/docs/llms-full.txt"] = markdown(FULL);
    const limited = await read("find", { maxPages: 1 });
    assertEquals([limited.read, limited.limitReached], [1, true]);
    assertEquals(sources(), [`${ORIGIN}/docs/quickstart`]);
  });
});

const LIST = [
  "# Widgets",
  "",
  "> Widgets, documented.",
  "",
  "## Docs",
  "",
  "- [Install](install.md): how to install",
  "- [Usage](/docs/usage.md)",
  "- [Private](private/notes.md)",
  "- [Missing](missing.md)",
  "- [Blog](/blog/post.md)",
  "- [Elsewhere](https://elsewhere.test/docs/x.md)",
].join("\n");

Deno.test("readSite: the pages an llms.txt lists in scope, through robots.txt, none followed further", async () => {
  const site = fakeSite({
    "/robots.txt": () => new Response("User-agent: *\nDisallow: /docs/private/\n"),
    // The list's relative links made absolute, for the list to be read at the root.
    "/llms.txt": markdown(LIST.replaceAll(/\]\((?!\/|https?:)/g, "](/docs/")),
    "/docs/install.md": markdown("# Install\n\nRun the zorbinstall command. See [usage](usage.md).\n"),
    "/docs/usage.md": markdown("# Usage\n\nCall frobnicate().\n", "text/plain"),
    "/docs/private/notes.md": markdown("# Notes\n\nsecretword\n"),
    "/docs/unlisted.md": markdown("# Unlisted\n\nunlistedword\n"),
    "/blog/post.md": markdown("# Post\n\nblogword\n"),
  });
  await withSite(site, async ({ read, sources, find, index }) => {
    const report = await read();
    // The root's llms.txt, for a start URL under /docs/: its pages under /docs/ only.
    assertEquals(report.source, { kind: "llms.txt", url: new URL(`${ORIGIN}/llms.txt`) });
    assertEquals(report.listed, { pages: 6, inScope: 4 });
    assertEquals(sources(), [`${ORIGIN}/docs/install.md`, `${ORIGIN}/docs/usage.md`]);
    assertEquals(find("zorbinstall"), [`${ORIGIN}/docs/install.md`]);
    assertEquals(skippedOf(report), [[`${ORIGIN}/docs/private/notes.md`, "disallowed by robots.txt"]]);
    assertEquals(report.failed, [failure(`${ORIGIN}/docs/missing.md`, "HTTP 404")]);
    assertEquals(site.requests, [
      "/robots.txt",
      "/docs/llms-full.txt",
      "/docs/llms.txt",
      "/llms-full.txt",
      "/llms.txt",
      "/docs/install.md",
      "/docs/usage.md",
      "/docs/missing.md",
    ]);
    assertEquals(index.meta("source"), `llms.txt ${ORIGIN}/llms.txt`);
  });
});

Deno.test("readSite: no llms file (an app's HTML for every path is none) means a crawl", async () => {
  const routes: Record<string, Route> = {
    "/docs/": html("Home", `<p>homeword <a href="a.html">A</a></p>`),
    "/docs/a.html": html("A", "<p>alphaword</p>"),
  };
  const site = fakeSite(routes);
  for (const path of ["/docs/llms-full.txt", "/docs/llms.txt", "/llms-full.txt", "/llms.txt"]) {
    routes[path] = html("App", `<p>Loading… <a href="/docs/app.md">app</a></p>`);
  }
  await withSite(site, async ({ read, sources }) => {
    const report = await read();
    assertEquals(report.source, { kind: "crawl" });
    assertEquals(report.listed, undefined);
    assertEquals(sources(), [`${ORIGIN}/docs/`, `${ORIGIN}/docs/a.html`]);
  });
  // Told to crawl, it asks for no llms file.
  const listed = fakeSite({ "/docs/llms.txt": markdown(LIST), "/docs/": html("Home", "<p>homeword</p>") });
  await withSite(listed, async ({ read }) => {
    assertEquals((await read("crawl")).source, { kind: "crawl" });
    ok(!listed.requests.some((path) => path.includes("llms")), String(listed.requests));
  });
});

Deno.test("readSite: the patterns choose the pages of an llms file; a file with none in scope is passed over", async () => {
  const site = fakeSite({
    "/docs/llms-full.txt": markdown(FULL),
    // Pages with no address of their own have the file's: /llms-full.txt, not under /docs/ at all.
    "/llms-full.txt": markdown("# A\n\nalphaword\n\n# B\n\nbravoword\n"),
    "/docs/llms.txt": markdown(LIST),
    "/docs/install.md": markdown("# Install\n\nzorbinstall\n"),
    "/docs/usage.md": markdown("# Usage\n\nfrobnicate\n"),
  });
  await withSite(site, async ({ read, sources, progress }) => {
    const report = await read("find", { exclude: ["/docs/quickstart"] });
    assertEquals(report.source.kind, "llms-full.txt");
    assertEquals(sources(), [`${ORIGIN}/docs/config`]);

    // --include /docs/install takes no page of the llms-full.txt: the llms.txt beside it lists one it takes.
    progress.length = 0;
    const listed = await read("find", { include: ["/docs/install"] });
    assertEquals(listed.source.kind, "llms.txt");
    assertEquals(sources(), [`${ORIGIN}/docs/install.md`]);
    assertEquals(progress, [
      `${ORIGIN}/docs/llms-full.txt has none of its 3 pages under ${ORIGIN}/docs/ that --include /docs/install ` +
      "take: not used",
    ]);

    // The root's llms-full.txt gives its pages no address: they are the file's, outside /docs/.
    delete site.routes["/docs/llms-full.txt"];
    delete site.routes["/docs/llms.txt"];
    site.routes["/docs/"] = html("Home", "<p>homeword</p>");
    progress.length = 0;
    assertEquals((await read()).source, { kind: "crawl" });
    assertEquals(progress, [
      `${ORIGIN}/llms-full.txt has none of its 2 pages under ${ORIGIN}/docs/: not used`,
    ]);
  });
});

Deno.test("readSite: a refresh reads the source read before; when it is gone, it says so and finds another", async () => {
  const site = fakeSite({
    "/docs/llms.txt": markdown(LIST),
    "/docs/llms-full.txt": markdown(FULL),
    "/docs/install.md": markdown("# Install\n\nzorbinstall\n"),
    "/docs/usage.md": markdown("# Usage\n\nfrobnicate\n"),
    "/docs/": html("Home", "<p>homeword</p>"),
  });
  await withSite(site, async ({ read, progress }) => {
    const recorded: SiteSource = { kind: "llms.txt", url: new URL(`${ORIGIN}/docs/llms.txt`) };
    const again = await read(recorded);
    assertEquals(again.source, recorded);
    // The llms-full.txt, better, is not looked at: the index was read from the list.
    ok(!site.requests.includes("/docs/llms-full.txt"), String(site.requests));

    delete site.routes["/docs/llms.txt"];
    const found = await read(recorded);
    assertEquals(found.source.kind, "llms-full.txt");
    assertEquals(progress, [
      `${ORIGIN}/docs/llms.txt, which the index was read from, is not there: looking for another source`,
    ]);
    // A crawl read again is a crawl.
    site.requests.length = 0;
    assertEquals((await read({ kind: "crawl" })).source, { kind: "crawl" });
    ok(!site.requests.some((path) => path.includes("llms")), String(site.requests));
  });
});

Deno.test("readSite: an llms-full.txt over the size limit is passed over; a site that does not answer is unreachable", async () => {
  const site = fakeSite({
    "/docs/llms-full.txt": () =>
      new Response("# Huge", {
        headers: { "content-type": "text/plain", "content-length": String(MAX_LLMS_FULL_BYTES + 1) },
      }),
    "/docs/llms.txt": markdown(LIST),
    "/docs/install.md": markdown("# Install\n\nzorbinstall\n"),
  });
  await withSite(site, async ({ read, progress }) => {
    assertEquals((await read()).source.kind, "llms.txt");
    assertEquals(progress, [`${ORIGIN}/docs/llms-full.txt is larger than 64 MB: not used`]);
  });
  const refused = {
    ...fakeSite({}),
    fetch: (() => Promise.reject(new TypeError("Connection refused"))) as typeof fetch,
  };
  await withSite(refused, async ({ read }) => {
    await rejects(read(), (error: Error) => {
      ok(error instanceof SiteUnreachableError, String(error));
      assertEquals(error.message, `cannot read ${START.href}: could not be read: Connection refused`);
      return true;
    });
  });
});

Deno.test("readSite: a 200 that is no llms file (plain text with no heading, a list with no link) is passed over", async () => {
  const site = fakeSite({
    "/docs/llms-full.txt": markdown("Not found.", "text/plain"),
    "/docs/llms.txt": markdown("Not found either.", "text/plain"),
    "/docs/": html("Home", "<p>homeword</p>"),
  });
  await withSite(site, async ({ read, progress, sources }) => {
    assertEquals((await read()).source, { kind: "crawl" });
    assertEquals(sources(), [START.href]);
    assertEquals(progress, [
      `${ORIGIN}/docs/llms-full.txt has no page in it: not used`,
      `${ORIGIN}/docs/llms.txt has no page in it: not used`,
    ]);
  });
});
