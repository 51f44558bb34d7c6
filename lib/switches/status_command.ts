/** `docsearch-hook status`: what is on and off for a session, and why. */
import type { CommandContext } from "../cli/context.ts";
import { escapeControl } from "../cli/io.ts";
import { projectDirectory } from "../config/layers.ts";
import type { Config } from "../config/types.ts";
import type { Env } from "../paths.ts";
import { describeUpkeep, readProgress } from "../project/upkeep_progress.ts";
import { type Candidate, switchCandidates } from "./names.ts";
import { killSwitchOn, NO_SWITCHES, offReason, type SessionSwitches } from "./switches.ts";
import { describeSession, SESSION_HINT, type SessionChoice, sessionLook } from "./session_target.ts";

export interface SwitchLine {
  kind: "feature" | "database";
  name: string;
  on: boolean;
  /** Why it is off; absent when on. */
  why?: string;
  description: string;
}

export function switchLines(
  candidates: readonly Candidate[],
  config: Config,
  switches: SessionSwitches,
  killSwitch: boolean,
): SwitchLine[] {
  return candidates.map(({ target, name, description, aliases }) => {
    const why = offReason(target, config, switches, killSwitch);
    const topics = aliases.length > 0 ? ` (keywords: ${aliases.join(", ")})` : "";
    return {
      kind: target.kind,
      name,
      on: why === undefined,
      ...(why === undefined ? {} : { why }),
      description: description + topics,
    };
  });
}

/** Aligned lines under "Features" and "Databases"; `withState` adds on/off and why. */
export function formatLines(lines: readonly SwitchLine[], withState: boolean): string {
  const width = Math.max(...lines.map((l) => l.name.length));
  const row = (l: SwitchLine) => {
    const state = withState ? `${l.on ? "on " : "off"}  ` : "";
    const why = withState && l.why ? `  [off: ${l.why}]` : "";
    return `  ${l.name.padEnd(width)}  ${state}${l.description}${why}`;
  };
  const databases = lines.filter((l) => l.kind === "database");
  return [
    "Features:",
    ...lines.filter((l) => l.kind === "feature").map(row),
    "Databases:",
    ...(databases.length > 0 ? databases.map(row) : ["  (none configured: see docsearch-hook check)"]),
  ].join("\n");
}

export interface StatusReport {
  session?: { id: string; via: string; seen: boolean; description: string };
  killSwitch: boolean;
  switches: SwitchLine[];
  configFiles: string[];
  /** What the config's files could not be read as: each skips what it names (check and doctor say more). */
  configProblems: string[];
  /** How the background upkeep of the project's dependency docs is doing, when there is something to say. */
  dependencyDocs?: { project: string; ok: boolean; text: string };
}

export function statusReport(
  config: Config,
  choice: SessionChoice | undefined,
  env: Env,
  now: number,
): StatusReport {
  const switches = choice?.row?.switches ?? NO_SWITCHES;
  const killSwitch = killSwitchOn(env);
  return {
    session: choice && {
      id: choice.id,
      via: choice.via,
      seen: choice.row !== undefined,
      description: describeSession(choice, now),
    },
    killSwitch,
    switches: switchLines(switchCandidates(config), config, switches, killSwitch),
    configFiles: config.files,
    configProblems: config.problems,
  };
}

export function formatStatus(report: StatusReport): string {
  const lines = [
    report.session
      ? `Status for ${escapeControl(report.session.description)}:`
      : `No session found for this directory (${SESSION_HINT}); showing what holds for every session:`,
    formatLines(report.switches, true),
  ];
  if (report.dependencyDocs) {
    lines.push(`Dependency docs of ${report.dependencyDocs.project}: ${report.dependencyDocs.text}`);
  }
  if (report.killSwitch) {
    lines.push("DOCSEARCH_HOOK_DISABLED is set: every hook action is a silent allow, in every session.");
  }
  lines.push(
    `Config: ${report.configFiles.length > 0 ? report.configFiles.join(", ") : "no config file found"}`,
    ...report.configProblems.map((problem) => `  problem: ${problem} (docsearch-hook check lists them)`),
    "Change for this session: docsearch-hook disable <name> / enable <name> (in Claude Code: /docsearch:disable, /docsearch:enable)",
  );
  return lines.join("\n");
}

export interface StatusArgs {
  values: { session?: string; json?: boolean; config?: string; slash?: boolean };
}

export function run({ values }: StatusArgs, context: CommandContext): number {
  const { choice, config } = sessionLook(values, context);
  const report = statusReport(config, choice, context.env, context.now());
  // The session's project, as its config was looked up for.
  const project = projectDirectory(context.env, choice?.row?.cwd ?? context.cwd);
  if (project !== undefined) {
    const progress = context.stateDir === undefined
      ? undefined
      : readProgress(context.os, context.stateDir, project);
    const upkeep = describeUpkeep(config.dependencyDocs.auto, progress, context.now());
    if (upkeep !== undefined) report.dependencyDocs = { project, ...upkeep };
  }
  context.stdout(values.json ? JSON.stringify(report, null, 2) : formatStatus(report));
  return 0;
}
