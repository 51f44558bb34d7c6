/**
 * The commands that only look at the state (`status`, `log`, `stats`), end to end: real processes against a
 * state directory the hook wrote, which must be exactly as it was afterwards.
 */
import { deepStrictEqual as assertEquals, match } from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { event, ROOT, runCli, type Sandbox, sandbox, succeeded } from "../helpers.ts";

/** Every file of `dir` by name, with a digest of its bytes. */
async function digests(dir: string): Promise<Record<string, string>> {
  const files: Record<string, string> = {};
  for (const entry of [...Deno.readDirSync(dir)].sort((a, b) => a.name.localeCompare(b.name))) {
    const digest = await crypto.subtle.digest("SHA-256", Deno.readFileSync(`${dir}/${entry.name}`));
    files[entry.name] = Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
  }
  return files;
}

const LOOKS = [
  ["status"],
  ["status", "--json"],
  ["status", "--session", "abc123"],
  ["log"],
  ["log", "--json"],
  ["stats"],
  ["stats", "--json"],
];

async function withConfig(): Promise<Sandbox> {
  const box = await sandbox();
  await Deno.mkdir(`${box.home}/.claude/hooks`, { recursive: true });
  await Deno.copyFile(`${ROOT}config.example.json`, `${box.home}/.claude/hooks/docsearch-config.json`);
  return box;
}

Deno.test("status, log and stats, as text and JSON, leave every byte of the state directory as it was", async () => {
  await using box = await withConfig();
  for (const name of ["SessionStart.json", "PreToolUse.WebSearch.json", "PostToolUse.Write.json"]) {
    succeeded(await runCli(["hook"], { env: box.env, stdin: event(name) }));
  }
  const before = await digests(box.state);
  for (const args of LOOKS) {
    const out = await runCli(args, { env: box.env, cwd: box.home });
    assertEquals(out.code, 0, `${args.join(" ")}: ${out.stderr}`);
    assertEquals(await digests(box.state), before, args.join(" "));
  }
});

Deno.test("a look reads the WAL the hook leaves and writes nothing, in a folder whose name SQLite's URIs would split", async () => {
  await using box = await withConfig();
  const env = { ...box.env, DOCSEARCH_HOME: `${box.home}/a?b#c%20d e` };
  succeeded(await runCli(["hook"], { env, stdin: event("PreToolUse.WebSearch.json") }));
  const before = await digests(env.DOCSEARCH_HOME);
  assertEquals(Object.keys(before), [
    "config-cache.json",
    "docsearch.db",
    "docsearch.db-shm",
    "docsearch.db-wal",
  ]);
  const out = await runCli(["log", "--json"], { env, cwd: box.home });
  assertEquals(out.code, 0, out.stderr);
  assertEquals(JSON.parse(out.stdout).map((entry: { outcome: string }) => entry.outcome), ["denied"]);
  assertEquals(await digests(env.DOCSEARCH_HOME), before);
});

Deno.test("a look at a database of an older schema says the hook upgrades it, and does not upgrade it itself", async () => {
  await using box = await withConfig();
  await Deno.mkdir(box.state);
  const db = new DatabaseSync(`${box.state}/docsearch.db`);
  db.exec(`CREATE TABLE sessions (id INTEGER PRIMARY KEY, session_key TEXT NOT NULL UNIQUE, cwd TEXT,
      agent TEXT NOT NULL, first_seen INTEGER NOT NULL, last_seen INTEGER NOT NULL, source TEXT,
      ended_at INTEGER, end_reason TEXT);
    PRAGMA journal_mode = WAL;
    PRAGMA user_version = 2;`);
  db.close();
  const before = await digests(box.state);
  for (const args of LOOKS) {
    const out = await runCli(args, { env: box.env, cwd: box.home });
    assertEquals([out.code, out.stdout], [1, ""], args.join(" "));
    match(
      out.stderr,
      /docsearch\.db: state database schema 2 is older than this docsearch-hook's \(\d+\), and looking does not upgrade it\n {2}fix: the hook upgrades it in place, keeping everything, at the agent's next event\n$/,
    );
    assertEquals(await digests(box.state), before, args.join(" "));
  }
});
