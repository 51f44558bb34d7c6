/**
 * A JavaScript project's direct dependencies as its package manager installed them: the names from
 * `package.json`, each resolved to its copy in `node_modules` (npm, yarn's node-modules linker and bun put it
 * there; pnpm links it there from its store), at the version that copy's own `package.json` says. The
 * lockfile is what changes when they do, so its stamp tells when the indexes are stale.
 */
import { isFile, readRegularTextCapped } from "../files.ts";
import { join, type OS } from "../paths.ts";

export interface InstalledPackage {
  ecosystem: "npm" | "pypi" | "go" | "crates";
  name: string;
  /** The version of the copy that is read: what the index describes. */
  version: string;
  /**
   * The installed copy's folder, links resolved (pnpm's store); for a Python distribution, its metadata
   * (`.dist-info`) in site-packages.
   */
  dir: string;
  /**
   * Where that copy comes from, when it is not simply the project's installed one: Debian's packaged source
   * of a Go module, with the version go.mod asked for. The config entry's description says it.
   */
  origin?: string;
}

export interface ProjectDependencies {
  packages: InstalledPackage[];
  /** Direct dependencies with no installed copy: the install has not been run, or failed for them. */
  missing: string[];
  /**
   * The lockfiles in use, whose change means the dependencies changed: none, or one an ecosystem (a Go
   * workspace's and its modules'); a project with several ecosystems has each one's.
   */
  lockfiles: string[];
}

/** The lockfiles of npm, pnpm, yarn and bun, in the order a project that has several most likely uses them. */
export const LOCKFILES = [
  "package-lock.json",
  "npm-shrinkwrap.json",
  "pnpm-lock.yaml",
  "yarn.lock",
  "bun.lock",
  "bun.lockb",
];

/** A manifest or lockfile read here is small; a larger one is not read (a hostile checkout could make it anything). */
const MAX_MANIFEST_BYTES = 4 * 1024 * 1024;

/** A project's JSON file (package.json, deno.json, deno.lock) as an object; undefined when it is not one. */
export function readJsonObject(path: string): Record<string, unknown> | undefined {
  const text = readRegularTextCapped(path, MAX_MANIFEST_BYTES);
  if (text === undefined) return undefined;
  try {
    const json = JSON.parse(text);
    return typeof json === "object" && json !== null && !Array.isArray(json) ? json : undefined;
  } catch {
    return undefined;
  }
}

const namesIn = (field: unknown): string[] =>
  typeof field === "object" && field !== null && !Array.isArray(field) ? Object.keys(field) : [];

/** A package name npm would accept: no path tricks through `node_modules/<name>`. */
const PACKAGE_NAME = /^(@[a-z0-9][\w.-]*\/)?[a-z0-9][\w.-]*$/i;

/** The project's direct dependencies (runtime, dev and optional), or undefined when it has no package.json. */
export function npmDependencies(project: string, os: OS): ProjectDependencies | undefined {
  const manifest = readJsonObject(join(os, project, "package.json"));
  if (manifest === undefined) return undefined;
  const names = [
    ...new Set([
      ...namesIn(manifest.dependencies),
      ...namesIn(manifest.devDependencies),
      ...namesIn(manifest.optionalDependencies),
    ]),
  ].filter((name) => PACKAGE_NAME.test(name)).sort();
  const packages: InstalledPackage[] = [];
  const missing: string[] = [];
  for (const name of names) {
    const folder = join(os, project, "node_modules", ...name.split("/"));
    const installed = readJsonObject(join(os, folder, "package.json"));
    if (installed === undefined || typeof installed.version !== "string") {
      missing.push(name);
      continue;
    }
    packages.push({ ecosystem: "npm", name, version: installed.version, dir: Deno.realPathSync(folder) });
  }
  const lockfile = LOCKFILES.map((file) => join(os, project, file)).find(isFile);
  return { packages, missing, lockfiles: lockfile === undefined ? [] : [lockfile] };
}
