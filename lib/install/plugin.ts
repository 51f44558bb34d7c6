/**
 * docsearch-hook as a Claude Code plugin: how the plugin's files run it, and whether Claude Code has the plugin
 * enabled. The plugin registers the hook, the MCP server and the slash commands itself, so install must not
 * register them a second time, and doctor counts the plugin as a registration. Pure: texts in, facts out.
 */
import { PLUGIN_NAME } from "../docs/built_in.ts";
import { claudeUserDir, type Env, join, type OS } from "../paths.ts";
import type { Scope } from "./settings.ts";

/** The marketplace this repository is: `/plugin marketplace add docsearch-hook/docsearch-hook`. */
export const MARKETPLACE_NAME = "docsearch-hook";

/** How users name the plugin: `/plugin install docsearch@docsearch-hook`. */
export const PLUGIN_ID = `${PLUGIN_NAME}@${MARKETPLACE_NAME}`;

/**
 * The plugin's launcher (`bin/docsearch-hook`, which runs the release binary) as the plugin's hooks and MCP
 * server run it. Claude Code writes the plugin's folder for `${CLAUDE_PLUGIN_ROOT}` (and exports it, which
 * the double quotes also allow for); `sh` runs the launcher even where a copy lost its executable bit.
 */
export const PLUGIN_LAUNCHER = 'sh "${CLAUDE_PLUGIN_ROOT}/bin/docsearch-hook"';

/**
 * The launcher as the plugin's slash commands run it: Claude Code writes both folders into a command file's
 * text but exports neither to its `!` lines, so the data folder is passed on by hand.
 */
export const PLUGIN_COMMAND_LAUNCHER = `CLAUDE_PLUGIN_DATA="\${CLAUDE_PLUGIN_DATA}" ${PLUGIN_LAUNCHER}`;

/** Claude Code's list of the plugins installed, with each one's version and folder. */
export function installedPluginsPath(env: Env, os: OS): string | undefined {
  const dir = claudeUserDir(env, os);
  return dir === undefined ? undefined : join(os, dir, "plugins", "installed_plugins.json");
}

/** A Claude Code settings file as read (undefined text: there is none). */
export interface ClaudeSettingsText {
  scope: Scope;
  path: string;
  text?: string;
}

export interface EnabledPlugin {
  /** Its key in `enabledPlugins`: `docsearch@<marketplace>`. */
  id: string;
  /** The settings file whose `enabledPlugins` turns it on. */
  path: string;
  scope: Scope;
  /** What Claude Code's list of installed plugins says of it, when it lists it. */
  version?: string;
  installPath?: string;
}

const asObject = (value: unknown): Record<string, unknown> | undefined =>
  typeof value === "object" && value !== null && !Array.isArray(value)
    ? value as Record<string, unknown>
    : undefined;

function parsed(text: string | undefined): Record<string, unknown> | undefined {
  if (text === undefined) return undefined;
  try {
    return asObject(JSON.parse(text));
  } catch {
    // A file Claude Code cannot read enables nothing; doctor reports it on its own line.
    return undefined;
  }
}

/** Claude Code lets a more specific file decide: local over project over user. */
const PRECEDENCE: readonly Scope[] = ["local", "project", "user"];

/**
 * The plugin named docsearch, from any marketplace, when the settings enable it: for each id, the most
 * specific file that mentions it decides (a project can switch off a plugin the user enabled).
 * `installedPlugins` is Claude Code's `plugins/installed_plugins.json`, for the version and the folder.
 */
export function enabledPlugin(
  files: readonly ClaudeSettingsText[],
  installedPlugins?: string,
): EnabledPlugin | undefined {
  const ordered = PRECEDENCE.flatMap((scope) => files.filter((file) => file.scope === scope));
  const lists = ordered.map((file) => ({ file, list: asObject(parsed(file.text)?.enabledPlugins) ?? {} }));
  const ids = new Set(
    lists.flatMap(({ list }) => Object.keys(list).filter((id) => id.startsWith(`${PLUGIN_NAME}@`))),
  );
  for (const id of ids) {
    const decides = lists.find(({ list }) => Object.hasOwn(list, id));
    if (decides?.list[id] !== true) continue;
    const { scope, path } = decides.file;
    const installs = asObject(parsed(installedPlugins)?.plugins)?.[id];
    const entries: Record<string, unknown>[] = Array.isArray(installs)
      ? installs.flatMap<Record<string, unknown>>((entry: unknown) => asObject(entry) ?? [])
      : [];
    const install = entries.find((entry) => entry.scope === scope) ?? entries[0];
    const text = (key: "version" | "installPath") =>
      typeof install?.[key] === "string" ? { [key]: install[key] as string } : {};
    return { id, path, scope, ...text("version"), ...text("installPath") };
  }
  return undefined;
}
