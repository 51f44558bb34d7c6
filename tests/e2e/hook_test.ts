/** The real hook process, fed fixture events the way the agent feeds it: stdout, stderr and exit code apart. */
import { deepStrictEqual as assertEquals, match, ok } from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { WAL_KEPT_BYTES } from "../../lib/state/db.ts";
import { event, readFixture, ROOT, runCli, type Sandbox, sandbox } from "../helpers.ts";

const EXAMPLE = readFixture("../config.example.json");

async function withUserConfig(box: Sandbox, text = EXAMPLE) {
  await Deno.mkdir(`${box.home}/.claude/hooks`, { recursive: true });
  await Deno.writeTextFile(`${box.home}/.claude/hooks/docsearch-config.json`, text);
}

const hook = (
  box: Sandbox,
  stdin: string | Uint8Array,
  env: Record<string, string> = {},
  args: string[] = [],
) => runCli(["hook", ...args], { env: { ...box.env, ...env }, stdin });

function denial(stdout: string) {
  const output = JSON.parse(stdout).hookSpecificOutput;
  assertEquals(Object.keys(output).sort(), [
    "additionalContext",
    "hookEventName",
    "permissionDecision",
    "permissionDecisionReason",
  ]);
  assertEquals([output.hookEventName, output.permissionDecision], ["PreToolUse", "deny"]);
  return output.permissionDecisionReason as string;
}

function allowed(result: { code: number; stdout: string; stderr: string }, stderr = "") {
  assertEquals(result, { code: 0, stdout: "", stderr });
}

Deno.test("a matching WebSearch is denied with guidance; the identical retry passes once", async () => {
  await using box = await sandbox();
  await withUserConfig(box);
  const first = await hook(box, event("PreToolUse.WebSearch.json"));
  assertEquals([first.code, first.stderr], [0, ""]);
  const reason = denial(first.stdout);
  match(reason, /"gitlab" matches the "gitlab" docs/);
  ok(
    reason.includes(
      'mcp__leann__leann_search {"index_name":"gitlab","query":"how to configure gitlab ci runners"}',
    ),
  );
  match(reason, /repeat this identical WebSearch/);

  allowed(await hook(box, event("PreToolUse.WebSearch.json")));
  denial((await hook(box, event("PreToolUse.WebSearch.json"))).stdout);
});

Deno.test("each hook process leaves the WAL to the next, and the one that finds it over its bound empties it", async () => {
  await using box = await sandbox();
  await withUserConfig(box);
  const wal = `${box.state}/docsearch.db-wal`;
  const sizes: number[] = [];
  for (let n = 0; n < 10; n++) {
    denial((await hook(box, event("PreToolUse.WebSearch.json", { session_id: `wal-${n}` }))).stdout);
    sizes.push(Deno.statSync(wal).size);
  }
  // A denial adds about 66 KB to the WAL of a new database; the first, which creates the tables, twice that.
  const emptied = sizes.indexOf(0);
  ok(emptied >= 5 && emptied <= 8, `emptied after event ${emptied + 1}: ${sizes}`);
  ok(sizes.slice(0, emptied).every((size, i) => size > (sizes[i - 1] ?? 0)), `${sizes}`);
  ok(Math.max(...sizes) <= WAL_KEPT_BYTES, `${sizes}`);
  // Nothing the processes left in the WAL, or moved out of it, is lost.
  const db = new DatabaseSync(`${box.state}/docsearch.db`, { readOnly: true });
  try {
    assertEquals(db.prepare("SELECT count(*) AS n FROM denials").get()?.n, 10);
  } finally {
    db.close();
  }
});

Deno.test("the hook registered twice sees each call twice: the same tool_use_id is denied twice, a new one passes", async () => {
  await using box = await sandbox();
  await withUserConfig(box);
  // In settings and as the plugin, whose launcher names it in DOCSEARCH_PLUGIN.
  const registrations: Record<string, string>[] = [{}, { DOCSEARCH_PLUGIN: "docsearch" }];
  const call = (id: string, registration: Record<string, string>) =>
    hook(box, event("PreToolUse.WebSearch.json", { tool_use_id: id }), registration);
  const [settings, plugin] = registrations;
  const first = denial((await call("toolu_first", settings)).stdout);
  denial((await call("toolu_first", plugin)).stdout);
  assertEquals(denial((await call("toolu_first", settings)).stdout), first);
  // The agent's retry is a new call, seen by both registrations: both let it through.
  allowed(await call("toolu_retry", plugin));
  allowed(await call("toolu_retry", settings));
  denial((await call("toolu_third", settings)).stdout);
});

Deno.test("the same retry arriving twice at once passes once (5 trials)", async () => {
  await using box = await sandbox();
  await withUserConfig(box);
  for (let trial = 0; trial < 5; trial++) {
    const search = (id: string) =>
      event("PreToolUse.WebSearch.json", {
        tool_use_id: id,
        tool_input: { query: `gitlab runners ${trial}` },
      });
    denial((await hook(box, search(`toolu_first_${trial}`))).stdout);
    const twins = await Promise.all([0, 1].map(() => hook(box, search(`toolu_retry_${trial}`))));
    assertEquals(
      twins.map((r) => r.stdout === "" ? "allow" : "deny").sort(),
      ["allow", "deny"],
      `trial ${trial}`,
    );
  }
});

Deno.test("a retry after escape_hatch_ttl_seconds is denied again", async () => {
  await using box = await sandbox();
  const config = JSON.parse(EXAMPLE);
  config.escape_hatch_ttl_seconds = 1;
  await withUserConfig(box, JSON.stringify(config));
  match(
    denial((await hook(box, event("PreToolUse.WebSearch.json"))).stdout),
    /within 1 second and it will be allowed/,
  );
  await new Promise((resolve) => setTimeout(resolve, 1_100));
  denial((await hook(box, event("PreToolUse.WebSearch.json"))).stdout);
  allowed(await hook(box, event("PreToolUse.WebSearch.json")));
});

Deno.test("the retry compares domain lists as sets and the query exactly", async () => {
  await using box = await sandbox();
  await withUserConfig(box);
  const input = (query: string, allowed: string[]) =>
    event("PreToolUse.WebSearch.json", {
      tool_input: { query, allowed_domains: allowed, blocked_domains: [] },
    });
  denial((await hook(box, input("gitlab runners", ["docs.gitlab.com", "gitlab.com"]))).stdout);
  denial((await hook(box, input("gitlab  runners", ["gitlab.com", "docs.gitlab.com"]))).stdout);
  allowed(await hook(box, input("gitlab runners", ["gitlab.com", "docs.gitlab.com"])));
});

Deno.test("a non-matching search and other tools pass silently", async () => {
  await using box = await sandbox();
  await withUserConfig(box);
  allowed(await hook(box, event("PreToolUse.WebSearch.nomatch.json")));
  allowed(await hook(box, event("PreToolUse.Bash.json")));
});

Deno.test("a WebFetch is matched by host only, and its retry passes", async () => {
  await using box = await sandbox();
  await withUserConfig(box);
  const reason = denial((await hook(box, event("PreToolUse.WebFetch.json"))).stdout);
  match(reason, /domain docs\.gitlab\.com matches the "gitlab" docs/);
  ok(reason.includes('"query":"How do I register a runner?"'));
  allowed(await hook(box, event("PreToolUse.WebFetch.json")));
  const elsewhere = event("PreToolUse.WebFetch.json", {
    tool_input: { url: "https://example.com/gitlab/kubernetes", prompt: "gitlab k8s" },
  });
  allowed(await hook(box, elsewhere));
});

Deno.test("allowed_domains alone match; several databases are listed IN PARALLEL", async () => {
  await using box = await sandbox();
  await withUserConfig(box);
  match(
    denial((await hook(box, event("PreToolUse.WebSearch.domain.json"))).stdout),
    /domain docs\.gitlab\.com/,
  );
  const reason = denial((await hook(box, event("PreToolUse.WebSearch.multi.json"))).stdout);
  match(reason, /IN PARALLEL/);
  match(reason, /\n1\. "gitlab".*\n2\. "kubernetes"/);
});

Deno.test("parallel denials in one session each get their own record", async () => {
  await using box = await sandbox();
  await withUserConfig(box);
  const searches = ["gitlab runners", "gitlab pages", "kubectl apply", "k8s ingress"].map((query, i) =>
    event("PreToolUse.WebSearch.json", { tool_input: { query }, tool_use_id: `toolu_${i}` })
  );
  const first = await Promise.all(searches.map((s) => hook(box, s)));
  first.forEach((r) => denial(r.stdout));
  const retries = await Promise.all(
    searches.map((s) => hook(box, s.replace(/"toolu_(\d)"/, '"toolu_retry_$1"'))),
  );
  retries.forEach((r) => allowed(r));
});

Deno.test("sessions never see each other's denials", async () => {
  await using box = await sandbox();
  await withUserConfig(box);
  denial((await hook(box, event("PreToolUse.WebSearch.json", { session_id: "one" }))).stdout);
  denial((await hook(box, event("PreToolUse.WebSearch.json", { session_id: "two" }))).stdout);
  allowed(await hook(box, event("PreToolUse.WebSearch.json", { session_id: "two" })));
  allowed(await hook(box, event("PreToolUse.WebSearch.json", { session_id: "one" })));
});

Deno.test("hostile session ids are data: no stray files, isolation kept", async () => {
  await using box = await sandbox();
  await withUserConfig(box);
  const ids = [
    "../../etc/passwd",
    "x".repeat(10_240),
    "a\u0000b",
    "a",
    "\ud800",
    "\udbff",
    "セッション/🚀",
    "C:\\Windows\\x",
  ];
  for (const id of ids) {
    const input = event("PreToolUse.WebSearch.json", { session_id: id });
    denial((await hook(box, input)).stdout);
  }
  // Every id was denied once, and each retry takes only its own record (none of them collide).
  for (const id of ids) allowed(await hook(box, event("PreToolUse.WebSearch.json", { session_id: id })));
  for (const id of ids) {
    denial((await hook(box, event("PreToolUse.WebSearch.json", { session_id: id }))).stdout);
  }
  const files = [...Deno.readDirSync(box.state)].map((e) => e.name).sort();
  assertEquals(files.filter((f) => !f.startsWith("docsearch.db")), ["config-cache.json"]);
  assertEquals([...Deno.readDirSync(box.home)].map((e) => e.name).sort(), [".claude", "state"]);
});

Deno.test("bad input fails open: exit 0, empty stdout, at most one short stderr line", async () => {
  await using box = await sandbox();
  await withUserConfig(box);
  const inputs = [
    "",
    "   \n",
    "{not json",
    "[1,2]",
    '"PreToolUse"',
    "42",
    "null",
    JSON.stringify({ tool_name: "WebSearch", tool_input: { query: "gitlab" } }),
    event("PreToolUse.WebSearch.json", { tool_input: undefined }),
    event("PreToolUse.WebSearch.json", { tool_input: "gitlab" }),
    event("PreToolUse.WebSearch.json", { tool_input: { allowed_domains: ["docs.gitlab.com"] } }),
    event("PreToolUse.WebSearch.json", { tool_input: { query: 42 } }),
    event("PreToolUse.WebFetch.json", { tool_input: { prompt: "gitlab" } }),
    new Uint8Array([0xff, 0xfe, 0x00, 0x7b]),
  ];
  for (const stdin of inputs) {
    const result = await hook(box, stdin);
    assertEquals([result.code, result.stdout], [0, ""], String(stdin).slice(0, 60));
    ok(result.stderr.split("\n").filter(Boolean).length <= 1, result.stderr);
    ok(result.stderr.length < 200, result.stderr);
  }
});

Deno.test("a 10 MB event is handled without hanging", async () => {
  await using box = await sandbox();
  await withUserConfig(box);
  const huge = () =>
    event("PreToolUse.WebSearch.json", {
      tool_input: { query: "gitlab " + "x ".repeat(5_000_000) },
    });
  const first = huge();
  ok(first.length > 10_000_000);
  const result = await hook(box, first);
  assertEquals([result.code, result.stderr], [0, ""]);
  ok(denial(result.stdout).length < 2_000);
  allowed(await hook(box, huge()));
});

Deno.test("events that neither the redirect nor context injection answer are a silent exit 0", async () => {
  await using box = await sandbox();
  await withUserConfig(box);
  for (const name of ["SessionEnd", "Stop", "PostToolUse.Write", "PostToolUseFailure.Bash"]) {
    allowed(await hook(box, event(`${name}.json`)));
  }
  allowed(await hook(box, event("UserPromptSubmit.json", { prompt: "Fix the failing auth test" })));
  allowed(await hook(box, event("PreToolUse.WebSearch.json", { hook_event_name: "SomethingNew" })));
});

Deno.test("DOCSEARCH_HOOK_DISABLED=1 makes every event a silent allow", async () => {
  await using box = await sandbox();
  await withUserConfig(box);
  allowed(await hook(box, event("PreToolUse.WebSearch.json"), { DOCSEARCH_HOOK_DISABLED: "1" }));
  allowed(await hook(box, "{not json", { DOCSEARCH_HOOK_DISABLED: "true" }));
  denial((await hook(box, event("PreToolUse.WebSearch.json"), { DOCSEARCH_HOOK_DISABLED: "0" })).stdout);
});

Deno.test("project layers come from the event's cwd or CLAUDE_PROJECT_DIR and override the user file", async () => {
  await using box = await sandbox();
  await withUserConfig(box);
  const project = `${box.home}/project`;
  await Deno.mkdir(`${project}/.claude`, { recursive: true });
  await Deno.writeTextFile(
    `${project}/.claude/docsearch.json`,
    JSON.stringify({ databases: [{ name: "gitlab", enabled: false }] }),
  );
  await Deno.writeTextFile(
    `${project}/.claude/docsearch.local.json`,
    JSON.stringify({
      databases: [{ keywords: ["vue"], mcp_tool_name: "mcp__docs__search", index_name: "vue" }],
    }),
  );
  const search = (query: string) =>
    event("PreToolUse.WebSearch.json", { cwd: project, tool_input: { query } });
  allowed(await hook(box, search("gitlab runners")));
  match(denial((await hook(box, search("vue router"))).stdout), /mcp__docs__search \{"index_name":"vue"/);
  // The same event from elsewhere sees only the user file...
  denial(
    (await hook(box, event("PreToolUse.WebSearch.json", { tool_input: { query: "gitlab ci" } }))).stdout,
  );
  // ...unless CLAUDE_PROJECT_DIR names the project.
  allowed(
    await hook(box, event("PreToolUse.WebSearch.json", { tool_input: { query: "gitlab pages" } }), {
      CLAUDE_PROJECT_DIR: project,
    }),
  );
});

Deno.test("--config and DOCSEARCH_CONFIG replace the lookup", async () => {
  await using box = await sandbox();
  const seed = `${ROOT}fixtures/config/seed.json`;
  match(
    denial((await hook(box, event("PreToolUse.WebSearch.json"), {}, ["--config", seed])).stdout),
    /mcp__leann__search/,
  );
  match(
    denial((await hook(box, event("PreToolUse.WebSearch.multi.json"), { DOCSEARCH_CONFIG: seed })).stdout),
    /IN PARALLEL/,
  );
  allowed(await hook(box, event("PreToolUse.WebSearch.json")));
});

Deno.test("a bad config allows everything and names the file and JSON path on stderr", async () => {
  await using box = await sandbox();
  await withUserConfig(box, readFixture("config/invalid-json.json"));
  const file = `${box.home}/.claude/hooks/docsearch-config.json`;
  const result = await hook(box, event("PreToolUse.WebSearch.json"));
  assertEquals([result.code, result.stdout], [0, ""]);
  match(result.stderr, new RegExp(`^docsearch-hook: ${file}: invalid JSON at line 3, column 31.*\\n$`));
  // The same problem is reported again from the cache.
  assertEquals((await hook(box, event("PreToolUse.WebSearch.json"))).stderr, result.stderr);
});

Deno.test("one bad database entry is skipped with a stderr line while the valid ones still deny", async () => {
  await using box = await sandbox();
  await withUserConfig(box, readFixture("config/one-bad-entry.json"));
  const result = await hook(box, event("PreToolUse.WebSearch.json"));
  denial(result.stdout);
  match(
    result.stderr,
    /^docsearch-hook: .*docsearch-config\.json: databases\[0\]\.keywords: .*database skipped/,
  );
  assertEquals(result.stderr.trim().split("\n").length, 1);
});

Deno.test("an unreadable config allows with one stderr line", async () => {
  await using box = await sandbox();
  await Deno.mkdir(`${box.home}/.claude/hooks/docsearch-config.json`, { recursive: true });
  const result = await hook(box, event("PreToolUse.WebSearch.json"));
  assertEquals([result.code, result.stdout], [0, ""]);
  match(result.stderr, /^docsearch-hook: .*docsearch-config\.json: cannot read the file: it is a directory/);
});

Deno.test("control characters in a path reach stderr escaped, on one line", async () => {
  await using box = await sandbox();
  const nul = await hook(box, event("PreToolUse.WebSearch.json", { cwd: "/tmp/a\u0000b\nc" }));
  assertEquals([nul.code, nul.stdout], [0, ""]);
  match(
    nul.stderr,
    /^docsearch-hook: \/tmp\/a\\u0000b\\nc\/\.claude\/docsearch\.json: cannot read the file: .*\n$/,
  );
});

Deno.test("without usable state the hook still denies, says so on stderr, and promises no retry", async () => {
  await using box = await sandbox();
  await withUserConfig(box);
  await Deno.writeTextFile(`${box.home}/blocker`, "");
  for (const place of [`${box.home}/blocker`, `${box.home}/blocker/state`, "/proc/docsearch-hook-test"]) {
    for (let attempt = 0; attempt < 2; attempt++) {
      const result = await hook(box, event("PreToolUse.WebSearch.json"), { DOCSEARCH_HOME: place });
      assertEquals(result.code, 0);
      match(denial(result.stdout), /would be denied again/);
      match(result.stderr, /^docsearch-hook: state unavailable, denial not remembered: .+\n$/);
    }
  }
});

Deno.test("the XDG default state location is used without DOCSEARCH_HOME, private", async () => {
  await using box = await sandbox();
  await withUserConfig(box);
  const env = { ...box.env };
  delete env.DOCSEARCH_HOME;
  const run = () => runCli(["hook"], { env, stdin: event("PreToolUse.WebSearch.json") });
  denial((await run()).stdout);
  allowed(await run());
  const dir = `${box.home}/.local/state/docsearch-hook`;
  assertEquals(Deno.statSync(dir).mode! & 0o777, 0o700);
  assertEquals(Deno.statSync(`${dir}/docsearch.db`).mode! & 0o777, 0o600);
});

Deno.test("a database locked by another process: bounded wait, then a denial without memory", async () => {
  await using box = await sandbox();
  await withUserConfig(box);
  denial((await hook(box, event("PreToolUse.WebSearch.json", { session_id: "warm-up" }))).stdout);
  const locker = new Deno.Command(Deno.execPath(), {
    args: [
      "eval",
      `import { DatabaseSync } from "node:sqlite";
       const db = new DatabaseSync(${JSON.stringify(`${box.state}/docsearch.db`)});
       db.exec("BEGIN EXCLUSIVE; INSERT INTO denials (session_id, request_key, tool, request, databases, created_at) VALUES ('x','x','x','x','[]',0);");
       console.log("locked");
       await new Promise((r) => setTimeout(r, 20000));`,
    ],
    env: box.env,
    clearEnv: true,
    stdout: "piped",
  }).spawn();
  const reader = locker.stdout.pipeThrough(new TextDecoderStream()).getReader();
  assertEquals((await reader.read()).value?.trim(), "locked");
  try {
    const result = await hook(box, event("PreToolUse.WebSearch.json"));
    assertEquals(result.code, 0);
    match(denial(result.stdout), /would be denied again/);
    match(result.stderr, /state unavailable, denial not remembered: database is locked/);
  } finally {
    locker.kill();
    await reader.cancel();
    await locker.status;
  }
});

Deno.test("a mistyped hook flag still fails open", async () => {
  await using box = await sandbox();
  await withUserConfig(box);
  const result = await hook(box, event("PreToolUse.WebSearch.json"), {}, ["--cnofig", "x"]);
  assertEquals([result.code, result.stdout], [0, ""]);
  match(result.stderr, /^docsearch-hook hook: unknown option --cnofig; allowing\n$/);
});
