import { deepStrictEqual as assertEquals, doesNotMatch, match, ok } from "node:assert/strict";
import { commandKind, isNoiseOutput } from "../lib/capture/commands.ts";
import {
  type Capture,
  decisionObservation,
  MAX_SUMMARY_CHARS,
  type Observation,
  observe,
  skipsTool,
} from "../lib/capture/observe.ts";
import { agentOf, eventRecord, type RecordInput } from "../lib/capture/record.ts";
import { createRedactor, SECRET_FILE_TAG } from "../lib/capture/redact.ts";
import { excerpt, summarize } from "../lib/capture/summary.ts";
import { type CaptureConfig, type Config, DEFAULT_CAPTURE } from "../lib/config/types.ts";
import { type HookEvent, parseHookEvent } from "../lib/protocol/event.ts";
import type { RedirectDecision } from "../lib/redirect/decide.ts";
import type { WebRequest } from "../lib/redirect/request.ts";
import { config, database } from "./helpers.ts";

const redactor = createRedactor([], []);

/** A payload as the agent sends it, through the real parser. */
function hookEvent(fields: Record<string, unknown>): HookEvent {
  const parsed = parseHookEvent(JSON.stringify({ session_id: "abc123", cwd: "/home/u/project", ...fields }));
  if (!parsed.ok) throw new Error(parsed.problem);
  return parsed.event;
}

const post = (tool: string, input: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
  hookEvent({ hook_event_name: "PostToolUse", tool_name: tool, tool_input: input, ...extra });
const failure = (tool: string, input: Record<string, unknown>, error: string, extra = {}) =>
  hookEvent({
    hook_event_name: "PostToolUseFailure",
    tool_name: tool,
    tool_input: input,
    error,
    is_interrupt: false,
    ...extra,
  });
const bash = (command: string, stdout = "", extra: Record<string, unknown> = {}) =>
  post("Bash", { command, description: "run it" }, {
    tool_response: { stdout, stderr: "", interrupted: false, isImage: false },
    ...extra,
  });
const bashFailure = (command: string, error = "Command exited with non-zero status code 1") =>
  failure("Bash", { command }, error);
const lifecycle = (name: string, fields: Record<string, unknown> = {}) =>
  hookEvent({ hook_event_name: name, ...fields });

function capture(event: HookEvent, settings: Partial<CaptureConfig> = {}): Capture {
  return observe(event, { ...DEFAULT_CAPTURE, ...settings }, redactor);
}

function stored(event: HookEvent, settings: Partial<CaptureConfig> = {}): Observation {
  const result = capture(event, settings);
  if (result.kind !== "store") throw new Error(`dropped: ${result.reason}`);
  return result.observation;
}

function dropReason(event: HookEvent, settings: Partial<CaptureConfig> = {}): string {
  const result = capture(event, settings);
  if (result.kind !== "drop") throw new Error(`stored: ${JSON.stringify(result.observation)}`);
  return result.reason;
}

const kinds = (commands: readonly string[]) => commands.map((command) => [command, commandKind(command)]);
const all = (commands: readonly string[], kind: string) => commands.map((command) => [command, kind]);

// Shapes providers document; none of them is a real credential.
const GITHUB_TOKEN = "ghp_" + "Z9".repeat(18);
const OPENAI_KEY = "sk-proj-" + "Ab3".repeat(12);
const JWT = `eyJ${"a".repeat(300)}.eyJ${"b".repeat(300)}.${"c".repeat(173)}`;
const PRIVATE_KEY =
  `-----BEGIN RSA PRIVATE KEY-----\n${"MIIEpAIBAAKCAQEA3Tz2mr7SZiAMfQyuvBjM2\n".repeat(80)}` +
  "-----END RSA PRIVATE KEY-----";

// ---------------------------------------------------------------- commands

Deno.test("commandKind: test runners, however they are invoked", () => {
  const tests = [
    "pytest",
    "pytest -x tests/test_api.py",
    "python -m pytest -q",
    "python3 -m pytest",
    "python3.12 -m unittest discover",
    "uv run pytest",
    "poetry run pytest -k slow",
    ".venv/bin/pytest",
    "tox -e py312",
    "nox -s lint",
    "npx mocha",
    "vendor/bin/phpunit",
    "rspec spec/models",
    "ctest --output-on-failure",
    "deno test -A tests/",
    "deno task test",
    "npm test",
    "npm run test:unit",
    "pnpm test",
    "yarn test --watch=false",
    "bun test",
    "npx jest --ci",
    "npx vitest run",
    "cargo test --workspace",
    "cargo nextest run",
    "go test ./...",
    "make test",
    "make check",
    "mvn test",
    "mvn -q verify",
    "./mvnw -pl core test",
    "./gradlew test",
    "dotnet test",
    "rake spec",
    "cd app && npm test",
    "CI=1 npm test",
    "time cargo test",
    "sudo -E make test",
    "bash -c 'npm test'",
    "npm install && npm test 2>&1 | tail -20",
    "cd ~/src/docsearch-hook && deno test -A",
  ];
  assertEquals(kinds(tests), all(tests, "test"));
});

Deno.test("commandKind: builds", () => {
  const builds = [
    "npm run build",
    "pnpm build",
    "yarn build",
    "cargo build --release",
    "go build ./...",
    "make",
    "make -j8",
    "/usr/bin/make all",
    "tsc --noEmit",
    "npx webpack",
    "rollup -c",
    "esbuild app.ts --bundle",
    "npx tsc -p .",
    "deno compile -o dist/app main.ts",
    "deno task build",
    "vite build",
    "cmake --build build",
    "mvn package -DskipTests",
    "./gradlew assemble",
    "dotnet build",
    "zig build",
  ];
  assertEquals(kinds(builds), all(builds, "build"));
});

Deno.test("commandKind: package installs", () => {
  const installs = [
    "npm install",
    "npm i lodash",
    "npm ci",
    "pnpm add -D vitest",
    "yarn add react",
    "bun install",
    "pip install -r requirements.txt",
    "pip3 install requests",
    "python -m pip install --upgrade pip",
    "uv pip install httpx",
    "uv add httpx",
    "uv sync",
    "poetry install",
    "apt-get install -y curl",
    "sudo apt-get -y install curl",
    "apt update",
    "brew install jq",
    "dnf install -y git",
    "yum install git",
    "pnpm install",
    "bun add zod",
    "deno cache main.ts",
    "poetry add httpx",
    "brew upgrade",
    "dnf upgrade",
    "yum update",
    "cargo fetch",
    "apk add git",
    "cargo add serde",
    "go get example.com/mod@latest",
    "go mod tidy",
    "deno add npm:zod",
    "gem install rails",
    "bundle install",
    "composer require monolog/monolog",
  ];
  assertEquals(kinds(installs), all(installs, "install"));
});

Deno.test("commandKind: the hook's own commands, by any path or release binary name", () => {
  const own = [
    "docsearch-hook stats",
    "docsearch-hook",
    "/usr/local/bin/docsearch-hook log --limit 5",
    "./dist/docsearch-hook-x86_64-unknown-linux-gnu doctor",
    "docsearch-hook.exe status",
    "DOCSEARCH_HOME=/tmp/x docsearch-hook prune",
    "echo '{}' | docsearch-hook hook",
  ];
  assertEquals(kinds(own), all(own, "own"));
});

Deno.test("commandKind: a tool named in an argument, a quote or a path is not what ran", () => {
  const other = [
    "ls -la",
    "git status",
    "cat tox.ini",
    "cat jest.config.js",
    "grep -rn pytest .",
    "npm run lint",
    "npm init -y",
    "pip list",
    "cmake ..",
    "python script.py",
    "echo make sense",
    `git commit -m "Pin deps after npm install; make test passes"`,
    "git commit -m \"$(cat <<'EOF'\nRun npm install before make build\nEOF\n)\"",
    "cd ~/src/docsearch-hook && git status",
    "ls docsearch-hook-1.0/",
    "cat docsearch-hook.log",
    "",
  ];
  assertEquals(kinds(other), all(other, "other"));
});

Deno.test("commandKind: the line is read as Bash reads it (lib/shell/read.ts)", () => {
  // Where the regex reader this replaced read otherwise: a here-document's body is text, a quoted program
  // name is the program, and a command substitution in double quotes runs.
  assertEquals(
    kinds([
      "cat <<EOF > notes.md\nnpm test\nEOF",
      '"npm" test',
      'echo "$(npm test)"',
    ]),
    [
      ["cat <<EOF > notes.md\nnpm test\nEOF", "other"],
      ['"npm" test', "test"],
      ['echo "$(npm test)"', "test"],
    ],
  );
  // Subshells, groups, substitutions, process substitutions and `-c` command lines are read into.
  const tests = [
    "(cd app && npm test)",
    "{ npm test; } 2>&1 | tail",
    "x=`npm test`",
    "diff <(npm test 2>&1) expected.txt",
    'sh -c "cd app && npm test"',
    "docker compose run app bash -c 'npm test'",
    "npm test |\n  tee log",
  ];
  assertEquals(kinds(tests), all(tests, "test"));
});

Deno.test("commandKind: a long command line full of tool names is classified at once, not in quadratic time", () => {
  // A backtracking `mvn … test` pattern took minutes on this; the hook must never stall the agent.
  assertEquals(commandKind(`echo ${"mvn gradle ".repeat(100_000)}`), "other");
  assertEquals(
    commandKind(`cat > notes.md <<'EOF'\n${"run mvn then gradle; ".repeat(50_000)}\nEOF`),
    "other",
  );
});

Deno.test("isNoiseOutput: empty, OK/Done, install chatter and progress bars say nothing", () => {
  const noise = [
    "",
    "   \n\n  ",
    "OK",
    "ok",
    "Done.",
    "done",
    "Success",
    "added 120 packages, and audited 121 packages in 3s\n\n14 packages are looking for funding\n" +
    "  run `npm fund` for details\n\nfound 0 vulnerabilities",
    "npm WARN deprecated inflight@1.0.6: This module is not supported\nup to date, audited 50 packages in 1s",
    "Collecting requests\n  Downloading requests-2.32.3-py3-none-any.whl (64 kB)\n" +
    "Installing collected packages: requests\nSuccessfully installed requests-2.32.3",
    "Requirement already satisfied: httpx in ./.venv/lib/python3.12/site-packages (0.27.0)",
    "Reading package lists... Done\nBuilding dependency tree... Done\nSetting up curl (8.5.0-2) ...",
    "   Compiling serde v1.0.210\n    Finished `dev` profile [unoptimized + debuginfo] target(s) in 2.10s",
    "[=====>      ] 45%\n[============] 100%",
    "  12%\n 57.5 %\n100%",
    "Downloading...",
  ];
  assertEquals(noise.filter((output) => !isNoiseOutput(output)), []);
});

Deno.test("isNoiseOutput: every status word and notice is chatter in any case (the filter's hints miss none)", () => {
  const words = [
    "Downloading",
    "Downloaded",
    "Download",
    "Fetching",
    "Resolving",
    "Resolved",
    "Installing",
    "Installed",
    "Collecting",
    "Compiling",
    "Building",
    "Checking",
    "Finished",
    "Progress",
    "Unpacking",
    "Preparing",
    "Setting up",
    "Selecting",
    "Reading",
    "Requirement already satisfied",
    "Successfully built",
    "webpack compiled",
    "Done",
    "OK",
    "Success",
  ];
  // Each holds one of the filter's hints only (none of them "ok" or "done").
  const notices = [
    "npm notice New minor version",
    "added 3 packages in 1s",
    "removed 3 packages in 1s",
    "changed 2 packages in 1s",
    "up to date in 1s",
    "audited 5 packages in 2s",
    "found 0 vulnerabilities",
    "3 packages are looking for funding",
  ];
  const lines = [...words.map((word) => `${word}: a-package 1.0`), ...notices];
  const missed = [...lines, ...lines.map((line) => line.toUpperCase())].filter((line) =>
    !isNoiseOutput(line)
  );
  assertEquals(missed, []);
});

Deno.test("isNoiseOutput: real output, including file names that start like status words, is kept", () => {
  const real = [
    "hello",
    "error: cannot find module './x'",
    " 2 files changed, 10 insertions(+)",
    "download.py\nprogress.ts\nbuilding.md\ninstalled.txt",
    "Downloads",
    "OK\nbut 3 warnings: unused variable x",
    "Compiling serde v1.0.210\nerror[E0425]: cannot find value `x` in this scope",
    "FAILED tests/test_api.py::test_login - AssertionError",
  ];
  assertEquals(real.filter((output) => isNoiseOutput(output)), []);
});

// ---------------------------------------------------------------- excerpt

Deno.test("excerpt: short text is redacted and trimmed, long text clipped at a word with an ellipsis", () => {
  assertEquals(excerpt("  hello world \n", 100, redactor), "hello world");
  assertEquals(excerpt(`token ${GITHUB_TOKEN}`, 100, redactor), "token [REDACTED:github_token]");
  const long = "alpha beta gamma delta ".repeat(20);
  const clipped = excerpt(long, 50, redactor);
  ok(clipped.endsWith(" …"));
  ok(clipped.length <= 52, clipped);
  ok(long.startsWith(clipped.slice(0, -2)), "a prefix of the text, ending at a whole word");
  match(clipped.slice(0, -2), /(?:alpha|beta|gamma|delta)$/);
});

Deno.test("excerpt: one long word is cut at the limit; a surrogate pair is never split", () => {
  assertEquals(excerpt("x".repeat(1000), 10, redactor), `${"x".repeat(10)} …`);
  const emoji = excerpt("😀".repeat(200), 101, redactor);
  doesNotMatch(emoji, /[\uD800-\uDBFF](?![\uDC00-\uDFFF])/);
  ok(emoji.length <= 103);
});

Deno.test("excerpt: leading blank lines do not hide what follows them", () => {
  assertEquals(excerpt(`${"\n".repeat(5000)}error: boom`, 200, redactor), "error: boom");
});

Deno.test("excerpt: a secret straddling the clip leaves no fragment", () => {
  const atClip = `${"word ".repeat(38)}${GITHUB_TOKEN} and more text after it`;
  const clipped = excerpt(atClip, 200, redactor);
  doesNotMatch(clipped, /ghp_|Z9Z9/);
  ok(clipped.length <= 202);

  // The end marker lies far past the lookahead: the part kept is still recognised as a key.
  const key = excerpt(`config:\n${PRIVATE_KEY}`, 200, redactor);
  doesNotMatch(key, /MIIE/);
  match(key, /\[REDACTED:private_key\]/);

  // An unrecognised long word cut by the clip is dropped whole.
  doesNotMatch(excerpt(`${"word ".repeat(39)}${"Q".repeat(100)}`, 200, redactor), /Q/);
});

Deno.test("excerpt: redaction shrinking the window does not pull a secret cut at its end into view", () => {
  // The JWT shrinks to a short tag; the token behind it, cut short by the window, was once kept unrecognised.
  const text = `${JWT} ${GITHUB_TOKEN} ${"tail ".repeat(200)}`;
  for (const limit of [200, 300]) {
    const clipped = excerpt(text, limit, redactor);
    doesNotMatch(clipped, /ghp_|Z9Z9/, `limit ${limit}`);
    match(clipped, /^\[REDACTED:jwt\]/);
  }
  const many = excerpt(`${`${JWT} `.repeat(2000)}${GITHUB_TOKEN}`, 300, redactor);
  doesNotMatch(many, /ghp_|eyJ/);
});

// ---------------------------------------------------------------- summaries per tool

Deno.test("summary: Write is the path, its line count and a short excerpt", () => {
  const text = summarize(
    post("Write", { file_path: "/p/src/app.ts", content: "export const x = 1;\nexport const y = 2;\n" }),
    redactor,
  ).text;
  assertEquals(text, "/p/src/app.ts (3 lines)\nexport const x = 1;\nexport const y = 2;");
  assertEquals(
    summarize(post("Write", { file_path: "/p/empty.txt", content: "" }), redactor).text,
    "/p/empty.txt (0 lines)",
  );
  const long =
    summarize(post("Write", { file_path: "/p/big.md", content: "lorem ipsum ".repeat(1000) }), redactor)
      .text;
  ok(long.length < 300, `${long.length}`);
  match(long, /^\/p\/big\.md \(1 line\)\nlorem ipsum/);
});

Deno.test("summary: Edit and MultiEdit show the path and the change; NotebookEdit the new source", () => {
  assertEquals(
    summarize(
      post("Edit", { file_path: "/p/a.ts", old_string: "let x = 1;", new_string: "const x = 1;" }),
      redactor,
    )
      .text,
    "/p/a.ts\n- let x = 1;\n+ const x = 1;",
  );
  assertEquals(
    summarize(
      post("MultiEdit", {
        file_path: "/p/a.ts",
        edits: [{ old_string: "a", new_string: "first()" }, { old_string: "b", new_string: "second()" }],
      }),
      redactor,
    ).text,
    "/p/a.ts (2 edits)\n+ first()",
  );
  assertEquals(
    summarize(post("NotebookEdit", { notebook_path: "/p/n.ipynb", new_source: "print(1)" }), redactor).text,
    "/p/n.ipynb\nprint(1)",
  );
});

Deno.test("summary: Bash is the command, its exit status and a short output excerpt", () => {
  const summary = summarize(bash("ls src", "a.ts\nb.ts"), redactor);
  assertEquals(summary.text, "$ ls src\n[exit 0]\na.ts\nb.ts");
  assertEquals(summary.command, { kind: "other", exitCode: 0, output: "a.ts\nb.ts", interrupted: false });

  const withStderr = summarize(
    post("Bash", { command: "node x.js" }, { tool_response: { stdout: "out", stderr: "warn: y" } }),
    redactor,
  );
  assertEquals(withStderr.text, "$ node x.js\n[exit 0]\nout\nwarn: y");

  const failed = summarize(bashFailure("false", "Exit code 1"), redactor);
  assertEquals(failed.text, "$ false\n[exit 1]\nExit code 1");

  const noCode = summarize(failure("Bash", { command: "sleep 1" }, "Something went wrong"), redactor);
  assertEquals(noCode.text, "$ sleep 1\n[failed]\nSomething went wrong");
  // A failure with no error text and no exit code in the response: failed, with no code made up.
  const silent = summarize(failure("Bash", { command: "sleep 1" }, ""), redactor);
  assertEquals([silent.text, silent.command?.exitCode], ["$ sleep 1\n[failed]", undefined]);

  const huge = summarize(bash("yes | head -c 10000000", "y\n".repeat(5_000_000)), redactor);
  ok(huge.text.length < 700, `${huge.text.length}`);
  ok(huge.command!.output.length <= 302);
});

Deno.test("summary: Read, Glob and Grep name the target only, never the file contents they returned", () => {
  const fileText = "SECRET PLAN: line one\nline two\n".repeat(1000);
  const read = post("Read", { file_path: "/p/src/plan.ts", offset: 10, limit: 50 }, {
    tool_response: { type: "text", file: { filePath: "/p/src/plan.ts", content: fileText, numLines: 2000 } },
  });
  assertEquals(summarize(read, redactor).text, "/p/src/plan.ts");
  assertEquals(stored(read).summary, "/p/src/plan.ts");
  doesNotMatch(JSON.stringify(stored(read)), /SECRET PLAN/);

  const plainResponse = post("Read", { file_path: "/p/x.txt" }, { tool_response: fileText });
  assertEquals(stored(plainResponse).summary, "/p/x.txt");

  assertEquals(
    summarize(
      post("Glob", { pattern: "**/*.ts", path: "/p/src" }, { tool_response: ["/p/src/a.ts"] }),
      redactor,
    )
      .text,
    "**/*.ts in /p/src",
  );
  assertEquals(summarize(post("Glob", { pattern: "*.md" }), redactor).text, "*.md");
  const grep = post("Grep", { pattern: "TODO", path: "src", output_mode: "content" }, {
    tool_response: "src/a.ts:1:// TODO SECRET PLAN",
  });
  assertEquals(summarize(grep, redactor).text, "TODO in src");
  assertEquals(
    summarize(post("Grep", { pattern: "fn main", glob: "*.rs" }), redactor).text,
    "fn main in *.rs",
  );
  assertEquals(summarize(post("LS", { path: "/p" }), redactor).text, "/p");
});

Deno.test("summary: WebSearch is the query and WebFetch the URL, not what came back", () => {
  const search = post("WebSearch", { query: "gitlab ci cache", allowed_domains: ["docs.gitlab.com"] }, {
    tool_response: { results: ["a long page of results"] },
  });
  assertEquals(stored(search).summary, "gitlab ci cache");
  const fetch = post("WebFetch", { url: "https://docs.gitlab.com/ee/ci/", prompt: "how to cache" }, {
    tool_response: { result: "the whole page" },
  });
  assertEquals(stored(fetch).summary, "https://docs.gitlab.com/ee/ci/");
});

Deno.test("summary: an MCP tool is its name and a short summary of its input", () => {
  const mcp = post("mcp__leann__leann_search", { index_name: "gitlab", query: "runners", top_k: 5 }, {
    tool_response: [{ type: "text", text: "a very long search result ".repeat(500) }],
  });
  const observation = stored(mcp);
  assertEquals(observation.tool, "mcp__leann__leann_search");
  assertEquals(observation.summary, 'index_name="gitlab" query="runners" top_k=5');

  const nested = summarize(
    post("mcp__github__create_issue", { repo: "o/r", labels: ["bug"], body: "x".repeat(5000) }),
    redactor,
  ).text;
  match(nested, /^repo="o\/r" labels=\["bug"\] body="x+ …"$/);
  ok(nested.length <= 402, `${nested.length}`);
});

Deno.test("summary: Task, TodoWrite, unknown tools and failures of other tools", () => {
  assertEquals(
    summarize(
      post("Task", { subagent_type: "general-purpose", description: "Find the loader", prompt: "long..." }),
      redactor,
    ).text,
    "general-purpose: Find the loader",
  );
  assertEquals(
    summarize(
      post("TodoWrite", {
        todos: [
          { content: "Read the spec", status: "completed" },
          { content: "Write tests", status: "in_progress" },
          { content: "Fix bugs", status: "pending" },
        ],
      }),
      redactor,
    ).text,
    "3 todos: Write tests",
  );
  assertEquals(summarize(post("TodoWrite", { todos: [] }), redactor).text, "0 todos");
  assertEquals(summarize(post("FancyTool", { mode: "fast", n: 2 }), redactor).text, 'mode="fast" n=2');
  assertEquals(summarize(post("FancyTool", {}), redactor).text, "");
  assertEquals(
    summarize(failure("Read", { file_path: "/p/missing.ts" }, "File does not exist."), redactor).text,
    "/p/missing.ts\nerror: File does not exist.",
  );
});

Deno.test("summary: lifecycle events keep their own fields", () => {
  const text = (name: string, fields: Record<string, unknown>) => stored(lifecycle(name, fields)).summary;
  assertEquals(text("SessionStart", { source: "resume", model: "claude-x" }), "source=resume model=claude-x");
  assertEquals(text("SessionEnd", { reason: "logout" }), "reason=logout");
  assertEquals(text("Stop", { stop_hook_active: false }), "stop_hook_active=false");
  assertEquals(
    text("SubagentStop", { agent_type: "Explore", stop_hook_active: true }),
    "agent_type=Explore stop_hook_active=true",
  );
  assertEquals(text("PreCompact", { trigger: "manual", custom_instructions: "" }), "trigger=manual");
  assertEquals(text("PreCompact", { trigger: "auto" }), "trigger=auto");
  const session = stored(lifecycle("SessionStart", { source: "startup" }));
  assertEquals(session, {
    event: "SessionStart",
    tool: undefined,
    toolUseId: undefined,
    summary: "source=startup",
    outcome: undefined,
    durationMs: undefined,
  });
});

Deno.test("summary: PreCompact keeps its trigger, never what the user typed after /compact", () => {
  const instructions = "Focus on the billing refactor; the staging password is Tr0ub4dor&3xyz";
  for (const trigger of ["manual", "auto"]) {
    const observation = stored(lifecycle("PreCompact", { trigger, custom_instructions: instructions }));
    assertEquals(observation.summary, `trigger=${trigger}`);
  }
});

Deno.test("observation: a huge Write, Bash output or tool input stays within MAX_SUMMARY_CHARS", () => {
  const tenMB = "0123456789 abcdefghij\n".repeat(500_000);
  const events = [
    post("Write", { file_path: "/p/huge.txt", content: tenMB }),
    post("Edit", { file_path: "/p/huge.txt", old_string: tenMB, new_string: tenMB }),
    bash("cat /p/huge.txt", tenMB),
    bashFailure(`echo ${tenMB}`, tenMB),
    post("mcp__db__query", { sql: tenMB, args: [tenMB, tenMB] }),
    post(
      "FancyTool",
      Object.fromEntries(Array.from({ length: 2000 }, (_, i) => [`k${i}`, tenMB.slice(0, 500)])),
    ),
    post("WebFetch", { url: `https://example.com/${"a".repeat(1_000_000)}` }),
    lifecycle("PreCompact", { trigger: "manual", custom_instructions: tenMB }),
  ];
  for (const event of events) {
    const observation = stored(event);
    ok(observation.summary.length <= MAX_SUMMARY_CHARS, `${event.toolName}: ${observation.summary.length}`);
    ok(observation.summary.length < 1000, `${event.toolName}: ${observation.summary.length}`);
  }
  const name = stored(post(`mcp__${"s".repeat(1000)}__t`, {}, { tool_use_id: "t".repeat(1000) }));
  assertEquals([name.tool!.length, name.toolUseId!.length], [200, 200]);
});

// ---------------------------------------------------------------- tool_use_id, duration, outcome

Deno.test("observation: tool_use_id and duration_ms are carried when present", () => {
  const observation = stored(
    post("Write", { file_path: "/p/a", content: "x" }, { tool_use_id: "toolu_01ABC125", duration_ms: 41.6 }),
  );
  assertEquals([observation.toolUseId, observation.durationMs], ["toolu_01ABC125", 42]);
  assertEquals(stored(post("Write", { file_path: "/p/a", content: "x" }, { duration_ms: 0 })).durationMs, 0);
  const absent = stored(post("Write", { file_path: "/p/a", content: "x" }));
  assertEquals([absent.toolUseId, absent.durationMs], [undefined, undefined]);
  for (const duration of [-1, "12", null, true, { ms: 3 }]) {
    assertEquals(
      stored(post("Write", { file_path: "/p/a", content: "x" }, { duration_ms: duration })).durationMs,
      undefined,
      JSON.stringify(duration),
    );
  }
  const infinite = parseHookEvent(
    '{"hook_event_name":"PostToolUse","tool_name":"Write","tool_input":{"file_path":"/p/a"},"duration_ms":1e999}',
  );
  ok(infinite.ok);
  assertEquals(stored(infinite.event).durationMs, undefined);
  assertEquals(stored(post("Write", { file_path: "/p/a" }, { tool_use_id: 42 })).toolUseId, undefined);
});

Deno.test("outcome: ok, error and interrupted", () => {
  const outcome = (event: HookEvent) => stored(event).outcome;
  assertEquals(outcome(post("Write", { file_path: "/p/a", content: "x" })), "ok");
  assertEquals(outcome(post("mcp__leann__leann_search", { query: "q" })), "ok");
  assertEquals(outcome(bash("ls", "a.ts")), "ok");
  assertEquals(outcome(failure("Edit", { file_path: "/p/a" }, "String not found")), "error");
  assertEquals(outcome(bashFailure("ls /nope", "Exit code 2")), "error");
  assertEquals(outcome(bash("grep x f", "", { tool_response: { stdout: "", exit_code: 1 } })), "error");
  assertEquals(
    outcome(failure("Bash", { command: "sleep 100" }, "Interrupted", { is_interrupt: true })),
    "interrupted",
  );
  assertEquals(
    outcome(failure("WebFetch", { url: "https://x" }, "Aborted", { is_interrupt: true })),
    "interrupted",
  );
  assertEquals(
    outcome(post("Bash", { command: "npm test" }, { tool_response: { stdout: "", interrupted: true } })),
    "interrupted",
  );
  assertEquals(outcome(lifecycle("Stop", { stop_hook_active: false })), undefined);
});

Deno.test("outcome: test and build commands pass or fail on their exit status", () => {
  const outcome = (event: HookEvent) => stored(event).outcome;
  // Claude Code's own words for a non-zero exit.
  const referenceFailure = failure(
    "Bash",
    { command: "npm test", description: "Run test suite" },
    "Command exited with non-zero status code 1",
    { tool_use_id: "toolu_01ABC126" },
  );
  const failed = stored(referenceFailure);
  assertEquals(failed.outcome, "failed");
  assertEquals(failed.toolUseId, "toolu_01ABC126");
  match(failed.summary, /^\$ npm test\n\[exit 1\]/);
  assertEquals(outcome(bashFailure("pytest -x", "Exit code 2")), "failed");
  match(stored(bashFailure("pytest -x", "Exit code 2")).summary, /\[exit 2\]/);
  assertEquals(outcome(bashFailure("cargo build", "Exit code 101")), "failed");
  assertEquals(outcome(bashFailure("go test ./...", "Error: killed")), "failed");

  for (
    const command of [
      "pytest",
      "python -m pytest",
      "deno test -A",
      "deno task test",
      "npm test",
      "cargo test",
    ]
  ) {
    assertEquals(outcome(bash(command, "5 passed")), "passed", command);
  }
  for (const command of ["npm run build", "cargo build", "go build ./...", "make build", "mvn test"]) {
    assertEquals(outcome(bash(command, "")), "passed", command);
  }
  // Agents that report the exit code in the response rather than as a failure event.
  assertEquals(
    outcome(bash("make test", "", { tool_response: { output: "1 failed", exit_code: 1 } })),
    "failed",
  );
  assertEquals(outcome(bash("yarn test", "", { tool_response: { output: "ok", exitCode: 0 } })), "passed");
  assertEquals(
    outcome(bash("go test ./...", "", { tool_response: { stdout: "FAIL", returncode: 2 } })),
    "failed",
  );
});

// ---------------------------------------------------------------- admission filter

Deno.test("admission: empty and OK output, install chatter, progress and the hook's own commands are dropped", () => {
  assertEquals(dropReason(bash("mkdir -p build", "")), "no meaningful output");
  assertEquals(dropReason(bash("touch a", "OK")), "no meaningful output");
  assertEquals(
    dropReason(bash("./fetch-assets.sh", "Downloading...\n[=====>    ] 45%\n[==========] 100%")),
    "no meaningful output",
  );
  assertEquals(dropReason(post("Bash", { command: "true" })), "no meaningful output");
  for (const command of ["npm install", "pip install requests", "sudo apt-get install -y curl", "uv sync"]) {
    assertEquals(
      dropReason(bash(command, "added 3 packages in 1s\nlodash@4.17.21 is ready")),
      "package install",
      command,
    );
  }
  assertEquals(dropReason(bash("docsearch-hook stats", "12 redirects")), "docsearch-hook's own command");
  assertEquals(dropReason(bashFailure("docsearch-hook doctor")), "docsearch-hook's own command");
});

Deno.test("admission: Write and Edit are never dropped for their content", () => {
  for (const content of ["OK", "", "npm WARN deprecated x@1\nadded 3 packages", "100%", "done"]) {
    const write = stored(post("Write", { file_path: "/p/notes.txt", content }));
    assertEquals(write.outcome, "ok", content);
    const edit = stored(post("Edit", { file_path: "/p/notes.txt", old_string: "x", new_string: content }));
    assertEquals(edit.outcome, "ok", content);
  }
  assertEquals(stored(post("MultiEdit", { file_path: "/p/a", edits: [] })).summary, "/p/a (0 edits)");
});

Deno.test("admission: failing installs, test and build runs and ordinary output are kept", () => {
  const install = stored(bashFailure("npm install left-pad-x", "Exit code 1"));
  assertEquals(install.outcome, "error");
  assertEquals(
    stored(bash("pip install x", "", { tool_response: { stdout: "", exit_code: 1 } })).outcome,
    "error",
  );
  assertEquals(stored(bash("npm test", "added 3 packages\ndone")).outcome, "passed");
  assertEquals(stored(bash("cargo build", "   Compiling x v0.1.0\n    Finished dev")).outcome, "passed");
  assertEquals(stored(bash("make", "")).outcome, "passed");
  const ordinary = stored(bash("git log --oneline -2", "247572e Tests\n17a1d15 Capture"));
  assertEquals(ordinary.summary, "$ git log --oneline -2\n[exit 0]\n247572e Tests\n17a1d15 Capture");
  assertEquals(stored(bash("ls", "download.py\nprogress.ts")).outcome, "ok");
  assertEquals(stored(bashFailure("ls /nope", "Exit code 2")).outcome, "error");
  // Mentions are not runs: a commit message naming an install is an ordinary command.
  assertEquals(
    stored(bash(`git commit -m "Run npm install in CI"`, "[main 1a2b3c] Run npm install in CI")).outcome,
    "ok",
  );
  assertEquals(stored(bashFailure("cd ~/src/docsearch-hook && cargo test")).outcome, "failed");
});

Deno.test("admission: skip_tools drops exact names and prefix* patterns, before anything is summarised", () => {
  assertEquals(skipsTool(["Read", "mcp__github__*"], "Read"), true);
  assertEquals(skipsTool(["Read", "mcp__github__*"], "mcp__github__create_issue"), true);
  assertEquals(skipsTool(["Read", "mcp__github__*"], "mcp__gitlab__search"), false);
  assertEquals(skipsTool(["Read"], "ReadMany"), false);
  assertEquals(skipsTool(["Bash"], "BashOutput"), false);
  assertEquals(skipsTool(["*"], "Anything"), true);
  assertEquals(skipsTool([], "Read"), false);

  const skip = { skipTools: ["TodoWrite", "mcp__github__*"] };
  assertEquals(
    dropReason(post("TodoWrite", { todos: [] }), skip),
    "tool skipped by config (capture.skip_tools)",
  );
  assertEquals(capture(post("mcp__github__get_issue", { number: 1 }), skip).kind, "drop");
  assertEquals(capture(failure("mcp__github__get_issue", { number: 1 }, "404"), skip).kind, "drop");
  assertEquals(capture(post("mcp__leann__leann_search", { query: "q" }), skip).kind, "store");
  assertEquals(capture(lifecycle("Stop"), { skipTools: ["*"] }).kind, "store");
});

// ---------------------------------------------------------------- secrets

Deno.test("secrets: a Write or Edit to a secret file keeps the path, never the content", () => {
  const env = stored(post("Write", { file_path: "/p/.env", content: "DB_HOST=localhost\nAPP_MODE=dev" }));
  assertEquals(env.summary, `/p/.env (2 lines)\n${SECRET_FILE_TAG}`);
  const key = stored(post("Write", { file_path: "/home/u/.ssh/id_rsa", content: PRIVATE_KEY }));
  assertEquals(key.summary, `/home/u/.ssh/id_rsa (82 lines)\n${SECRET_FILE_TAG}`);
  const edit = stored(
    post("Edit", { file_path: "config/.env.production", old_string: "PORT=1", new_string: "PORT=2" }),
  );
  assertEquals(edit.summary, `config/.env.production\n- ${SECRET_FILE_TAG}\n+ ${SECRET_FILE_TAG}`);
  const multi = stored(post("MultiEdit", { file_path: "certs/server.pem", edits: [{ new_string: "abc" }] }));
  assertEquals(multi.summary, `certs/server.pem (1 edit)\n+ ${SECRET_FILE_TAG}`);

  const custom = createRedactor([], ["*.tfvars"]);
  const tfvars = observe(
    post("Write", { file_path: "infra/prod.tfvars", content: 'region = "eu"' }),
    DEFAULT_CAPTURE,
    custom,
  );
  assertEquals(
    tfvars.kind === "store" && tfvars.observation.summary,
    `infra/prod.tfvars (1 line)\n${SECRET_FILE_TAG}`,
  );
});

Deno.test("secrets: reading a secret file in Bash stores no output", () => {
  const values = "DB_HOST=db.internal\nFEATURE_FLAG=on-for-everyone";
  for (
    const command of ["cat .env", "source ./.env && env", "grep HOST config/.env.local", "cat ~/.ssh/id_rsa"]
  ) {
    const observation = stored(bash(command, values));
    doesNotMatch(observation.summary, /db\.internal|on-for-everyone/, command);
    match(observation.summary, new RegExp(`\\[exit 0\\]\\n\\${SECRET_FILE_TAG.slice(0, -1)}\\]$`), command);
  }
  assertEquals(dropReason(bash("cat .env", "")), "no meaningful output");
});

Deno.test("secrets: a command printing a secret-named variable or a stored secret keeps no output", () => {
  // What each command printed, as the agent sends it; none of these survives.
  const cases: [string, string][] = [
    ["echo $DATABASE_PASSWORD", "Tr0ub4dor&3xyz"],
    ["printenv API_TOKEN", "a8f5f167f44f4964e6c998dee827110c"],
    ['echo "$NPM_TOKEN"', "0e1f8f0a-3c1b-4b5e-9d7a-2f6c8e4b1a90"],
    ["echo ${DB_PASSWORD:-unset}", "hunter2hunter2"],
    ["printf '%s\\n' \"${db_password}\"", "correct horse battery staple"],
    ["sudo /usr/bin/printenv MYSQL_PWD", "s3cr3t-pw"],
    ["env | grep -i token", "GH_TOKEN=abc\nNPM_TOKEN=Tr0ub4dor&3xyz"],
    ["printenv | grep -E 'PASSWORD|HOST'", "PGPASSWORD=pw&1234\nPGHOST=db"],
    ["bash -c 'echo $GITHUB_TOKEN'", "Tr0ub4dor&3xyz"],
    ["cat <<EOF\nuser=admin pass=$SMTP_PASS\nEOF", "user=admin pass=Tr0ub4dor&3xyz"],
    ["op read op://Private/db/password", "Tr0ub4dor&3xyz"],
    ["op item get db --fields password --reveal", "Tr0ub4dor&3xyz"],
    ["pass show web/github", "Tr0ub4dor&3xyz"],
    ["security find-generic-password -s deploy -w", "Tr0ub4dor&3xyz"],
    ["gcloud auth print-access-token", "ya29.a0AfH6SMBx-Tr0ub4dor"],
    ["gcloud auth application-default print-access-token", "ya29.a0AfH6SMBx-Tr0ub4dor"],
    ["aws secretsmanager get-secret-value --secret-id prod/db --query SecretString", '"Tr0ub4dor&3xyz"'],
    ["aws ssm get-parameter --name /prod/db --with-decryption", "Tr0ub4dor&3xyz"],
    ["vault kv get -field=password secret/db", "Tr0ub4dor&3xyz"],
    ["vault read -field=token auth/x", "Tr0ub4dor&3xyz"],
    ["kubectl -n prod get secret db -o jsonpath='{.data.password}'", "VHIwdWI0ZG9yJjN4eXo="],
    ["kubectl get secrets/db -oyaml", "data:\n  password: VHIwdWI0ZG9yJjN4eXo="],
    ["gh auth token", "gho_Tr0ub4dor3xyz"],
    ["az account get-access-token --query accessToken -o tsv", "Tr0ub4dor&3xyz"],
    ['curl -s -H "Authorization: Bearer $API_TOKEN" https://api.example.com/me', '{"echo":"Tr0ub4dor&3xyz"}'],
  ];
  for (const [command, output] of cases) {
    const observation = stored(bash(command, output));
    doesNotMatch(
      observation.summary,
      /Tr0ub4dor|a8f5f167|0e1f8f0a|hunter2|horse|s3cr3t|VHIw|pw&1234/,
      command,
    );
    assertEquals(observation.summary.split("\n").slice(-2), ["[exit 0]", SECRET_FILE_TAG], command);
    assertEquals(summarize(bash(command, output), redactor).command?.output, SECRET_FILE_TAG, command);
  }
  // A failure's error text is output too.
  assertEquals(
    stored(bashFailure("echo $DEPLOY_TOKEN | ssh x", "Tr0ub4dor&3xyz: command not found")).summary
      .split("\n").slice(-1),
    [SECRET_FILE_TAG],
  );
});

Deno.test("secrets: commands that print no secret keep their output", () => {
  const cases: [string, string][] = [
    ["echo $HOME", "/home/u"],
    // The shell's own folders, though the filter takes a `PWD=` whose value is no path for a password.
    ["echo $PWD; cd .. && echo $OLDPWD", "/home/u/app\n/home/u/app"],
    ["echo $SSH_AUTH_SOCK", "/tmp/ssh-XXXX/agent.42"],
    ["printenv PATH", "/usr/local/bin:/usr/bin"],
    ['echo "${NODE_ENV:-development}" $CI', "development true"],
    ["env | grep PATH", "PATH=/usr/bin"],
    ["env | sort | head -1", "CI=true"],
    ["set -e; grep -rn max_tokens src | head -1", "src/a.ts:3:const max_tokens = 1024"],
    ["awk '{print $1}' access.log", "10.0.0.1"],
    ["kubectl get pods -o wide", "web-1 1/1 Running"],
    ["aws s3 ls", "2025-01-01 bucket"],
    ["op whoami", "URL: https://my.1password.com"],
    ["vault status", "Sealed false"],
    ["gh auth status", "Logged in to github.com"],
  ];
  for (const [command, output] of cases) {
    assertEquals(summarize(bash(command, output), redactor).command?.output, output, command);
  }
});

Deno.test("secrets: a secret in a command, an edit, an MCP input, a query, an error or output is redacted", () => {
  const cases: [HookEvent, RegExp][] = [
    [bash(`curl -H "Authorization: Bearer ${"t0k".repeat(10)}" https://api.example.com`, "{}"), /t0kt0k/],
    [bash(`echo OPENAI_API_KEY=${OPENAI_KEY} >> ~/.profile && echo saved`, "saved"), /Ab3Ab3/],
    [bash(`git push https://me:hunter2hunter2@github.com/o/r`, "Everything up-to-date"), /hunter2/],
    [bash("env", `HOME=/home/u\nGITHUB_TOKEN=${GITHUB_TOKEN}`), /Z9Z9/],
    [bashFailure(`deploy --token ${GITHUB_TOKEN}`, `Exit code 1: bad token ${GITHUB_TOKEN}`), /Z9Z9/],
    [
      post("Edit", { file_path: "/p/cfg.py", old_string: "x", new_string: `API_KEY = "${OPENAI_KEY}"` }),
      /Ab3Ab3/,
    ],
    [
      post("Write", { file_path: "/p/cfg.json", content: `{"password": "correct-horse-battery-7"}` }),
      /horse/,
    ],
    [post("mcp__github__create_issue", { token: GITHUB_TOKEN, title: "x" }), /Z9Z9/],
    [post("mcp__db__connect", { api_key: "plainvalue123", db: "main" }), /plainvalue/],
    [post("mcp__db__connect", { config: { password: "s3cr3t-pass-99" } }), /s3cr3t/],
    [post("WebSearch", { query: `why is ${OPENAI_KEY} rejected` }), /Ab3Ab3/],
    [post("WebFetch", { url: `https://api.example.com/v1?token=${"q1w2e3".repeat(5)}` }), /q1w2e3/],
    [post("Task", { subagent_type: "x", description: `use ${GITHUB_TOKEN}` }), /Z9Z9/],
  ];
  for (const [event, secret] of cases) {
    const observation = stored(event);
    doesNotMatch(JSON.stringify(observation), secret, observation.summary);
    match(observation.summary, /\[REDACTED:/, observation.summary);
  }
});

Deno.test("secrets: a long secret straddling a summary's clip leaks no fragment", () => {
  const output = `${"line of output\n".repeat(19)}${GITHUB_TOKEN}\n${"more\n".repeat(100)}`;
  const observation = stored(bash("./deploy.sh", output));
  doesNotMatch(observation.summary, /ghp_|Z9Z9/);

  const write = stored(
    post("Write", { file_path: "/p/k.txt", content: `${"ab ".repeat(60)}${PRIVATE_KEY}` }),
  );
  doesNotMatch(write.summary, /MIIE/);

  // Bash output is clipped at 300: the redacted JWT once let the token cut by the window into the summary.
  const shrunk = stored(bash("./print-tokens.sh", `${JWT} ${GITHUB_TOKEN} rest`));
  doesNotMatch(shrunk.summary, /ghp_|Z9Z9|eyJ/);

  const user = createRedactor([{ pattern: "ACME-[0-9]{40}", category: "acme", ignoreCase: false }], []);
  const acme = observe(
    post("Write", { file_path: "/p/a.txt", content: `${"x ".repeat(95)}ACME-${"7".repeat(40)} end` }),
    DEFAULT_CAPTURE,
    user,
  );
  ok(acme.kind === "store");
  doesNotMatch(acme.observation.summary, /ACME|7777/);
});

Deno.test("decisionObservation: the redirect's decision, request redacted", () => {
  const event = hookEvent({
    hook_event_name: "PreToolUse",
    tool_name: "WebSearch",
    tool_input: { query: "q" },
    tool_use_id: "toolu_01ABC123",
  });
  assertEquals(decisionObservation(event, "denied", "gitlab runners", ["gitlab", "k8s"], redactor), {
    event: "PreToolUse",
    tool: "WebSearch",
    toolUseId: "toolu_01ABC123",
    summary: "gitlab runners\n→ gitlab, k8s",
    outcome: "denied",
  });
  assertEquals(
    decisionObservation(event, "no-match", `a ${GITHUB_TOKEN}`, [], redactor).summary,
    "a [REDACTED:github_token]",
  );
  ok(decisionObservation(event, "escaped", "x ".repeat(2000), ["gitlab"], redactor).summary.length < 520);
});

// ---------------------------------------------------------------- eventRecord

const NOW = Date.UTC(2025, 0, 31);
const DAY = 86_400_000;
const gitlab = database({ name: "gitlab", mcpToolName: "mcp__leann__leann_search", keywords: ["gitlab"] });
const k8s = database({ name: "kubernetes", mcpToolName: "mcp__docs__search", keywords: ["k8s"] });
const claudeEnv = (name: string) =>
  ({ CLAUDE_PROJECT_DIR: "/home/u/project" } as Record<string, string>)[name];

function record(event: HookEvent, overrides: Partial<RecordInput> = {}) {
  return eventRecord({
    event,
    config: config([gitlab, k8s]),
    redactor,
    env: claudeEnv,
    now: NOW,
    hookMs: 3,
    ...overrides,
  });
}

const withCapture = (settings: Partial<CaptureConfig>, ttl = 300): Config => ({
  ...config([gitlab, k8s], ttl),
  capture: { ...DEFAULT_CAPTURE, ...settings },
});

Deno.test("agentOf: the agent from the variables it sets for its hooks", () => {
  const envOf = (vars: Record<string, string>) => (name: string) => vars[name];
  assertEquals(agentOf(envOf({ CLAUDE_PROJECT_DIR: "/p" })), "claude-code");
  assertEquals(agentOf(envOf({ CLAUDECODE: "1" })), "claude-code");
  assertEquals(agentOf(envOf({ RIPPERDOC_PROJECT_DIR: "/p" })), "ripperdoc");
  assertEquals(agentOf(envOf({ RIPPERDOC_SESSION_ID: "s" })), "ripperdoc");
  // Ripperdoc also sets Claude Code's variables for compatible hooks.
  assertEquals(agentOf(envOf({ RIPPERDOC_PROJECT_DIR: "/p", CLAUDE_PROJECT_DIR: "/p" })), "ripperdoc");
  assertEquals(agentOf(envOf({ CLAUDECODE: "" })), "unknown");
  assertEquals(agentOf(envOf({ HOME: "/home/u" })), "unknown");
});

Deno.test("eventRecord: SessionStart touches the session and applies retention", () => {
  const start = record(lifecycle("SessionStart", { source: "resume", model: "m" }));
  assertEquals(start.event, "SessionStart");
  assertEquals(start.session, {
    sessionId: "abc123",
    cwd: "/home/u/project",
    agent: "claude-code",
    at: NOW,
    source: "resume",
    ended: false,
    endReason: undefined,
  });
  assertEquals(start.observation?.summary, "source=resume model=m");
  assertEquals([start.pruneBefore, start.denialsBefore], [NOW - 30 * DAY, NOW - 300_000]);
  assertEquals([start.calledTool, start.denied, start.escapedKey, start.hookMs], [
    undefined,
    undefined,
    undefined,
    3,
  ]);

  assertEquals(record(lifecycle("SessionStart")).session.source, "startup");
  const custom = record(lifecycle("SessionStart"), { config: withCapture({ retentionDays: 7 }, 60) });
  assertEquals([custom.pruneBefore, custom.denialsBefore], [NOW - 7 * DAY, NOW - 60_000]);
});

Deno.test("eventRecord: SessionEnd ends the session with its reason; other events apply no retention", () => {
  const end = record(lifecycle("SessionEnd", { reason: "logout" }), { env: () => undefined });
  assertEquals(end.session.agent, "unknown");
  assertEquals([end.session.ended, end.session.endReason, end.session.source], [true, "logout", undefined]);
  assertEquals(end.observation?.summary, "reason=logout");
  assertEquals(record(lifecycle("SessionEnd")).session.endReason, "other");
  for (const event of [lifecycle("SessionEnd"), lifecycle("Stop"), bash("ls", "a")]) {
    const touched = record(event);
    assertEquals([touched.pruneBefore, touched.denialsBefore], [undefined, undefined], event.hookEventName);
  }
  const stop = record(lifecycle("Stop", { stop_hook_active: false }));
  assertEquals([stop.session.ended, stop.session.endReason, stop.session.source], [
    false,
    undefined,
    undefined,
  ]);
});

Deno.test("eventRecord: a session's source, end reason and cwd are clipped, never inside a surrogate pair", () => {
  const start = record(
    lifecycle("SessionStart", { source: "s".repeat(5_000_000), cwd: "/p" + "\u{1F600}".repeat(1_500_000) }),
  );
  // One long word is cut at 200 characters; the cwd at 4095 and its mark, the emoji that would be split dropped.
  assertEquals(start.session.source, "s".repeat(200) + " …");
  assertEquals(start.session.cwd, "/p" + "\u{1F600}".repeat(2046) + "…");
  assertEquals(start.session.cwd!.length, 4095);

  const emoji = record(lifecycle("SessionEnd", { reason: "r" + "\u{1F600}".repeat(1000) }));
  assertEquals(emoji.session.endReason, "r" + "\u{1F600}".repeat(99) + " …");
  const words = record(lifecycle("SessionEnd", { reason: "logged out ".repeat(100) }));
  assertEquals(words.session.endReason, "logged out ".repeat(18) + "…");

  // The fields are what the agent sent: the privacy filter passes over them as over any other text.
  const secret = record(lifecycle("SessionStart", { source: `resume password=Tr0ub4dor&3xyz` }));
  assertEquals(secret.session.source, "resume password=[REDACTED:secret]&3xyz");

  // A cwd as long as Linux allows (4096 bytes with its NUL) is kept whole.
  const deep = "/" + "d/".repeat(2047);
  assertEquals(record(lifecycle("SessionStart", { cwd: deep })).session.cwd, deep);
});

Deno.test("eventRecord: tool calls record the tool called; other events only touch the session", () => {
  const called = record(post("mcp__leann__leann_search", { query: "runners" }, { tool_use_id: "toolu_1" }));
  assertEquals(called.calledTool, "mcp__leann__leann_search");
  assertEquals(called.observation?.toolUseId, "toolu_1");
  assertEquals(record(failure("mcp__docs__search", { q: "x" }, "timeout")).calledTool, "mcp__docs__search");

  const dropped = record(bash("mkdir x", ""));
  assertEquals([dropped.calledTool, dropped.observation], ["Bash", undefined]);

  const pre = record(
    hookEvent({ hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command: "ls" } }),
  );
  assertEquals([pre.calledTool, pre.observation, pre.denied], [undefined, undefined, undefined]);
  const prompt = record(lifecycle("UserPromptSubmit", { prompt: "hello" }));
  assertEquals([prompt.event, prompt.observation, prompt.session.sessionId], [
    "UserPromptSubmit",
    undefined,
    "abc123",
  ]);
});

const preWeb = (tool: "WebSearch" | "WebFetch", input: Record<string, unknown>) =>
  hookEvent({ hook_event_name: "PreToolUse", tool_name: tool, tool_input: input, tool_use_id: "toolu_web" });

Deno.test("eventRecord: a denial records what was denied and which databases were suggested", () => {
  const query = `gitlab k8s runners ${GITHUB_TOKEN}`;
  const request: WebRequest = { tool: "WebSearch", query, allowedDomains: [], blockedDomains: [] };
  const decision = {
    action: "deny" as const,
    matches: [
      { database: gitlab, reason: { kind: "keyword" as const, keyword: "gitlab" } },
      { database: k8s, reason: { kind: "keyword" as const, keyword: "k8s" } },
    ],
    requestKey: "key-1",
    output: "{}",
    answered: false,
  } satisfies RedirectDecision;
  const denied = record(preWeb("WebSearch", { query }), { redirect: { request, decision } });
  assertEquals(denied.denied, {
    requestKey: "key-1",
    tool: "WebSearch",
    request: "gitlab k8s runners [REDACTED:github_token]",
    databases: [
      { name: "gitlab", mcpTool: "mcp__leann__leann_search" },
      { name: "kubernetes", mcpTool: "mcp__docs__search" },
    ],
  });
  assertEquals(denied.observation, {
    event: "PreToolUse",
    tool: "WebSearch",
    toolUseId: "toolu_web",
    summary: "gitlab k8s runners [REDACTED:github_token]\n→ gitlab, kubernetes",
    outcome: "denied",
  });
  assertEquals([denied.escapedKey, denied.calledTool], [undefined, undefined]);

  const url = "https://docs.gitlab.com/ee/ci/";
  const fetch = record(preWeb("WebFetch", { url }), {
    redirect: {
      request: { tool: "WebFetch", url, prompt: "p" },
      decision: { ...decision, matches: [decision.matches[0]], requestKey: "key-2" },
    },
  });
  assertEquals(fetch.denied?.request, url);
  assertEquals(fetch.denied?.tool, "WebFetch");
  assertEquals(fetch.observation?.summary, `${url}\n→ gitlab`);
});

Deno.test("eventRecord: an escape-hatch retry and an unmatched request", () => {
  const request: WebRequest = {
    tool: "WebSearch",
    query: "gitlab ci",
    allowedDomains: [],
    blockedDomains: [],
  };
  const escape: RedirectDecision = {
    action: "allow",
    why: "escape-hatch",
    matches: [{ database: gitlab, reason: { kind: "keyword", keyword: "gitlab" } }],
    requestKey: "key-1",
  };
  const escaped = record(preWeb("WebSearch", { query: "gitlab ci" }), {
    redirect: { request, decision: escape },
  });
  assertEquals([escaped.escapedKey, escaped.denied], ["key-1", undefined]);
  assertEquals([escaped.observation?.outcome, escaped.observation?.summary], [
    "escaped",
    "gitlab ci\n→ gitlab",
  ]);

  const unmatched = record(preWeb("WebSearch", { query: "rust lifetimes" }), {
    redirect: {
      request: { tool: "WebSearch", query: "rust lifetimes", allowedDomains: [], blockedDomains: [] },
      decision: { action: "allow", why: "no-match" },
    },
  });
  assertEquals([unmatched.escapedKey, unmatched.denied], [undefined, undefined]);
  assertEquals([unmatched.observation?.outcome, unmatched.observation?.summary], [
    "no-match",
    "rust lifetimes",
  ]);
});

Deno.test("eventRecord: capture disabled stores no observation, but the session and redirect are tracked", () => {
  const off = withCapture({ enabled: false });
  for (const event of [bash("git status", "clean"), lifecycle("SessionStart"), lifecycle("Stop")]) {
    assertEquals(record(event, { config: off }).observation, undefined, event.hookEventName);
  }
  const start = record(lifecycle("SessionStart", { source: "clear" }), { config: off });
  assertEquals([start.session.source, start.pruneBefore], ["clear", NOW - 30 * DAY]);
  assertEquals(
    record(post("mcp__leann__leann_search", { query: "q" }), { config: off }).calledTool,
    "mcp__leann__leann_search",
  );

  const request: WebRequest = { tool: "WebSearch", query: "gitlab", allowedDomains: [], blockedDomains: [] };
  const denied = record(preWeb("WebSearch", { query: "gitlab" }), {
    config: off,
    redirect: {
      request,
      decision: {
        action: "deny",
        matches: [{ database: gitlab, reason: { kind: "keyword", keyword: "gitlab" } }],
        requestKey: "k",
        output: "{}",
        answered: false,
      },
    },
  });
  assertEquals([denied.observation, denied.denied?.requestKey], [undefined, "k"]);
});

Deno.test("eventRecord: the captured events become observations, the others only touch the session", () => {
  const captured = [
    "SessionStart",
    "PostToolUse",
    "PostToolUseFailure",
    "Stop",
    "SubagentStop",
    "PreCompact",
    "SessionEnd",
  ];
  for (const name of [...captured, "PreToolUse", "UserPromptSubmit", "Notification"]) {
    // A file edit, never dropped as noise, for the events about a tool.
    const event = hookEvent({
      hook_event_name: name,
      tool_name: "Write",
      tool_input: { file_path: "/home/u/project/a.ts", content: "x" },
      error: "disk full",
    });
    const touched = record(event);
    assertEquals(touched.observation !== undefined, captured.includes(name), name);
    assertEquals(touched.session.sessionId, "abc123", name);
  }
});
