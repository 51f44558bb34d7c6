/**
 * A Python project's direct dependencies as its installer put them: the names its manifests list
 * (pyproject.toml's `[project]`, dependency groups, Poetry's, uv's and PDM's tables; `requirements*.txt`;
 * `Pipfile`), each found in the project's environment at the version its installed metadata says. The
 * environment is the activated one (`VIRTUAL_ENV`, `CONDA_PREFIX`), else the project's own virtualenv
 * (`.venv`, `venv`, `env`), else the site-packages of the `python3` on PATH (pyenv's shims followed to the
 * version they select). Nothing is run: the interpreter is found by its files, as the index command
 * does not start processes.
 */
import { parse as parseToml, TomlError } from "smol-toml";
import { messageOf, Problem } from "../errors.ts";
import { entriesOf, isDirectory, isFile, readRegularTextCapped } from "../files.ts";
import { baseName, dirName, type Env, homeDir, join, type OS } from "../paths.ts";
import type { InstalledPackage, ProjectDependencies } from "./npm.ts";

/** A manifest read here is small; a larger one is not read (a hostile checkout could make it anything). */
const MAX_MANIFEST_BYTES = 1024 * 1024;

/** PEP 503's normal form, under which `Flask`, `flask` and `FLASK` or `zope.interface` and `zope-interface` are one. */
export const normalizeName = (name: string): string => name.toLowerCase().replace(/[-_.]+/g, "-");

/** The distribution name a PEP 508 requirement starts with (`requests[socks]>=2.31; python_version>"3.8"`). */
const REQUIREMENT_NAME = /^\s*([A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?)\s*(?=$|[\[(<>=!~;,@\s])/;

function requirementName(requirement: unknown): string | undefined {
  return typeof requirement === "string" ? REQUIREMENT_NAME.exec(requirement)?.[1] : undefined;
}

const readText = (path: string) => readRegularTextCapped(path, MAX_MANIFEST_BYTES);

/** A TOML manifest; undefined when there is none. One that does not parse is the project's to fix, and said. */
function readToml(path: string): Record<string, unknown> | undefined {
  const text = readText(path);
  if (text === undefined) return undefined;
  try {
    return parseToml(text) as Record<string, unknown>;
  } catch (error) {
    const line = error instanceof TomlError ? ` (line ${error.line}, column ${error.column})` : "";
    throw new Problem(
      `${path} is not valid TOML${line}: ${messageOf(error).split("\n")[0]}`,
      "fix the file (a Python tool would refuse it too), then run this again",
    );
  }
}

const table = (value: unknown): Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value)
    ? value as Record<string, unknown>
    : {};
const list = (value: unknown): unknown[] => Array.isArray(value) ? value : [];

/** Names in pyproject.toml: PEP 621 (with extras), PEP 735 groups, Poetry's, uv's and PDM's dev tables. */
export function pyprojectNames(pyproject: Record<string, unknown>): string[] {
  const project = table(pyproject.project);
  const tool = table(pyproject.tool);
  const poetry = table(tool.poetry);
  const requirements = [
    ...list(project.dependencies),
    ...Object.values(table(project["optional-dependencies"])).flatMap(list),
    // An entry can be `{include-group = "…"}`, which names a group, not a distribution: not a string, skipped.
    ...Object.values(table(pyproject["dependency-groups"])).flatMap(list),
    ...list(table(tool.uv)["dev-dependencies"]),
    ...Object.values(table(table(tool.pdm)["dev-dependencies"])).flatMap(list),
  ];
  // Poetry's tables are keyed by name; "python" there is the interpreter's version, not a distribution.
  const poetryKeys = [
    ...Object.keys(table(poetry.dependencies)),
    ...Object.keys(table(poetry["dev-dependencies"])),
    ...Object.values(table(poetry.group)).flatMap((group) => Object.keys(table(table(group).dependencies))),
  ].filter((name) => name.toLowerCase() !== "python");
  return [...requirements.map(requirementName), ...poetryKeys.map(requirementName)]
    .filter((name) => name !== undefined);
}

/**
 * Names in a requirements file: one requirement a line. Options (`-r`, `-e`, `--index-url`), URLs and paths
 * name no distribution of an index and are skipped, so the files it includes are not followed.
 */
export function requirementsNames(text: string): string[] {
  return text.split(/\r?\n/)
    .map((line) => line.replace(/(^|\s)#.*$/, "").trim())
    .filter((line) => line !== "" && !line.startsWith("-") && !/^[\w+.-]+:\/\/|^[./~]/.test(line))
    .map(requirementName)
    .filter((name) => name !== undefined);
}

/** The project's requirement names from all its manifests; undefined when it has none. */
function manifestNames(project: string, os: OS): string[] | undefined {
  const names: string[] = [];
  let found = false;
  const pyproject = readToml(join(os, project, "pyproject.toml"));
  if (pyproject !== undefined) {
    found = true;
    names.push(...pyprojectNames(pyproject));
  }
  const pipfile = readToml(join(os, project, "Pipfile"));
  if (pipfile !== undefined) {
    found = true;
    names.push(...Object.keys(table(pipfile.packages)), ...Object.keys(table(pipfile["dev-packages"])));
  }
  let entries: Deno.DirEntry[] = [];
  try {
    entries = [...Deno.readDirSync(project)];
  } catch {
    // No folder: no manifests.
  }
  for (const entry of entries) {
    if (!entry.isFile || !/^requirements[\w.-]*\.(txt|in)$/i.test(entry.name)) continue;
    const text = readText(join(os, project, entry.name));
    if (text === undefined) continue;
    found = true;
    names.push(...requirementsNames(text));
  }
  return found ? names : undefined;
}

/** `3.11` → [3, 11]; folders like `python3.11` are picked newest first. */
const pythonVersionOf = (name: string) => /^python(\d+)\.(\d+)t?$/.exec(name)?.slice(1).map(Number);

/** The site-packages folders of an installation or virtualenv prefix, newest Python first. */
export function sitePackagesOf(prefix: string, os: OS): string[] {
  if (os === "windows") return [join(os, prefix, "Lib", "site-packages")].filter(isDirectory);
  const found: { version: number[]; dirs: string[] }[] = [];
  for (const lib of ["lib", "lib64"]) {
    for (const entry of entriesOf(join(os, prefix, lib))) {
      const version = pythonVersionOf(entry.name);
      if (version === undefined) continue;
      const dirs = ["site-packages", "dist-packages"].map((name) => join(os, prefix, lib, entry.name, name));
      found.push({ version, dirs });
    }
  }
  // Debian's interpreter reads the distributions apt installs from here.
  found.push({ version: [3, 0], dirs: [join(os, prefix, "lib", "python3", "dist-packages")] });
  found.sort((a, b) => b.version[0] - a.version[0] || b.version[1] - a.version[1]);
  return [...new Set(found.flatMap((entry) => entry.dirs))].filter(isDirectory);
}

/** A virtualenv (venv, virtualenv, uv, Poetry in-project) has a `pyvenv.cfg` at its root. */
const isVirtualenv = (dir: string, os: OS): boolean => isFile(join(os, dir, "pyvenv.cfg"));

const firstWord = (text: string | undefined): string | undefined => text?.trim().split(/\s+/)[0] || undefined;

/**
 * The prefix of the `python3` on PATH, found by its files: a link is followed to the installation it belongs
 * to, and a pyenv shim to the version pyenv would select here (`PYENV_VERSION`, the project's
 * `.python-version`, the global `version` file).
 */
function interpreterPrefix(project: string, env: Env, os: OS): string | undefined {
  const names = os === "windows" ? ["python.exe", "python3.exe"] : ["python3", "python"];
  for (const dir of (env("PATH") ?? "").split(os === "windows" ? ";" : ":")) {
    if (dir === "") continue;
    for (const name of names) {
      let real: string;
      try {
        real = Deno.realPathSync(join(os, dir, name));
      } catch {
        continue;
      }
      if (!isFile(real)) continue;
      const bin = dirName(real);
      if (baseName(bin) === "shims") {
        const root = dirName(bin);
        const version = firstWord(env("PYENV_VERSION")) ??
          firstWord(readText(join(os, project, ".python-version"))) ??
          firstWord(readText(join(os, root, "version")));
        if (version === undefined || version === "system") continue;
        return join(os, root, "versions", version);
      }
      return os === "windows" ? bin : dirName(bin);
    }
  }
  return undefined;
}

export interface PythonEnvironment {
  /** What it is, for the command's output: the virtualenv's or the installation's folder. */
  prefix: string;
  /** Where its distributions are, in the order Python looks. */
  sitePackages: string[];
}

/** The environment the project's code runs in, as described above; undefined when none is found. */
export function pythonEnvironment(project: string, env: Env, os: OS): PythonEnvironment | undefined {
  const candidates = [
    env("VIRTUAL_ENV"),
    env("CONDA_PREFIX"),
    ...[".venv", "venv", "env"].map((name) => join(os, project, name)).filter((dir) => isVirtualenv(dir, os)),
  ].filter((dir): dir is string => dir !== undefined && dir !== "");
  for (const prefix of candidates) {
    const sitePackages = sitePackagesOf(prefix, os);
    if (sitePackages.length > 0) return { prefix, sitePackages };
  }
  const prefix = interpreterPrefix(project, env, os);
  if (prefix === undefined) return undefined;
  const home = homeDir(env, os);
  // The user's own installs (`pip install --user`) come first, as Python puts them on its path first.
  const version = sitePackagesOf(prefix, os)[0]?.match(/python(\d+\.\d+)/)?.[1];
  const user = home !== undefined && version !== undefined && os !== "windows"
    ? [join(os, home, ".local", "lib", `python${version}`, "site-packages")].filter(isDirectory)
    : [];
  const sitePackages = [...user, ...sitePackagesOf(prefix, os)];
  return sitePackages.length > 0 ? { prefix, sitePackages } : undefined;
}

/** `Flask-3.1.3.dist-info`, `PyYAML-6.0.egg-info`, `mypkg.egg-info`: the name before the version. */
const METADATA_DIR = /^(.+?)(?:-\d[^-]*)?(?:-py\d[\w.]*)?\.(dist-info|egg-info)$/i;

export interface Distribution {
  name: string;
  version: string;
  /** The `.dist-info` or `.egg-info` folder (or an old `.egg-info` file, the metadata itself). */
  metadata: string;
  /** The site-packages folder it is installed in. */
  site: string;
}

/** A distribution's metadata headers and long description (the core metadata format, RFC 822 style). */
export interface Metadata {
  headers: Map<string, string>;
  description: string;
  /** Its `Project-URL` headers (a repeated one), label and URL as written: `["Source", "https://…"]`. */
  projectUrls: [string, string][];
}

/**
 * Parses METADATA or PKG-INFO. The long description is the body after the headers; older metadata carries it
 * in a `Description` header whose continuation lines are indented by eight spaces or `       |`.
 */
export function parseMetadata(text: string): Metadata {
  const headers = new Map<string, string>();
  const projectUrls: [string, string][] = [];
  const lines = text.replace(/\r\n?/g, "\n").split("\n");
  let key: string | undefined;
  let i = 0;
  for (; i < lines.length && lines[i] !== ""; i++) {
    const line = lines[i];
    if (/^[ \t]/.test(line) && key !== undefined) {
      headers.set(key, `${headers.get(key)}\n${line.replace(/^( {8}| {7}\|)/, "")}`);
      continue;
    }
    const colon = line.indexOf(":");
    if (colon <= 0) continue;
    key = line.slice(0, colon).trim().toLowerCase();
    if (key === "project-url") {
      const [label, url] = line.slice(colon + 1).split(/,(.*)/s).map((part) => part.trim());
      if (url) projectUrls.push([label, url]);
    }
    // A repeated header (Classifier, Requires-Dist) keeps its first value: the ones read here are single.
    if (!headers.has(key)) headers.set(key, line.slice(colon + 1).trim());
  }
  const body = lines.slice(i + 1).join("\n").trim();
  const header = headers.get("description") ?? "";
  const description = body !== "" ? body : header === "UNKNOWN" ? "" : header.trim();
  return { headers, description, projectUrls };
}

/** An installed distribution's metadata file: its METADATA or PKG-INFO (an old `.egg-info` file is one itself). */
export const metadataFile = (metadata: string, os: OS): string | undefined =>
  isDirectory(metadata)
    ? ["METADATA", "PKG-INFO"].map((name) => join(os, metadata, name)).find(isFile)
    : metadata;

export function readMetadata(metadata: string, os: OS): Metadata | undefined {
  const file = metadataFile(metadata, os);
  const text = file === undefined ? undefined : readText(file);
  return text === undefined ? undefined : parseMetadata(text);
}

/**
 * The distributions of `wanted` (normalized names) installed in `sitePackages`; the first folder's copy wins,
 * as on Python's path.
 */
export function installedDistributions(
  sitePackages: string[],
  wanted: ReadonlySet<string>,
  os: OS,
): Map<string, Distribution> {
  const found = new Map<string, Distribution>();
  for (const site of sitePackages) {
    let entries: Deno.DirEntry[];
    try {
      entries = [...Deno.readDirSync(site)].sort((a, b) => a.name < b.name ? -1 : 1);
    } catch {
      continue;
    }
    for (const entry of entries) {
      const match = METADATA_DIR.exec(entry.name);
      if (match === null) continue;
      const key = normalizeName(match[1]);
      if (!wanted.has(key) || found.has(key)) continue;
      const metadata = join(os, site, entry.name);
      const read = readMetadata(metadata, os);
      const name = read?.headers.get("name");
      const version = read?.headers.get("version");
      if (name === undefined || version === undefined || version === "") continue;
      found.set(key, { name, version, metadata, site });
    }
  }
  return found;
}

/** A Python lockfile, the one the project's tool writes; without one, the environment itself is the stamp. */
const LOCKFILES = ["uv.lock", "poetry.lock", "Pipfile.lock", "pdm.lock"];

/**
 * The project's Python dependencies in its environment, or undefined when it has no Python manifest. The
 * stamp that tells when their docs go stale is the lockfile, else the site-packages folder, which every
 * install or removal changes.
 */
export function pythonDependencies(
  project: string,
  env: Env,
  os: OS,
): (ProjectDependencies & { environment?: PythonEnvironment }) | undefined {
  const names = manifestNames(project, os);
  if (names === undefined) return undefined;
  const wanted = new Map(names.map((name) => [normalizeName(name), name]));
  const environment = pythonEnvironment(project, env, os);
  const installed = environment === undefined
    ? new Map<string, Distribution>()
    : installedDistributions(environment.sitePackages, new Set(wanted.keys()), os);
  const packages: InstalledPackage[] = [];
  const missing: string[] = [];
  for (const [key, name] of wanted) {
    const distribution = installed.get(key);
    if (distribution === undefined) missing.push(name);
    else {
      packages.push({
        ecosystem: "pypi",
        name: distribution.name,
        version: distribution.version,
        dir: distribution.metadata,
      });
    }
  }
  const lockfile = LOCKFILES.map((file) => join(os, project, file)).find(isFile) ??
    environment?.sitePackages[0];
  return {
    packages: packages.sort((a, b) => a.name < b.name ? -1 : 1),
    missing: missing.sort(),
    lockfiles: lockfile === undefined ? [] : [lockfile],
    ...environment === undefined ? {} : { environment },
  };
}
