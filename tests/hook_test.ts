/** The hook as a function of its input and injected environment, without a process. */
import { deepStrictEqual as assertEquals, match, ok } from "node:assert/strict";
import { type HookDeps, hookDeps, hookOutput, NO_AIDS } from "../lib/hook/hook.ts";
import { main } from "../lib/hook/main.ts";
import { stateDbPath } from "../lib/state/db.ts";
import { AGENTS, EVENTS, registrationsFor } from "../lib/protocol/events.ts";
import type { HookOutput } from "../lib/protocol/output.ts";
import type { EventRecord, StateStore } from "../lib/state/store.ts";
import { type Feature, NO_SWITCHES, type SessionSwitches } from "../lib/switches/switches.ts";
import { event, exists, fixture, newCall, withDir } from "./helpers.ts";
import { machine } from "./command_context.ts";

function deps(
  vars: Record<string, string>,
  opened: string[] = [],
  indexes: string[] = [],
  lockfile?: string,
): HookDeps {
  return {
    changedLockfile: () => lockfile,
    env: (name) => vars[name],
    os: "linux",
    now: () => 1_000_000,
    elapsed: () => 5,
    registration: "test",
    redirectAids: () => Promise.resolve(NO_AIDS),
    indexExists: (name) => indexes.includes(name),
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
    [Symbol.dispose]: () => {},
  };
  const out = await hookOutput(input(event("PreToolUse.WebSearch.json")), seed, {
    ...deps({ HOME: "/nowhere" }),
    openState: () => Promise.resolve(state),
  });
  ok(out.stdout?.includes('"permissionDecision":"deny"'));
  assertEquals(out.stderr, "docsearch-hook: state unavailable, denial not remembered: disk I/O error");
  assertEquals(recorded, ["PreToolUse"]);
});

/** A state that keeps what the hook records and answers with the given switches. */
function fakeState(switches: SessionSwitches) {
  const recorded: EventRecord[] = [];
  /** What happened to the state, in order: "record" and "close". */
  const calls: string[] = [];
  const state = {
    write: <T>(fn: () => T) => fn(),
    switchesOf: () => switches,
    retryOrRecord: () => "recorded" as const,
    record: (entry: EventRecord) => void (recorded.push(entry), calls.push("record")),
    [Symbol.dispose]: () => void calls.push("close"),
  };
  return {
    recorded,
    calls,
    deps: { ...deps({ HOME: "/nowhere" }), openState: () => Promise.resolve(state) },
  };
}

const silent = (out: HookOutput) => assertEquals([out.stdout, out.stderr], [undefined, undefined]);

const off = (features: Feature[], databases: string[] = []): SessionSwitches => ({ features, databases });

Deno.test("hook core: with redirect switched off for the session a matching search passes and no denial is kept", async () => {
  const { recorded, calls, deps } = fakeState(off(["redirect"]));
  silent(await hookOutput(input(event("PreToolUse.WebSearch.json")), seed, deps));
  assertEquals(recorded.map((r) => [r.event, r.denied, r.observation]), [[
    "PreToolUse",
    undefined,
    undefined,
  ]]);
  assertEquals(calls, ["record", "close"], "the state is closed once the event is recorded");
});

Deno.test("hook core: a switched-off database no longer denies, the others still do", async () => {
  const multi = event("PreToolUse.WebSearch.json", { tool_input: { query: "gitlab runner on kubernetes" } });
  const config = fixture("config/seed.json");
  const both = await hookOutput(input(multi), config, fakeState(NO_SWITCHES).deps);
  const reason = JSON.parse(both.stdout!).hookSpecificOutput.permissionDecisionReason as string;
  ok(reason.includes("IN PARALLEL"), reason);
  const { recorded, deps } = fakeState(off([], ["gitlab"]));
  const one = await hookOutput(input(multi), config, deps);
  const narrowed = JSON.parse(one.stdout!).hookSpecificOutput.permissionDecisionReason as string;
  ok(!narrowed.includes("IN PARALLEL") && !narrowed.includes('"gitlab"'), narrowed);
  assertEquals(recorded[0].denied?.databases.map((d) => d.name), ["kubernetes"]);
});

Deno.test("hook core: SessionStart answers with context; capture switched off records no observation", async () => {
  const { recorded, deps } = fakeState(off(["capture"]));
  const out = await hookOutput(input(event("SessionStart.json")), seed, deps);
  const output = JSON.parse(out.stdout!).hookSpecificOutput;
  assertEquals(output.hookEventName, "SessionStart");
  match(output.additionalContext, /search it before the web/);
  assertEquals([recorded.length, recorded[0].observation], [1, undefined]);
  // "all" off: the session is still touched (so `enable` finds it), nothing else happens.
  const all = fakeState(off(["all"]));
  silent(await hookOutput(input(event("SessionStart.json")), seed, all.deps));
  assertEquals([all.recorded[0].event, all.recorded[0].observation], ["SessionStart", undefined]);
});

Deno.test("hook core: without state, context is still given as if nothing were switched off", async () => {
  const out = await hookOutput(input(event("UserPromptSubmit.json")), seed, deps({ HOME: "/nowhere" }));
  match(JSON.parse(out.stdout!).hookSpecificOutput.additionalContext, /local/);
  assertEquals(
    out.stderr,
    "docsearch-hook: state unavailable, UserPromptSubmit not recorded: no state in this test",
  );
});

Deno.test("hook core: the session's switches hold when the write lock is busy and nothing can be recorded", async () => {
  const { calls, deps } = fakeState(off(["redirect"]));
  const state = await deps.openState();
  const locked = {
    ...deps,
    openState: () =>
      Promise.resolve({
        ...state,
        write: (): never => {
          throw new Error("database is locked");
        },
      }),
  };
  const out = await hookOutput(input(event("PreToolUse.WebSearch.json")), seed, locked);
  assertEquals(out, {
    stdout: undefined,
    stderr: "docsearch-hook: state unavailable, PreToolUse not recorded: database is locked",
  });
  assertEquals(calls, ["close"], "a failed write closes the state too");
});

Deno.test("hook core: the wait for the state's lock fits every timeout the agent waits out, and is longer only in the background", async () => {
  const waits = new Map<string, number | undefined>();
  for (const name of Object.keys(EVENTS)) {
    // A web tool's call, for PreToolUse to get as far as the state.
    const text = JSON.stringify({
      hook_event_name: name,
      session_id: "s",
      tool_name: "WebSearch",
      tool_input: { query: "gitlab ci" },
    });
    await hookOutput(input(text), seed, {
      ...deps({ HOME: "/nowhere" }),
      openState: (_dir, options) => {
        waits.set(name, options.busyTimeoutMs);
        return Promise.reject(new Error("no state in this test"));
      },
    });
  }
  assertEquals([...waits.keys()], Object.keys(EVENTS));
  for (const agent of AGENTS) {
    for (const r of registrationsFor(agent)) {
      ok(waits.get(r.event)! < r.timeout * 1000, `${agent} ${r.event}: ${waits.get(r.event)} ms`);
    }
  }
  // Where the agent can run a hook in the background, the rest is waited for: all the same short wait.
  const claude = registrationsFor("claude");
  const waited = claude.filter((r) => !r.async).map((r) => waits.get(r.event)!);
  const background = claude.filter((r) => r.async).map((r) => waits.get(r.event)!);
  assertEquals(new Set(waited).size, 1, `${waited}`);
  ok(background.length > 0 && background.every((ms) => ms > waited[0]), `${background} after ${waited}`);
});

Deno.test("hook core: a database sending the agent to a built-in index that does not exist lets the search through", async () => {
  await withDir(async (dir) => {
    const configFile = `${dir}/config.json`;
    await Deno.writeTextFile(
      configFile,
      JSON.stringify({
        databases: [{
          name: "pg",
          keywords: ["postgres"],
          mcp_tool_name: "mcp__docsearch__search",
          tool_args: { index: "pg", query: "{query}" },
        }],
      }),
    );
    const text = JSON.stringify({
      session_id: "s",
      cwd: dir,
      hook_event_name: "PreToolUse",
      tool_name: "WebSearch",
      tool_input: { query: "postgres create index concurrently" },
    });
    const missing = await hookOutput(input(text), configFile, deps({ HOME: dir }));
    assertEquals(missing.stdout, undefined);
    const built = await hookOutput(input(text), configFile, deps({ HOME: dir }, [], ["pg"]));
    ok(built.stdout?.includes('"permissionDecision":"deny"'), built.stdout);
    match(built.stdout!, /mcp__docsearch__search/);
  });
});

Deno.test("hook core: SessionStart says when the project's lockfile changed since its dependency docs were indexed", async () => {
  const text = JSON.stringify({
    session_id: "s",
    cwd: "/work/app",
    hook_event_name: "SessionStart",
    source: "startup",
  });
  const stale = await hookOutput(
    input(text),
    seed,
    deps({ HOME: "/nowhere" }, [], [], "/work/app/package-lock.json"),
  );
  match(
    JSON.parse(stale.stdout!).hookSpecificOutput.additionalContext,
    /\/work\/app\/package-lock\.json changed since this project's dependency docs were indexed.*index add --project/,
  );
  const fresh = await hookOutput(input(text), seed, deps({ HOME: "/nowhere" }));
  ok(!(fresh.stdout ?? "").includes("changed since"), fresh.stdout);
});

const example = fixture("../config.example.json");
const bashEvent = (command: string) =>
  event("PreToolUse.Bash.json", { tool_input: { command, description: "read the docs" } });

Deno.test("hook core: a Bash command that reads no web page passes before the config or the state is looked up", async () => {
  for (
    const command of [
      "ls -la",
      "git clone https://docs.gitlab.com/gitlab-org/gitlab-docs.git",
      "curl -s https://docs.gitlab.com/api/v4/projects | jq .",
      "curl -fsSL https://docs.gitlab.com/install.sh | sh",
    ]
  ) {
    const looked: string[] = [];
    const opened: string[] = [];
    const lookup = { ...deps({ HOME: "/nowhere" }, opened), env: (name: string) => void looked.push(name) };
    assertEquals(await hookOutput(input(bashEvent(command)), undefined, lookup), {}, command);
    // Only the kill switch is read: no config location, no state directory.
    assertEquals([looked, opened], [["DOCSEARCH_HOOK_DISABLED"], []], command);
  }
});

Deno.test("hook core: a page read from Bash or an MCP tool of a host nothing covers passes without opening the state", async () => {
  const opened: string[] = [];
  for (
    const text of [
      bashEvent("curl -s https://developer.mozilla.org/en-US/docs/Web/HTTP | head"),
      event("PreToolUse.Bash.json", {
        tool_name: "mcp__fetch__fetch",
        tool_input: { url: "https://developer.mozilla.org/en-US/docs/Web/HTTP" },
      }),
    ]
  ) assertEquals(await hookOutput(input(text), example, deps({ HOME: "/nowhere" }, opened)), {});
  assertEquals(opened, []);
});

Deno.test("hook core: a covered page read from Bash or an MCP fetch tool is denied and recorded under its tool", async () => {
  const cases: [string, string][] = [
    [bashEvent("curl -s https://docs.gitlab.com/ee/ci/runners/ | head -100"), "Bash"],
    [
      event("PreToolUse.Bash.json", {
        tool_name: "mcp__fetch__fetch",
        tool_input: { url: "https://kubernetes.io/docs/concepts/workloads/pods/", max_length: 5000 },
      }),
      "mcp__fetch__fetch",
    ],
  ];
  for (const [text, tool] of cases) {
    const { recorded, deps } = fakeState(NO_SWITCHES);
    const out = await hookOutput(input(text), example, deps);
    const reason = JSON.parse(out.stdout!).hookSpecificOutput.permissionDecisionReason as string;
    match(reason, new RegExp(`\\(read by this ${tool} call\\): domain \\S+ matches the "\\w+" docs`));
    match(reason, /mcp__leann__leann_search \{"index_name":"(gitlab|kubernetes)","query":/);
    assertEquals(out.stderr, undefined);
    assertEquals([recorded[0].denied?.tool, recorded[0].observation?.tool], [tool, tool]);
  }
});

Deno.test("hook core: fetch_tools decides which tools besides WebFetch are redirected", async () => {
  await withDir(async (dir) => {
    const configFile = `${dir}/config.json`;
    const example = JSON.parse(await Deno.readTextFile(fixture("../config.example.json")));
    await Deno.writeTextFile(
      configFile,
      JSON.stringify({ ...example, fetch_tools: ["mcp__web__read_page"] }),
    );
    const curl = bashEvent("curl -s https://docs.gitlab.com/ee/ci/runners/");
    const opened: string[] = [];
    assertEquals(await hookOutput(input(curl), configFile, deps({ HOME: dir }, opened)), {});
    assertEquals(opened, []);
    const listed = event("PreToolUse.Bash.json", {
      tool_name: "mcp__web__read_page",
      tool_input: { url: "https://docs.gitlab.com/ee/ci/runners/" },
    });
    const out = await hookOutput(input(listed), configFile, fakeState(NO_SWITCHES).deps);
    ok(out.stdout?.includes('"permissionDecision":"deny"'), out.stdout);
  });
});

Deno.test("the hook command in a context: the event from its stdin, the denial on its stdout, remembered in its state", async () => {
  await using m = await machine();
  const call = event("PreToolUse.WebSearch.json");
  const first = m.context({}, call);
  assertEquals(await main(["hook", "--config", seed], first), 0);
  assertEquals(first.err, []);
  assertEquals(first.out.length, 1);
  const reason = JSON.parse(first.out[0]).hookSpecificOutput.permissionDecisionReason;
  match(reason, /gitlab/);
  ok(await exists(stateDbPath(m.state, Deno.build.os)), "the state is the context's");
  // The identical retry, a new call, passes: the denial was remembered in the context's state directory.
  const retry = m.context({}, newCall(call));
  assertEquals(await main(["hook", "--config", seed], retry), 0);
  assertEquals([retry.out, retry.err], [[], []]);
});

Deno.test("hookDeps: the hook command's process leaves its state open as it exits; a caller that goes on (doctor) closes it", async () => {
  await using m = await machine();
  const context = m.context();
  const stateDir = context.stateDir!;
  const left = await hookDeps(context, { exiting: true }).openState(stateDir, {}) as StateStore;
  left[Symbol.dispose]();
  ok(left.db.isOpen, "the exiting hook leaves it to the process's end");
  left.db.close();
  const closed = await hookDeps(context).openState(stateDir, {}) as StateStore;
  closed[Symbol.dispose]();
  ok(!closed.db.isOpen, "doctor's self-test, which goes on, must not leak it");
});
