/**
 * `docsearch-hook index add|refresh|list|remove`: documentation indexed into SQLite FTS5, one file per index
 * under the state directory. A source is a folder or file (Markdown, HTML, text) or a docs site's URL (read
 * from its llms-full.txt or llms.txt when it publishes them, else crawled). Adding again (or `refresh`)
 * re-reads only what changed. `add` also points the user config's entry of that name at the built-in MCP
 * tool, so the redirect sends the agent to this index; `remove` takes that entry away. Here
 * the arguments are read and the outcome said: build.ts builds, index_share.ts exports and imports, and
 * project/index_project.ts indexes a project's dependencies (`add --project`).
 */
import { InvalidInputError, Problem, UsageError } from "../errors.ts";
import type { CommandContext } from "../cli/context.ts";
import { count } from "../cli/io.ts";
import { buildFromFiles, buildFromSite, builtFrom, type SiteBuilt, type Totals } from "./build.ts";
import { withoutIndexEntry } from "./config_entry.ts";
import { type CrawlOptions, DEFAULT_CRAWL } from "./crawl.ts";
import { failureCounts, MAX_FAILED_SHARE, tooManyFailed } from "./crawl_failures.ts";
import { checkIndexName, deleteIndexFiles, indexFile, indexSummaries } from "./indexes.ts";
import { configFile, editConfig, isUrl, list, updateConfig } from "./index_config.ts";
import { exportIndex, importIndex } from "./index_share.ts";
import { type SiteReport, type SiteSource, type SourceChoice, sourceOf } from "./site.ts";
import { checkPattern } from "./url_patterns.ts";
import { exists, realPath } from "../files.ts";
import { resolvePath } from "../paths.ts";

export interface IndexArgs {
  positionals: string[];
  values: {
    keywords?: string;
    domains?: string;
    description?: string;
    "max-pages"?: string;
    include?: string[];
    exclude?: string[];
    crawl?: boolean;
    sha256?: string;
    name?: string;
    project?: boolean;
    replace?: boolean;
    "no-config"?: boolean;
    config?: string;
  };
}

const say = (line: string) => `docsearch-hook index: ${line}`;

const totals = ({ documents, chunks }: Totals) =>
  `${count(documents, "document")}, ${count(chunks, "chunk")}`;

const seconds = (context: CommandContext, started: number) =>
  ((context.elapsed() - started) / 1000).toFixed(1);

/** Builds the index from a folder or a file, and says what changed and how long it took. */
function buildFiles(context: CommandContext, name: string, source: string): void {
  const { stdout: print, stderr: printError } = context;
  const started = context.elapsed();
  const built = buildFromFiles(context, name, source, (line) => printError(say(line)));
  print(
    `Indexed ${name} from ${source}: ${totals(built)} (${built.changed} new or changed, ` +
      `${built.unchanged} unchanged, ${built.removed} removed` +
      `${built.duplicates > 0 ? `, ${built.duplicates} the same as another file` : ""}) in ` +
      `${seconds(context, started)} s.`,
  );
  for (const line of built.skipped) printError(say(`skipped ${line}`));
  if (built.documents === 0) {
    printError(say(`no documentation files in ${source} (.md, .markdown, .mdx, .html, .htm, .txt, .rst)`));
  }
}

/**
 * A source as it is compared with the one an index holds: a folder or file by its real path (no trailing
 * separator, links resolved, Windows' case), else as written; a site without its `#…`, which the crawl drops.
 */
function sameSourceKey(source: { root: string } | { start: URL }): string {
  if ("start" in source) {
    const url = new URL(source.start);
    url.hash = "";
    return url.href;
  }
  return realPath(source.root.replace(/(?<=.)[\\/]+$/, ""));
}

/** The source the index `name` holds: undefined when there is no such index, "unknown" when it does not say. */
function heldSource(
  context: CommandContext,
  name: string,
): { root: string } | { start: URL } | "unknown" | undefined {
  if (!exists(indexFile(context, name))) return undefined;
  try {
    const built = builtFrom(context, name);
    return "root" in built ? { root: built.root } : { start: built.site.start };
  } catch {
    return "unknown";
  }
}

/** A source as the messages write it: the folder or file, or the site's start URL. */
const sourceText = (source: { root: string } | { start: URL }) =>
  "root" in source ? source.root : source.start.href;

/**
 * Refuses to read a source into an index that holds another one: `add` of a name already taken would replace
 * its docs (a long crawl, a team's import) without a word, and its config entry would go on describing the
 * old ones. The same source again, however it is written, is a refresh, and goes on.
 */
function keepOther(context: CommandContext, name: string, wanted: { root: string } | { start: URL }): void {
  const held = heldSource(context, name);
  if (held === undefined) return;
  const asked = sourceText(wanted);
  const fix = `choose another name, or replace them: docsearch-hook index add ${name} ${asked} --replace`;
  if (held === "unknown") {
    throw new Problem(
      `the index ${name} already holds docs this version cannot tell the source of (an imported index, or a ` +
        `project's package); reading ${asked} into it would replace them`,
      fix,
    );
  }
  if (sameSourceKey(held) === sameSourceKey(wanted)) return;
  throw new Problem(
    `the index ${name} already holds ${sourceText(held)}; reading ${asked} into it would replace those docs`,
    `${fix} (index refresh ${name} reads ${sourceText(held)} again)`,
  );
}

/** What `--replace` replaces, for the entry to forget: the source the index held, when it says. */
function replacedSource(context: CommandContext, name: string): string | undefined {
  const held = heldSource(context, name);
  return held === undefined || held === "unknown" ? undefined : sourceText(held);
}

/** How many pages a listing shows of each kind (skipped, failed) before it counts the rest. */
const LISTED = 20;

/**
 * Reads a site into the index and says from where, what changed, and which pages were left out or failed.
 * Returns the problem to exit with when too many pages failed: the index keeps what was read, and the
 * caller finishes its work (the config entry) before it throws.
 */
async function buildSite(
  context: CommandContext,
  name: string,
  start: URL,
  options: CrawlOptions,
  choice: SourceChoice,
): Promise<Problem | undefined> {
  const { stdout: print, stderr: printError } = context;
  const started = context.elapsed();
  const built = await buildFromSite(context, name, start, options, {
    fetch,
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    progress: (line) => printError(say(line)),
  }, choice);
  const changes = `${built.changed} new or changed, ${built.unchanged} unchanged, ${built.removed} removed`;
  print(
    `Indexed ${name} from ${start.href} (${sourceSaid(built.source)}): ${totals(built)} ` +
      `(${pagesSaid(built)}; ${changes}) in ${seconds(context, started)} s.`,
  );
  if (built.limitReached) {
    printError(say(`stopped at the page limit (${options.maxPages}); pass --max-pages to read more`));
  }
  const listed = (verb: string, pages: readonly { url: string; note: string }[]) => {
    for (const page of pages.slice(0, LISTED)) printError(say(`${verb} ${page.url} (${page.note})`));
    if (pages.length > LISTED) printError(say(`… and ${pages.length - LISTED} more ${verb}`));
  };
  listed("skipped", built.skipped);
  listed("failed", built.failed);
  const { failed, read } = built;
  if (failed.length === 0) return undefined;
  const share = `${failed.length} of ${read + failed.length} pages failed (${failureCounts(failed)})`;
  const retry = `docsearch-hook index refresh ${name} asks for them again`;
  // A crawl starts from a page of its own; the pages of an llms file are all alike.
  const startPage = built.source.kind === "crawl" ? start.href : undefined;
  if (!tooManyFailed(read, failed, startPage)) {
    printError(say(`warning: ${share}; ${retry}`));
    return undefined;
  }
  const startFailed = failed.find((page) => page.url === startPage);
  const why = startFailed === undefined
    ? `${share}, more than ${MAX_FAILED_SHARE * 100}%`
    : `the start page failed (${startFailed.note}); ${share}`;
  return new Problem(
    `${why}; the index keeps the ${count(read, "page")} read`,
    `see the failed pages above; once the site serves them, ${retry}`,
  );
}

/** Where a site's index was read from, as the summary line and `index list` say it. */
function sourceSaid(source: SiteSource): string {
  switch (source.kind) {
    case "crawl":
      return "crawled";
    case "llms-full.txt":
      return `from ${source.url.href}`;
    case "llms.txt":
      return `the pages ${source.url.href} lists`;
  }
}

/** How many pages were asked for: of an llms file, those of its pages in scope. */
function pagesSaid(built: SiteReport): string {
  const resumed = built.resumed ? " to finish an interrupted crawl" : "";
  const requested = `${built.fetched} pages requested${resumed}`;
  if (built.listed === undefined) return requested;
  const inScope = `${built.listed.inScope} of its ${built.listed.pages} pages in scope`;
  return built.source.kind === "llms-full.txt" ? inScope : `${inScope}, ${requested}`;
}

/** The crawl options the command line gives for a site, checked: the page limit and the patterns. */
function siteOptions(values: IndexArgs["values"], start: URL, recorded?: SiteBuilt): CrawlOptions {
  const patterns = (option: "include" | "exclude") =>
    values[option]?.map((pattern) => checkPattern(`--${option}`, pattern, start)) ?? recorded?.[option] ?? [];
  const given = values["max-pages"];
  return {
    ...DEFAULT_CRAWL,
    maxPages: given === undefined ? recorded?.maxPages ?? DEFAULT_CRAWL.maxPages : maxPages(given),
    include: patterns("include"),
    exclude: patterns("exclude"),
  };
}

/** What a site is read from: `--crawl` crawls; else an add finds the best source, a refresh reads the same. */
const sourceChoice = (values: IndexArgs["values"], recorded?: SiteBuilt): SourceChoice =>
  values.crawl ? "crawl" : recorded?.source ?? "find";

/** The start URL of a site source; a folder or file is not one. */
function siteStart(source: string): URL {
  try {
    return new URL(source);
  } catch {
    throw new UsageError(`"${source}" is not a URL`);
  }
}

function maxPages(value: string): number {
  const pages = Number(value);
  if (!Number.isInteger(pages) || pages < 1) {
    throw new UsageError(`--max-pages must be a whole number of pages, at least 1, not "${value}"`);
  }
  return pages;
}

function listIndexes(context: CommandContext): void {
  const print = context.stdout;
  const summaries = indexSummaries(context);
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
    // An index of a site says what it was read from; one an older version crawled does not.
    const source = summary.root !== undefined && isUrl(summary.root)
      ? ` (${sourceSaid(sourceOf(summary.source ?? "crawl"))})`
      : "";
    print(`${name}  ${totals(summary)}  ${summary.root ?? ""}${source}${unfinished}`);
  }
}

function remove(context: CommandContext, name: string, values: IndexArgs["values"]): void {
  const { stdout: print } = context;
  if (!exists(indexFile(context, name))) {
    throw new Problem(`there is no index ${name}`, "docsearch-hook index list");
  }
  deleteIndexFiles(context, name);
  print(`Removed the index ${name}.`);
  if (values["no-config"]) return;
  const path = configFile(values, context);
  if (editConfig(path, (config) => withoutIndexEntry(config, name), context).change !== "unchanged") {
    print(`Removed its database entry from ${path}.`);
  }
}

/** The options that only a site takes, refused for a folder or a file. */
function notForFiles(values: IndexArgs["values"]): void {
  const given = (["include", "exclude", "crawl", "max-pages"] as const).filter((option) =>
    values[option] !== undefined
  );
  if (given.length > 0) {
    throw new InvalidInputError(
      `--${given[0]} is for a docs site's URL, not a folder or a file`,
      "leave it out, or give the site's http(s) URL",
    );
  }
}

export async function run({ positionals, values }: IndexArgs, context: CommandContext): Promise<number> {
  const [action, name, source] = positionals;
  switch (action) {
    case "add": {
      if (values.project) {
        // The folder is the one positional: `index add --project [DIR]`.
        if (source !== undefined) throw new UsageError("docsearch-hook index add --project [folder]");
        await (await import("../project/index_project.ts")).addProject(context, name, values);
        return 0;
      }
      const checked = checkIndexName(name);
      if (source === undefined) {
        throw new UsageError(`say what to index as ${checked}: a folder, a file, or a docs site's URL`);
      }
      // Options are checked before any work, so a typo costs nothing.
      list("keywords", values.keywords);
      list("domains", values.domains);
      if (!isUrl(source)) {
        notForFiles(values);
        const resolved = resolvePath(context.cwd, source, context.os);
        // A source that is not there is said as such by the build, not taken for another source.
        if (!values.replace && exists(resolved)) keepOther(context, checked, { root: resolved });
        const replaced = values.replace ? replacedSource(context, checked) : undefined;
        buildFiles(context, checked, resolved);
        updateConfig(context, checked, resolved, values, { replaced });
        return 0;
      }
      const resolved = source.trim();
      const start = siteStart(resolved);
      if (!values.replace) keepOther(context, checked, { start });
      const replaced = values.replace ? replacedSource(context, checked) : undefined;
      const options = siteOptions(values, start);
      const incomplete = await buildSite(context, checked, start, options, sourceChoice(values));
      // An index that kept what it could read is still one to send the agent to.
      updateConfig(context, checked, resolved, values, { replaced });
      if (incomplete !== undefined) throw incomplete;
      return 0;
    }
    case "refresh": {
      const checked = checkIndexName(name);
      const built = builtFrom(context, checked);
      if ("root" in built) {
        notForFiles(values);
        buildFiles(context, checked, built.root);
        return 0;
      }
      const { site } = built;
      const options = siteOptions(values, site.start, site);
      const incomplete = await buildSite(context, checked, site.start, options, sourceChoice(values, site));
      if (incomplete !== undefined) throw incomplete;
      return 0;
    }
    case "list":
      listIndexes(context);
      return 0;
    case "remove":
      remove(context, checkIndexName(name), values);
      return 0;
    case "export":
      await exportIndex(context, checkIndexName(name), source);
      return 0;
    case "import":
      await importIndex(context, name, values);
      return 0;
    default:
      throw new UsageError(
        action === undefined
          ? "say what to do: add, refresh, list, remove, export or import"
          : `unknown index action "${action}"`,
      );
  }
}
