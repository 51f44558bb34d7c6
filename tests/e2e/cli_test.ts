/** The interactive commands through the real CLI: output, exit codes, and no side effects. */
import { deepStrictEqual as assertEquals, match, ok } from "node:assert/strict";
import { event, ROOT, runCli, sandbox } from "../helpers.ts";

const EXAMPLE = `${ROOT}config.example.json`;

Deno.test("--help, --version and help for a command", async () => {
  await using box = await sandbox();
  const help = await runCli(["--help"], { env: box.env });
  assertEquals([help.code, help.stderr], [0, ""]);
  match(help.stdout, /Usage: docsearch-hook <command>/);
  match(help.stdout, /\n {2}hook +handle one agent hook event/);
  match(help.stdout, /\n {2}check +dry run/);
  match(help.stdout, /\n {2}disable +turn a docs database/);
  const version = await runCli(["--version"], { env: box.env });
  assertEquals(version, {
    code: 0,
    stdout: `docsearch-hook ${JSON.parse(Deno.readTextFileSync(`${ROOT}deno.json`)).version}\n`,
    stderr: "",
  });
  const checkHelp = await runCli(["check", "--help"], { env: box.env });
  assertEquals(checkHelp.code, 0);
  match(checkHelp.stdout, /--domain HOST +add HOST to the search's allowed_domains \(repeatable\)/);
  // After --, "-h" is the query to check, not a request for help.
  const query = await runCli(["check", "--config", EXAMPLE, "--", "-h"], { env: box.env });
  assertEquals(query.code, 0, query.stderr);
  match(query.stdout, /Request: +WebSearch "-h"/);
});

Deno.test("options every object has are unknown options, not missing values or crashes", async () => {
  await using box = await sandbox();
  const search = await runCli(["search", "--constructor", "x", "all", "foo"], { env: box.env });
  assertEquals([search.code, search.stdout], [2, ""]);
  match(search.stderr, /^docsearch-hook search: unknown option --constructor\n/);
  const log = await runCli(["log", "--toString"], { env: box.env });
  assertEquals([log.code, log.stdout], [2, ""]);
  match(log.stderr, /^docsearch-hook log: unknown option --toString\n/);
});

Deno.test("no command or an unknown one is a usage error (exit 2) with a suggestion", async () => {
  await using box = await sandbox();
  const none = await runCli([], { env: box.env });
  assertEquals([none.code, none.stdout], [2, ""]);
  match(none.stderr, /Usage: docsearch-hook <command>/);
  const typo = await runCli(["chek", "gitlab"], { env: box.env });
  assertEquals([typo.code, typo.stdout], [2, ""]);
  match(typo.stderr, /unknown command "chek"; did you mean "check"\?/);
  // Names every object has are no commands either.
  const inherited = await runCli(["toString"], { env: box.env });
  assertEquals([inherited.code, inherited.stdout], [2, ""]);
  match(inherited.stderr, /unknown command "toString"/);
  const help = await runCli(["help", "constructor"], { env: box.env });
  assertEquals(help.code, 0);
  match(help.stdout, /^Usage: docsearch-hook <command> \[options\]$/m);
});

Deno.test("check shows the decision and the exact hook output, and writes nothing", async () => {
  await using box = await sandbox();
  const result = await runCli(["check", "--config", EXAMPLE, "gitlab", "on", "k8s"], { env: box.env });
  assertEquals([result.code, result.stderr], [0, ""]);
  match(
    result.stdout,
    /Decision: +deny, 2 databases match:\n {2}- gitlab \(keyword "gitlab"\) → mcp__leann__leann_search/,
  );
  match(result.stdout, /\n {2}- kubernetes \(keyword "k8s"\)/);
  const json = result.stdout.split("\n").find((line) => line.startsWith("{"))!;
  assertEquals(JSON.parse(json).hookSpecificOutput.permissionDecision, "deny");
  let exists = true;
  try {
    Deno.statSync(box.state);
  } catch {
    exists = false;
  }
  assertEquals(exists, false, "check must not create state");
});

Deno.test("check --json prints exactly what the hook prints for a first request", async () => {
  await using box = await sandbox();
  const check = await runCli([
    "check",
    "--json",
    "--config",
    EXAMPLE,
    "how to configure gitlab ci runners",
    "--domain",
    "docs.gitlab.com",
  ], {
    env: box.env,
  });
  const hook = await runCli(["hook", "--config", EXAMPLE], {
    env: box.env,
    stdin: event("PreToolUse.WebSearch.json"),
  });
  assertEquals(check.code, 0);
  assertEquals(check.stdout, hook.stdout);
  const nothing = await runCli(["check", "--json", "--config", EXAMPLE, "pizza"], { env: box.env });
  assertEquals(nothing, { code: 0, stdout: "", stderr: "" });
});

Deno.test("check --url treats the request as a WebFetch matched by host", async () => {
  await using box = await sandbox();
  const hit = await runCli(["check", "--config", EXAMPLE, "--url", "https://kubernetes.io/docs/", "pods"], {
    env: box.env,
  });
  match(
    hit.stdout,
    /Request: +WebFetch https:\/\/kubernetes\.io\/docs\/\nDecision: +deny, 1 database matches:\n {2}- kubernetes \(domain kubernetes\.io\)/,
  );
  const miss = await runCli(["check", "--config", EXAMPLE, "--url", "https://example.com/gitlab"], {
    env: box.env,
  });
  match(miss.stdout, /Decision: +allow/);
  const both = await runCli(["check", "--url", "https://x.io", "--domain", "x.io"], { env: box.env });
  assertEquals(both.code, 2);
  match(both.stderr, /--domain applies to searches/);
});

Deno.test("check reports config problems on stderr and exits 1, still showing the decision", async () => {
  await using box = await sandbox();
  const bad = `${ROOT}fixtures/config/one-bad-entry.json`;
  const result = await runCli(["check", "--config", bad, "gitlab"], { env: box.env });
  assertEquals(result.code, 1);
  match(result.stdout, /Decision: +deny/);
  match(result.stderr, /^problem: .*one-bad-entry\.json: databases\[0\]\.keywords: .*database skipped/);
  match(result.stderr, /the config has 1 problem\(s\)/);
});

Deno.test("check without a query is a usage error; without any config it allows and says where it looked", async () => {
  await using box = await sandbox();
  const empty = await runCli(["check"], { env: box.env });
  assertEquals(empty.code, 2);
  match(empty.stderr, /give a search query/);
  const none = await runCli(["check", "gitlab"], { env: box.env, cwd: box.home });
  assertEquals(none.code, 0);
  match(none.stdout, /Config files: none found \(looked for .*\.claude\/hooks\/docsearch-config\.json/);
  ok(none.stdout.includes("Decision:     allow"));
});
