/**
 * Building an index: from a folder or file, re-reading only what changed since the last build, or from a docs
 * site, from the best source it offers (site.ts: its llms files, else a crawl, or resuming an interrupted
 * one). Each returns what it did; `index add` and `refresh` say it.
 */
import { messageOf, Problem } from "../errors.ts";
import { type CrawlDeps, CrawlInterruptedError, type CrawlOptions, SiteUnreachableError } from "./crawl.ts";
import { type RecordedPass, recordedPass, restoreSource, sourceRecord } from "./crawl_frontier.ts";
import { deleteIndexFiles, indexesDir, indexFile, type IndexHome } from "./indexes.ts";
import { readSite, type SiteReport, type SiteSource, type SourceChoice, sourceOf } from "./site.ts";
import { documentationFiles, readDocument } from "./sources.ts";
import { DocsIndex, type StoredDocument } from "./store.ts";
import { exists } from "../files.ts";
import { ensurePrivateDir } from "../state/dir.ts";

/** What an index holds after a build. */
export interface Totals {
  documents: number;
  chunks: number;
}

export interface FilesBuilt extends Totals {
  changed: number;
  unchanged: number;
  removed: number;
  /** Files left out as copies of another one. */
  duplicates: number;
  /** Each file not indexed, with why: "PATH (why)". */
  skipped: string[];
}

/** How often a build from files says how far it is. */
const PROGRESS_FILES = 200;

/** Brings the index up to date with a folder or file; `progress` hears how far it is in a long one. */
export function buildFromFiles(
  home: IndexHome,
  name: string,
  root: string,
  progress: (line: string) => void,
): FilesBuilt {
  let files;
  let unwalked;
  try {
    ({ files, skipped: unwalked } = documentationFiles(root, home.os));
  } catch (error) {
    throw new Problem(
      error instanceof Deno.errors.NotFound
        ? `there is no file or folder ${root}`
        : `cannot read ${root}: ${messageOf(error)}`,
      "give a folder or a file of documentation (Markdown, HTML or text), or a docs site's http(s) URL",
    );
  }
  const index = openIndex(home, name);
  try {
    if (index.meta("package") !== undefined) {
      throw new Problem(
        `the index ${name} holds the docs of the package ${index.meta("package")}, which never change`,
        "after an install, docsearch-hook index add --project indexes the versions installed now",
      );
    }
    index.setMeta("root", root);
    const stamps = index.stamps();
    // Gone first: a copy left out as the same as a file that is gone must not be compared with it.
    const present = new Set(files.map((file) => file.path));
    const gone = [...stamps.keys()].filter((source) => !present.has(source));
    for (const source of gone) index.remove(source);
    let changed = 0;
    const copies: { path: string; document: StoredDocument }[] = [];
    const skipped: string[] = [];
    for (const [i, file] of files.entries()) {
      const old = stamps.get(file.path);
      const version = String(file.mtime);
      if (old?.size === file.size && old.version === version) continue;
      let read: ReturnType<typeof readDocument>;
      try {
        read = readDocument(file.path, file.size);
      } catch (error) {
        // Gone since the walk, or unreadable: one file, not the whole index.
        read = { skipped: `cannot be read: ${messageOf(error)}` };
      }
      if ("skipped" in read) {
        skipped.push(`${file.path} (${read.skipped})`);
        index.remove(file.path);
        continue;
      }
      const document: StoredDocument = { ...read, stamp: { size: file.size, version } };
      // A copy or a link to a file indexed already would only repeat its passages in every result list.
      if (index.sameAs(file.path, read.digest) !== undefined) {
        index.remove(file.path);
        copies.push({ path: file.path, document });
        continue;
      }
      index.put(file.path, document);
      changed++;
      if ((i + 1) % PROGRESS_FILES === 0) progress(`${i + 1} of ${files.length} files read`);
    }
    // A copy whose twin changed or went this pass is the only one left of its text: indexed after all.
    let duplicates = 0;
    for (const copy of copies) {
      if (index.sameAs(copy.path, copy.document.digest) !== undefined) duplicates++;
      else {
        index.put(copy.path, copy.document);
        changed++;
      }
    }
    index.settleSummaries();
    return {
      ...index.counts(),
      changed,
      unchanged: files.length - changed - duplicates - skipped.length,
      removed: gone.length,
      duplicates,
      skipped: [...unwalked, ...skipped],
    };
  } finally {
    index.close();
  }
}

/**
 * Reads a docs site into the index, from the source `choice` says (site.ts), or resumes an interrupted crawl.
 * A site nothing could be read from leaves no index behind that was not there before, and an index that was
 * there saying the source it said (`--replace` by a mistyped URL, a refresh with other options); an
 * interrupted crawl keeps what it read, for the same command to resume.
 */
export async function buildFromSite(
  home: IndexHome,
  name: string,
  start: URL,
  options: CrawlOptions,
  deps: CrawlDeps,
  choice: SourceChoice,
): Promise<SiteReport & Totals> {
  const isNew = !exists(indexFile(home, name));
  const index = openIndex(home, name);
  const held = sourceRecord(index);
  let dropIndex = false;
  try {
    const report = await readSite(index, start, options, deps, choice);
    return { ...report, ...index.counts() };
  } catch (error) {
    if (error instanceof SiteUnreachableError) {
      // Nothing was read: an index made for this run would only be an empty name in `index list`, and one
      // that was there still holds the docs of the source it recorded (which `index refresh` reads again).
      dropIndex = isNew;
      if (!isNew) restoreSource(index, held);
      // The site's own answer (a 404, robots.txt's refusal) is the same the next time: only the URL can change.
      throw new Problem(
        error.message,
        error.transient ? "check the URL and the network, then run the same command" : "check the URL",
      );
    }
    if (error instanceof CrawlInterruptedError) {
      throw new Problem(
        `${error.message}; what was read is kept`,
        "run the same command again to resume where it stopped",
      );
    }
    throw error;
  } finally {
    index.close();
    if (dropIndex) deleteIndexFiles(home, name);
  }
}

/** What an index of a site was last read with: where from, how far and which pages. */
export type SiteBuilt = Omit<RecordedPass, "source"> & { source: SiteSource };

/** What `refresh` builds the index `name` from again: its folder or file, or its site as it was read last. */
export function builtFrom(home: IndexHome, name: string): { root: string } | { site: SiteBuilt } {
  if (!exists(indexFile(home, name))) {
    throw new Problem(`there is no index ${name}`, "docsearch-hook index add <name> <folder|file|URL>");
  }
  const index = DocsIndex.open(indexFile(home, name));
  let root, pass;
  try {
    root = index.meta("root");
    pass = recordedPass(index);
  } finally {
    index.close();
  }
  if (pass !== undefined) return { site: { ...pass, source: sourceOf(pass.source) } };
  if (root === undefined) throw new Problem(`the index ${name} does not say what it was built from`);
  return { root };
}

/** The index to build into; one an older version built is emptied into the current layout and read again. */
function openIndex(home: IndexHome, name: string): DocsIndex {
  ensurePrivateDir(indexesDir(home));
  const index = DocsIndex.open(indexFile(home, name));
  try {
    index.upgrade();
  } catch (error) {
    index.close();
    throw error;
  }
  return index;
}
