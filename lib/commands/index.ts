/**
 * `docsearch-hook index add|refresh|list|remove`: local documentation folders indexed into SQLite FTS5, one
 * file per index under the state directory. Adding again (or `refresh`) re-reads only files whose size or
 * modification time changed and drops those that are gone.
 */
import { CommandFailedError, UsageError } from "../cli/errors.ts";
import { count, print, printError } from "../cli/io.ts";
import { documentationFiles, readDocument } from "../docs/sources.ts";
import { exists } from "../files.ts";
import { DocsIndex } from "../docs/store.ts";
import { checkIndexName, indexesDir, indexFile, indexNames } from "../docs/indexes.ts";
import { resolvePath } from "../paths.ts";
import { ensurePrivateDir } from "../state/dir.ts";

export interface IndexArgs {
  positionals: string[];
}

const os = Deno.build.os;

/** Brings the index up to date with `root`; prints what changed. */
function build(name: string, root: string): void {
  const started = performance.now();
  let files;
  try {
    files = documentationFiles(root);
  } catch (error) {
    throw new CommandFailedError(
      `cannot read ${root}: ${(error as Error).message}`,
      "give a folder or a file of documentation (Markdown or text)",
    );
  }
  ensurePrivateDir(indexesDir());
  const index = DocsIndex.open(indexFile(name));
  try {
    index.setMeta("root", root);
    const stamps = index.stamps();
    let changed = 0;
    const skipped: string[] = [];
    for (const [i, file] of files.entries()) {
      const old = stamps.get(file.path);
      stamps.delete(file.path);
      if (old?.size === file.size && old.mtime === file.mtime) continue;
      const read = readDocument(file.path, file.size);
      if ("skipped" in read) {
        skipped.push(`${file.path} (${read.skipped})`);
        index.remove(file.path);
        continue;
      }
      index.put(file.path, read.title, file, read.chunks);
      changed++;
      if ((i + 1) % 200 === 0) printError(`docsearch-hook index: ${i + 1} of ${files.length} files read`);
    }
    // What is left was indexed before and is gone now.
    for (const source of stamps.keys()) index.remove(source);
    const { documents, chunks } = index.counts();
    const seconds = (performance.now() - started) / 1000;
    print(
      `Indexed ${name} from ${root}: ${count(documents, "document")}, ${count(chunks, "chunk")} ` +
        `(${changed} new or changed, ${files.length - changed - skipped.length} unchanged, ` +
        `${stamps.size} removed) in ${seconds.toFixed(1)} s.`,
    );
    for (const line of skipped) printError(`docsearch-hook index: skipped ${line}`);
    if (documents === 0) {
      printError(
        `docsearch-hook index: no Markdown or text files in ${root} (.md, .markdown, .mdx, .txt, .rst)`,
      );
    }
  } finally {
    index.close();
  }
}

function list(): void {
  const names = indexNames();
  if (names.length === 0) {
    print("No indexes yet: docsearch-hook index add <name> <folder>");
    return;
  }
  for (const name of names) {
    const index = DocsIndex.open(indexFile(name));
    try {
      const { documents, chunks } = index.counts();
      print(
        `${name}  ${count(documents, "document")}, ${count(chunks, "chunk")}  ${index.meta("root") ?? ""}`,
      );
    } finally {
      index.close();
    }
  }
}

function remove(name: string): void {
  const file = indexFile(name);
  if (!exists(file)) throw new CommandFailedError(`there is no index ${name}`, "docsearch-hook index list");
  for (const suffix of ["", "-wal", "-shm"]) {
    try {
      Deno.removeSync(file + suffix);
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound)) throw error;
    }
  }
  print(`Removed the index ${name}.`);
}

export function run({ positionals }: IndexArgs): number {
  const [action, name, source] = positionals;
  switch (action) {
    case "add": {
      if (source === undefined) throw new UsageError("docsearch-hook index add <name> <folder or file>");
      build(checkIndexName(name), resolvePath(Deno.cwd(), source, os));
      return 0;
    }
    case "refresh": {
      const checked = checkIndexName(name);
      if (!exists(indexFile(checked))) {
        throw new CommandFailedError(
          `there is no index ${checked}`,
          "docsearch-hook index add <name> <folder>",
        );
      }
      const index = DocsIndex.open(indexFile(checked));
      const root = index.meta("root");
      index.close();
      if (root === undefined) {
        throw new CommandFailedError(`the index ${checked} does not say what it was built from`);
      }
      build(checked, root);
      return 0;
    }
    case "list":
      list();
      return 0;
    case "remove":
      remove(checkIndexName(name));
      return 0;
    default:
      throw new UsageError(
        action === undefined
          ? "say what to do: add, refresh, list or remove"
          : `unknown index action "${action}"`,
      );
  }
}
