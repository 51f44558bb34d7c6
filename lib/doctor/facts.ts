/**
 * What doctor reads of the machine before it judges anything: the agents' settings files, the Claude Code
 * plugin, the config, the MCP servers the agents know, and how files are found (checks.ts judges them). It
 * reads and changes nothing but what the context points at.
 */
import { messageOf } from "../errors.ts";
import { BUILT } from "../program.ts";
import type { CommandContext } from "../cli/context.ts";
import { exists, realPath } from "../files.ts";
import type { ConfigLocation } from "../config/layers.ts";
import { commandConfig } from "../config/resolve.ts";
import type { Config } from "../config/types.ts";
import { builtInToolName, PLUGIN_NAME, SERVER_NAME, withBuiltInTool } from "../docs/built_in.ts";
import { mcpConfigPath, ourServerCommand } from "../install/mcp.ts";
import { type EnabledPlugin, enabledPlugin, installedPluginsPath } from "../install/plugin.ts";
import { selfCommand } from "../install/self.ts";
import { DocsIndex } from "../docs/store.ts";
import type { Agent } from "../protocol/events.ts";
import {
  AGENTS,
  hookCommand,
  type OurCommand,
  ourCommand,
  SCOPES,
  scopesOf,
  settingsPath,
  withoutComments,
} from "../install/settings.ts";
import { syntaxProblem } from "../json_problems.ts";
import { homeDir, isAbsolute, join, type OS } from "../paths.ts";
import {
  type FileFacts,
  type McpServer,
  mcpServersIn,
  type PassagesIn,
  type Runtime,
  type SettingsFile,
  type UnreadableFile,
} from "./checks.ts";

export interface DoctorFacts {
  /** The command that runs this docsearch-hook, and the hook command install registers with it. */
  self: string[];
  own: string;
  /** `own` as a settings file's command is read: what a registration is compared with. */
  selfRegistered: OurCommand;
  runtime: Runtime;
  settings: SettingsFile[];
  plugin: EnabledPlugin | undefined;
  /**
   * The context as the agent's hook sees it: the plugin's launcher sets DOCSEARCH_PLUGIN for the hook it runs,
   * and the agent knows the built-in search by the plugin's name for it.
   */
  agent: CommandContext;
  location: ConfigLocation;
  /** The config the hook would use, the built-in search named as the agent names it. */
  config: Config;
  files: FileFacts;
  /** The MCP servers each agent knows and the files looked in for them; those files that cannot be read. */
  mcp: McpFacts;
  /** The passages a built-in index file holds, read without writing to it. */
  passagesIn: PassagesIn;
}

/** An agent's MCP servers, from its own files only: another agent's servers are not its tools. */
export interface AgentServers {
  servers: McpServer[];
  lookedIn: string[];
}

export interface McpFacts {
  byAgent: Record<Agent, AgentServers>;
  unreadable: UnreadableFile[];
}

function readText(path: string): { text?: string; readError?: string } {
  try {
    return { text: Deno.readTextFileSync(path) };
  } catch (error) {
    return error instanceof Deno.errors.NotFound ? {} : { readError: messageOf(error) };
  }
}

function jsonProblem(path: string, text: string): string | undefined {
  try {
    JSON.parse(text);
    return undefined;
  } catch (error) {
    return syntaxProblem(path, text, error);
  }
}

/** The file system, and the program search of the shell the agent runs hooks with (the context's PATH). */
const fileFacts = ({ env, os }: CommandContext): FileFacts => ({
  home: homeDir(env, os),
  exists,
  same: (a, b) => realPath(a) === realPath(b),
  locate(program) {
    if (isAbsolute(program, os) || program.includes("/")) return exists(program) ? program : undefined;
    const dirs = (env("PATH") ?? "").split(os === "windows" ? ";" : ":").filter(Boolean);
    const names = os === "windows" ? [program, `${program}.exe`] : [program];
    for (const dir of dirs) {
      for (const name of names) {
        const path = join(os, dir, name);
        if (exists(path)) return path;
      }
    }
    return undefined;
  },
});

function settingsFiles(projectDir: string, { env, os }: CommandContext): SettingsFile[] {
  return AGENTS.flatMap((agent) =>
    SCOPES.flatMap((scope) => {
      const path = settingsPath(agent, scope, env, os, projectDir);
      return path === undefined ? [] : [{ agent, scope, path, ...readText(path) }];
    })
  );
}

/**
 * An MCP server entry's command when it is docsearch-hook's (its program running `mcp`), read as the hook
 * command it would be with `hook` in its place, as install recognises its own entry (isOurServer).
 */
function ourServer(entry: unknown, os: OS): OurCommand | undefined {
  if (typeof entry !== "object" || entry === null) return undefined;
  const { command, args = [] } = entry as { command?: unknown; args?: unknown };
  if (typeof command !== "string" || !Array.isArray(args)) return undefined;
  return args.every((arg) => typeof arg === "string") ? ourServerCommand(command, args, os) : undefined;
}

/**
 * What a built-in index file holds, opened read-only (a file that is not an index throws, and stays as it
 * was): its passages, and the title of its first page, a search its passages answer.
 */
export function readIndex(file: string): { passages: number; title?: string } {
  const index = DocsIndex.openReadOnly(file);
  try {
    const [source] = index.stamps().keys();
    const title = source === undefined ? undefined : index.page(source)?.title;
    return { passages: index.counts().chunks, ...(title ? { title } : {}) };
  } finally {
    index.close();
  }
}

const passagesIn: PassagesIn = (file) => readIndex(file).passages;

function mcpServers(
  projectDir: string,
  { env, os }: CommandContext,
  plugin: EnabledPlugin | undefined,
): McpFacts {
  const claudeJson = mcpConfigPath("claude", env, os);
  const ripperdocJson = mcpConfigPath("ripperdoc", env, os);
  const projectJson = join(os, projectDir, ".mcp.json");
  const unreadable: UnreadableFile[] = [];
  /** The text of a JSON file Claude Code reads; one that does not parse is noted (checks.ts says why). */
  const text = (path: string) => {
    const { text, readError } = readText(path);
    const problem = readError ?? (text === undefined ? undefined : jsonProblem(path, text));
    if (problem !== undefined) {
      unreadable.push({ path, problem });
      return undefined;
    }
    return text;
  };
  const ours = (entry: unknown) => ourServer(entry, os);
  // Claude Code calls a plugin's server `plugin:<plugin>:<server>`.
  const fromPlugin = plugin === undefined
    ? []
    : [{ name: `plugin:${PLUGIN_NAME}:${SERVER_NAME}`, source: `the plugin ${plugin.id}` }];
  // Gemini CLI and Qwen Code list theirs in their settings files, comments and all; the registration lines
  // already say when one cannot be read.
  const settingsServers = (agent: Agent): AgentServers => {
    const files = scopesOf(agent).flatMap((scope) => settingsPath(agent, scope, env, os, projectDir) ?? [])
      .flatMap((path) => {
        const { text } = readText(path);
        return text === undefined ? [] : [{ path, text: withoutComments(text) }];
      });
    return {
      servers: files.flatMap((file) => mcpServersIn(file.text, file.path, undefined, ours)),
      lookedIn: files.map((file) => file.path),
    };
  };
  const project = mcpServersIn(text(projectJson), projectJson, undefined, ours);
  const claude = claudeJson ? mcpServersIn(text(claudeJson), claudeJson, projectDir, ours) : [];
  // Ripperdoc's own file is read only when it is there: most machines have none.
  const ripperdoc = ripperdocJson === undefined ? undefined : readText(ripperdocJson).text;
  const byAgent: Record<Agent, AgentServers> = {
    claude: {
      servers: [...claude, ...project, ...fromPlugin],
      lookedIn: [
        ...(claudeJson ? [claudeJson] : []),
        projectJson,
        ...fromPlugin.map((server) => server.source),
      ],
    },
    ripperdoc: {
      servers: [
        ...(ripperdocJson ? mcpServersIn(ripperdoc, ripperdocJson, undefined, ours) : []),
        ...project,
      ],
      lookedIn: [...(ripperdocJson && ripperdoc !== undefined ? [ripperdocJson] : []), projectJson],
    },
    gemini: settingsServers("gemini"),
    qwen: settingsServers("qwen"),
  };
  return { byAgent, unreadable };
}

/** docsearch-hook's plugin, when Claude Code has it enabled in one of these settings files. */
function claudePlugin(
  settings: readonly SettingsFile[],
  { env, os }: CommandContext,
): EnabledPlugin | undefined {
  const installed = installedPluginsPath(env, os);
  return enabledPlugin(
    settings.filter((file) => file.agent === "claude"),
    installed === undefined ? undefined : readText(installed).text,
  );
}

/**
 * Whether the agent has docsearch-hook's own MCP server, which serves the built-in indexes: registered by
 * `install --mcp`, or the plugin's. Where doctor looks, for a command that names the server's tool.
 */
export function builtInServerFound(context: CommandContext): boolean {
  const projectDir = context.env("CLAUDE_PROJECT_DIR") || context.cwd;
  const plugin = claudePlugin(settingsFiles(projectDir, context), context);
  return plugin !== undefined ||
    Object.values(mcpServers(projectDir, context, plugin).byAgent).some(({ servers }) =>
      servers.some((server) => server.name === SERVER_NAME)
    );
}

/** Everything doctor judges but the state, the kill switch and the self-test, which it tries out itself. */
export function gatherFacts(configFlag: string | undefined, context: CommandContext): DoctorFacts {
  const { env, os } = context;
  const projectDir = env("CLAUDE_PROJECT_DIR") || context.cwd;
  const self = selfCommand(context);
  const own = hookCommand(self, os);
  const settings = settingsFiles(projectDir, context);
  const plugin = claudePlugin(settings, context);
  const agent: CommandContext = plugin === undefined || env("DOCSEARCH_PLUGIN")
    ? context
    : { ...context, env: (key) => key === "DOCSEARCH_PLUGIN" ? PLUGIN_NAME : env(key) };
  // The lookup every command makes (commandConfig), but in the context's environment.
  const { location, config } = commandConfig(configFlag, projectDir, env, os);
  return {
    self,
    own,
    selfRegistered: ourCommand(own) ?? { program: self[0] },
    runtime: { built: BUILT, deno: Deno.version.deno },
    settings,
    plugin,
    agent,
    location,
    config: { ...config, databases: withBuiltInTool(config.databases, builtInToolName(agent.env)) },
    files: fileFacts(context),
    mcp: mcpServers(projectDir, context, plugin),
    passagesIn,
  };
}
