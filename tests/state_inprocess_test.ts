/**
 * `log`, `stats` and `prune` as functions of their context, through the command line's dispatch: the state
 * the hook (also run in process) recorded in the context's state directory, read at the context's clock.
 */
import { deepStrictEqual as assertEquals, match, ok } from "node:assert/strict";
import { main as cli } from "../lib/cli/commands.ts";
import { main as hook } from "../lib/hook/main.ts";
import { type CapturedContext, type Machine, machine, NOW, tree } from "./command_context.ts";
import { event, readFixture } from "./helpers.ts";

const DAY = 86_400_000;

/** The example config as the user's, with a retention of `days`. */
async function withConfig(m: Machine, days: number): Promise<void> {
  await Deno.mkdir(`${m.home}/.claude/hooks`, { recursive: true });
  const example = JSON.parse(readFixture("../config.example.json"));
  await Deno.writeTextFile(
    `${m.home}/.claude/hooks/docsearch-config.json`,
    JSON.stringify({ ...example, capture: { retention_days: days } }),
  );
}

/** The hook's events of one session, each in its own process's stead; every one a success. */
async function record(m: Machine, names: string[], overrides: Record<string, unknown> = {}): Promise<void> {
  for (const name of names) {
    const ctx = m.context({}, event(name, overrides));
    assertEquals([await hook(["hook"], ctx), ctx.err], [0, []], name);
  }
}

/** The context a day count after NOW. */
const later = (ctx: CapturedContext, days: number): CapturedContext => ({
  ...ctx,
  now: () => NOW + days * DAY,
});

Deno.test("log, stats and prune in process without state: each says so, exit 0, and nothing is created", async () => {
  await using m = await machine();
  const noState =
    `no state yet at ${m.state}/docsearch.db: the hook creates it on the first agent event it sees`;
  for (const argv of [["log"], ["prune"]]) {
    const ctx = m.context();
    assertEquals(await cli(argv, ctx), 0, argv.join(" "));
    assertEquals([ctx.out, ctx.err], [[], [noState]], argv.join(" "));
  }
  const json = m.context();
  assertEquals([await cli(["log", "--json"], json), json.out, json.err], [0, ["[]"], []]);
  const stats = m.context();
  assertEquals(await cli(["stats", "--json"], stats), 0);
  assertEquals(stats.err, [noState]);
  assertEquals(JSON.parse(stats.out[0]).redirects.denied, 0);
  assertEquals(await tree(m.home), ["project/"]);
});

Deno.test("log and stats in process show what the hook recorded, at the context's clock", async () => {
  await using m = await machine();
  await withConfig(m, 30);
  await record(m, ["SessionStart.json", "PreToolUse.WebSearch.json", "PostToolUse.Write.json"]);

  const log = m.context();
  assertEquals(await cli(["log", "--json"], log), 0);
  const rows = JSON.parse(log.out[0]) as { at: number; session: string }[];
  ok(rows.length > 0, log.out[0]);
  ok(rows.every((row) => row.at === NOW && row.session === "abc123"), log.out[0]);
  const text = m.context();
  assertEquals(await cli(["log", "--session", "abc"], text), 0);
  assertEquals(text.out.length, rows.length, text.out.join("\n"));

  const other = m.context();
  assertEquals(await cli(["log", "--session", "nobody"], other), 0);
  assertEquals([other.out, other.err], [[], ["no observations for session nobody"]]);

  const stats = m.context();
  assertEquals(await cli(["stats", "--json", "--since", "2d"], stats), 0);
  const numbers = JSON.parse(stats.out[0]);
  assertEquals(numbers.since, new Date(NOW - 2 * DAY).toISOString());
  assertEquals(numbers.redirects.denied, 1);
  assertEquals(numbers.sessions.total, 1);
  // What the model wrote is shown, never obeyed by the terminal: an escape sequence in a query is escaped.
  await record(m, ["PreToolUse.WebSearch.json"], {
    tool_input: { query: "hostile \u001b]0;PWNED\u0007 \u009b31m" },
  });
  const shown = m.context();
  assertEquals(await cli(["stats"], shown), 0);
  const textOut = shown.out.join("\n");
  ok(!["\u001b", "\u0007", "\u009b"].some((c) => textOut.includes(c)), textOut);
  ok(textOut.includes("hostile \\u001b]0;PWNED\\u0007 \\u009b31m"), textOut);
  // A week on, the window of a day holds nothing.
  const week = later(m.context(), 7);
  assertEquals(await cli(["stats", "--json", "--since", "1d"], week), 0);
  assertEquals(JSON.parse(week.out[0]).redirects.denied, 0);
});

Deno.test("prune in process deletes what is older than the config's retention, by the context's clock", async () => {
  await using m = await machine();
  await withConfig(m, 2);
  await record(m, ["PostToolUse.Write.json"]);
  const kept = later(m.context(), 1);
  assertEquals(await cli(["prune"], kept), 0);
  assertEquals(kept.err, []);
  match(
    kept.out[0],
    new RegExp(
      `^Deleted what is older than 2d \\(before ${new Date(NOW - DAY).toISOString()}\\): 0 observations`,
    ),
  );

  const gone = later(m.context(), 3);
  assertEquals(await cli(["prune"], gone), 0);
  match(gone.out[0], /^Deleted what is older than 2d .*: 1 observations, /);
  const log = m.context();
  assertEquals([await cli(["log", "--json"], log), log.out], [0, ["[]"]]);
});

Deno.test("log, stats and prune in process: bad values are usage errors (exit 2), with the usage on stderr", async () => {
  await using m = await machine();
  for (
    const argv of [
      ["prune", "--older-than", "soon"],
      ["log", "--limit", "0"],
      ["stats", "--since", "-1d"],
      // Numbers past what a count or a date can hold: refused, not a crash with a stack trace.
      ["log", "--limit", "99999999999999999999"],
      ["stats", "--since", "99999999999d"],
      ["prune", "--older-than", "99999999999d"],
    ]
  ) {
    const ctx = m.context();
    assertEquals(await cli(argv, ctx), 2, argv.join(" "));
    assertEquals(ctx.out, [], argv.join(" "));
    match(
      ctx.err.join("\n"),
      new RegExp(`^docsearch-hook ${argv[0]}: .*\\nUsage: docsearch-hook ${argv[0]} `, "s"),
    );
  }
  assertEquals(await tree(m.home), ["project/"]);
});

Deno.test("a state directory nobody can tell (no HOME, no DOCSEARCH_HOME) is an error of the command: exit 1 with a fix", async () => {
  await using m = await machine();
  const ctx = m.context({ HOME: undefined, DOCSEARCH_HOME: undefined });
  assertEquals(await cli(["log"], ctx), 1);
  assertEquals(ctx.err, [
    "docsearch-hook log: cannot tell where the state lives: neither DOCSEARCH_HOME nor HOME is set\n" +
    "  fix: set DOCSEARCH_HOME to the state directory",
  ]);
});
