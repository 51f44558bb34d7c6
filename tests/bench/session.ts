/**
 * What the hooks cost the agent, as `install` writes them: scripted `claude -p` sessions of the current Claude
 * Code, each running one Bash command and one web search that no local docs cover, with docsearch-hook
 * registered (by `install` run from the built artifact, what ships) and without, interleaved. The difference
 * of the medians is the hooks' share of a session; the results also go into docs/performance.md.
 *
 *   deno run -A tests/bench/session.ts [--rounds N]
 */
import { build } from "../../lib/build/build.ts";
import { MEASURED, writeMeasurement } from "../../lib/build/doc_pages.ts";
import { parseArgv } from "../../lib/cli/args.ts";
import { claude, CLAUDE_VERSION, claudeBinary } from "../claude/cli.ts";
import { loading, serveFakeApi } from "../claude/fake_api.ts";
import { readFixture, runProgram, sandbox } from "../helpers.ts";

const { values } = parseArgv(Deno.args, {
  rounds: { type: "string", value: "N", description: "sessions of each kind (default 10)" },
});
const rounds = Number(values.rounds ?? 10);

const binary = await claudeBinary();
const artifact = await build();
await using hooked = await sandbox();
await using plain = await sandbox();
await Deno.mkdir(`${hooked.home}/.claude/hooks`, { recursive: true });
await Deno.writeTextFile(
  `${hooked.home}/.claude/hooks/docsearch-config.json`,
  readFixture("../config.example.json"),
);
const installed = await runProgram(Deno.execPath(), [
  "run",
  "-A",
  "--quiet",
  "--no-config",
  artifact,
  "install",
], {
  env: hooked.env,
});
if (installed.code !== 0) throw new Error(`install failed: ${installed.stderr}`);
const registered = JSON.parse(await Deno.readTextFile(`${hooked.home}/.claude/settings.json`)).hooks
  .SessionStart[0]
  .hooks[0].command as string;

/** One session: a Bash command, then a web search nothing covers (loaded with ToolSearch first). */
async function session(env: Record<string, string>, cwd: string): Promise<number> {
  const api = serveFakeApi(0, [
    { name: "Bash", input: { command: "ls", description: "List the files" } },
    ...loading({ name: "WebSearch", input: { query: "best pizza dough hydration" } }),
  ]);
  try {
    const start = performance.now();
    const run = await claude(
      binary,
      [
        "-p",
        "List the files, then look up pizza dough.",
        "--model",
        "claude-sonnet-4-5",
        "--allowedTools",
        "Bash,WebSearch",
      ],
      { ...env, ANTHROPIC_BASE_URL: api.baseUrl, ANTHROPIC_API_KEY: "dummy" },
      cwd,
    );
    const ms = performance.now() - start;
    if (run.code !== 0) throw new Error(`claude -p failed: ${run.stderr}${run.stdout}`);
    return ms;
  } finally {
    await api.close();
  }
}

// Warm-up: Claude Code's own first run, the artifact's code cache, the state database.
await session(hooked.env, hooked.home);
await session(plain.env, plain.home);
const times = { hooked: [] as number[], plain: [] as number[] };
for (let round = 0; round < rounds; round++) {
  const order = Math.random() < 0.5 ? ["hooked", "plain"] as const : ["plain", "hooked"] as const;
  for (const kind of order) {
    const box = kind === "hooked" ? hooked : plain;
    times[kind].push(await session(box.env, box.home));
  }
}
const median = (values: number[]) => values.toSorted((a, b) => a - b)[Math.floor(values.length / 2)];
const [withHooks, without] = [median(times.hooked), median(times.plain)];
const report = [
  "| sessions | median ms | |",
  "| --- | ---: | --- |",
  `| with the hooks install wrote | ${withHooks.toFixed(0)} | \`${registered}\` |`,
  `| without docsearch-hook | ${without.toFixed(0)} | |`,
  `| the hooks' share | ${(withHooks - without).toFixed(0)} | ${
    ((withHooks / without - 1) * 100).toFixed(0)
  }% |`,
  "",
  `Claude Code ${CLAUDE_VERSION}, \`claude -p\` against a scripted Messages API on 127.0.0.1 answering at once, ` +
  `${rounds} sessions of each kind interleaved; each session runs \`ls\` in Bash and a web search no local ` +
  "docs cover (the hook starts for SessionStart, UserPromptSubmit, the web search, PostToolUse twice, Stop " +
  "and SessionEnd; not for the Bash command).",
].join("\n");
console.log(report);
await writeMeasurement({
  id: MEASURED.session,
  body: report,
  how: `\`deno task bench\` (tests/bench/session.ts, ${rounds} sessions each)`,
});
