/**
 * The documentation files of a repository at a tag, read from the tag's source archive (a .tar.gz, as GitHub
 * serves `/archive/refs/tags/<tag>.tar.gz`) in memory: nothing is written to disk. The download is read whole
 * first, so that a connection that breaks off is told from an archive that cannot be read: the first is a
 * failure to ask again later, the second the package's answer. The archive is the package author's, so it is
 * bounded like any hostile input: the download and the unpacked bytes are capped (a gzip bomb ends at the
 * cap), regular files only (no links, devices or folders taken for files), no absolute or `..` paths, a number
 * of files, each up to a size.
 *
 * The tar format is read by modern-tar (a small, dependency-free streaming reader): it hands over one entry
 * at a time, so the unpacked cap holds while the archive is still being unpacked.
 */
import { createTarDecoder } from "modern-tar";
import { readUpTo } from "../bytes.ts";
import { HEADERS } from "../docs/crawl_fetch.ts";
import { isDocumentation } from "../docs/sources.ts";
import { messageOf } from "../errors.ts";

export interface ArchiveLimits {
  /** The .tar.gz as downloaded. */
  archiveBytes: number;
  /** Everything the archive unpacks to, read or skipped: what bounds the work of a gzip bomb. */
  unpackedBytes: number;
  /** Documentation files kept. */
  files: number;
  /** One documentation file. */
  fileBytes: number;
  /** Redirects followed to the archive (GitHub sends it to codeload.github.com). */
  redirects: number;
}

/**
 * A repository of docs fits: React's archive at v18.3.1 is about 12 MB; a monorepo's docs folder holds a few
 * hundred pages. Larger is a repository of something else (assets, fixtures), not worth the download.
 */
export const ARCHIVE_LIMITS: ArchiveLimits = {
  archiveBytes: 64 * 1024 * 1024,
  unpackedBytes: 512 * 1024 * 1024,
  files: 500,
  fileBytes: 2 * 1024 * 1024,
  redirects: 5,
};

export interface ArchiveFile {
  /** The path in the repository: `docs/guide.md`. */
  path: string;
  bytes: Uint8Array;
}

/** The archive, fully received, could not be read as one (too large, not a gzip'd tar, cut off). */
export class ArchiveError extends Error {}

/** Folders that hold a repository's documentation. */
const DOC_FOLDERS = ["docs", "doc", "documentation"];
const README = /^readme(\.(md|markdown|mdx|txt|rst))?$/i;

/**
 * Whether a file (its path in the repository) is documentation worth reading, and its rank: the package's own
 * folder first (a monorepo's `directory`), then the repository's root.
 */
export function documentationRank(path: string, directory?: string): number | undefined {
  const roots = directory === undefined ? [""] : [`${directory}/`, ""];
  for (const [rank, root] of roots.entries()) {
    if (!path.startsWith(root)) continue;
    const inner = path.slice(root.length);
    if (!inner.includes("/") && README.test(inner)) return rank;
    const [folder] = inner.split("/", 1);
    if (DOC_FOLDERS.includes(folder.toLowerCase()) && inner.includes("/") && isDocumentation(inner)) {
      return rank;
    }
  }
  return undefined;
}

/**
 * An entry's path in the repository: the archive's top folder (`repo-1.2.3/`) left out; undefined for a path
 * that could lead out of it (absolute, `..`, a backslash, a NUL) or names no file.
 */
export function repositoryPath(name: string): string | undefined {
  if (name.startsWith("/") || /[\\\0]/.test(name)) return undefined;
  const parts = name.split("/").filter((part) => part !== "" && part !== ".");
  if (parts.length < 2 || parts.some((part) => part === "..")) return undefined;
  return parts.slice(1).join("/");
}

/** Counts the bytes through it, and errors the stream once they pass `limit`. */
function capped(limit: number, what: string): TransformStream<Uint8Array, Uint8Array> {
  let total = 0;
  return new TransformStream({
    transform(chunk, controller) {
      total += chunk.length;
      if (total > limit) {
        controller.error(new ArchiveError(`${what} is larger than ${limit / 1024 / 1024} MB`));
      } else controller.enqueue(chunk);
    },
  });
}

/**
 * The documentation files of a .tar.gz body (see documentationRank), best-ranked first, in archive order within
 * a rank; at most `limits.files` of them.
 */
export async function archiveDocs(
  body: ReadableStream<Uint8Array>,
  directory: string | undefined,
  limits: ArchiveLimits = ARCHIVE_LIMITS,
): Promise<ArchiveFile[]> {
  const found: (ArchiveFile & { rank: number })[] = [];
  const entries = body
    .pipeThrough(capped(limits.archiveBytes, "the archive"))
    // Typed for any BufferSource in, Uint8Array out: what it is given here are the body's bytes.
    .pipeThrough(new DecompressionStream("gzip") as unknown as TransformStream<Uint8Array, Uint8Array>)
    .pipeThrough(capped(limits.unpackedBytes, "the unpacked archive"))
    .pipeThrough(createTarDecoder());
  try {
    for await (const entry of entries) {
      const path = repositoryPath(entry.header.name);
      const rank = path === undefined ? undefined : documentationRank(path, directory);
      // Full, a file of a better rank takes the place of the last one of the worst: a monorepo's root docs
      // come first in the archive, the package's own folder later.
      const full = found.length >= limits.files;
      const worst = full ? found.reduce((at, file, i) => file.rank >= found[at].rank ? i : at, 0) : -1;
      if (
        entry.header.type !== "file" || path === undefined || rank === undefined ||
        entry.header.size > limits.fileBytes || (full && rank >= found[worst].rank)
      ) {
        await entry.body.cancel();
        continue;
      }
      const bytes = await readUpTo(entry.body, limits.fileBytes);
      if (bytes === undefined) continue;
      if (full) found.splice(worst, 1);
      found.push({ path, bytes, rank });
    }
  } catch (error) {
    // A cap passed: said as it is.
    if (error instanceof ArchiveError) throw error;
    throw new ArchiveError(`the archive could not be read: ${messageOf(error)}`);
  }
  return found.sort((a, b) => a.rank - b.rank).map(({ path, bytes }) => ({ path, bytes }));
}

/** What asking for a tag's archive came to: its files, or that the tag is not there (a 404, a 410). */
export type ArchiveAnswer = { files: ArchiveFile[]; url: URL } | { missing: string };

/**
 * Asks for the archive at `url`, following at most `limits.redirects` redirects (each asked through `fetch`,
 * which checks it), and reads its documentation. A missing tag is an answer; a failure (5xx, a timeout, a
 * connection broken mid-download, a refused address) is thrown, and so is an archive that cannot be read
 * (ArchiveError).
 */
export async function fetchArchive(
  url: URL,
  directory: string | undefined,
  fetch: typeof globalThis.fetch,
  limits: ArchiveLimits = ARCHIVE_LIMITS,
): Promise<ArchiveAnswer> {
  let at = url;
  for (let redirects = 0;; redirects++) {
    const response = await fetch(at, { redirect: "manual", headers: HEADERS });
    if (response.status >= 300 && response.status < 400) {
      await response.body?.cancel();
      const location = response.headers.get("location");
      if (location === null || redirects >= limits.redirects) {
        throw new ArchiveError(
          `${at.href}: ${location === null ? "a redirect to nowhere" : "too many redirects"}`,
        );
      }
      at = new URL(location, at);
      continue;
    }
    if (response.status === 404 || response.status === 410) {
      await response.body?.cancel();
      return { missing: `${url.href}: HTTP ${response.status}` };
    }
    if (response.status >= 500 || response.status === 429) {
      // The host is down or busy now: a failure to ask again later, not an answer about the tag.
      await response.body?.cancel();
      throw new Error(`${at.href}: HTTP ${response.status}`);
    }
    if (response.status !== 200 || response.body === null) {
      await response.body?.cancel();
      throw new ArchiveError(`${at.href}: HTTP ${response.status}`);
    }
    const tooLarge = new ArchiveError(`the archive is larger than ${limits.archiveBytes / 1024 / 1024} MB`);
    const declared = Number(response.headers.get("content-length") ?? NaN);
    if (declared > limits.archiveBytes) {
      await response.body.cancel();
      throw tooLarge;
    }
    let bytes;
    try {
      bytes = await readUpTo(response.body, limits.archiveBytes);
    } catch (error) {
      // The connection broke off or the budget ran out mid-download: nothing said of the archive, asked again.
      throw new Error(`${at.href}: the download broke off (${messageOf(error)})`);
    }
    if (bytes === undefined) throw tooLarge;
    return { files: await archiveDocs(ReadableStream.from([bytes]), directory, limits), url };
  }
}
