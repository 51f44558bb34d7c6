/**
 * The llms.txt proposal's files as pure parts: where a site may publish them, whether an answer is one, the
 * pages an llms.txt lists, and an llms-full.txt cut into pages in each of the ways such files are written.
 */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { isLlmsFile, llmsCandidates, parseLlmsTxt, splitLlmsFull } from "../lib/docs/llms.ts";

const FILE = new URL("https://docs.test/docs/llms-full.txt");

/** The pages as plain values: title, address and text. */
const pagesOf = (text: string, file = FILE) =>
  splitLlmsFull(text, file).map((page) => [page.title, page.url.href, page.text]);

Deno.test("llmsCandidates: the start URL's folder and each one above it, the whole docs before the list", () => {
  const hrefs = (start: string) =>
    llmsCandidates(new URL(start)).map(({ kind, url }) => `${kind} ${url.href}`);
  assertEquals(hrefs("https://docs.test/docs/v2/intro.html"), [
    "llms-full.txt https://docs.test/docs/v2/llms-full.txt",
    "llms.txt https://docs.test/docs/v2/llms.txt",
    "llms-full.txt https://docs.test/docs/llms-full.txt",
    "llms.txt https://docs.test/docs/llms.txt",
    "llms-full.txt https://docs.test/llms-full.txt",
    "llms.txt https://docs.test/llms.txt",
  ]);
  // "/docs" names the folder /docs/, as it does for a crawl's scope.
  assertEquals(hrefs("https://docs.test/docs").slice(0, 2), [
    "llms-full.txt https://docs.test/docs/llms-full.txt",
    "llms.txt https://docs.test/docs/llms.txt",
  ]);
  assertEquals(hrefs("https://docs.test/"), [
    "llms-full.txt https://docs.test/llms-full.txt",
    "llms.txt https://docs.test/llms.txt",
  ]);
});

Deno.test("isLlmsFile: an app's HTML answered for every path is none; Markdown or plain text is", () => {
  assertEquals(isLlmsFile("text/plain; charset=utf-8", "# Site\n\n- [A](a.md)"), true);
  assertEquals(isLlmsFile("text/markdown", "# Site"), true);
  assertEquals(isLlmsFile(null, "# Site"), true);
  assertEquals(isLlmsFile("text/html; charset=utf-8", "# Site"), false);
  assertEquals(isLlmsFile("application/xhtml+xml", "# Site"), false);
  // Served as text, but HTML all the same.
  assertEquals(isLlmsFile("text/plain", "\uFEFF\n  <!doctype html><html>…"), false);
});

Deno.test("parseLlmsTxt: each list item's first link, resolved and without fragment, once, Optional last", () => {
  const text = [
    "# Widgets",
    "",
    "> Widgets for everyone. See [the blog](https://docs.test/blog/) for news.",
    "",
    "Read these first:",
    "",
    "## Optional",
    "",
    "- [Changelog](/docs/changelog.md): what changed",
    "",
    "## Guides",
    "",
    "- [Install](install.md): how to install; see also [setup](setup.md)",
    "* [Configure](https://docs.test/docs/configure.html.md#top)",
    '1. [Deploy](<deploy guide.md> "Deploying")',
    "  - [Nested [beta] item](nested/item.md)",
    "- ![logo](logo.png) [API](api.md)",
    "- [Install again](install.md#step-2)",
    "- [Mail us](mailto:team@docs.test)",
    "- no link here",
    "",
    "```md",
    "- [Example in code](example.md)",
    "```",
    "",
    "### Reference",
    "",
    "+ [Errors](https://other.test/errors.md)",
  ].join("\n");
  const listed = parseLlmsTxt(text, new URL("https://docs.test/docs/llms.txt"));
  assertEquals(listed.map(({ url, title }) => [title, url.href]), [
    ["Install", "https://docs.test/docs/install.md"],
    ["Configure", "https://docs.test/docs/configure.html.md"],
    ["Deploy", "https://docs.test/docs/deploy%20guide.md"],
    ["Nested [beta] item", "https://docs.test/docs/nested/item.md"],
    ["API", "https://docs.test/docs/api.md"],
    // An H3 is part of the section above it: still a list of pages, not "Optional".
    ["Errors", "https://other.test/errors.md"],
    ["Changelog", "https://docs.test/docs/changelog.md"],
  ]);
  assertEquals(parseLlmsTxt("# Nothing listed\n\n> Just a summary.\n", FILE), []);
});

Deno.test("parseLlmsTxt: links with titles, <destinations>, brackets in their text; images passed over", () => {
  const base = new URL("https://docs.test/llms.txt");
  const text = [
    "- ![logo](/logo.png) [Images first](/a.md)",
    '- [Titled](/b.md "The title") and [later](/x.md)',
    "- [Spaced]( <c d.md> 'title' )",
    "- [With [brackets] inside](/e.md)",
    "- [![badge](/badge.svg)](/f.md)",
    "- [Not closed](/g.md",
    "- [Unbalanced [ text](/h.md)",
    "- [Odd <](<i.md)",
  ].join("\n");
  assertEquals(parseLlmsTxt(text, base).map(({ url, title }) => [url.pathname, title]), [
    ["/a.md", "Images first"],
    ["/b.md", "Titled"],
    ["/c%20d.md", "Spaced"],
    ["/e.md", "With [brackets] inside"],
    ["/f.md", "![badge](/badge.svg)"],
    // The first [ opens no link (its bracket runs to the link's ]); the second does.
    ["/h.md", "text"],
    ["/%3Ci.md", "Odd <"],
  ]);
});

Deno.test("parseLlmsTxt: lines of 2 MB of [, [](, or spaces in a link are read in linear time", () => {
  // As one regular expression with matchAll, each [ scanned on to the line's end: 1.2 s for 40,000 [s and
  // minutes for a line of [](s (quadratic); a test run of the old code hangs here, which counts as failing.
  // No duration is asserted.
  const base = new URL("https://docs.test/llms.txt");
  assertEquals(parseLlmsTxt(`- ${"[".repeat(2_000_000)}`, base), []);
  assertEquals(parseLlmsTxt(`- ${"[](".repeat(700_000)}`, base), []);
  assertEquals(parseLlmsTxt(`- ${"[a](<b".repeat(400_000)}`, base), []);
  const spaces = " ".repeat(2_000_000);
  assertEquals(
    parseLlmsTxt(`- [a](/b.md "t${spaces}\n- [c](${spaces}/d.md${spaces})`, base).map(({ url }) =>
      url.pathname
    ),
    ["/d.md"],
  );
});

Deno.test("splitLlmsFull: pages under H1s with a Source line (Mintlify), code headings ignored", () => {
  const text = [
    "# Quickstart",
    "Source: https://docs.test/docs/quickstart",
    "",
    "Start here.",
    "",
    "## Install",
    "",
    "```sh",
    "# not a heading, a shell comment",
    "```",
    "",
    "# Authentication",
    "",
    "URL: /docs/auth",
    "",
    "Use tokens.",
  ].join("\n");
  assertEquals(pagesOf(text), [
    [
      "Quickstart",
      "https://docs.test/docs/quickstart",
      "# Quickstart\n\nStart here.\n\n## Install\n\n```sh\n# not a heading, a shell comment\n```",
    ],
    ["Authentication", "https://docs.test/docs/auth", "# Authentication\n\n\nUse tokens."],
  ]);
});

Deno.test("splitLlmsFull: a site H1 over H2 pages split by rules (Docusaurus); the intro a page of its own", () => {
  const text = [
    "# Widget Docs",
    "",
    "> Widgets for everyone.",
    "",
    "This file holds all the documentation.",
    "",
    "## Intro",
    "",
    "Intro text.",
    "",
    "---",
    "",
    "## Guide",
    "",
    "Guide text.",
    "",
    "### Details",
    "",
    "More.",
    "",
    "## Guide",
    "",
    "A second page of the same title.",
  ].join("\n");
  assertEquals(pagesOf(text), [
    [
      "Widget Docs",
      `${FILE.href}#widget-docs`,
      "# Widget Docs\n\n> Widgets for everyone.\n\nThis file holds all the documentation.",
    ],
    ["Intro", `${FILE.href}#intro`, "## Intro\n\nIntro text."],
    ["Guide", `${FILE.href}#guide`, "## Guide\n\nGuide text.\n\n### Details\n\nMore."],
    ["Guide", `${FILE.href}#guide-2`, "## Guide\n\nA second page of the same title."],
  ]);
  // A heading alone above the pages says nothing: no page of its own.
  assertEquals(pagesOf("# Widget Docs\n\n## A\n\nalpha\n\n## B\n\nbravo").map(([title]) => title), [
    "A",
    "B",
  ]);
});

Deno.test("splitLlmsFull: pages opening with front matter naming their url (VitePress), rules between", () => {
  const text = [
    "---",
    "url: /guide/start.md",
    "description: How to start",
    "---",
    "# Getting started",
    "",
    "Begin.",
    "",
    "---",
    "",
    "---",
    "url: /guide/config.md",
    "title: Configuration",
    "---",
    "# Config",
    "",
    "Set things.",
  ].join("\n");
  assertEquals(pagesOf(text), [
    [
      "Getting started",
      "https://docs.test/guide/start.md",
      "---\nurl: /guide/start.md\ndescription: How to start\n---\n# Getting started\n\nBegin.",
    ],
    [
      "Configuration",
      "https://docs.test/guide/config.md",
      "---\nurl: /guide/config.md\ntitle: Configuration\n---\n# Config\n\nSet things.",
    ],
  ]);
});

Deno.test("splitLlmsFull: a path in parentheses ends a heading (fumadocs); other parentheses are its title", () => {
  const text =
    "# Intro (/docs/intro)\n\nalpha\n\n# Hooks (beta)\n\nbravo\n\n# API (https://docs.test/api)\n\ncharlie";
  assertEquals(pagesOf(text).map(([title, url]) => [title, url]), [
    ["Intro", "https://docs.test/docs/intro"],
    ["Hooks (beta)", `${FILE.href}#hooks-beta`],
    ["API", "https://docs.test/api"],
  ]);
});

Deno.test("splitLlmsFull: one page, or none; CRLF and a byte-order mark read as any text", () => {
  // No level repeats: the file is one page, under its first heading.
  assertEquals(pagesOf("\uFEFF# Only\r\n\r\nOne page.\r\n\r\n## Part\r\n\r\nText."), [
    ["Only", `${FILE.href}#only`, "# Only\n\nOne page.\n\n## Part\n\nText."],
  ]);
  // No heading, no page: a site's "not found" text is no llms-full.txt.
  assertEquals(pagesOf("Not found. Try the home page."), []);
  assertEquals(pagesOf("\n\n"), []);
});
