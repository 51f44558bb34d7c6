/**
 * Capture end to end: real hook processes (`deno run -A main.ts hook`) writing one state database, then
 * the database, its WAL and the `log`/`stats`/`prune` commands checked from outside.
 */
import { deepStrictEqual as assertEquals, match, ok } from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { hash53 } from "../../lib/hash.ts";
import { requestIdentity, webRequestFrom } from "../../lib/redirect/request.ts";
import { openStateDb, SCHEMA_VERSION } from "../../lib/state/db.ts";
import { event, readFixture, ROOT, runCli, type Sandbox, sandbox } from "../helpers.ts";

type Step = Record<string, unknown> | { parallel: Record<string, unknown>[] };
const replay = JSON.parse(readFixture("sessions/replay.json")) as { secrets: string[]; steps: Step[] };

async function withConfig(extraEnv: Record<string, string> = {}): Promise<Sandbox> {
  const box = await sandbox(extraEnv);
  await Deno.mkdir(`${box.home}/.claude/hooks`, { recursive: true });
  await Deno.copyFile(`${ROOT}config.example.json`, `${box.home}/.claude/hooks/docsearch-config.json`);
  return box;
}

const hook = (box: Sandbox, stdin: string) => runCli(["hook"], { env: box.env, stdin });

async function expectSilentSuccess(box: Sandbox, stdin: string) {
  const out = await hook(box, stdin);
  assertEquals([out.code, out.stderr], [0, ""], `hook failed on ${stdin.slice(0, 200)}`);
  return out;
}

function query<T>(box: Sandbox, sql: string, ...params: (string | number)[]): T[] {
  const db = new DatabaseSync(`${box.state}/docsearch.db`, { readOnly: true });
  try {
    return (db.prepare(sql).all(...params) as unknown as T[]).map((row) => ({ ...row }));
  } finally {
    db.close();
  }
}

Deno.test("replay: a realistic session leaves the expected rows, correct stats and no secret byte on disk", async () => {
  await using box = await withConfig({ CLAUDECODE: "1" });
  // Each hook process closes the database, and the last one to close moves the WAL into the file and removes
  // it. A connection held open here keeps every hook from being the last, so the WAL they wrote stays to be
  // searched for secrets too.
  using watcher = openStateDb(box.state, "linux");
  watcher.prepare("SELECT count(*) FROM sessions").get();
  let denials = 0;
  for (const step of replay.steps) {
    const events = "parallel" in step ? step.parallel as Record<string, unknown>[] : [step];
    const outs = await Promise.all(events.map((e) => hook(box, JSON.stringify(e))));
    for (const out of outs) {
      assertEquals([out.code, out.stderr], [0, ""]);
      if (out.stdout.includes('"permissionDecision":"deny"')) denials++;
    }
  }
  assertEquals(denials, 3);

  // Before anything opens the database again: every file the hook wrote, the WAL included.
  const files = [...Deno.readDirSync(box.state)].map((entry) => entry.name).sort();
  ok(files.includes("docsearch.db-wal"), `no WAL to check among ${files}`);
  for (const name of files) {
    const bytes = new TextDecoder("latin1").decode(Deno.readFileSync(`${box.state}/${name}`));
    for (const secret of replay.secrets) ok(!bytes.includes(secret), `${secret} found in ${name}`);
  }

  const observations = query<{ event: string; tool: string | null; outcome: string | null; summary: string }>(
    box,
    "SELECT event, tool, outcome, summary FROM observations ORDER BY id",
  );
  assertEquals(observations.length, 23);
  const outcomes = (tool: string) => observations.filter((o) => o.tool === tool).map((o) => o.outcome);
  assertEquals(outcomes("WebSearch"), [
    "denied",
    "denied",
    "escaped",
    "denied",
    "no-match",
    "no-match",
    "no-match",
  ]);
  assertEquals(
    observations.filter((o) => o.tool === "Bash").map((o) => o.outcome),
    ["ok", "ok", "failed", "passed"],
  );
  const write = observations.find((o) => o.tool === "Write")!;
  assertEquals(write.summary, "/home/dev/shop/.env (3 lines)\n[REDACTED:secret_file]");
  assertEquals(observations.find((o) => o.tool === "Read")!.summary, "/home/dev/.ssh/id_ed25519");
  ok(
    !observations.some((o) => o.summary.includes("docsearch-hook stats")),
    "the hook's own command was kept",
  );
  ok(!observations.some((o) => /npm install|mkdir/.test(o.summary)), "noise was kept");

  assertEquals(query(box, "SELECT count(*) AS n FROM hook_runs"), [{ n: 27 }]);
  assertEquals(
    query(box, "SELECT session_key, cwd, agent, source, end_reason FROM sessions"),
    [{
      session_key: "replay-5f1c",
      cwd: "/home/dev/shop",
      agent: "claude-code",
      source: "startup",
      end_reason: "prompt_input_exit",
    }],
  );
  assertEquals(
    query(
      box,
      "SELECT database, followed_at IS NOT NULL AS followed, escaped_at IS NOT NULL AS escaped FROM redirects ORDER BY id",
    ),
    [
      { database: "kubernetes", followed: 1, escaped: 0 },
      { database: "gitlab", followed: 0, escaped: 1 },
      { database: "dotnet", followed: 0, escaped: 0 },
    ],
  );

  const stats = await runCli(["stats", "--json"], { env: box.env });
  assertEquals(stats.code, 0);
  const parsed = JSON.parse(stats.stdout);
  assertEquals(parsed.redirects, {
    denied: 3,
    followed: 1,
    escaped: 1,
    followRate: 1 / 3,
    escapeRate: 1 / 3,
  });
  assertEquals(parsed.unmatchedQueries.length, 3);
  assertEquals(parsed.keywordSuggestions, [{ term: "terraform", count: 2 }]);
  assertEquals(parsed.sessions, { total: 1, byAgent: { "claude-code": 1 } });
  assertEquals(parsed.outcomes, { ok: 9, "no-match": 3, denied: 3, escaped: 1, failed: 1, passed: 1 });
  assertEquals(
    [parsed.latencyMs.decision.count, parsed.latencyMs.context.count, parsed.latencyMs.capture.count],
    [7, 1, 19],
  );
  ok(parsed.latencyMs.capture.p50 > 0 && parsed.latencyMs.capture.p95 >= parsed.latencyMs.capture.p50);

  const log = await runCli(["log", "--limit", "3"], { env: box.env });
  assertEquals(log.code, 0);
  const lines = log.stdout.trimEnd().split("\n");
  assertEquals(lines.length, 3);
  ok(lines[2].endsWith("replay-5  SessionEnd  reason=prompt_input_exit"), lines[2]);
});

Deno.test("the same tool_use_id arriving twice is stored once", async () => {
  await using box = await withConfig();
  const write = event("PostToolUse.Write.json");
  await expectSilentSuccess(box, write);
  await expectSilentSuccess(box, write);
  assertEquals(query(box, "SELECT count(*) AS n FROM observations"), [{ n: 1 }]);
});

Deno.test("64 hook processes at once on a fresh database: every event stored exactly once, every exit 0", async () => {
  await using box = await withConfig();
  const events = Array.from(
    { length: 64 },
    (_, i) =>
      event(i % 2 ? "PostToolUse.Write.json" : "PostToolUseFailure.Bash.json", {
        session_id: `burst-${i % 4}`,
        tool_use_id: `toolu_burst_${i}`,
      }),
  );
  const outs = await Promise.all(events.map((e) => hook(box, e)));
  assertEquals(outs.map((o) => [o.code, o.stdout, o.stderr]), outs.map(() => [0, "", ""]));
  assertEquals(query(box, "SELECT count(DISTINCT tool_use_id) AS ids, count(*) AS n FROM observations"), [{
    ids: 64,
    n: 64,
  }]);
  assertEquals(query(box, "SELECT count(*) AS n FROM sessions"), [{ n: 4 }]);
});

Deno.test("a database locked past the bounded wait loses that one event with a stderr line", async () => {
  await using box = await withConfig();
  await expectSilentSuccess(box, event("SessionStart.json"));
  const holder = new DatabaseSync(`${box.state}/docsearch.db`);
  holder.exec("BEGIN IMMEDIATE");
  try {
    const out = await hook(box, event("PostToolUse.Write.json"));
    assertEquals([out.code, out.stdout], [0, ""]);
    match(out.stderr, /^docsearch-hook: state unavailable, PostToolUse not recorded: database is locked\n$/);
  } finally {
    holder.exec("ROLLBACK");
    holder.close();
  }
  assertEquals(query(box, "SELECT event FROM observations"), [{ event: "SessionStart" }]);
});

Deno.test("a corrupted database is moved aside, kept, and a fresh one records the event", async () => {
  await using box = await withConfig();
  await Deno.mkdir(box.state, { recursive: true });
  const garbage = new TextEncoder().encode("this is not a database ".repeat(200));
  await Deno.writeFile(`${box.state}/docsearch.db`, garbage);
  const out = await hook(box, event("PostToolUse.Write.json"));
  assertEquals([out.code, out.stdout], [0, ""]);
  match(out.stderr, /state database was corrupt, moved to .*docsearch\.db\.corrupt-/);
  const aside = [...Deno.readDirSync(box.state)].find((e) => e.name.startsWith("docsearch.db.corrupt-"));
  ok(aside, "the corrupted file was not kept");
  assertEquals(Deno.readFileSync(`${box.state}/${aside.name}`), garbage);
  assertEquals(query(box, "SELECT tool FROM observations"), [{ tool: "Write" }]);
});

Deno.test("a schema 1 database (the redirect core's) is migrated in place and keeps its denials", async () => {
  await using box = await withConfig();
  await Deno.mkdir(box.state, { recursive: true });
  const search = JSON.parse(event("PreToolUse.WebSearch.json"));
  const request = webRequestFrom(search.tool_name, search.tool_input)!;
  const db = new DatabaseSync(`${box.state}/docsearch.db`);
  db.exec(`CREATE TABLE denials (
     id INTEGER PRIMARY KEY, session_id TEXT NOT NULL, request_key TEXT NOT NULL, tool TEXT NOT NULL,
     request TEXT NOT NULL, databases TEXT NOT NULL, created_at INTEGER NOT NULL);
   CREATE INDEX denials_by_request ON denials (session_id, request_key, created_at);
   CREATE INDEX denials_by_age ON denials (created_at);
   PRAGMA user_version = 1;`);
  // The denial the previous version recorded a moment ago: its retry must still pass after the upgrade.
  db.prepare(
    "INSERT INTO denials (session_id, request_key, tool, request, databases, created_at) VALUES (?, ?, ?, ?, ?, ?)",
  ).run(
    search.session_id,
    hash53(requestIdentity(request)),
    "WebSearch",
    search.tool_input.query,
    '["gitlab"]',
    Date.now(),
  );
  db.close();
  const retry = await hook(box, JSON.stringify(search));
  assertEquals([retry.code, retry.stdout, retry.stderr], [0, "", ""]);
  assertEquals(query(box, "PRAGMA user_version"), [{ user_version: SCHEMA_VERSION }]);
  assertEquals(query(box, "SELECT outcome FROM observations"), [{ outcome: "escaped" }]);
  const again = await hook(box, JSON.stringify({ ...search, tool_use_id: "toolu_again" }));
  ok(again.stdout.includes('"permissionDecision":"deny"'));
});

Deno.test("SessionStart prunes what is past the retention and expired escape-hatch records", async () => {
  await using box = await withConfig();
  await expectSilentSuccess(box, event("PostToolUse.Write.json"));
  const db = new DatabaseSync(`${box.state}/docsearch.db`);
  const old = Date.now() - 40 * 86_400_000;
  db.prepare("UPDATE observations SET at = ?").run(old);
  db.prepare(
    "INSERT INTO denials (session_id, request_key, tool, request, databases, created_at) VALUES ('s', 'k', 'WebSearch', 'q', '[]', ?)",
  ).run(old);
  db.close();
  await expectSilentSuccess(box, event("SessionStart.json"));
  assertEquals(query(box, "SELECT event FROM observations"), [{ event: "SessionStart" }]);
  assertEquals(query(box, "SELECT count(*) AS n FROM denials"), [{ n: 0 }]);
});

Deno.test("capture.enabled false records no observations; the redirect and sessions still work", async () => {
  await using box = await sandbox();
  const config = JSON.parse(readFixture("../config.example.json"));
  await Deno.writeTextFile(
    `${box.home}/cfg.json`,
    JSON.stringify({ ...config, capture: { enabled: false } }),
  );
  box.env.DOCSEARCH_CONFIG = `${box.home}/cfg.json`;
  await expectSilentSuccess(box, event("PostToolUse.Write.json"));
  ok((await hook(box, event("PreToolUse.WebSearch.json"))).stdout.includes('"deny"'));
  assertEquals(query(box, "SELECT count(*) AS n FROM observations"), [{ n: 0 }]);
  assertEquals(query(box, "SELECT count(*) AS n FROM sessions"), [{ n: 1 }]);
});

Deno.test("log, stats and prune on a machine without state create nothing", async () => {
  await using box = await sandbox();
  for (const args of [["log"], ["stats"], ["prune"], ["log", "--json"]]) {
    const out = await runCli(args, { env: box.env });
    assertEquals(out.code, 0, `${args}: ${out.stderr}`);
  }
  assertEquals((await runCli(["log", "--json"], { env: box.env })).stdout, "[]\n");
  ok(!(await Deno.stat(box.state).then(() => true, () => false)), "a state directory was created");
});

Deno.test("prune --older-than deletes old data; bad durations and limits are usage errors", async () => {
  await using box = await withConfig();
  await expectSilentSuccess(box, event("PostToolUse.Write.json"));
  const kept = await runCli(["prune", "--older-than", "1d"], { env: box.env });
  match(kept.stdout, /: 0 observations/);
  await new Promise((resolve) => setTimeout(resolve, 20));
  const gone = await runCli(["prune", "--older-than", "10s"], { env: box.env });
  assertEquals(gone.code, 0);
  match(gone.stdout, /: 0 observations/);
  const db = new DatabaseSync(`${box.state}/docsearch.db`);
  db.prepare("UPDATE observations SET at = at - 86400000").run();
  db.close();
  match((await runCli(["prune", "--older-than", "12h"], { env: box.env })).stdout, /: 1 observations/);
  assertEquals(query(box, "SELECT count(*) AS n FROM observations"), [{ n: 0 }]);
  for (
    const args of [["prune", "--older-than", "soon"], ["log", "--limit", "0"], ["stats", "--since", "-1d"]]
  ) {
    const out = await runCli(args, { env: box.env });
    assertEquals(out.code, 2, `${args}`);
  }
});
