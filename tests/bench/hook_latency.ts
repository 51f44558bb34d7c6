/**
 * Whole-process hook latency, measured the way the agent pays it: spawn, write the event to stdin, wait
 * for exit. Every case runs interleaved with an empty Deno program in a shuffled order per round, so
 * machine noise hits all of them alike; the verdict is each case's median as a ratio of the baseline's.
 * Then the same cases on a database holding 100k observations (latency must stay flat), and bursts of
 * 64 hook processes started at once, against bursts of 64 empty programs (no event may be lost). A denial
 * that quotes the answer of a large built-in index (the PostgreSQL 15 manual, 1,169 pages) is timed too,
 * against the plain denial: within 2x of it. The results also go into docs/performance.md, stamped with the
 * date and the machine.
 *
 *   deno task bench [--rounds N] [--json]
 */
import { build } from "../../lib/build/build.ts";
import { MEASURED, writeMeasurement } from "../../lib/build/doc_pages.ts";
import { parseArgv } from "../../lib/cli/args.ts";
import { openStateDb } from "../../lib/state/db.ts";
import { StateStore } from "../../lib/state/store.ts";
import { event, readFixture, ROOT, runProgram, sandbox } from "../helpers.ts";
import { addIndex, CORPORA } from "../eval/corpora.ts";

const BUDGET = 1.5;
const AIM = 1.25;
/** A denial that quotes the local answer, against the plain denial: it runs the search the agent would. */
const ANSWER_BUDGET = 2;

const { values } = parseArgv(Deno.args, {
  // 80: with 40, one case's median moved by ±0.05x from run to run on the 2-core build machine, more than the
  // cases differ; the verdict should be about the hook, not about which of them drew the noise.
  rounds: { type: "string", value: "N", description: "measured rounds (default 80)" },
  json: { type: "boolean", description: "print the results as JSON" },
});
const rounds = Number(values.rounds ?? 80);

/**
 * The hook as it ships: the built artifact, which the release binaries compile. `deno run` of it is the closest
 * this machine gets to a binary (compiling needs a download it cannot make); like a binary, it reads no
 * deno.json, and neither does any program timed here.
 */
const HOOK = (await build()).slice(ROOT.length);

/** Every program timed runs so: the hook with `hook`, the baseline and the floor with nothing. */
const run = (script: string, options: { env: Record<string, string>; stdin: string }) =>
  runProgram(
    Deno.execPath(),
    ["run", "-A", "--quiet", "--no-config", `${ROOT}${script}`, ...(script === HOOK ? ["hook"] : [])],
    options,
  );

// The agent runs hooks with the project's folder in CLAUDE_PROJECT_DIR: one with a .claude folder of its own,
// as Claude Code leaves it, and no docsearch layers there.
await using box = await sandbox();
box.env.CLAUDE_PROJECT_DIR = `${box.home}/project`;
await Deno.mkdir(`${box.home}/project/.claude`, { recursive: true });
await Deno.writeTextFile(`${box.home}/project/.claude/settings.local.json`, "{}");
await Deno.mkdir(`${box.home}/.claude/hooks`, { recursive: true });
// The PostgreSQL manual as a built-in index, whose entry sends PostgreSQL searches to it: the hook answers them
// from it. Fetched as the eval fetches it.
const manual = await CORPORA.postgresql.locate();
if ("missing" in manual) throw new Error(manual.missing);
// addIndex throws with the CLI's stderr when the index cannot be built.
await addIndex("postgres", manual.root, box.env);
const example = JSON.parse(readFixture("../config.example.json"));
example.databases.push({
  name: "postgres",
  keywords: ["postgresql", "postgres"],
  mcp_tool_name: "mcp__docsearch__search",
  tool_args: { index: "postgres", query: "{query}" },
  description: "PostgreSQL 15 manual",
});
await Deno.writeTextFile(`${box.home}/.claude/hooks/docsearch-config.json`, JSON.stringify(example));

let sessions = 0;
const freshSession = () => `bench-${sessions++}`;
let toolUses = 0;
const freshToolUse = () => `toolu_bench_${toolUses++}`;
/**
 * The bench's own writes (a session's switches, as `disable` sets them; the burst's count), each on a
 * connection closed at once, as a command's: a connection held open for the run would keep every hook process
 * from being alone with the database (the first one in indexes the WAL the last one left), which is not how
 * the agent runs the hook.
 */
function withStore<T>(use: (store: StateStore) => T): T {
  using store = new StateStore(openStateDb(box.state, Deno.build.os));
  return use(store);
}

/** A second state directory whose database already holds 100k observations. */
const LARGE = 100_000;
const largeState = `${box.home}/large-state`;
const largeEnv = { ...box.env, DOCSEARCH_HOME: largeState };
fillDatabase(new StateStore(openStateDb(largeState, Deno.build.os)), LARGE);

function fillDatabase(target: StateStore, observations: number): void {
  const day = 86_400_000;
  target.write(() => {
    const insert = target.db.prepare(
      `INSERT INTO observations (session, at, event, tool, tool_use_id, summary, outcome)
       VALUES (?, ?, 'PostToolUse', 'Bash', ?, ?, 'ok')`,
    );
    const now = Date.now();
    for (let i = 0; i < 1000; i++) {
      target.db.prepare(
        "INSERT INTO sessions (session_key, cwd, agent, first_seen, last_seen) VALUES (?, '/w', 'claude-code', ?, ?)",
      ).run(`old-${i}`, now - 20 * day, now - day);
    }
    for (let i = 0; i < observations; i++) {
      insert.run(
        1 + (i % 1000),
        now - 20 * day + i * 1000,
        `toolu_old_${i}`,
        `$ make test\n[exit 0]\nok ${i}`,
      );
    }
  });
  // As a database grown by many small hook commits looks: checkpointed, with no giant WAL left behind.
  target.db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
  target.db.close();
}

interface Case {
  name: string;
  script: string;
  /** Returns the stdin for one run, after any setup that must not be timed. */
  prepare: () => string | Promise<string>;
  /** What stdout must look like, so that a broken hook cannot look fast. */
  expect: "deny" | "answer" | "context" | "empty" | "any";
  /**
   * The event matches a built-in index, so the hook runs the local search (issue 27): held to the answer's
   * budget against the plain denial, not to the empty program's.
   */
  searches?: true;
  env?: Record<string, string>;
}

const webSearch = (query: string, session: string) =>
  event("PreToolUse.WebSearch.json", { session_id: session, tool_input: { query, allowed_domains: [] } });
const preBash = (command: string, session: string) =>
  event("PreToolUse.Bash.json", { session_id: session, tool_input: { command } });

const cases: Case[] = [
  {
    name: "empty deno program (baseline)",
    script: "tests/bench/empty.ts",
    prepare: () => "{}",
    expect: "any",
  },
  {
    // Not a hook case: the same denial in one file with no modules of ours (see floor.ts). The distance
    // between it and the baseline is SQLite's; between it and the deny case, our code's.
    name: "floor: a denial's reads and writes in one file (reference, no budget)",
    script: "tests/bench/floor.ts",
    prepare: () => webSearch("how to configure gitlab ci runners", freshSession()),
    expect: "deny",
  },
  {
    name: "WebSearch, matching (deny)",
    script: HOOK,
    prepare: () => webSearch("how to configure gitlab ci runners", freshSession()),
    expect: "deny",
  },
  {
    name: "WebSearch, answered from the PostgreSQL manual (deny, passages quoted)",
    script: HOOK,
    prepare: () => webSearch("postgres create index concurrently lock", freshSession()),
    expect: "answer",
    searches: true,
  },
  {
    name: "WebSearch, the PostgreSQL manual holds no answer (allow)",
    script: HOOK,
    prepare: () => webSearch("postgres aws rds pricing calculator", freshSession()),
    expect: "empty",
    searches: true,
  },
  {
    name: "WebSearch, identical retry (allow)",
    script: HOOK,
    prepare: async () => {
      // The denial it retries, by a hook process of its own (not timed), as the agent's first call leaves it:
      // a write here would close the database, emptying the WAL the hook processes leave each other.
      const session = freshSession();
      const denied = await run(HOOK, {
        env: box.env,
        stdin: webSearch("how to configure gitlab ci runners", session),
      });
      if (!denied.stdout.includes('"permissionDecision":"deny"')) {
        throw new Error(`no denial: ${denied.stderr}`);
      }
      return webSearch("how to configure gitlab ci runners", session);
    },
    expect: "empty",
  },
  {
    name: "WebSearch, no match (allow)",
    script: HOOK,
    prepare: () => webSearch("best pizza dough hydration", freshSession()),
    expect: "empty",
  },
  {
    name: "WebFetch, covered host (deny)",
    script: HOOK,
    prepare: () => event("PreToolUse.WebFetch.json", { session_id: freshSession() }),
    expect: "deny",
  },
  {
    // The hook runs before every Bash command: almost all of them read no web page.
    name: "PreToolUse Bash, no web page (allow)",
    script: HOOK,
    prepare: () => preBash("npm test -- --reporter=dot 2>&1 | tail -20", freshSession()),
    expect: "empty",
  },
  {
    name: "PreToolUse Bash, curl of a page nothing covers (allow)",
    script: HOOK,
    prepare: () =>
      preBash("curl -s https://developer.mozilla.org/en-US/docs/Web/HTTP | head", freshSession()),
    expect: "empty",
  },
  {
    name: "PreToolUse Bash, curl of a covered docs page (deny)",
    script: HOOK,
    prepare: () => preBash("curl -s https://docs.gitlab.com/ee/ci/runners/ | head -100", freshSession()),
    expect: "deny",
  },
  {
    name: "PostToolUse Write (capture)",
    script: HOOK,
    prepare: () => writeEvent(),
    expect: "empty",
  },
  {
    name: "PostToolUse Bash (capture)",
    script: HOOK,
    prepare: () => bashEvent(),
    expect: "empty",
  },
  {
    name: "WebSearch, redirect switched off for the session (allow)",
    script: HOOK,
    prepare: () => {
      const session = freshSession();
      withStore((store) =>
        store.updateSwitches(session, Date.now(), () => ({
          switches: { features: ["redirect"], databases: [] },
          result: undefined,
        }))
      );
      return webSearch("how to configure gitlab ci runners", session);
    },
    expect: "empty",
  },
  {
    name: "SessionStart (context)",
    script: HOOK,
    prepare: () => event("SessionStart.json", { session_id: freshSession() }),
    expect: "context",
  },
  {
    name: "UserPromptSubmit, mentions a database (context)",
    script: HOOK,
    prepare: () => event("UserPromptSubmit.json", { session_id: freshSession() }),
    expect: "context",
  },
  {
    name: "UserPromptSubmit, unrelated (silent)",
    script: HOOK,
    prepare: () =>
      event("UserPromptSubmit.json", { session_id: freshSession(), prompt: "fix the failing test" }),
    expect: "empty",
  },
  {
    name: `WebSearch, matching (deny), ${LARGE / 1000}k observations`,
    script: HOOK,
    prepare: () => webSearch("how to configure gitlab ci runners", freshSession()),
    expect: "deny",
    env: largeEnv,
  },
  {
    name: `PostToolUse Bash (capture), ${LARGE / 1000}k observations`,
    script: HOOK,
    prepare: () => bashEvent(),
    expect: "empty",
    env: largeEnv,
  },
];

function writeEvent(): string {
  return event("PostToolUse.Write.json", {
    session_id: "bench-capture",
    tool_use_id: freshToolUse(),
    tool_input: { file_path: "/w/src/app.ts", content: 'export const greeting = "hello";\n'.repeat(40) },
  });
}

function bashEvent(): string {
  return event("PostToolUse.Write.json", {
    session_id: "bench-capture",
    tool_name: "Bash",
    tool_use_id: freshToolUse(),
    tool_input: { command: "git log --oneline -5", description: "recent commits" },
    tool_response: {
      stdout: "7215fdd Compute the stored session key\n9198c8d Tests: the hook core\n",
      stderr: "",
      interrupted: false,
      isImage: false,
    },
  });
}

async function runOnce(c: Case): Promise<{ ms: number; ok: boolean }> {
  const stdin = await c.prepare();
  const start = performance.now();
  const out = await run(c.script, { env: c.env ?? box.env, stdin });
  const ms = performance.now() - start;
  const ok = out.code === 0 && out.stderr === "" && {
    any: true,
    empty: out.stdout === "",
    deny: out.stdout.includes('"permissionDecision":"deny"'),
    answer: out.stdout.includes('"permissionDecision":"deny"') && out.stdout.includes("<docs source="),
    context: out.stdout.includes('"additionalContext"') && !out.stdout.includes("permissionDecision"),
  }[c.expect];
  return { ms, ok };
}

function shuffle<T>(items: T[]): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];

// Warm-up: transpile caches, the config cache and the state database exist before anything is timed.
for (let i = 0; i < 3; i++) for (const c of cases) await runOnce(c);

const samples = new Map(cases.map((c) => [c.name, [] as number[]]));
const failures: string[] = [];
for (let round = 0; round < rounds; round++) {
  for (const c of shuffle(cases)) {
    const { ms, ok } = await runOnce(c);
    samples.get(c.name)!.push(ms);
    if (!ok) failures.push(c.name);
  }
}

const sortedSamples = (c: Case) => samples.get(c.name)!.toSorted((a, b) => a - b);
const baselineSorted = sortedSamples(cases[0]);
const rows = cases.map((c) => {
  const sorted = sortedSamples(c);
  const median = quantile(sorted, 0.5);
  const p95 = quantile(sorted, 0.95);
  return {
    case: c.name,
    median,
    p95,
    ratio: median / quantile(baselineSorted, 0.5),
    p95Ratio: p95 / quantile(baselineSorted, 0.95),
  };
});
// An event that runs the local search (a denial with the answer, or a request it finds no answer to) is held
// to its own budget, against the plain denial.
const overBudget = rows.filter((r, i) => cases[i].script === HOOK && !cases[i].searches && r.ratio > BUDGET);
const plainDeny = rows.find((r) => r.case === "WebSearch, matching (deny)")!;
const answerRows = rows.filter((_, i) => cases[i].searches)
  .map((r) => ({ ...r, againstDeny: r.median / plainDeny.median }));
const answerOver = answerRows.filter((r) => r.againstDeny > ANSWER_BUDGET);

/**
 * 64 processes at once: 64 capture events into one database, against 64 empty programs started the same
 * way, so the verdict is about the hook and not the machine's two cores. The budget: no event lost, none over
 * the budget by more than 2x.
 */
const BURST = 64;
const BURST_ROUNDS = 3;
const burstTimes = { hook: [] as number[], empty: [] as number[] };
let lost = 0;
for (let round = 0; round < BURST_ROUNDS; round++) {
  for (const kind of shuffle(["hook", "empty"] as const)) {
    const ids = Array.from({ length: BURST }, freshToolUse);
    const times = await Promise.all(ids.map(async (id) => {
      const stdin = kind === "hook"
        ? event("PostToolUse.Write.json", { session_id: "burst", tool_use_id: id })
        : "{}";
      const start = performance.now();
      const out = await run(kind === "hook" ? HOOK : "tests/bench/empty.ts", { env: box.env, stdin });
      if (out.code !== 0 || out.stderr !== "") failures.push(`burst ${kind}`);
      return performance.now() - start;
    }));
    burstTimes[kind].push(...times);
    if (kind === "hook") {
      const stored = withStore((store) =>
        store.db.prepare(
          `SELECT count(*) AS n FROM observations WHERE tool_use_id IN (${ids.map(() => "?").join(",")})`,
        ).get(...ids) as { n: number }
      );
      lost += BURST - stored.n;
    }
  }
}
const burstHook = burstTimes.hook.toSorted((a, b) => a - b);
const burstEmpty = burstTimes.empty.toSorted((a, b) => a - b);
const burst = {
  processes: BURST,
  rounds: BURST_ROUNDS,
  lost,
  hookP50: quantile(burstHook, 0.5),
  hookP95: quantile(burstHook, 0.95),
  emptyP50: quantile(burstEmpty, 0.5),
  emptyP95: quantile(burstEmpty, 0.95),
  p95Ratio: quantile(burstHook, 0.95) / quantile(burstEmpty, 0.95),
};
const burstOk = lost === 0 && burst.p95Ratio <= 2 * BUDGET;

/** The results in Markdown: printed, and written into docs/performance.md. */
const report = [
  "| case | median ms | p95 ms | median / baseline | p95 / baseline p95 |",
  "| --- | ---: | ---: | ---: | ---: |",
  ...rows.map((r) =>
    `| ${r.case} | ${r.median.toFixed(1)} | ${r.p95.toFixed(1)} | ${r.ratio.toFixed(2)}x | ${
      r.p95Ratio.toFixed(2)
    }x |`
  ),
  "",
  `Budget: every hook case but those that search the local docs <= ${BUDGET}x the baseline median (aim ${AIM}x): ${
    overBudget.length === 0 ? "met" : `EXCEEDED by ${overBudget.map((r) => r.case).join(", ")}`
  }.`,
  ...answerRows.map((r) =>
    `${r.case}, against the plain denial: ${r.againstDeny.toFixed(2)}x (budget ${ANSWER_BUDGET}x): ${
      r.againstDeny <= ANSWER_BUDGET ? "met" : "EXCEEDED"
    }.`
  ),
  "",
  `${BURST} hook processes at once (${BURST_ROUNDS} bursts), against ${BURST} empty programs at once:`,
  "",
  `- lost events: ${lost}`,
  `- hook p50 ${burst.hookP50.toFixed(0)} ms, p95 ${burst.hookP95.toFixed(0)} ms`,
  `- empty p50 ${burst.emptyP50.toFixed(0)} ms, p95 ${burst.emptyP95.toFixed(0)} ms`,
  `- p95 ratio ${burst.p95Ratio.toFixed(2)}x (limit ${2 * BUDGET}x: the budget, by no more than 2x): ${
    burstOk ? "met" : "EXCEEDED"
  }`,
  ...(failures.length
    ? ["", `Wrong output in ${failures.length} runs: ${[...new Set(failures)].join(", ")}.`]
    : []),
].join("\n");

if (values.json) {
  console.log(
    JSON.stringify({ rounds, budget: BUDGET, hook: HOOK, rows, burst, failures }, null, 2),
  );
} else {
  console.log(
    `hook latency, ${rounds} interleaved rounds, deno ${Deno.version.deno} (${Deno.build.target}), ` +
      `the hook as built: deno run -A --no-config ${HOOK} hook\n`,
  );
  console.log(report);
}
await writeMeasurement({
  id: MEASURED.hookLatency,
  body: report,
  how: `\`deno task bench\` (tests/bench/hook_latency.ts, ${rounds} interleaved rounds)`,
});
Deno.exit(overBudget.length === 0 && answerOver.length === 0 && failures.length === 0 && burstOk ? 0 : 1);
