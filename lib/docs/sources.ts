/**
 * The local files an index is built from: a folder walked for documentation files, or one file. What is not
 * documentation (binary files, files over the size limit) is skipped and said so, never indexed as garbage.
 */
import { baseName, join } from "../paths.ts";
import { type Chunk, chunkMarkdown, chunkPlainText } from "./chunk.ts";
import { decodeHtml, readHtml } from "./html.ts";

const MARKDOWN = /\.(md|markdown|mdx)$/i;
const TEXT = /\.(txt|rst|text)$/i;
const HTML = /\.(html?|xhtml)$/i;
/** Folders that hold tooling, not documentation. */
const SKIPPED_DIRS = new Set(["node_modules", ".git", ".hg", ".svn", "__pycache__"]);
export const MAX_FILE_BYTES = 10 * 1024 * 1024;

export const isDocumentation = (path: string): boolean =>
  MARKDOWN.test(path) || TEXT.test(path) || HTML.test(path);

/** Every documentation file under `root` (or `root` itself), sorted, with its size and mtime. */
export function documentationFiles(root: string): { path: string; size: number; mtime: number }[] {
  const os = Deno.build.os;
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
  return found.sort((a, b) => a.path < b.path ? -1 : a.path > b.path ? 1 : 0);
}

/** A document's chunks and title, and for HTML the links it holds (as written), for a crawler to follow. */
export type Read = { chunks: Chunk[]; title: string; links: string[] } | { skipped: string };

/** A NUL byte early on means a binary file, whatever its name says. */
const looksBinary = (bytes: Uint8Array) => bytes.subarray(0, 8192).includes(0);

/** Reads and chunks one file; text that is not valid UTF-8 is read with replacement characters. */
export function readDocument(path: string, size: number): Read {
  if (size > MAX_FILE_BYTES) return { skipped: `larger than ${MAX_FILE_BYTES / 1024 / 1024} MB` };
  const bytes = Deno.readFileSync(path);
  const kind = MARKDOWN.test(path) ? "markdown" : HTML.test(path) ? "html" : "text";
  return chunkDocument(bytes, kind, baseName(path));
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
  let chunks: Chunk[];
  let links: string[] = [];
  if (kind === "html") {
    const page = readHtml(decodeHtml(bytes, contentType));
    chunks = chunkMarkdown(page.text, page.title ?? name);
    links = page.links;
  } else {
    const text = new TextDecoder().decode(bytes);
    chunks = kind === "markdown" ? chunkMarkdown(text, name) : chunkPlainText(text, name);
  }
  return { chunks, title: chunks[0]?.title ?? name, links };
}
