/**
 * Gemini CLI's and Qwen Code's events read in Claude Code's shape, and the hook's answers written back in
 * theirs (lib/protocol/agents.ts), from payloads shaped as each agent's hooks reference documents them
 * (fixtures/events/gemini/, fixtures/events/qwen/).
 */
import { deepStrictEqual as assertEquals, match, ok } from "node:assert/strict";
import { agentOf, eventRecord } from "../lib/capture/record.ts";
import { createRedactor } from "../lib/capture/redact.ts";
import { type HookDeps, hookOutput, NO_AIDS } from "../lib/hook/hook.ts";
import { builtInToolName, isBuiltInTool } from "../lib/docs/built_in.ts";
import { agentMatcher, agentOutput, DIALECTS, promptUrls } from "../lib/protocol/agents.ts";
import { type HookEvent, parseHookEvent } from "../lib/protocol/event.ts";
import { registrationsFor } from "../lib/protocol/events.ts";
import { contextOutput, denyOutput } from "../lib/protocol/output.ts";
import { webRequestFrom } from "../lib/redirect/request.ts";
import { CLAUDE_ENTRIES, CLAUDE_EVENTS, config, event, readFixture, withDir } from "./helpers.ts";

function parsed(text: string): HookEvent {
  const result = parseHookEvent(text);
  if (!result.ok) throw new Error(result.problem);
  return result.event;
}

const gemini = (name: string, overrides: Record<string, unknown> = {}) =>
  parsed(event(`gemini/${name}.json`, overrides));
const qwen = (name: string, overrides: Record<string, unknown> = {}) =>
  parsed(event(`qwen/${name}.json`, overrides));

/** What the hook acts on: the agent, the event, the tool and its input. */
const seen = ({ agent, hookEventName, toolName, toolInput }: HookEvent) => ({
  agent,
  hookEventName,
  toolName,
  toolInput,
});

// ---- Gemini CLI's events ---------------------------------------------------------------------------------

Deno.test("Gemini CLI: a BeforeTool google_web_search is a PreToolUse WebSearch, and a web request", () => {
  const search = gemini("BeforeTool.google_web_search");
  assertEquals(seen(search), {
    agent: "gemini",
    hookEventName: "PreToolUse",
    toolName: "WebSearch",
    toolInput: { query: "how to configure gitlab ci runners" },
  });
  assertEquals(search.sessionId, "8e1f6a52-3c1d-4b7e-9f0a-2d4c6e8b1a37");
  assertEquals(search.cwd, "/Users/user/my-project");
  assertEquals(webRequestFrom(search.toolName, search.toolInput), {
    tool: "WebSearch",
    query: "how to configure gitlab ci runners",
    allowedDomains: [],
    blockedDomains: [],
  });
});

Deno.test("Gemini CLI: a web_fetch prompt is judged by its first URL; the rest of it is what to read there", () => {
  const fetch = gemini("BeforeTool.web_fetch");
  assertEquals(seen(fetch), {
    agent: "gemini",
    hookEventName: "PreToolUse",
    toolName: "WebFetch",
    toolInput: {
      url: "https://docs.gitlab.com/runner/configuration/advanced-configuration/",
      prompt: "Summarize the runner settings in and compare them with",
    },
  });
  // The experimental direct mode names its URL.
  const direct = gemini("BeforeTool.web_fetch", {
    tool_input: { url: "https://kubernetes.io/docs/concepts/", prompt: "see https://example.com/" },
  });
  assertEquals(direct.toolInput?.url, "https://kubernetes.io/docs/concepts/");
  // A prompt without a URL fetches nothing: no web request, the hook allows.
  const none = gemini("BeforeTool.web_fetch", { tool_input: { prompt: "read the gitlab docs" } });
  assertEquals(webRequestFrom(none.toolName, none.toolInput), undefined);
});

Deno.test("promptUrls: the words Gemini CLI fetches, as it parses them", () => {
  assertEquals(
    promptUrls("a https://Docs.GitLab.com/x?y=1 and http://a.b/c, ftp://f/x https://[bad x https:nothing"),
    ["https://docs.gitlab.com/x?y=1", "http://a.b/c,"],
  );
  assertEquals(promptUrls(""), []);
});

Deno.test("Gemini CLI: run_shell_command is Bash with its command", () => {
  assertEquals(seen(gemini("BeforeTool.run_shell_command")), {
    agent: "gemini",
    hookEventName: "PreToolUse",
    toolName: "Bash",
    toolInput: { command: "git status", description: "Show the working tree status" },
  });
});

Deno.test("Gemini CLI: an AfterTool is a PostToolUse whose output is the text the model got", () => {
  const shell = gemini("AfterTool.run_shell_command");
  assertEquals([shell.agent, shell.hookEventName, shell.toolName], ["gemini", "PostToolUse", "Bash"]);
  match((shell.raw.tool_response as { output: string }).output, /^Command: npm test\n.*12 passing/s);
  // A failed tool is a PostToolUseFailure with the error's message.
  const failed = gemini("AfterTool.write_file.error");
  assertEquals([failed.hookEventName, failed.toolName], ["PostToolUseFailure", "Write"]);
  assertEquals(failed.raw.error, "EACCES: permission denied, open '/Users/user/my-project/src/config.ts'");
  // An MCP tool goes by the server and tool its mcp_context names, as Claude Code would name it.
  const mcp = gemini("AfterTool.mcp_docsearch_search");
  assertEquals(mcp.toolName, "mcp__docsearch__search");
  // What the model called it, which a redirect's guidance named: how a followed redirect is told.
  assertEquals(mcp.calledAs, "mcp_docsearch_search");
  // Its llmContent is parts, not text: the display text stands in.
  assertEquals(mcp.raw.tool_response, { output: "1. Advanced configuration › [runners] (gitlab)" });
});

Deno.test("Gemini CLI: its lifecycle events go by Claude Code's names, their fields as they are", () => {
  const prompt = gemini("BeforeAgent");
  assertEquals([prompt.agent, prompt.hookEventName], ["gemini", "UserPromptSubmit"]);
  assertEquals(prompt.raw.prompt, "Why does my GitLab CI cache miss between jobs?");
  // Headless, the first prompt comes after the SessionStart context; the prompt is what the user wrote.
  assertEquals(gemini("BeforeAgent.headless").raw.prompt, "Why does my GitLab CI cache miss between jobs?");
  const inside = "a <hook_context>x</hook_context> b";
  assertEquals(gemini("BeforeAgent", { prompt: inside }).raw.prompt, inside);
  const stop = gemini("AfterAgent");
  assertEquals([stop.hookEventName, stop.raw.stop_hook_active], ["Stop", false]);
  assertEquals(gemini("PreCompress").hookEventName, "PreCompact");
  // Shared names and shapes: the event does not tell the agent; the variables it sets do (runningAgent).
  for (const name of ["SessionStart", "SessionEnd"]) {
    const lifecycle = gemini(name);
    assertEquals([lifecycle.agent, lifecycle.hookEventName], [undefined, name]);
    assertEquals(lifecycle.raw, JSON.parse(readFixture(`events/gemini/${name}.json`)));
  }
});

// ---- Qwen Code's events ----------------------------------------------------------------------------------

Deno.test("Qwen Code: Claude Code's events with its own tool names", () => {
  assertEquals(seen(qwen("PreToolUse.web_search")), {
    agent: "qwen",
    hookEventName: "PreToolUse",
    toolName: "WebSearch",
    toolInput: { query: "how to configure gitlab ci runners" },
  });
  const fetch = qwen("PreToolUse.web_fetch");
  assertEquals(webRequestFrom(fetch.toolName, fetch.toolInput), {
    tool: "WebFetch",
    url: "https://docs.gitlab.com/runner/configuration/advanced-configuration/",
    prompt: "What does the concurrent setting do?",
  });
  assertEquals(fetch.toolUseId, "toolu_01QWF3TCH");
  assertEquals([qwen("PostToolUse.run_shell_command").toolName], ["Bash"]);
  const failed = qwen("PostToolUseFailure.run_shell_command");
  assertEquals([failed.hookEventName, failed.toolName, failed.raw.error], [
    "PostToolUseFailure",
    "Bash",
    "Command exited with code 2",
  ]);
});

Deno.test("Qwen Code: a prompt is what the user typed where Qwen Code knows it", () => {
  const prompt = qwen("UserPromptSubmit");
  assertEquals([prompt.agent, prompt.raw.prompt], ["qwen", "Why does my GitLab CI cache miss between jobs?"]);
  const without = qwen("UserPromptSubmit", { submitted_prompt: undefined });
  assertEquals([without.agent, without.raw.prompt], [
    undefined,
    JSON.parse(event("qwen/UserPromptSubmit.json")).prompt,
  ]);
});

Deno.test("Claude Code's events come through untouched, the same object", () => {
  for (
    const name of ["PreToolUse.WebSearch", "PreToolUse.WebFetch", "PostToolUse.Write", "SessionStart", "Stop"]
  ) {
    const raw = JSON.parse(readFixture(`events/${name}.json`));
    const result = parseHookEvent("{}", { value: raw });
    ok(result.ok, name);
    assertEquals(result.event.agent, undefined, name);
    ok(result.event.raw === raw, name);
  }
});

Deno.test("the session is recorded under the agent its events tell, else the one its hook variables tell", () => {
  // Gemini CLI and Qwen Code set Claude Code's variable too, for hooks written for it.
  const vars: Record<string, string> = { CLAUDE_PROJECT_DIR: "/p", GEMINI_PROJECT_DIR: "/p" };
  const recorded = (event: HookEvent, env = vars) =>
    eventRecord({
      event,
      config: config([]),
      redactor: createRedactor([], []),
      env: (name) => env[name],
      now: 0,
      hookMs: 1,
    }).session.agent;
  assertEquals(recorded(gemini("BeforeAgent"), {}), "gemini-cli");
  assertEquals(recorded(qwen("PreToolUse.web_search"), {}), "qwen-code");
  assertEquals(recorded(gemini("SessionStart")), "gemini-cli");
  assertEquals(recorded(qwen("SessionStart"), { ...vars, QWEN_PROJECT_DIR: "/p" }), "qwen-code");
  assertEquals(
    agentOf((name) => ({ CLAUDE_PROJECT_DIR: "/p" } as Record<string, string>)[name]),
    "claude-code",
  );
  const called = eventRecord({
    event: gemini("AfterTool.mcp_docsearch_search"),
    config: config([]),
    redactor: createRedactor([], []),
    env: () => undefined,
    now: 0,
    hookMs: 1,
  }).calledTool;
  assertEquals(called, "mcp_docsearch_search");
});

// ---- answers ---------------------------------------------------------------------------------------------

Deno.test("agentOutput: Gemini CLI gets a denial as decision and reason, the reason carrying the guidance", () => {
  const deny = { stdout: denyOutput("Search it instead: mcp_docsearch_search", "summary"), stderr: "note" };
  assertEquals(agentOutput("gemini", deny), {
    stdout: JSON.stringify({ decision: "deny", reason: "Search it instead: mcp_docsearch_search" }),
    stderr: "note",
  });
  for (const [event, theirs] of [["UserPromptSubmit", "BeforeAgent"], ["SessionStart", "SessionStart"]]) {
    assertEquals(JSON.parse(agentOutput("gemini", { stdout: contextOutput(event, "local docs") }).stdout!), {
      hookSpecificOutput: { hookEventName: theirs, additionalContext: "local docs" },
    });
  }
  // Silence stays silence; the agents that read Claude Code's shape get it as it is.
  assertEquals(agentOutput("gemini", { stderr: "x" }), { stderr: "x" });
  for (const agent of ["qwen", "claude", "ripperdoc", undefined] as const) {
    ok(agentOutput(agent, deny) === deny, String(agent));
  }
});

// ---- registrations -------------------------------------------------------------------------------------

Deno.test("registrationsFor: Gemini CLI's events, tool names and milliseconds, nothing in the background", () => {
  const entries = registrationsFor("gemini").map((r) => [r.entry.event, r.entry.timeout, r.async]);
  assertEquals(entries, [
    ["BeforeTool", 10_000, false],
    ["BeforeAgent", 10_000, false],
    ["SessionStart", 10_000, false],
    ["AfterTool", 30_000, false],
    ["AfterAgent", 10_000, false],
    ["SessionEnd", 1_000, false],
  ]);
  const matchers = Object.fromEntries(
    registrationsFor("gemini").map((r) => [r.entry.event, r.entry.matcher]),
  );
  const web = matchers.BeforeTool!.split("|");
  ok(web.includes("google_web_search") && web.includes("web_fetch"), matchers.BeforeTool);
  ok(!web.includes("WebSearch") && !web.includes("WebFetch"), matchers.BeforeTool);
  assertEquals(matchers.AfterTool, "*");
});

Deno.test("registrationsFor: Qwen Code's runtime tool ids, every event, milliseconds it reads the same in every version", () => {
  const registrations = registrationsFor("qwen");
  assertEquals(registrations.map((r) => r.entry.event), CLAUDE_EVENTS);
  for (const r of registrations) {
    assertEquals(r.entry.timeout, CLAUDE_ENTRIES[r.event].timeout * 1000, r.event);
    // Its newer versions read seconds, except for 1000 and more, which keep meaning milliseconds.
    ok(r.entry.timeout >= 1000, r.event);
  }
  assertEquals(
    registrations.filter((r) => r.async).map((r) => r.event),
    CLAUDE_EVENTS.filter((event) => CLAUDE_ENTRIES[event].async),
  );
  const web = registrations.find((r) => r.event === "PreToolUse")!.entry.matcher!.split("|");
  ok(web.includes("web_search") && web.includes("web_fetch"), web.join("|"));
});

Deno.test("agentMatcher: tool names and MCP patterns in the agent's naming, one alternative at a time", () => {
  const matcher = "WebSearch|WebFetch|Bash|^mcp__.*__fetch$|Custom";
  assertEquals(
    agentMatcher("gemini", matcher),
    "google_web_search|web_fetch|run_shell_command|^mcp_.*_fetch$|Custom",
  );
  assertEquals(
    agentMatcher("qwen", matcher),
    "web_search|web_fetch|run_shell_command|^mcp__.*__fetch$|Custom",
  );
  assertEquals(agentMatcher("claude", matcher), matcher);
  assertEquals(agentMatcher("gemini", "*"), "*");
});

// ---- the built-in search's name ----------------------------------------------------------------------------

Deno.test("builtInToolName: the name each agent's model knows the built-in search by", () => {
  const env = () => undefined;
  assertEquals(builtInToolName(env, "gemini"), "mcp_docsearch_search");
  assertEquals(builtInToolName(env, "qwen"), "mcp__docsearch__search");
  assertEquals(builtInToolName(env), "mcp__docsearch__search");
  ok(isBuiltInTool("mcp_docsearch_search"));
  // Gemini CLI's names: only its function-name characters, at most 63, the middle cut out of a longer one.
  assertEquals(DIALECTS.gemini.mcpTool("my server", "a/b"), "mcp_my_server_a_b");
  const long = DIALECTS.gemini.mcpTool("s".repeat(40), "t".repeat(40));
  assertEquals([long.length, long.slice(0, 33), long.slice(-30)], [
    63,
    `mcp_${"s".repeat(26)}...`,
    "t".repeat(30),
  ]);
});

// ---- the hook, in process -----------------------------------------------------------------------------------

const BUILT_IN_CONFIG = {
  databases: [{
    name: "gitlab",
    keywords: ["gitlab"],
    mcp_tool_name: "mcp__docsearch__search",
    tool_args: { index: "gitlab" },
    description: "GitLab documentation",
  }],
};

function deps(vars: Record<string, string> = {}): HookDeps {
  return {
    changedLockfile: () => undefined,
    env: (name) => (name === "HOME" ? "/nowhere" : vars[name]),
    os: "linux",
    now: () => 1_000_000,
    elapsed: () => 5,
    registration: "test",
    redirectAids: () => Promise.resolve(NO_AIDS),
    indexExists: (name) => name === "gitlab",
    openState: () => Promise.reject(new Error("no state in this test")),
  };
}

Deno.test("hook: Gemini CLI's web search is denied in its shape, sent to the built-in search by its Gemini name", async () => {
  await withDir(async (dir) => {
    const config = `${dir}/config.json`;
    await Deno.writeTextFile(config, JSON.stringify(BUILT_IN_CONFIG));
    const out = await hookOutput(
      { ok: true, text: event("gemini/BeforeTool.google_web_search.json") },
      config,
      deps(),
    );
    const answer = JSON.parse(out.stdout!);
    assertEquals(Object.keys(answer).sort(), ["decision", "reason"]);
    assertEquals(answer.decision, "deny");
    ok(
      answer.reason.includes(
        'mcp_docsearch_search {"index":"gitlab","query":"how to configure gitlab ci runners"}',
      ),
    );
    ok(!answer.reason.includes("mcp__docsearch__search"), answer.reason);
    // Context at the start of a turn, under Gemini CLI's name for the event.
    const prompt = await hookOutput({ ok: true, text: event("gemini/BeforeAgent.json") }, config, deps());
    const context = JSON.parse(prompt.stdout!).hookSpecificOutput;
    assertEquals(context.hookEventName, "BeforeAgent");
    match(context.additionalContext, /mcp_docsearch_search/);
    // SessionStart has Claude Code's shape: the variables Gemini CLI sets for its hooks name the agent.
    const start = await hookOutput(
      { ok: true, text: event("gemini/SessionStart.json") },
      config,
      deps({ GEMINI_PROJECT_DIR: "/p", CLAUDE_PROJECT_DIR: "/p" }),
    );
    const note = JSON.parse(start.stdout!).hookSpecificOutput.additionalContext;
    match(note, /mcp_docsearch_search/);
    ok(!note.includes("mcp__docsearch__search"), note);
    // Qwen Code reads Claude Code's shape, and names the built-in search as Claude Code does.
    const qwenOut = await hookOutput(
      { ok: true, text: event("qwen/PreToolUse.web_search.json") },
      config,
      deps(),
    );
    const denied = JSON.parse(qwenOut.stdout!).hookSpecificOutput;
    assertEquals(denied.permissionDecision, "deny");
    match(denied.permissionDecisionReason, /mcp__docsearch__search \{"index":"gitlab"/);
  });
});
