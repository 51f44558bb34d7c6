/**
 * What documentation a Go module holds, read into an index of its own: its README and the documentation of
 * each of its importable packages (godoc.ts), the API reference of exactly that version. What another module
 * cannot import is left out: `internal/` trees, commands, tests, `testdata/`, vendored copies, and nested
 * modules (a folder with a go.mod of its own). Bounded: a number of files, each up to a size.
 */
import type { DocsIndex } from "../docs/store.ts";
import { readRegularTextCapped } from "../files.ts";
import { join, type OS } from "../paths.ts";
import { type GoFile, goPackageMarkdown } from "./godoc.ts";
import type { InstalledPackage } from "./npm.ts";
import { type PackageIndexed, packageWriter } from "./package_docs.ts";

/** Go files read per module: the whole API of most, and the shallow packages of the largest (golang.org/x/text). */
const MAX_GO_FILES = 1500;
/** A Go file larger than this is data (tables, embedded assets), not documented API. */
const MAX_SOURCE_BYTES = 1024 * 1024;
/** Folders no importing module sees. */
const SKIPPED = new Set(["internal", "testdata", "vendor"]);
const README = /^readme(\.(md|markdown|txt|rst))?$/i;

interface GoPackageDir {
  /** Relative to the module's root, `/`-separated; "" for the root. */
  relative: string;
  files: string[];
}

/** The module's package folders, shallow first, with their non-test `.go` files, up to the bound. */
function packageDirs(root: string, os: OS): GoPackageDir[] {
  const found: GoPackageDir[] = [];
  let files = 0;
  let level = [""];
  while (level.length > 0 && files < MAX_GO_FILES) {
    const next: string[] = [];
    for (const relative of level) {
      const dir = relative === "" ? root : join(os, root, ...relative.split("/"));
      let entries: Deno.DirEntry[];
      try {
        entries = [...Deno.readDirSync(dir)].sort((a, b) => a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
      } catch {
        continue;
      }
      // A nested module is another module, with a version of its own.
      if (relative !== "" && entries.some((entry) => entry.isFile && entry.name === "go.mod")) continue;
      const goFiles = entries.filter((entry) =>
        entry.isFile && entry.name.endsWith(".go") && !entry.name.endsWith("_test.go") &&
        !/^[._]/.test(entry.name)
      ).map((entry) => entry.name).slice(0, MAX_GO_FILES - files);
      files += goFiles.length;
      if (goFiles.length > 0) found.push({ relative, files: goFiles });
      for (const entry of entries) {
        // `_` and `.` folders are ignored by the go command; `cmd/` holds commands, not an API.
        if (!entry.isDirectory || /^[._]/.test(entry.name) || SKIPPED.has(entry.name)) continue;
        if (relative === "" && entry.name === "cmd") continue;
        next.push(relative === "" ? entry.name : `${relative}/${entry.name}`);
      }
    }
    level = next;
  }
  return found;
}

/** Reads a Go module's documentation (`pkg.dir` is its root) into `index` (a fresh one). */
export function indexGoModule(pkg: InstalledPackage, index: DocsIndex, os: OS): PackageIndexed {
  const writer = packageWriter(index, pkg.dir);
  for (const entry of Deno.readDirSync(pkg.dir)) {
    if (entry.isFile && README.test(entry.name)) writer.file(join(os, pkg.dir, entry.name));
  }
  for (const { relative, files } of packageDirs(pkg.dir, os)) {
    const dir = relative === "" ? pkg.dir : join(os, pkg.dir, ...relative.split("/"));
    const sources: GoFile[] = [];
    for (const name of files) {
      // Unreadable or too large: one file less.
      const source = readRegularTextCapped(join(os, dir, name), MAX_SOURCE_BYTES);
      if (source !== undefined) sources.push({ name, source });
    }
    const importPath = relative === "" ? pkg.name : `${pkg.name}/${relative}`;
    const markdown = goPackageMarkdown(sources, `${pkg.name} ${pkg.version}: ${importPath}`);
    // Stamped with the package's first file: the document stands for the folder.
    if (markdown !== "") {
      writer.generated(join(os, dir, files[0]), new TextEncoder().encode(markdown), "markdown", importPath);
    }
  }
  return writer.done();
}
