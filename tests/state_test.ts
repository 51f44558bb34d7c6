import { deepStrictEqual as assertEquals, ok, throws } from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import {
  openStateDb,
  readOnlyUri,
  SCHEMA_VERSION,
  stateDbPath,
  StateSchemaTooNewError,
  WAL_KEPT_BYTES,
} from "../lib/state/db.ts";
import { openStateStore, StateStore } from "../lib/state/store.ts";
import { sessionKey } from "../lib/state/session_key.ts";
import { latestSessionIn, sessionById, sessionsByPrefix } from "../lib/state/sessions.ts";
import { withDir } from "./helpers.ts";

/** Asserts that `fn` throws a `type` whose message has `fragment` in it. */
function throwsWith(
  fn: () => unknown,
  type: abstract new (...args: never[]) => Error,
  fragment: string,
): void {
  throws(fn, (error: unknown) => {
    ok(error instanceof type, `not a ${type.name}: ${String(error)}`);
    ok(error.message.includes(fragment), `no "${fragment}" in: ${error.message}`);
    return true;
  });
}

const record = (sessionId: string, at: number, request = "gitlab runners") => ({
  sessionId,
  requestKey: `key:${request}`,
  tool: "WebSearch",
  request,
  databases: ["gitlab"],
  at,
});

Deno.test("the state database is created 0700/0600, in WAL mode, at the current schema", () =>
  withDir((dir) => {
    const state = `${dir}/a/b/state`;
    const db = openStateDb(state, "linux");
    assertEquals(Deno.statSync(state).mode! & 0o777, 0o700);
    assertEquals(Deno.statSync(stateDbPath(state, "linux")).mode! & 0o777, 0o600);
    assertEquals({ ...db.prepare("PRAGMA journal_mode").get() }, { journal_mode: "wal" });
    assertEquals({ ...db.prepare("PRAGMA user_version").get() }, { user_version: SCHEMA_VERSION });
    ok((db.prepare("PRAGMA busy_timeout").get() as { timeout: number }).timeout > 0);
    db.close();
    // Reopening an existing database neither fails nor migrates again.
    openStateDb(state, "linux").close();
  }));

Deno.test("a database from a newer docsearch-hook is refused, not clobbered", () =>
  withDir((dir) => {
    openStateDb(dir, "linux").close();
    const raw = new DatabaseSync(stateDbPath(dir, "linux"));
    raw.exec(`PRAGMA user_version = ${SCHEMA_VERSION + 1}`);
    raw.close();
    throwsWith(() => openStateDb(dir, "linux"), StateSchemaTooNewError, "upgrade docsearch-hook");
    const after = new DatabaseSync(stateDbPath(dir, "linux"));
    assertEquals({ ...after.prepare("PRAGMA user_version").get() }, { user_version: SCHEMA_VERSION + 1 });
    after.close();
  }));

Deno.test("state cannot be opened where a file stands in place of the directory", () =>
  withDir((dir) => {
    Deno.writeTextFileSync(`${dir}/file`, "");
    // A POSIX system stops at the database's path through the file; Windows finds no such path there, and
    // then cannot make the directory where the file is.
    const [type, fragment] = Deno.build.os === "windows"
      ? [Deno.errors.AlreadyExists, "(os error 183)"]
      : [Deno.errors.NotADirectory, "Not a directory"];
    throwsWith(() => openStateDb(`${dir}/file`, "linux"), type, fragment);
    throwsWith(() => openStateDb(`${dir}/file/sub`, "linux"), type, fragment);
  }));

Deno.test("a denial is taken once by the identical retry in its session, within the TTL window", () =>
  withDir((dir) => {
    const store = new StateStore(openStateDb(dir, "linux"));
    assertEquals(store.retryOrRecord(record("s1", 100), 0), "recorded");
    assertEquals(store.retryOrRecord(record("s1", 200), 0), "retry");
    assertEquals(store.retryOrRecord(record("s1", 300), 0), "recorded");
    assertEquals(store.retryOrRecord(record("s2", 310), 0), "recorded");
    assertEquals(store.retryOrRecord(record("s1", 320, "other query"), 0), "recorded");
    // Expired by the window: not taken, and pruned when the new denial is recorded.
    assertEquals(store.retryOrRecord(record("s1", 1000), 301), "recorded");
    assertEquals(store.pending("s1", 0).map((p) => p.request), ["other query", "gitlab runners"]);
    assertEquals(store.pending("s2", 0).length, 1);
  }));

Deno.test("the hook registered twice: the same tool_use_id is the same call, denied again; a new one is the retry", () =>
  withDir((dir) => {
    const store = new StateStore(openStateDb(dir, "linux"));
    const call = (at: number, toolUseId: string, via = "settings") =>
      store.retryOrRecord({ ...record("s", at), toolUseId, via }, 0);
    assertEquals([call(100, "toolu_a"), call(101, "toolu_a")], ["recorded", "repeat"]);
    assertEquals(store.pending("s", 0).length, 1);
    // The retry passes, and passes again for the second registration; the record is taken.
    assertEquals([call(200, "toolu_b"), call(201, "toolu_b", "plugin")], ["retry", "retry"]);
    assertEquals(store.pending("s", 0).length, 0);
    assertEquals([call(300, "toolu_c"), call(301, "toolu_c")], ["recorded", "repeat"]);
    // A retry without an id takes the record as before.
    assertEquals(store.retryOrRecord(record("s", 400), 0), "retry");
  }));

Deno.test("the TTL window includes its first millisecond and nothing before it", () =>
  withDir((dir) => {
    const store = new StateStore(openStateDb(dir, "linux"));
    store.retryOrRecord(record("s", 100), 0);
    assertEquals(store.retryOrRecord(record("s", 401), 101), "recorded");
    store.retryOrRecord(record("t", 100), 0);
    assertEquals(store.retryOrRecord(record("t", 400), 100), "retry");
  }));

Deno.test("session keys keep ordinary ids and escape what SQLite text would lose or merge", () => {
  assertEquals(sessionKey("3f2c9a1e-7d4b-4a8e-9c1f-0b5d6e7f8a9b"), "3f2c9a1e-7d4b-4a8e-9c1f-0b5d6e7f8a9b");
  assertEquals(sessionKey("セッション🚀"), "セッション🚀");
  assertEquals(sessionKey("a\u0000b%"), "a%00b%25");
  assertEquals(sessionKey("\ud800"), "%uD800");
  assertEquals(sessionKey("x\udfff"), "x%uDFFF");
  assertEquals(sessionKey("%00"), "%2500");
});

Deno.test("parallel denials of one request each leave a record, each taken by one retry", () =>
  withDir((dir) => {
    const store = new StateStore(openStateDb(dir, "linux"));
    store.db.exec(
      "INSERT INTO denials (session_id, request_key, tool, request, databases, created_at) " +
        "VALUES ('s', 'key:gitlab runners', 'WebSearch', 'a', '[]', 5), ('s', 'key:gitlab runners', 'WebSearch', 'b', '[]', 6)",
    );
    assertEquals(store.retryOrRecord(record("s", 10), 0), "retry");
    assertEquals(store.pending("s", 0).map((p) => p.request), ["b"]);
    assertEquals(store.retryOrRecord(record("s", 11), 0), "retry");
    assertEquals(store.retryOrRecord(record("s", 12), 0), "recorded");
  }));

Deno.test("hostile session ids are plain data and stay isolated", () =>
  withDir((dir) => {
    const store = new StateStore(openStateDb(dir, "linux"));
    const hostile = [
      "../../etc/passwd",
      "x".repeat(10_240),
      "a\u0000b",
      "a\u0000c",
      "a",
      "\ud800",
      "\udbff",
      "x\udfff",
      "x\ufffd",
      "a%00b",
      "セッション🚀",
      "'; DROP TABLE denials; --",
      "",
    ];
    hostile.forEach((id, i) => assertEquals(store.retryOrRecord(record(id, 100 + i), 0), "recorded"));
    for (const id of hostile) {
      assertEquals(store.retryOrRecord(record(id, 200), 0), "retry", JSON.stringify(id.slice(0, 20)));
      assertEquals(store.pending(id, 0), []);
    }
    assertEquals(Deno.readDirSync(dir).toArray().map((e) => e.name).sort(), [
      "docsearch.db",
      "docsearch.db-shm",
      "docsearch.db-wal",
    ]);
  }));

Deno.test("two connections racing for one denial: exactly one retry passes", () =>
  withDir((dir) => {
    const a = new StateStore(openStateDb(dir, "linux"));
    const b = new StateStore(openStateDb(dir, "linux"));
    a.retryOrRecord(record("s", 1), 0);
    const outcomes = [a.retryOrRecord(record("s", 2), 0), b.retryOrRecord(record("s", 2), 0)];
    assertEquals(outcomes.sort(), ["recorded", "retry"]);
  }));

Deno.test("a failed write leaves no transaction open", () =>
  withDir((dir) => {
    const store = new StateStore(openStateDb(dir, "linux"));
    store.db.exec("DROP TABLE denials");
    throwsWith(() => store.retryOrRecord(record("s", 1), 0), Error, "no such table: denials");
    assertEquals(store.db.isTransaction, false);
  }));

Deno.test("the request text kept for people is clipped", () =>
  withDir((dir) => {
    const store = new StateStore(openStateDb(dir, "linux"));
    store.retryOrRecord(record("s", 1, "q".repeat(10_000)), 0);
    assertEquals(store.pending("s", 0)[0].request.length, 2000);
  }));

const touch = (sessionId: string, cwd: string, at: number) => ({
  event: "SessionStart",
  session: { sessionId, cwd, agent: "claude-code", at, source: "startup" },
  hookMs: 1,
});

Deno.test("switches: kept per session, read back by the hook, created for an unseen session", () =>
  withDir((dir) => {
    const store = new StateStore(openStateDb(dir, "linux"));
    store.record(touch("a", "/p", 1));
    store.record(touch("b", "/p", 2));
    const result = store.updateSwitches("a", 3, (current) => {
      assertEquals(current, { features: [], databases: [] });
      return { switches: { features: ["redirect"], databases: ["gitlab"] }, result: "done" };
    });
    assertEquals(result, "done");
    assertEquals(store.switchesOf("a"), { features: ["redirect"], databases: ["gitlab"] });
    assertEquals(store.switchesOf("b"), { features: [], databases: [] });
    // A later event of the session keeps its switches (the upsert does not touch them).
    store.record(touch("a", "/p", 4));
    assertEquals(store.switchesOf("a").features, ["redirect"]);
    // Leaving them as they are writes nothing.
    store.updateSwitches("c", 5, () => ({ result: 0 }));
    assertEquals(sessionById(store.db, "c"), undefined);
    store.updateSwitches("new", 5, () => ({ switches: { features: ["capture"], databases: [] }, result: 0 }));
    assertEquals(sessionById(store.db, "new")?.agent, "unknown");
    store.record(touch("new", "/q", 6));
    assertEquals(
      [sessionById(store.db, "new")?.agent, sessionById(store.db, "new")?.switches.features],
      ["claude-code", ["capture"]],
    );
    store.db.close();
  }));

Deno.test("sessions for the commands: by id, by the start of one, the latest in a directory", () =>
  withDir((dir) => {
    const store = new StateStore(openStateDb(dir, "linux"));
    store.record(touch("abc-1", "/p", 10));
    store.record(touch("abc-2", "/p", 30));
    store.record(touch("xyz-1", "/q", 20));
    store.record(touch("100%\u0000odd", "/r", 5));
    assertEquals(sessionById(store.db, "abc-1")?.cwd, "/p");
    assertEquals(sessionById(store.db, "abc"), undefined);
    assertEquals(sessionsByPrefix(store.db, "abc", 5).map((s) => s.id), ["abc-2", "abc-1"]);
    assertEquals(sessionsByPrefix(store.db, "xy", 5).map((s) => s.id), ["xyz-1"]);
    assertEquals(sessionsByPrefix(store.db, "100%", 5).length, 1);
    assertEquals(latestSessionIn(store.db, ["/p"])?.id, "abc-2");
    assertEquals(latestSessionIn(store.db, ["/nowhere", "/q"])?.id, "xyz-1");
    assertEquals(latestSessionIn(store.db, []), undefined);
    store.db.close();
  }));

Deno.test("a schema-2 database gains the switches column and keeps its sessions", () =>
  withDir((dir) => {
    const file = stateDbPath(dir, "linux");
    const raw = new DatabaseSync(file);
    raw.exec(`CREATE TABLE sessions (id INTEGER PRIMARY KEY, session_key TEXT NOT NULL UNIQUE, cwd TEXT,
      agent TEXT NOT NULL, first_seen INTEGER NOT NULL, last_seen INTEGER NOT NULL, source TEXT,
      ended_at INTEGER, end_reason TEXT);
      CREATE TABLE denials (id INTEGER PRIMARY KEY, session_id TEXT NOT NULL, request_key TEXT NOT NULL,
        tool TEXT NOT NULL, request TEXT NOT NULL, databases TEXT NOT NULL, created_at INTEGER NOT NULL);
      INSERT INTO sessions (session_key, cwd, agent, first_seen, last_seen) VALUES ('old', '/p', 'claude-code', 1, 2);
      PRAGMA user_version = 2;`);
    raw.close();
    const db = openStateDb(dir, "linux");
    assertEquals({ ...db.prepare("PRAGMA user_version").get() }, { user_version: SCHEMA_VERSION });
    const old = sessionById(db, "old");
    assertEquals([old?.cwd, old?.switches], ["/p", { features: [], databases: [] }]);
    db.close();
  }));

Deno.test("a store left open (the hook's) keeps the WAL, empties it past its bound, and loses nothing", () =>
  withDir((dir) => {
    const wal = `${stateDbPath(dir, "linux")}-wal`;
    const sizes: number[] = [];
    for (let n = 0; n < 60; n++) {
      const store = openStateStore(dir, "linux", {}, { leaveOpen: true });
      store.retryOrRecord(record(`left-${n}`, 1000 + n), 0);
      store[Symbol.dispose]();
      // Left open: the process's exit is what ends it.
      ok(store.db.isOpen);
      sizes.push(Deno.statSync(wal).size);
    }
    // About 12 KB a record: emptied once, by the record that took it past the bound.
    const emptied = sizes.indexOf(0);
    ok(emptied > 30 && sizes.slice(0, emptied).every((size, i) => size > (sizes[i - 1] ?? 0)), `${sizes}`);
    ok(sizes[emptied - 1] > WAL_KEPT_BYTES - 20_000 && Math.max(...sizes) <= WAL_KEPT_BYTES, `${sizes}`);
    using reader = new StateStore(openStateDb(dir, "linux"));
    for (let n = 0; n < 60; n++) assertEquals(reader.pending(`left-${n}`, 0).length, 1, `left-${n}`);
  }));

Deno.test("the read-only URI of a state database, on each OS", () => {
  assertEquals(
    readOnlyUri("/home/me/state/docsearch.db", "linux"),
    "file:///home/me/state/docsearch.db?mode=ro&readonly_shm=1",
  );
  assertEquals(
    readOnlyUri("/a?b#c%d/docsearch.db", "darwin"),
    "file:///a%3Fb%23c%25d/docsearch.db?mode=ro&readonly_shm=1",
  );
  assertEquals(readOnlyUri("state/docsearch.db", "linux"), "file:state/docsearch.db?mode=ro&readonly_shm=1");
  assertEquals(
    readOnlyUri("C:\\Users\\me\\AppData\\Local\\docsearch-hook\\docsearch.db", "windows"),
    "file:///C:/Users/me/AppData/Local/docsearch-hook/docsearch.db?mode=ro&readonly_shm=1",
  );
});
