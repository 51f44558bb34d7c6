/**
 * What `install` and `uninstall` would change, worked out from the flags, the context and the files as they
 * are now, before anything is written: a malformed settings file or a foreign file in the way stops it here,
 * with nothing changed. The command (install_command.ts) prints a plan as a dry run, or applies it.
 */
import type { CommandContext } from "../cli/context.ts";
import { Problem, UsageError } from "../errors.ts";
import { userConfigPath } from "../config/layers.ts";
import { readIfExists } from "../files.ts";
import { join, resolvePath } from "../paths.ts";
import { planSettings, type SettingsPlan } from "./json_file.ts";
import { mcpConfigPath, serverEntry, withMcpServer, withoutMcpServer } from "./mcp.ts";
import { selfCommand } from "./self.ts";
import {
  type Agent,
  AGENT_NAMES,
  agentProjectDir,
  AGENTS,
  agentUserDir,
  COMMENTED,
  hookCommand,
  type Merge,
  type Scope,
  SCOPES,
  scopesOf,
  settingsPath,
  withoutRegistration,
  withRegistration,
} from "./settings.ts";
import { agentSlashCommandFiles, isOurFile } from "./slash_commands.ts";
import { enabledPlugin, installedPluginsPath } from "./plugin.ts";

export interface InstallFlags {
  commands?: boolean;
  scope?: string;
  agent?: string;
  settings?: string;
  "dry-run"?: boolean;
  mcp?: boolean;
}

/** `--commands` does only the slash commands, so adding the MCP server to it has no meaning. */
export function checkFlags(values: InstallFlags): void {
  if (values.commands && values.mcp) {
    throw new UsageError("--commands and --mcp do not go together: --commands is only the slash commands");
  }
}

function oneOf<T extends string>(
  flag: string,
  allowed: readonly T[],
  value: string | undefined,
  fallback: T,
): T {
  const chosen = value ?? fallback;
  if (!allowed.includes(chosen as T)) {
    throw new UsageError(
      `--${flag} must be ${allowed.join(", ").replace(/, (\w+)$/, " or $1")}, not "${chosen}"`,
    );
  }
  return chosen as T;
}

/** Where the command works, and the words that run this docsearch-hook (what gets registered). */
export interface Target {
  agent: Agent;
  scope: Scope;
  projectDir: string;
  self: string[];
  /** Where the slash commands go, or why they don't. */
  commandsDir: string | { skipped: string };
}

export function target(values: InstallFlags, ctx: CommandContext): Target {
  const agent = oneOf("agent", AGENTS, values.agent, "claude");
  const projectDir = (agent === "claude" && ctx.env("CLAUDE_PROJECT_DIR")) || ctx.cwd;
  const scope = oneOf("scope", SCOPES, values.scope, "user");
  if (!scopesOf(agent).includes(scope) && !values.settings) {
    throw new UsageError(
      `${AGENT_NAMES[agent]} has no ${scope} settings file: --scope ${scopesOf(agent).join(" or ")}`,
    );
  }
  return {
    agent,
    scope,
    projectDir,
    self: selfCommand(ctx),
    commandsDir: commandsDir(agent, scope, projectDir, ctx),
  };
}

const NO_HOME = "HOME is not set";

// ---- slash commands --------------------------------------------------------------------------------------

/** Ripperdoc has no slash commands; the local scope has no folder for them. */
function commandsDir(agent: Agent, scope: Scope, projectDir: string, { env, os }: CommandContext) {
  if (agent === "ripperdoc") return { skipped: `${AGENT_NAMES[agent]} has no slash commands of ours` };
  if (scope === "local") return { skipped: "the local scope has no slash-command folder" };
  if (scope === "project") return join(os, agentProjectDir(agent, os, projectDir), "commands");
  const dir = agentUserDir(agent, env, os);
  return dir === undefined
    ? { skipped: `${NO_HOME}, so there is no user folder for them` }
    : join(os, dir, "commands");
}

/** The folder for `--commands`, which is a usage error where there is none. */
export function onlyCommandsDir(where: Target): string {
  if (typeof where.commandsDir !== "string") throw new UsageError(`--commands: ${where.commandsDir.skipped}`);
  return where.commandsDir;
}

interface Placed {
  path: string;
  text: string;
  /** What stands at `path` now. */
  existing?: string;
}

/** Each file at its place in `dir`, with what is there now (read once). */
function place(dir: string, where: Target, ctx: CommandContext): Placed[] {
  return agentSlashCommandFiles(where.self, where.agent).map((file) => {
    const path = join(ctx.os, dir, file.path);
    return { path, text: file.text, existing: readIfExists(path) };
  });
}

const ours = (file: Placed) => file.existing !== undefined && isOurFile(file.existing);

export interface CommandsPlan {
  dir: string;
  folder: string;
  changed: Placed[];
}

/** Refuses before writing anything when a file in the way is not ours. */
export function planCommands(dir: string, where: Target, ctx: CommandContext): CommandsPlan {
  const files = place(dir, where, ctx);
  const foreign = files.find((file) => file.existing !== undefined && !ours(file));
  if (foreign !== undefined) {
    throw new Problem(
      `${foreign.path} exists and was not written by docsearch-hook; nothing was changed`,
      "move that file away, or install into the other scope (--scope user|project)",
    );
  }
  return {
    dir,
    folder: join(ctx.os, dir, "docsearch"),
    changed: files.filter((file) => file.existing !== file.text),
  };
}

/** The files of ours in `dir`, to remove. */
export function removableCommands(dir: string, where: Target, ctx: CommandContext): string[] {
  return place(dir, where, ctx).filter(ours).map((file) => file.path);
}

// ---- the files ---------------------------------------------------------------------------------------

function settingsFile(values: InstallFlags, where: Target, { env, os, cwd }: CommandContext): string {
  // A relative --settings is the command's folder's, not the process's (they differ in process).
  if (values.settings) return resolvePath(cwd, values.settings, os);
  const path = settingsPath(where.agent, where.scope, env, os, where.projectDir);
  if (path === undefined) throw new Problem(NO_HOME, "set HOME, or pass --settings PATH");
  return path;
}

/** Always the agent's user-scope list, whatever `--scope` says: the server serves every project's agent. */
function mcpFile(agent: Agent, { env, os }: CommandContext): string {
  const path = mcpConfigPath(agent, env, os);
  if (path === undefined) throw new Problem(NO_HOME, "set HOME");
  return path;
}

/** How the agent's files are read, and planned after `first` when that changes the same file. */
const options = (agent: Agent, path: string, first?: SettingsPlan) => ({
  comments: COMMENTED.includes(agent),
  ...(first?.path === path ? { after: first } : {}),
});

/** Undefined when the file does not exist. */
function planMcpRemoval(where: Target, ctx: CommandContext, first?: SettingsPlan) {
  const path = mcpFile(where.agent, ctx);
  if (readIfExists(path) === undefined) return undefined;
  const own = serverEntry(where.self, where.agent);
  return planSettings(
    path,
    (s) => withoutMcpServer(s, own, where.agent, path, ctx.os),
    options(where.agent, path, first),
  );
}

/** A reminder is no reason to fail: a file that cannot be read is for `uninstall --mcp` to report. */
function stillRegistered(where: Target, ctx: CommandContext): boolean {
  try {
    return (planMcpRemoval(where, ctx)?.merge.removed ?? 0) > 0;
  } catch (error) {
    if (error instanceof Problem) return false;
    throw error;
  }
}

// ---- the plans ---------------------------------------------------------------------------------------

export interface InstallPlan {
  /** The hook's command line as the settings get it. */
  command: string;
  settings: SettingsPlan;
  /** With `--mcp`. */
  mcp?: SettingsPlan;
  /** The user's config, to create from the example: there is none yet. */
  config?: string;
  /** Where the agent has slash commands of ours. */
  commands?: CommandsPlan;
}

export function planInstall(values: InstallFlags, where: Target, ctx: CommandContext): InstallPlan {
  const { agent } = where;
  const command = hookCommand(where.self, ctx.os);
  const path = settingsFile(values, where, ctx);
  const settings = planSettings(path, (s) => withRegistration(s, command, agent), options(agent, path));
  const mcpPath = values.mcp ? mcpFile(agent, ctx) : undefined;
  const own = serverEntry(where.self, agent);
  // Gemini CLI and Qwen Code keep their servers in the user settings file, beside the hooks.
  const mcp = mcpPath === undefined
    ? undefined
    : planSettings(mcpPath, (s) =>
      withMcpServer(s, own, agent, mcpPath, ctx.os), options(agent, mcpPath, settings));
  const userConfig = userConfigPath(ctx.env, ctx.os);
  const config = userConfig !== undefined && readIfExists(userConfig) === undefined ? userConfig : undefined;
  const dir = where.commandsDir;
  const commands = typeof dir === "string" ? planCommands(dir, where, ctx) : undefined;
  return { command, settings, mcp, config, commands };
}

/**
 * Our MCP server at uninstall: with `--mcp` it goes (its file's plan; none when the file does not exist);
 * without, the file where ours is still registered, for a reminder, as it would run a binary about to go.
 */
export type McpRemoval =
  | { requested: true; path: string; plan?: SettingsPlan<Merge & { foreign: boolean }> }
  | { requested: false; stillIn?: string };

export interface UninstallPlan {
  path: string;
  /** Undefined when the settings file does not exist. */
  settings?: SettingsPlan<Merge>;
  /** The slash commands of ours in the folder, to remove. */
  removable: string[];
  mcp: McpRemoval;
}

export function planUninstall(values: InstallFlags, where: Target, ctx: CommandContext): UninstallPlan {
  const path = settingsFile(values, where, ctx);
  const own = hookCommand(where.self, ctx.os);
  const settings = readIfExists(path) === undefined
    ? undefined
    : planSettings(path, (s) => withoutRegistration(s, own), options(where.agent, path));
  const dir = where.commandsDir;
  const removable = typeof dir === "string" ? removableCommands(dir, where, ctx) : [];
  const mcp: McpRemoval = values.mcp
    ? { requested: true, path: mcpFile(where.agent, ctx), plan: planMcpRemoval(where, ctx, settings) }
    : { requested: false, stillIn: stillRegistered(where, ctx) ? mcpFile(where.agent, ctx) : undefined };
  return { path, settings, removable, mcp };
}

// ---- the Claude Code plugin -------------------------------------------------------------------------------

/** Read for a refusal only: a file that cannot be read enables nothing here (install reports the settings). */
function readQuietly(path: string | undefined): string | undefined {
  try {
    return path === undefined ? undefined : readIfExists(path);
  } catch (error) {
    if (error instanceof Problem) return undefined;
    throw error;
  }
}

/**
 * Claude Code runs an enabled plugin's hooks, MCP server and slash commands beside the settings' own: with the
 * docsearch plugin enabled, registering docsearch-hook in the settings too would run every event twice.
 */
export function refuseBesidePlugin(where: Target, ctx: CommandContext): void {
  if (where.agent !== "claude") return;
  const files = SCOPES.flatMap((scope) => {
    const path = settingsPath("claude", scope, ctx.env, ctx.os, where.projectDir);
    return path === undefined ? [] : [{ scope, path, text: readQuietly(path) }];
  });
  const plugin = enabledPlugin(files, readQuietly(installedPluginsPath(ctx.env, ctx.os)));
  if (plugin === undefined) return;
  throw new Problem(
    `the Claude Code plugin ${plugin.id} is enabled (${plugin.path}): it runs docsearch-hook on every event ` +
      "already, with its MCP server and the /docsearch: commands, and registering them here too would run " +
      "each event twice; nothing was changed",
    "keep the plugin, which needs nothing more (`install.sh --no-register` installs only the binary, for your " +
      `shell); or, to register this docsearch-hook instead, remove it first: claude plugin uninstall ${plugin.id}`,
  );
}
