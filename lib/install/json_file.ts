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
}

/** Reads the file (none is `{}`) and merges; a file that cannot be read or rewritten exactly fails, unwritten. */
export function planSettings<M extends JsonChange>(
  path: string,
  change: (settings: Settings) => M,
): SettingsPlan<M> {
  const before = readIfExists(path);
  try {
    const merge = change(parseSettings(before ?? "", path));
    if (merge.changed) checkRewritable(before ?? "", path);
    const after = merge.changed ? formatSettings(merge.settings, layoutOf(before)) : before ?? "";
    return { path, before, after, merge };
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

/** Writes the new content after a backup of the old, named by `now`'s time; returns the backup's path. */
export function applySettings(plan: SettingsPlan, now: () => number): string | undefined {
  if (plan.before === undefined) {
    makeDir(dirName(plan.path));
    writeAtomically(plan.path, plan.after);
    return undefined;
  }
  const backup = backUp(plan.path, new Date(now()));
  writeAtomically(plan.path, plan.after);
  return backup;
}
