/**
 * `docsearch-hook index add|refresh|list|remove`: documentation indexed into SQLite FTS5, one file per index
 * under the state directory. A source is a folder or file (Markdown, HTML, text) or a docs site's URL. Adding
 * again (or `refresh`) re-reads only what changed. `add` also points the user config's entry of that name at
 * the built-in MCP tool, so the redirect sends the agent to this index; `remove` takes that entry away.
 */
import { messageOf, Problem, UsageError } from "../errors.ts";
import { count, print, printError } from "../cli/io.ts";
import { withoutIndexEntry } from "./config_entry.ts";
import {
  crawl,
  CrawlInterruptedError,
  type CrawlOptions,
  DEFAULT_CRAWL,
  SiteUnreachableError,
} from "./crawl.ts";
import { checkIndexName, indexesDir, indexFile, indexSummaries } from "./indexes.ts";
import { documentationFiles, readDocument } from "./sources.ts";
import { configFile, editConfig, isUrl, list, updateConfig } from "./index_config.ts";
import { exportIndex, importIndex } from "./index_share.ts";
import { DocsIndex, type StoredDocument } from "./store.ts";
import { exists } from "../files.ts";
import { resolvePath } from "../paths.ts";
import { ensurePrivateDir } from "../state/dir.ts";

export interface IndexArgs {
  positionals: string[];
  values: {
    keywords?: string;
    domains?: string;
    description?: string;
    "max-pages"?: string;
    sha256?: string;
    name?: string;
    project?: boolean;
    "no-config"?: boolean;
    config?: string;
  };
}

const os = Deno.build.os;

/** Brings the index up to date with a folder or file; prints what changed. */
function buildFromFiles(name: string, root: string): void {
  const started = performance.now();
  let files;
  try {
    files = documentationFiles(root);
  } catch (error) {
    throw new Problem(
      `cannot read ${root}: ${messageOf(error)}`,
      "give a folder or a file of documentation (Markdown, HTML or text), or a docs site's http(s) URL",
    );
  }
  const index = openIndex(name);
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
      if ((i + 1) % 200 === 0) printError(`docsearch-hook index: ${i + 1} of ${files.length} files read`);
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
    const seconds = (performance.now() - started) / 1000;
    print(
      `Indexed ${name} from ${root}: ${totals(index)} (${changed} new or changed, ` +
        `${files.length - changed - duplicates - skipped.length} unchanged, ${gone.length} removed` +
        `${duplicates > 0 ? `, ${duplicates} the same as another file` : ""}) in ${seconds.toFixed(1)} s.`,
    );
    for (const line of skipped) printError(`docsearch-hook index: skipped ${line}`);
    if (index.counts().documents === 0) {
      printError(
        `docsearch-hook index: no documentation files in ${root} (.md, .markdown, .mdx, .html, .htm, .txt, .rst)`,
      );
    }
  } finally {
    index.close();
  }
}

/** Crawls (or resumes crawling) a docs site into the index; prints what changed. */
async function buildFromSite(name: string, start: URL, options: CrawlOptions): Promise<void> {
  const started = performance.now();
  const isNew = !exists(indexFile(name));
  const index = openIndex(name);
  let dropIndex = false;
  try {
    const report = await crawl(index, start, options, {
      fetch,
      sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
      progress: (line) => printError(`docsearch-hook index: ${line}`),
    });
    const seconds = (performance.now() - started) / 1000;
    print(
      `Indexed ${name} from ${start.href}: ${totals(index)} (${report.fetched} pages requested` +
        `${report.resumed ? " to finish an interrupted crawl" : ""}; ${report.changed} new or changed, ` +
        `${report.unchanged} unchanged, ${report.removed} removed) in ${seconds.toFixed(1)} s.`,
    );
    if (report.limitReached) {
      printError(
        `docsearch-hook index: stopped at the page limit (${options.maxPages}); pass --max-pages to read more`,
      );
    }
    const shown = report.skipped.slice(0, 20);
    for (const page of shown) printError(`docsearch-hook index: skipped ${page.url} (${page.note})`);
    if (report.skipped.length > shown.length) {
      printError(`docsearch-hook index: … and ${report.skipped.length - shown.length} more skipped`);
    }
  } catch (error) {
    if (error instanceof SiteUnreachableError) {
      // Nothing was read: an index made for this run would only be an empty name in `index list`.
      dropIndex = isNew;
      throw new Problem(error.message, "check the URL and the network, then run the same command");
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
    if (dropIndex) deleteIndexFiles(name);
  }
}

/** The index file and SQLite's companions; what is already gone is fine. */
function deleteIndexFiles(name: string): void {
  for (const suffix of ["", "-wal", "-shm"]) {
    try {
      Deno.removeSync(indexFile(name) + suffix);
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound)) throw error;
    }
  }
}

/** The index to build into; one an older version built is emptied into the current layout and read again. */
function openIndex(name: string): DocsIndex {
  ensurePrivateDir(indexesDir());
  const index = DocsIndex.open(indexFile(name));
  try {
    index.upgrade();
  } catch (error) {
    index.close();
    throw error;
  }
  return index;
}

function totals(index: DocsIndex): string {
  const { documents, chunks } = index.counts();
  return `${count(documents, "document")}, ${count(chunks, "chunk")}`;
}

function maxPages(value: string | undefined): number {
  if (value === undefined) return DEFAULT_CRAWL.maxPages;
  const pages = Number(value);
  if (!Number.isInteger(pages) || pages < 1) {
    throw new UsageError(`--max-pages must be a whole number of pages, at least 1, not "${value}"`);
  }
  return pages;
}

function listIndexes(): void {
  const summaries = indexSummaries();
  if (summaries.length === 0) {
    print("No indexes yet: docsearch-hook index add <name> <folder|file|URL>");
    return;
  }
  for (const summary of summaries) {
    const { name } = summary;
    if ("problem" in summary) {
      print(`${name}  cannot be read: ${summary.problem} (index remove ${name}, then add it again)`);
      continue;
    }
    const queued = summary.interruptedWithQueued;
    const unfinished = queued === undefined
      ? ""
      : `  (crawl interrupted, ${queued} pages queued: index refresh ${name} resumes it)`;
    print(
      `${name}  ${count(summary.documents, "document")}, ${count(summary.chunks, "chunk")}  ${
        summary.root ?? ""
      }${unfinished}`,
    );
  }
}

function remove(name: string, values: IndexArgs["values"]): void {
  const file = indexFile(name);
  if (!exists(file)) throw new Problem(`there is no index ${name}`, "docsearch-hook index list");
  deleteIndexFiles(name);
  print(`Removed the index ${name}.`);
  if (values["no-config"]) return;
  const path = configFile(values);
  if (editConfig(path, (config) => withoutIndexEntry(config, name)).change !== "unchanged") {
    print(`Removed its database entry from ${path}.`);
  }
}

async function build(name: string, source: string, values: IndexArgs["values"]): Promise<void> {
  if (!isUrl(source)) {
    buildFromFiles(name, source);
    return;
  }
  let start: URL;
  try {
    start = new URL(source);
  } catch {
    throw new UsageError(`"${source}" is not a URL`);
  }
  await buildFromSite(name, start, { ...DEFAULT_CRAWL, maxPages: maxPages(values["max-pages"]) });
}

export async function run({ positionals, values }: IndexArgs): Promise<number> {
  const [action, name, source] = positionals;
  switch (action) {
    case "add": {
      if (values.project) {
        // The folder is the one positional: `index add --project [DIR]`.
        if (source !== undefined) throw new UsageError("docsearch-hook index add --project [folder]");
        (await import("../project/index_project.ts")).addProject(name, values);
        return 0;
      }
      const checked = checkIndexName(name);
      if (source === undefined) {
        throw new UsageError("docsearch-hook index add <name> <folder|file|URL>");
      }
      const resolved = isUrl(source) ? source.trim() : resolvePath(Deno.cwd(), source, os);
      // Options are checked before any work, so a typo costs nothing.
      list("keywords", values.keywords);
      list("domains", values.domains);
      maxPages(values["max-pages"]);
      await build(checked, resolved, values);
      updateConfig(checked, resolved, values);
      return 0;
    }
    case "refresh": {
      const checked = checkIndexName(name);
      if (!exists(indexFile(checked))) {
        throw new Problem(
          `there is no index ${checked}`,
          "docsearch-hook index add <name> <folder|file|URL>",
        );
      }
      const index = DocsIndex.open(indexFile(checked));
      let root, storedPages;
      try {
        root = index.meta("root");
        storedPages = index.meta("max_pages");
      } finally {
        index.close();
      }
      if (root === undefined) {
        throw new Problem(`the index ${checked} does not say what it was built from`);
      }
      await build(checked, root, { ...values, "max-pages": values["max-pages"] ?? storedPages });
      return 0;
    }
    case "list":
      listIndexes();
      return 0;
    case "remove":
      remove(checkIndexName(name), values);
      return 0;
    case "export":
      await exportIndex(checkIndexName(name), source);
      return 0;
    case "import":
      await importIndex(name, values);
      return 0;
    default:
      throw new UsageError(
        action === undefined
          ? "say what to do: add, refresh, list, remove, export or import"
          : `unknown index action "${action}"`,
      );
  }
}
