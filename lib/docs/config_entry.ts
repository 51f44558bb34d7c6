/**
 * The config entry that sends the redirect to a built-in index: `index add` writes it so that a denied web
 * search names the built-in search with the literal arguments that search this index. The entry names it
 * BUILT_IN_TOOL however docsearch-hook is installed; the hook gives the agent its own name for it
 * (builtInToolName), so an entry written under one install works under the other. Pure: the config as parsed
 * JSON in, the new one and what changed out.
 */
import { SettingsError } from "../install/settings.ts";

import { BUILT_IN_TOOL, isBuiltInTool } from "./built_in.ts";

export interface IndexEntry {
  name: string;
  /** The index file, shown in the guidance and checked by `doctor`. */
  path: string;
  keywords?: string[];
  domains?: string[];
  /** Domains for an entry that has none yet (a crawled site's host); never replaces the user's. */
  defaultDomains?: string[];
  /** The host of a site this index no longer holds (`add --replace`): not one of the entry's domains now. */
  staleDomain?: string;
  description?: string;
  /** Where the docs came from, for a default description. */
  source: string;
}

export interface EntryChange {
  config: Record<string, unknown>;
  change: "added" | "updated" | "unchanged";
  /** The tool the entry named before, when it named another one (e.g. LEANN's). */
  replacedTool?: string;
}

type Entry = Record<string, unknown>;

/** A database is called by its name, else by its first keyword (as configs of the original Python hook name none). */
const entryName = (entry: Entry): unknown =>
  entry.name ?? (Array.isArray(entry.keywords) ? entry.keywords[0] : undefined);

function databasesOf(config: Record<string, unknown>): Entry[] {
  const databases = config.databases ?? [];
  if (!Array.isArray(databases)) {
    throw new SettingsError(
      '"databases" is not a list',
      "make it a list of database entries (docsearch-hook doctor)",
    );
  }
  return databases as Entry[];
}

/** An entry given no description gets `<name> documentation (from <source>)`: this follows the name. */
const FROM_SOURCE = " documentation (from ";

/** Adds the index's entry, or points the entry of that name at the built-in tool, keeping what the user set. */
export function withIndexEntry(config: Record<string, unknown>, index: IndexEntry): EntryChange {
  const databases = databasesOf(config);
  const at = databases.findIndex((entry) => entryName(entry) === index.name);
  const old: Entry = at === -1 ? {} : databases[at];
  // The old entry's domains, but the host of a site the index no longer holds.
  const oldDomains = Array.isArray(old.domains) && index.staleDomain !== undefined
    ? old.domains.filter((domain) => domain !== index.staleDomain)
    : old.domains;
  const domains = index.domains ??
    (Array.isArray(oldDomains) && oldDomains.length === 0 && index.staleDomain !== undefined
      ? undefined
      : oldDomains) ??
    index.defaultDomains;
  const entry: Entry = {
    ...old,
    name: index.name,
    keywords: index.keywords ?? old.keywords ?? [index.name],
    ...domains === undefined ? {} : { domains },
    path: index.path,
    mcp_tool_name: BUILT_IN_TOOL,
    tool_args: { index: index.name, query: "{query}" },
    // The description this function wrote says where the docs came from: it follows a new source.
    description: index.description ??
      (typeof old.description === "string" && !old.description.startsWith(`${index.name}${FROM_SOURCE}`)
        ? old.description
        : `${index.name}${FROM_SOURCE}${index.source})`),
  };
  // The built-in tool takes `index`, not LEANN's `index_name`; left in, the guidance would pass both.
  delete entry.index_name;
  // Copied with the rest of the old entry (where it stood, so an unchanged entry compares equal): gone when
  // all it held was the replaced site's host.
  if (domains === undefined) delete entry.domains;
  const replacedTool = typeof old.mcp_tool_name === "string" && !isBuiltInTool(old.mcp_tool_name)
    ? old.mcp_tool_name
    : undefined;
  if (at !== -1 && JSON.stringify(entry) === JSON.stringify(old)) {
    return { config, change: "unchanged" };
  }
  const next = at === -1 ? [...databases, entry] : databases.map((item, i) => i === at ? entry : item);
  return { config: { ...config, databases: next }, change: at === -1 ? "added" : "updated", replacedTool };
}

/** Drops the entry `index add` made for this index; an entry naming another tool is the user's and stays. */
export function withoutIndexEntry(config: Record<string, unknown>, name: string): EntryChange {
  const databases = databasesOf(config);
  const kept = databases.filter((entry) =>
    !(entryName(entry) === name && isBuiltInTool(entry.mcp_tool_name) &&
      (entry.tool_args as Entry | undefined)?.index === name)
  );
  if (kept.length === databases.length) return { config, change: "unchanged" };
  return { config: { ...config, databases: kept }, change: "updated" };
}

/** A database entry for one installed package's index, as `index add --project` writes them. */
export interface PackageEntry {
  /** The package's name, which the guidance shows ("zod"). */
  name: string;
  index: string;
  path: string;
  keywords: string[];
  description: string;
}

/** The entries `index add --project` manages: the built-in tool searching an index named for a package. */
const isPackageEntry = (entry: Entry, prefixes: readonly string[]) => {
  const index = (entry.tool_args as Entry | undefined)?.index;
  return isBuiltInTool(entry.mcp_tool_name) && typeof index === "string" &&
    prefixes.some((prefix) => index.startsWith(prefix));
};

/**
 * The project's package entries brought up to date with `entries`: an upgraded package's entry names the new
 * version's index and description, in its place, keeping what the user set in it (`enabled`, domains, their
 * own keywords); a dependency no longer there loses its entry; a new one is added at the end. Other entries
 * are kept as they are.
 */
export function withPackageEntries(
  config: Record<string, unknown>,
  entries: readonly PackageEntry[],
  prefixes: readonly string[],
): EntryChange {
  const databases = databasesOf(config);
  const wanted = new Map(entries.map((entry) => [entry.name, entry]));
  const ours = (entry: PackageEntry, old: Entry): Entry => ({
    ...old,
    name: entry.name,
    keywords: old.keywords ?? entry.keywords,
    path: entry.path,
    mcp_tool_name: BUILT_IN_TOOL,
    tool_args: { index: entry.index, query: "{query}" },
    description: entry.description,
  });
  const placed = new Set<string>();
  const next = databases.flatMap((old) => {
    if (!isPackageEntry(old, prefixes)) return [old];
    const entry = wanted.get(String(old.name));
    if (entry === undefined || placed.has(entry.name)) return [];
    placed.add(entry.name);
    return [ours(entry, old)];
  });
  for (const entry of entries) if (!placed.has(entry.name)) next.push(ours(entry, {}));
  if (JSON.stringify(next) === JSON.stringify(databases)) return { config, change: "unchanged" };
  return { config: { ...config, databases: next }, change: databases.length === 0 ? "added" : "updated" };
}
