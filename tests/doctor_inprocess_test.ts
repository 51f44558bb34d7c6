/**
 * `doctor` as a function of its context: the machine it checks is the temp HOME in the context's env (the
 * self-test's hook call included), its report captured; no subprocess, and this process's environment untouched.
 */
import { deepStrictEqual as assertEquals, match, ok } from "node:assert/strict";
import { run as doctor } from "../lib/doctor/doctor_command.ts";
import { install } from "../lib/install/install_command.ts";
import { writeProgress } from "../lib/project/upkeep_progress.ts";
import { type CapturedContext, type Machine, machine, NOW } from "./command_context.ts";
import { readFixture } from "./helpers.ts";

const userConfigOf = (m: Machine) => `${m.home}/.claude/hooks/docsearch-config.json`;

/**
 * An install, then the example config as the user config (install writes one with no databases), its two
 * index folders, and the MCP server of its LEANN tools; not the server of its third tool (mcp__docs__search).
 */
async function workingSetup(m: Machine) {
  for (const name of ["gitlab", "kubernetes"]) {
    await Deno.mkdir(`${m.home}/.leann/indexes/${name}`, { recursive: true });
  }
  const leann = { type: "stdio", command: "leann_mcp", args: [] };
  await Deno.writeTextFile(`${m.home}/.claude.json`, JSON.stringify({ mcpServers: { leann } }));
  assertEquals(install({ values: {} }, m.context()), 0);
  await Deno.writeTextFile(userConfigOf(m), readFixture("../config.example.json"));
}

/** The check lines that are not ✓. */
const problems = (ctx: CapturedContext) =>
  ctx.out.join("\n").split("\n").filter((l) => /^[!✗] /.test(l)).map((l) => l.slice(0, l.indexOf(": ")));

/** The report's one line for the check `name`. */
function line(ctx: CapturedContext, name: string): string {
  const lines = ctx.out.join("\n").split("\n").filter((l) =>
    /^[✓!✗] /.test(l) && l.startsWith(`${name}:`, 2)
  );
  assertEquals(lines.length, 1, ctx.out.join("\n"));
  return lines[0];
}

/** The fix printed under the check `name`. */
function fixOf(ctx: CapturedContext, name: string): string {
  const lines = ctx.out.join("\n").split("\n");
  const next = lines[lines.indexOf(line(ctx, name)) + 1] ?? "";
  const fix = /^\s+fix: (.+)$/.exec(next);
  ok(fix, `no fix under "${name}":\n${lines.join("\n")}`);
  return fix[1];
}

Deno.test("doctor in process after an install in process: the registration ✓; with the example config, ✗ and exit 1 for its unconfigured MCP server only", async () => {
  await using m = await machine();
  await workingSetup(m);
  const ctx = m.context();
  assertEquals(await doctor({ values: {} }, ctx), 1, ctx.out.join("\n"));
  match(line(ctx, "Claude Code, user scope"), /^✓ .*\b9 events\b/);
  ok(line(ctx, `config ${userConfigOf(m)}`).startsWith("✓ "), ctx.out.join("\n"));
  ok(line(ctx, "database gitlab").startsWith("✓ "), ctx.out.join("\n"));
  ok(line(ctx, "MCP tool mcp__leann__leann_search").startsWith("✓ "), ctx.out.join("\n"));
  match(line(ctx, "state"), new RegExp(`^✓ state: ${m.state}/docsearch\\.db: .*\\(created now\\)$`));
  match(
    line(ctx, "self-test"),
    /^✓ self-test: a WebSearch for "gitlab documentation" was denied with guidance/,
  );
  // The example's third database names a tool no server here provides: every search it matches would be
  // denied and sent to a tool the agent does not have.
  match(
    line(ctx, "MCP tool mcp__docs__search"),
    /^✗ MCP tool mcp__docs__search: no MCP server "docs" is configured/,
  );
  assertEquals(problems(ctx), ["✗ MCP tool mcp__docs__search"], ctx.out.join("\n"));
  assertEquals(ctx.out.join("\n").split("\n").at(-1), "1 problem, 0 warnings.");
});

Deno.test("doctor in process sees the context's environment only: its kill switch, and the self-test still runs", async () => {
  await using m = await machine();
  await workingSetup(m);
  const ctx = m.context({ DOCSEARCH_HOOK_DISABLED: "1" });
  // Exit 1 for the example's unconfigured docs server alone: the kill switch is a warning.
  assertEquals(await doctor({ values: {} }, ctx), 1, ctx.out.join("\n"));
  match(line(ctx, "kill switch"), /^! kill switch: DOCSEARCH_HOOK_DISABLED is set/);
  match(line(ctx, "self-test"), /^✓ self-test: .* was denied/);
  assertEquals(problems(ctx), ["✗ MCP tool mcp__docs__search", "! kill switch"], ctx.out.join("\n"));
});

Deno.test("doctor in process with a built-in database whose index file is missing: a warning naming `index add`; ✓ once the file is there", async () => {
  await using m = await machine();
  // --mcp registers the built-in server, so its tool's MCP check is not what this is about.
  assertEquals(install({ values: { mcp: true } }, m.context()), 0);
  const pg = {
    name: "pg",
    keywords: ["postgres"],
    mcp_tool_name: "mcp__docsearch__search",
    tool_args: { index: "pg", query: "{query}" },
    description: "PostgreSQL documentation",
  };
  await Deno.writeTextFile(
    userConfigOf(m),
    JSON.stringify({ escape_hatch_ttl_seconds: 300, databases: [pg] }),
  );
  const file = `${m.state}/indexes/pg.db`;

  const missing = m.context();
  await doctor({ values: {} }, missing);
  assertEquals(
    line(missing, "database pg"),
    `! database pg: there is no index pg (${file}): its web searches pass until there is`,
  );
  assertEquals(
    fixOf(missing, "database pg"),
    `docsearch-hook index add pg <docs folder|file|URL>, or remove the entry from ${userConfigOf(m)}`,
  );
  ok(line(missing, "MCP tool mcp__docsearch__search").startsWith("✓ "), missing.out.join("\n"));

  await Deno.mkdir(`${m.state}/indexes`, { recursive: true });
  await Deno.writeTextFile(file, "");
  const present = m.context();
  await doctor({ values: {} }, present);
  assertEquals(line(present, "database pg"), `✓ database pg: index pg exists (${file})`);
});

Deno.test("doctor --json in process on a HOME without install: ok false, the registration ✗ with install as the fix, exit 1", async () => {
  await using m = await machine();
  const ctx = m.context();
  assertEquals(await doctor({ values: { json: true } }, ctx), 1);
  const report = JSON.parse(ctx.out.join("\n"));
  assertEquals(report.ok, false);
  const registration = report.checks.find((c: { name: string }) => c.name === "registration");
  assertEquals(registration.status, "fail");
  match(registration.fix, /^docsearch-hook install\b/);
});

Deno.test("doctor in process: the project's dependency docs as the upkeep's record says; a failure is a warning with a fix; no record, no line", async () => {
  await using m = await machine();
  await workingSetup(m);
  const none = m.context();
  await doctor({ values: {} }, none);
  ok(!none.out.join("\n").includes("dependency docs"), none.out.join("\n"));

  const record = {
    project: m.project,
    phase: "done" as const,
    total: 3,
    ready: 3,
    built: 2,
    missing: 0,
    started: NOW - 65_000,
    finished: NOW - 60_000,
    updated: NOW - 60_000,
  };
  writeProgress("linux", m.state, record);
  const done = m.context();
  await doctor({ values: {} }, done);
  match(
    line(done, "dependency docs"),
    new RegExp(`^✓ dependency docs: ${m.project}: up to date: 3 of 3 packages`),
  );

  writeProgress("linux", m.state, { ...record, phase: "failed", error: "zod 4.1.12: disk full" });
  const failed = m.context();
  await doctor({ values: {} }, failed);
  match(line(failed, "dependency docs"), /^! dependency docs: .*: failed: zod 4\.1\.12: disk full;/);
  match(fixOf(failed, "dependency docs"), /^run docsearch-hook index add --project in /);
});
