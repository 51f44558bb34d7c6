/** The event table: what holds for every row, whatever rows are added. */
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { AGENTS, EVENTS, type EventSpec, eventSpec, registrationsFor } from "../lib/protocol/events.ts";

const rows = Object.entries(EVENTS) as [string, EventSpec][];

Deno.test("events: an answer is always waited for, and only capture may run in the background", () => {
  for (const [name, spec] of rows) {
    if (spec.answer !== undefined) ok(spec.sync, name);
    if (!spec.sync) ok(spec.captured && spec.registered !== undefined, name);
  }
});

Deno.test("events: eventSpec knows the table's events only, not the names every object has", () => {
  for (const [name, spec] of rows) assertEquals(eventSpec(name), spec);
  for (const name of ["FutureEvent", "toString", "constructor", "__proto__", ""]) {
    assertEquals(eventSpec(name), undefined, name);
  }
});

Deno.test("events: Notification is known to the hook, for a user who registers it by hand, but not registered", () => {
  ok(eventSpec("Notification") !== undefined);
  for (const agent of AGENTS) ok(!registrationsFor(agent).some((r) => r.event === "Notification"), agent);
});
