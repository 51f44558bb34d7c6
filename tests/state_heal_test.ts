/** A state database damaged past its first page: found in the middle of an event, moved aside, replaced. */
import { deepStrictEqual as assertEquals, ok, throws } from "node:assert/strict";
import type { DatabaseSync } from "node:sqlite";
import { openStateDb } from "../lib/state/db.ts";
import { type EventRecord, openStateStore } from "../lib/state/store.ts";
import { filledState, garble } from "./garble.ts";
import { withDir } from "./helpers.ts";

const write: EventRecord = {
  event: "PostToolUse",
  session: { sessionId: "now", cwd: "/p", agent: "claude-code", at: 5_000 },
  observation: { event: "PostToolUse", tool: "Write", toolUseId: "w1", summary: "a.txt" },
  hookMs: 3,
};

const denial = {
  sessionId: "now",
  requestKey: "key",
  tool: "WebSearch",
  request: "gitlab runners",
  databases: ["gitlab"],
  at: 5_000,
};

/** The corrupted databases moved aside in `dir` (without their -wal and -shm). */
const asides = (dir: string) =>
  [...Deno.readDirSync(dir)].map((e) => e.name).filter((name) =>
    /^docsearch\.db\.corrupt-[^.]*-\d+$/.test(name)
  );

const rows = (db: DatabaseSync, sql: string) => db.prepare(sql).all().map((row) => ({ ...row }));

Deno.test("corruption met inside an event's transaction: moved aside, the event recorded on a fresh database", () =>
  withDir((dir) => {
    const garbled = garble(filledState(dir), ["observations"]);
    // It opens, and fails only when a statement reads a garbled page.
    const db = openStateDb(dir, "linux");
    assertEquals(rows(db, "SELECT count(*) AS n FROM sessions"), [{ n: 20 }]);
    throws(() => db.prepare("SELECT count(*) FROM observations").get(), /database disk image is malformed/);
    db.close();
    const moved: string[] = [];
    using store = openStateStore(dir, "linux", { onCorrupt: (to) => moved.push(to) });
    store.record(write);
    assertEquals(moved.length, 1);
    assertEquals(asides(dir), [moved[0].slice(dir.length + 1)]);
    assertEquals(Deno.readFileSync(moved[0]), garbled);
    assertEquals(rows(store.db, "SELECT tool, summary FROM observations"), [{
      tool: "Write",
      summary: "a.txt",
    }]);
    assertEquals(store.db.isTransaction, false);
  }));

Deno.test("corruption met reading a session's switches, before any transaction, is healed too", () =>
  withDir((dir) => {
    garble(filledState(dir), ["sessions"]);
    const moved: string[] = [];
    using store = openStateStore(dir, "linux", { onCorrupt: (to) => moved.push(to) });
    assertEquals(store.switchesOf("earlier-1"), { features: [], databases: [] });
    assertEquals(moved.length, 1);
    store.record(write);
    assertEquals(rows(store.db, "SELECT count(*) AS n FROM observations"), [{ n: 1 }]);
  }));

Deno.test("a corruption the caller caught inside the transaction still fails it: the whole event is done again", () =>
  withDir((dir) => {
    garble(filledState(dir), ["denials"]);
    const moved: string[] = [];
    using store = openStateStore(dir, "linux", { onCorrupt: (to) => moved.push(to) });
    const outcomes: string[] = [];
    // As the redirect does: a failed escape-hatch record only means the denial is not remembered.
    store.write(() => {
      try {
        outcomes.push(store.retryOrRecord(denial, 0));
      } catch (error) {
        outcomes.push((error as Error).message);
      }
      store.record(write);
    });
    assertEquals(outcomes, ["database disk image is malformed", "recorded"]);
    assertEquals(moved.length, 1);
    assertEquals(store.pending("now", 0).map((row) => ({ ...row })), [{
      request: "gitlab runners",
      tool: "WebSearch",
    }]);
    assertEquals(rows(store.db, "SELECT count(*) AS n FROM observations"), [{ n: 1 }]);
  }));

Deno.test("two connections on one garbled file, as two hook processes: the first moves it aside, the second keeps the fresh one", () =>
  withDir((dir) => {
    garble(filledState(dir), ["observations"]);
    const moved: string[] = [];
    using first = openStateStore(dir, "linux", { onCorrupt: (to) => moved.push(to) });
    using second = openStateStore(dir, "linux", { onCorrupt: (to) => moved.push(to) });
    first.record(write);
    second.record({ ...write, observation: { ...write.observation!, toolUseId: "w2" } });
    assertEquals([moved.length, asides(dir).length], [1, 1]);
    ok(moved[0].includes(".corrupt-"));
    assertEquals(rows(first.db, "SELECT tool_use_id AS id FROM observations ORDER BY id"), [{ id: "w1" }, {
      id: "w2",
    }]);
  }));
