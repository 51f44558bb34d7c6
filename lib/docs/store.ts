/**
 * One documentation index: its own SQLite file with an FTS5 table (BM25 ranking, Porter stemming over
 * Unicode words) and a table of the documents it was built from, so a refresh re-reads only what changed.
 */
import { DatabaseSync, type StatementSync } from "node:sqlite";
import type { Chunk } from "./chunk.ts";
import { hash53 } from "../hash.ts";

const SCHEMA = `
  CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
  CREATE TABLE IF NOT EXISTS documents (
    id INTEGER PRIMARY KEY,
    source TEXT NOT NULL UNIQUE,
    title TEXT NOT NULL,
    size INTEGER NOT NULL,
    version TEXT NOT NULL,
    validator TEXT,
    links TEXT,
    summary TEXT NOT NULL DEFAULT '',
    indexed_summary TEXT NOT NULL DEFAULT '',
    digest TEXT NOT NULL DEFAULT ''
  );
  CREATE INDEX IF NOT EXISTS documents_summary ON documents (summary);
  CREATE INDEX IF NOT EXISTS documents_digest ON documents (digest);
  CREATE TABLE IF NOT EXISTS crawl (
    url TEXT PRIMARY KEY,
    state TEXT NOT NULL CHECK (state IN ('queued', 'done', 'skipped', 'failed')),
    note TEXT,
    failure TEXT
  );
  CREATE VIRTUAL TABLE IF NOT EXISTS chunks USING fts5(
    title, trail, summary, body, document UNINDEXED,
    tokenize = 'porter unicode61 remove_diacritics 2'
  );
`;

/** The layout of an index's tables, as `index export` records it: 2 since passages carry their page's summary. */
export const LAYOUT = 2;

/**
 * The chunks table of indexes built before pages had summaries lacks the column; its rows cannot be moved
 * over (FTS5 tables cannot gain a column), so such an index is read again from its source.
 */
const CURRENT_CHUNKS = /\bsummary\b/;

/**
 * Title, headings and the page's summary weigh more than body text: a page about a thing names it there.
 * The summary is about the whole page, so it weighs less for any one passage than the passage's headings.
 */
const WEIGHTS = "10.0, 3.0, 2.0, 1.0";
/** The body's column, for snippets. */
const BODY_COLUMN = 3;
/**
 * A summary shared by this many pages is the site's description, written on every page by its generator,
 * not what any one page is about: it is left out of their passages.
 */
export const REPEATED_SUMMARY = 3;

/** What a document was when read, to tell whether it changed. */
export interface DocumentStamp {
  size: number;
  /** A file's modification time; a page's content hash. */
  version: string;
  /** A page's ETag or Last-Modified, for a conditional request on refresh. */
  validator?: string;
}

/** A document as it is stored: what was read of it, and what tells whether it changed. */
export interface StoredDocument {
  title: string;
  /** The page's one-line summary (summary.ts); "" when it has none. */
  summary: string;
  stamp: DocumentStamp;
  chunks: readonly Chunk[];
  /** A crawled page's links, for a refresh that gets a 304. */
  links?: readonly string[];
  /** The content's hash: the same document under another name is indexed once. */
  digest: string;
}

/** `failed`: the site did not answer (5xx, timeout) even after retries; the next run asks again. */
export type CrawlState = "queued" | "done" | "skipped" | "failed";

export interface Hit {
  source: string;
  title: string;
  trail: string[];
  snippet: string;
  /** BM25 as FTS5 gives it: lower is better. */
  score: number;
  /** The passage's row, to ask more of it (see `holding`). */
  passage: number;
}

export class DocsIndex {
  /** Statements prepared once per open index: indexing a thousand pages would otherwise prepare each a thousand times. */
  private readonly statements = new Map<string, StatementSync>();

  private constructor(readonly db: DatabaseSync, private outdated: boolean) {}

  private sql(text: string): StatementSync {
    let statement = this.statements.get(text);
    if (statement === undefined) {
      statement = this.db.prepare(text);
      this.statements.set(text, statement);
    }
    return statement;
  }

  /** Opens or creates the index file; WAL lets searches run while an index is being written. */
  static open(file: string): DocsIndex {
    const db = new DatabaseSync(file, { timeout: 5000 });
    try {
      db.exec("PRAGMA journal_mode = WAL");
      const chunks = db.prepare("SELECT sql FROM sqlite_master WHERE name = 'chunks'").get() as
        | { sql: string }
        | undefined;
      const outdated = chunks !== undefined && !CURRENT_CHUNKS.test(chunks.sql);
      if (!outdated) db.exec(SCHEMA);
      return new DocsIndex(db, outdated);
    } catch (error) {
      db.close();
      throw error;
    }
  }

  /**
   * Opens an index file only to read it, writing nothing (no schema, no WAL switch): a file that is not an
   * index stays as it was. Throws when it is not an SQLite file or lacks an index's tables in the current
   * layout.
   */
  static openReadOnly(file: string): DocsIndex {
    const db = new DatabaseSync(file, { readOnly: true, timeout: 5000 });
    try {
      const tables = db.prepare("SELECT name, sql FROM sqlite_master WHERE type = 'table'").all() as {
        name: string;
        sql: string;
      }[];
      const chunks = tables.find((table) => table.name === "chunks");
      if (chunks === undefined || !tables.some((table) => table.name === "documents")) {
        throw new Error("it has no passages table: it is not a docsearch-hook index");
      }
      if (!CURRENT_CHUNKS.test(chunks.sql)) {
        throw new Error("it was built by an older version, in a layout searches no longer read");
      }
      return new DocsIndex(db, false);
    } catch (error) {
      db.close();
      throw error;
    }
  }

  /** Built by an older version, in a layout searches no longer read: `upgrade` it, then read its source again. */
  get isOutdated(): boolean {
    return this.outdated;
  }

  /**
   * An outdated index emptied into the current layout, its source kept: every document is then new to the
   * next add or refresh. Nothing happens to a current one.
   */
  upgrade(): void {
    if (this.outdated) {
      this.transaction(() => {
        this.db.exec("DROP TABLE chunks; DROP TABLE documents;");
        this.db.exec(SCHEMA);
        // The crawl's record goes too: pages it marked done have no documents now, and must be asked for again.
        this.db.exec("DELETE FROM crawl; DELETE FROM meta WHERE key = 'crawl';");
      });
      this.outdated = false;
    }
    // Crawls before failures were told apart from other skipped pages kept no kind of failure.
    const columns = this.db.prepare("SELECT name FROM pragma_table_info('crawl')").all() as {
      name: string;
    }[];
    if (!columns.some((column) => column.name === "failure")) {
      this.db.exec("ALTER TABLE crawl ADD COLUMN failure TEXT");
    }
  }

  close(): void {
    this.db.close();
  }

  meta(key: string): string | undefined {
    const row = this.sql("SELECT value FROM meta WHERE key = ?").get(key) as
      | { value: string }
      | undefined;
    return row?.value;
  }

  setMeta(key: string, value: string): void {
    this.sql("INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = ?")
      .run(key, value, value);
  }

  deleteMeta(key: string): void {
    this.sql("DELETE FROM meta WHERE key = ?").run(key);
  }

  /** What each indexed document was when it was read. */
  stamps(): Map<string, DocumentStamp> {
    const rows = this.sql("SELECT source, size, version, validator FROM documents")
      .all() as unknown as ({ source: string; validator: string | null } & DocumentStamp)[];
    return new Map(
      rows.map((row) => [row.source, {
        size: row.size,
        version: row.version,
        ...row.validator === null ? {} : { validator: row.validator },
      }]),
    );
  }

  /**
   * Replaces a document and its chunks in one transaction: a search sees the old one or the new one. The
   * summary goes into every chunk unless other pages already share it (see `settleSummaries`).
   */
  put(source: string, document: StoredDocument): void {
    const { title, summary, stamp, chunks, links = [], digest } = document;
    this.transaction(() => {
      this.deleteDocument(source);
      const shared = summary === "" ? 0 : (this.sql(
        "SELECT count(*) AS n FROM (SELECT 1 FROM documents WHERE summary = ? LIMIT ?)",
      ).get(summary, REPEATED_SUMMARY - 1) as { n: number }).n;
      const indexed = shared >= REPEATED_SUMMARY - 1 ? "" : summary;
      const { lastInsertRowid } = this.sql(
        `INSERT INTO documents (source, title, size, version, validator, links, summary, indexed_summary, digest)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ).run(
        source,
        title,
        stamp.size,
        stamp.version,
        stamp.validator ?? null,
        JSON.stringify(links),
        summary,
        indexed,
        digest,
      );
      const insert = this.sql(
        "INSERT INTO chunks (title, trail, summary, body, document) VALUES (?, ?, ?, ?, ?)",
      );
      for (const chunk of chunks) {
        insert.run(chunk.title, chunk.trail.join(" > "), indexed, chunk.text, lastInsertRowid);
      }
    });
  }

  /**
   * After a pass: pages whose summary turned out to be shared by `REPEATED_SUMMARY` or more pages lose it from
   * their chunks, and pages whose summary is no longer shared get it back. Only pages whose state changes are
   * rewritten, so a pass that changed nothing costs one query.
   */
  settleSummaries(): number {
    const changes = this.sql(
      `SELECT id, CASE WHEN summary IN (
                SELECT summary FROM documents WHERE summary != '' GROUP BY summary HAVING count(*) >= ?
              ) THEN '' ELSE summary END AS wanted
       FROM documents WHERE wanted != indexed_summary`,
    ).all(REPEATED_SUMMARY) as { id: number; wanted: string }[];
    if (changes.length === 0) return 0;
    this.transaction(() => {
      const chunks = this.sql("UPDATE chunks SET summary = ? WHERE document = ?");
      const documents = this.sql("UPDATE documents SET indexed_summary = ? WHERE id = ?");
      for (const { id, wanted } of changes) {
        chunks.run(wanted, id);
        documents.run(wanted, id);
      }
    });
    return changes.length;
  }

  /**
   * Another document with the same content, already indexed under another name; of those `among` takes only
   * (a pass that replaces the index's source compares with what it read, not with documents about to go).
   */
  sameAs(
    source: string,
    digest: string,
    among: (source: string) => boolean = () => true,
  ): string | undefined {
    if (digest === "") return undefined;
    const rows = this.sql("SELECT source FROM documents WHERE digest = ? AND source != ? ORDER BY id")
      .all(digest, source) as { source: string }[];
    return rows.find((row) => among(row.source))?.source;
  }

  remove(source: string): void {
    this.transaction(() => this.deleteDocument(source));
  }

  counts(): { documents: number; chunks: number } {
    const count = (table: string) =>
      (this.sql(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
    return { documents: count("documents"), chunks: count("chunks") };
  }

  /** How many passages hold the term (an FTS5 expression for it), up to `cap`: enough to tell none from some. */
  passagesWith(match: string, cap = 1): number {
    return (this.sql("SELECT count(*) AS n FROM (SELECT 1 FROM chunks WHERE chunks MATCH ? LIMIT ?)")
      .get(match, cap) as { n: number }).n;
  }

  /**
   * Best first, without snippets (they cost more than the ranking); `match` is an FTS5 expression (query.ts).
   * Ranked on row numbers alone, then the few best read: reading every match's columns before the sort cost
   * 2.6 times as much (16.0 ms against 6.2 on the PostgreSQL manual's 7,940 passages, 2026-11-27, 2 cores).
   */
  search(match: string, limit: number): Hit[] {
    const rows = this.sql(
      `SELECT best.passage AS passage, documents.source AS source, chunks.title AS title, chunks.trail AS trail,
              best.score AS score
       FROM (SELECT rowid AS passage, bm25(chunks, ${WEIGHTS}) AS score FROM chunks
             WHERE chunks MATCH ? ORDER BY score LIMIT ?) AS best
       JOIN chunks ON chunks.rowid = best.passage JOIN documents ON documents.id = chunks.document
       ORDER BY best.score`,
    ).all(match, limit) as unknown as (Omit<Hit, "trail" | "snippet"> & { trail: string })[];
    return rows.map((row) => ({
      ...row,
      snippet: "",
      trail: row.trail === "" ? [] : row.trail.split(" > "),
    }));
  }

  /**
   * Stands for the passage's text: two passages with the same key are the same text in two places. Asked of
   * the few passages a result list goes through, not of every candidate: reading a body costs.
   */
  textKey(passage: number): string {
    const row = this.sql("SELECT body FROM chunks WHERE rowid = CAST(? AS INTEGER)").get(passage) as
      | { body: string }
      | undefined;
    return row === undefined ? "" : hash53(row.body);
  }

  /** The passage's whole text; "" for a passage that is not there. */
  passageText(passage: number): string {
    const row = this.sql("SELECT body FROM chunks WHERE rowid = CAST(? AS INTEGER)").get(passage) as
      | { body: string }
      | undefined;
    return row?.body ?? "";
  }

  /** A document's title and its passages in page order, each under its headings; undefined when not indexed. */
  page(source: string): { title: string; passages: { trail: string[]; text: string }[] } | undefined {
    const document = this.sql("SELECT id, title FROM documents WHERE source = ?").get(source) as
      | { id: number; title: string }
      | undefined;
    if (document === undefined) return undefined;
    const rows = this.sql("SELECT trail, body FROM chunks WHERE document = ? ORDER BY rowid")
      .all(document.id) as { trail: string; body: string }[];
    return {
      title: document.title,
      passages: rows.map((row) => ({
        trail: row.trail === "" ? [] : row.trail.split(" > "),
        text: row.body,
      })),
    };
  }

  /**
   * Each passage's text around what `match` finds, the matches in **bold** (Markdown's, which a page's own
   * text rarely has in the middle of a word; brackets broke its links, `[npm [install]](…)`). One query for
   * them all: every query with MATCH reads the match's whole lists of passages, however few rows it returns.
   */
  snippets(match: string, passages: readonly number[]): Map<number, string> {
    const rows = this.sql(
      `SELECT rowid AS passage, snippet(chunks, ${BODY_COLUMN}, '**', '**', '…', 24) AS snippet FROM chunks
       WHERE chunks MATCH ? AND rowid IN (SELECT value FROM json_each(?))`,
    ).all(match, JSON.stringify(passages)) as { passage: number; snippet: string }[];
    return new Map(rows.map((row) => [row.passage, row.snippet]));
  }

  /**
   * Every passage `match` (one term, say) finds: for scoring candidates by how many of a query's terms each
   * holds. A plain MATCH and a set is far faster than MATCH with `rowid IN (…)`, which FTS5 cannot narrow.
   */
  holding(match: string): Set<number> {
    // One string of row numbers, not a row object each: a common word holds thousands of passages.
    const { rows } = this.sql(
      "SELECT coalesce(group_concat(rowid), '') AS rows FROM chunks WHERE chunks MATCH ?",
    ).get(match) as { rows: string };
    return new Set(rows === "" ? [] : rows.split(",").map(Number));
  }

  /** The links a crawled page held when it was read: a 304 on refresh has no body to find them in. */
  linksOf(source: string): string[] {
    const row = this.sql("SELECT links FROM documents WHERE source = ?").get(source) as
      | { links: string | null }
      | undefined;
    return row?.links ? JSON.parse(row.links) as string[] : [];
  }

  /** Adds URLs to the crawl queue; ones already known (queued, done or skipped) stay as they are. */
  enqueue(urls: readonly string[]): number {
    let added = 0;
    this.transaction(() => {
      const insert = this.sql("INSERT OR IGNORE INTO crawl (url, state) VALUES (?, 'queued')");
      for (const url of urls) added += Number(insert.run(url).changes);
    });
    return added;
  }

  /** Up to `limit` queued URLs, oldest first. */
  queued(limit: number): string[] {
    return (this.sql("SELECT url FROM crawl WHERE state = 'queued' ORDER BY rowid LIMIT ?")
      .all(limit) as { url: string }[]).map((row) => row.url);
  }

  /** What became of a page; `failure` is the kind of failure ("HTTP 404", "timeout") when the site failed it. */
  markCrawled(url: string, state: Exclude<CrawlState, "queued">, note?: string, failure?: string): void {
    this.sql("UPDATE crawl SET state = ?, note = ?, failure = ? WHERE url = ?")
      .run(state, note ?? null, failure ?? null, url);
  }

  /** What the crawl pass made of a page so far; undefined when it does not know the page. */
  crawlState(url: string): CrawlState | undefined {
    return (this.sql("SELECT state FROM crawl WHERE url = ?").get(url) as { state: CrawlState } | undefined)
      ?.state;
  }

  crawlCounts(): Record<CrawlState, number> {
    const counts: Record<CrawlState, number> = { queued: 0, done: 0, skipped: 0, failed: 0 };
    const rows = this.sql("SELECT state, count(*) AS n FROM crawl GROUP BY state").all() as {
      state: CrawlState;
      n: number;
    }[];
    for (const row of rows) counts[row.state] = row.n;
    return counts;
  }

  /** The URLs skipped or failed and why, with the kind of failure where the site failed them, for the closing report. */
  skippedPages(): { url: string; note: string; failure?: string }[] {
    const rows = this.sql(
      `SELECT url, coalesce(note, '') AS note, failure FROM crawl WHERE state IN ('skipped', 'failed')
       ORDER BY rowid`,
    ).all() as { url: string; note: string; failure: string | null }[];
    return rows.map(({ url, note, failure }) => failure === null ? { url, note } : { url, note, failure });
  }

  /** Pages the site did not answer last time go back in the queue. */
  retryFailed(): number {
    return Number(
      this.sql("UPDATE crawl SET state = 'queued', note = NULL, failure = NULL WHERE state = 'failed'").run()
        .changes,
    );
  }

  /** Ends a pass: what is still queued (past the page limit) is not part of it. */
  dropQueue(): void {
    this.db.exec("DELETE FROM crawl WHERE state = 'queued'");
  }

  /** A new pass over the site: nothing crawled yet. */
  resetCrawl(): void {
    this.db.exec("DELETE FROM crawl");
  }

  /**
   * Documents this crawl pass did not reach: gone from the site (or past the page limit). A page the site
   * failed to serve this time keeps what was read of it before.
   */
  unreachedDocuments(): string[] {
    return (this.sql(
      "SELECT source FROM documents WHERE source NOT IN (SELECT url FROM crawl WHERE state IN ('done', 'failed'))",
    ).all() as { source: string }[]).map((row) => row.source);
  }

  private deleteDocument(source: string): void {
    const row = this.sql("SELECT id FROM documents WHERE source = ?").get(source) as
      | { id: number }
      | undefined;
    if (row === undefined) return;
    this.sql("DELETE FROM chunks WHERE document = ?").run(row.id);
    this.sql("DELETE FROM documents WHERE id = ?").run(row.id);
  }

  private transaction(fn: () => void): void {
    this.db.exec("BEGIN IMMEDIATE");
    try {
      fn();
      this.db.exec("COMMIT");
    } catch (error) {
      this.db.exec("ROLLBACK");
      throw error;
    }
  }
}
