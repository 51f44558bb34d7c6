/**
 * A Rust project's direct dependencies as Cargo fetched them: the crates its `Cargo.toml` names (the
 * `dependencies`, `dev-dependencies` and `build-dependencies` tables, target-specific ones too, those of every
 * workspace member, `workspace = true` entries through `[workspace.dependencies]`, a renamed one by its
 * `package`), each at the version `Cargo.lock` pins for the member that names it, in Cargo's registry sources
 * (`$CARGO_HOME/registry/src/<registry>/<name>-<version>`, `CARGO_HOME` else `~/.cargo`), else in Debian's
 * (`/usr/share/cargo/registry/<name>-<version>`, a librust-*-dev package). Path and git dependencies are
 * the project's own code or a checkout, not a registry's release: they are left out.
 */
import { parse as parseToml, TomlError } from "smol-toml";
import { messageOf, Problem } from "../errors.ts";
import { isDirectory, isFile, readRegularTextCapped } from "../files.ts";
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
 * The registry crates a manifest depends on, by their real names: a table's key, or its `package` when it
 * renames one; `workspace = true` read through the workspace's own table. Path and git dependencies left out.
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
      if (spec.path !== undefined || spec.git !== undefined) continue;
      names.push(typeof spec.package === "string" ? spec.package : key);
    }
  }
  return names;
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
    const regex = new RegExp(
      `^${segment.replace(/[.+^${}()|\\]/g, "\\$&").replaceAll("*", ".*").replaceAll("?", ".")}$`,
    );
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

/**
 * The versions Cargo.lock pins for `wanted` (real names), as the workspace members depend on them: a member's
 * `dependencies` name a crate alone (one version locked), or with its version when several are. Only crates from
 * a registry count (a `source` of `registry+…` or `sparse+…`).
 */
export function lockedVersions(
  lock: Table,
  members: ReadonlySet<string>,
  wanted: ReadonlySet<string>,
): Map<string, string> {
  const packages = lockedPackages(lock);
  const found = new Map<string, string>();
  for (const member of packages.filter((p) => p.source === undefined && members.has(p.name))) {
    for (const reference of member.dependencies) {
      const [name, version] = reference.split(" ");
      if (!wanted.has(name) || found.has(name)) continue;
      const locked = packages.find((p) =>
        p.name === name && (version === undefined || p.version === version) &&
        /^(registry|sparse)\+/.test(p.source ?? "")
      );
      if (locked !== undefined) found.set(name, locked.version);
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
  const versions = lock === undefined ? new Map<string, string>() : lockedVersions(lock, members, wanted);
  const home = cargoHome(env, os);
  const packages: InstalledPackage[] = [];
  const fromDebian: InstalledPackage[] = [];
  const missing: string[] = [];
  for (const name of [...wanted].sort()) {
    const version = versions.get(name);
    if (version === undefined || !CRATE_NAME.test(name) || !VERSION.test(version)) {
      missing.push(name);
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
