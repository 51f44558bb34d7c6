import { deepStrictEqual as assertEquals, ok, throws } from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { openStateDb, SCHEMA_VERSION, stateDbPath, StateSchemaTooNewError } from "../lib/state/db.ts";
import { DenialStore } from "../lib/state/denials.ts";

async function withDir(fn: (dir: string) => void | Promise<void>) {
  const dir = await Deno.makeTempDir();
  try {
    await fn(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
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
    throws(() => openStateDb(dir, "linux"), StateSchemaTooNewError);
  }));

Deno.test("state cannot be opened where a file stands in place of the directory", () =>
  withDir((dir) => {
    Deno.writeTextFileSync(`${dir}/file`, "");
    throws(() => openStateDb(`${dir}/file`, "linux"));
    throws(() => openStateDb(`${dir}/file/sub`, "linux"));
  }));

Deno.test("a denial is taken once by its session, oldest first, and only within the TTL window", () =>
  withDir((dir) => {
    const store = new DenialStore(openStateDb(dir, "linux"));
    store.recordDenial(record("s1", 100), 0);
    store.recordDenial(record("s1", 200), 0);
    assertEquals(store.takeDenial("s2", "key:gitlab runners", 0), false);
    assertEquals(store.takeDenial("s1", "key:other", 0), false);
    assertEquals(store.takeDenial("s1", "key:gitlab runners", 150), true);
    assertEquals(store.takeDenial("s1", "key:gitlab runners", 150), false);
    assertEquals(store.pending("s1", 0).length, 1);
    assertEquals(store.takeDenial("s1", "key:gitlab runners", 0), true);
    assertEquals(store.pending("s1", 0), []);
  }));

Deno.test("recording a denial prunes the expired ones of every session", () =>
  withDir((dir) => {
    const store = new DenialStore(openStateDb(dir, "linux"));
    store.recordDenial(record("old", 10), 0);
    store.recordDenial(record("other", 50), 0);
    store.recordDenial(record("new", 1000), 40);
    assertEquals(store.pending("old", 0), []);
    assertEquals(store.pending("other", 0).length, 1);
    assertEquals(store.pending("new", 0).length, 1);
  }));

Deno.test("hostile session ids are plain data and stay isolated", () =>
  withDir((dir) => {
    const store = new DenialStore(openStateDb(dir, "linux"));
    const hostile = [
      "../../etc/passwd",
      "x".repeat(10_240),
      "a\u0000b",
      "a\u0000c",
      "セッション🚀",
      "'; DROP TABLE denials; --",
      "",
    ];
    hostile.forEach((id, i) => store.recordDenial(record(id, 100 + i), 0));
    for (const id of hostile) {
      assertEquals(store.takeDenial(id, "key:gitlab runners", 0), true, JSON.stringify(id.slice(0, 20)));
      assertEquals(store.takeDenial(id, "key:gitlab runners", 0), false);
    }
    assertEquals(Deno.readDirSync(dir).toArray().map((e) => e.name).sort(), [
      "docsearch.db",
      "docsearch.db-shm",
      "docsearch.db-wal",
    ]);
  }));

Deno.test("two connections racing for one denial: exactly one takes it", () =>
  withDir((dir) => {
    const a = new DenialStore(openStateDb(dir, "linux"));
    const b = new DenialStore(openStateDb(dir, "linux"));
    a.recordDenial(record("s", 1), 0);
    const taken = [a.takeDenial("s", "key:gitlab runners", 0), b.takeDenial("s", "key:gitlab runners", 0)];
    assertEquals(taken.filter(Boolean).length, 1);
  }));

Deno.test("the request text kept for people is clipped", () =>
  withDir((dir) => {
    const store = new DenialStore(openStateDb(dir, "linux"));
    store.recordDenial(record("s", 1, "q".repeat(10_000)), 0);
    assertEquals(store.pending("s", 0)[0].request.length, 2000);
  }));
