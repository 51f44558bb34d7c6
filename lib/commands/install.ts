/**
 * `docsearch-hook install` / `uninstall`: the hook entries in the agent's settings, the user's config (created
 * from the example when there is none) and the /docsearch:* slash commands. Everything is checked before
 * anything is written: a malformed settings file or a foreign file in the way stops it with nothing changed.
 * `--commands` limits either command to the slash commands; `--mcp` adds docsearch-hook's MCP server to the
 * agent's user-scope server list (install) or takes it out (uninstall), on top of the rest.
 */
import exampleConfig from "../../config.example.json" with { type: "json" };
import { ARTIFACT_ENTRY, BUILT, PROGRAM_ROOT } from "../program.ts";
import { messageOf, Problem, UsageError } from "../errors.ts";
import { count, print } from "../cli/io.ts";
import { userConfigPath } from "../config/layers.ts";
import { applySettings, diffOf, planSettings, type SettingsPlan } from "../install/json_file.ts";
import { makeDir, readIfExists, writeAtomically } from "../files.ts";
import {
  type Agent,
  AGENT_NAMES,
  AGENTS,
  hookCommand,
  registrationsFor,
  type Scope,
  SCOPES,
  settingsPath,
  withoutRegistration,
  withRegistration,
} from "../install/settings.ts";
import { mcpConfigPath, SERVER_NAME, serverEntry, withMcpServer, withoutMcpServer } from "../install/mcp.ts";
import { commandLine } from "../install/shell.ts";
import { type CommandFile, isOurFile, slashCommandFiles } from "../install/slash_commands.ts";
import {
  baseName,
  claudeUserDir,
  dirName,
  fileUrlPath,
  join,
  processEnv,
  resolvePath,
  stateDir,
} from "../paths.ts";

export interface InstallArgs {
  values: {
    commands?: boolean;
    scope?: string;
    agent?: string;
    settings?: string;
    "dry-run"?: boolean;
    mcp?: boolean;
  };
}

/**
 * The command that runs this docsearch-hook: the compiled binary, or deno running the built artifact or this
 * checkout.
 * DOCSEARCH_HOOK_SELF names a launcher that runs this program (a wrapper script, a package manager's shim),
 * so that what gets registered is the launcher's path.
 */
export function selfCommand(): string[] {
  const launcher = processEnv("DOCSEARCH_HOOK_SELF");
  // The agent runs hooks from the project's folder: a relative path would name another file there.
  if (launcher) {
    const os = Deno.build.os;
    // A bare name is for the shell to find on PATH, as it would be typed.
    return [/[\\/]/.test(launcher) ? resolvePath(Deno.cwd(), launcher, os) : launcher];
  }
  const exec = Deno.execPath();
  const name = baseName(exec);
  if (name !== "deno" && name !== "deno.exe") return [exec];
  // --quiet: Deno's own download notes would otherwise show up in the slash command's output.
  const file = (name: string) => fileUrlPath(new URL(name, PROGRAM_ROOT), Deno.build.os);
  // --no-config: a deno.json near the artifact is not its own, as a binary has none.
  if (BUILT) return [exec, "run", "-A", "--quiet", "--no-config", file(ARTIFACT_ENTRY)];
  return [exec, "run", "-A", "--quiet", `--config=${file("deno.json")}`, file("main.ts")];
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

interface Target {
  agent: Agent;
  scope: Scope;
  projectDir: string;
}

function target(values: InstallArgs["values"]): Target {
  const agent = oneOf("agent", AGENTS, values.agent, "claude");
  const projectDir = (agent === "claude" && processEnv("CLAUDE_PROJECT_DIR")) || Deno.cwd();
  return { agent, scope: oneOf("scope", SCOPES, values.scope, "user"), projectDir };
}

const NO_HOME = "HOME is not set";

// ---- slash commands --------------------------------------------------------------------------------------

/** Where the slash commands go, or why they don't (only Claude Code has them; the local scope has no folder). */
function commandsDir({ agent, scope, projectDir }: Target): string | { skipped: string } {
  const os = Deno.build.os;
  if (agent !== "claude") return { skipped: `${AGENT_NAMES[agent]} has no slash commands of ours` };
  if (scope === "local") return { skipped: "the local scope has no slash-command folder" };
  if (scope === "project") return join(os, projectDir, ".claude", "commands");
  const dir = claudeUserDir(processEnv, os);
  return dir === undefined
    ? { skipped: `${NO_HOME}, so there is no user folder for them` }
    : join(os, dir, "commands");
}

interface Placed {
  path: string;
  text: string;
  /** What stands at `path` now. */
  existing?: string;
}

/** Each file at its place in `dir`, with what is there now (read once). */
function place(dir: string, files: readonly CommandFile[]): Placed[] {
  return files.map((file) => {
    const path = join(Deno.build.os, dir, file.path);
    return { path, text: file.text, existing: readIfExists(path) };
  });
}

const ours = (file: Placed) => file.existing !== undefined && isOurFile(file.existing);

/** Refuses before writing anything when a file in the way is not ours. */
function checkOurs(files: readonly Placed[]): void {
  const foreign = files.find((file) => file.existing !== undefined && !ours(file));
  if (foreign !== undefined) {
    throw new Problem(
      `${foreign.path} exists and was not written by docsearch-hook; nothing was changed`,
      "move that file away, or install into the other scope (--scope user|project)",
    );
  }
}

interface CommandsPlan {
  dir: string;
  folder: string;
  changed: Placed[];
}

function planCommands(dir: string): CommandsPlan {
  const files = place(dir, slashCommandFiles(selfCommand()));
  checkOurs(files);
  return {
    dir,
    folder: join(Deno.build.os, dir, "docsearch"),
    changed: files.filter((file) => file.existing !== file.text),
  };
}

function writeCommands(plan: CommandsPlan): string {
  if (plan.changed.length > 0) makeDir(plan.folder);
  for (const file of plan.changed) writeAtomically(file.path, file.text);
  return plan.changed.length === 0
    ? `The slash commands in ${plan.folder} are up to date.`
    : `Wrote ${count(plan.changed.length, "slash command")} to ${plan.folder}: ` +
      "/docsearch:disable, /docsearch:enable, /docsearch:status (restart the agent to see them).";
}

const describeCommands = (plan: CommandsPlan) =>
  plan.changed.length === 0
    ? `Nothing to do: the slash commands in ${plan.folder} are up to date.`
    : plan.changed.map((file) => `Would write ${file.path}:\n${file.text}`).join("\n");

function removableCommands(dir: string): string[] {
  return place(dir, slashCommandFiles(selfCommand())).filter(ours).map((file) => file.path);
}

function removeCommands(dir: string, removable: readonly string[]): string {
  for (const path of removable) Deno.removeSync(path);
  try {
    Deno.removeSync(join(Deno.build.os, dir, "docsearch"));
  } catch {
    // Not empty (the user keeps files of their own there) or already gone: either way it stays as it is.
  }
  return removable.length === 0
    ? `No docsearch-hook slash commands in ${dir}.`
    : `Removed ${removable.join(", ")}.`;
}

// ---- the settings file -------------------------------------------------------------------------------

function settingsFile(values: InstallArgs["values"], where: Target): string {
  if (values.settings) return values.settings;
  const path = settingsPath(where.agent, where.scope, processEnv, Deno.build.os, where.projectDir);
  if (path === undefined) throw new Problem(NO_HOME, "set HOME, or pass --settings PATH");
  return path;
}

const keptAs = (backup: string | undefined) => backup ? [`  The previous file is kept as ${backup}.`] : [];

// ---- the user's config -------------------------------------------------------------------------------

function configToCreate(): string | undefined {
  const path = userConfigPath(processEnv, Deno.build.os);
  return path !== undefined && readIfExists(path) === undefined ? path : undefined;
}

function createConfig(path: string): void {
  makeDir(dirName(path));
  try {
    // createNew: never overwrite a config that appeared since we looked.
    Deno.writeTextFileSync(path, JSON.stringify(exampleConfig, null, 2) + "\n", { createNew: true });
  } catch (error) {
    if (!(error instanceof Deno.errors.AlreadyExists)) {
      throw new Problem(`cannot create ${path}: ${messageOf(error)}`);
    }
  }
}

// ---- the MCP server ------------------------------------------------------------------------------------

/** Always the agent's user-scope list, whatever `--scope` says: the server serves every project's agent. */
function mcpFile(agent: Agent): string {
  const path = mcpConfigPath(agent, processEnv, Deno.build.os);
  if (path === undefined) throw new Problem(NO_HOME, "set HOME");
  return path;
}

const SERVER = `the MCP server "${SERVER_NAME}"`;
const Server = `The MCP server "${SERVER_NAME}"`;

function planMcp(agent: Agent): SettingsPlan {
  const path = mcpFile(agent);
  return planSettings(path, (s) => withMcpServer(s, serverEntry(selfCommand()), agent, path, Deno.build.os));
}

/** Undefined when the file does not exist. */
function planMcpRemoval(agent: Agent) {
  const path = mcpFile(agent);
  if (readIfExists(path) === undefined) return undefined;
  return planSettings(
    path,
    (s) => withoutMcpServer(s, serverEntry(selfCommand()), agent, path, Deno.build.os),
  );
}

const describeMcp = (plan: SettingsPlan, agentName: string) =>
  plan.merge.changed
    ? `Would register ${SERVER} for ${agentName} in ${plan.path}:\n${diffOf(plan)}`
    : `Nothing to do in ${plan.path}: ${SERVER} is registered there as it would be.`;

function writeMcp(plan: SettingsPlan, agentName: string): string[] {
  if (!plan.merge.changed) {
    return [`${Server} is already registered for ${agentName} in ${plan.path}; nothing changed.`];
  }
  const command = commandLine([...selfCommand(), "mcp"], Deno.build.os);
  return [
    `Registered ${SERVER} for ${agentName} in ${plan.path} (command: ${command}; tools search, list_indexes).`,
    ...keptAs(applySettings(plan)),
  ];
}

/**
 * What uninstall says and does about our server: with `--mcp` it goes (a server of that name that is not ours
 * stays); without, a reminder when ours is still registered, as it would run a binary about to be deleted.
 */
function mcpRemoval(agent: Agent, requested: boolean): { preview: string[]; apply: () => string[] } {
  if (!requested) {
    const note = stillRegistered(agent)
      ? [`${Server} is still registered in ${mcpFile(agent)}: uninstall --mcp removes it too.`]
      : [];
    return { preview: note, apply: () => note };
  }
  const path = mcpFile(agent);
  const plan = planMcpRemoval(agent);
  const foreign = plan?.merge.foreign ? [`${Server} in ${path} is not docsearch-hook's: left alone.`] : [];
  if (!plan?.merge.changed) {
    const lines = [
      `No docsearch-hook MCP server in ${path}${plan ? "" : " (it does not exist)"}.`,
      ...foreign,
    ];
    return { preview: lines, apply: () => lines };
  }
  return {
    preview: [`Would remove ${SERVER} from ${path}:\n${diffOf(plan)}`, ...foreign],
    apply: () => [`Removed ${SERVER} from ${path}.`, ...keptAs(applySettings(plan)), ...foreign],
  };
}

/** A reminder is no reason to fail: a file that cannot be read is for `uninstall --mcp` to report. */
function stillRegistered(agent: Agent): boolean {
  try {
    return (planMcpRemoval(agent)?.merge.removed ?? 0) > 0;
  } catch (error) {
    if (error instanceof Problem) return false;
    throw error;
  }
}

// ---- the commands --------------------------------------------------------------------------------------

/** `--commands` does only the slash commands, so adding the MCP server to it has no meaning. */
function checkFlags(values: InstallArgs["values"]): void {
  if (values.commands && values.mcp) {
    throw new UsageError("--commands and --mcp do not go together: --commands is only the slash commands");
  }
}

export function install({ values }: InstallArgs): number {
  checkFlags(values);
  const where = target(values);
  const dir = commandsDir(where);
  if (values.commands) {
    if (typeof dir !== "string") throw new UsageError(`--commands: ${dir.skipped}`);
    const plan = planCommands(dir);
    print(values["dry-run"] ? describeCommands(plan) : writeCommands(plan));
    return 0;
  }
  const command = hookCommand(selfCommand(), Deno.build.os);
  const agentName = AGENT_NAMES[where.agent];
  const events = registrationsFor(where.agent).length;
  const settings = planSettings(
    settingsFile(values, where),
    (s) => withRegistration(s, command, where.agent),
  );
  const mcp = values.mcp ? planMcp(where.agent) : undefined;
  const config = configToCreate();
  const commands = typeof dir === "string" ? planCommands(dir) : undefined;

  if (values["dry-run"]) {
    print(
      [
        settings.merge.changed
          ? `Would register docsearch-hook for ${agentName} (${events} events) in ${settings.path}:\n${
            diffOf(settings)
          }`
          : `Nothing to do in ${settings.path}: docsearch-hook is registered there as it would be.`,
        mcp && describeMcp(mcp, agentName),
        config === undefined ? undefined : `Would create ${config} from the example config.`,
        commands && describeCommands(commands),
      ].filter(Boolean).join("\n"),
    );
    return 0;
  }

  const lines: string[] = [];
  if (settings.merge.changed) {
    const backup = applySettings(settings);
    lines.push(
      `Registered docsearch-hook for ${agentName} in ${settings.path} (${events} events, command: ${command}).`,
      ...keptAs(backup),
    );
  } else {
    lines.push(`docsearch-hook is already registered for ${agentName} in ${settings.path}; nothing changed.`);
  }
  try {
    if (mcp) lines.push(...writeMcp(mcp, agentName));
    if (config !== undefined) {
      createConfig(config);
      lines.push(`Created ${config} from the example config: point its databases at your local docs.`);
    }
    if (commands) lines.push(writeCommands(commands));
  } catch (error) {
    // Say what did happen: the settings are already written.
    if (!(error instanceof Problem)) throw error;
    print(lines.join("\n"));
    throw new Problem(`${error.message}; the rest above was done`, error.hint);
  }
  if (settings.merge.changed || mcp?.merge.changed) {
    lines.push(`Next: restart ${agentName}, then run \`docsearch-hook doctor\` to check the setup.`);
  }
  print(lines.join("\n"));
  return 0;
}

export function uninstall({ values }: InstallArgs): number {
  checkFlags(values);
  const where = target(values);
  const dir = commandsDir(where);
  if (values.commands) {
    if (typeof dir !== "string") throw new UsageError(`--commands: ${dir.skipped}`);
    const removable = removableCommands(dir);
    print(
      values["dry-run"]
        ? (removable.length === 0
          ? "Nothing to remove."
          : removable.map((p) => `Would remove ${p}`).join("\n"))
        : removeCommands(dir, removable),
    );
    return 0;
  }
  const path = settingsFile(values, where);
  const own = hookCommand(selfCommand(), Deno.build.os);
  const settings = readIfExists(path) === undefined
    ? undefined
    : planSettings(path, (s) => withoutRegistration(s, own));
  const removable = typeof dir === "string" ? removableCommands(dir) : [];
  const found = settings?.merge.removed ?? 0;
  const nothing = `No docsearch-hook entries in ${path}${settings ? "" : " (it does not exist)"}.`;
  const mcp = mcpRemoval(where.agent, values.mcp === true);

  if (values["dry-run"]) {
    print([
      settings && found > 0
        ? `Would remove ${count(found, "entry", "entries")} from ${path}:\n${diffOf(settings)}`
        : nothing,
      ...removable.map((p) => `Would remove ${p}`),
      ...mcp.preview,
    ].join("\n"));
    return 0;
  }

  const lines: string[] = [];
  if (settings && found > 0) {
    const backup = applySettings(settings);
    lines.push(
      `Removed ${count(found, "docsearch-hook entry", "docsearch-hook entries")} from ${path}.`,
      ...keptAs(backup),
    );
  } else lines.push(nothing);
  if (typeof dir === "string" && removable.length > 0) lines.push(removeCommands(dir, removable));
  lines.push(...mcp.apply());
  const config = userConfigPath(processEnv, Deno.build.os);
  const state = stateDir(processEnv, Deno.build.os);
  lines.push(
    `Kept your config${config ? ` (${config})` : ""} and the recorded state${state ? ` (${state})` : ""}: ` +
      "delete them yourself if you no longer want them.",
  );
  print(lines.join("\n"));
  return 0;
}
