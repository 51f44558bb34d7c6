/**
 * The local files an index is built from: a folder walked for documentation files, or one file. What is not
 * documentation (binary files, files over the size limit) is skipped and said so, never indexed as garbage.
 */
import { messageOf } from "../errors.ts";
import { readBytesCapped } from "../files.ts";
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

/** Every documentation file under `root` (or `root` itself), sorted, with its size and mtime. */
export function documentationFiles(root: string, os: OS): { path: string; size: number; mtime: number }[] {
  const stat = Deno.statSync(root);
  const stamp = (path: string, info: Deno.FileInfo) => ({
    path,
    size: info.size,
    mtime: info.mtime?.getTime() ?? 0,
  });
  if (stat.isFile) return [stamp(root, stat)];
  const found: { path: string; size: number; mtime: number }[] = [];
  // Symlinked files and folders are followed (Debian's /usr/share/doc is full of them); a folder reached
  // twice, by a link loop or two links to it, is read once.
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
      if (isDirectory) {
        if (!entry.name.startsWith(".") && !SKIPPED_DIRS.has(entry.name)) walk(path);
      } else if (isFile && isDocumentation(entry.name)) {
        found.push(stamp(path, info ?? Deno.statSync(path)));
      }
    }
  };
  walk(root);
  return onePerPage(found).sort((a, b) => a.path < b.path ? -1 : a.path > b.path ? 1 : 0);
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
