/**
 * Whole-process hook latency, measured the way the agent pays it: spawn, write the event to stdin, wait
 * for exit. Every case runs interleaved with an empty Deno program in a shuffled order per round, so
 * machine noise hits all of them alike; the verdict is each case's median as a ratio of the baseline's.
 *
 *   deno task bench [--rounds N] [--json]
 */
import { parseArgv } from "../../lib/cli/args.ts";
import { hash53 } from "../../lib/hash.ts";
import { requestIdentity, webRequestFrom } from "../../lib/redirect/request.ts";
import { openStateDb } from "../../lib/state/db.ts";
import { StateStore } from "../../lib/state/store.ts";
import { event, readFixture, runScript, sandbox } from "../helpers.ts";

const BUDGET = 1.5;
const AIM = 1.25;

const { values } = parseArgv(Deno.args, {
  rounds: { type: "string", value: "N", description: "measured rounds (default 40)" },
  json: { type: "boolean", description: "print the results as JSON" },
});
const rounds = Number(values.rounds ?? 40);

await using box = await sandbox();
await Deno.mkdir(`${box.home}/.claude/hooks`, { recursive: true });
await Deno.writeTextFile(
  `${box.home}/.claude/hooks/docsearch-config.json`,
  readFixture("../config.example.json"),
);

let sessions = 0;
const freshSession = () => `bench-${sessions++}`;
const store = new StateStore(openStateDb(box.state));

interface Case {
  name: string;
  script: string;
  /** Returns the stdin for one run, after any setup that must not be timed. */
  prepare: () => string;
  /** What stdout must look like, so that a broken hook cannot look fast. */
  expect: "deny" | "empty" | "any";
}

const webSearch = (query: string, session: string) =>
  event("PreToolUse.WebSearch.json", { session_id: session, tool_input: { query, allowed_domains: [] } });

const cases: Case[] = [
  {
    name: "empty deno program (baseline)",
    script: "tests/bench/empty.ts",
    prepare: () => "{}",
    expect: "any",
  },
  {
    name: "WebSearch, matching (deny)",
    script: "main.ts",
    prepare: () => webSearch("how to configure gitlab ci runners", freshSession()),
    expect: "deny",
  },
  {
    name: "WebSearch, identical retry (allow)",
    script: "main.ts",
    prepare: () => {
      // Seed the denial directly so the retry can be measured on its own, in any position of the round.
      const session = freshSession();
      const input = webSearch("how to configure gitlab ci runners", session);
      const parsed = JSON.parse(input);
      const request = webRequestFrom(parsed.tool_name, parsed.tool_input)!;
      store.retryOrRecord({
        sessionId: session,
        requestKey: hash53(requestIdentity(request)),
        tool: request.tool,
        request: "bench",
        databases: ["gitlab"],
        at: Date.now(),
      }, 0);
      return input;
    },
    expect: "empty",
  },
  {
    name: "WebSearch, no match (allow)",
    script: "main.ts",
    prepare: () => webSearch("best pizza dough hydration", freshSession()),
    expect: "empty",
  },
  {
    name: "WebFetch, covered host (deny)",
    script: "main.ts",
    prepare: () => event("PreToolUse.WebFetch.json", { session_id: freshSession() }),
    expect: "deny",
  },
];

async function runOnce(c: Case): Promise<{ ms: number; ok: boolean }> {
  const stdin = c.prepare();
  const start = performance.now();
  const out = await runScript(c.script, c.script === "main.ts" ? ["hook"] : [], { env: box.env, stdin });
  const ms = performance.now() - start;
  const ok = out.code === 0 && out.stderr === "" &&
    (c.expect === "any" ||
      (c.expect === "empty" ? out.stdout === "" : out.stdout.includes('"permissionDecision":"deny"')));
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
const overBudget = rows.slice(1).filter((r) => r.ratio > BUDGET);

if (values.json) {
  console.log(JSON.stringify({ rounds, budget: BUDGET, rows, failures }, null, 2));
} else {
  console.log(
    `hook latency, ${rounds} interleaved rounds, deno ${Deno.version.deno} (${Deno.build.target})\n`,
  );
  console.log("| case | median ms | p95 ms | median / baseline | p95 / baseline p95 |");
  console.log("| --- | ---: | ---: | ---: | ---: |");
  for (const r of rows) {
    console.log(
      `| ${r.case} | ${r.median.toFixed(1)} | ${r.p95.toFixed(1)} | ${r.ratio.toFixed(2)}x | ${
        r.p95Ratio.toFixed(2)
      }x |`,
    );
  }
  console.log(
    `\nbudget: every hook case <= ${BUDGET}x the baseline median (aim ${AIM}x): ${
      overBudget.length === 0 ? "met" : `EXCEEDED by ${overBudget.map((r) => r.case).join(", ")}`
    }`,
  );
  if (failures.length) {
    console.log(`wrong output in ${failures.length} runs: ${[...new Set(failures)].join(", ")}`);
  }
}
Deno.exit(overBudget.length === 0 && failures.length === 0 ? 0 : 1);
