/** Doctor's state check in process, where its wait for the write lock can be made short. */
import { deepStrictEqual as assertEquals, match, ok } from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { stateCheck } from "../lib/commands/doctor.ts";
import { openStateDb, stateDbPath } from "../lib/state/db.ts";

Deno.test("doctor: a write lock held past its wait is busy (a warning to try again), not a file to chmod", async () => {
  const dir = await Deno.makeTempDir();
  const previous = Deno.env.get("DOCSEARCH_HOME");
  Deno.env.set("DOCSEARCH_HOME", dir);
  try {
    openStateDb(dir).close();
    // As a hook process holds it while it records an event.
    const holder = new DatabaseSync(stateDbPath(dir, Deno.build.os));
    holder.exec("BEGIN IMMEDIATE");
    try {
      const busy = await stateCheck(50);
      assertEquals([busy.status, busy.name], ["warn", "state"]);
      match(busy.message, /is busy: other hook processes hold the write lock; try again$/);
      match(busy.fix!, /again in a moment/);
      ok(!/chmod|writable/.test(`${busy.message} ${busy.fix}`), busy.message);
    } finally {
      holder.exec("ROLLBACK");
      holder.close();
    }
    assertEquals((await stateCheck(50)).status, "ok");
  } finally {
    if (previous === undefined) Deno.env.delete("DOCSEARCH_HOME");
    else Deno.env.set("DOCSEARCH_HOME", previous);
    await Deno.remove(dir, { recursive: true });
  }
});
