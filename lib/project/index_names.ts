/** The names of the indexes of a project's dependencies: one per package@version, shared by every project. */
import { hash53 } from "../hash.ts";
import type { InstalledPackage } from "./npm.ts";
import { normalizeName } from "./python.ts";

/**
 * `npm-zod-4.1.12`, `npm-_modelcontextprotocol__sdk-1.32.2`, `pypi-typing-extensions-4.15.0`,
 * `go-github.com__google__uuid-v1.3.0`, `crates-itoa-1.0.1`: a valid index name, one per package@version. A
 * scope's `@` becomes `_`, which no unscoped npm name starts with, so `@a/b` and `a__b` stay apart; a Python
 * name is taken in its normal form, as `Typing_Extensions` is `typing-extensions`; a Go module path's `/` is
 * `__`, a version's `+` (Go's `+incompatible`) is `_`. A Go module's version starts with `v`, a Debian
 * package's (its packaged copy) with a digit: the two copies get two indexes. `suffix` names another index of
 * the same package@version (its published docs).
 *
 * Where those escapes are ambiguous (an `_` beside a scope's or a path's `__`, another character turned to
 * `_`), a hash of the exact package id follows, so `@a/b__c` and `@a__b/c` are two indexes, not one rebuilt
 * over the other.
 */
export function packageIndexName(
  pkg: Pick<InstalledPackage, "ecosystem" | "name" | "version">,
  suffix = "",
): string {
  const name = pkg.ecosystem === "pypi"
    ? normalizeName(pkg.name)
    : pkg.ecosystem === "go"
    ? pkg.name.replaceAll("/", "__")
    : pkg.name.replace(/^@/, "_").replace("/", "__");
  const plain = `${pkg.ecosystem}-${name}-${pkg.version}${suffix}`.replace(/[^A-Za-z0-9._-]/g, "_");
  const unique = ambiguous(pkg, name) ? `${plain}-${hash53(packageId(pkg)).slice(0, 8)}` : plain;
  return unique.length <= 64 ? unique : `${unique.slice(0, 49)}-${hash53(unique)}`;
}

/**
 * Whether the escaped `name` (and the version) could also be another package's: the name holds an `_` the
 * escapes did not put there while they put some (or starts with one, as only a scope does), or holds a
 * character other than the escaped `@` and `/`; the version holds a character other than `+` that is not kept.
 */
function ambiguous(pkg: Pick<InstalledPackage, "ecosystem" | "name" | "version">, name: string): boolean {
  const raw = pkg.ecosystem === "pypi" ? name : pkg.name;
  const structural = pkg.ecosystem === "go" ? raw.replaceAll("/", "") : raw.replace(/^@([^/]*)\//, "$1");
  const escaped = structural !== raw;
  return /[^A-Za-z0-9._-]/.test(structural) ||
    (structural.includes("_") && (escaped || raw.startsWith("_"))) ||
    /[^A-Za-z0-9.+-]/.test(pkg.version);
}

/** `npm:zod@4.1.12`: what an index records it describes. */
export const packageId = (pkg: Pick<InstalledPackage, "ecosystem" | "name" | "version">): string =>
  `${pkg.ecosystem}:${pkg.name}@${pkg.version}`;
