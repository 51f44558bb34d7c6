/** The names of the indexes of a project's dependencies: one per package@version, shared by every project. */
import { hash53 } from "../hash.ts";
import type { InstalledPackage } from "./npm.ts";
import { normalizeName } from "./python.ts";

/**
 * `npm-zod-4.1.12`, `npm-_modelcontextprotocol__sdk-1.32.2`, `pypi-typing-extensions-4.15.0`,
 * `go-github.com__google__uuid-v1.3.0`, `crates-itoa-1.0.1`: a valid index name, one per package@version. A
 * scope's `@` becomes `_`, which no unscoped npm name starts with, so `@a/b` and `a__b` stay apart; a Python
 * name is taken in its normal form, as `Typing_Extensions` is `typing-extensions`; a Go module path's `/` is
 * `__`. A Go module's version starts with `v`, a Debian package's (its packaged copy) with a digit: the two
 * copies get two indexes. `suffix` names another index of the same package@version (its published docs).
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
  return plain.length <= 64 ? plain : `${plain.slice(0, 49)}-${hash53(plain)}`;
}

/** `npm:zod@4.1.12`: what an index records it describes. */
export const packageId = (pkg: Pick<InstalledPackage, "ecosystem" | "name" | "version">): string =>
  `${pkg.ecosystem}:${pkg.name}@${pkg.version}`;
