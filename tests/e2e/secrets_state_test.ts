/**
 * Secrets end to end: the corpus's secrets (fixtures/secrets/) go through real hook processes in the places
 * agents put them (a command's output, the command itself, a file written, an MCP tool's input), then every
 * byte of every file in the state directory is searched for them. And a user pattern that would backtrack for
 * minutes costs the event nothing but a line on stderr.
 */
import { deepStrictEqual as assertEquals, match, ok } from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { openStateDb } from "../../lib/state/db.ts";
import { ROOT, runCli, type Sandbox, sandbox, SELF } from "../helpers.ts";
import { aroundSecrets, leakedRuns, type SecretCase, secretCases } from "../secrets_corpus.ts";

async function withConfig(config: unknown): Promise<Sandbox> {
  const box = await sandbox({ CLAUDECODE: "1" });
  await Deno.mkdir(`${box.home}/.claude/hooks`, { recursive: true });
  await Deno.writeTextFile(`${box.home}/.claude/hooks/docsearch-config.json`, JSON.stringify(config));
  return box;
}

/** A PostToolUse event carrying `text` where the n-th of four tools puts it. */
function eventWith(text: string, n: number): string {
  const tools = [
    {
      tool_name: "Bash",
      tool_input: { command: "kubectl get secret api -o yaml", description: "Show the API secret" },
      tool_response: { stdout: text, stderr: "", interrupted: false, isImage: false },
    },
    {
      tool_name: "Bash",
      tool_input: { command: text, description: "Run the deploy step" },
      tool_response: {
        stdout: "deployed api 1.4.2 to production (3 pods)",
        stderr: "",
        interrupted: false,
        isImage: false,
      },
    },
    {
      tool_name: "Write",
      tool_input: { file_path: "/home/dev/shop/deploy/values.yaml", content: text },
      tool_response: { filePath: "/home/dev/shop/deploy/values.yaml", success: true },
    },
    {
      tool_name: "mcp__github__create_issue",
      tool_input: { owner: "shop", repo: "web", title: "Rotate leaked credentials", body: text },
      tool_response: { number: 7 },
    },
  ];
  return JSON.stringify({
    session_id: "secrets-e2e",
    transcript_path: "/home/dev/.claude/projects/shop/secrets-e2e.jsonl",
    cwd: "/home/dev/shop",
    permission_mode: "default",
    hook_event_name: "PostToolUse",
    tool_use_id: `toolu_secrets_${n}`,
    ...tools[n % tools.length],
  });
}

/** Two cases per family: the secret under a key name and as the scanners' own text or bare. */
function sampleCases(): SecretCase[] {
  const byFamily = new Map<string, SecretCase[]>();
  for (const secretCase of secretCases()) {
    const cases = byFamily.get(secretCase.family) ?? [];
    byFamily.set(secretCase.family, [...cases, secretCase]);
  }
  return [...byFamily.values()].flatMap((cases) => [cases[0], cases.at(-1)!]);
}

Deno.test("no secret of the corpus reaches any file of the state directory, WAL included", async () => {
  await using box = await withConfig({});
  const cases = sampleCases();
  const events = cases.map((secretCase, n) => eventWith(secretCase.text, n));
  // A connection held open keeps every hook from being the last to close, so the WAL they wrote stays.
  using watcher = openStateDb(box.state, Deno.build.os);
  watcher.prepare("SELECT count(*) FROM sessions").get();
  for (let start = 0; start < events.length; start += 4) {
    const outs = await Promise.all(
      events.slice(start, start + 4).map((stdin) => runCli(["hook"], { env: box.env, stdin })),
    );
    for (const out of outs) assertEquals([out.code, out.stdout, out.stderr], [0, "", ""]);
  }

  const files = [...Deno.readDirSync(box.state)].map((entry) => entry.name).sort();
  ok(files.includes("docsearch.db-wal") && files.includes("config-cache.json"), `files: ${files}`);
  // What the hook was given besides the secrets may be stored: the events around them, the config path.
  const context = [
    ...cases.flatMap(({ text, secrets }, n) => [aroundSecrets(text, secrets), eventWith("", n)]),
    `${box.home}/.claude/hooks/docsearch-config.json`,
  ].join("\n");
  const secrets = cases.flatMap((secretCase) => secretCase.secrets);
  for (const name of files) {
    const bytes = new TextDecoder("latin1").decode(Deno.readFileSync(`${box.state}/${name}`));
    assertEquals(leakedRuns(bytes, context, secrets), [], `in ${name}`);
  }
  const stored = watcher.prepare(
    "SELECT count(*) AS n FROM observations WHERE tool_use_id LIKE 'toolu_secrets_%'",
  )
    .get() as { n: number };
  assertEquals(stored.n, events.length);
});

Deno.test("a user pattern that would backtrack for minutes is skipped: the event takes under 2 s", async () => {
  await using box = await withConfig({ capture: { redact_patterns: ["(a+)+$", "TICKET-[0-9]+"] } });
  const stdin = JSON.stringify({
    ...JSON.parse(eventWith(`${"a".repeat(50_000)}! TICKET-4242`, 0)),
    tool_input: { command: "./gen-fixture.sh --ticket TICKET-4242" },
  });
  const started = performance.now();
  const child = new Deno.Command(SELF[0], {
    args: [...SELF.slice(1), "hook"],
    cwd: ROOT,
    env: box.env,
    clearEnv: true,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
    // A hook that spins is killed rather than left running past the test.
    signal: AbortSignal.timeout(20_000),
  }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(stdin));
  await writer.close();
  const out = await child.output();
  const elapsed = performance.now() - started;
  const stderr = new TextDecoder().decode(out.stderr);
  assertEquals([out.code, new TextDecoder().decode(out.stdout)], [0, ""]);
  ok(elapsed < 2000, `the hook took ${Math.round(elapsed)} ms`);
  assertEquals(stderr.trimEnd().split("\n").length, 1, stderr);
  match(stderr, /capture\.redact_patterns\[0\]: "\(a\+\)\+" repeats a repetition .*pattern skipped/);
  const db = new DatabaseSync(`${box.state}/docsearch.db`, { readOnly: true });
  try {
    const { summary } = db.prepare("SELECT summary FROM observations").get() as { summary: string };
    ok(summary.includes("--ticket [REDACTED:custom]"), summary);
  } finally {
    db.close();
  }
});
