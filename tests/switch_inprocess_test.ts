/**
 * `disable`, `enable` and `status` as functions of their context, through the command line's dispatch: the
 * session is chosen from the context's variables and directory, the state is the context's, the clock its
 * own, and the hook (run in process too) obeys what they switched.
 */
import { deepStrictEqual as assertEquals, match, ok } from "node:assert/strict";
import { main as cli } from "../lib/cli/commands.ts";
import { main as hook } from "../lib/hook/main.ts";
import { writeProgress } from "../lib/project/upkeep_progress.ts";
import { type CapturedContext, type Machine, machine, NOW, tree } from "./command_context.ts";
import { event, readFixture } from "./helpers.ts";

/** A machine with the example config as the user's. */
async function configured(): Promise<Machine> {
  const m = await machine();
  await Deno.mkdir(`${m.home}/.claude/hooks`, { recursive: true });
  await Deno.writeTextFile(
    `${m.home}/.claude/hooks/docsearch-config.json`,
    readFixture("../config.example.json"),
  );
  return m;
}

/** One hook event in process; what it printed. */
async function hookSays(m: Machine, text: string): Promise<string[]> {
  const ctx = m.context({}, text);
  assertEquals([await hook(["hook"], ctx), ctx.err], [0, []]);
  return ctx.out;
}

/** The fixture search (gitlab) from one session, in `cwd`. */
const gitlabSearch = (session: string, cwd: string) =>
  event("PreToolUse.WebSearch.json", { session_id: session, cwd });

/** A command run in `ctx`: its exit code and what it printed, each stream joined. */
async function run(argv: string[], ctx: CapturedContext) {
  const code = await cli(argv, ctx);
  return { code, out: ctx.out.join("\n"), err: ctx.err.join("\n") };
}

const HOUR = 3_600_000;

Deno.test("disable and enable in process act on the latest session in the context's directory; the hook obeys", async () => {
  await using m = await configured();
  await hookSays(m, event("SessionStart.json", { session_id: "in-dir", cwd: m.project }));

  const off = await run(["disable", "redirect"], m.context());
  assertEquals([off.code, off.err], [0, ""]);
  assertEquals(
    off.out.split("\n")[0],
    `In session in-dir (latest session in this directory; in ${m.project}, last active just now):`,
  );
  match(off.out, /\nDisabled the redirect feature for this session\. Web searches pass through\./);
  assertEquals(await hookSays(m, gitlabSearch("in-dir", m.project)), []);
  ok((await hookSays(m, gitlabSearch("other", m.home)))[0].includes('"permissionDecision":"deny"'));

  // Two hours on, by the context's clock.
  const later = { ...m.context(), now: () => NOW + 2 * HOUR };
  const text = await run(["status"], later);
  assertEquals([text.code, text.err], [0, ""]);
  assertEquals(
    text.out.split("\n")[0],
    `Status for session in-dir (latest session in this directory; in ${m.project}, last active 2 hours ago):`,
  );
  match(text.out, /^ {2}redirect +off .*\[off: switched off for this session\]$/m);
  const json = await run(["status", "--json"], m.context());
  assertEquals(JSON.parse(json.out).session, {
    id: "in-dir",
    via: "latest session in this directory",
    seen: true,
    description: `session in-dir (latest session in this directory; in ${m.project}, last active just now)`,
  });

  const on = await run(["enable", "redirect"], m.context());
  assertEquals([on.code, on.err], [0, ""]);
  match(on.out, /\nRe-enabled the redirect feature for this session\.$/);
  ok((await hookSays(m, gitlabSearch("in-dir", m.project)))[0].includes('"permissionDecision":"deny"'));
});

Deno.test("the session comes from the context's variables; without one, the refusal names the context's directory", async () => {
  await using m = await configured();
  const claude = await run(["disable", "redirect"], m.context({ CLAUDE_CODE_SESSION_ID: "from-claude" }));
  assertEquals([claude.code, claude.err], [0, ""]);
  match(claude.out, /^In session from-claude \(CLAUDE_CODE_SESSION_ID; not seen by the hook yet\):\n/);
  const status = await run(["status", "--json"], m.context({ RIPPERDOC_SESSION_ID: "from-ripperdoc" }));
  assertEquals(JSON.parse(status.out).session.via, "RIPPERDOC_SESSION_ID");

  const none = await run(["disable", "redirect"], m.context());
  assertEquals([none.code, none.out], [1, ""]);
  ok(
    none.err.startsWith(
      `docsearch-hook disable: no agent session found for ${m.project}\n  fix: pass --session ID`,
    ),
  );
  // The slash commands get every message on stdout, and exit 0.
  const slash = await run(["disable", "redirect", "--slash"], m.context());
  assertEquals([slash.code, slash.err, slash.out], [0, "", none.err]);
});

Deno.test("a session the hook has not seen takes its databases from the context's directory", async () => {
  await using m = await configured();
  await Deno.mkdir(`${m.project}/.claude`);
  await Deno.writeTextFile(
    `${m.project}/.claude/docsearch.json`,
    JSON.stringify({
      databases: [{ name: "terraform", keywords: ["terraform"], mcp_tool_name: "mcp__tf__search" }],
    }),
  );
  const off = await run(["disable", "terraform", "--session", "s1"], m.context());
  assertEquals([off.code, off.err], [0, ""]);
  match(off.out, /\nDisabled the "terraform" docs for this session\./);
  const elsewhere = await run(["disable", "terraform", "--session", "s1"], { ...m.context(), cwd: m.home });
  assertEquals(elsewhere.code, 1);
  match(elsewhere.err, /^docsearch-hook disable: nothing matches "terraform"/);
});

Deno.test("DOCSEARCH_HOOK_DISABLED in the context's variables: status says so and enable notes it", async () => {
  await using m = await configured();
  const kill = { DOCSEARCH_HOOK_DISABLED: "1" };
  const status = await run(["status", "--json", "--session", "s1"], m.context(kill));
  assertEquals(JSON.parse(status.out).killSwitch, true);
  const on = await run(["enable", "redirect", "--session", "s1"], m.context(kill));
  match(on.out, /\nNote: DOCSEARCH_HOOK_DISABLED is set, so the hook does nothing anyway\.$/);
  const without = await run(["status", "--json", "--session", "s1"], m.context());
  assertEquals(JSON.parse(without.out).killSwitch, false);
});

Deno.test("status names the config's problems, where a file that cannot be read would only look empty", async () => {
  await using m = await machine();
  await Deno.mkdir(`${m.home}/.claude/hooks`, { recursive: true });
  const file = `${m.home}/.claude/hooks/docsearch-config.json`;
  await Deno.writeTextFile(file, '{\n  "databases": [\n    {"name": "a", "keywords": ["a"]},\n  ]\n}\n');
  const status = await run(["status"], m.context());
  assertEquals(status.code, 0, status.err);
  ok(
    status.out.includes(
      `  problem: ${file}: invalid JSON at line 4, column 3: a comma before the closing bracket, which JSON does ` +
        "not allow (docsearch-hook check lists them)",
    ),
    status.out,
  );
  assertEquals(JSON.parse((await run(["status", "--json"], m.context())).out).configProblems.length, 1);
});

Deno.test("status and the list of switches in process, with no state yet, create nothing", async () => {
  await using m = await configured();
  const status = await run(["status"], m.context());
  assertEquals([status.code, status.err], [0, ""]);
  match(status.out, /^No session found for this directory \(pass --session ID/);
  const list = await run(["disable"], m.context());
  assertEquals([list.code, list.err], [0, ""]);
  match(list.out, /^What can be switched off for a session:\nFeatures:\n/);
  assertEquals(await tree(m.state), []);
});

Deno.test("status: how the upkeep of the project's dependency docs is doing, from its record; off when the config says so", async () => {
  await using m = await configured();
  const none = await run(["status"], m.context());
  ok(!none.out.includes("Dependency docs"), none.out);

  writeProgress("linux", m.state, {
    project: m.project,
    phase: "building",
    total: 7,
    ready: 3,
    built: 2,
    missing: 0,
    started: NOW - 12_000,
    updated: NOW - 1000,
  });
  const building = await run(["status"], m.context());
  match(
    building.out,
    new RegExp(
      `\nDependency docs of ${m.project}: building: 3 of 7 packages ready \\(2 built now, 1 before\\), for 12\\.0 s\n`,
    ),
  );
  const json = JSON.parse((await run(["status", "--json"], m.context())).out);
  assertEquals([json.dependencyDocs.project, json.dependencyDocs.ok], [m.project, true]);

  await Deno.mkdir(`${m.project}/.claude`);
  await Deno.writeTextFile(`${m.project}/.claude/docsearch.json`, '{"dependency_docs": {"auto": false}}');
  match(
    (await run(["status"], m.context())).out,
    /\nDependency docs of .*: not kept up to date in the background \(dependency_docs\.auto is false; .*; the last build: building: 3 of 7/,
  );
});
