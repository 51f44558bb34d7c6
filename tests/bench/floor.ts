/**
 * The floor under the hook's latency: one file doing only what a denial must do (read the event and the
 * cached config, open the state database, one transaction of the same writes, print, exit), with none of
 * the hook's modules, validation, matching or capture pipeline. The benchmark runs it beside the hook, so the
 * gap between the two is what the hook's own code costs.
 */
import { DatabaseSync } from "node:sqlite";
// WAL_KEPT_BYTES of lib/state/db.ts: the number, not the module, since the floor loads nothing of ours.
const WAL_KEPT_BYTES = 512 * 1024;

function readOr(path: string, fallback: string): string {
  try {
    return Deno.readTextFileSync(path);
  } catch {
    return fallback;
  }
}

const buffer = new Uint8Array(1 << 16);
const read = Deno.stdin.readSync(buffer) ?? 0;
const event = JSON.parse(new TextDecoder().decode(buffer.subarray(0, read)));
const dir = Deno.env.get("DOCSEARCH_HOME")!;
// The hook's first event writes the cache; before that there is only less to read.
const cache = JSON.parse(readOr(`${dir}/config-cache.json`, '{"entries": {}}'));
const now = Date.now();
const db = new DatabaseSync(`${dir}/docsearch.db`, { timeout: 500 });
db.exec("PRAGMA synchronous = NORMAL");
db.prepare("PRAGMA user_version").get();
db.prepare("SELECT switches FROM sessions WHERE session_key = ?").get(event.session_id);
db.exec("BEGIN IMMEDIATE");
const session = db.prepare(
  `INSERT INTO sessions (session_key, cwd, agent, first_seen, last_seen) VALUES (?, ?, 'claude-code', ?, ?)
   ON CONFLICT (session_key) DO UPDATE SET last_seen = excluded.last_seen RETURNING id`,
).get(event.session_id, event.cwd, now, now) as { id: number };
const query = String(event.tool_input.query);
db.prepare(
  "INSERT INTO denials (session_id, request_key, tool, request, databases, created_at) VALUES (?, ?, ?, ?, ?, ?)",
).run(event.session_id, "k", "WebSearch", query, "[]", now);
db.prepare(
  "INSERT INTO observations (session, at, event, tool, tool_use_id, summary, outcome) VALUES (?, ?, ?, ?, ?, ?, ?)",
).run(session.id, now, "PreToolUse", "WebSearch", event.tool_use_id ?? null, query, "denied");
db.prepare(
  `INSERT INTO redirects (session, at, request_key, tool, request, database, mcp_tool)
   VALUES (?, ?, 'k', 'WebSearch', ?, 'gitlab', 'mcp__leann__leann_search')`,
).run(session.id, now, query);
db.prepare("INSERT INTO hook_runs (at, event, ms) VALUES (?, 'PreToolUse', ?)").run(now, performance.now());
db.exec("COMMIT");
// As the hook leaves it (see StateStore): the connection open, the WAL emptied once past its bound.
let wal = 0;
try {
  wal = Deno.statSync(`${dir}/docsearch.db-wal`).size;
} catch {
  // No WAL: nothing to empty.
}
if (wal > WAL_KEPT_BYTES) {
  db.exec("PRAGMA busy_timeout = 0");
  db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
}
console.log(JSON.stringify({
  hookSpecificOutput: {
    hookEventName: "PreToolUse",
    permissionDecision: "deny",
    permissionDecisionReason: `use the local docs (${Object.keys(cache.entries).length} configs)`,
  },
}));
// Exiting leaves the connection open, as the hook's process does.
Deno.exit(0);
