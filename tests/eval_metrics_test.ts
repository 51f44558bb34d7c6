/** The retrieval evaluation's arithmetic (tests/eval/run.ts), on made-up ranks: no corpus needed. */
import { deepStrictEqual as assertEquals, throws } from "node:assert/strict";
import { distinctPages, metrics, pageOf, pageRank, TOP } from "./eval/run.ts";

Deno.test("pageRank: pages count once, in the order they first appear; any acceptable page answers", () => {
  const pages = ["a.md", "a.md", "b.md", "a.md", "c.md", "c.md", "d.md"];
  assertEquals(distinctPages(pages), ["a.md", "b.md", "c.md", "d.md"]);
  assertEquals(pageRank(pages, new Set(["a.md"])), 1);
  // Third passage, second page.
  assertEquals(pageRank(pages, new Set(["b.md"])), 2);
  assertEquals(pageRank(pages, new Set(["d.md"])), 4);
  assertEquals(pageRank(pages, new Set(["d.md", "c.md"])), 3);
  assertEquals(pageRank(pages, new Set(["z.md"])), undefined);
  assertEquals(pageRank([], new Set(["a.md"])), undefined);
});

Deno.test("metrics: recall at 1, 5 and 10, and MRR with not-found as 0", () => {
  const m = metrics([1, 2, 5, 6, 10, undefined, 1, 3]);
  assertEquals(m.questions, 8);
  assertEquals(m.recallAt1, 2 / 8);
  assertEquals(m.recallAt5, 5 / 8);
  assertEquals(m.recallAt10, 7 / 8);
  assertEquals(m.mrr, (1 + 1 / 2 + 1 / 5 + 1 / 6 + 1 / 10 + 0 + 1 + 1 / 3) / 8);
});

Deno.test(`metrics: a rank beyond ${TOP} counts as not found; all first is 1 everywhere`, () => {
  assertEquals(metrics([TOP + 1, undefined]), {
    questions: 2,
    recallAt1: 0,
    recallAt5: 0,
    recallAt10: 0,
    mrr: 0,
  });
  assertEquals(metrics([1, 1, 1]), { questions: 3, recallAt1: 1, recallAt5: 1, recallAt10: 1, mrr: 1 });
});

Deno.test("metrics: no questions is an error, not a score of 0", () => {
  throws(() => metrics([]), RangeError);
});

Deno.test("pageOf: relative to the corpus root with / separators; other sources as they are", () => {
  assertEquals(pageOf("/docs/npm/commands/npm-ci.md", "/docs/npm"), "commands/npm-ci.md");
  assertEquals(pageOf("/docs/npm/commands/npm-ci.md", "/docs/npm/"), "commands/npm-ci.md");
  assertEquals(pageOf("C:\\docs\\pg\\sql-copy.html", "C:\\docs\\pg"), "sql-copy.html");
  assertEquals(pageOf("/docs/npmx/a.md", "/docs/npm"), "/docs/npmx/a.md");
  assertEquals(pageOf("https://example.com/a", "/docs/npm"), "https://example.com/a");
});
