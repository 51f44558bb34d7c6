/**
 * `docsearch-hook index add --project [DIR]`: the docs of a project's direct dependencies, offline, at
 * exactly the installed versions. One index per package@version, shared by every project that uses that
 * version (built once, found again by name); the project's local config layer
 * (`.claude/docsearch.local.json`, not committed) lists the ones that apply to it, with keywords precise
 * enough that a common-word package name does not capture ordinary searches (project/keywords.ts).
 */
import type { CommandContext } from "../cli/context.ts";
import { count } from "../cli/io.ts";
import { Problem } from "../errors.ts";
import { type PackageEntry, withPackageEntries } from "../docs/config_entry.ts";
import { indexFile, type IndexHome } from "../docs/indexes.ts";
import { DocsIndex } from "../docs/store.ts";
import { isDirectory, isFile } from "../files.ts";
import { type Env, join, type OS, resolvePath } from "../paths.ts";
import { type Lock, type LockKind, lockPolling } from "./build_lock.ts";
import { recordLockfiles } from "./stamp.ts";
import { packageKeywords } from "./keywords.ts";
import { denoDependencies } from "./deno.ts";
import { type InstalledPackage, npmDependencies, type ProjectDependencies } from "./npm.ts";
import { indexPackage } from "./package_docs.ts";
import { pythonDependencies } from "./python.ts";
import { packageId, packageIndexName } from "./index_names.ts";
import { indexDistribution } from "./python_docs.ts";
import { goDependencies } from "./go.ts";
import { indexGoModule } from "./go_docs.ts";
import { rustDependencies } from "./cargo.ts";
import { indexCrate } from "./crate_docs.ts";
import { editConfig } from "../docs/index_config.ts";
import type { PublishedFact } from "../doctor/checks.ts";
import { commandConfig } from "../config/resolve.ts";
import {
  describePublished,
  fetchDue,
  fetchPublished,
  networkFetchDeps,
  type PublishedState,
  publishedState,
} from "./published_docs.ts";

/** The prefixes of the index names this command gives, which mark the config entries it manages. */
export const PREFIXES = ["npm-", "pypi-", "go-", "crates-"];

/** How each ecosystem's packages are read, and what their docs are made of (the entry's description says). */
const ECOSYSTEMS = {
  npm: { index: indexPackage, keywords: "npm", holds: "README, docs, type declarations" },
  pypi: { index: indexDistribution, keywords: "python", holds: "description, docstrings" },
  go: { index: indexGoModule, keywords: "go", holds: "README, package docs, doc comments" },
  crates: { index: indexCrate, keywords: "rust", holds: "README, crate and item docs" },
} as const;

/**
 * The index of this package@version when it was built before (by any project), with its words; undefined when
 * it was not, or not to the end. Nothing is created: a reader's question.
 */
export function indexedBefore(
  home: IndexHome,
  pkg: InstalledPackage,
): { name: string; words: number } | undefined {
  const name = packageIndexName(pkg);
  const file = indexFile(home, name);
  if (!isFile(file)) return undefined;
  const index = DocsIndex.open(file);
  try {
    return !index.isOutdated && index.meta("package") === packageId(pkg)
      ? { name, words: Number(index.meta("words") ?? 0) }
      : undefined;
  } finally {
    index.close();
  }
}

/** A package@version's index: its name, how many words it holds, and whether it was there before. */
export interface PackageIndex {
  name: string;
  words: number;
  reused: boolean;
}

/** The index of this package@version: reused when it is there (another project built it), else built. */
export function packageIndex(home: IndexHome, pkg: InstalledPackage): PackageIndex {
  const before = indexedBefore(home, pkg);
  if (before !== undefined) return { ...before, reused: true };
  const name = packageIndexName(pkg);
  const index = DocsIndex.open(indexFile(home, name));
  try {
    // Unmarked first: a build cut short is never taken for this package's finished index.
    index.deleteMeta("package");
    index.upgrade();
    for (const source of index.stamps().keys()) index.remove(source);
    const { words } = ECOSYSTEMS[pkg.ecosystem].index(pkg, index, home.os);
    index.setMeta("root", pkg.dir);
    index.setMeta("words", String(words));
    // Last: an interrupted build is not taken for a finished one next time.
    index.setMeta("package", packageId(pkg));
    return { name, words, reused: false };
  } finally {
    index.close();
  }
}

/**
 * The config entry that sends web searches about the package to its index. However few its pages, the hook's
 * gate (lib/answer/answer.ts) denies a search only when they answer it: a one-function README answers what
 * it is about and lets the rest through, where a fixed word count would decide blind to the query. When the
 * package's published docs were fetched (published_docs.ts) and hold more than its installed copy, the entry
 * names their index, and its description says what they describe: the version of the tag, or the site's date.
 */
export function packageEntry(
  home: IndexHome,
  pkg: InstalledPackage,
  index: { name: string; words: number },
  packages: readonly InstalledPackage[],
  published?: PublishedState,
): PackageEntry {
  // An entry is known by its name: the npm package semver and the Rust crate semver are two.
  const shared = packages.some((other) => other.name === pkg.name && other.ecosystem !== pkg.ecosystem);
  const fetched = published !== undefined && "published" in published &&
      published.published.words > index.words
    ? published
    : undefined;
  const name = fetched?.index ?? index.name;
  return {
    name: shared ? `${pkg.name} (${pkg.ecosystem})` : pkg.name,
    index: name,
    path: indexFile(home, name),
    keywords: packageKeywords(ECOSYSTEMS[pkg.ecosystem].keywords, pkg.name),
    description: fetched === undefined
      ? `${pkg.name} ${pkg.version}, ${pkg.origin ?? "as installed in this project"} (${
        ECOSYSTEMS[pkg.ecosystem].holds
      })`
      : fetched.published.kind === "repository"
      ? `${fetched.published.label}, the version installed in this project`
      : `${fetched.published.label}; ${pkg.name} ${pkg.version} is installed in this project`,
  };
}

/** The project's own config layer, not committed, which lists its packages' indexes. */
export const localConfigPath = (os: OS, project: string): string =>
  join(os, project, ".claude", "docsearch.local.json");

/**
 * A project with several manifests: node_modules' copy of an npm package wins over Deno's cache, as Deno's
 * own resolution does; names of different ecosystems never clash, being keyed by ecosystem.
 */
function merged(found: (ProjectDependencies | undefined)[]): ProjectDependencies | undefined {
  const present = found.filter((dependencies) => dependencies !== undefined);
  if (present.length === 0) return undefined;
  const packages = new Map<string, InstalledPackage>();
  for (const pkg of present.flatMap((dependencies) => dependencies.packages)) {
    const key = `${pkg.ecosystem}:${pkg.name}`;
    if (!packages.has(key)) packages.set(key, pkg);
  }
  const installed = new Set([...packages.values()].map((pkg) => pkg.name));
  const missing = [...new Set(present.flatMap((dependencies) => dependencies.missing))]
    .filter((name) => !installed.has(name));
  return {
    packages: [...packages.values()].sort((a, b) => a.name < b.name ? -1 : 1),
    missing,
    lockfiles: [...new Set(present.flatMap((dependencies) => dependencies.lockfiles))],
  };
}

/**
 * The direct dependencies of the project in the folder `project`, installed, from all its manifests; undefined
 * when it has none. Python's own reading beside them, for what it says of the environment.
 */
export function installedDependencies(
  project: string,
  env: Env,
  os: OS,
): { dependencies?: ProjectDependencies; python?: ReturnType<typeof pythonDependencies> } {
  const python = pythonDependencies(project, env, os);
  const dependencies = merged([
    npmDependencies(project, os),
    denoDependencies(project, env, os),
    python,
    goDependencies(project, env, os),
    rustDependencies(project, env, os),
  ]);
  return { dependencies, python };
}

/** What is known of the published docs of the project's installed packages, for `doctor`. */
export function projectPublished(context: CommandContext, project: string): PublishedFact[] {
  const packages = installedDependencies(project, context.env, context.os).dependencies?.packages ?? [];
  return packages.flatMap((pkg): PublishedFact[] => {
    const state = publishedState(context, pkg);
    if (state === undefined) return [];
    const name = `${pkg.name} ${pkg.version}`;
    if ("published" in state) {
      const { label, kind, url, repository, at, cutShort } = state.published;
      return [{ pkg: name, fetched: { label, kind, url, repository, at, cutShort } }];
    }
    return ["failed" in state ? { pkg: name, failed: state.failed } : { pkg: name, none: state.none }];
  });
}

/** How often `index add --project` tries a lock another process holds. */
const LOCK_POLL_MS = 200;

const WAITING_FOR: Record<LockKind, string> = {
  build: "another build of dependency docs is running",
  fetch: "another fetch of published docs is running",
};

/** The lock, once whoever holds it lets go; said once when someone does. */
const waitForLock = (context: CommandContext, kind: LockKind): Promise<Lock> =>
  lockPolling(
    context,
    kind,
    LOCK_POLL_MS,
    () => context.stderr(`docsearch-hook index: ${WAITING_FOR[kind]}; waiting for it`),
  );

/** Indexes the docs of the direct dependencies of the project in `dir` (relative to the context's folder). */
export async function addProject(
  context: CommandContext,
  dir: string | undefined,
  values: { "no-config"?: boolean; config?: string },
): Promise<void> {
  const { env, os, stdout: print, stderr: printError } = context;
  const project = resolvePath(context.cwd, dir ?? ".", os);
  if (!isDirectory(project)) {
    throw new Problem(
      `there is no folder ${project}`,
      "run it in the project's folder, or pass the folder: docsearch-hook index add --project <folder>",
    );
  }
  const { dependencies, python } = installedDependencies(project, env, os);
  if (dependencies === undefined) {
    throw new Problem(
      `no package.json, deno.json, pyproject.toml, requirements.txt, Pipfile, go.mod or Cargo.toml in ${project}`,
      "run it in the project's folder, or pass the folder: docsearch-hook index add --project <folder>",
    );
  }
  const noPython = python !== undefined && python.environment === undefined && python.missing.length > 0
    ? {
      problem: `no Python environment found for ${project}: no activated virtualenv, no .venv, venv or env ` +
        "folder, no python3 on PATH",
      hint: "create the project's environment and install into it (python3 -m venv .venv && .venv/bin/pip " +
        "install -r requirements.txt), or activate it, then run this again",
    }
    : undefined;
  // With nothing else to index, a missing environment is the command's failure; beside npm packages, a note.
  if (noPython !== undefined && dependencies.packages.length === 0) {
    throw new Problem(noPython.problem, noPython.hint);
  }
  const built: { pkg: InstalledPackage; index: PackageIndex }[] = [];
  const lock = await waitForLock(context, "build");
  try {
    for (const pkg of dependencies.packages) built.push({ pkg, index: packageIndex(context, pkg) });
  } finally {
    lock.release();
  }
  // Fetched after the build lock is let go: a host that does not answer holds up no other project's build.
  const fetchOn = commandConfig(undefined, project, env, os).config.dependencyDocs.fetch;
  const thin = fetchOn
    ? built.filter(({ pkg, index }) => fetchDue(index.words, publishedState(context, pkg), context.now()))
    : [];
  if (thin.length > 0) {
    const fetching = await waitForLock(context, "fetch");
    const deps = networkFetchDeps(context.network, context.now);
    try {
      for (const { pkg, index } of thin) {
        // The one that held the lock may have fetched it.
        if (!fetchDue(index.words, publishedState(context, pkg), context.now())) continue;
        printError(
          `docsearch-hook index: ${pkg.name} ${pkg.version} ships little documentation: fetching its published docs`,
        );
        await fetchPublished(context, pkg, deps);
      }
    } finally {
      fetching.release();
    }
  }
  const entries: PackageEntry[] = [];
  const lines: string[] = [];
  for (const { pkg, index } of built) {
    const published = publishedState(context, pkg);
    entries.push(packageEntry(context, pkg, index, dependencies.packages, published));
    lines.push(
      `  ${pkg.name} ${pkg.version}: ${count(index.words, "word")}${index.reused ? " (indexed before)" : ""}${
        published === undefined ? "" : `; ${describePublished(published)}`
      }`,
    );
  }
  const rebuilt = built.filter(({ index }) => !index.reused).length;
  print(
    `Indexed the docs of ${
      count(dependencies.packages.length, "direct dependency", "direct dependencies")
    } of ${project}${
      python?.environment ? ` (Python: ${python.environment.prefix})` : ""
    } (${rebuilt} built, ${dependencies.packages.length - rebuilt} indexed before):\n${lines.join("\n")}`,
  );
  if (!values["no-config"]) {
    const config = values.config ?? localConfigPath(os, project);
    const change = editConfig(
      config,
      (current) => withPackageEntries(current, entries, PREFIXES),
      context,
    );
    print(
      change.change !== "unchanged"
        ? `${config} lists the ${
          count(entries.length, "package")
        } whose web searches now get the local docs' answer, when their pages hold one.`
        : entries.length === 0
        ? "No dependency is installed; nothing was added to the config."
        : `${config} already lists them.`,
    );
  }
  // What the docs were indexed from: a SessionStart after the next install sees that it changed.
  if (context.stateDir !== undefined) {
    recordLockfiles(os, context.stateDir, project, dependencies.lockfiles);
  }
  if (noPython !== undefined) printError(`docsearch-hook index: ${noPython.problem}; ${noPython.hint}`);
  else if (dependencies.missing.length > 0) {
    printError(
      `docsearch-hook index: not installed, so not indexed: ${dependencies.missing.join(", ")} ` +
        "(run the project's install, then this command again)",
    );
  }
}
