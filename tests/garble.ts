/**
 * A state database damaged the way a disk or a crash damages one: some pages garbled past the first, so that
 * it opens (the header and the schema on page 1 are intact) and fails only when a statement reads them.
 */
import { ok } from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { exists } from "../lib/files.ts";
import { stateDbPath } from "../lib/state/db.ts";
import { openStateStore } from "../lib/state/store.ts";

/** A state database in `dir` with `count` observations (several pages of each table and index). */
export function filledState(dir: string, count = 600): string {
  using store = openStateStore(dir, "linux");
  store.write(() => {
    for (let i = 0; i < count; i++) {
      store.record({
        event: "PostToolUse",
        session: { sessionId: `earlier-${i % 20}`, cwd: "/earlier", agent: "claude-code", at: 1_000 + i },
        observation: {
          event: "PostToolUse",
          tool: "Bash",
          toolUseId: `t${i}`,
          summary: `command ${i} `.repeat(20),
        },
        hookMs: 5,
      });
    }
    store.retryOrRecord(
      {
        sessionId: "earlier-0",
        requestKey: "k",
        tool: "WebSearch",
        request: "q",
        databases: ["d"],
        at: 1_000,
      },
      0,
    );
  });
  return stateDbPath(dir, "linux");
}

/**
 * Overwrites the root page of each named table or index (and of the indexes on a named table) with bytes no
 * b-tree page starts with. Returns the file's bytes as garbled.
 */
export function garble(file: string, tables: readonly string[]): Uint8Array {
  const db = new DatabaseSync(file);
  const pageSize = (db.prepare("PRAGMA page_size").get() as { page_size: number }).page_size;
  const roots = db.prepare(
    `SELECT rootpage FROM sqlite_master WHERE rootpage > 1 AND (name IN (SELECT value FROM json_each(?1))
       OR tbl_name IN (SELECT value FROM json_each(?1)))`,
  ).all(JSON.stringify(tables)) as { rootpage: number }[];
  db.close();
  ok(roots.length > 0, `nothing named ${tables} in ${file}`);
  // Every connection is closed: the pages are in the file itself, with no newer copies in a WAL.
  ok(!exists(`${file}-wal`), `${file} still has a WAL`);
  const handle = Deno.openSync(file, { read: true, write: true });
  try {
    for (const { rootpage } of roots) {
      handle.seekSync((rootpage - 1) * pageSize, Deno.SeekMode.Start);
      handle.writeSync(new Uint8Array(pageSize).fill(0xff));
    }
  } finally {
    handle.close();
  }
  return Deno.readFileSync(file);
}
