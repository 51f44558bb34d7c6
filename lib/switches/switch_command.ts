/**
 * `docsearch-hook disable <name>` / `enable <name>`: a database or a feature off (or back on) for one
 * session only. Exit 0 when done or nothing needed doing (including what the config or `all` keeps off: the
 * message says so), 1 when the name matches nothing or several things, or no session can be found.
 */
import { Problem } from "../errors.ts";
import type { CommandContext } from "../cli/context.ts";
import type { Config } from "../config/types.ts";
import { StateStore } from "../state/store.ts";
import { type Candidate, resolveSwitch, switchCandidates } from "./names.ts";
import { changeSwitch, killSwitchOn, NO_SWITCHES, type SwitchChange, type SwitchTarget } from "./switches.ts";
import { createStateForCommand, explainingCorruption } from "../state/open_state.ts";
import { describeSession, SESSION_HINT, sessionContext } from "./session_target.ts";
import { formatLines, switchLines } from "./status_command.ts";

export type SwitchVerb = "disable" | "enable";

export interface SwitchArgs {
  values: { session?: string; config?: string };
  positionals: string[];
}

function what(target: SwitchTarget): string {
  return target.kind === "feature"
    ? target.name === "all" ? "everything (all)" : `the ${target.name} feature`
    : `the "${target.database.name}" docs`;
}

/** What turning it off means, in the user's terms. */
function effectOff(target: SwitchTarget): string {
  if (target.kind === "database") {
    return `Web searches about ${target.database.name} pass through and it is left out of context hints.`;
  }
  return {
    redirect: "Web searches pass through.",
    capture: "No more observations are recorded (denials and the hook's latency are still counted).",
    context: "No more notes or hints about local docs.",
    all: "docsearch-hook stays out of the way.",
  }[target.name];
}

function usage(verb: SwitchVerb): string {
  return `Usage: docsearch-hook ${verb} <name>  (in Claude Code: /docsearch:${verb} <name>)`;
}

const listing = (candidates: Candidate[], config: Config) =>
  formatLines(switchLines(candidates, config, NO_SWITCHES, false), false);

const capitalized = (text: string) => text[0].toUpperCase() + text.slice(1);

export function changeMessage(verb: SwitchVerb, target: SwitchTarget, change: SwitchChange): string {
  const thing = what(target);
  const Thing = capitalized(thing);
  switch (change.outcome) {
    case "changed":
      return verb === "disable"
        ? `Disabled ${thing} for this session. ${effectOff(target)} Other sessions are not affected.`
        : `Re-enabled ${thing} for this session.`;
    case "already":
      return verb === "disable"
        ? `${Thing} is already disabled for this session.`
        : `${Thing} is not disabled for this session.`;
    case "config-off":
      return verb === "disable"
        ? `${Thing} is already off for every session (${change.why}).`
        : `${Thing} stays off: ${change.why}, which a session switch cannot override.`;
    case "under-all":
      return `${Thing} is off because "all" is disabled for this session.`;
  }
}

export function run(verb: SwitchVerb, { values, positionals }: SwitchArgs, context: CommandContext): number {
  const { env, cwd, now, stdout: print } = context;
  const { db: existing, file, choice, config } = sessionContext(values, context);
  const candidates = switchCandidates(config);
  const input = positionals.join(" ").trim();
  if (input === "") {
    print(
      `What can be switched ${verb === "disable" ? "off" : "on"} for a session:\n${
        listing(candidates, config)
      }\n${usage(verb)}`,
    );
    return 0;
  }
  const resolution = resolveSwitch(input, candidates);
  if (resolution.kind === "ambiguous") {
    throw new Problem(
      `several things match "${input}":\n${
        resolution.candidates.map((c) => `  - ${c.name}: ${c.description}`).join("\n")
      }`,
      `be more specific: docsearch-hook ${verb} <exact name>`,
    );
  }
  if (resolution.kind === "none") {
    throw new Problem(
      `nothing matches "${input}". What exists:\n${listing(candidates, config)}`,
      `use one of the names above: docsearch-hook ${verb} <name>`,
    );
  }
  const target = resolution.candidate.target;
  if (choice === undefined) {
    throw new Problem(`no agent session found for ${cwd}`, SESSION_HINT);
  }
  // Closed on the way out, like the hook's: a WAL left behind would be read whole by the next event.
  using store = new StateStore(existing ?? createStateForCommand(context));
  const { change, allOff } = explainingCorruption(
    file,
    () =>
      store.updateSwitches(choice.id, now(), (current) => {
        const result = changeSwitch(current, target, verb === "enable", config);
        return {
          switches: result.outcome === "changed" ? result.switches : undefined,
          result: { change: result, allOff: current.features.includes("all") },
        };
      }),
  );
  const lines = [`In ${describeSession(choice, now())}:`, changeMessage(verb, target, change)];
  if (change.outcome === "changed" && allOff && !(target.kind === "feature" && target.name === "all")) {
    lines.push('It stays off while "all" is disabled for this session: docsearch-hook enable all.');
  }
  if (killSwitchOn(env)) {
    lines.push("Note: DOCSEARCH_HOOK_DISABLED is set, so the hook does nothing anyway.");
  }
  if (change.outcome === "changed" && verb === "disable") {
    lines.push(`Turn it back on: docsearch-hook enable ${resolution.candidate.name}`);
  }
  if (change.outcome === "under-all") {
    lines.push(
      "Turn everything back on with: docsearch-hook enable all (then disable what should stay off).",
    );
  }
  print(lines.join("\n"));
  return 0;
}
