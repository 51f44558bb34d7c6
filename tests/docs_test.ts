/** The local docs index as pure parts: chunking by headings, query building, and the FTS5 store. */
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { atxHeading, CHUNK_CHARS, chunkMarkdown, chunkPlainText } from "../lib/docs/chunk.ts";
import { anyOf, quoted, termExpressions, terms } from "../lib/docs/query.ts";
import { DocsIndex, type DocumentStamp, REPEATED_SUMMARY, type StoredDocument } from "../lib/docs/store.ts";
import type { Chunk } from "../lib/docs/chunk.ts";
import { builtInIndex, reachableDatabases } from "../lib/docs/built_in.ts";
import { database } from "./helpers.ts";

/** A document as `put` takes it; its digest is its title and version, distinct unless a test wants a copy. */
const stored = (title: string, stamp: DocumentStamp, chunks: Chunk[], summary = ""): StoredDocument => ({
  title,
  summary,
  stamp,
  chunks,
  digest: `${title}@${stamp.version}`,
});

const PAGE = `# Runners

Intro about runners.

## Install

### Linux

Use the package \`gitlab-runner\`.

\`\`\`sh
# not a heading: a comment in code
apt install gitlab-runner
\`\`\`

## Configure
### Executors
Docker and shell executors.
`;

Deno.test("chunkMarkdown: sections with their heading trail; headings in code fences are code", () => {
  const chunks = chunkMarkdown(PAGE, "runners.md");
  assertEquals(chunks.map((chunk) => [chunk.title, chunk.trail, chunk.text.split("\n")[0]]), [
    ["Runners", [], "Intro about runners."],
    ["Runners", ["Install", "Linux"], "Use the package `gitlab-runner`."],
    ["Runners", ["Configure", "Executors"], "Docker and shell executors."],
  ]);
  ok(chunks[1].text.includes("# not a heading: a comment in code"));
});

Deno.test("atxHeading: level and text, closing #s and spaces dropped; no text or 7 #s is no heading", () => {
  const cases: [string, { level: number; text: string } | null][] = [
    ["# Title", { level: 1, text: "Title" }],
    ["###\tTabbed  ##  ", { level: 3, text: "Tabbed" }],
    ["## C# and F#", { level: 2, text: "C# and F" }],
    ["## a ## b ##", { level: 2, text: "a ## b" }],
    ["###### Six", { level: 6, text: "Six" }],
    ["####### Seven", null],
    ["#NoSpace", null],
    ["# ", null],
    ["#  ", { level: 1, text: "" }],
    ["# ##", { level: 1, text: "#" }],
    [" # Indented", null],
    ["# a\rb", null],
  ];
  for (const [line, expected] of cases) assertEquals(atxHeading(line), expected, JSON.stringify(line));
});

Deno.test("chunkMarkdown: a heading line of 2 MB is read in linear time", () => {
  // As /^(#{1,6})[ \t]+(.+?)[ \t#]*$/ this line took minutes (1.7 s at 40,000 spaces, quadratic); a test run of
  // the old code hangs here, which counts as failing. No duration is asserted.
  const spaces = " ".repeat(2_000_000);
  assertEquals(chunkMarkdown(`# a${spaces}b ##${spaces}\nText.`, "x.md"), [
    { title: `a${spaces}b`, trail: [], text: "Text." },
  ]);
});

Deno.test("chunkMarkdown: no H1 means the file name is the title; long sections are cut near CHUNK_CHARS", () => {
  const paragraph = "word ".repeat(100).trim();
  const text = `## Part\n\n${Array.from({ length: 10 }, () => paragraph).join("\n\n")}`;
  const chunks = chunkMarkdown(text, "guide.md");
  ok(chunks.length > 1);
  for (const chunk of chunks) {
    assertEquals([chunk.title, chunk.trail], ["guide.md", ["Part"]]);
    ok(chunk.text.length <= CHUNK_CHARS, String(chunk.text.length));
  }
  assertEquals(
    chunks.map((chunk) => chunk.text).join("\n\n"),
    Array.from({ length: 10 }, () => paragraph).join("\n\n"),
  );
  // One paragraph longer than the limit is cut at the limit, nothing lost.
  const long = "x".repeat(CHUNK_CHARS * 2 + 10);
  assertEquals(chunkPlainText(long, "a.txt").map((chunk) => chunk.text).join(""), long);
});

Deno.test("query: every word quoted, so FTS5 syntax in a query is plain text; stopwords only as a fallback", () => {
  const none = () => false;
  assertEquals(
    anyOf(termExpressions('NEAR( "AND * -x: c++ NOT', none)),
    '("near") OR ("x") OR ("c") OR ("not")',
  );
  assertEquals(anyOf(termExpressions("how do I configure runners", none)), '("configure") OR ("runners")');
  assertEquals(terms("the and"), ["the", "and"]);
  assertEquals(terms("  ¿? "), []);
  assertEquals(quoted('say "hi"'), '"say ""hi"""');
  assertEquals(terms("Größe GRÖSSE größe"), ["größe", "grösse"]);
});

Deno.test("DocsIndex: put, search with weights and snippets, replace, remove, stamps", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const index = DocsIndex.open(`${dir}/x.db`);
    index.put(
      "/docs/runners.md",
      stored("Runners", { size: 10, version: "1" }, chunkMarkdown(PAGE, "runners.md")),
    );
    index.put(
      "/docs/other.md",
      stored("Other", { size: 5, version: "2" }, [
        { title: "Other", trail: [], text: "This page mentions executors once, among other words." },
      ]),
    );
    const hits = index.search(quoted("executors"), 5);
    assertEquals(hits.map((hit) => hit.source), ["/docs/runners.md", "/docs/other.md"]);
    assertEquals(hits[0].trail, ["Configure", "Executors"]);
    const snippet = index.snippets(quoted("executors"), [hits[0].passage]).get(hits[0].passage)!;
    ok(snippet.includes("**executors**") || snippet.includes("**Executors**"), snippet);
    assertEquals(index.holding('"executors"'), new Set(hits.map((hit) => hit.passage)));
    // Stemming: "configured" finds "Configure".
    ok(index.search(quoted("configured"), 5).length > 0);
    assertEquals(index.stamps().get("/docs/other.md"), { size: 5, version: "2" });

    index.put(
      "/docs/other.md",
      stored("Other", { size: 6, version: "3" }, [{ title: "Other", trail: [], text: "Nothing here." }]),
    );
    assertEquals(index.search(quoted("executors"), 5).map((hit) => hit.source), [
      "/docs/runners.md",
    ]);
    index.remove("/docs/runners.md");
    assertEquals(index.counts(), { documents: 1, chunks: 1 });
    index.setMeta("root", "/docs");
    assertEquals(index.meta("root"), "/docs");
    index.close();
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("DocsIndex: a search while a document is being replaced sees the old page whole, then the new one", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const writer = DocsIndex.open(`${dir}/x.db`);
    const reader = DocsIndex.open(`${dir}/x.db`);
    writer.put(
      "/docs/a.md",
      stored("A", { size: 1, version: "1" }, [{ title: "A", trail: [], text: "old cache text" }]),
    );
    // The writer is halfway through a replacement: its rows are deleted, the new ones not yet committed.
    writer.db.exec("BEGIN IMMEDIATE");
    writer.db.exec("DELETE FROM chunks");
    writer.db.exec(
      "INSERT INTO chunks (title, trail, summary, body, document) VALUES ('A', '', '', 'new cache text', 1)",
    );
    assertEquals(reader.search(quoted("old"), 5).map((hit) => hit.source), ["/docs/a.md"]);
    assertEquals(reader.search(quoted("new"), 5), []);
    writer.db.exec("COMMIT");
    assertEquals(reader.search(quoted("old"), 5), []);
    assertEquals(reader.search(quoted("new"), 5).map((hit) => hit.source), ["/docs/a.md"]);
    writer.close();
    reader.close();
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("termExpressions: two words the index holds as one also match it, each keeping its own word", () => {
  const known = new Set(["timezone", "sha256"]);
  const isWord = (word: string) => known.has(word);
  assertEquals(termExpressions("set the time zone", isWord), [
    '"set"',
    '"time" OR "timezone"',
    '"zone" OR "timezone"',
  ]);
  assertEquals(termExpressions("SHA 256 of a file", isWord), [
    '"sha" OR "sha256"',
    '"256" OR "sha256"',
    '"file"',
  ]);
  // Not side by side in the query (a stopword between), or not a word of the index: no join.
  assertEquals(termExpressions("time of zone", isWord), ['"time"', '"zone"']);
  assertEquals(termExpressions("on line help", isWord), ['"line"', '"help"']);
  // A word repeated is asked once.
  assertEquals(termExpressions("zone zone time", isWord), ['"zone"', '"time"']);
});

Deno.test("DocsIndex: a summary shared by many pages is the site's, so their passages lose it; unshared again, it returns", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const index = DocsIndex.open(`${dir}/x.db`);
    const summaryOf = (source: string) =>
      (index.db.prepare(
        "SELECT chunks.summary AS s FROM chunks JOIN documents ON documents.id = chunks.document WHERE source = ?",
      ).get(source) as { s: string }).s;
    const page = (i: number, summary: string) =>
      index.put(
        `/p${i}`,
        stored(
          `P${i}`,
          { size: 1, version: "1" },
          [{ title: `P${i}`, trail: [], text: `page ${i}` }],
          summary,
        ),
      );
    page(0, "Acme docs: everything about Acme");
    page(1, "Acme docs: everything about Acme");
    page(2, "Install the agent");
    assertEquals(index.settleSummaries(), 0);
    assertEquals(summaryOf("/p0"), "Acme docs: everything about Acme");
    for (let i = 3; i < 3 + REPEATED_SUMMARY; i++) page(i, "Acme docs: everything about Acme");
    // Pages put once the summary was known to repeat never had it; the first ones lose it when settled.
    assertEquals(summaryOf("/p4"), "");
    assertEquals(index.settleSummaries(), 2);
    assertEquals([summaryOf("/p0"), summaryOf("/p1"), summaryOf("/p2")], ["", "", "Install the agent"]);
    ok(index.search(quoted("everything"), 5).length === 0);
    for (let i = 1; i < 3 + REPEATED_SUMMARY; i++) if (i !== 2) index.remove(`/p${i}`);
    assertEquals(index.settleSummaries(), 1);
    assertEquals(summaryOf("/p0"), "Acme docs: everything about Acme");
    index.close();
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("DocsIndex: sameAs finds another document with the same text, never the document itself", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const index = DocsIndex.open(`${dir}/x.db`);
    index.put("/a.md", {
      ...stored("A", { size: 1, version: "1" }, [{ title: "A", trail: [], text: "a" }]),
      digest: "d1",
    });
    assertEquals(index.sameAs("/b.md", "d1"), "/a.md");
    assertEquals(index.sameAs("/a.md", "d1"), undefined);
    assertEquals(index.sameAs("/b.md", "d2"), undefined);
    // An empty document has no text to be the same as.
    assertEquals(index.sameAs("/b.md", ""), undefined);
    index.close();
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("DocsIndex: an index of the old layout (no summaries) is outdated until upgraded, which keeps its source", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const file = `${dir}/x.db`;
    const old = new DatabaseSync(file);
    old.exec(`CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
      CREATE TABLE documents (id INTEGER PRIMARY KEY, source TEXT NOT NULL UNIQUE, title TEXT NOT NULL,
        size INTEGER NOT NULL, version TEXT NOT NULL, validator TEXT, links TEXT);
      CREATE VIRTUAL TABLE chunks USING fts5(title, trail, body, document UNINDEXED);
      INSERT INTO meta VALUES ('root', '/docs');
      INSERT INTO documents (source, title, size, version) VALUES ('/docs/a.md', 'A', 1, '1');
      INSERT INTO chunks VALUES ('A', '', 'old text', 1);`);
    old.close();
    const index = DocsIndex.open(file);
    ok(index.isOutdated);
    // A crawl of the old layout, interrupted: after the upgrade its pages must all be asked for again.
    index.db.exec(
      "CREATE TABLE crawl (url TEXT PRIMARY KEY, state TEXT NOT NULL, note TEXT); INSERT INTO crawl VALUES ('https://x/a', 'done', NULL)",
    );
    index.setMeta("crawl", "running");
    index.upgrade();
    assertEquals(index.crawlCounts(), { queued: 0, done: 0, skipped: 0, failed: 0 });
    assertEquals(index.meta("crawl"), undefined);
    ok(!index.isOutdated);
    assertEquals(index.counts(), { documents: 0, chunks: 0 });
    assertEquals(index.meta("root"), "/docs");
    index.put(
      "/docs/a.md",
      stored("A", { size: 1, version: "2" }, [{ title: "A", trail: [], text: "new text" }], "About A"),
    );
    assertEquals(index.search(quoted("about"), 5).map((hit) => hit.source), ["/docs/a.md"]);
    index.close();
    const again = DocsIndex.open(file);
    ok(!again.isOutdated);
    again.close();
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("reachableDatabases: a built-in entry whose index file is missing is left out; other tools are kept", () => {
  const builtIn = (name: string, index?: string) =>
    database({
      name,
      mcpToolName: "mcp__docsearch__search",
      toolArgs: index === undefined ? undefined : { index, query: "{query}" },
    });
  const leann = database({ name: "gitlab", path: "/nowhere", mcpToolName: "mcp__leann__leann_search" });
  const looked: string[] = [];
  const exists = (name: string) => {
    looked.push(name);
    return name === "pg";
  };
  const kept = reachableDatabases(
    [builtIn("pg", "pg"), builtIn("npm", "npm"), builtIn("any", "all"), leann],
    exists,
  );
  assertEquals(kept.map((d) => d.name), ["pg", "any", "gitlab"]);
  // Only built-in entries naming one index cost a look.
  assertEquals(looked, ["pg", "npm"]);
  assertEquals(builtInIndex(leann), undefined);
});
