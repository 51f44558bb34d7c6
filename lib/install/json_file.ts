/**
 * A JSON file the user owns (agent settings, ~/.claude.json, our config) changed by a pure merge: planned
 * first (so `--dry-run` can show it and a refusal writes nothing), then written after a backup, atomically.
 * The file is edited in place (in_place.ts): comments, key order, formatting and numbers stay as written
 * wherever the merge changed nothing.
 */
import { Problem } from "../errors.ts";
import { backUp, makeDir, readIfExists, writeAtomically, type Writer } from "../files.ts";
import { dirName } from "../paths.ts";
import { unifiedDiff } from "./diff.ts";
import { editInPlace, sameJson } from "./in_place.ts";
import { formatSettings, layoutOf, parseSettings, type Settings, SettingsError } from "./settings.ts";

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
  /** The agent reads the file with comments (JSONC). */
  comments?: boolean;
  /** A plan for the same file that is applied first: this one starts from what that one writes. */
  after?: SettingsPlan;
}

/** Reads the file (none is `{}`) and merges; a file that cannot be read fails, unwritten. */
export function planSettings<M extends JsonChange>(
  path: string,
  change: (settings: Settings) => M,
  { comments = false, after: first }: PlanOptions = {},
): SettingsPlan<M> {
  const chained = first?.merge.changed === true;
  const before = first === undefined ? readIfExists(path) : chained ? first.after : first.before;
  try {
    const settings = parseSettings(before ?? "", path, comments);
    const merge = change(settings);
    const after = merge.changed
      ? edited(before ?? "", settings, merge.settings, path, comments)
      : before ?? "";
    return { path, before, after, merge, ...(chained ? { chained } : {}) };
  } catch (error) {
    if (!(error instanceof SettingsError)) throw error;
    throw new Problem(`${error.message}; nothing was changed`, error.hint);
  }
}

/** The file's text changed to hold `next`: a new file when there was none (or only blanks). */
function edited(text: string, settings: Settings, next: Settings, path: string, comments: boolean): string {
  const layout = layoutOf(text);
  if (text.trim() === "") return formatSettings(next, layout);
  const after = editInPlace(text, settings, next, layout);
  // What the agent will read back must be exactly the merge: anything else is not written.
  if (!sameJson(parseSettings(after, path, comments), next)) {
    throw new SettingsError(
      `${path}: the change could not be made without changing more of the file`,
      "make the change by hand (docs/install.md#by-hand), and please report this as a bug",
    );
  }
  return after;
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
export function applySettings(plan: SettingsPlan, at: Writer & { now: () => number }): string | undefined {
  if (plan.before === undefined || plan.chained) {
    makeDir(dirName(plan.path));
    writeAtomically(plan.path, plan.after, at);
    return undefined;
  }
  const backup = backUp(plan.path, new Date(at.now()), at.os);
  writeAtomically(plan.path, plan.after, at);
  return backup;
}
