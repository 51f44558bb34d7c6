/**
 * The local files an index is built from: a folder walked for documentation files, or one file. What is not
 * documentation (binary files, files over the size limit) is skipped and said so, never indexed as garbage.
 */
import { messageOf } from "../errors.ts";
import { isWithin, readBytesCapped } from "../files.ts";
import { hash53 } from "../hash.ts";
import { baseName, join, type OS } from "../paths.ts";
import { type Chunk, chunkMarkdown, chunkPlainText } from "./chunk.ts";
import { decodeHtml, readHtml } from "./html.ts";
import { frontMatter, pageSummary } from "./summary.ts";

const MARKDOWN = /\.(md|markdown|mdx)$/i;
const TEXT = /\.(txt|rst|text)$/i;
const HTML = /\.(html?|xhtml)$/i;
/** Folders that hold tooling, not documentation. */
const SKIPPED_DIRS = new Set(["node_modules", ".git", ".hg", ".svn", "__pycache__"]);
export const MAX_FILE_BYTES = 10 * 1024 * 1024;

export const isDocumentation = (path: string): boolean =>
  MARKDOWN.test(path) || TEXT.test(path) || HTML.test(path);

/** A name without its documentation extensions: "intro.rst.txt" and "intro.html" are both "intro". */
const stem = (name: string) => name.replace(/(\.(md|markdown|mdx|txt|rst|text|html?|xhtml))+$/i, "");
/** Of one page in several formats, the one read: structure (headings, a description) first, plain text last. */
const formatRank = (name: string) =>
  MARKDOWN.test(name) ? 0 : HTML.test(name) ? 1 : /\.rst$/i.test(name) ? 2 : 3;

/**
 * One file per page: where a folder holds the same page in several formats (`X.html` beside `X.txt`, as
 * generated docs often ship), the best-structured one. Paths sharing a folder and stem are one page.
 */
export function onePerPage<T extends { path: string }>(files: readonly T[]): T[] {
  const best = new Map<string, T>();
  for (const file of files) {
    const name = baseName(file.path);
    const page = `${file.path.slice(0, file.path.length - name.length)}${stem(name)}`;
    const kept = best.get(page);
    if (kept === undefined || formatRank(name) < formatRank(baseName(kept.path))) best.set(page, file);
  }
  const chosen = new Set(best.values());
  return files.filter((file) => chosen.has(file));
}

/**
 * The system's documentation folders: reading in one, links are followed into any of them. Debian's
 * `/usr/share/doc/<pkg>` links to another package's (python3.11-doc's `html` is `../python3.11/html`) or to
 * `/usr/share/gtk-doc/html/<pkg>`, and what the system's packages install there is not a repository's choosing.
 */
export const SYSTEM_DOC_FOLDERS: readonly string[] = ["/usr/share/doc", "/usr/share/gtk-doc"];

export interface Walked {
  /** The documentation files, sorted, with their size and mtime. */
  files: { path: string; size: number; mtime: number }[];
  /** What the walk left out, with why: "PATH (why)". */
  skipped: string[];
}

/**
 * Every documentation file under `root` (or `root` itself). Links are followed while what they point at lies
 * in `root` (its links resolved): a link a checkout holds may point anywhere on the machine (`notes.md` at
 * `/etc/passwd`, a folder at `/`), and what it points at would go into a searchable, exportable index. In one
 * of `linkedFolders` (SYSTEM_DOC_FOLDERS) they are followed anywhere in those. A folder that cannot be read is skipped
 * and named; `root` itself not read throws.
 */
export function documentationFiles(root: string, os: OS, linkedFolders = SYSTEM_DOC_FOLDERS): Walked {
  const stat = Deno.statSync(root);
  const stamp = (path: string, info: Deno.FileInfo) => ({
    path,
    size: info.size,
    mtime: info.mtime?.getTime() ?? 0,
  });
  if (stat.isFile) return { files: [stamp(root, stat)], skipped: [] };
  const found: { path: string; size: number; mtime: number }[] = [];
  const skipped: string[] = [];
  const shared = os !== "windows" && linkedFolders.some((folder) => isWithin(folder, root))
    ? linkedFolders
    : [];
  const followed = (path: string) => isWithin(root, path) || shared.some((folder) => isWithin(folder, path));
  // A folder reached twice, by a link loop or two links to it, is read once.
  const visited = new Set<string>();
  const walk = (dir: string) => {
    const real = Deno.realPathSync(dir);
    if (visited.has(real)) return;
    visited.add(real);
    for (const entry of Deno.readDirSync(dir)) {
      const path = join(os, dir, entry.name);
      let info: Deno.FileInfo | undefined;
      if (entry.isSymlink) {
        try {
          info = Deno.statSync(path);
        } catch {
          continue; // A dangling link points at nothing to index.
        }
      }
      const isDirectory = info?.isDirectory ?? entry.isDirectory;
      const isFile = info?.isFile ?? entry.isFile;
      const wanted = isDirectory
        ? !entry.name.startsWith(".") && !SKIPPED_DIRS.has(entry.name)
        : isFile && isDocumentation(entry.name);
      if (!wanted) continue;
      if (entry.isSymlink && !followed(path)) {
        skipped.push(`${path} (a link out of ${root})`);
      } else if (isDirectory) {
        try {
          walk(path);
        } catch (error) {
          skipped.push(`${path} (cannot be read: ${messageOf(error)})`);
        }
      } else {
        try {
          found.push(stamp(path, info ?? Deno.statSync(path)));
        } catch (error) {
          skipped.push(`${path} (cannot be read: ${messageOf(error)})`);
        }
      }
    }
  };
  walk(root);
  const byPath = (a: { path: string }, b: { path: string }) => a.path < b.path ? -1 : a.path > b.path ? 1 : 0;
  return { files: onePerPage(found).sort(byPath), skipped: skipped.sort() };
}

/**
 * A document's chunks, title and one-line summary (summary.ts), and for HTML the links it holds (as written),
 * for a crawler to follow.
 */
export type Read =
  | { chunks: Chunk[]; title: string; summary: string; links: string[]; digest: string }
  | { skipped: string };

/** A NUL byte early on means a binary file, whatever its name says. */
const looksBinary = (bytes: Uint8Array) => bytes.subarray(0, 8192).includes(0);

/** How a documentation file is read, by its name. */
export const documentKind = (path: string): "markdown" | "html" | "text" =>
  MARKDOWN.test(path) ? "markdown" : HTML.test(path) ? "html" : "text";

/**
 * Reads and chunks one file; text that is not valid UTF-8 is read with replacement characters. The size limit
 * holds on what is read, whatever the stat said (see `readBytesCapped`).
 */
export function readDocument(path: string, size: number): Read {
  const bytes = size > MAX_FILE_BYTES ? undefined : readBytesCapped(path, MAX_FILE_BYTES);
  if (bytes === undefined) return { skipped: `larger than ${MAX_FILE_BYTES / 1024 / 1024} MB` };
  return chunkDocument(bytes, documentKind(path), baseName(path));
}

/** Chunks a document of a known kind, from a file or a crawled page; `name` titles it when it has no title. */
export function chunkDocument(
  bytes: Uint8Array,
  kind: "markdown" | "html" | "text",
  name: string,
  contentType?: string | null,
): Read {
  if (bytes.length > MAX_FILE_BYTES) return { skipped: `larger than ${MAX_FILE_BYTES / 1024 / 1024} MB` };
  if (looksBinary(bytes)) return { skipped: "binary" };
  try {
    return readText(bytes, kind, name, contentType);
  } catch (error) {
    // A page the reader cannot take (nested thousands of elements deep overflows the parser's stack) is one
    // page skipped, not a whole crawl or folder lost.
    return { skipped: `could not be read: ${messageOf(error)}` };
  }
}

function readText(
  bytes: Uint8Array,
  kind: "markdown" | "html" | "text",
  name: string,
  contentType: string | null | undefined,
): Read {
  let chunks: Chunk[];
  let links: string[] = [];
  let summary: string;
  if (kind === "html") {
    const page = readHtml(decodeHtml(bytes, contentType));
    chunks = chunkMarkdown(page.text, page.title ?? name);
    links = page.links;
    summary = pageSummary(page.description, page.text);
  } else if (kind === "markdown") {
    // Front matter is the page's metadata, not its text: its title and description say what the page is.
    const { fields, body } = frontMatter(new TextDecoder().decode(bytes));
    chunks = chunkMarkdown(body, fields.title ?? name);
    summary = pageSummary(fields.description, body);
  } else {
    const text = new TextDecoder().decode(bytes);
    chunks = chunkPlainText(text, name);
    summary = pageSummary(undefined, text);
  }
  const title = chunks[0]?.title ?? name;
  // The title and text as read, not the bytes: the same page served twice with other furniture is one page.
  const digest = chunks.length === 0
    ? ""
    : hash53([title, ...chunks.map((chunk) => chunk.text)].join("\u0000"));
  return { chunks, title, summary, links, digest };
}
