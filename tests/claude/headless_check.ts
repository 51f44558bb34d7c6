/**
 * Whether a headless Claude Code session (`claude -p`, as scripts, CI and the Agent SDK run it) is recorded
 * whole: the real Claude Code, with docsearch-hook from this checkout registered in a temp HOME, runs one
 * prompt (one Bash call, then an answer) against a scripted Messages API on 127.0.0.1, then `docsearch-hook
 * log` says which events were recorded. Each run is done twice: with the registration install writes now, and
 * with every capture event in the background (`async`), as install wrote it before, for comparison. Last, how
 * long the hook takes on the events Claude Code now waits for.
 *
 * By hand only, not part of `deno task test`: it downloads Claude Code from npm (about 250 MB, into .cache/).
 *
 *   deno run -A tests/claude/headless_check.ts [--claude PATH] [--version X] [--runs 3] [--api-delay-ms 0]
 *
 * Exit status 1 when a run with the current registration misses Stop or SessionEnd.
 */
import { parseArgs } from "node:util";
import { hookCommand } from "../../lib/install/settings.ts";
import { eventSpec } from "../../lib/protocol/events.ts";
import { CLAUDE_EVENTS, runCli, runProgram, type Sandbox, sandbox, SELF, succeeded } from "../helpers.ts";
import { claudeBinary } from "./cli.ts";
import { serveFakeApi } from "./fake_api.ts";

const { values } = parseArgs({
  options: {
    claude: { type: "string" },
    version: { type: "string", default: "latest" },
    runs: { type: "string", default: "3" },
    "api-delay-ms": { type: "string", default: "0" },
  },
});
const RUNS = Number(values.runs);
const API_DELAY_MS = Number(values["api-delay-ms"]);

/** What must be recorded for a session to count as whole. */
const ENDS = ["Stop", "SessionEnd"];

// ---- Claude Code ---------------------------------------------------------------------------------------

// ---- one session ---------------------------------------------------------------------------------------

type Variant = "now" | "before";

const VARIANTS: Record<Variant, string> = {
  now: "as install writes it",
  before: "capture all async (older install)",
};

interface Handler {
  command?: string;
  timeout?: number;
  async?: boolean;
}

/** Rewrites a fresh install's settings to the older shape: every capture event async, 30 s. */
async function makeOlder(path: string): Promise<void> {
  const settings = JSON.parse(await Deno.readTextFile(path)) as {
    hooks: Record<string, { hooks: Handler[] }[]>;
  };
  for (const [event, groups] of Object.entries(settings.hooks)) {
    // The answers were waited for in every version.
    if (eventSpec(event)?.answer !== undefined) continue;
    for (const handler of groups.flatMap((group) => group.hooks)) {
      Object.assign(handler, { timeout: 30, async: true });
    }
  }
  await Deno.writeTextFile(path, JSON.stringify(settings, null, 2) + "\n");
}

interface Run {
  variant: Variant;
  wallMs: number;
  recorded: Record<string, number>;
}

async function session(claude: string, baseUrl: string, variant: Variant): Promise<Run> {
  await using box = await sandbox();
  const claudeDir = `${box.home}/.claude`;
  const env = { ...box.env, CLAUDE_CONFIG_DIR: claudeDir };
  succeeded(await runCli(["install"], { env }));
  if (variant === "before") await makeOlder(`${claudeDir}/settings.json`);
  const project = `${box.home}/project`;
  await Deno.mkdir(project);

  const started = performance.now();
  const result = await runProgram(
    claude,
    [
      "-p",
      "Run the marker command, then say done.",
      "--model",
      "claude-sonnet-4-5",
      "--allowedTools",
      "Bash(echo:*)",
    ],
    {
      cwd: project,
      env: {
        ...env,
        ANTHROPIC_BASE_URL: baseUrl,
        ANTHROPIC_API_KEY: "dummy",
        DISABLE_AUTOUPDATER: "1",
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
      },
    },
  );
  const wallMs = performance.now() - started;
  if (result.code !== 0) throw new Error(`claude -p exited ${result.code}: ${result.stderr}${result.stdout}`);
  // A hook that outlived Claude Code would still get its event in now: nothing is counted before it could.
  await new Promise((resolve) => setTimeout(resolve, 2000));
  const rows = JSON.parse(succeeded(await runCli(["log", "--json", "--limit", "100"], { env }))) as {
    event: string;
  }[];
  const recorded: Record<string, number> = {};
  for (const { event } of rows) recorded[event] = (recorded[event] ?? 0) + 1;
  return { variant, wallMs, recorded };
}

// ---- the hook's own time on the waited-for ends --------------------------------------------------------

/** Wall time of the registered command on one event, as Claude Code spawns it (through the shell). */
async function hookMs(box: Sandbox, event: Record<string, unknown>): Promise<number> {
  const command = hookCommand(SELF, Deno.build.os);
  const started = performance.now();
  const result = await runProgram("sh", ["-c", command], { env: box.env, stdin: JSON.stringify(event) });
  const ms = performance.now() - started;
  if (result.code !== 0) throw new Error(`hook exited ${result.code}: ${result.stderr}`);
  return ms;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function hookTimes(times = 11): Promise<Record<string, number>> {
  await using box = await sandbox();
  const base = { session_id: "headless-check", transcript_path: "/dev/null", cwd: box.home };
  const events: Record<string, Record<string, unknown>> = {
    Stop: { ...base, hook_event_name: "Stop", stop_hook_active: false },
    SubagentStop: { ...base, hook_event_name: "SubagentStop", stop_hook_active: false },
    SessionEnd: { ...base, hook_event_name: "SessionEnd", reason: "other" },
  };
  const out: Record<string, number[]> = {};
  for (let i = 0; i < times; i++) {
    for (const [name, event] of Object.entries(events)) (out[name] ??= []).push(await hookMs(box, event));
  }
  return Object.fromEntries(Object.entries(out).map(([name, ms]) => [name, median(ms)]));
}

// ---- report --------------------------------------------------------------------------------------------

const claude = values.claude ?? await claudeBinary(values.version);
const version = new TextDecoder().decode(
  (await new Deno.Command(claude, { args: ["--version"], stdout: "piped" }).output()).stdout,
).trim();
const api = serveFakeApi(API_DELAY_MS);
const runs: Run[] = [];
try {
  for (let i = 0; i < RUNS; i++) {
    for (const variant of ["before", "now"] as const) runs.push(await session(claude, api.baseUrl, variant));
  }
} finally {
  await api.close();
}

const shown = CLAUDE_EVENTS.filter((event) => runs.some((run) => run.recorded[event]));
console.log(`${version}; claude -p with one Bash call; scripted API answering after ${API_DELAY_MS} ms\n`);
console.log(["registration".padEnd(36), "wall ms", ...shown].join("  "));
for (const run of runs) {
  console.log(
    [
      VARIANTS[run.variant].padEnd(36),
      String(Math.round(run.wallMs)).padStart(7),
      ...shown.map((event) => String(run.recorded[event] ?? 0).padStart(event.length)),
    ].join("  "),
  );
}
const times = await hookTimes();
console.log(
  `\nThe hook on the events now waited for (median of 11, from spawn to exit): ${
    Object.entries(times).map(([event, ms]) => `${event} ${ms.toFixed(0)} ms`).join(", ")
  }`,
);
const incomplete = runs.filter((run) => run.variant === "now" && ENDS.some((event) => !run.recorded[event]));
if (incomplete.length > 0) {
  console.error(`\n${incomplete.length} run(s) as install writes it missed ${ENDS.join(" or ")}`);
  Deno.exit(1);
}
