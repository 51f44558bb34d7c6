/** The hook as a function of its input and injected environment, without a process. */
import { deepStrictEqual as assertEquals, match, ok } from "node:assert/strict";
import { type HookDeps, hookOutput } from "../lib/commands/hook.ts";
import { NO_SWITCHES } from "../lib/switches/switches.ts";
import { event, fixture } from "./helpers.ts";

function deps(vars: Record<string, string>, opened: string[] = []): HookDeps {
  return {
    env: (name) => vars[name],
    os: "linux",
    now: () => 1_000_000,
    elapsed: () => 5,
    openState: (dir) => {
      opened.push(dir);
      return Promise.reject(new Error("no state in this test"));
    },
  };
}

const input = (text: string) => ({ ok: true as const, text });
const seed = fixture("config/seed.json");

Deno.test("hook core: a match without usable state denies and names the problem once", async () => {
  const opened: string[] = [];
  const out = await hookOutput(
    input(event("PreToolUse.WebSearch.json")),
    seed,
    deps({ HOME: "/nowhere" }, opened),
  );
  ok(out.stdout?.includes('"permissionDecision":"deny"'));
  assertEquals(out.stderr, "docsearch-hook: state unavailable, denial not remembered: no state in this test");
  assertEquals(opened, ["/nowhere/.local/state/docsearch-hook"]);
});

Deno.test("hook core: non-web PreToolUse, unknown events and the kill switch never load config or state", async () => {
  const opened: string[] = [];
  for (const text of [event("PreToolUse.Bash.json"), JSON.stringify({ hook_event_name: "FutureEvent" })]) {
    assertEquals(await hookOutput(input(text), "/does/not/exist.json", deps({}, opened)), {});
  }
  const off = deps({ DOCSEARCH_HOOK_DISABLED: " Yes " }, opened);
  assertEquals(await hookOutput(input(event("PreToolUse.WebSearch.json")), seed, off), {});
  assertEquals(await hookOutput({ ok: false, problem: "x" }, seed, off), {});
  assertEquals(opened, []);
});

Deno.test("hook core: unreadable input is allowed with one line", async () => {
  const out = await hookOutput({ ok: false, problem: "input on stdin is over 1 bytes" }, seed, deps({}));
  assertEquals(out, { stderr: "docsearch-hook: input on stdin is over 1 bytes; allowing" });
  match((await hookOutput(input("nope"), seed, deps({}))).stderr!, /not JSON; allowing$/);
});

Deno.test("hook core: an escape-hatch record failing inside the transaction still denies and says so", async () => {
  const recorded: string[] = [];
  const state = {
    write: <T>(fn: () => T) => fn(),
    switchesOf: () => NO_SWITCHES,
    retryOrRecord(): never {
      throw new Error("disk I/O error");
    },
    record: (entry: { event: string }) => void recorded.push(entry.event),
  };
  const out = await hookOutput(input(event("PreToolUse.WebSearch.json")), seed, {
    ...deps({ HOME: "/nowhere" }),
    openState: () => Promise.resolve(state),
  });
  ok(out.stdout?.includes('"permissionDecision":"deny"'));
  assertEquals(out.stderr, "docsearch-hook: state unavailable, denial not remembered: disk I/O error");
  assertEquals(recorded, ["PreToolUse"]);
});
