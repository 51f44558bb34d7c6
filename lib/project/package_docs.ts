/**
 * What documentation an installed package holds, read into an index of its own: its README, a `docs/` (or
 * `doc/`) folder if it ships one, and the doc comments of its TypeScript declarations (dts.ts), the API
 * reference of exactly that version. Bounded: a package is read up to a number of files, each up to a size.
 */
import { isWithin, readRegularTextCapped } from "../files.ts";
import { baseName, join, type OS } from "../paths.ts";
import { chunkDocument, documentationFiles, MAX_FILE_BYTES, readDocument } from "../docs/sources.ts";
import type { DocsIndex } from "../docs/store.ts";
import { declarationsMarkdown } from "./dts.ts";
import type { InstalledPackage } from "./npm.ts";

/** Declaration files read per package: enough for the largest APIs (zod, the AWS SDK's clients), not a whole tree. */
const MAX_DECLARATION_FILES = 400;
/** Folders of a package that are not its documentation or its API. */
const SKIPPED = new Set(["node_modules", ".git", "test", "tests", "__tests__", "example", "examples"]);

const README = /^readme(\.(md|markdown|mdx|txt|rst))?$/i;
const DECLARATIONS = /\.d\.[cm]?ts$/;

/** The package's own declaration files, its types entry first, in a stable order. */
function declarationFiles(dir: string, os: OS): string[] {
  const found: string[] = [];
  const walk = (folder: string) => {
    if (found.length >= MAX_DECLARATION_FILES) return;
    let entries: Deno.DirEntry[];
    try {
      entries = [...Deno.readDirSync(folder)].sort((a, b) => a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
    } catch {
      return;
    }
    for (const entry of entries) {
      const path = join(os, folder, entry.name);
      if (entry.isDirectory && !SKIPPED.has(entry.name) && !entry.name.startsWith(".")) walk(path);
      else if (entry.isFile && DECLARATIONS.test(entry.name) && found.length < MAX_DECLARATION_FILES) {
        found.push(path);
      }
    }
  };
  walk(dir);
  return found;
}

export interface PackageIndexed {
  documents: number;
  /** Words in what was indexed: how much there is to answer from (a few README lines are not enough). */
  words: number;
}

export const wordCount = (text: string): number => text.match(/\S+/g)?.length ?? 0;

/** What a package's indexer puts documents in `index` (a fresh one) with; files it cannot read are skipped. */
export interface PackageWriter {
  /** A documentation file of the package's folder, read as its name says. */
  file(path: string): void;
  /** A document made from a source file (its doc comments as Markdown), stamped with that file. */
  generated(path: string, bytes: Uint8Array, kind: "markdown" | "text", name: string): void;
  /** A document read from elsewhere than the disk (a repository's archive), under its address. */
  fetched(source: string, bytes: Uint8Array, kind: "markdown" | "html" | "text", name: string): void;
  /** Settles the index once every document is in; how much was indexed. */
  done(): PackageIndexed;
}

/**
 * `folder` is the package's: `file` reads only what lies in it once links are resolved, since a link a package
 * ships (or a checkout holds) may point anywhere on the machine, and what it points at would go into a
 * searchable, exportable index.
 */
export function packageWriter(index: DocsIndex, folder?: string): PackageWriter {
  let documents = 0;
  let words = 0;
  const put = (path: string, read: ReturnType<typeof readDocument>, size: number, mtime: number) => {
    if ("skipped" in read || read.chunks.length === 0 || index.sameAs(path, read.digest) !== undefined) {
      return;
    }
    index.put(path, { ...read, stamp: { size, version: String(mtime) } });
    documents++;
    words += read.chunks.reduce((sum, chunk) => sum + wordCount(chunk.text), 0);
  };
  const stat = (path: string) => {
    const info = Deno.statSync(path);
    return { size: info.size, mtime: info.mtime?.getTime() ?? 0, isFile: info.isFile };
  };
  return {
    file: (path) => {
      if (folder === undefined) {
        throw new Error("packageWriter: file() reads in the package's folder, and none was given");
      }
      if (!isWithin(folder, path)) return;
      try {
        const { size, mtime, isFile } = stat(path);
        if (isFile) put(path, readDocument(path, size), size, mtime);
      } catch {
        // Unreadable: one file less, not the whole package.
      }
    },
    generated: (path, bytes, kind, name) => {
      try {
        const { size, mtime } = stat(path);
        put(path, chunkDocument(bytes, kind, name), size, mtime);
      } catch {
        // Gone since it was read: one file less.
      }
    },
    fetched: (source, bytes, kind, name) => put(source, chunkDocument(bytes, kind, name), bytes.length, 0),
    done: () => {
      index.settleSummaries();
      return { documents, words };
    },
  };
}

/** Reads an npm package's documentation into `index` (a fresh one). */
export function indexPackage(pkg: InstalledPackage, index: DocsIndex, os: OS): PackageIndexed {
  const writer = packageWriter(index, pkg.dir);
  const read = writer.file;
  for (const entry of Deno.readDirSync(pkg.dir)) {
    if (entry.isFile && README.test(entry.name)) read(join(os, pkg.dir, entry.name));
  }
  for (const folder of ["docs", "doc"]) {
    try {
      // Links out of docs/ but within the package (docs/api -> ../api-docs) are the package's own docs.
      for (const file of documentationFiles(join(os, pkg.dir, folder), os, [pkg.dir]).files) read(file.path);
    } catch {
      // No such folder.
    }
  }
  for (const path of declarationFiles(pkg.dir, os)) {
    const source = readRegularTextCapped(path, MAX_FILE_BYTES);
    if (source === undefined) continue;
    const relative = path.slice(pkg.dir.length + 1).replaceAll("\\", "/");
    const markdown = declarationsMarkdown(source, `${pkg.name} ${pkg.version}: ${relative}`);
    if (markdown !== "") {
      writer.generated(path, new TextEncoder().encode(markdown), "markdown", baseName(path));
    }
  }
  return writer.done();
}
