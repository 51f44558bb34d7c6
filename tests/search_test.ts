/**
 * What makes the docs search rank pages rather than words: each page's one-line summary, one file per page,
 * one result per page, and several phrasings of a question fused into one ranking.
 */
import assert, { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { readHtml } from "../lib/docs/html.ts";
import { fuseRankings, type Result, searchIndexes, searchPhrasings } from "../lib/docs/search.ts";
import { chunkDocument, onePerPage } from "../lib/docs/sources.ts";
import { DocsIndex } from "../lib/docs/store.ts";
import { indexFile } from "../lib/docs/indexes.ts";
import { firstSentence, frontMatter, pageSummary, SUMMARY_CHARS } from "../lib/docs/summary.ts";
import { machine } from "./command_context.ts";

const bytes = (text: string) => new TextEncoder().encode(text);

Deno.test("frontMatter: plain key: value lines, quotes taken off; lists, maps and block scalars are no value", () => {
  const { fields, body } = frontMatter(
    "---\ntitle: npm-ci\nsection: 1\ndescription: 'Clean install a project'\ntags: [a, b]\nlong: >\n  x\n---\n\n### Synopsis\n",
  );
  assertEquals(fields, { title: "npm-ci", section: "1", description: "Clean install a project" });
  assertEquals(body, "\n### Synopsis\n");
  // Only at the very start: a rule further down is Markdown.
  assertEquals(frontMatter("# T\n\n---\ndescription: no\n---\n").fields, {});
  assertEquals(frontMatter("---\ntitle: x\n").fields, {}, "an unclosed block is text");
});

Deno.test("frontMatter: values trimmed of spaces and tabs; a value of 2 MB is read in linear time", () => {
  assertEquals(
    frontMatter('---\ntitle:\t  Spaced \t\nquoted:  "q"  \nempty:  \nnone:\nkey:value\n---\n').fields,
    { title: "Spaced", quoted: "q" },
  );
  // As /^([A-Za-z_][\w-]*):[ \t]+(.+?)[ \t]*$/ this line took minutes (1.4 s at 40,000 spaces, quadratic); a test
  // run of the old code hangs here, which counts as failing. No duration is asserted.
  const spaces = " ".repeat(2_000_000);
  assertEquals(frontMatter(`---\ntitle: b${spaces}c${spaces}\n---\n`).fields, { title: `b${spaces}c` });
});

Deno.test("firstSentence: the first prose paragraph's first sentence, past headings, code, lists and label lines", () => {
  const text = [
    "# hashlib — Secure hashes",
    "Source code: Lib/hashlib.py",
    "Note",
    "```\ncode. Not prose at all here.\n\nStill code, with a blank line.\n```",
    "- a list item that is long enough to be prose.",
    "This module implements a common interface to many hash algorithms, e.g. SHA-256. Included are more.",
  ].join("\n\n");
  assertEquals(
    firstSentence(text),
    "This module implements a common interface to many hash algorithms, e.g. SHA-256.",
  );
  assertEquals(
    firstSentence("CREATE INDEX — define a new index\n\n## Synopsis"),
    "CREATE INDEX — define a new index",
  );
  assertEquals(firstSentence("# Only a heading\n\nToo short."), undefined);
  const long = `${"word ".repeat(200)}end.`;
  assertEquals(firstSentence(long)!.length, SUMMARY_CHARS);
});

Deno.test("pageSummary: the page's own description first, else its first sentence, one line", () => {
  assertEquals(
    pageSummary("  Clean   install\na project ", "Other text that is a sentence here."),
    "Clean install a project",
  );
  assertEquals(
    pageSummary(undefined, "The first sentence is the summary. Not this."),
    "The first sentence is the summary.",
  );
  assertEquals(pageSummary("", "# Title"), "");
});

Deno.test("readHtml and chunkDocument: meta description, else og:description, is the page's summary", () => {
  assertEquals(
    readHtml('<head><meta name="description" content=" Tune  the planner "><title>T</title></head><p>x</p>')
      .description,
    "Tune the planner",
  );
  assertEquals(
    readHtml('<head><meta property="og:description" content="OG text"></head>').description,
    "OG text",
  );
  assertEquals(readHtml('<head><meta name="description" content=""></head>').description, undefined);
  const html = chunkDocument(
    bytes("<title>Q</title><main><h1>Q</h1><p>Queries are planned by the planner here.</p></main>"),
    "html",
    "q.html",
  );
  ok(!("skipped" in html));
  assertEquals(html.summary, "Queries are planned by the planner here.");
  const markdown = chunkDocument(
    bytes("---\ntitle: npm-ci\ndescription: Clean install a project\n---\n\n### Synopsis\n\nnpm ci\n"),
    "markdown",
    "npm-ci.md",
  );
  ok(!("skipped" in markdown));
  assertEquals([markdown.title, markdown.summary], ["npm-ci", "Clean install a project"]);
  // Front matter is metadata: no passage holds its lines.
  ok(markdown.chunks.every((chunk) => !chunk.text.includes("description:")), JSON.stringify(markdown.chunks));
});

Deno.test("chunkDocument: the digest is of the text as read, so the same page with other furniture is the same", () => {
  const a = chunkDocument(
    bytes("<nav>Site A menu</nav><main><h1>P</h1><p>Same words.</p></main>"),
    "html",
    "a.html",
  );
  const b = chunkDocument(
    bytes("<nav>Mirror menu</nav><main><h1>P</h1><p>Same words.</p></main>"),
    "html",
    "b.html",
  );
  const c = chunkDocument(bytes("<main><h1>P</h1><p>Other words.</p></main>"), "html", "c.html");
  ok(!("skipped" in a) && !("skipped" in b) && !("skipped" in c));
  assertEquals(a.digest, b.digest);
  ok(a.digest !== c.digest);
});

Deno.test("onePerPage: one page in several formats is read once, in its best-structured format", () => {
  const files = [
    "/d/intro.txt",
    "/d/intro.html",
    "/d/api.rst.txt",
    "/d/api.rst",
    "/d/x.md",
    "/d/x.html",
    "/d/sub/intro.txt",
    "/d/solo.txt",
  ]
    .map((path) => ({ path }));
  assertEquals(onePerPage(files).map((file) => file.path), [
    "/d/intro.html",
    "/d/api.rst",
    "/d/x.md",
    "/d/sub/intro.txt",
    "/d/solo.txt",
  ]);
});

const result = (source: string, index = "docs"): Result => ({
  index,
  source,
  title: source,
  trail: [],
  snippet: `from ${source}`,
  score: -1,
  passage: 0,
});

Deno.test("fuseRankings: pages several phrasings find rise; each page once, shown by its best-ranked passage", () => {
  const first = ["a", "b", "c"].map((page) => result(page));
  const second = [result("c"), { ...result("b"), snippet: "b, better" }, result("d")];
  const fused = fuseRankings([first, second], 10);
  // b: ranks 2 and 2; c: 3 and 1 (same sum, c's best rank is higher); a: 1 alone; d: 3 alone.
  assertEquals(fused.map((r) => r.source), ["c", "b", "a", "d"]);
  assertEquals(fused.find((r) => r.source === "b")!.snippet, "from b", "ties keep the first list's passage");
  assertEquals(fuseRankings([first, second], 2).map((r) => r.source), ["c", "b"]);
  // The same path in two indexes is two pages.
  assertEquals(fuseRankings([[result("a", "x")], [result("a", "y")]], 5).length, 2);
  assertEquals(fuseRankings([first], 5), first);
});

Deno.test("searchIndexes: one result per page; a passage another result already shows is passed over; phrasings fuse", async () => {
  await using m = await machine();
  const ctx = m.context();
  await Deno.mkdir(`${m.state}/indexes`, { recursive: true });
  const index = DocsIndex.open(indexFile(ctx, "py"));
  const put = (source: string, title: string, texts: string[], summary = "") =>
    index.put(source, {
      title,
      summary,
      stamp: { size: 1, version: "1" },
      chunks: texts.map((text, i) => ({ title, trail: [`Part ${i}`], text })),
      digest: source,
    });
  put("/gzip.html", "gzip — Support for gzip files", [
    "Open a gzip file for reading.",
    "Read a gzip file line by line.",
  ]);
  put("/tarfile.html", "tarfile — Read and write tar archive files", [
    "A tar file can be gzip compressed.",
  ]);
  // A single-page edition: the module pages' passages again, under another title.
  put("/all.html", "The Python Standard Library", [
    "Open a gzip file for reading.",
    "Read a gzip file line by line.",
  ]);
  put("/atexit.html", "atexit — Exit handlers", [
    "Functions registered are run at normal interpreter termination.",
  ], "Register cleanup functions to run when the program exits.");
  index.close();

  const pages = searchIndexes(ctx, ["py"], "gzip file", 10).map((r) => r.source);
  assertEquals(pages, [...new Set(pages)], "each page once");
  assertEquals(pages[0], "/gzip.html");
  ok(!pages.includes("/all.html"), `the edition repeats the module's passages only: ${pages}`);
  // The summary answers for the page: no passage says "cleanup" or "exits".
  assertEquals(
    searchIndexes(ctx, ["py"], "run cleanup code when my program exits", 3)[0].source,
    "/atexit.html",
  );
  const fused = searchPhrasings(ctx, ["py"], ["cleanup when the program exits", "tar archive"], 5).map((r) =>
    r.source
  );
  ok(fused.includes("/atexit.html") && fused.includes("/tarfile.html"), String(fused));
  assertEquals(searchPhrasings(ctx, ["py"], ["gzip file"], 10).map((r) => r.source), pages);
});

Deno.test("searchIndexes: an index whose passages cannot be searched is named and skipped, the others still answer; alone, it is the error", async () => {
  await using m = await machine();
  const ctx = m.context();
  await Deno.mkdir(`${m.state}/indexes`, { recursive: true });
  for (const name of ["good", "plain", "positionless"]) {
    const index = DocsIndex.open(indexFile(ctx, name));
    index.put(`${name}.md`, {
      title: "Apple",
      summary: "",
      stamp: { size: 9, version: "1" },
      digest: name,
      chunks: [{ title: "Apple", trail: [], text: "apple pie" }],
    });
    index.close();
  }
  // Tables that open, and answer no search: what a crafted file could have left before imports checked them.
  const broken = {
    plain: "CREATE TABLE chunks (title, trail, summary, body, document, chunks)",
    positionless:
      "CREATE VIRTUAL TABLE chunks USING fts5(title, trail, summary, body, document UNINDEXED, detail=none)",
  };
  for (const [name, chunks] of Object.entries(broken)) {
    const db = new DatabaseSync(indexFile(ctx, name));
    db.exec(`DROP TABLE chunks; ${chunks};`);
    db.exec(
      "INSERT INTO chunks (title, trail, summary, body, document) VALUES ('Apple', '', '', 'apple pie', 1)",
    );
    db.close();
  }
  const told: string[][] = [];
  const results = searchIndexes(ctx, ["good", "plain", "positionless"], "apple", 5, (problem, fix) => {
    told.push([problem, fix]);
  });
  assertEquals(results.map((result) => [result.index, result.source, result.snippet]), [
    ["good", "good.md", "**apple** pie"],
  ]);
  assertEquals(told, [
    [
      "the index plain cannot be searched: unable to use function MATCH in the requested context",
      "docsearch-hook index remove plain, then index add it again",
    ],
    [
      "the index positionless cannot be searched: fts5: column queries are not supported (detail=none)",
      "docsearch-hook index remove positionless, then index add it again",
    ],
  ]);
  // Two asked for, one that does not open and one that cannot be searched: both named, no error.
  await Deno.writeTextFile(indexFile(ctx, "garbage"), "not an SQLite file at all, as far as it goes");
  const both: string[] = [];
  assertEquals(searchIndexes(ctx, ["garbage", "plain"], "apple", 5, (problem) => both.push(problem)), []);
  assertEquals(both.length, 2, both.join("\n"));
  assertEquals(
    both[1],
    "the index plain cannot be searched: unable to use function MATCH in the requested context",
  );
  assert.throws(() => searchIndexes(ctx, ["plain"], "apple", 5), {
    name: "Problem",
    message: "the index plain cannot be searched: unable to use function MATCH in the requested context",
    hint: "docsearch-hook index remove plain, then index add it again",
  });
});
