/**
 * A Deno project's npm dependencies as Deno installed them: the `npm:` imports of its `deno.json`, each at
 * the version its `deno.lock` resolved, in Deno's npm cache (`$DENO_DIR/npm/registry.npmjs.org/<name>/<version>`),
 * where `deno install` or the first run put it.
 */
import { isFile } from "../files.ts";
import { type Env, homeDir, join, type OS } from "../paths.ts";
import { type InstalledPackage, type ProjectDependencies, readJsonObject } from "./npm.ts";

/** Where Deno keeps its caches: `DENO_DIR`, else the platform's cache folder, as `deno info` reports it. */
export function denoDir(env: Env, os: OS): string | undefined {
  const own = env("DENO_DIR");
  if (own) return own;
  const home = homeDir(env, os);
  if (os === "windows") {
    const local = env("LOCALAPPDATA");
    return local ? join(os, local, "deno") : undefined;
  }
  if (home === undefined) return undefined;
  if (os === "darwin") return join(os, home, "Library", "Caches", "deno");
  return join(os, env("XDG_CACHE_HOME") || join(os, home, ".cache"), "deno");
}

/** `npm:@scope/name@^1.2/sub/path` → the name and the specifier the lockfile keys it by. */
const NPM_IMPORT = /^npm:\/?((?:@[^/@]+\/)?[^/@]+)(?:@([^/]+))?/;
const PACKAGE_NAME = /^(@[a-z0-9][\w.-]*\/)?[a-z0-9][\w.-]*$/i;
const VERSION = /^\d+\.\d+\.\d+[\w.+-]*$/;

/** The cached copy of `name` at a lockfile's resolution ("1.32.2_zod@4.6.7": the version, then its peers). */
function installedCopy(
  name: string,
  resolved: unknown,
  cache: string | undefined,
  os: OS,
): InstalledPackage | undefined {
  const version = typeof resolved === "string" ? resolved.split("_")[0] : undefined;
  if (version === undefined || !VERSION.test(version) || cache === undefined) return undefined;
  const dir = join(os, cache, "npm", "registry.npmjs.org", ...name.split("/"), version);
  return isFile(join(os, dir, "package.json")) ? { ecosystem: "npm", name, version, dir } : undefined;
}

/** The project's `npm:` imports in its Deno cache, or undefined when it has no deno.json. */
export function denoDependencies(project: string, env: Env, os: OS): ProjectDependencies | undefined {
  const config = readJsonObject(join(os, project, "deno.json"));
  if (config === undefined) return undefined;
  const lockfile = join(os, project, "deno.lock");
  const specifiers = readJsonObject(lockfile)?.specifiers as Record<string, unknown> | undefined;
  const cache = denoDir(env, os);
  const imports = typeof config.imports === "object" && config.imports !== null
    ? Object.values(config.imports as Record<string, unknown>)
    : [];
  const { packages, missing } = resolveImports(
    imports,
    specifiers,
    (name, resolved) => installedCopy(name, resolved, cache, os),
  );
  return {
    packages,
    missing,
    lockfiles: specifiers === undefined ? [] : [lockfile],
  };
}

/**
 * The packages of deno.json's import `values` as the lockfile's `specifiers` resolved them, `copy` finding the
 * installed copy of a name at a resolution; the names of those not found. The lockfile's keys are gathered by
 * name once: a lookup per import, not a pass over every key (a lockfile may hold tens of thousands).
 */
export function resolveImports(
  values: readonly unknown[],
  specifiers: Record<string, unknown> | undefined,
  copy: (name: string, resolved: unknown) => InstalledPackage | undefined,
): { packages: InstalledPackage[]; missing: string[] } {
  const keysOf = new Map<string, string[]>();
  for (const key of Object.keys(specifiers ?? {})) {
    const name = NPM_IMPORT.exec(key)?.[1];
    if (name === undefined || !key.startsWith(`npm:${name}@`)) continue;
    const keys = keysOf.get(name);
    if (keys === undefined) keysOf.set(name, [key]);
    else keys.push(key);
  }
  const packages = new Map<string, InstalledPackage>();
  const missing = new Set<string>();
  for (const value of values) {
    const parsed = typeof value === "string" ? NPM_IMPORT.exec(value) : null;
    if (parsed === null || !PACKAGE_NAME.test(parsed[1])) continue;
    const name = parsed[1];
    // The lockfile keys a specifier as written, or normalised ("^12.0.0" kept as "12"): that one first, then
    // any of the name's.
    const exact = `npm:${name}${parsed[2] ? `@${parsed[2]}` : ""}`;
    const keys = [exact, ...keysOf.get(name) ?? []];
    const found = keys.map((key) => copy(name, specifiers?.[key])).find((pkg) => pkg);
    if (found !== undefined) packages.set(name, found);
    else missing.add(name);
  }
  for (const name of packages.keys()) missing.delete(name);
  return {
    packages: [...packages.values()].sort((a, b) => a.name < b.name ? -1 : 1),
    missing: [...missing].sort(),
  };
}
