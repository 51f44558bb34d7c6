/**
 * docsearch-hook's own MCP server in the agent's user-scope server list: where that list lives, the entry that
 * runs `docsearch-hook mcp`, and how it is merged into and taken out of a file the agent owns. Pure, like
 * settings.ts, whose parsing, layout and Merge this shares; the command module reads and writes.
 */
import { z } from "zod";
import { jsonPath } from "../json_problems.ts";
import { type Env, homeDir, join, type OS } from "../paths.ts";
import {
  type Agent,
  agentUserDir,
  type Merge,
  type OurCommand,
  ourCommand,
  type Settings,
  SettingsError,
} from "./settings.ts";
import { commandLine } from "./shell.ts";
import { SERVER_NAME } from "../docs/built_in.ts";

/**
 * The file holding the agent's user-scope MCP servers. Claude Code: `~/.claude.json`, where
 * `claude mcp add --scope user` writes, and `$CLAUDE_CONFIG_DIR/.claude.json` when that is set (Claude Code
 * moves the file with the rest of its configuration). Ripperdoc: `~/.ripperdoc/mcp.json`, the user scope of
 * its own `/mcp` screen. Gemini CLI and Qwen Code: their user settings file, which holds the hooks too.
 */
export function mcpConfigPath(agent: Agent, env: Env, os: OS): string | undefined {
  const home = homeDir(env, os);
  if (agent === "claude") {
    const dir = env("CLAUDE_CONFIG_DIR") || home;
    return dir === undefined ? undefined : join(os, dir, ".claude.json");
  }
  const dir = agentUserDir(agent, env, os);
  return dir === undefined ? undefined : join(os, dir, agent === "ripperdoc" ? "mcp.json" : "settings.json");
}

/**
 * What `claude mcp add --scope user docsearch -- <command> mcp` writes; Gemini CLI and Qwen Code take a stdio
 * server as its `command` and `args` alone.
 */
export interface ServerEntry {
  type?: "stdio";
  command: string;
  args: string[];
  env?: Record<string, string>;
}

/** The entry that runs `self` (the words that run this docsearch-hook) with `mcp`; no shell is involved. */
export function serverEntry(self: readonly string[], agent: Agent = "claude"): ServerEntry {
  const [command, ...args] = self;
  const entry = { command, args: [...args, "mcp"] };
  return agent === "claude" || agent === "ripperdoc" ? { type: "stdio", ...entry, env: {} } : entry;
}

/**
 * Claude Code, Gemini CLI and Qwen Code read `mcpServers` only. Ripperdoc reads both `servers` and
 * `mcpServers` (its `/mcp` screen writes the one the file already has, `servers` in a new file).
 */
const SERVER_LISTS: Record<Agent, readonly string[]> = {
  claude: ["mcpServers"],
  ripperdoc: ["servers", "mcpServers"],
  gemini: ["mcpServers"],
  qwen: ["mcpServers"],
};

const stdioSchema = z.looseObject({
  type: z.literal("stdio").optional(),
  command: z.string(),
  args: z.array(z.string()).optional(),
});

/**
 * An entry this docsearch-hook would write, or any docsearch-hook (a binary elsewhere, another checkout)
 * running `mcp`: recognised as the hook entries are, by asking the same question about that program running
 * `hook`, so a moved binary's entry is replaced rather than refused.
 */
export function isOurServer(value: unknown, own: ServerEntry, os: OS): boolean {
  const entry = stdioSchema.safeParse(value);
  if (!entry.success) return false;
  const { command, args = [] } = entry.data;
  if (command === own.command && JSON.stringify(args) === JSON.stringify(own.args)) return true;
  return ourServerCommand(command, args, os) !== undefined;
}

/** A server's command when it is a docsearch-hook running `mcp`: the hook command it would be with `hook`. */
export function ourServerCommand(command: string, args: readonly string[], os: OS): OurCommand | undefined {
  if (args.at(-1) !== "mcp") return undefined;
  return ourCommand(commandLine([command, ...args.slice(0, -1), "hook"], os));
}

type ServerList = Record<string, unknown>;

const listSchema = z.record(z.string(), z.unknown());

/** The agent's server lists in the file (a copy of the file's own objects), checked to be objects. */
function serverLists(settings: Settings, agent: Agent, file: string): Map<string, ServerList> {
  const lists = new Map<string, ServerList>();
  for (const key of SERVER_LISTS[agent]) {
    if (settings[key] === undefined) continue;
    const checked = listSchema.safeParse(settings[key]);
    if (!checked.success) {
      const issue = checked.error.issues[0];
      throw new SettingsError(`${file}: ${jsonPath([key, ...issue.path])}: ${issue.message}`);
    }
    lists.set(key, settings[key] as ServerList);
  }
  return lists;
}

const SERVER_FIELDS = ["command", "args", "url", "uri", "type", "transport"];

/**
 * Ripperdoc's oldest form lists servers at the top level of the file, and reads it only while the keyed
 * lists are empty: adding a keyed list would hide those servers.
 */
function topLevelServers(settings: Settings, agent: Agent, lists: Map<string, ServerList>): string[] {
  if (agent !== "ripperdoc" || [...lists.values()].some((list) => Object.keys(list).length > 0)) return [];
  return Object.entries(settings).filter(([key, value]) =>
    !SERVER_LISTS.ripperdoc.includes(key) && typeof value === "object" && value !== null &&
    SERVER_FIELDS.some((field) => field in value)
  ).map(([key]) => key);
}

const commandSchema = z.looseObject({
  command: z.string().optional(),
  args: z.array(z.unknown()).optional(),
});

/** How a server that is not ours is shown in a refusal: what it runs. */
function describe(value: unknown): string {
  const entry = commandSchema.safeParse(value);
  if (!entry.success || entry.data.command === undefined) return JSON.stringify(value);
  return [entry.data.command, ...(entry.data.args ?? []).map(String)].join(" ");
}

function refuseForeign(agent: Agent, file: string, key: string, value: unknown): never {
  throw new SettingsError(
    `${file}: ${key}.${SERVER_NAME} is another MCP server called "${SERVER_NAME}" (it runs ${
      describe(value)
    })`,
    agent === "claude"
      ? `remove or rename it (claude mcp remove --scope user ${SERVER_NAME}), then run this again`
      : `remove or rename it in ${file}, then run this again`,
  );
}

const sameMeaning = (a: Settings, b: Settings) => JSON.stringify(a) === JSON.stringify(b);

/** Takes our server out of every list of `agent`'s in `copy`; a list only it filled goes too. */
function strip(copy: Settings, agent: Agent, own: ServerEntry, os: OS, except?: string): number {
  let removed = 0;
  for (const key of SERVER_LISTS[agent]) {
    const list = copy[key] as ServerList | undefined;
    if (key === except || list === undefined || !isOurServer(list[SERVER_NAME], own, os)) continue;
    delete list[SERVER_NAME];
    removed++;
    if (Object.keys(list).length === 0) delete copy[key];
  }
  return removed;
}

/**
 * The file with our server registered, changing nothing else: an earlier entry of ours is updated where it
 * stands, keeping an `env` the user gave it. A server of the same name that is not ours stops it
 * (SettingsError) rather than being replaced.
 */
export function withMcpServer(
  settings: Settings,
  own: ServerEntry,
  agent: Agent,
  file: string,
  os: OS,
): Merge {
  const lists = serverLists(settings, agent, file);
  for (const [key, list] of lists) {
    if (list[SERVER_NAME] !== undefined && !isOurServer(list[SERVER_NAME], own, os)) {
      refuseForeign(agent, file, key, list[SERVER_NAME]);
    }
  }
  const hidden = topLevelServers(settings, agent, lists);
  if (hidden.length > 0) {
    throw new SettingsError(
      `${file}: lists its MCP servers (${hidden.join(", ")}) at the top level, which Ripperdoc reads ` +
        `only while its "servers" and "mcpServers" lists are empty`,
      `move them into a "servers" object, or add ${SERVER_NAME} beside them by hand`,
    );
  }
  const keys = SERVER_LISTS[agent];
  const home = keys.find((key) => lists.get(key)?.[SERVER_NAME] !== undefined) ??
    keys.find((key) => lists.has(key)) ?? keys[keys.length - 1];
  const copy = structuredClone(settings);
  // Ripperdoc would read a second copy in its other list over this one.
  const removed = strip(copy, agent, own, os, home);
  const list = (copy[home] ??= {}) as ServerList;
  const earlier = list[SERVER_NAME] as Record<string, unknown> | undefined;
  const env = listSchema.safeParse(earlier?.env);
  list[SERVER_NAME] = { ...earlier, ...own, ...(env.success ? { env: env.data } : {}) };
  return { settings: copy, changed: !sameMeaning(settings, copy), removed: removed + (earlier ? 1 : 0) };
}

/** The file without our server; `foreign` says a server of that name that is not ours was left alone. */
export function withoutMcpServer(
  settings: Settings,
  own: ServerEntry,
  agent: Agent,
  file: string,
  os: OS,
): Merge & { foreign: boolean } {
  const lists = serverLists(settings, agent, file);
  const copy = structuredClone(settings);
  const removed = strip(copy, agent, own, os);
  const foreign = [...lists.values()].some((list) =>
    list[SERVER_NAME] !== undefined && !isOurServer(list[SERVER_NAME], own, os)
  );
  return { settings: copy, changed: removed > 0, removed, foreign };
}
