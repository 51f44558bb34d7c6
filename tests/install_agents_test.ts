/**
 * install / uninstall for Gemini CLI and Qwen Code: where their files are, the merge into a settings file that
 * holds much more than hooks (and, for them, the MCP server too), comments, and the slash commands; as pure
 * functions and in process on a temp machine.
 */
import { deepStrictEqual as assertEquals, match, ok, throws } from "node:assert/strict";
import { parse as parseToml } from "smol-toml";
import { install, uninstall } from "../lib/install/install_command.ts";
import { UsageError } from "../lib/errors.ts";
import { mcpConfigPath, serverEntry, withMcpServer } from "../lib/install/mcp.ts";
import {
  parseSettings,
  registrationsIn,
  type Settings,
  SettingsError,
  settingsPath,
  withoutComments,
  withoutRegistration,
  withRegistration,
} from "../lib/install/settings.ts";
import { agentSlashCommandFiles, isOurFile } from "../lib/install/slash_commands.ts";
import type { Env } from "../lib/paths.ts";
import { type Machine, machine, tree } from "./command_context.ts";
import { keptInOrder, onlyCommasTakenOut } from "./kept_lines.ts";
import { backupsOf, CLAUDE_EVENTS, listDir } from "./helpers.ts";

const envOf = (vars: Record<string, string>): Env => (name) => vars[name];
const COMMAND = "/home/me/.local/bin/docsearch-hook hook";

/** A Gemini CLI settings file as people have them: much more than hooks, a hook of their own, an MCP server. */
const USER_TEXT = JSON.stringify(
  {
    general: { vimMode: true, preferredEditor: "vim" },
    model: { name: "gemini-2.5-pro" },
    mcpServers: { leann: { command: "leann_mcp" } },
    hooksConfig: { enabled: true, notifications: false },
    hooks: {
      // Older versions keep the hooks system's own settings here, beside the event lists.
      enabled: true,
      disabled: ["secret-scanner"],
      BeforeTool: [{
        matcher: "write_file|replace",
        hooks: [{
          name: "secret-scanner",
          type: "command",
          command: "$GEMINI_PROJECT_DIR/.gemini/hooks/scan.sh",
        }],
      }],
    },
  },
  null,
  2,
) + "\n";
const GEMINI_SETTINGS: Settings = parseSettings(USER_TEXT, "/home/me/.gemini/settings.json", true);

// ---- where ---------------------------------------------------------------------------------------------------

Deno.test("settingsPath: Gemini CLI's user and project settings.json (under GEMINI_CLI_HOME when set), no local", () => {
  const env = envOf({ HOME: "/home/me" });
  assertEquals(settingsPath("gemini", "user", env, "linux", "/p"), "/home/me/.gemini/settings.json");
  assertEquals(settingsPath("gemini", "project", env, "linux", "/p"), "/p/.gemini/settings.json");
  assertEquals(settingsPath("gemini", "local", env, "linux", "/p"), undefined);
  assertEquals(
    settingsPath(
      "gemini",
      "user",
      envOf({ HOME: "/home/me", GEMINI_CLI_HOME: "/profiles/work" }),
      "linux",
      "/p",
    ),
    "/profiles/work/.gemini/settings.json",
  );
  assertEquals(
    settingsPath("gemini", "user", envOf({ USERPROFILE: "C:\\Users\\me" }), "windows", "D:\\p"),
    "C:\\Users\\me\\.gemini\\settings.json",
  );
});

Deno.test("settingsPath: Qwen Code's user and project settings, no local", () => {
  const env = envOf({ HOME: "/home/me", GEMINI_CLI_HOME: "/elsewhere" });
  assertEquals(settingsPath("qwen", "user", env, "linux", "/p"), "/home/me/.qwen/settings.json");
  assertEquals(settingsPath("qwen", "project", env, "linux", "/p"), "/p/.qwen/settings.json");
  assertEquals(settingsPath("qwen", "local", env, "linux", "/p"), undefined);
});

Deno.test("mcpConfigPath and serverEntry: Gemini CLI and Qwen Code keep servers in their user settings, as command and args", () => {
  const env = envOf({ HOME: "/home/me" });
  assertEquals(mcpConfigPath("gemini", env, "linux"), "/home/me/.gemini/settings.json");
  assertEquals(mcpConfigPath("qwen", env, "linux"), "/home/me/.qwen/settings.json");
  for (const agent of ["gemini", "qwen"] as const) {
    assertEquals(serverEntry(["/bin/docsearch-hook"], agent), {
      command: "/bin/docsearch-hook",
      args: ["mcp"],
    });
  }
  assertEquals(serverEntry(["/bin/docsearch-hook"], "claude").type, "stdio");
});

// ---- the merge ---------------------------------------------------------------------------------------------

Deno.test("withRegistration: Gemini CLI's 6 events beside everything else in its settings, which come back on removal", () => {
  const merge = withRegistration(GEMINI_SETTINGS, COMMAND, "gemini");
  assertEquals(merge.changed, true);
  const hooks = merge.settings.hooks as Record<string, unknown>;
  // Its own keys and the user's hook stay where they were; ours follow.
  assertEquals(Object.keys(hooks), [
    "enabled",
    "disabled",
    "BeforeTool",
    "BeforeAgent",
    "SessionStart",
    "AfterTool",
    "AfterAgent",
    "SessionEnd",
  ]);
  const { hooks: _, ...rest } = merge.settings;
  const { hooks: __, ...before } = GEMINI_SETTINGS;
  assertEquals(rest, before);
  const found = registrationsIn(merge.settings);
  assertEquals(
    found.map((entry) => [entry.event, entry.timeout, entry.async]),
    [
      ["BeforeTool", 10_000, undefined],
      ["BeforeAgent", 10_000, undefined],
      ["SessionStart", 10_000, undefined],
      ["AfterTool", 30_000, undefined],
      ["AfterAgent", 10_000, undefined],
      ["SessionEnd", 1_000, undefined],
    ],
  );
  const web = found.find((entry) => entry.event === "BeforeTool")!;
  match(web.matcher!, /(^|\|)google_web_search(\||$)/);
  // The user's BeforeTool group is theirs, untouched and first.
  assertEquals(merge.settings.hooks!.BeforeTool[0], GEMINI_SETTINGS.hooks!.BeforeTool[0]);
  assertEquals(withRegistration(merge.settings, COMMAND, "gemini").changed, false);
  const removed = withoutRegistration(merge.settings);
  assertEquals([removed.removed, removed.settings], [6, GEMINI_SETTINGS]);
});

Deno.test("withRegistration: Qwen Code gets Claude Code's events with its tool names, timeouts in ms and async capture", () => {
  const found = registrationsIn(withRegistration({}, COMMAND, "qwen").settings);
  assertEquals(found.map((entry) => entry.event), CLAUDE_EVENTS);
  const byEvent = Object.fromEntries(found.map((entry) => [entry.event, entry]));
  assertEquals([byEvent.PostToolUse.async, byEvent.PostToolUse.timeout], [true, 30_000]);
  assertEquals([byEvent.Stop.async, byEvent.SessionEnd.timeout], [undefined, 1_000]);
  match(byEvent.PreToolUse.matcher!, /^web_search\|web_fetch(\||$)/);
});

Deno.test("withRegistration: Ripperdoc, Gemini CLI and Qwen Code, which run every handler whatever its `if`, get one PreToolUse entry, Bash in it", () => {
  // In each agent's names, pinned: the MCP patterns as Gemini CLI writes an MCP tool's name (one `_`).
  const mcp = (sep: string) =>
    ["fetch", "fetch_html", "fetch_markdown", "fetch_txt", "browser_navigate", "puppeteer_navigate"]
      .concat(["navigate_page", "new_page", "firecrawl_scrape"])
      .map((tool) => `^mcp${sep}.*${sep}${tool}$`).join("|");
  const expected = {
    ripperdoc: ["PreToolUse", `WebSearch|WebFetch|Bash|${mcp("__")}`, 10],
    gemini: ["BeforeTool", `google_web_search|web_fetch|run_shell_command|${mcp("_")}`, 10_000],
    qwen: ["PreToolUse", `web_search|web_fetch|run_shell_command|${mcp("__")}`, 10_000],
  } as const;
  for (const [agent, [event, matcher, timeout]] of Object.entries(expected)) {
    const settings = withRegistration({}, COMMAND, agent as keyof typeof expected).settings;
    const ours = settings.hooks![event].filter((g) => g.hooks.some((h) => h.command === COMMAND));
    assertEquals(ours, [{ matcher, hooks: [{ type: "command", command: COMMAND, timeout }] }], agent);
    ok(!JSON.stringify(settings).includes('"if"'), agent);
    assertEquals(registrationsIn(settings).filter((entry) => "condition" in entry), [], agent);
  }
});

Deno.test("withMcpServer: Gemini CLI's server goes beside the user's in the settings that hold the hooks", () => {
  const own = serverEntry(["/home/me/.local/bin/docsearch-hook"], "gemini");
  const hooked = withRegistration(GEMINI_SETTINGS, COMMAND, "gemini").settings;
  const merge = withMcpServer(hooked, own, "gemini", "/home/me/.gemini/settings.json", "linux");
  assertEquals(merge.settings.mcpServers, {
    leann: { command: "leann_mcp" },
    docsearch: { command: "/home/me/.local/bin/docsearch-hook", args: ["mcp"] },
  });
  assertEquals(merge.settings.hooks, hooked.hooks);
});

// ---- comments ----------------------------------------------------------------------------------------------

const COMMENTED = `{
  // my model
  "model": { "name": "gemini-2.5-pro" }, /* inline */
  "url": "https://example.com/a//b", "quote": "say \\"/*\\" // not a comment"
}
`;

Deno.test("withoutComments: line and block comments blanked in place, strings left alone", () => {
  const plain = withoutComments(COMMENTED);
  assertEquals(plain.length, COMMENTED.length);
  assertEquals(JSON.parse(plain), {
    model: { name: "gemini-2.5-pro" },
    url: "https://example.com/a//b",
    quote: 'say "/*" // not a comment',
  });
  const json = '{"a": "//", "b": "/* x */"}';
  assertEquals(withoutComments(json), json);
});

Deno.test("parseSettings: comments are read where the agent reads them, and are a syntax error where it does not", () => {
  assertEquals(parseSettings(COMMENTED, "/home/me/.gemini/settings.json", true).model, {
    name: "gemini-2.5-pro",
  });
  throws(() => parseSettings(COMMENTED, "/home/me/.claude/settings.json"), (error: Error) => {
    ok(error instanceof SettingsError);
    match(error.message, /settings\.json: invalid JSON at line 2, column 3: a comment, /);
    return true;
  });
});

// ---- slash commands ----------------------------------------------------------------------------------------

Deno.test("slash commands: Gemini CLI's TOML files run the binary with the user's words, quoted by the agent", () => {
  const files = agentSlashCommandFiles(["/home/me/bin/docsearch hook's"], "gemini");
  assertEquals(files.map((file) => file.path), [
    "docsearch/disable.toml",
    "docsearch/enable.toml",
    "docsearch/status.toml",
  ]);
  for (const file of files) {
    ok(isOurFile(file.text), file.path);
    const command = parseToml(file.text) as { description: string; prompt: string };
    assertEquals(Object.keys(command).sort(), ["description", "prompt"]);
    match(command.description, /docsearch-hook/);
  }
  const [disable, , status] = files.map((file) => (parseToml(file.text) as { prompt: string }).prompt);
  ok(disable.startsWith(`!{'/home/me/bin/docsearch hook'\\''s' disable --slash -- {{args}}}\n\n`), disable);
  ok(status.startsWith(`!{'/home/me/bin/docsearch hook'\\''s' status --slash}\n`), status);
});

Deno.test("slash commands: Qwen Code's Markdown files; none for Ripperdoc; the marker tells ours from the user's", () => {
  const files = agentSlashCommandFiles(["/bin/docsearch-hook"], "qwen");
  assertEquals(files.map((file) => file.path), [
    "docsearch/disable.md",
    "docsearch/enable.md",
    "docsearch/status.md",
  ]);
  const [disable] = files;
  ok(disable.text.startsWith("---\ndescription: Turn a docsearch-hook"), disable.text);
  ok(disable.text.includes("\n!{/bin/docsearch-hook disable --slash -- {{args}}}\n"), disable.text);
  ok(isOurFile(disable.text));
  assertEquals(agentSlashCommandFiles(["/bin/docsearch-hook"], "ripperdoc"), []);
  ok(!isOurFile('description = "mine"\nprompt = "!{ls}"\n'));
});

// ---- install and uninstall, in process ----------------------------------------------------------------------

Deno.test("install --agent gemini --mcp in process: hooks and server in one file with one backup; uninstall --mcp restores it", async () => {
  await using m = await machine();
  const path = `${m.home}/.gemini/settings.json`;
  await Deno.mkdir(`${m.home}/.gemini`);
  await Deno.writeTextFile(path, USER_TEXT);

  const installing = m.context();
  assertEquals(install({ values: { agent: "gemini", mcp: true } }, installing), 0);
  const said = installing.out.join("\n");
  match(said, /^Registered docsearch-hook for Gemini CLI in .*settings\.json \(6 events, command: /);
  match(said, /Registered the MCP server "docsearch" for Gemini CLI in /);
  match(said, /Wrote 3 slash commands to .*\.gemini\/commands\/docsearch/);
  const written = JSON.parse(await Deno.readTextFile(path));
  assertEquals(registrationsIn(written).length, 6);
  assertEquals(Object.keys(written.mcpServers), ["leann", "docsearch"]);
  assertEquals(written.general, GEMINI_SETTINGS.general);
  assertEquals(await listDir(`${m.home}/.gemini/commands/docsearch`), [
    "disable.toml",
    "enable.toml",
    "status.toml",
  ]);
  // One backup, of the user's file: the second change to it starts from the first.
  const backups = await backupsOf(path);
  assertEquals(backups.length, 1);
  assertEquals(await Deno.readTextFile(backups[0]), USER_TEXT);

  const again = m.context();
  assertEquals(install({ values: { agent: "gemini", mcp: true } }, again), 0);
  match(again.out.join("\n"), /already registered for Gemini CLI/);
  assertEquals((await backupsOf(path)).length, 1);

  const removing = m.context();
  assertEquals(uninstall({ values: { agent: "gemini", mcp: true } }, removing), 0);
  assertEquals(await Deno.readTextFile(path), USER_TEXT);
  assertEquals(await tree(`${m.home}/.gemini`).then((files) => files.filter((f) => !f.includes(".bak-"))), [
    "commands/",
    "settings.json",
  ]);
});

Deno.test("install --agent gemini --dry-run shows both changes to the one file and writes nothing", async () => {
  await using m = await machine();
  const ctx = m.context();
  assertEquals(install({ values: { agent: "gemini", mcp: true, "dry-run": true } }, ctx), 0);
  const [plan] = ctx.out;
  match(plan, /Would register docsearch-hook for Gemini CLI \(6 events\)/);
  match(plan, /Would register the MCP server "docsearch" for Gemini CLI/);
  ok(plan.includes('+    "BeforeTool": ['), plan);
  ok(plan.includes('+  "mcpServers": {'), plan);
  assertEquals(await tree(m.home), ["project/"]);
});

/** A JSONC settings file as people keep them in their dotfiles: comments everywhere, numbers as typed. */
const JSONC_TEXT = `// settings, kept in dotfiles
{
  /* the model, pinned */
  "model": { "name": "pinned-model", "temperature": 1.0 }, // pinned on purpose
    "ui": {"theme": "GitHub"},
  "limits": [1e3, 2.50, -0],
  "unknownKey": "a//b /* not a comment */",
  "hooks": {
    "BeforeTool": [
      // the user's scanner
      {"matcher": "write_file", "hooks": [{"type": "command", "command": "scan.sh"}]} /* stays */
    ]
  },
  "mcpServers": {
    "leann": {"command": "leann_mcp"} // local search
  }
  // the end
}
`;
const JSONC_COMMENTS = [
  "// settings, kept in dotfiles",
  "/* the model, pinned */",
  "// pinned on purpose",
  "// the user's scanner",
  "/* stays */",
  "// local search",
  "// the end",
];

/** A context whose program is a release binary, so that the registered command is known. */
const BINARY = "/opt/docsearch/docsearch-hook";
const asBinary = (m: Machine) => ({ ...m.context(), execPath: BINARY });

for (const agent of ["gemini", "qwen"] as const) {
  Deno.test(`install --agent ${agent} --mcp in process edits a JSONC settings file in place, comments and all; uninstall --mcp gives it back byte for byte`, async () => {
    await using m = await machine();
    const path = `${m.home}/.${agent}/settings.json`;
    await Deno.mkdir(`${m.home}/.${agent}`);
    await Deno.writeTextFile(path, JSONC_TEXT);

    const dry = asBinary(m);
    assertEquals(install({ values: { agent, mcp: true, "dry-run": true } }, dry), 0);
    onlyCommasTakenOut(dry.out[0]);
    assertEquals(await Deno.readTextFile(path), JSONC_TEXT);

    assertEquals(install({ values: { agent, mcp: true } }, asBinary(m)), 0);
    const written = await Deno.readTextFile(path);
    for (const comment of JSONC_COMMENTS) assertEquals(written.split(comment).length, 2, comment);
    // Of the user's lines, only the last of the BeforeTool list, the hooks object and the leann server gain a comma.
    assertEquals(keptInOrder(JSONC_TEXT, written), agent === "gemini" ? 3 : 2);
    const settings = parseSettings(written, path, true);
    assertEquals(registrationsIn(settings).length, agent === "gemini" ? 6 : CLAUDE_EVENTS.length);
    assertEquals(Object.keys(settings.mcpServers as object), ["leann", "docsearch"]);

    assertEquals(uninstall({ values: { agent, mcp: true } }, asBinary(m)), 0);
    assertEquals(await Deno.readTextFile(path), JSONC_TEXT);
  });
}

Deno.test("install --agent qwen replaces an earlier entry of ours where it stands: its comments stay, only what differs changes", async () => {
  await using m = await machine();
  const path = `${m.home}/.qwen/settings.json`;
  const text = (matcher: string, command: string, timeout: number) =>
    `{
  "hooks": {
    "PreToolUse": [
      { "matcher": "Bash", "hooks": [{ "type": "command", "command": "lint.sh" }] },
      // docsearch: the redirect
      {
        "matcher": "${matcher}",
        "hooks": [
          {
            "type": "command",
            "command": "${command}", // moved since
            "timeout": ${timeout}
          }
        ]
      },
      { "matcher": "Write", "hooks": [{ "type": "command", "command": "fmt.sh" }] }
    ]`;
  await Deno.mkdir(`${m.home}/.qwen`);
  await Deno.writeTextFile(path, text("web_search", "/old/place/docsearch-hook hook", 10) + "\n  }\n}\n");
  assertEquals(install({ values: { agent: "qwen" } }, asBinary(m)), 0);
  const written = await Deno.readTextFile(path);
  // The matcher as install writes it for Qwen Code (its tool names are pinned in the tests above).
  const matcher = registrationsIn(parseSettings(written, path, true))
    .find((entry) => entry.event === "PreToolUse")!.matcher!;
  ok(written.startsWith(text(matcher, `${BINARY} hook`, 10000) + ",\n"), written);
});

Deno.test("install --agent gemini refuses a settings file with a trailing comma (Gemini CLI does too), with line and column", async () => {
  await using m = await machine();
  const path = `${m.home}/.gemini/settings.json`;
  const broken = '{\n  // mine\n  "model": {"name": "x"},\n}\n';
  await Deno.mkdir(`${m.home}/.gemini`);
  await Deno.writeTextFile(path, broken);
  throws(
    () => install({ values: { agent: "gemini" } }, m.context()),
    /settings\.json: invalid JSON at line 4, column 1: a comma before the closing bracket, .*; nothing was changed/,
  );
  assertEquals(await tree(`${m.home}/.gemini`), ["settings.json"]);
  assertEquals(await Deno.readTextFile(path), broken);
});

Deno.test("install --agent qwen --scope project; neither Qwen Code nor Gemini CLI has a local scope", async () => {
  await using m = await machine();
  assertEquals(install({ values: { agent: "qwen", scope: "project" } }, m.context()), 0);
  const project = JSON.parse(await Deno.readTextFile(`${m.project}/.qwen/settings.json`));
  assertEquals(registrationsIn(project).length, CLAUDE_EVENTS.length);
  assertEquals(await listDir(`${m.project}/.qwen/commands/docsearch`), [
    "disable.md",
    "enable.md",
    "status.md",
  ]);
  for (const [agent, name] of [["gemini", "Gemini CLI"], ["qwen", "Qwen Code"]]) {
    throws(
      () => install({ values: { agent, scope: "local" } }, m.context()),
      (error: unknown) =>
        error instanceof UsageError &&
        error.message === `${name} has no local settings file: --scope user or project`,
    );
  }
  assertEquals(uninstall({ values: { agent: "qwen", scope: "project" } }, m.context()), 0);
  assertEquals(JSON.parse(await Deno.readTextFile(`${m.project}/.qwen/settings.json`)), {});
});
