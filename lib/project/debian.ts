/**
 * Which installed Debian package ships a folder, and at what version: read from dpkg's own records (the file
 * lists in `/var/lib/dpkg/info`, the `status` database), as `dpkg -S` and `dpkg-query` would answer, without
 * running them. Used to label the Go modules and Rust crates read from Debian's packaged sources.
 */
import { readRegularTextCapped } from "../files.ts";

const DPKG = "/var/lib/dpkg";
/** dpkg's status database holds every installed package: tens of thousands of lines on a full desktop. */
const MAX_STATUS_BYTES = 64 * 1024 * 1024;
const MAX_LIST_BYTES = 16 * 1024 * 1024;

export interface DebianPackage {
  name: string;
  version: string;
}

const PACKAGE = /^Package: *(\S+)/m;
const VERSION = /^Version: *(\S+)/m;
const INSTALLED = /^Status: .* installed$/m;

/** The version of each installed package of `names`, from a dpkg status database's text. */
export function installedVersions(status: string, names: ReadonlySet<string>): Map<string, string> {
  const found = new Map<string, string>();
  for (const stanza of status.split(/\n\s*\n/)) {
    const name = PACKAGE.exec(stanza)?.[1];
    const version = VERSION.exec(stanza)?.[1];
    if (name === undefined || version === undefined || !names.has(name)) continue;
    if (INSTALLED.test(stanza)) found.set(name, version);
  }
  return found;
}

/**
 * The installed package that ships each of `dirs`, among those whose name starts with `prefix` (`golang-`,
 * `librust-`): each such package's file list is read once. A folder no package lists is left out.
 */
export function debianPackages(dirs: readonly string[], prefix: string): Map<string, DebianPackage> {
  const owners = new Map<string, string>();
  if (dirs.length === 0) return new Map();
  const wanted = new Set(dirs);
  let lists: string[];
  try {
    lists = [...Deno.readDirSync(`${DPKG}/info`)]
      .map((entry) => entry.name)
      .filter((name) => name.startsWith(prefix) && name.endsWith(".list"))
      .sort();
  } catch {
    return new Map();
  }
  for (const list of lists) {
    if (owners.size === wanted.size) break;
    const text = readRegularTextCapped(`${DPKG}/info/${list}`, MAX_LIST_BYTES) ?? "";
    // `golang-x-dev.list`, or `librust-x-dev:amd64.list` for a package of one architecture.
    const name = list.slice(0, -".list".length).split(":")[0];
    for (const line of text.split("\n")) {
      if (wanted.has(line) && !owners.has(line)) owners.set(line, name);
    }
  }
  const status = readRegularTextCapped(`${DPKG}/status`, MAX_STATUS_BYTES) ?? "";
  const versions = installedVersions(status, new Set(owners.values()));
  const found = new Map<string, DebianPackage>();
  for (const [dir, name] of owners) {
    const version = versions.get(name);
    if (version !== undefined) found.set(dir, { name, version });
  }
  return found;
}
