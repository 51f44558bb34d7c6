/**
 * `check` as a function of its context, through the command line's dispatch: the config looked up from the
 * context's HOME and directory, the built-in search named as the context's variables name it, the output
 * captured, and nothing written.
 */
import { deepStrictEqual as assertEquals, match, ok } from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { main as cli } from "../lib/cli/commands.ts";
import { main as hook } from "../lib/hook/main.ts";
import { type Machine, machine, tree } from "./command_context.ts";
import { event, fixture, readFixture } from "./helpers.ts";

const userConfigOf = (m: Machine) => `${m.home}/.claude/hooks/docsearch-config.json`;
const projectConfigOf = (m: Machine) => `${m.project}/.claude/docsearch.json`;

/** The example config as the user's, and a project layer adding a terraform database. */
async function layered(m: Machine): Promise<void> {
  await Deno.mkdir(`${m.home}/.claude/hooks`, { recursive: true });
  await Deno.writeTextFile(userConfigOf(m), readFixture("../config.example.json"));
  await Deno.mkdir(`${m.project}/.claude`);
  await Deno.writeTextFile(
    projectConfigOf(m),
    JSON.stringify({
      databases: [{ name: "terraform", keywords: ["terraform"], mcp_tool_name: "mcp__docsearch__search" }],
    }),
  );
}

Deno.test("check in process reads the layers of the context's HOME and directory, and writes nothing", async () => {
  await using m = await machine();
  await layered(m);
  const ctx = m.context();
  assertEquals(await cli(["check", "gitlab", "or", "terraform"], ctx), 0);
  assertEquals(ctx.err, []);
  const text = ctx.out.join("\n");
  ok(text.includes(`Config files: ${userConfigOf(m)}, ${projectConfigOf(m)}\n`), text);
  match(
    text,
    /\nDecision: +deny, 2 databases match:\n {2}- gitlab \(keyword "gitlab"\) → mcp__leann__leann_search/,
  );
  match(text, /\n {2}- terraform \(keyword "terraform"\) → mcp__docsearch__search for "/);
  assertEquals(await tree(m.home), [
    ".claude/",
    ".claude/hooks/",
    ".claude/hooks/docsearch-config.json",
    "project/",
    "project/.claude/",
    "project/.claude/docsearch.json",
  ]);

  // From elsewhere, the project's layer is not looked up.
  const home = { ...m.context(), cwd: m.home };
  assertEquals(await cli(["check", "terraform"], home), 0);
  match(home.out.join("\n"), /\nDecision: +allow/);
});

Deno.test("check in process names the built-in search as the plugin the context's variables name", async () => {
  await using m = await machine();
  await layered(m);
  const plugin = m.context({ DOCSEARCH_PLUGIN: "docsearch" });
  assertEquals(await cli(["check", "terraform"], plugin), 0);
  match(
    plugin.out.join("\n"),
    /\n {2}- terraform \(keyword "terraform"\) → mcp__plugin_docsearch_docsearch__search for "/,
  );
});

Deno.test("check --json in process prints exactly what the hook, in process too, prints for a first request", async () => {
  await using m = await machine();
  const example = fixture("../config.example.json");
  const check = m.context();
  const query = ["how to configure gitlab ci runners", "--domain", "docs.gitlab.com"];
  assertEquals(await cli(["check", "--json", "--config", example, ...query], check), 0);
  const run = m.context({}, event("PreToolUse.WebSearch.json"));
  assertEquals(await hook(["hook", "--config", example], run), 0);
  assertEquals(check.out.length, 1);
  assertEquals([check.out, check.err], [run.out, []]);

  const nothing = m.context();
  assertEquals(await cli(["check", "--json", "--config", example, "pizza"], nothing), 0);
  assertEquals([nothing.out, nothing.err], [[], []]);
});

Deno.test("check in process: config problems on its stderr and exit 1; no query is a usage error", async () => {
  await using m = await machine();
  const bad = m.context();
  assertEquals(await cli(["check", "--config", fixture("config/one-bad-entry.json"), "gitlab"], bad), 1);
  match(bad.out.join("\n"), /\nDecision: +deny/);
  match(bad.err[0], /^problem: .*one-bad-entry\.json: databases\[0\]\.keywords: .*database skipped/);
  match(bad.err.at(-1)!, /^docsearch-hook check: the config has 1 problem\(s\), listed above/);

  const empty = m.context();
  assertEquals(await cli(["check"], empty), 2);
  assertEquals(empty.out, []);
  match(empty.err.join("\n"), /^docsearch-hook check: give a search query \(or --url URL\)\nUsage: /);
});

/** A config file whose one database sends PostgreSQL searches to the built-in index `pg`; its path. */
async function pgConfig(m: Machine): Promise<string> {
  const config = `${m.home}/config.json`;
  await Deno.writeTextFile(
    config,
    JSON.stringify({
      databases: [{
        name: "pg",
        keywords: ["postgresql"],
        mcp_tool_name: "mcp__docsearch__search",
        tool_args: { index: "pg" },
      }],
    }),
  );
  return config;
}

Deno.test("check and the hook, in process, agree on a built-in index that is not built: both allow until it is", async () => {
  await using m = await machine();
  const config = await pgConfig(m);
  const search = {
    tool_input: { query: "postgresql vacuum settings", allowed_domains: [], blocked_domains: [] },
  };
  const decide = async () => {
    const check = m.context();
    assertEquals(await cli(["check", "--json", "--config", config, "postgresql vacuum settings"], check), 0);
    const run = m.context({}, event("PreToolUse.WebSearch.json", search));
    assertEquals(await hook(["hook", "--config", config], run), 0);
    assertEquals(check.out, run.out);
    return check.out.length === 0 ? "allow" : "deny";
  };
  assertEquals(await decide(), "allow");
  const told = m.context();
  assertEquals(await cli(["check", "--config", config, "postgresql vacuum settings"], told), 0);
  match(
    told.out.join("\n"),
    /\nPassed over: +pg \(index pg\): the index is not built, so the hook lets these through\n/,
  );
  match(told.out.join("\n"), /\nDecision: +allow/);

  // Built, from a page that answers the search: both deny with it quoted; a search it does not answer passes.
  await Deno.mkdir(`${m.home}/pg`);
  await Deno.writeTextFile(
    `${m.home}/pg/vacuum.md`,
    "# Vacuum settings\n\nPostgreSQL vacuum settings: autovacuum_vacuum_scale_factor sets how much of a table " +
      "changes before autovacuum runs.\n",
  );
  assertEquals(await cli(["index", "add", "pg", `${m.home}/pg`, "--no-config"], m.context()), 0);
  assertEquals(await decide(), "deny");
  const answered = m.context();
  assertEquals(await cli(["check", "--config", config, "postgresql vacuum settings"], answered), 0);
  match(answered.out.join("\n"), /\nDecision: +deny with the local answer, 1 database matches:/);
  const unanswered = m.context();
  assertEquals(
    await cli(["check", "--config", config, "postgresql logical replication slots"], unanswered),
    0,
  );
  match(unanswered.out.join("\n"), /\nDecision: +allow: pg matches, but no passage of its pages answers it/);
  // The hook lets it through, and stats lists it among the searches the local docs did not answer.
  const replication = { tool_input: { query: "postgresql logical replication slots" } };
  const passed = m.context({}, event("PreToolUse.WebSearch.json", replication));
  assertEquals([await hook(["hook", "--config", config], passed), passed.out], [0, []]);
  const stats = m.context();
  assertEquals(await cli(["stats"], stats), 0);
  match(
    stats.out.join("\n"),
    /\nMatched, but the local docs held no answer \(let through to the web\):\n +1× +postgresql logical replication slots {2}→ pg\n/,
  );
});

Deno.test("the hook in process: a project's entry whose index names a file out of the indexes' folder opens nothing", async () => {
  await using m = await machine();
  // An index folder there is, so that a path through it reaches the file beside it.
  await Deno.mkdir(`${m.state}/indexes`, { recursive: true });
  const victim = `${m.state}/victim.db`;
  const db = new DatabaseSync(victim);
  db.exec("CREATE TABLE t (x); INSERT INTO t VALUES (1);");
  db.close();
  await Deno.mkdir(`${m.project}/.claude`);
  await Deno.writeTextFile(
    projectConfigOf(m),
    JSON.stringify({
      databases: [{
        keywords: ["gitlab"],
        mcp_tool_name: "mcp__docsearch__search",
        tool_args: { index: "../victim" },
      }],
    }),
  );
  const search = { cwd: m.project, tool_input: { query: "gitlab runner registration" } };
  const run = m.context({}, event("PreToolUse.WebSearch.json", search));
  assertEquals(await hook(["hook"], run), 0);
  assertEquals(run.out, [], "no entry the hook can search: the search passes");
  // Opened as an index, it would have been given the index's tables (and write-ahead logging).
  const after = new DatabaseSync(victim, { readOnly: true });
  try {
    assertEquals(after.prepare("SELECT name FROM sqlite_master").all().map((row) => row.name), ["t"]);
    assertEquals(after.prepare("PRAGMA journal_mode").get()?.journal_mode, "delete");
  } finally {
    after.close();
  }
});

Deno.test("the hook in process: a damaged index answers nothing, and the state beside it is kept", async () => {
  await using m = await machine();
  const config = await pgConfig(m);
  await Deno.mkdir(`${m.home}/pg`);
  for (let i = 0; i < 40; i++) {
    await Deno.writeTextFile(
      `${m.home}/pg/page${i}.md`,
      `# Vacuum ${i}\n\n${
        "PostgreSQL vacuum settings and autovacuum thresholds for busy tables. ".repeat(40)
      }\n`,
    );
  }
  assertEquals(await cli(["index", "add", "pg", `${m.home}/pg`, "--no-config"], m.context()), 0);
  const file = `${m.state}/indexes/pg.db`;
  const bytes = await Deno.readFile(file);
  bytes.fill(0xa5, 8192, bytes.length - 4096);
  await Deno.writeFile(file, bytes);
  const run = m.context(
    {},
    event("PreToolUse.WebSearch.json", { tool_input: { query: "postgresql vacuum settings" } }),
  );
  assertEquals(await hook(["hook", "--config", config], run), 0);
  assertEquals(run.out, []);
  assertEquals((await tree(m.state)).filter((path) => path.includes(".corrupt")), []);
  // An empty file where the index goes is read, not written: no index's tables are made in it.
  await Deno.remove(file);
  await Deno.writeFile(file, new Uint8Array());
  const empty = m.context(
    {},
    event("PreToolUse.WebSearch.json", { tool_input: { query: "postgresql vacuum settings" } }),
  );
  assertEquals(await hook(["hook", "--config", config], empty), 0);
  assertEquals(empty.out, []);
  assertEquals((await Deno.stat(file)).size, 0);
});

Deno.test("the hook in process: a subagent whose definition leaves the docs tool out is let through, others denied", async () => {
  await using m = await machine();
  const example = fixture("../config.example.json");
  await Deno.mkdir(`${m.project}/.claude/agents`, { recursive: true });
  await Deno.writeTextFile(
    `${m.project}/.claude/agents/researcher.md`,
    "---\nname: researcher\ndescription: Looks things up\ntools: Read, Grep, WebSearch\n---\nYou research.\n",
  );
  await Deno.writeTextFile(
    `${m.project}/.claude/agents/librarian.md`,
    "---\nname: librarian\ndescription: Reads the docs\ntools: Read, mcp__leann\n---\nYou read docs.\n",
  );
  const run = async (agentType?: string) => {
    const ctx = m.context(
      {},
      // A session each: the same search again in one session would be the retry.
      event("PreToolUse.WebSearch.json", {
        session_id: `session-${agentType ?? "main"}`,
        cwd: m.project,
        ...agentType === undefined ? {} : { agent_id: "a1", agent_type: agentType },
      }),
    );
    assertEquals(await hook(["hook", "--config", example], ctx), 0);
    return ctx.out.length === 0 ? "allow" : "deny";
  };
  assertEquals(await run("researcher"), "allow");
  assertEquals(await run("librarian"), "deny");
  // Claude Code's own agents, and the main session, have every tool.
  assertEquals(await run("Explore"), "deny");
  assertEquals(await run(), "deny");
  const log = m.context();
  assertEquals(await cli(["log", "--json"], log), 0);
  ok(log.out.join("\n").includes('"outcome": "no-tool"'), log.out.join("\n"));
});
