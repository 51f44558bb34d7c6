/**
 * A JSON file the user owns (agent settings, ~/.claude.json, our config) changed by a pure merge: planned
 * first (so `--dry-run` can show it and a refusal writes nothing), then written after a backup, atomically,
 * keeping its indentation and line endings.
 */
import { Problem } from "../errors.ts";
import { backUp, makeDir, readIfExists, writeAtomically } from "../files.ts";
import { dirName } from "../paths.ts";
import { unifiedDiff } from "./diff.ts";
import {
  checkRewritable,
  formatSettings,
  layoutOf,
  parseSettings,
  type Settings,
  SettingsError,
} from "./settings.ts";

/** What a merge gives back: the new content and whether its meaning changed (formatting aside). */
export interface JsonChange {
  settings: Settings;
  changed: boolean;
}

export interface SettingsPlan<M extends JsonChange = JsonChange> {
  path: string;
  before?: string;
  after: string;
  merge: M;
  /** Planned on top of another change to the same file, which makes the backup before either is written. */
  chained?: boolean;
}

export interface PlanOptions {
  /** The agent reads the file with comments (a rewrite is then refused: it would drop them). */
  comments?: boolean;
  /** A plan for the same file that is applied first: this one starts from what that one writes. */
  after?: SettingsPlan;
}

/** Reads the file (none is `{}`) and merges; a file that cannot be read or rewritten exactly fails, unwritten. */
export function planSettings<M extends JsonChange>(
  path: string,
  change: (settings: Settings) => M,
  { comments = false, after: first }: PlanOptions = {},
): SettingsPlan<M> {
  const chained = first?.merge.changed === true;
  const before = first === undefined ? readIfExists(path) : chained ? first.after : first.before;
  try {
    const merge = change(parseSettings(before ?? "", path, comments));
    if (merge.changed) checkRewritable(before ?? "", path);
    const after = merge.changed ? formatSettings(merge.settings, layoutOf(before)) : before ?? "";
    return { path, before, after, merge, ...(chained ? { chained } : {}) };
  } catch (error) {
    if (!(error instanceof SettingsError)) throw error;
    throw new Problem(`${error.message}; nothing was changed`, error.hint);
  }
}

export function diffOf(plan: SettingsPlan): string {
  return unifiedDiff(plan.before ?? "", plan.after, [
    plan.before === undefined ? "/dev/null" : plan.path,
    plan.path,
  ]);
}

/**
 * Writes the new content after a backup of the old, named by `now`'s time; returns the backup's path. A chained
 * plan makes none: the file it changes is the earlier plan's, whose backup holds the user's.
 */
export function applySettings(plan: SettingsPlan, now: () => number): string | undefined {
  if (plan.before === undefined || plan.chained) {
    makeDir(dirName(plan.path));
    writeAtomically(plan.path, plan.after);
    return undefined;
  }
  const backup = backUp(plan.path, new Date(now()));
  writeAtomically(plan.path, plan.after);
  return backup;
}
