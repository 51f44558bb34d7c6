/**
 * Gemini CLI and Qwen Code end to end: the real hook process fed their events, answering in their shape, and
 * install / doctor / uninstall in a temp HOME, each checked on exit code, stdout and stderr apart.
 */
import { deepStrictEqual as assertEquals, match, ok } from "node:assert/strict";
import {
  builtIndex,
  event,
  newCall,
  readFixture,
  runCli,
  RUNNERS_PAGE,
  type Sandbox,
  sandbox,
} from "../helpers.ts";

const EXAMPLE = readFixture("../config.example.json");

async function withUserConfig(box: Sandbox) {
  await Deno.mkdir(`${box.home}/.claude/hooks`, { recursive: true });
  await Deno.writeTextFile(`${box.home}/.claude/hooks/docsearch-config.json`, EXAMPLE);
}

const hook = (box: Sandbox, stdin: string) => runCli(["hook"], { env: box.env, stdin });

/** Gemini CLI's denial: exactly a decision and the reason it sends the model. */
function geminiDenial(result: { code: number; stdout: string; stderr: string }): string {
  assertEquals([result.code, result.stderr], [0, ""]);
  const answer = JSON.parse(result.stdout);
  assertEquals(Object.keys(answer).sort(), ["decision", "reason"]);
  assertEquals(answer.decision, "deny");
  return answer.reason;
}

const allowed = (result: { code: number; stdout: string; stderr: string }) =>
  assertEquals(result, { code: 0, stdout: "", stderr: "" });

Deno.test("Gemini CLI: a covered google_web_search is denied in Gemini CLI's shape; the identical retry passes", async () => {
  await using box = await sandbox();
  await withUserConfig(box);
  const search = event("gemini/BeforeTool.google_web_search.json");
  const reason = geminiDenial(await hook(box, search));
  match(reason, /"gitlab" matches the "gitlab" docs/);
  ok(
    reason.includes(
      'mcp__leann__leann_search {"index_name":"gitlab","query":"how to configure gitlab ci runners"}',
    ),
  );
  match(reason, /repeat this identical google_web_search \(same query and domains\)/);
  allowed(await hook(box, search));
  geminiDenial(await hook(box, search));
  // Another session's retry is its own first request.
  const other = event("gemini/BeforeTool.google_web_search.json", { session_id: "another-session" });
  geminiDenial(await hook(box, other));
});

Deno.test("Gemini CLI: a web_fetch whose first URL is covered docs is denied; its retry passes; other tools pass", async () => {
  await using box = await sandbox();
  await withUserConfig(box);
  const fetch = event("gemini/BeforeTool.web_fetch.json");
  const reason = geminiDenial(await hook(box, fetch));
  ok(reason.includes("https://docs.gitlab.com/runner/configuration/advanced-configuration/"), reason);
  allowed(await hook(box, fetch));
  // The covered page second: the prompt is judged by its first URL.
  allowed(
    await hook(
      box,
      event("gemini/BeforeTool.web_fetch.json", {
        tool_input: { prompt: "compare https://example.com/a with https://docs.gitlab.com/ci/" },
      }),
    ),
  );
  allowed(await hook(box, event("gemini/BeforeTool.run_shell_command.json")));
});

Deno.test("Gemini CLI: a prompt mentioning a database gets its hint as BeforeAgent context; capture events print nothing", async () => {
  await using box = await sandbox();
  await withUserConfig(box);
  const prompt = await hook(box, event("gemini/BeforeAgent.json"));
  assertEquals([prompt.code, prompt.stderr], [0, ""]);
  const context = JSON.parse(prompt.stdout).hookSpecificOutput;
  assertEquals(context.hookEventName, "BeforeAgent");
  match(context.additionalContext, /"gitlab" is covered by the local "gitlab" docs/);
  // Headless, Gemini CLI puts the session's note in front of the first prompt: the hint is about the prompt.
  const headless = await hook(box, event("gemini/BeforeAgent.headless.json"));
  assertEquals(JSON.parse(headless.stdout).hookSpecificOutput.additionalContext, context.additionalContext);
  for (
    const name of ["AfterTool.run_shell_command", "AfterTool.write_file.error", "AfterAgent", "PreCompress"]
  ) {
    allowed(await hook(box, event(`gemini/${name}.json`)));
  }
});

Deno.test("Gemini CLI: sent to the built-in search by its Gemini name, calling it counts as following the redirect", async () => {
  await using box = await sandbox();
  await Deno.mkdir(`${box.home}/.claude/hooks`, { recursive: true });
  await Deno.writeTextFile(
    `${box.home}/.claude/hooks/docsearch-config.json`,
    JSON.stringify({
      databases: [{
        keywords: ["gitlab"],
        mcp_tool_name: "mcp__docsearch__search",
        tool_args: { index: "gitlab" },
      }],
    }),
  );
  // The index the entry sends the agent to, whose page answers the search: quoted, and named for more.
  await builtIndex(box, "gitlab", RUNNERS_PAGE);
  const reason = geminiDenial(await hook(box, event("gemini/BeforeTool.google_web_search.json")));
  match(reason, /<docs source="[^"]*runners\.md">\nConfigure GitLab CI runners\nTo configure a runner, edit/);
  ok(
    reason.includes('mcp_docsearch_search {"index":"gitlab","query":"how to configure gitlab ci runners"}'),
    reason,
  );
  allowed(await hook(box, event("gemini/AfterTool.mcp_docsearch_search.json")));
  const stats = await runCli(["stats", "--json"], { env: box.env });
  assertEquals(stats.code, 0, stats.stderr);
  const { redirects, sessions } = JSON.parse(stats.stdout);
  assertEquals([redirects.denied, redirects.followed], [1, 1]);
  assertEquals(sessions.byAgent, { "gemini-cli": 1 });
});

Deno.test("Qwen Code: a covered web_search is denied in Claude Code's shape, which Qwen Code reads; the retry passes", async () => {
  await using box = await sandbox();
  await withUserConfig(box);
  const search = event("qwen/PreToolUse.web_search.json");
  const denied = await hook(box, search);
  assertEquals([denied.code, denied.stderr], [0, ""]);
  const answer = JSON.parse(denied.stdout).hookSpecificOutput;
  assertEquals([answer.hookEventName, answer.permissionDecision], ["PreToolUse", "deny"]);
  match(answer.permissionDecisionReason, /mcp__leann__leann_search/);
  allowed(await hook(box, newCall(search)));
});

// ---- install, doctor, uninstall ----------------------------------------------------------------------------

/** A Gemini CLI user's settings: not only hooks. */
const GEMINI_TEXT = JSON.stringify(
  { general: { vimMode: true }, mcpServers: { leann: { command: "leann_mcp" } }, ui: { theme: "GitHub" } },
  null,
  2,
) + "\n";

Deno.test("install --agent gemini: Gemini CLI's events in ~/.gemini/settings.json, doctor sees them, uninstall restores the file", async () => {
  await using box = await sandbox();
  await Deno.mkdir(`${box.home}/.gemini`);
  const path = `${box.home}/.gemini/settings.json`;
  await Deno.writeTextFile(path, GEMINI_TEXT);
  const cli = (args: string[]) => runCli(args, { env: box.env, cwd: box.home });

  const installed = await cli(["install", "--agent", "gemini", "--mcp"]);
  assertEquals([installed.code, installed.stderr], [0, ""], installed.stdout);
  match(
    installed.stdout,
    /Registered docsearch-hook for Gemini CLI in .*\.gemini\/settings\.json \(6 events/,
  );
  const settings = JSON.parse(await Deno.readTextFile(path));
  assertEquals(Object.keys(settings.hooks), [
    "BeforeTool",
    "BeforeAgent",
    "SessionStart",
    "AfterTool",
    "AfterAgent",
    "SessionEnd",
  ]);
  assertEquals(settings.hooks.BeforeTool[0].hooks[0].timeout, 10_000);
  assertEquals([settings.general, settings.ui], [{ vimMode: true }, { theme: "GitHub" }]);
  assertEquals(Object.keys(settings.mcpServers), ["leann", "docsearch"]);
  ok(await Deno.stat(`${box.home}/.gemini/commands/docsearch/disable.toml`));

  // A database of the built-in search: its server is the one install put in Gemini CLI's settings.
  await Deno.writeTextFile(
    `${box.home}/.claude/hooks/docsearch-config.json`,
    JSON.stringify({
      databases: [{
        keywords: ["gitlab"],
        mcp_tool_name: "mcp__docsearch__search",
        tool_args: { index: "gitlab" },
      }],
    }),
  );
  const doctor = await cli(["doctor"]);
  assertEquals(doctor.stderr, "");
  match(
    doctor.stdout,
    /^✓ Gemini CLI, user scope: registered for all 6 events, running this docsearch-hook/m,
  );
  match(
    doctor.stdout,
    /^✓ MCP tool mcp__docsearch__search: server "docsearch" is configured in .*\.gemini\/settings\.json/m,
  );
  ok(!/not registered/.test(doctor.stdout), doctor.stdout);

  const removed = await cli(["uninstall", "--agent", "gemini", "--mcp"]);
  assertEquals([removed.code, removed.stderr], [0, ""], removed.stdout);
  match(removed.stdout, /Removed 6 docsearch-hook entries from /);
  assertEquals(await Deno.readTextFile(path), GEMINI_TEXT);
});

Deno.test("install --agent qwen --scope project: the project's .qwen/settings.json and commands; doctor sees 9 events", async () => {
  await using box = await sandbox();
  const project = `${await Deno.realPath(box.home)}/project`;
  await Deno.mkdir(project);
  const cli = (args: string[]) => runCli(args, { env: box.env, cwd: project });

  const installed = await cli(["install", "--agent", "qwen", "--scope", "project"]);
  assertEquals([installed.code, installed.stderr], [0, ""], installed.stdout);
  const settings = JSON.parse(await Deno.readTextFile(`${project}/.qwen/settings.json`));
  assertEquals(settings.hooks.PostToolUse[0].hooks[0].async, true);
  match(settings.hooks.PreToolUse[0].matcher, /^web_search\|web_fetch/);
  ok(await Deno.stat(`${project}/.qwen/commands/docsearch/status.md`));

  const doctor = await cli(["doctor"]);
  match(doctor.stdout, /^✓ Qwen Code, project scope: registered for all 9 events/m);

  const usage = await cli(["install", "--agent", "gemini", "--scope", "local"]);
  assertEquals([usage.code, usage.stdout], [2, ""]);
  match(usage.stderr, /Gemini CLI has no local settings file/);
});
