/**
 * `docsearch-hook install` / `uninstall`: the hook entries in the agent's settings, the user's config (created
 * from the example when there is none) and the /docsearch:* slash commands. Everything is planned first
 * (install/plan.ts), then printed as a dry run or applied. `--commands` limits either command to the slash
 * commands; `--mcp` adds docsearch-hook's MCP server to the agent's user-scope server list (install) or
 * takes it out (uninstall), on top of the rest.
 */
import type { CommandContext } from "../cli/context.ts";
import { messageOf, Problem } from "../errors.ts";
import { count } from "../cli/io.ts";
import { applySettings, diffOf, type SettingsPlan } from "./json_file.ts";
import { makeDir, writeAtomically, type Writer } from "../files.ts";
import { AGENT_NAMES, registrationsFor } from "./settings.ts";
import { NEXT_STEP, SERVER_NAME } from "../docs/built_in.ts";
import {
  checkFlags,
  type CommandsPlan,
  type InstallFlags,
  type McpRemoval,
  onlyCommandsDir,
  planCommands,
  planInstall,
  planUninstall,
  refuseBesidePlugin,
  removableCommands,
  target,
} from "./plan.ts";
import { commandLine } from "./shell.ts";
import { CHECKOUT_ARTIFACT, fromSources } from "./self.ts";
import { programModule } from "../program.ts";
import { dirName, join, stateDir } from "../paths.ts";
import { userConfigPath } from "../config/layers.ts";

export interface InstallArgs {
  values: InstallFlags;
}

const keptAs = (backup: string | undefined) => backup ? [`  The previous file is kept as ${backup}.`] : [];

// ---- slash commands --------------------------------------------------------------------------------------

function writeCommands(plan: CommandsPlan, at: Writer): string {
  if (plan.changed.length > 0) makeDir(plan.folder);
  for (const file of plan.changed) writeAtomically(file.path, file.text, at);
  return plan.changed.length === 0
    ? `The slash commands in ${plan.folder} are up to date.`
    : `Wrote ${count(plan.changed.length, "slash command")} to ${plan.folder}: ` +
      "/docsearch:disable, /docsearch:enable, /docsearch:status (restart the agent to see them).";
}

const describeCommands = (plan: CommandsPlan) =>
  plan.changed.length === 0
    ? `Nothing to do: the slash commands in ${plan.folder} are up to date.`
    : plan.changed.map((file) => `Would write ${file.path}:\n${file.text}`).join("\n");

function removeCommands(dir: string, removable: readonly string[], ctx: CommandContext): string {
  for (const path of removable) Deno.removeSync(path);
  try {
    Deno.removeSync(join(ctx.os, dir, "docsearch"));
  } catch {
    // Not empty (the user keeps files of their own there) or already gone: either way it stays as it is.
  }
  return removable.length === 0
    ? `No docsearch-hook slash commands in ${dir}.`
    : `Removed ${removable.join(", ")}.`;
}

// ---- the user's config -------------------------------------------------------------------------------

/**
 * A first config sends nothing anywhere: a database is added when its docs are there to search (`index add`
 * writes one), so a fresh install never denies a web search for docs this machine does not have.
 */
const FIRST_CONFIG = { escape_hatch_ttl_seconds: 300, databases: [] };

function createConfig(path: string): void {
  makeDir(dirName(path));
  try {
    // createNew: never overwrite a config that appeared since we looked.
    Deno.writeTextFileSync(path, JSON.stringify(FIRST_CONFIG, null, 2) + "\n", { createNew: true });
  } catch (error) {
    if (!(error instanceof Deno.errors.AlreadyExists)) {
      throw new Problem(`cannot create ${path}: ${messageOf(error)}`);
    }
  }
}

// ---- the MCP server ------------------------------------------------------------------------------------

const SERVER = `the MCP server "${SERVER_NAME}"`;
const Server = `The MCP server "${SERVER_NAME}"`;

const describeMcp = (plan: SettingsPlan, agentName: string) =>
  plan.merge.changed
    ? `Would register ${SERVER} for ${agentName} in ${plan.path}:\n${diffOf(plan)}`
    : `Nothing to do in ${plan.path}: ${SERVER} is registered there as it would be.`;

function writeMcp(plan: SettingsPlan, agentName: string, self: readonly string[], ctx: CommandContext) {
  if (!plan.merge.changed) {
    return [`${Server} is already registered for ${agentName} in ${plan.path}; nothing changed.`];
  }
  const command = commandLine([...self, "mcp"], ctx.os);
  return [
    `Registered ${SERVER} for ${agentName} in ${plan.path} (command: ${command}; tools search, list_indexes).`,
    ...keptAs(applySettings(plan, ctx)),
  ];
}

/** What uninstall says and does about our server; a server of that name that is not ours stays. */
function mcpRemoval(removal: McpRemoval, ctx: CommandContext): { preview: string[]; apply: () => string[] } {
  if (!removal.requested) {
    const note = removal.stillIn === undefined
      ? []
      : [`${Server} is still registered in ${removal.stillIn}: uninstall --mcp removes it too.`];
    return { preview: note, apply: () => note };
  }
  const { path, plan } = removal;
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
    apply: () => [`Removed ${SERVER} from ${path}.`, ...keptAs(applySettings(plan, ctx)), ...foreign],
  };
}

// ---- the commands --------------------------------------------------------------------------------------

/**
 * `install` as the command line runs it: from a checkout's sources, the artifact it registers (selfCommand) is
 * built first, unless this is a dry run.
 */
export async function run(args: InstallArgs, ctx: CommandContext): Promise<number> {
  if (fromSources(ctx) && !args.values["dry-run"]) {
    // Build-time code, loaded only here: the artifact and the binaries never run it.
    const { builtArtifact } = await import(programModule("lib/build/build")) as BuildModule;
    const { entry, built } = await builtArtifact(CHECKOUT_ARTIFACT);
    if (built) ctx.stdout(`Built the hook as it ships: ${entry} (from this checkout's sources).`);
  }
  return install(args, ctx);
}

type BuildModule = typeof import("../build/build.ts");

export function install({ values }: InstallArgs, ctx: CommandContext): number {
  checkFlags(values);
  const where = target(values, ctx);
  refuseBesidePlugin(where, ctx);
  if (values.commands) {
    const plan = planCommands(onlyCommandsDir(where), where, ctx);
    ctx.stdout(values["dry-run"] ? describeCommands(plan) : writeCommands(plan, ctx));
    return 0;
  }
  const { command, settings, mcp, config, commands } = planInstall(values, where, ctx);
  const agentName = AGENT_NAMES[where.agent];
  // Events, not entries: PreToolUse has two where the agent runs handlers by their `if`.
  const events = new Set(registrationsFor(where.agent).map((registration) => registration.event)).size;

  if (values["dry-run"]) {
    ctx.stdout(
      [
        settings.merge.changed
          ? `Would register docsearch-hook for ${agentName} (${events} events) in ${settings.path}:\n${
            diffOf(settings)
          }`
          : `Nothing to do in ${settings.path}: docsearch-hook is registered there as it would be.`,
        mcp && describeMcp(mcp, agentName),
        config === undefined ? undefined : `Would create ${config} with no databases yet.`,
        commands && describeCommands(commands),
      ].filter(Boolean).join("\n"),
    );
    return 0;
  }

  const lines: string[] = [];
  if (settings.merge.changed) {
    const backup = applySettings(settings, ctx);
    lines.push(
      `Registered docsearch-hook for ${agentName} in ${settings.path} (${events} events, command: ${command}).`,
      ...keptAs(backup),
    );
  } else {
    lines.push(`docsearch-hook is already registered for ${agentName} in ${settings.path}; nothing changed.`);
  }
  try {
    if (mcp) lines.push(...writeMcp(mcp, agentName, where.self, ctx));
    if (config !== undefined) {
      createConfig(config);
      lines.push(
        `Created ${config} with no databases yet: every web search passes until you add one.`,
        `Next: ${NEXT_STEP}.`,
      );
    }
    if (commands) lines.push(writeCommands(commands, ctx));
  } catch (error) {
    // Say what did happen: the settings are already written.
    if (!(error instanceof Problem)) throw error;
    ctx.stdout(lines.join("\n"));
    throw new Problem(`${error.message}; the rest above was done`, error.hint);
  }
  if (settings.merge.changed || mcp?.merge.changed) {
    lines.push(`Next: restart ${agentName}, then run \`docsearch-hook doctor\` to check the setup.`);
  }
  ctx.stdout(lines.join("\n"));
  return 0;
}

export function uninstall({ values }: InstallArgs, ctx: CommandContext): number {
  checkFlags(values);
  const where = target(values, ctx);
  if (values.commands) {
    const dir = onlyCommandsDir(where);
    const removable = removableCommands(dir, where, ctx);
    ctx.stdout(
      values["dry-run"]
        ? (removable.length === 0
          ? "Nothing to remove."
          : removable.map((p) => `Would remove ${p}`).join("\n"))
        : removeCommands(dir, removable, ctx),
    );
    return 0;
  }
  const { path, settings, removable, mcp: removal } = planUninstall(values, where, ctx);
  const found = settings?.merge.removed ?? 0;
  const nothing = `No docsearch-hook entries in ${path}${settings ? "" : " (it does not exist)"}.`;
  const mcp = mcpRemoval(removal, ctx);

  if (values["dry-run"]) {
    ctx.stdout([
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
    const backup = applySettings(settings, ctx);
    lines.push(
      `Removed ${count(found, "docsearch-hook entry", "docsearch-hook entries")} from ${path}.`,
      ...keptAs(backup),
    );
  } else lines.push(nothing);
  const dir = where.commandsDir;
  if (typeof dir === "string" && removable.length > 0) lines.push(removeCommands(dir, removable, ctx));
  lines.push(...mcp.apply());
  const config = userConfigPath(ctx.env, ctx.os);
  const state = stateDir(ctx.env, ctx.os);
  lines.push(
    `Kept your config${config ? ` (${config})` : ""} and the recorded state${state ? ` (${state})` : ""}: ` +
      "delete them yourself if you no longer want them.",
  );
  ctx.stdout(lines.join("\n"));
  return 0;
}
