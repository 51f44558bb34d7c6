/**
 * What documentation a Rust crate holds, read into an index of its own: its README and the docs of its
 * library's public API (rustdoc.ts), module by module from `src/lib.rs` down the `mod` declarations, the API
 * reference of exactly that version. A private module's items count when the crate re-exports them (`pub use
 * parse::Error`, `pub use imp::*`), as rustdoc shows them; tests, examples, benches and binaries are not
 * reached from the library. Bounded: a number of files, each up to a size.
 */
import { parse as parseToml } from "smol-toml";
import { isFile, isWithin, readRegularTextCapped } from "../files.ts";
import type { DocsIndex } from "../docs/store.ts";
import { baseName, dirName, join, type OS } from "../paths.ts";
import type { InstalledPackage } from "./npm.ts";
import { type PackageIndexed, packageWriter } from "./package_docs.ts";
import { type RustFile, rustFileApi } from "./rustdoc.ts";

/** Source files read per crate: the whole library of most, the upper modules of the largest (windows-sys). */
const MAX_RUST_FILES = 600;
/** A Rust file larger than this is data (generated bindings, tables), not documented API. */
const MAX_SOURCE_BYTES = 1024 * 1024;
const MAX_MANIFEST_BYTES = 1024 * 1024;

interface Module {
  name: string;
  public: boolean;
}

interface ReadFile {
  path: string;
  /** The modules from the crate's root down to this file's, each public or not. */
  chain: Module[];
  api: RustFile;
  /** The docs written on its `mod` declaration. */
  declared?: string;
  /** Whether its modules' files are in its own folder: `lib.rs`, `mod.rs`, or a file a `#[path]` names. */
  ownsFolder: boolean;
}

/** The inline modules `within` names in a file, each public or not. */
const inlineChain = (api: RustFile, within: string[]): Module[] =>
  within.map((name, i) => ({
    name,
    public: api.modules.find((m) =>
      !m.external && m.name === name && m.within.length === i && m.within.every((w, j) => w === within[j])
    )?.public ?? false,
  }));

/** The crate's manifest: its library's name and root file, and the README it declares. */
function manifest(dir: string, name: string, os: OS): { lib: string; root: string; readme?: string } {
  let toml: Record<string, unknown> = {};
  try {
    toml = parseToml(readRegularTextCapped(join(os, dir, "Cargo.toml"), MAX_MANIFEST_BYTES) ?? "") as Record<
      string,
      unknown
    >;
  } catch {
    // A manifest that does not parse: the defaults Cargo would use.
  }
  const table = (value: unknown) =>
    typeof value === "object" && value !== null ? value as Record<string, unknown> : {};
  const lib = table(toml.lib);
  const readme = table(toml.package).readme;
  const relative = (value: unknown) =>
    typeof value === "string" && !value.split(/[\\/]/).includes("..") && !/^[\\/]/.test(value)
      ? join(os, dir, ...value.split(/[\\/]/))
      : undefined;
  const declared = readme === false ? undefined : relative(readme) ??
    ["README.md", "README", "README.txt"].map((file) => join(os, dir, file)).find(isFile);
  return {
    lib: typeof lib.name === "string" ? lib.name : name.replaceAll("-", "_"),
    root: relative(lib.path) ?? join(os, dir, "src", "lib.rs"),
    ...declared === undefined ? {} : { readme: declared },
  };
}

/** The files of the library's module tree in the `crate`'s folder, from its root down, as far as the bound reaches. */
function moduleFiles(crate: string, root: string, os: OS): ReadFile[] {
  const read: ReadFile[] = [];
  const queue: Omit<ReadFile, "api">[] = [{ path: root, chain: [], ownsFolder: true }];
  const seen = new Set<string>();
  while (queue.length > 0 && read.length < MAX_RUST_FILES) {
    const next = queue.shift()!;
    if (seen.has(next.path)) continue;
    seen.add(next.path);
    // Not there (a module behind a `cfg` the crate does not ship), unreadable, too large, or a link out of the
    // crate: one module less.
    const source = isWithin(crate, next.path)
      ? readRegularTextCapped(next.path, MAX_SOURCE_BYTES)
      : undefined;
    if (source === undefined) continue;
    const api = rustFileApi(source);
    read.push({ ...next, api });
    // `a.rs` keeps its modules in `a/`.
    const folder = next.ownsFolder
      ? dirName(next.path)
      : join(os, dirName(next.path), baseName(next.path).replace(/\.rs$/, ""));
    for (const module of api.modules) {
      if (!module.external) continue;
      const base = join(os, folder, ...module.within);
      const chain = [...next.chain, ...inlineChain(api, module.within), {
        name: module.name,
        public: module.public,
      }];
      // A `#[path]` out of the crate's folder reads nothing: a registry crate is self-contained.
      if (
        module.path !== undefined && (module.path.split(/[\\/]/).includes("..") || /^[\\/]/.test(module.path))
      ) {
        continue;
      }
      const path = module.path !== undefined
        ? join(os, base, ...module.path.split(/[\\/]/))
        : [join(os, base, `${module.name}.rs`), join(os, base, module.name, "mod.rs")].find(isFile);
      if (path === undefined) continue;
      queue.push({
        path,
        chain,
        ownsFolder: module.path !== undefined || baseName(path) === "mod.rs",
        ...module.doc === undefined ? {} : { declared: module.doc },
      });
    }
  }
  return read;
}

/**
 * Whether what sits at `chain` is part of the crate's public API: every module on the way is `pub`, or the
 * crate re-exports one of them (by name or with `::*`) and the ones below it are `pub`.
 */
function reachable(chain: Module[], reexported: ReadonlySet<string>): boolean {
  let from = 0;
  chain.forEach((module, i) => {
    if (reexported.has(module.name)) from = i + 1;
  });
  return chain.slice(from).every((module) => module.public);
}

/** `semver::parse` for a file whose module is private: the public path down to it, where rustdoc shows its items. */
const shownPath = (lib: string, chain: Module[]) => {
  const firstPrivate = chain.findIndex((module) => !module.public);
  return [lib, ...chain.slice(0, firstPrivate === -1 ? chain.length : firstPrivate).map((m) => m.name)].join(
    "::",
  );
};

/** Reads a crate's documentation (`pkg.dir` is its source folder) into `index` (a fresh one). */
export function indexCrate(pkg: InstalledPackage, index: DocsIndex, os: OS): PackageIndexed {
  const writer = packageWriter(index, pkg.dir);
  const { lib, root, readme } = manifest(pkg.dir, pkg.name, os);
  if (readme !== undefined) writer.file(readme);
  const files = moduleFiles(pkg.dir, root, os);
  // What the public API re-exports: a `pub use` in a module that is itself out of reach (`mod literal` with
  // `pub use self::imp::Searcher`) re-exports within the crate only. Reachability grows with each round.
  let reexported = new Set<string>();
  for (let round = 0; round < 8; round++) {
    const next = new Set(
      files.filter(({ chain }) => reachable(chain, reexported))
        .flatMap(({ api }) => [...api.reexports.names, ...api.reexports.globs]),
    );
    if (next.size === reexported.size) break;
    reexported = next;
  }
  for (const { path, chain, api, declared } of files) {
    const title = `${pkg.name} ${pkg.version}: ${shownPath(lib, chain)}`;
    const parts: string[] = [];
    if (reachable(chain, reexported)) {
      parts.push(...[declared, api.doc].filter((text) => text !== undefined));
    }
    for (const module of api.modules) {
      const moduleChain = [...chain, ...inlineChain(api, [...module.within, module.name])];
      if (module.external || module.doc === undefined || !reachable(moduleChain, reexported)) continue;
      parts.push(`## ${shownPath(lib, moduleChain)}\n\n${module.doc}`);
    }
    for (const item of api.items) {
      const itemChain = [...chain, ...inlineChain(api, item.within)];
      if (!reachable(itemChain, reexported) && !reexported.has(item.name.split("::")[0])) continue;
      const members = item.members.length === 0 ? "" : `\n\n${item.members.join("\n")}`;
      parts.push(
        `## ${
          shownPath(lib, itemChain)
        }::${item.name}\n\n${item.doc}\n\n\`\`\`rust\n${item.code}\n\`\`\`${members}`,
      );
    }
    if (parts.length === 0) continue;
    const markdown = `# ${title}\n\n${parts.join("\n\n")}\n`;
    writer.generated(path, new TextEncoder().encode(markdown), "markdown", baseName(path));
  }
  return writer.done();
}
