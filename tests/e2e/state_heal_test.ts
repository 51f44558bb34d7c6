/**
 * A state database garbled past its first page, end to end: real hook processes (`deno run -A main.ts hook`)
 * meet it in the middle of an event, move it aside and go on with a fresh one; doctor reports it.
 */
import { deepStrictEqual as assertEquals, match, ok } from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { filledState, garble } from "../garble.ts";
import { event, listDir, ROOT, runCli, type Sandbox, sandbox } from "../helpers.ts";

async function withConfig(): Promise<Sandbox> {
  const box = await sandbox();
  await Deno.mkdir(`${box.home}/.claude/hooks`, { recursive: true });
  await Deno.copyFile(`${ROOT}config.example.json`, `${box.home}/.claude/hooks/docsearch-config.json`);
  return box;
}

const hook = (box: Sandbox, stdin: string) => runCli(["hook"], { env: box.env, stdin });

/** The one stderr line of a hook that replaced the database; where it moved the old one. */
function movedTo(stderr: string): string {
  const moved = /^docsearch-hook: state database was corrupt, moved to (\S+\/docsearch\.db\.corrupt-\S+)\n$/
    .exec(stderr);
  ok(moved, stderr);
  return moved[1];
}

function observations(box: Sandbox): string[] {
  const db = new DatabaseSync(`${box.state}/docsearch.db`, { readOnly: true });
  try {
    return db.prepare("SELECT tool_use_id AS id FROM observations ORDER BY id").all().map((row) =>
      `${row.id}`
    );
  } finally {
    db.close();
  }
}

Deno.test("hook: a database that fails in the middle of an event is moved aside, and the event recorded on a fresh one", async () => {
  await using box = await withConfig();
  const garbled = garble(filledState(box.state), ["observations"]);
  const out = await hook(box, event("PostToolUse.Write.json"));
  assertEquals([out.code, out.stdout], [0, ""]);
  assertEquals(Deno.readFileSync(movedTo(out.stderr)), garbled);
  const next = await hook(box, event("PostToolUse.Write.json", { tool_use_id: "toolu_next" }));
  assertEquals([next.code, next.stdout, next.stderr], [0, "", ""]);
  assertEquals(observations(box), ["toolu_01ABC125", "toolu_next"]);
});

Deno.test("hook: a denial whose escape-hatch record meets a garbled page is still remembered", async () => {
  await using box = await withConfig();
  garble(filledState(box.state), ["denials"]);
  const search = JSON.parse(event("PreToolUse.WebSearch.json"));
  const denied = await hook(box, JSON.stringify(search));
  ok(denied.stdout.includes('"permissionDecision":"deny"'), denied.stdout);
  movedTo(denied.stderr);
  const retry = await hook(box, JSON.stringify({ ...search, tool_use_id: "toolu_retry" }));
  assertEquals([retry.code, retry.stdout, retry.stderr], [0, "", ""]);
});

Deno.test("doctor: a garbled database is ✗ with the fix, exit 1, and left where it is", async () => {
  await using box = await withConfig();
  const file = filledState(box.state);
  const garbled = garble(file, ["observations"]);
  const out = await runCli(["doctor"], { env: box.env, cwd: box.home });
  assertEquals(out.code, 1, out.stdout);
  const lines = out.stdout.split("\n");
  const at = lines.findIndex((line) => line.startsWith("✗ state: "));
  ok(at >= 0, out.stdout);
  match(lines[at], /^✗ state: \S+\/docsearch\.db is damaged: .*btreeInitPage/);
  assertEquals(
    lines[at + 1],
    `    fix: move it aside, keeping it for inspection (mv ${file} ${file}.corrupt): the next hook event starts a fresh one`,
  );
  assertEquals(Deno.readFileSync(file), garbled);
  assertEquals(await listDir(box.state), ["docsearch.db"]);
});

Deno.test("log, stats and prune on a garbled database: exit 1 with the fix, no stack trace", async () => {
  await using box = await withConfig();
  const file = filledState(box.state);
  garble(file, ["observations"]);
  for (const args of [["log"], ["stats"], ["prune", "--older-than", "1d"]]) {
    const out = await runCli(args, { env: box.env, cwd: box.home });
    assertEquals([out.code, out.stdout], [1, ""], args.join(" "));
    assertEquals(
      out.stderr,
      `docsearch-hook ${args[0]}: ${file} is corrupted (database disk image is malformed)\n` +
        `  fix: move it aside, keeping it for inspection (mv ${file} ${file}.corrupt): the next hook event starts a fresh one\n`,
    );
  }
});

Deno.test("status, disable and enable on a garbled database: exit 1 with the fix, no stack trace", async () => {
  await using box = await withConfig();
  const file = filledState(box.state);
  garble(file, ["sessions"]);
  for (const args of [["status"], ["disable", "redirect"], ["enable", "redirect"]]) {
    const out = await runCli([...args, "--session", "earlier-1"], { env: box.env, cwd: box.home });
    assertEquals([out.code, out.stdout], [1, ""], args.join(" "));
    assertEquals(
      out.stderr,
      `docsearch-hook ${args[0]}: ${file} is corrupted (database disk image is malformed)\n` +
        `  fix: move it aside, keeping it for inspection (mv ${file} ${file}.corrupt): the next hook event starts a fresh one\n`,
    );
  }
});
