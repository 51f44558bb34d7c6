/**
 * The Claude Code plugin's files against Claude Code's documented format of a plugin (manifest, hooks,
 * commands) and a marketplace, and against what they must say; that they are what lib/build/plugin.ts generates; the name the built-in search has in each
 * agent; how install and doctor see an enabled plugin. The launcher and real Claude Code: e2e/plugin_test.ts.
 */
import { deepStrictEqual as assertEquals, match, ok, throws } from "node:assert/strict";
import { z } from "zod";
import { LAUNCHER_PATH, pluginFiles } from "../lib/build/plugin.ts";
import { withIndexEntry, withoutIndexEntry } from "../lib/docs/config_entry.ts";
import {
  BUILT_IN_TOOL,
  builtInIndex,
  builtInToolName,
  isBuiltInTool,
  PLUGIN_NAME,
  SERVER_NAME,
  withBuiltInTool,
} from "../lib/docs/built_in.ts";
import { type FileFacts, mcpChecks, registrationChecks, type SettingsFile } from "../lib/doctor/checks.ts";
import { type EnabledPlugin, enabledPlugin, installedPluginsPath, PLUGIN_ID } from "../lib/install/plugin.ts";
import {
  formatSettings,
  hookCommand,
  layoutOf,
  ourCommand,
  withRegistration,
} from "../lib/install/settings.ts";
import { VERSION } from "../lib/version.ts";
import { CLAUDE_REGISTRATION, config, database, group, ROOT } from "./helpers.ts";

const read = (path: string) => Deno.readTextFileSync(`${ROOT}${path}`);
const readJson = (path: string): unknown => JSON.parse(read(path));

// ---- Claude Code's format ----------------------------------------------------------------------------------
// As Claude Code's plugin, marketplace and hooks references document it, written from them and not from what
// lib/build/plugin.ts writes: the fields they allow, with their types, and as required only what they require.
// A field they do not name is refused: in a generated file it is a misspelt one. The real Claude Code's
// `claude plugin validate --strict` runs in e2e/plugin_test.ts.

/** Plugin and marketplace names: kebab-case for a plugin; letters, digits, `.`, `_`, `-` for a marketplace. */
const pluginName = z.string().regex(/^[a-z0-9]+(-[a-z0-9]+)*$/);
const marketplaceName = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/).refine((name) =>
  !name.includes("..")
);
/** Names Claude Code keeps for itself or its official marketplaces. */
const RESERVED = [
  "claude-code-marketplace",
  "claude-code-plugins",
  "claude-plugins-official",
  "anthropic-marketplace",
  "anthropic-plugins",
  "agent-skills",
  "inline",
  "builtin",
  "skills-dir",
  "synced",
  "npm",
  "github",
];
/** Component paths are relative to the plugin's root and start with `./`. */
const relativePath = z.string().regex(/^\.\/(?!.*\.\.)/);
const pathOrPaths = z.union([relativePath, z.array(relativePath)]);
const semver = z.string().regex(/^\d+\.\d+\.\d+([-+][0-9A-Za-z.-]+)?$/);
const person = z.strictObject({
  name: z.string().min(1),
  email: z.string().optional(),
  url: z.url().optional(),
});

const mcpServer = z.union([
  z.strictObject({
    type: z.literal("stdio").optional(),
    command: z.string().min(1),
    args: z.array(z.string()).optional(),
    env: z.record(z.string(), z.string()).optional(),
    cwd: z.string().optional(),
  }),
  z.strictObject({
    type: z.enum(["http", "sse"]),
    url: z.url(),
    headers: z.record(z.string(), z.string()).optional(),
  }),
]);

/** Claude Code's hook events: those a hooks file may name. */
const CLAUDE_HOOK_EVENTS = [
  "Setup",
  "SessionStart",
  "UserPromptSubmit",
  "UserPromptExpansion",
  "PreToolUse",
  "PermissionRequest",
  "PermissionDenied",
  "PostToolUse",
  "PostToolUseFailure",
  "PostToolBatch",
  "Notification",
  "SubagentStart",
  "SubagentStop",
  "TaskCreated",
  "TaskCompleted",
  "Stop",
  "StopFailure",
  "TeammateIdle",
  "InstructionsLoaded",
  "ConfigChange",
  "CwdChanged",
  "FileChanged",
  "WorktreeCreate",
  "WorktreeRemove",
  "PreCompact",
  "PostCompact",
  "Elicitation",
  "ElicitationResult",
  "SessionEnd",
] as const;

/** A command handler as the reference gives its fields; the other kinds (prompt, agent, http) by their type. */
const hookHandler = z.union([
  z.strictObject({
    type: z.literal("command"),
    command: z.string().min(1),
    timeout: z.number().positive().optional(),
    async: z.boolean().optional(),
    statusMessage: z.string().optional(),
    once: z.boolean().optional(),
    // A permission rule (`Bash(curl *)`): the handler runs only for the tool calls it matches (2.1.85 and later).
    if: z.string().optional(),
  }),
  z.looseObject({ type: z.enum(["prompt", "agent", "http"]) }),
]);

const hooksSchema = z.strictObject({
  description: z.string().optional(),
  hooks: z.partialRecord(
    z.enum(CLAUDE_HOOK_EVENTS),
    z.array(z.strictObject({ matcher: z.string().optional(), hooks: z.array(hookHandler).min(1) })),
  ),
});

/** Only the name is required; a component field is a path (or paths) instead of the default folder, or inline. */
const manifestSchema = z.strictObject({
  name: pluginName,
  version: semver.optional(),
  description: z.string().optional(),
  author: person.optional(),
  homepage: z.url().optional(),
  repository: z.url().optional(),
  license: z.string().optional(),
  keywords: z.array(z.string()).optional(),
  commands: pathOrPaths.optional(),
  agents: pathOrPaths.optional(),
  skills: pathOrPaths.optional(),
  outputStyles: pathOrPaths.optional(),
  hooks: z.union([pathOrPaths, hooksSchema]).optional(),
  mcpServers: z.union([pathOrPaths, z.record(z.string(), mcpServer)]).optional(),
  lspServers: z.union([pathOrPaths, z.record(z.string(), z.looseObject({ command: z.string().min(1) }))])
    .optional(),
});

/** A plugin's source: a path from the marketplace's root ("./" is the root itself), or where to fetch it. */
const pluginSource = z.union([
  relativePath,
  z.looseObject({ source: z.enum(["github", "url", "git-subdir", "npm", "pip"]) }),
]);

const marketplaceSchema = z.strictObject({
  name: marketplaceName.refine((name) => !RESERVED.includes(name) && !name.startsWith("claudeai-")),
  owner: person,
  description: z.string().optional(),
  metadata: z.strictObject({
    description: z.string().optional(),
    version: z.string().optional(),
    pluginRoot: z.string().optional(),
  }).optional(),
  plugins: z.array(z.strictObject({
    name: pluginName,
    source: pluginSource,
    description: z.string().optional(),
    version: semver.optional(),
    author: person.optional(),
    homepage: z.url().optional(),
    repository: z.url().optional(),
    license: z.string().optional(),
    keywords: z.array(z.string()).optional(),
    category: z.string().optional(),
    tags: z.array(z.string()).optional(),
    strict: z.boolean().optional(),
  })),
});

/** A command file: YAML frontmatter of `key: value` lines, then the prompt. */
function frontmatter(text: string): Record<string, string> {
  const found = /^---\n([\s\S]*?)\n---\n/.exec(text);
  ok(found, `no frontmatter in:\n${text}`);
  return Object.fromEntries(
    found[1].split("\n").map((line) => {
      const at = line.indexOf(": ");
      ok(at > 0, `not a "key: value" line: ${line}`);
      return [line.slice(0, at), line.slice(at + 2)];
    }),
  );
}

// ---- the plugin ----------------------------------------------------------------------------------------------

/** The launcher as the plugin's hooks and commands run it: the plugin's own files use `sh`. */
const LAUNCHER = 'sh "${CLAUDE_PLUGIN_ROOT}/bin/docsearch-hook"';

Deno.test("the plugin's manifest, marketplace, hooks and commands are in Claude Code's format", () => {
  manifestSchema.parse(readJson(".claude-plugin/plugin.json"));
  marketplaceSchema.parse(readJson(".claude-plugin/marketplace.json"));
  hooksSchema.parse(readJson("hooks/hooks.json"));
  for (const name of [...Deno.readDirSync(`${ROOT}commands`)].map((entry) => entry.name)) {
    ok(frontmatter(read(`commands/${name}`)).description, name);
  }
});

Deno.test("the plugin is docsearch@docsearch-hook, this repository's root, with its MCP server", () => {
  const manifest = readJson(".claude-plugin/plugin.json") as Record<string, unknown>;
  const marketplace = readJson(".claude-plugin/marketplace.json") as {
    name: string;
    plugins: { name: string; source: string }[];
  };
  // The marketplace is this repository, whose root is the plugin: install.sh is then inside the plugin.
  assertEquals([marketplace.name, marketplace.plugins.map((p) => [p.name, p.source])], [
    "docsearch-hook",
    [["docsearch", "./"]],
  ]);
  assertEquals([manifest.name, PLUGIN_ID], ["docsearch", "docsearch@docsearch-hook"]);
  assertEquals(manifest.mcpServers, {
    docsearch: { command: "sh", args: ["${CLAUDE_PLUGIN_ROOT}/bin/docsearch-hook", "mcp"] },
  });
});

Deno.test("the plugin's hooks are install's registrations for Claude Code, run by the launcher", () => {
  const hooks = readJson("hooks/hooks.json") as { hooks: unknown };
  const expected: Record<string, unknown[]> = {};
  for (const { event, ...entry } of CLAUDE_REGISTRATION) {
    (expected[event] ??= []).push(group(entry, `${LAUNCHER} hook`));
  }
  assertEquals(hooks.hooks, expected);
  // In install's order, PreToolUse's two entries first.
  assertEquals(Object.keys(hooks.hooks as object), Object.keys(expected));
});

Deno.test("the plugin's commands run the launcher with the plugin's data folder", () => {
  const names = [...Deno.readDirSync(`${ROOT}commands`)].map((entry) => entry.name).sort();
  assertEquals(names, ["disable.md", "enable.md", "status.md"]);
  for (const name of names) {
    const text = read(`commands/${name}`);
    const command = name.slice(0, -3);
    // Claude Code exports neither folder to a command's `!` line: the data folder is passed on in it.
    const launcher = `CLAUDE_PLUGIN_DATA="\${CLAUDE_PLUGIN_DATA}" ${LAUNCHER}`;
    assertEquals(frontmatter(text)["allowed-tools"], `Bash(${launcher} ${command}:*)`);
    ok(text.includes(`\n!\`${launcher} ${command} --slash `), text);
    ok(
      !text.includes("written by docsearch-hook install"),
      "install's marker would make it look like install's",
    );
  }
});

/** Where a zod issue is: for a field the schema does not know, that field. */
const issueAt = (issue: z.core.$ZodIssue) =>
  [...issue.path, ...(issue.code === "unrecognized_keys" ? issue.keys : [])].join(".");

/** Asserts that `schema` refuses `value` for what is at `path`, and for nothing else. */
function refusedAt(schema: z.ZodType, value: unknown, path: string): void {
  throws(() => schema.parse(value), (error: unknown) => {
    ok(error instanceof z.ZodError, String(error));
    assertEquals([...new Set(error.issues.map(issueAt))], [path], error.message);
    return true;
  });
}

Deno.test("the format refuses, for the field at fault, what Claude Code's reference refuses", () => {
  const manifest = readJson(".claude-plugin/plugin.json") as Record<string, unknown>;
  refusedAt(manifestSchema, { ...manifest, name: "Docs Search" }, "name");
  refusedAt(manifestSchema, { ...manifest, keywords: "docs" }, "keywords");
  refusedAt(manifestSchema, { ...manifest, hooks: "hooks/hooks.json" }, "hooks");
  refusedAt(manifestSchema, { ...manifest, mcpServer: {} }, "mcpServer");
  const marketplace = readJson(".claude-plugin/marketplace.json") as { plugins: unknown[] };
  refusedAt(marketplaceSchema, { ...marketplace, name: "claude-plugins-official" }, "name");
  refusedAt(marketplaceSchema, { ...marketplace, owner: "me" }, "owner");
  refusedAt(
    marketplaceSchema,
    { ...marketplace, plugins: [{ ...marketplace.plugins[0] as object, source: "../x" }] },
    "plugins.0.source",
  );
  refusedAt(hooksSchema, {
    hooks: { PreToolUse: [{ matcher: 3, hooks: [{ type: "command", command: "x" }] }] },
  }, "hooks.PreToolUse.0.matcher");
  refusedAt(hooksSchema, { hooks: { WebSearch: [] } }, "hooks.WebSearch");
});

Deno.test("the plugin's files are what lib/build/plugin.ts generates: run it when this fails", () => {
  const launcher = read(LAUNCHER_PATH);
  for (const file of pluginFiles(launcher)) {
    assertEquals(read(file.path), file.text, `${file.path} is out of date: deno run -A lib/build/plugin.ts`);
  }
  // What the generator pins, checked on its own too, so that a wrong generator cannot pass by itself.
  match(launcher, new RegExp(`^VERSION=${VERSION.replaceAll(".", "\\.")}$`, "m"));
  match(launcher, /^DOCSEARCH_PLUGIN=docsearch$/m);
  assertEquals((readJson(".claude-plugin/plugin.json") as { version: string }).version, VERSION);
  // Executable, for a Bash tool that finds it on PATH (the plugin's bin/); the plugin's own files use `sh`.
  if (Deno.build.os !== "windows") ok((Deno.statSync(`${ROOT}${LAUNCHER_PATH}`).mode! & 0o111) !== 0);
});

// ---- the built-in search's name ----------------------------------------------------------------------------

const env = (vars: Record<string, string>) => (name: string) => vars[name];

Deno.test("builtInToolName: the server install --mcp registers, or the plugin's server as Claude Code names it", () => {
  assertEquals(builtInToolName(env({})), BUILT_IN_TOOL);
  assertEquals(BUILT_IN_TOOL, "mcp__docsearch__search");
  assertEquals(
    builtInToolName(env({ DOCSEARCH_PLUGIN: PLUGIN_NAME })),
    "mcp__plugin_docsearch_docsearch__search",
  );
  // Claude Code writes what a tool name cannot hold as `_`.
  assertEquals(
    builtInToolName(env({ DOCSEARCH_PLUGIN: "my.docs" })),
    "mcp__plugin_my_docs_docsearch__search",
  );
  assertEquals(builtInToolName(env({ DOCSEARCH_PLUGIN: "" })), BUILT_IN_TOOL);
  for (
    const name of [
      BUILT_IN_TOOL,
      "mcp__plugin_docsearch_docsearch__search",
      "mcp__plugin_x-y_docsearch__search",
    ]
  ) {
    ok(isBuiltInTool(name), name);
  }
  for (const name of ["mcp__leann__search", "mcp__plugin_docsearch_other__search", "search", undefined, 3]) {
    ok(!isBuiltInTool(name), String(name));
  }
});

Deno.test("withBuiltInTool renames the built-in search only, and builtInIndex still knows it", () => {
  const own = database({
    name: "deno",
    mcpToolName: BUILT_IN_TOOL,
    toolArgs: { index: "deno", query: "{query}" },
  });
  const leann = database({ name: "gitlab", mcpToolName: "mcp__leann__leann_search" });
  const plugin = "mcp__plugin_docsearch_docsearch__search";
  const renamed = withBuiltInTool([own, leann], plugin);
  assertEquals(renamed.map((d) => d.mcpToolName), [plugin, "mcp__leann__leann_search"]);
  assertEquals(renamed[1], leann);
  assertEquals(builtInIndex(renamed[0]), "deno");
  assertEquals(withBuiltInTool(renamed, BUILT_IN_TOOL)[0], own);
});

Deno.test("index add writes the canonical name, and treats an entry naming the plugin's tool as its own", () => {
  const entry = { name: "deno", path: "/s/indexes/deno.db", source: "/docs" };
  const added = withIndexEntry({ databases: [] }, entry).config.databases as Record<string, unknown>[];
  assertEquals(added[0].mcp_tool_name, BUILT_IN_TOOL);
  const byHand = {
    databases: [{ ...added[0], mcp_tool_name: "mcp__plugin_docsearch_docsearch__search" }],
  };
  const again = withIndexEntry(byHand, entry);
  assertEquals([again.change, again.replacedTool], ["updated", undefined]);
  assertEquals(withoutIndexEntry(byHand, "deno").config.databases, []);
});

// ---- an enabled plugin, as install and doctor see it -------------------------------------------------------

const USER = "/home/u/.claude/settings.json";
const PROJECT = "/work/p/.claude/settings.json";
const LOCAL = "/work/p/.claude/settings.local.json";

const files = (user?: unknown, project?: unknown, local?: unknown) =>
  [["user", USER, user], ["project", PROJECT, project], ["local", LOCAL, local]].map((
    [scope, path, value],
  ) => ({
    scope: scope as "user" | "project" | "local",
    path: path as string,
    text: value === undefined ? undefined : JSON.stringify(value),
  }));

const INSTALLED = JSON.stringify({
  version: 2,
  plugins: {
    [PLUGIN_ID]: [{
      scope: "user",
      installPath: "/home/u/.claude/plugins/cache/docsearch-hook/docsearch/0.1.0",
      version: "0.1.0",
    }],
  },
});

Deno.test("enabledPlugin: enabledPlugins of the most specific file that names it, from any marketplace", () => {
  const on = { enabledPlugins: { [PLUGIN_ID]: true } };
  assertEquals(enabledPlugin(files(on), INSTALLED), {
    id: PLUGIN_ID,
    path: USER,
    scope: "user",
    version: "0.1.0",
    installPath: "/home/u/.claude/plugins/cache/docsearch-hook/docsearch/0.1.0",
  });
  assertEquals(enabledPlugin(files(undefined, on)), { id: PLUGIN_ID, path: PROJECT, scope: "project" });
  // A project can turn off what the user turned on, and the other way round.
  assertEquals(enabledPlugin(files(on, undefined, { enabledPlugins: { [PLUGIN_ID]: false } })), undefined);
  assertEquals(enabledPlugin(files({ enabledPlugins: { [PLUGIN_ID]: false } }, on))?.scope, "project");
  assertEquals(
    enabledPlugin(files({ enabledPlugins: { "docsearch@a-fork": true } }))?.id,
    "docsearch@a-fork",
  );
  for (
    const other of [
      { enabledPlugins: { "docsearch-extra@docsearch-hook": true, "other@docsearch-hook": true } },
      { enabledPlugins: [PLUGIN_ID] },
      {},
    ]
  ) {
    assertEquals(enabledPlugin(files(other)), undefined, JSON.stringify(other));
  }
  const broken = files(on).map((file) => ({ ...file, text: file.text && "{ not json" }));
  assertEquals(enabledPlugin(broken), undefined);
  assertEquals(enabledPlugin(files(on), "[not the list]")?.version, undefined);
  assertEquals(
    installedPluginsPath(env({ HOME: "/home/u" }), "linux"),
    "/home/u/.claude/plugins/installed_plugins.json",
  );
  assertEquals(
    installedPluginsPath(env({ HOME: "/home/u", CLAUDE_CONFIG_DIR: "/c" }), "linux"),
    "/c/plugins/installed_plugins.json",
  );
});

const PLUGIN: EnabledPlugin = { id: PLUGIN_ID, path: USER, scope: "user", version: "0.1.0" };
const BIN = "/opt/bin/docsearch-hook";
const COMMAND = hookCommand([BIN], "linux");
const FACTS: FileFacts = { locate: (p) => p, exists: () => true, same: (a, b) => a === b };

const settingsFile = (
  text?: string,
): SettingsFile[] => [{ agent: "claude", scope: "user", path: USER, text }];

Deno.test("doctor: the plugin counts as a registration, and a settings registration beside it is a warning", () => {
  const alone = registrationChecks(settingsFile(), ourCommand(COMMAND)!, FACTS, COMMAND, PLUGIN);
  assertEquals(alone.map((c) => [c.status, c.name]), [["ok", "Claude Code plugin"]]);
  match(
    alone[0].message,
    /^docsearch@docsearch-hook is enabled \(\/home\/u\/\.claude\/settings\.json\): it runs/,
  );

  const registered = formatSettings(withRegistration({}, COMMAND, "claude").settings, layoutOf(undefined));
  const twice = registrationChecks(settingsFile(registered), ourCommand(COMMAND)!, FACTS, COMMAND, PLUGIN);
  const warning = twice.find((c) => c.name === "Claude Code, registered twice");
  assertEquals(warning?.status, "warn", JSON.stringify(twice));
  match(warning!.message, /every event runs twice/);
  assertEquals(warning!.fix, "keep the plugin and take the settings' entries out: docsearch-hook uninstall");

  const none = registrationChecks(settingsFile(), ourCommand(COMMAND)!, FACTS, COMMAND);
  assertEquals(none.map((c) => [c.status, c.name]), [["fail", "registration"]]);
});

Deno.test("doctor: the plugin's MCP server provides the plugin's name for the built-in search", () => {
  const tool = builtInToolName(env({ DOCSEARCH_PLUGIN: PLUGIN_NAME }));
  const databases = withBuiltInTool([database({ name: "deno", mcpToolName: BUILT_IN_TOOL })], tool);
  const server = { name: `plugin:${PLUGIN_NAME}:${SERVER_NAME}`, source: `the plugin ${PLUGIN_ID}` };
  const [check] = mcpChecks(config(databases), [server], [server.source]);
  assertEquals([check.status, check.name], ["ok", `MCP tool ${tool}`]);
  // Without the plugin's server, the same name is a tool the agent does not have.
  assertEquals(mcpChecks(config(databases), [], [])[0].status, "fail");
});
