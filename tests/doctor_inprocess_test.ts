/**
 * `doctor` as a function of its context: the machine it checks is the temp HOME in the context's env (the
 * self-test's hook call included), its report captured; no subprocess, and this process's environment untouched.
 */
import { deepStrictEqual as assertEquals, match, ok } from "node:assert/strict";
import { run as doctor } from "../lib/doctor/doctor_command.ts";
import { main } from "../lib/cli/commands.ts";
import { install } from "../lib/install/install_command.ts";
import { writeProgress } from "../lib/project/upkeep_progress.ts";
import { type CapturedContext, type Machine, machine, NOW, tree } from "./command_context.ts";
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

/** The built-in index pg's database, sent to docsearch-hook's own MCP server's tool. */
const PG = {
  name: "pg",
  keywords: ["postgres"],
  mcp_tool_name: "mcp__docsearch__search",
  tool_args: { index: "pg", query: "{query}" },
  description: "PostgreSQL documentation",
};

Deno.test("doctor in process with a built-in database whose index file is missing: a warning naming `index add`; a file there that is not an index ✗, and left as it was", async () => {
  await using m = await machine();
  // --mcp registers the built-in server, so its tool's MCP check is not what this is about.
  assertEquals(install({ values: { mcp: true } }, m.context()), 0);

  await Deno.writeTextFile(
    userConfigOf(m),
    JSON.stringify({ escape_hatch_ttl_seconds: 300, databases: [PG] }),
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

  // A file there that is not an index: ✗, opened without writing to it, and passed over by the self-test.
  await Deno.mkdir(`${m.state}/indexes`, { recursive: true });
  await Deno.writeTextFile(file, "");
  const empty = m.context();
  assertEquals(await doctor({ values: {} }, empty), 1, empty.out.join("\n"));
  assertEquals(
    line(empty, "database pg"),
    `✗ database pg: ${file} is not an index docsearch-hook can search (it has no passages table: it is not a ` +
      "docsearch-hook index): its web searches pass",
  );
  assertEquals(
    fixOf(empty, "database pg"),
    "docsearch-hook index add pg <docs folder|file|URL> --replace, or remove the file",
  );
  match(
    line(empty, "self-test"),
    /^✓ self-test: a WebSearch passed, as it should with no enabled database whose index exists/,
  );
  assertEquals((await Deno.stat(file)).size, 0);
  assertEquals(await tree(`${m.state}/indexes`), ["pg.db"]);

  await Deno.writeTextFile(file, "not an SQLite file, but text where one should be\n");
  const garbage = m.context();
  assertEquals(await doctor({ values: {} }, garbage), 1, garbage.out.join("\n"));
  assertEquals(
    line(garbage, "database pg"),
    `✗ database pg: ${file} is not an index docsearch-hook can search (file is not a database): its web ` +
      "searches pass",
  );
  assertEquals(await Deno.readTextFile(file), "not an SQLite file, but text where one should be\n");
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

/** A file standing in for an installed binary (doctor looks for it, and does not run it). */
async function fakeBinary(path: string) {
  await Deno.mkdir(path.slice(0, path.lastIndexOf("/")), { recursive: true });
  await Deno.writeTextFile(path, "#!/bin/sh\n");
}

/** A stand-in binary at `bin`, installed for Claude Code: its variables, settings file and that file's text. */
async function installedAt(m: Machine, bin: string) {
  await fakeBinary(bin);
  const vars = { DOCSEARCH_HOOK_SELF: bin };
  assertEquals(install({ values: {} }, m.context(vars)), 0);
  const settings = `${m.home}/.claude/settings.json`;
  return { bin, vars, settings, installed: await Deno.readTextFile(settings) };
}

Deno.test("doctor in process: a registered command written with ~, $HOME or ${HOME} runs the binary in the home directory, as the shell reads it", async () => {
  await using m = await machine();
  const { bin, vars, settings, installed } = await installedAt(m, `${m.home}/.local/bin/docsearch-hook`);
  for (
    const written of [
      "~/.local/bin/docsearch-hook",
      "$HOME/.local/bin/docsearch-hook",
      "${HOME}/.local/bin/docsearch-hook",
    ]
  ) {
    await Deno.writeTextFile(settings, installed.replaceAll(bin, written));
    const ctx = m.context(vars);
    assertEquals(await doctor({ values: {} }, ctx), 0, ctx.out.join("\n"));
    assertEquals(
      line(ctx, "Claude Code, user scope"),
      `✓ Claude Code, user scope: registered for all 9 events, running this docsearch-hook (${settings})`,
    );
  }
  // Once the binary is gone, the command as written is what is missing.
  await Deno.remove(bin);
  const ctx = m.context(vars);
  assertEquals(await doctor({ values: {} }, ctx), 1, ctx.out.join("\n"));
  assertEquals(
    line(ctx, "Claude Code, user scope").split(" (")[0],
    "✗ Claude Code, user scope: the registered command runs ${HOME}/.local/bin/docsearch-hook, which does not exist",
  );
});

Deno.test("doctor in process: a word added after hook that the hook does not take is ✗, since the hook then lets every event through", async () => {
  await using m = await machine();
  const { bin, vars, settings, installed } = await installedAt(m, `${m.home}/.local/bin/docsearch-hook`);
  // An option the hook takes is fine.
  await Deno.writeTextFile(settings, installed.replaceAll(`${bin} hook`, `${bin} hook --config ~/my.json`));
  const fine = m.context(vars);
  assertEquals(await doctor({ values: {} }, fine), 0, fine.out.join("\n"));
  for (
    const [added, what] of [
      ["verbose", 'the word "verbose"'],
      ["--verbose", "unknown option --verbose"],
    ]
  ) {
    await Deno.writeTextFile(settings, installed.replaceAll(`${bin} hook`, `${bin} hook ${added}`));
    const ctx = m.context(vars);
    assertEquals(await doctor({ values: {} }, ctx), 1, ctx.out.join("\n"));
    const check = line(ctx, "Claude Code, user scope");
    ok(
      check.startsWith(
        `✗ Claude Code, user scope: the registered command gives the hook more than it takes (${what})`,
      ),
      check,
    );
    match(check, /: the hook refuses it and lets every event through \(/);
  }
});

Deno.test("doctor in process: DOCSEARCH_HOOK_SELF as a bare name is the binary PATH finds, for the binary line and the registration", async () => {
  await using m = await machine();
  const bin = `${m.home}/tools/docsearch-hook`;
  await fakeBinary(bin);
  const vars = { DOCSEARCH_HOOK_SELF: "docsearch-hook", PATH: `/nonexistent:${m.home}/tools` };
  assertEquals(install({ values: {} }, m.context(vars)), 0);
  const settings = `${m.home}/.claude/settings.json`;
  ok((await Deno.readTextFile(settings)).includes('"command": "docsearch-hook hook"'));
  const ctx = m.context(vars);
  assertEquals(await doctor({ values: {} }, ctx), 0, ctx.out.join("\n"));
  match(line(ctx, "binary"), new RegExp(`^✓ binary: docsearch-hook \\S+ \\(docsearch-hook: ${bin}\\)$`));
  assertEquals(
    line(ctx, "Claude Code, user scope"),
    `✓ Claude Code, user scope: registered for all 9 events, running this docsearch-hook (${settings})`,
  );
  // Not on this PATH: the binary line says so.
  const off = m.context({ ...vars, PATH: "/nonexistent" });
  assertEquals(await doctor({ values: {} }, off), 1, off.out.join("\n"));
  assertEquals(
    line(off, "binary"),
    "✗ binary: DOCSEARCH_HOOK_SELF names docsearch-hook, which is not on PATH",
  );
});

Deno.test("doctor in process: each agent's MCP tools are its own servers: Gemini CLI's docsearch server is not Claude Code's", async () => {
  await using m = await machine();
  assertEquals(install({ values: {} }, m.context()), 0);
  assertEquals(install({ values: { agent: "gemini", mcp: true } }, m.context()), 0);
  await Deno.writeTextFile(userConfigOf(m), JSON.stringify({ databases: [PG] }));
  const ctx = m.context();
  assertEquals(await doctor({ values: {} }, ctx), 1, ctx.out.join("\n"));
  const gemini = `${m.home}/.gemini/settings.json`;
  assertEquals(
    line(ctx, "MCP tool mcp__docsearch__search (Claude Code)"),
    `✗ MCP tool mcp__docsearch__search (Claude Code): no MCP server "docsearch" is configured for Claude Code ` +
      `(used by pg; looked in ${m.home}/.claude.json, ${m.project}/.mcp.json)`,
  );
  assertEquals(
    fixOf(ctx, "MCP tool mcp__docsearch__search (Claude Code)"),
    "docsearch-hook install --mcp registers docsearch-hook's own (or install the plugin, which brings it)",
  );
  assertEquals(
    line(ctx, "MCP tool mcp__docsearch__search (Gemini CLI)"),
    `✓ MCP tool mcp__docsearch__search (Gemini CLI): server "docsearch" is configured in ${gemini} ` +
      "(used by pg)",
  );
});

Deno.test("doctor in process: docsearch-hook's own MCP server whose program is gone is ✗ with install --mcp", async () => {
  await using m = await machine();
  assertEquals(install({ values: { mcp: true } }, m.context()), 0);
  await Deno.writeTextFile(userConfigOf(m), JSON.stringify({ databases: [PG] }));
  const claudeJson = `${m.home}/.claude.json`;
  const installed = JSON.parse(await Deno.readTextFile(claudeJson));
  const server = installed.mcpServers.docsearch;
  server.args = server.args.map((arg: string) =>
    arg.endsWith("/docsearch-hook.js") ? "/gone/dist/docsearch-hook.js" : arg
  );
  await Deno.writeTextFile(claudeJson, JSON.stringify(installed));
  const ctx = m.context();
  assertEquals(await doctor({ values: {} }, ctx), 1, ctx.out.join("\n"));
  assertEquals(
    line(ctx, "MCP tool mcp__docsearch__search"),
    `✗ MCP tool mcp__docsearch__search: server "docsearch" in ${claudeJson} runs /gone/dist/docsearch-hook.js, ` +
      "which does not exist: the tool does not start",
  );
  assertEquals(
    fixOf(ctx, "MCP tool mcp__docsearch__search"),
    "register this binary's server instead: docsearch-hook install --mcp",
  );
});

Deno.test("doctor in process: the self-test on a built-in index searches what the index answers, and is denied with its passages", async () => {
  await using m = await machine();
  assertEquals(install({ values: { mcp: true } }, m.context()), 0);
  const docs = `${m.project}/docs`;
  await Deno.mkdir(docs);
  // Nothing here answers "postgres documentation": that search is let through, as the hook lets it.
  await Deno.writeTextFile(
    `${docs}/vacuum.md`,
    "# Routine Vacuuming\n\nVACUUM reclaims storage occupied by dead tuples and updates planner statistics.\n",
  );
  const added = m.context();
  assertEquals(await main(["index", "add", "pg", "docs"], added), 0, added.out.join("\n"));
  await Deno.writeTextFile(userConfigOf(m), JSON.stringify({ databases: [PG] }));
  const ctx = m.context();
  assertEquals(await doctor({ values: {} }, ctx), 0, ctx.out.join("\n"));
  match(line(ctx, "database pg"), /^✓ database pg: index pg: \d+ passages? \(/);
  match(
    line(ctx, "self-test"),
    /^✓ self-test: a WebSearch for "postgres Routine Vacuuming" was denied with guidance to mcp__docsearch__search, its identical retry let through/,
  );
});
