/**
 * The user config's database entries that the `index` commands keep in step with the indexes: `add` and
 * `import` point an entry at the built-in search tool, `remove` takes it away. The config keeps its layout,
 * with a backup first.
 */
import { Problem, UsageError } from "../errors.ts";
import type { CommandContext } from "../cli/context.ts";
import { userConfigPath } from "../config/layers.ts";
import { type EntryChange, withIndexEntry } from "./config_entry.ts";
import { indexFile } from "./indexes.ts";
import { BUILT_IN_TOOL, SERVER_NAME } from "./built_in.ts";
import { builtInServerFound } from "../doctor/facts.ts";
import { proseWord } from "../project/keywords.ts";
import { applySettings, planSettings } from "../install/json_file.ts";
import type { Settings } from "../install/settings.ts";
import { pruneBackups, type Writer } from "../files.ts";

/** The options of `index` these read. */
export interface ConfigValues {
  keywords?: string;
  domains?: string;
  description?: string;
  "no-config"?: boolean;
  config?: string;
}

export const isUrl = (source: string): boolean => /^https?:\/\//i.test(source);

/** "a, b,c" → ["a", "b", "c"]; an option given but empty is a mistake, not "none". */
export function list(option: string, value: string | undefined): string[] | undefined {
  if (value === undefined) return undefined;
  const items = value.split(",").map((item) => item.trim()).filter((item) => item !== "");
  if (items.length === 0) throw new UsageError(`--${option} needs at least one value, e.g. --${option} a,b`);
  return items;
}

/** The config file `index add` and `remove` edit: `--config`, DOCSEARCH_CONFIG, else the user's. */
export function configFile(values: ConfigValues, { env, os }: Pick<CommandContext, "env" | "os">): string {
  const path = values.config ?? (env("DOCSEARCH_CONFIG") || userConfigPath(env, os));
  if (path === undefined) throw new Problem("HOME is not set", "pass --config PATH");
  return path;
}

/**
 * Rewrites the config through `change`, keeping its layout, after a backup (named for the time `at.now` says;
 * only the newest few are kept, as every index add, remove and import makes one: pruneBackups). A config that
 * cannot be read or rewritten exactly is left alone, and the message says the index itself is built.
 */
export function editConfig(
  path: string,
  change: (config: Settings) => EntryChange,
  at: Writer & { now: () => number },
): EntryChange {
  try {
    const plan = planSettings(path, (config) => {
      const result = change(config);
      return { ...result, settings: result.config, changed: result.change !== "unchanged" };
    });
    if (plan.merge.changed && applySettings(plan, at) !== undefined) pruneBackups(path, at.os);
    return plan.merge;
  } catch (error) {
    if (!(error instanceof Problem)) throw error;
    throw new Problem(
      `the index is built, but ${path} was not updated: ${error.message}`,
      error.hint ?? "fix the config (docsearch-hook doctor), then run the same command again",
    );
  }
}

/**
 * The entry for the index `name`, built from `source`. A crawled site's host becomes its domain when none is
 * given, unless `trustSource` is false: the source an imported file names is its author's word, and a domain
 * there would deny fetches of that host.
 */
export function updateConfig(
  context: CommandContext,
  name: string,
  source: string,
  values: ConfigValues,
  { trustSource = true, replaced }: {
    /** False for an imported file's word: a domain it names would deny fetches of that host. */
    trustSource?: boolean;
    /** The source `--replace` took the place of: a domain the entry got from it goes. */
    replaced?: string;
  } = {},
): void {
  if (values["no-config"]) return;
  const path = configFile(values, context);
  const host = isUrl(source) ? new URL(source).hostname : undefined;
  // The replaced site's host, unless the new source is on it too (another version of the same docs).
  const stale = replaced !== undefined && isUrl(replaced) ? new URL(replaced).hostname : undefined;

  const result = editConfig(path, (config) =>
    withIndexEntry(config, {
      name,
      path: indexFile(context, name),
      source,
      keywords: list("keywords", values.keywords),
      domains: list("domains", values.domains),
      defaultDomains: trustSource && host !== undefined ? [host] : undefined,
      ...stale !== undefined && stale !== host ? { staleDomain: stale } : {},
      description: values.description,
    }), context);
  if (result.change === "unchanged") return;
  // A new entry's keyword is its name unless keywords are given: an ordinary word matches searches about
  // anything.
  if (result.change === "added" && values.keywords === undefined && proseWord(name)) {
    context.stderr(
      `docsearch-hook index: its keyword is "${name}", an ordinary word: web searches that merely use it are ` +
        "matched too (the hook answers them only when these docs hold an answer); --keywords K,K sets " +
        "precise ones",
    );
  }
  context.stdout(
    `${result.change === "added" ? "Added" : "Updated"} the database "${name}" in ${path}: web searches ` +
      `about it now go to ${BUILT_IN_TOOL}${
        result.replacedTool ? ` (it named ${result.replacedTool} before)` : ""
      }.`,
  );
  // The denials name the server's tool: without the server, the agent is sent to a tool it does not have.
  if (!builtInServerFound(context)) {
    context.stdout(
      `The agent reaches these docs through docsearch-hook's MCP server "${SERVER_NAME}", which is not ` +
        "registered: run docsearch-hook install --mcp (with --agent for another agent than Claude Code) or " +
        "install the plugin, then restart the agent.",
    );
  }
}
