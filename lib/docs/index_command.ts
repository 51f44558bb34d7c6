/**
 * `docsearch-hook index add|refresh|list|remove`: documentation indexed into SQLite FTS5, one file per index
 * under the state directory. A source is a folder or file (Markdown, HTML, text) or a docs site's URL. Adding
 * again (or `refresh`) re-reads only what changed. `add` also points the user config's entry of that name at
 * the built-in MCP tool, so the redirect sends the agent to this index; `remove` takes that entry away. Here
 * the arguments are read and the outcome said: build.ts builds, index_share.ts exports and imports, and
 * project/index_project.ts indexes a project's dependencies (`add --project`).
 */
import { Problem, UsageError } from "../errors.ts";
import type { CommandContext } from "../cli/context.ts";
import { count } from "../cli/io.ts";
import { buildFromFiles, buildFromSite, builtFrom, type Totals } from "./build.ts";
import { withoutIndexEntry } from "./config_entry.ts";
import { DEFAULT_CRAWL } from "./crawl.ts";
import { checkIndexName, deleteIndexFiles, indexFile, indexSummaries } from "./indexes.ts";
import { configFile, editConfig, isUrl, list, updateConfig } from "./index_config.ts";
import { exportIndex, importIndex } from "./index_share.ts";
import { exists } from "../files.ts";
import { resolvePath } from "../paths.ts";

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

const say = (line: string) => `docsearch-hook index: ${line}`;

const totals = ({ documents, chunks }: Totals) =>
  `${count(documents, "document")}, ${count(chunks, "chunk")}`;

/** Builds the index from a folder, a file or a site, and says what changed and how long it took. */
async function build(
  context: CommandContext,
  name: string,
  source: string,
  values: IndexArgs["values"],
): Promise<void> {
  const { stdout: print, stderr: printError } = context;
  const started = context.elapsed();
  const seconds = () => ((context.elapsed() - started) / 1000).toFixed(1);
  if (!isUrl(source)) {
    const built = buildFromFiles(context, name, source, (line) => printError(say(line)));
    print(
      `Indexed ${name} from ${source}: ${totals(built)} (${built.changed} new or changed, ` +
        `${built.unchanged} unchanged, ${built.removed} removed` +
        `${built.duplicates > 0 ? `, ${built.duplicates} the same as another file` : ""}) in ${seconds()} s.`,
    );
    for (const line of built.skipped) printError(say(`skipped ${line}`));
    if (built.documents === 0) {
      printError(say(`no documentation files in ${source} (.md, .markdown, .mdx, .html, .htm, .txt, .rst)`));
    }
    return;
  }
  let start: URL;
  try {
    start = new URL(source);
  } catch {
    throw new UsageError(`"${source}" is not a URL`);
  }
  const options = { ...DEFAULT_CRAWL, maxPages: maxPages(values["max-pages"]) };
  const built = await buildFromSite(context, name, start, options, {
    fetch,
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    progress: (line) => printError(say(line)),
  });
  print(
    `Indexed ${name} from ${start.href}: ${totals(built)} (${built.fetched} pages requested` +
      `${built.resumed ? " to finish an interrupted crawl" : ""}; ${built.changed} new or changed, ` +
      `${built.unchanged} unchanged, ${built.removed} removed) in ${seconds()} s.`,
  );
  if (built.limitReached) {
    printError(say(`stopped at the page limit (${options.maxPages}); pass --max-pages to read more`));
  }
  const shown = built.skipped.slice(0, 20);
  for (const page of shown) printError(say(`skipped ${page.url} (${page.note})`));
  if (built.skipped.length > shown.length) {
    printError(say(`… and ${built.skipped.length - shown.length} more skipped`));
  }
}

function maxPages(value: string | undefined): number {
  if (value === undefined) return DEFAULT_CRAWL.maxPages;
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
    print(`${name}  ${totals(summary)}  ${summary.root ?? ""}${unfinished}`);
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

export async function run({ positionals, values }: IndexArgs, context: CommandContext): Promise<number> {
  const [action, name, source] = positionals;
  switch (action) {
    case "add": {
      if (values.project) {
        // The folder is the one positional: `index add --project [DIR]`.
        if (source !== undefined) throw new UsageError("docsearch-hook index add --project [folder]");
        (await import("../project/index_project.ts")).addProject(context, name, values);
        return 0;
      }
      const checked = checkIndexName(name);
      if (source === undefined) {
        throw new UsageError("docsearch-hook index add <name> <folder|file|URL>");
      }
      const resolved = isUrl(source) ? source.trim() : resolvePath(context.cwd, source, context.os);
      // Options are checked before any work, so a typo costs nothing.
      list("keywords", values.keywords);
      list("domains", values.domains);
      maxPages(values["max-pages"]);
      await build(context, checked, resolved, values);
      updateConfig(context, checked, resolved, values);
      return 0;
    }
    case "refresh": {
      const checked = checkIndexName(name);
      const { root, maxPages } = builtFrom(context, checked);
      await build(context, checked, root, { ...values, "max-pages": values["max-pages"] ?? maxPages });
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
