/**
 * `index import` installs only an index whose tables are the ones docsearch-hook writes: a crafted one that
 * passes SQLite's own checks (a generated column, a plain passages table, FTS5 without positions) would
 * exhaust or break every later search.
 */
import { deepStrictEqual as assertEquals, match } from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { main } from "../lib/cli/commands.ts";
import { packIndex } from "../lib/docs/share.ts";
import { DocsIndex } from "../lib/docs/store.ts";
import { machine } from "./command_context.ts";
import { exists } from "./helpers.ts";

const DOCUMENTS = `CREATE TABLE documents (id INTEGER PRIMARY KEY, src0 TEXT,
  source TEXT GENERATED ALWAYS AS (src0 || printf('%.*c', 10, 'x')) VIRTUAL, title TEXT NOT NULL,
  size INTEGER NOT NULL, version TEXT NOT NULL, validator TEXT, links TEXT, summary TEXT NOT NULL DEFAULT '',
  indexed_summary TEXT NOT NULL DEFAULT '', digest TEXT NOT NULL DEFAULT '');
  INSERT INTO documents (id, src0, title, size, version) VALUES (1, 'a.md', 'Apple', 1, '1');`;
const CHUNKS =
  "title, trail, summary, body, document UNINDEXED, tokenize = 'porter unicode61 remove_diacritics 2'";

/** Each crafted index: what replaces an honest index's tables, and the tables the refusal names. */
const CRAFTED: Record<string, { sql: string; named: string }> = {
  "a generated column for the source (one made it 900 MB long when read)": {
    sql: `DROP TABLE documents; ${DOCUMENTS}`,
    // A generated column cannot be UNIQUE: the index that enforces it is missing too.
    named: "documents, sqlite_autoindex_documents_1",
  },
  "a plain table for the passages": {
    sql: `DROP TABLE chunks; CREATE TABLE chunks (title, trail, summary, body, document, chunks);
      INSERT INTO chunks VALUES ('Apple', '', '', 'apple pie', 1, NULL);`,
    named: "chunks, chunks_config, chunks_content, chunks_data, chunks_docsize, chunks_idx",
  },
  "FTS5 without positions (detail=none)": {
    sql: `DROP TABLE chunks; CREATE VIRTUAL TABLE chunks USING fts5(${CHUNKS}, detail=none);
      INSERT INTO chunks (title, trail, summary, body, document) VALUES ('Apple', '', '', 'apple pie', 1);`,
    named: "chunks",
  },
};

/** An honest index of one page, as an export holds it, after `change` ran on it. */
async function exportOf(dir: string, change: string): Promise<Uint8Array> {
  const file = `${dir}/crafted.db`;
  await Deno.remove(file).catch(() => {});
  const index = DocsIndex.open(file);
  index.put(`${dir}/a.md`, {
    title: "Apple",
    summary: "",
    stamp: { size: 9, version: "1" },
    digest: "d",
    chunks: [{ title: "Apple", trail: [], text: "apple pie" }],
  });
  index.close();
  const db = new DatabaseSync(file);
  db.exec("PRAGMA journal_mode = DELETE");
  db.exec(change);
  db.close();
  return await packIndex(
    { name: "crafted", documents: 1, chunks: 1, writtenBy: "0.1.0" },
    await Deno.readFile(file),
  );
}

Deno.test("index import refuses an index whose tables are not docsearch-hook's, and installs nothing", async () => {
  await using m = await machine();
  for (const [what, { sql, named }] of Object.entries(CRAFTED)) {
    await Deno.writeFile(`${m.project}/crafted.dsi`, await exportOf(m.home, sql));
    const ctx = m.context();
    assertEquals(await main(["index", "import", "crafted.dsi", "--no-config"], ctx), 1, what);
    assertEquals(
      ctx.err.join("\n").split("\n")[0],
      `docsearch-hook index: crafted.dsi was not imported: its tables are not the ones docsearch-hook writes (${named})`,
      what,
    );
    assertEquals(ctx.out, [], what);
    assertEquals(await Array.fromAsync(Deno.readDir(`${m.state}/indexes`)), [], what);
    assertEquals(await exists(`${m.home}/.claude/hooks/docsearch-config.json`), false, what);
  }
});

Deno.test("index import takes an index exported before crawls kept a failure's kind, and searches it", async () => {
  await using m = await machine();
  await Deno.writeFile(
    `${m.project}/older.dsi`,
    await exportOf(m.home, "ALTER TABLE crawl DROP COLUMN failure"),
  );
  const ctx = m.context();
  assertEquals(await main(["index", "import", "older.dsi", "--no-config"], ctx), 0, ctx.err.join("\n"));
  match(ctx.out[0], /^Imported the index crafted from older\.dsi: 1 document, 1 chunk\.$/);
  const search = m.context();
  assertEquals(await main(["search", "crafted", "apple"], search), 0, search.err.join("\n"));
  match(search.out.join("\n"), /^1\. Apple {2}\(crafted\)\n.*\/a\.md\n {3}\*\*apple\*\* pie/);
});
