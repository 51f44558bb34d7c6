/** `docsearch-hook prune`: deletes captured data past the retention (config, or --older-than). */
import type { CommandContext } from "../cli/context.ts";
import { parseDuration } from "../cli/duration.ts";
import { commandConfig } from "../config/resolve.ts";
import { StateStore } from "./store.ts";
import { explainingCorruption, noStateYet, openStateForCommand } from "./open_state.ts";

export interface PruneArgs {
  values: { "older-than"?: string; config?: string };
}

export function run({ values }: PruneArgs, context: CommandContext): number {
  const { env, os, cwd, now, stdout: print, stderr: printError } = context;
  let window = values["older-than"];
  if (window === undefined) {
    window = `${commandConfig(values.config, cwd, env, os).config.capture.retentionDays}d`;
  }
  const before = now() - parseDuration(window, "older-than");
  const { db, file } = openStateForCommand(context);
  if (db === undefined) {
    printError(noStateYet(file));
    return 0;
  }
  using store = new StateStore(db);
  const counts = explainingCorruption(file, () => store.prune(before));
  print(
    `Deleted what is older than ${window} (before ${new Date(before).toISOString()}): ` +
      `${counts.observations} observations, ${counts.redirects} redirects, ${counts.hookRuns} hook runs, ` +
      `${counts.denials} escape-hatch records, ${counts.sessions} sessions.`,
  );
  return 0;
}
