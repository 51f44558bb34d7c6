/**
 * `install` / `uninstall` as functions of their context: a temp HOME in its env, its own working directory,
 * executable and clock, and its output captured; no subprocess, and this process's environment untouched.
 */
import { deepStrictEqual as assertEquals, match, ok, throws } from "node:assert/strict";
import { install, uninstall } from "../lib/install/install_command.ts";
import { Problem, UsageError } from "../lib/errors.ts";
import { machine, tree } from "./command_context.ts";
import { NEXT_STEP } from "../lib/docs/built_in.ts";
import { backupsOf, CLAUDE_EVENTS, exists, listDir } from "./helpers.ts";

const USER_SETTINGS = {
  model: "opus",
  hooks: { Stop: [{ hooks: [{ type: "command", command: "notify-send" }] }] },
};
const USER_TEXT = JSON.stringify(USER_SETTINGS, null, 4) + "\n";
const STAMP = "20261121T101500Z";

const settingsOf = (home: string) => `${home}/.claude/settings.json`;
const configOf = (home: string) => `${home}/.claude/hooks/docsearch-config.json`;
const readJson = async (path: string) => JSON.parse(await Deno.readTextFile(path));

/** The commands registered in a settings file, by event. */
async function commandsIn(path: string): Promise<Record<string, string[]>> {
  const hooks = (await readJson(path)).hooks as Record<string, { hooks: { command: string }[] }[]>;
  return Object.fromEntries(
    Object.entries(hooks).map((
      [event, groups],
    ) => [event, groups.flatMap((g) => g.hooks.map((h) => h.command))]),
  );
}

Deno.test("install then uninstall in process: the user's settings come back, each backup named by the context's clock", async () => {
  await using m = await machine();
  await Deno.mkdir(`${m.home}/.claude`);
  await Deno.writeTextFile(settingsOf(m.home), USER_TEXT);

  const installing = m.context();
  assertEquals(install({ values: {} }, installing), 0);
  const installed = installing.out.join("\n");
  match(installed, /^Registered docsearch-hook for Claude Code in .* \(9 events, command: /);
  ok(installed.includes(`kept as ${settingsOf(m.home)}.bak-${STAMP}.`), installed);
  ok(
    installed.includes(
      `Created ${configOf(m.home)} with no databases yet: every web search passes until you add one.\n` +
        `Next: ${NEXT_STEP}.`,
    ),
    installed,
  );
  assertEquals(await readJson(configOf(m.home)), { escape_hatch_ttl_seconds: 300, databases: [] });
  const registered = await commandsIn(settingsOf(m.home));
  assertEquals(Object.keys(registered).sort(), [...CLAUDE_EVENTS].sort());
  ok(registered.Stop.includes("notify-send"), JSON.stringify(registered.Stop));
  assertEquals(await listDir(`${m.home}/.claude/commands/docsearch`), [
    "disable.md",
    "enable.md",
    "status.md",
  ]);

  const removing = m.context();
  assertEquals(uninstall({ values: {} }, removing), 0);
  const removed = removing.out.join("\n");
  // Its handlers: one per event, but PreToolUse's 8 (the web tools', and one per fetcher under Bash).
  match(removed, /^Removed 16 docsearch-hook entries from /);
  ok(removed.includes(`Kept your config (${configOf(m.home)}) and the recorded state (${m.state})`), removed);
  assertEquals(await readJson(settingsOf(m.home)), USER_SETTINGS);
  assertEquals(await exists(`${m.home}/.claude/commands/docsearch`), false);
  // The same second twice: the second backup gets a suffix, never the first one's name.
  const backups = await backupsOf(settingsOf(m.home));
  assertEquals(backups, [`${settingsOf(m.home)}.bak-${STAMP}`, `${settingsOf(m.home)}.bak-${STAMP}-2`]);
  assertEquals(await Deno.readTextFile(backups[0]), USER_TEXT);
});

Deno.test("install --dry-run in process prints the plan and writes nothing", async () => {
  await using m = await machine();
  const before = await tree(m.home);
  const ctx = m.context();
  assertEquals(install({ values: { "dry-run": true } }, ctx), 0);
  const [plan] = ctx.out;
  match(plan, /^Would register docsearch-hook for Claude Code \(9 events\) in /);
  ok(plan.includes(`+++ ${settingsOf(m.home)}`), plan);
  ok(plan.includes(`Would create ${configOf(m.home)} with no databases yet.`), plan);
  ok(plan.includes(`Would write ${m.home}/.claude/commands/docsearch/status.md:`), plan);
  assertEquals(await tree(m.home), before);
});

Deno.test("install in process registers what the context runs: its executable, or DOCSEARCH_HOOK_SELF from its directory", async () => {
  await using m = await machine();
  const binary = { ...m.context(), execPath: "/opt/docsearch/docsearch-hook" };
  assertEquals(install({ values: {} }, binary), 0);
  const commands = new Set(Object.values(await commandsIn(settingsOf(m.home))).flat());
  assertEquals(commands, new Set(["/opt/docsearch/docsearch-hook hook"]));

  const launcher = m.context({ DOCSEARCH_HOOK_SELF: "bin/docsearch-hook" });
  assertEquals(install({ values: { "dry-run": true } }, launcher), 0);
  ok(launcher.out[0].includes(`"command": "${m.project}/bin/docsearch-hook hook"`), launcher.out[0]);
});

Deno.test("install in process without HOME in the context: --settings is needed, and there is no config or slash-command folder", async () => {
  await using m = await machine();
  const ctx = m.context({ HOME: undefined });
  throws(() => install({ values: {} }, ctx), (error) => {
    ok(error instanceof Problem, String(error));
    assertEquals([error.message, error.hint], ["HOME is not set", "set HOME, or pass --settings PATH"]);
    return true;
  });
  throws(
    () => install({ values: { commands: true } }, ctx),
    (error) => error instanceof UsageError && /^--commands: HOME is not set/.test(error.message),
  );
  assertEquals(ctx.out, []);

  const path = `${m.home}/settings.json`;
  assertEquals(install({ values: { settings: path } }, ctx), 0);
  assertEquals(Object.keys(await commandsIn(path)).length, CLAUDE_EVENTS.length);
  assertEquals(await tree(m.home), ["project/", "settings.json"]);
  // A relative one is the context's folder's, not the process's.
  assertEquals(install({ values: { settings: "local.json" } }, { ...ctx, cwd: m.project }), 0);
  assertEquals(Object.keys(await commandsIn(`${m.project}/local.json`)).length, CLAUDE_EVENTS.length);
});

Deno.test("install --mcp, then uninstall, then uninstall --mcp in process: ~/.claude.json gets our server, a reminder, and loses it", async () => {
  await using m = await machine();
  const claudeJson = `${m.home}/.claude.json`;
  await Deno.writeTextFile(claudeJson, JSON.stringify({ numStartups: 3 }));
  const ctx = m.context();
  assertEquals(install({ values: { mcp: true } }, ctx), 0);
  const server = (await readJson(claudeJson)).mcpServers.docsearch;
  assertEquals([server.type, server.command, server.args.at(-1)], ["stdio", Deno.execPath(), "mcp"]);
  ok(ctx.out[0].includes(`${claudeJson}.bak-${STAMP}`), ctx.out[0]);

  const reminded = m.context();
  assertEquals(uninstall({ values: {} }, reminded), 0);
  ok(
    reminded.out[0].includes(`still registered in ${claudeJson}: uninstall --mcp removes it too.`),
    reminded.out[0],
  );
  ok((await readJson(claudeJson)).mcpServers.docsearch, "the reminder removes nothing");

  const removing = m.context();
  assertEquals(uninstall({ values: { mcp: true } }, removing), 0);
  ok(removing.out[0].includes(`Removed the MCP server "docsearch" from ${claudeJson}.`), removing.out[0]);
  assertEquals(await readJson(claudeJson), { numStartups: 3 });
});
