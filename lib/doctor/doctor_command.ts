/**
 * `docsearch-hook doctor`: gathers the facts (settings files, config, MCP servers; facts.ts), judges them
 * (checks.ts), tries the state database (state_check.ts) and a synthetic WebSearch through the real hook code
 * (self_test.ts), and prints one line per check with a fix for each problem (report.ts). Exit 1 when anything
 * is broken. It changes nothing of the user's; the self-test uses a throwaway state.
 */
import type { CommandContext } from "../cli/context.ts";
import { homeDir } from "../paths.ts";
import { describeUpkeep, readProgress, upkeepProject } from "../project/upkeep_progress.ts";
import {
  binaryCheck,
  type Check,
  configChecks,
  databaseChecks,
  dependencyDocsCheck,
  duplicateKeywordChecks,
  killSwitchCheck,
  mcpChecks,
  publishedDocsCheck,
  type PublishedFact,
  registeredAgents,
  registrationChecks,
  unreadableMcpFileChecks,
} from "./checks.ts";
import { gatherFacts } from "./facts.ts";
import { failed, formatChecks, jsonReport } from "./report.ts";
import { selfTest } from "./self_test.ts";
import { stateCheck } from "./state_check.ts";

export interface DoctorArgs {
  values: { json?: boolean; config?: string };
}

/** How long the state check waits for the write lock before it calls the state busy. */
const STATE_LOCK_WAIT_MS = 2000;

/** The published docs fetched for the project's packages; loaded only here, with the project readers. */
async function publishedFacts(context: CommandContext, project: string): Promise<PublishedFact[]> {
  if (context.stateDir === undefined) return [];
  try {
    const { projectPublished } = await import("../project/index_project.ts");
    return projectPublished(context, project);
  } catch {
    // A project that cannot be read has nothing to say here; the dependency docs line says why.
    return [];
  }
}

export async function run({ values }: DoctorArgs, context: CommandContext): Promise<number> {
  const { env, os } = context;
  const facts = gatherFacts(values.config, context);
  const { config, files, mcp } = facts;
  // The project whose dependency docs a session here keeps.
  const project = upkeepProject(context) ?? context.cwd;
  const progress = context.stateDir === undefined ? undefined : readProgress(os, context.stateDir, project);
  // Each agent's MCP tools are its own servers: those of the agents docsearch-hook is registered with (Claude
  // Code's when it is registered with none, as install registers with Claude Code by default).
  const registered = registeredAgents(facts.settings, facts.own, facts.plugin);
  const judgedAgents = registered.length > 0 ? registered : ["claude" as const];
  const checks: Check[] = [
    binaryCheck(facts.self, facts.runtime, files),
    ...registrationChecks(facts.settings, facts.selfRegistered, files, facts.own, facts.plugin),
    ...configChecks(config, facts.location.paths, facts.location.explicit),
    ...duplicateKeywordChecks(config),
    ...databaseChecks(config, homeDir(env, os), files, os, context.stateDir, facts.passagesIn),
    ...unreadableMcpFileChecks(mcp.unreadable),
    ...judgedAgents.flatMap((agent) =>
      mcpChecks(config, mcp.byAgent[agent].servers, mcp.byAgent[agent].lookedIn, {
        agent,
        named: judgedAgents.length > 1,
        self: facts.selfRegistered,
        files,
      })
    ),
    ...dependencyDocsCheck(project, describeUpkeep(config.dependencyDocs.auto, progress, context.now())),
    ...publishedDocsCheck(project, config.dependencyDocs.fetch, await publishedFacts(context, project)),
    await stateCheck(STATE_LOCK_WAIT_MS, context),
    killSwitchCheck(env),
    await selfTest(values.config, config, facts.agent),
  ];
  context.stdout(values.json ? jsonReport(checks) : formatChecks(checks));
  return failed(checks) ? 1 : 0;
}
