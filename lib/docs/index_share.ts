/**
 * `docsearch-hook index export NAME FILE` and `index import FILE|URL`: an index shared as one file
 * (docs/share.ts). Export writes a consistent copy even while the index is being written; import checks the
 * file whole (its own checksum, and the one the user was given with `--sha256`) and the index inside it
 * before anything is installed, and installs it under its name in one rename.
 */
import { messageOf, Problem, UsageError } from "../errors.ts";
import { concatBytes } from "../bytes.ts";
import type { CommandContext } from "../cli/context.ts";
import { count } from "../cli/io.ts";
import { checkIndexName, indexesDir, indexFile } from "./indexes.ts";
import { ImportRefusedError, packIndex, sha256Hex, unpackIndex } from "./share.ts";
import { DocsIndex } from "./store.ts";
import { exists } from "../files.ts";
import { join, type OS, resolvePath } from "../paths.ts";
import { ensurePrivateDir } from "../state/dir.ts";
import { VERSION } from "../version.ts";
import { type ConfigValues, isUrl, list, updateConfig } from "./index_config.ts";

/** An export is an index: hundreds of MB at most for the largest manuals; more is not one of ours. */
const MAX_IMPORT_BYTES = 2 * 1024 * 1024 * 1024;

const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

export async function exportIndex(
  context: CommandContext,
  name: string,
  target: string | undefined,
): Promise<void> {
  if (target === undefined) throw new UsageError("docsearch-hook index export <name> <file>");
  const file = resolvePath(context.cwd, target, context.os);
  if (!exists(indexFile(context, name))) {
    throw new Problem(`there is no index ${name}`, "docsearch-hook index list");
  }
  const index = DocsIndex.open(indexFile(context, name));
  // VACUUM INTO writes a compact copy as of one moment, whatever writes the index meanwhile.
  const snapshot = `${file}.${context.pid}.tmp`;
  let packed: Uint8Array;
  try {
    if (index.isOutdated) {
      throw new Problem(
        `the index ${name} was built by an older docsearch-hook`,
        `docsearch-hook index refresh ${name}, then export it`,
      );
    }
    index.db.prepare("VACUUM INTO ?").run(snapshot);
    const { documents, chunks } = index.counts();
    packed = await packIndex(
      { name, source: index.meta("root"), documents, chunks, writtenBy: VERSION },
      await Deno.readFile(snapshot),
    );
  } catch (error) {
    if (error instanceof Problem) throw error;
    throw new Problem(`cannot export the index ${name} to ${file}: ${messageOf(error)}`);
  } finally {
    index.close();
    await Deno.remove(snapshot).catch(() => {});
  }
  // Written aside and renamed, so a reader never sees half a file.
  const partial = `${file}.${context.pid}.partial`;
  try {
    await Deno.writeFile(partial, packed);
    await Deno.rename(partial, file);
  } catch (error) {
    await Deno.remove(partial).catch(() => {});
    throw new Problem(`cannot write ${file}: ${messageOf(error)}`);
  }
  const sha256 = await sha256Hex(packed);
  context.stdout(
    `Exported the index ${name} to ${file} (${megabytes(packed.length)}), sha256 ${sha256}.\n` +
      `Import it elsewhere with: docsearch-hook index import ${file} --sha256 ${sha256}`,
  );
}

/**
 * The export's bytes from a file (relative to `cwd`) or an http(s) URL, refused past the size cap before it is
 * all read.
 */
async function fetchExport(
  source: string,
  { cwd, os }: Pick<CommandContext, "cwd" | "os">,
): Promise<Uint8Array> {
  if (!isUrl(source)) {
    const path = resolvePath(cwd, source, os);
    let size: number;
    try {
      const info = await Deno.stat(path);
      if (!info.isFile) throw new Problem(`${path} is not a file`);
      size = info.size;
    } catch (error) {
      if (error instanceof Problem) throw error;
      throw new Problem(`cannot read ${path}: ${messageOf(error)}`);
    }
    if (size > MAX_IMPORT_BYTES) throw new Problem(`${path} is larger than an index export can be`);
    return await Deno.readFile(path);
  }
  let response: Response;
  try {
    response = await fetch(source);
  } catch (error) {
    throw new Problem(`cannot download ${source}: ${messageOf(error)}`, "check the URL and the network");
  }
  if (!response.ok || response.body === null) {
    await response.body?.cancel();
    throw new Problem(`cannot download ${source}: HTTP ${response.status}`, "check the URL");
  }
  const chunks: Uint8Array[] = [];
  let total = 0;
  for await (const chunk of response.body) {
    total += chunk.length;
    if (total > MAX_IMPORT_BYTES) {
      throw new Problem(`${source} is larger than an index export can be`);
    }
    chunks.push(chunk);
  }
  return concatBytes(chunks, total);
}

export interface ImportValues extends ConfigValues {
  sha256?: string;
  name?: string;
}

export async function importIndex(
  context: CommandContext,
  source: string | undefined,
  values: ImportValues,
): Promise<void> {
  if (source === undefined) {
    throw new UsageError("docsearch-hook index import <file|URL> [--sha256 HEX] [--name NAME]");
  }
  const expected = values.sha256?.trim().toLowerCase();
  if (expected !== undefined && !/^[0-9a-f]{64}$/.test(expected)) {
    throw new UsageError(`--sha256 takes the 64 hex digits of a SHA-256, not "${values.sha256}"`);
  }
  // Everything that can be checked before the download is: a typo costs nothing, and installs nothing.
  list("keywords", values.keywords);
  list("domains", values.domains);
  if (values.name !== undefined && exists(indexFile(context, checkIndexName(values.name)))) {
    throw alreadyThere(values.name);
  }
  const file = await fetchExport(source, context);
  const refused = (why: string) =>
    new Problem(`${source} was not imported: ${why}`, "get the file again from where it was published");
  if (expected !== undefined) {
    const actual = await sha256Hex(file);
    if (actual !== expected) throw refused(`its sha256 is ${actual}, not the ${expected} you gave`);
  }
  let unpacked;
  try {
    unpacked = await unpackIndex(file);
  } catch (error) {
    if (error instanceof ImportRefusedError) throw refused(error.message);
    throw error;
  }
  const { header, index } = unpacked;
  const name = checkIndexName(values.name ?? header.name);
  const target = indexFile(context, name);
  if (exists(target)) throw alreadyThere(name);
  ensurePrivateDir(indexesDir(context));
  sweepStaged(indexesDir(context), context.now(), context.os);
  // Checked where it will live, then linked into place: no half-written or unchecked index is ever searched,
  // and a link, unlike a rename, fails when another import put an index of that name there meanwhile.
  const staged = `${target}.${context.pid}.import`;
  try {
    await Deno.writeFile(staged, index, { mode: 0o600 });
    checkStaged(staged, header.documents, header.chunks, refused);
    try {
      await Deno.link(staged, target);
    } catch (error) {
      if (error instanceof Deno.errors.AlreadyExists) throw alreadyThere(name);
      throw error;
    }
  } finally {
    for (const suffix of ["", "-wal", "-shm"]) await Deno.remove(staged + suffix).catch(() => {});
  }
  context.stdout(
    `Imported the index ${name} from ${source}: ${count(header.documents, "document")}, ` +
      `${count(header.chunks, "chunk")}${header.source ? `, built from ${header.source}` : ""}.`,
  );
  updateConfig(context, name, header.source ?? source, values, { trustSource: false });
}

/** An import takes minutes at most; a staged file this old was left by one that was killed. */
const STALE_STAGED_MS = 24 * 60 * 60 * 1000;

/**
 * Removes what killed imports left in `dir` (a staged copy can be as large as the index), never what a running
 * one is checking: only files older than a day.
 */
export function sweepStaged(dir: string, now: number, os: OS): void {
  for (const entry of Deno.readDirSync(dir)) {
    if (!entry.isFile || !/\.\d+\.import(-wal|-shm)?$/.test(entry.name)) continue;
    const path = join(os, dir, entry.name);
    try {
      const mtime = Deno.statSync(path).mtime?.getTime();
      if (mtime !== undefined && now - mtime > STALE_STAGED_MS) Deno.removeSync(path);
    } catch {
      // Gone already, or not ours to remove: the next import tries again.
    }
  }
}

const alreadyThere = (name: string) =>
  new Problem(
    `there is already an index ${name}`,
    `docsearch-hook index remove ${name} first, or import it under another name with --name`,
  );

/** The staged index opens, reads whole, is of this version's layout and holds what its description says. */
function checkStaged(
  file: string,
  documents: number,
  chunks: number,
  refused: (why: string) => Problem,
): void {
  let index: DocsIndex;
  try {
    index = DocsIndex.open(file);
  } catch (error) {
    throw refused(`the index in it cannot be opened: ${messageOf(error)}`);
  }
  try {
    if (index.isOutdated) throw refused("the index in it is of an older layout");
    // An index holds tables and their indexes; code that runs on its own (a trigger, a view) is not ours.
    const code = index.db.prepare("SELECT name FROM sqlite_master WHERE type IN ('trigger', 'view')")
      .all() as {
        name: string;
      }[];
    if (code.length > 0) {
      throw refused(`the index in it holds code: ${code.map((row) => row.name).join(", ")}`);
    }
    // An index exported before crawls kept a failure's kind lacks that column, as an installed one would.
    index.upgrade();
    const strange = unlikeFresh(index);
    if (strange.length > 0) {
      throw refused(`its tables are not the ones docsearch-hook writes (${strange.join(", ")})`);
    }
    // quick_check reads SQLite's pages; FTS5's own check reads the full-text index inside them.
    index.db.exec("INSERT INTO chunks (chunks) VALUES ('integrity-check')");
    const [check] = index.db.prepare("PRAGMA quick_check(1)").all() as { quick_check: string }[];
    if (check.quick_check !== "ok") throw refused(`the index in it is damaged: ${check.quick_check}`);
    const counted = index.counts();
    if (counted.documents !== documents || counted.chunks !== chunks) {
      throw refused(
        `it says ${documents} documents and ${chunks} chunks, but holds ${counted.documents} and ${counted.chunks}`,
      );
    }
  } catch (error) {
    if (error instanceof Problem) throw error;
    throw refused(`the index in it cannot be read: ${messageOf(error)}`);
  } finally {
    index.close();
  }
}

/**
 * What an index's schema is, each table and index as its SQL, spacing aside: a generated column, a plain
 * table for the passages or FTS5 options of another kind pass SQLite's checks, then exhaust or break search.
 */
function schemaOf(index: DocsIndex): Map<string, string> {
  const rows = index.db.prepare("SELECT type, name, tbl_name, sql FROM sqlite_master").all() as {
    type: string;
    name: string;
    tbl_name: string;
    sql: string | null;
  }[];
  const spacing = (sql: string) => sql.replace(/\s+/g, " ").replace(/ ?([(),]) ?/g, "$1").trim();
  return new Map(
    rows.map((row) => [row.name, `${row.type} on ${row.tbl_name}: ${spacing(row.sql ?? "")}`]),
  );
}

/** The names of the tables and indexes that are missing, extra or other than a fresh index's. */
function unlikeFresh(index: DocsIndex): string[] {
  const fresh = DocsIndex.open(":memory:");
  let expected: Map<string, string>;
  try {
    expected = schemaOf(fresh);
  } finally {
    fresh.close();
  }
  const actual = schemaOf(index);
  const names = new Set([...expected.keys(), ...actual.keys()]);
  return [...names].filter((name) => expected.get(name) !== actual.get(name)).sort();
}
