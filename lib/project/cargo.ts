/**
 * A Rust project's direct dependencies as Cargo fetched them: the crates its `Cargo.toml` names (the
 * `dependencies`, `dev-dependencies` and `build-dependencies` tables, target-specific ones too, those of every
 * workspace member, `workspace = true` entries through `[workspace.dependencies]`, a renamed one by its
 * `package`), each at the version `Cargo.lock` pins for the member that names it, in Cargo's registry sources
 * (`$CARGO_HOME/registry/src/<registry>/<name>-<version>`, `CARGO_HOME` else `~/.cargo`), else in Debian's
 * (`/usr/share/cargo/registry/<name>-<version>`, a librust-*-dev package). A git dependency is read from
 * Cargo's checkout of the commit Cargo.lock pins (`$CARGO_HOME/git/checkouts/<repository>-<hash>/<short
 * commit>/`, the crate's folder in it), its version marked with that commit. Path dependencies are the
 * project's own code: they are left out.
 */
import { parse as parseToml, TomlError } from "smol-toml";
import { messageOf, Problem } from "../errors.ts";
import { entriesOf, isDirectory, isFile, readRegularTextCapped } from "../files.ts";
import { dirName, type Env, homeDir, join, type OS } from "../paths.ts";
import { debianPackages } from "./debian.ts";
import type { InstalledPackage, ProjectDependencies } from "./npm.ts";

/** A manifest or lockfile read here is small; a larger one is not read (a hostile checkout could make it anything). */
const MAX_MANIFEST_BYTES = 4 * 1024 * 1024;
/** Workspace members read, globs expanded: more than any real workspace has. */
const MAX_MEMBERS = 500;

/** Where Debian's librust-*-dev packages put a crate's source, as `<name>-<version>`. */
export const DEBIAN_CARGO_REGISTRY = "/usr/share/cargo/registry";

type Table = Record<string, unknown>;
const table = (value: unknown): Table =>
  typeof value === "object" && value !== null && !Array.isArray(value) ? value as Table : {};

/** A TOML file; undefined when there is none. One that does not parse is the project's to fix, and said. */
function readToml(path: string): Table | undefined {
  const text = readRegularTextCapped(path, MAX_MANIFEST_BYTES);
  if (text === undefined) return undefined;
  try {
    return parseToml(text) as Table;
  } catch (error) {
    const line = error instanceof TomlError ? ` (line ${error.line}, column ${error.column})` : "";
    throw new Problem(
      `${path} is not valid TOML${line}: ${messageOf(error).split("\n")[0]}`,
      "fix the file (cargo would refuse it too), then run this again",
    );
  }
}

/** Cargo's home: `CARGO_HOME`, else `~/.cargo`, as cargo decides it. */
export function cargoHome(env: Env, os: OS): string | undefined {
  const own = env("CARGO_HOME");
  if (own) return own;
  const home = homeDir(env, os);
  return home === undefined ? undefined : join(os, home, ".cargo");
}

const TABLES = [
  "dependencies",
  "dev-dependencies",
  "build-dependencies",
  "dev_dependencies",
  "build_dependencies",
];

/**
 * The registry and git crates a manifest depends on, by their real names: a table's key, or its `package`
 * when it renames one; `workspace = true` read through the workspace's own table. Path dependencies left out.
 */
export function manifestCrates(manifest: Table, workspaceDependencies: Table = {}): string[] {
  const tables = [manifest, ...Object.values(table(manifest.target))].flatMap((scope) =>
    TABLES.map((name) => table(table(scope)[name]))
  );
  const names: string[] = [];
  for (const dependencies of tables) {
    for (const [key, value] of Object.entries(dependencies)) {
      let spec = typeof value === "string" ? {} : table(value);
      if (spec.workspace === true) {
        const shared = workspaceDependencies[key];
        spec = { ...typeof shared === "string" ? {} : table(shared), ...spec };
      }
      if (spec.path !== undefined) continue;
      names.push(typeof spec.package === "string" ? spec.package : key);
    }
  }
  return names;
}

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\/-]/g, "\\$&");

/**
 * One segment of a member glob as Cargo's glob crate reads it, as a regex: `*`, `?`, `[abc]`, `[a-z]` and the
 * negation `[!a]`; a `]` right after the opening `[` (or `[!`) is one of the class's characters, and a `[` never
 * closed is itself. A class no regex can hold (`[z-a]`) matches its text literally: the manifest is the
 * project's, and its mistake must not stop the command.
 */
export function memberGlob(segment: string): RegExp {
  let source = "";
  for (let i = 0; i < segment.length; i++) {
    const char = segment[i];
    const negated = char === "[" && segment[i + 1] === "!";
    const close = char === "[" ? segment.indexOf("]", i + (negated ? 3 : 2)) : -1;
    if (char === "*") source += ".*";
    else if (char === "?") source += ".";
    else if (close === -1) source += escaped(char);
    else {
      const members = segment.slice(i + (negated ? 2 : 1), close).replace(/[\\\]^[]/g, "\\$&");
      source += `[${negated ? "^" : ""}${members}]`;
      i = close;
    }
  }
  try {
    return new RegExp(`^${source}$`);
  } catch {
    return new RegExp(`^${escaped(segment)}$`);
  }
}

/** `crates/*`, `tools/?x`: a member path's segments with Cargo's glob characters, matched against folders. */
function expandMember(root: string, pattern: string, os: OS): string[] {
  let found = [root];
  for (const segment of pattern.split(/[\\/]/).filter((part) => part !== "" && part !== ".")) {
    if (segment === "..") return [];
    if (!/[*?[]/.test(segment)) {
      found = found.map((dir) => join(os, dir, segment));
      continue;
    }
    const regex = memberGlob(segment);
    found = found.flatMap((dir) => {
      try {
        return [...Deno.readDirSync(dir)].filter((entry) => entry.isDirectory && regex.test(entry.name))
          .map((entry) => join(os, dir, entry.name)).sort();
      } catch {
        return [];
      }
    });
  }
  return found.filter((dir) => isFile(join(os, dir, "Cargo.toml")));
}

/** The workspace's root: the project itself, or the nearest folder above it whose manifest has `[workspace]`. */
function workspaceRoot(project: string, os: OS): string {
  for (let dir = project, depth = 0; depth < 8; depth++) {
    const parent = dirName(dir);
    if (parent === dir) break;
    dir = parent;
    if (
      isFile(join(os, dir, "Cargo.toml")) && readToml(join(os, dir, "Cargo.toml"))?.workspace !== undefined
    ) {
      return dir;
    }
  }
  return project;
}

interface LockedPackage {
  name: string;
  version: string;
  source?: string;
  dependencies: string[];
}

function lockedPackages(lock: Table): LockedPackage[] {
  const packages = Array.isArray(lock.package) ? lock.package : [];
  return packages.map(table).filter((p) => typeof p.name === "string" && typeof p.version === "string")
    .map((p) => ({
      name: p.name as string,
      version: p.version as string,
      ...typeof p.source === "string" ? { source: p.source } : {},
      dependencies: Array.isArray(p.dependencies) ? p.dependencies.filter((d) => typeof d === "string") : [],
    }));
}

/** What Cargo.lock pins a crate to: a registry's release, or a git repository's commit. */
export interface Locked {
  version: string;
  /** A git dependency's repository (its URL without Cargo's `?branch=…`) and the full commit. */
  git?: { url: string; commit: string };
}

/** `git+https://github.com/o/r?branch=main#<commit>`: the repository and the commit, when whole. */
function gitSource(source: string): Locked["git"] {
  const match = source.match(/^git\+([^?#]+)(?:\?[^#]*)?#([0-9a-f]{40})$/);
  return match ? { url: match[1], commit: match[2] } : undefined;
}

/**
 * What Cargo.lock pins `wanted` (real names) to, as the workspace members depend on them: a member's
 * `dependencies` name a crate alone (one version locked), or with its version when several are (and, for a
 * git one, its source). Only crates from a registry (a `source` of `registry+…` or `sparse+…`) or a git
 * repository at a commit count.
 */
export function lockedVersions(
  lock: Table,
  members: ReadonlySet<string>,
  wanted: ReadonlySet<string>,
): Map<string, Locked> {
  const packages = lockedPackages(lock);
  const found = new Map<string, Locked>();
  for (const member of packages.filter((p) => p.source === undefined && members.has(p.name))) {
    for (const reference of member.dependencies) {
      // "name", "name version", or "name version (source)" when one version is locked from two sources.
      const [name, version, quoted] = reference.split(" ");
      const from = quoted?.replace(/^\((.*)\)$/, "$1");
      if (!wanted.has(name) || found.has(name)) continue;
      for (const p of packages) {
        if (p.name !== name || (version !== undefined && p.version !== version)) continue;
        if (from !== undefined && p.source !== from) continue;
        const source = p.source ?? "";
        const git = gitSource(source);
        if (git !== undefined) found.set(name, { version: p.version, git });
        else if (/^(registry|sparse)\+/.test(source)) found.set(name, { version: p.version });
        else continue;
        break;
      }
    }
  }
  return found;
}

const CRATE_NAME = /^[A-Za-z0-9_-]+$/;
const VERSION = /^\d+\.\d+\.\d+[\w.+-]*$/;

/** A crate's source folder in Cargo's registry sources, any registry's; undefined when none has it. */
function registrySource(home: string | undefined, folder: string, os: OS): string | undefined {
  if (home === undefined) return undefined;
  const src = join(os, home, "registry", "src");
  let registries: string[];
  try {
    registries = [...Deno.readDirSync(src)].filter((entry) => entry.isDirectory).map((entry) => entry.name)
      .sort();
  } catch {
    return undefined;
  }
  return registries.map((registry) => join(os, src, registry, folder)).find(isDirectory);
}

/** Folders looked through for a git crate's manifest in its repository's checkout: more than real ones hold. */
const MAX_CHECKOUT_DIRS = 300;
/** How deep in a checkout a crate's folder is looked for (`crates/<name>` is 2). */
const MAX_CHECKOUT_DEPTH = 3;

/** A manifest in a git checkout is read up to this: a crate's own is a few KB, and the folders are many. */
const CHECKOUT_MANIFEST_BYTES = 64 * 1024;

/**
 * Whether the manifest names the package `name`; false when it cannot be read (a checkout is anyone's). Only a
 * manifest whose text holds the name quoted is parsed: most of a workspace's are other crates'.
 */
function namesCrate(manifest: string, name: string): boolean {
  const text = readRegularTextCapped(manifest, CHECKOUT_MANIFEST_BYTES);
  if (text === undefined || !(text.includes(`"${name}"`) || text.includes(`'${name}'`))) return false;
  try {
    return table((parseToml(text) as Table).package).name === name;
  } catch {
    return false;
  }
}

/** The folder under `root` (itself first, then breadth first, bounded) whose manifest names the crate `name`. */
function crateFolder(root: string, name: string, os: OS): string | undefined {
  const queue: { dir: string; depth: number }[] = [{ dir: root, depth: 0 }];
  for (let seen = 0; queue.length > 0 && seen < MAX_CHECKOUT_DIRS; seen++) {
    const { dir, depth } = queue.shift()!;
    if (namesCrate(join(os, dir, "Cargo.toml"), name)) return dir;
    if (depth === MAX_CHECKOUT_DEPTH) continue;
    const folders = entriesOf(dir)
      .filter((entry) => entry.isDirectory && !entry.name.startsWith(".") && entry.name !== "target")
      .map((entry) => entry.name).sort();
    for (const folder of folders) queue.push({ dir: join(os, dir, folder), depth: depth + 1 });
  }
  return undefined;
}

/**
 * A git crate's folder in Cargo's checkout of its commit: `git/checkouts/<repository>-<hash>[-shallow]/<short
 * commit>/`, the repository named by its URL's last segment (the hash is Cargo's own, of the URL: every one
 * with that name is looked in), the commit by a prefix of at least 7 characters.
 */
function gitCheckout(
  home: string | undefined,
  git: NonNullable<Locked["git"]>,
  name: string,
  os: OS,
): string | undefined {
  if (home === undefined) return undefined;
  const checkouts = join(os, home, "git", "checkouts");
  const repository = (git.url.replace(/\/+$/, "").split("/").at(-1) ?? "").replace(/\.git$/, "")
    .toLowerCase();
  const list = (dir: string) =>
    entriesOf(dir).filter((entry) => entry.isDirectory).map((entry) => entry.name).sort();
  const clones = list(checkouts).filter((entry) => {
    const match = entry.match(/^(.*)-[0-9a-f]{16}(-shallow)?$/);
    return match !== null && match[1].toLowerCase() === repository;
  });
  for (const clone of clones) {
    const revisions = list(join(os, checkouts, clone)).filter((entry) =>
      entry.length >= 7 && git.commit.startsWith(entry)
    );
    for (const revision of revisions) {
      const dir = crateFolder(join(os, checkouts, clone, revision), name, os);
      if (dir !== undefined) return dir;
    }
  }
  return undefined;
}

/** The project's direct Rust dependencies in Cargo's (or Debian's) registry sources, or undefined with no Cargo.toml. */
export function rustDependencies(project: string, env: Env, os: OS): ProjectDependencies | undefined {
  const own = readToml(join(os, project, "Cargo.toml"));
  if (own === undefined) return undefined;
  const root = own.workspace !== undefined ? project : workspaceRoot(project, os);
  const rootManifest = root === project ? own : readToml(join(os, root, "Cargo.toml")) ?? {};
  const workspace = table(rootManifest.workspace);
  const shared = table(workspace.dependencies);
  // The project's manifest, and, at a workspace's root, every member's.
  const manifests = [own];
  if (root === project) {
    const excluded = new Set(
      (Array.isArray(workspace.exclude) ? workspace.exclude : []).filter((e) => typeof e === "string")
        .map((e: string) => join(os, root, ...e.split(/[\\/]/))),
    );
    const patterns = (Array.isArray(workspace.members) ? workspace.members : []).filter((m) =>
      typeof m === "string"
    );
    const dirs = [...new Set(patterns.flatMap((pattern: string) => expandMember(root, pattern, os)))]
      .filter((dir) => dir !== project && !excluded.has(dir)).slice(0, MAX_MEMBERS);
    for (const dir of dirs) manifests.push(readToml(join(os, dir, "Cargo.toml")) ?? {});
  }
  const members = new Set(
    manifests.map((manifest) => table(manifest.package).name).filter((name) => typeof name === "string"),
  );
  const wanted = new Set(manifests.flatMap((manifest) => manifestCrates(manifest, shared)));
  for (const member of members) wanted.delete(member);
  const lockfile = join(os, root, "Cargo.lock");
  const lock = readToml(lockfile);
  const versions = lock === undefined ? new Map<string, Locked>() : lockedVersions(lock, members, wanted);
  const home = cargoHome(env, os);
  const packages: InstalledPackage[] = [];
  const fromDebian: InstalledPackage[] = [];
  const missing: string[] = [];
  for (const name of [...wanted].sort()) {
    const locked = versions.get(name);
    const version = locked?.version;
    if (version === undefined || !CRATE_NAME.test(name) || !VERSION.test(version)) {
      missing.push(name);
      continue;
    }
    if (locked?.git !== undefined) {
      const { url, commit } = locked.git;
      const dir = gitCheckout(home, locked.git, name, os);
      // The commit in the version: another commit of the same version is another index.
      if (dir === undefined) missing.push(name);
      else {
        const short = commit.slice(0, 7);
        packages.push({
          ecosystem: "crates",
          name,
          version: `${version}+git.${short}`,
          dir,
          origin: `as checked out from ${url} at ${short}`,
        });
      }
      continue;
    }
    const folder = `${name}-${version}`;
    const dir = registrySource(home, folder, os);
    const debian = os === "linux" ? join(os, DEBIAN_CARGO_REGISTRY, folder) : undefined;
    if (dir !== undefined) packages.push({ ecosystem: "crates", name, version, dir });
    else if (debian !== undefined && isDirectory(debian)) {
      fromDebian.push({ ecosystem: "crates", name, version, dir: debian });
    } else missing.push(name);
  }
  const owners = debianPackages(fromDebian.map((pkg) => pkg.dir), "librust-");
  for (const pkg of fromDebian) {
    const owner = owners.get(pkg.dir);
    packages.push({
      ...pkg,
      origin: owner === undefined ? `as packaged in ${pkg.dir}` : `as packaged by Debian in ${owner.name}`,
    });
  }
  return {
    packages: packages.sort((a, b) => a.name < b.name ? -1 : 1),
    missing,
    lockfiles: lock === undefined ? [] : [lockfile],
  };
}
