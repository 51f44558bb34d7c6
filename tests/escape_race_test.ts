/**
 * The escape hatch opens once per denial, whoever races for it: two processes of one registration taking the
 * same retry at once (the same event twice) let it through once, while the two registrations of a hook
 * registered twice (settings and plugin) both let the one retry through. Two stores on one database file
 * stand for two hook processes; the write lock orders them as it orders processes.
 */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { openStateDb } from "../lib/state/db.ts";
import { type DenialRecord, StateStore } from "../lib/state/store.ts";
import { withDir } from "./helpers.ts";

const call = (toolUseId: string, via: string, at: number): DenialRecord => ({
  sessionId: "s1",
  requestKey: "key:gitlab runners",
  tool: "WebSearch",
  request: "gitlab runners",
  databases: ["gitlab"],
  at,
  toolUseId,
  via,
});

const twoProcesses = (dir: string) => [
  new StateStore(openStateDb(dir, "linux")),
  new StateStore(openStateDb(dir, "linux")),
];

Deno.test("the same retry taken by two processes of one registration passes once", () =>
  withDir((dir) => {
    const [a, b] = twoProcesses(dir);
    assertEquals(a.retryOrRecord(call("toolu_first", "settings", 100), 0), "recorded");
    assertEquals(a.retryOrRecord(call("toolu_retry", "settings", 200), 0), "retry");
    assertEquals(b.retryOrRecord(call("toolu_retry", "settings", 201), 0), "repeat");
    assertEquals(a.retryOrRecord(call("toolu_retry", "settings", 202), 0), "repeat");
    // Nothing is left to take: the next call is denied and recorded.
    assertEquals(b.retryOrRecord(call("toolu_third", "settings", 300), 0), "recorded");
    a[Symbol.dispose]();
    b[Symbol.dispose]();
  }));

Deno.test("a hook registered twice lets the one retry through in both registrations, and no third time", () =>
  withDir((dir) => {
    const [settings, plugin] = twoProcesses(dir);
    assertEquals(settings.retryOrRecord(call("toolu_first", "settings", 100), 0), "recorded");
    assertEquals(plugin.retryOrRecord(call("toolu_first", "plugin", 101), 0), "repeat");
    assertEquals(plugin.retryOrRecord(call("toolu_retry", "plugin", 200), 0), "retry");
    assertEquals(settings.retryOrRecord(call("toolu_retry", "settings", 201), 0), "retry");
    assertEquals(plugin.retryOrRecord(call("toolu_retry", "plugin", 202), 0), "repeat");
    settings[Symbol.dispose]();
    plugin[Symbol.dispose]();
  }));

Deno.test("two retries with different ids are two calls: one passes, the other is denied", () =>
  withDir((dir) => {
    const [a, b] = twoProcesses(dir);
    assertEquals(a.retryOrRecord(call("toolu_first", "settings", 100), 0), "recorded");
    assertEquals(a.retryOrRecord(call("toolu_r1", "settings", 200), 0), "retry");
    assertEquals(b.retryOrRecord(call("toolu_r2", "settings", 200), 0), "recorded");
    a[Symbol.dispose]();
    b[Symbol.dispose]();
  }));
