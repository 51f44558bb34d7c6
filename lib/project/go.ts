/**
 * A Go project's direct dependencies as the go command downloaded them: the modules its `go.mod` requires,
 * not those marked `// indirect`, each after the `replace` that points it at another module version, found in
 * the module cache at that version. Since Go 1.17 go.mod holds the version the build selects for every module
 * it needs, so it is the pin; go.sum, rewritten whenever one changes, is the stamp. A workspace (go.work) is
 * its modules' requirements together. Where the cache lacks a
 * module, Debian's packaged source (`/usr/share/gocode/src/<path>`, a golang-*-dev package) is read instead,
 * labelled with the package's version. Nothing is run: the cache is found by the variables `go env` reads.
 */
import { isDirectory, isFile, readRegularTextCapped } from "../files.ts";
import { type Env, homeDir, join, type OS } from "../paths.ts";
import { debianPackages } from "./debian.ts";
import type { InstalledPackage, ProjectDependencies } from "./npm.ts";

/** A go.mod read here is small; a larger one is not read (a hostile checkout could make it anything). */
const MAX_MANIFEST_BYTES = 1024 * 1024;

/** Where Debian's golang-*-dev packages put a module's source, by its path. */
export const DEBIAN_GOCODE = "/usr/share/gocode/src";

export interface GoRequirement {
  path: string;
  version: string;
  /** Marked `// indirect`: needed by a dependency, not imported by the module itself. */
  indirect: boolean;
}

export interface GoReplacement {
  path: string;
  /** Only this version is replaced; every version when absent. */
  version?: string;
  to: string;
  /** Absent when `to` is a folder on disk rather than a module. */
  toVersion?: string;
}

export interface GoMod {
  /** The module's own path (`module` directive); absent in a go.work. */
  module?: string;
  require: GoRequirement[];
  replace: GoReplacement[];
  /** A go.work's `use` directives: the folders of the workspace's modules. */
  use: string[];
}

/**
 * One go.mod line as Go's own lexer reads it: words, `"interpreted"` and `` `raw` `` strings, `=>`, and the
 * comment after `//` apart (outside a string; a path holds no `//`, a quoted one might).
 */
export function goModTokens(line: string): { tokens: string[]; comment: string } {
  const tokens: string[] = [];
  let i = 0;
  while (i < line.length) {
    const char = line[i];
    if (/\s/.test(char)) {
      i++;
    } else if (line.startsWith("//", i)) {
      return { tokens, comment: line.slice(i + 2).trim() };
    } else if (char === '"' || char === "`") {
      let end = i + 1;
      while (end < line.length && line[end] !== char) end += char === '"' && line[end] === "\\" ? 2 : 1;
      const literal = line.slice(i, end + 1);
      let value = literal.slice(1, -1);
      if (char === '"') {
        try {
          value = JSON.parse(literal);
        } catch {
          // An escape JSON does not know: the text as written.
        }
      }
      tokens.push(value);
      i = end + 1;
    } else {
      let end = i;
      while (end < line.length && !/\s/.test(line[end]) && !line.startsWith("//", end)) end++;
      tokens.push(line.slice(i, end));
      i = end;
    }
  }
  return { tokens, comment: "" };
}

/** Go's rule: the comment is `indirect`, or starts with `indirect;`. */
const isIndirect = (comment: string) => comment === "indirect" || comment.startsWith("indirect;");

/** A replacement's target that is a folder: Go takes a path starting with `./`, `../` or `/` (or a drive) as one. */
const isFolder = (target: string) => /^(\.{1,2}[\\/]|[\\/]|[A-Za-z]:[\\/])/.test(target) || target === ".";

/**
 * The `module`, `require` and `replace` directives of a go.mod, and the `use` and `replace` of a go.work (the
 * same syntax), one-line or in `( … )` blocks; the rest is skipped.
 */
export function parseGoMod(text: string): GoMod {
  const mod: GoMod = { require: [], replace: [], use: [] };
  let block: string | undefined;
  for (const line of text.split(/\r?\n/)) {
    const { tokens, comment } = goModTokens(line);
    if (tokens.length === 0) continue;
    if (block !== undefined && tokens[0] === ")") {
      block = undefined;
      continue;
    }
    let verb = block;
    let args = tokens;
    if (verb === undefined) {
      [verb, ...args] = tokens;
      if (args.length === 1 && args[0] === "(") {
        block = verb;
        continue;
      }
    }
    if (verb === "module" && args.length === 1) {
      mod.module = args[0];
    } else if (verb === "use" && args.length === 1) {
      mod.use.push(args[0]);
    } else if (verb === "require" && args.length === 2) {
      mod.require.push({ path: args[0], version: args[1], indirect: isIndirect(comment) });
    } else if (verb === "replace") {
      const arrow = args.indexOf("=>");
      const from = args.slice(0, arrow);
      const to = args.slice(arrow + 1);
      if (arrow < 1 || from.length > 2 || to.length < 1 || to.length > 2) continue;
      mod.replace.push({
        path: from[0],
        ...from.length === 2 ? { version: from[1] } : {},
        to: to[0],
        ...to.length === 2 && !isFolder(to[0]) ? { toVersion: to[1] } : {},
      });
    }
  }
  return mod;
}

/**
 * A module path or version as the module cache spells it: each upper-case letter as `!` and its lower-case
 * (`github.com/BurntSushi/toml` → `github.com/!burnt!sushi/toml`), so that case-insensitive file systems keep
 * modules apart.
 */
export const escapeModulePath = (path: string): string =>
  path.replace(/[A-Z]/g, (letter) => `!${letter.toLowerCase()}`);

/** The module cache: `GOMODCACHE`, else the first `GOPATH` entry's `pkg/mod`, else `~/go/pkg/mod`, as `go env` says. */
export function goModCache(env: Env, os: OS): string | undefined {
  const own = env("GOMODCACHE");
  if (own) return own;
  const gopath = (env("GOPATH") ?? "").split(os === "windows" ? ";" : ":").find((entry) => entry !== "");
  if (gopath !== undefined) return join(os, gopath, "pkg", "mod");
  const home = homeDir(env, os);
  return home === undefined ? undefined : join(os, home, "go", "pkg", "mod");
}

/** A module path the cache and Debian's tree can be asked about: no `..`, no absolute or odd path. */
const MODULE_PATH = /^[A-Za-z0-9][A-Za-z0-9._~-]*(\/[A-Za-z0-9._~+-]+)*$/;
const VERSION = /^v\d+\.\d+\.\d+[\w.+-]*$/;

/** The module a requirement reads, after go.mod's replacements; undefined when replaced by a folder. */
function resolved(requirement: GoRequirement, replace: GoReplacement[]): GoRequirement | undefined {
  // A replacement of this exact version wins over one of every version, as in Go.
  const replacement = replace.find((r) => r.path === requirement.path && r.version === requirement.version) ??
    replace.find((r) => r.path === requirement.path && r.version === undefined);
  if (replacement === undefined) return requirement;
  if (replacement.toVersion === undefined) return undefined;
  return { path: replacement.to, version: replacement.toVersion, indirect: false };
}

/** Go's order of versions (semver): v1.10.0 after v1.9.0, a pre-release before its release. */
export function compareGoVersions(a: string, b: string): number {
  const parts = (version: string) => {
    const [core, pre] = version.replace(/^v/, "").split(/-(.*)/s, 2);
    return { numbers: core.split(/[.+]/).slice(0, 3).map(Number), pre };
  };
  const [x, y] = [parts(a), parts(b)];
  for (let i = 0; i < 3; i++) {
    const difference = (x.numbers[i] || 0) - (y.numbers[i] || 0);
    if (difference !== 0) return difference;
  }
  if (x.pre === undefined || y.pre === undefined) {
    return (x.pre === undefined ? 1 : 0) - (y.pre === undefined ? 1 : 0);
  }
  return x.pre < y.pre ? -1 : x.pre > y.pre ? 1 : 0;
}

/**
 * A workspace's module folder, as go.work's `use` names it, when it lies inside the project (`.`, `./api`,
 * `services/api`): a checkout's go.work does not send the reader elsewhere on the machine.
 */
const inside = (folder: string) =>
  folder === "." || /^(\.\/)?[A-Za-z0-9_][\w.\/-]*$/.test(folder) && !folder.split("/").includes("..");

/**
 * The project's modules: those go.work's `use` names (the folders inside the project), else the project's own
 * go.mod; each read, with the go.work's replacements, which win over theirs. Undefined without any.
 */
function workspace(
  project: string,
  os: OS,
): { mods: GoMod[]; replace: GoReplacement[]; stamps: string[] } | undefined {
  const read = (file: string) => readRegularTextCapped(join(os, project, file), MAX_MANIFEST_BYTES);
  const work = read("go.work");
  const used = work === undefined ? undefined : parseGoMod(work);
  const folders = used === undefined
    ? [""]
    : used.use.map((folder) => folder.replace(/\/+$/, "")).filter(inside)
      .map((folder) => folder.replace(/^\.(\/|$)/, ""));
  const mods: GoMod[] = [];
  const stamps: string[] = [];
  for (const folder of folders) {
    const text = read(join(os, folder, "go.mod"));
    if (text === undefined) continue;
    mods.push(parseGoMod(text));
    // go.sum, rewritten whenever a requirement changes, is the stamp; else go.mod itself.
    const stamp = ["go.sum", "go.mod"].map((file) => join(os, project, folder, file)).find(isFile);
    if (stamp !== undefined) stamps.push(stamp);
  }
  if (mods.length === 0) return undefined;
  const workSum = ["go.work.sum", "go.work"].map((file) => join(os, project, file)).find(isFile);
  return {
    mods,
    replace: [...used?.replace ?? [], ...mods.flatMap((mod) => mod.replace)],
    stamps: used === undefined || workSum === undefined ? stamps : [workSum, ...stamps],
  };
}

/**
 * The project's direct Go dependencies in the module cache (or Debian's tree), or undefined when it has no
 * go.mod. In a workspace (go.work), those of each of its modules, the workspace's own modules left out, each
 * module at the highest version any of them requires, as Go's minimal version selection takes it.
 */
export function goDependencies(project: string, env: Env, os: OS): ProjectDependencies | undefined {
  const found = workspace(project, os);
  if (found === undefined) return undefined;
  const own = new Set(found.mods.map((mod) => mod.module));
  const highest = new Map<string, GoRequirement>();
  for (const required of found.mods.flatMap((mod) => mod.require)) {
    if (required.indirect || own.has(required.path)) continue;
    const before = highest.get(required.path);
    if (before === undefined || compareGoVersions(required.version, before.version) > 0) {
      highest.set(required.path, required);
    }
  }
  const mod = { require: [...highest.values()], replace: found.replace };
  const cache = goModCache(env, os);
  const packages: InstalledPackage[] = [];
  const fromDebian: { module: GoRequirement; required: GoRequirement; dir: string }[] = [];
  const missing: string[] = [];
  for (const required of mod.require) {
    if (required.indirect) continue;
    const module = resolved(required, mod.replace);
    // A folder on disk is the project's own code, or a fork checked out beside it: no version to name.
    if (module === undefined) continue;
    if (!MODULE_PATH.test(module.path) || !VERSION.test(module.version) || module.path.includes("..")) {
      missing.push(required.path);
      continue;
    }
    const replaced = module.path === required.path
      ? undefined
      : `as installed in this project, in place of ${required.path} (go.mod's replace)`;
    const dir = cache === undefined
      ? undefined
      : join(os, cache, ...`${escapeModulePath(module.path)}@${escapeModulePath(module.version)}`.split("/"));
    if (dir !== undefined && isDirectory(dir)) {
      packages.push({
        ecosystem: "go",
        name: module.path,
        version: module.version,
        dir,
        ...replaced === undefined ? {} : { origin: replaced },
      });
      continue;
    }
    const debian = os === "linux" ? join(os, DEBIAN_GOCODE, ...module.path.split("/")) : undefined;
    if (debian !== undefined && isDirectory(debian)) fromDebian.push({ module, required, dir: debian });
    else missing.push(required.path);
  }
  const owners = debianPackages(fromDebian.map(({ dir }) => dir), "golang-");
  for (const { module, required, dir } of fromDebian) {
    const owner = owners.get(dir);
    // Debian's `1:1.3.0+ds-1` is upstream 1.3.0: Go's v1.3.0 when that is what go.mod asks for.
    const upstream = owner?.version.replace(/^\d+:/, "").replace(/-[^-]*$/, "").replace(/[+~].*$/, "");
    const where = owner === undefined ? `as packaged in ${dir}` : `as packaged by Debian in ${owner.name}`;
    const asked = `v${upstream}` === module.version
      ? "the version go.mod asks for"
      : `where go.mod asks for ${module.version}`;
    const replaced = module.path === required.path ? "" : `, in place of ${required.path} (go.mod's replace)`;
    packages.push({
      ecosystem: "go",
      name: module.path,
      version: owner?.version ?? "packaged",
      dir,
      origin: `${where}, ${asked}${replaced}`,
    });
  }
  return {
    packages: packages.sort((a, b) => a.name < b.name ? -1 : 1),
    missing: missing.sort(),
    lockfiles: found.stamps,
  };
}
