/** Doctor's state check in process, where its wait for the write lock can be made short. */
import { deepStrictEqual as assertEquals, match, ok } from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { stateCheck } from "../lib/doctor/state_check.ts";
import { openStateDb, stateDbPath } from "../lib/state/db.ts";
import { machine } from "./command_context.ts";
import { filledState, garble } from "./garble.ts";

Deno.test("doctor: a write lock held past its wait is busy (a warning to try again), not a file to chmod", async () => {
  await using box = await machine();
  const ctx = box.context();
  openStateDb(box.state, Deno.build.os).close();
  // As a hook process holds it while it records an event.
  const holder = new DatabaseSync(stateDbPath(box.state, Deno.build.os));
  holder.exec("BEGIN IMMEDIATE");
  try {
    const busy = await stateCheck(50, ctx);
    assertEquals([busy.status, busy.name], ["warn", "state"]);
    match(busy.message, /is busy: other hook processes hold the write lock; try again$/);
    match(busy.fix!, /again in a moment/);
    ok(!/chmod|writable/.test(`${busy.message} ${busy.fix}`), busy.message);
  } finally {
    holder.exec("ROLLBACK");
    holder.close();
  }
  assertEquals((await stateCheck(50, ctx)).status, "ok");
});

Deno.test("doctor: pages garbled behind an intact header are damage, said with the fix, and the file is left as it is", async () => {
  for (const table of ["observations", "denials", "sessions", "hook_runs"]) {
    await using box = await machine();
    const file = filledState(box.state);
    // The header and the schema on page 1 are intact: the database opens and only a read of the page fails.
    const garbled = garble(file, [table]);
    const check = await stateCheck(50, box.context());
    assertEquals([check.status, check.name], ["fail", "state"], `${table}: ${check.message}`);
    match(check.message, new RegExp(`^${file} is damaged: .*page \\d+`));
    match(check.fix!, /move it aside, keeping it for inspection \(mv /);
    assertEquals(Deno.readFileSync(file), garbled);
  }
});
