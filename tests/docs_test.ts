/** The local docs index as pure parts: chunking by headings, query building, and the FTS5 store. */
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { CHUNK_CHARS, chunkMarkdown, chunkPlainText } from "../lib/docs/chunk.ts";
import { matchExpression, quoted, terms } from "../lib/docs/query.ts";
import { DocsIndex } from "../lib/docs/store.ts";

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
  assertEquals(matchExpression(terms('NEAR( "AND * -x: c++ NOT'), "all"), '"near" "x" "c" "not"');
  assertEquals(matchExpression(terms("how do I configure runners"), "any"), '"configure" OR "runners"');
  assertEquals(terms("the and"), ["the", "and"]);
  assertEquals(terms("  ¿? "), []);
  assertEquals(quoted('say "hi"'), '"say ""hi"""');
  assertEquals(terms("Größe GRÖSSE größe"), ["größe", "grösse"]);
});

Deno.test("DocsIndex: put, search with weights and snippets, replace, remove, stamps", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const index = DocsIndex.open(`${dir}/x.db`);
    index.put("/docs/runners.md", "Runners", { size: 10, version: "1" }, chunkMarkdown(PAGE, "runners.md"));
    index.put("/docs/other.md", "Other", { size: 5, version: "2" }, [
      { title: "Other", trail: [], text: "This page mentions executors once, among other words." },
    ]);
    const hits = index.search(matchExpression(["executors"], "all"), 5);
    assertEquals(hits.map((hit) => hit.source), ["/docs/runners.md", "/docs/other.md"]);
    assertEquals(hits[0].trail, ["Configure", "Executors"]);
    const snippet = index.snippet(matchExpression(["executors"], "all"), hits[0].passage);
    ok(snippet.includes("[executors]") || snippet.includes("[Executors]"), snippet);
    assertEquals(index.holding('"executors"'), new Set(hits.map((hit) => hit.passage)));
    // Stemming: "configured" finds "Configure".
    ok(index.search(matchExpression(["configured"], "all"), 5).length > 0);
    assertEquals(index.stamps().get("/docs/other.md"), { size: 5, version: "2" });

    index.put("/docs/other.md", "Other", { size: 6, version: "3" }, [{
      title: "Other",
      trail: [],
      text: "Nothing here.",
    }]);
    assertEquals(index.search(matchExpression(["executors"], "all"), 5).map((hit) => hit.source), [
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
    writer.put("/docs/a.md", "A", { size: 1, version: "1" }, [{
      title: "A",
      trail: [],
      text: "old cache text",
    }]);
    // The writer is halfway through a replacement: its rows are deleted, the new ones not yet committed.
    writer.db.exec("BEGIN IMMEDIATE");
    writer.db.exec("DELETE FROM chunks");
    writer.db.exec("INSERT INTO chunks (title, trail, body, document) VALUES ('A', '', 'new cache text', 1)");
    assertEquals(reader.search(matchExpression(["old"], "all"), 5).map((hit) => hit.source), ["/docs/a.md"]);
    assertEquals(reader.search(matchExpression(["new"], "all"), 5), []);
    writer.db.exec("COMMIT");
    assertEquals(reader.search(matchExpression(["old"], "all"), 5), []);
    assertEquals(reader.search(matchExpression(["new"], "all"), 5).map((hit) => hit.source), ["/docs/a.md"]);
    writer.close();
    reader.close();
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
