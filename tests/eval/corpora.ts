/**
 * The documentation sets the retrieval evaluation and the docs benchmark run on, and what both need around
 * them: the questions, each corpus made available (fetched once into `.cache/eval/`), and indexes built by
 * the real CLI.
 *
 * - npm: the CLI's own Markdown docs (`docs/content/`), from the npm package at a pinned version, so that
 *   every machine evaluates the same pages.
 * - postgresql: the PostgreSQL 15 HTML manual as Debian ships it (postgresql-doc-15).
 * - python: the Python 3.11 library reference (`library/`) as Debian ships it (python3.11-doc): one long
 *   page per module with many sections each, a shape neither of the others has.
 *
 * The two Debian packages are used where installed, else downloaded at a pinned version by apt-get.
 */
import { indexFile, type IndexHome } from "../../lib/docs/indexes.ts";
import { DocsIndex } from "../../lib/docs/store.ts";
import { type CliResult, exists, readFixture, ROOT, runCli, runProgram } from "../helpers.ts";

/** The questions were written against this version's pages; another version may move or drop them. */
export const NPM_VERSION = "11.19.1";
/**
 * A documentation package of Debian 12 at the version the questions were written against, and where in it
 * the pages are. Debian's revisions of one upstream release differ only by the few lines a security fix adds
 * to a page, so an installed package of another revision serves as well.
 */
interface DebianDocs {
  package: string;
  version: string;
  /** The pages' folder inside the package, without the leading "/". */
  pages: string;
}

/** The PostgreSQL 15 manual: every chapter and reference page, one HTML file each. */
export const POSTGRESQL_DOCS: DebianDocs = {
  package: "postgresql-doc-15",
  version: "15.20-0+deb12u1",
  pages: "usr/share/doc/postgresql-doc-15/html",
};
/** The Python library reference: the modules' pages only, not the tutorial or the C API. */
export const PYTHON_DOCS: DebianDocs = {
  package: "python3.11-doc",
  version: "3.11.2-6+deb12u9",
  pages: "usr/share/doc/python3.11/html/library",
};

export const CORPUS_NAMES = ["npm", "postgresql", "python"] as const;
export type CorpusName = typeof CORPUS_NAMES[number];

export interface Question {
  q: string;
  /** The page that answers it, relative to the corpus root, with "/" separators. */
  page: string;
  /** Other pages that answer it just as well. */
  also?: string[];
}

export interface Corpus {
  name: CorpusName;
  label: string;
  /** The corpus folder, fetched first if need be; or why it cannot be had on this machine. */
  locate(): Promise<{ root: string } | { missing: string }>;
}

export const CORPORA: Record<CorpusName, Corpus> = {
  npm: { name: "npm", label: `npm ${NPM_VERSION} docs (Markdown)`, locate: npmDocs },
  postgresql: {
    name: "postgresql",
    label: "PostgreSQL 15 manual (HTML)",
    locate: () => debianDocs(POSTGRESQL_DOCS),
  },
  python: {
    name: "python",
    label: "Python 3.11 library reference (HTML)",
    locate: () => debianDocs(PYTHON_DOCS),
  },
};

/** A program's result, or undefined when it is not on PATH, so a caller can say how to get the corpus. */
async function runIfThere(program: string, args: string[], cwd: string): Promise<CliResult | undefined> {
  try {
    return await runProgram(program, args, { env: Deno.env.toObject(), cwd });
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return undefined;
    throw error;
  }
}

/** `docs/content/` of the pinned npm package, packed by npm itself once and kept in `.cache/eval/`. */
async function npmDocs(): Promise<{ root: string } | { missing: string }> {
  const dir = `${ROOT}.cache/eval/npm-${NPM_VERSION}`;
  const root = `${dir}/package/docs/content`;
  if (await exists(root)) return { root };
  await Deno.mkdir(dir, { recursive: true });
  const run = (program: string, args: string[]) => runIfThere(program, args, dir);
  const packed = await run("npm", ["pack", `npm@${NPM_VERSION}`, "--pack-destination", dir]);
  const tarball = `${dir}/npm-${NPM_VERSION}.tgz`;
  if (packed === undefined || packed.code !== 0 || !await exists(tarball)) {
    await Deno.remove(dir, { recursive: true });
    return {
      missing: `could not fetch the npm ${NPM_VERSION} package with \`npm pack\`` +
        (packed === undefined ? " (npm is not on PATH)" : `: ${npmError(packed.stderr)}`),
    };
  }
  // Unpacked aside and renamed into place, so an interrupted run never leaves a half corpus behind.
  const staging = await Deno.makeTempDir({ dir, prefix: "unpack-" });
  try {
    const unpacked = await run("tar", ["-xzf", tarball, "-C", staging, "package/docs/content"]);
    if (unpacked?.code !== 0) {
      return {
        missing: `could not unpack ${tarball} with tar: ${unpacked?.stderr.trim() ?? "tar is not on PATH"}`,
      };
    }
    await Deno.rename(`${staging}/package`, `${dir}/package`);
  } finally {
    await Deno.remove(staging, { recursive: true });
    await Deno.remove(tarball);
  }
  return { root };
}

/**
 * The installed package's pages, or else the pinned package downloaded by apt-get (no root needed, nothing
 * installed) and unpacked by dpkg-deb into `.cache/eval/` once.
 */
async function debianDocs(docs: DebianDocs): Promise<{ root: string } | { missing: string }> {
  const installed = `/${docs.pages}`;
  if (await exists(installed)) return { root: installed };
  const dir = `${ROOT}.cache/eval/${docs.package}-${docs.version}`;
  const root = `${dir}/${docs.pages}`;
  if (await exists(root)) return { root };
  await Deno.mkdir(dir, { recursive: true });
  const run = (program: string, args: string[]) => runIfThere(program, args, dir);
  const downloaded = await run("apt-get", ["download", `${docs.package}=${docs.version}`]);
  const debs = (await Array.fromAsync(Deno.readDir(dir))).filter((entry) => entry.name.endsWith(".deb"));
  if (downloaded === undefined || downloaded.code !== 0 || debs.length !== 1) {
    await Deno.remove(dir, { recursive: true });
    const why = downloaded === undefined
      ? "apt-get is not on PATH"
      : downloaded.code !== 0
      ? `${aptError(downloaded.stderr)} (run \`apt-get update\` first?)`
      : `apt-get download left ${debs.length} .deb files`;
    return {
      missing: `could not fetch ${docs.package} ${docs.version}: ${why}; ` +
        `install ${docs.package} (Debian, Ubuntu) so that ${installed} exists instead`,
    };
  }
  const deb = `${dir}/${debs[0].name}`;
  // Unpacked aside and renamed into place, so an interrupted run never leaves a half corpus behind.
  const staging = await Deno.makeTempDir({ dir, prefix: "unpack-" });
  try {
    const unpacked = await run("dpkg-deb", ["-x", deb, staging]);
    if (unpacked?.code !== 0 || !await exists(`${staging}/${docs.pages}`)) {
      return {
        missing: `could not unpack ${deb} with dpkg-deb: ` +
          (unpacked === undefined
            ? "dpkg-deb is not on PATH"
            : unpacked.stderr.trim() || `no ${installed} in it`),
      };
    }
    await Deno.rename(`${staging}/usr`, `${dir}/usr`);
  } finally {
    await Deno.remove(staging, { recursive: true });
    await Deno.remove(deb);
  }
  return { root };
}

/** apt-get's error lines ("E: ..."), not its warnings about sandboxing the download. */
const aptError = (stderr: string) =>
  stderr.split("\n").filter((line) => line.startsWith("E: ")).join(" ") || stderr.trim();

/** npm's one line that says what went wrong, not its error code or where its log is. */
const npmError = (stderr: string) =>
  stderr.split("\n").find((line) => /^npm error (?!code |A complete log)/.test(line)) ?? stderr.trim();

/** The corpus's questions; every page they name must exist under `root`, so a typo cannot pass as a miss. */
export async function loadQuestions(corpus: CorpusName, root: string): Promise<Question[]> {
  const file = `eval/${corpus}.json`;
  const questions = JSON.parse(readFixture(file)) as Question[];
  const problems: string[] = [];
  for (const [i, entry] of questions.entries()) {
    const pages = [entry.page, ...(entry.also ?? [])];
    if (typeof entry.q !== "string" || entry.q.trim() === "" || pages.some((p) => typeof p !== "string")) {
      problems.push(`entry ${i + 1} needs a "q" and a "page" (and "also" as a list of pages)`);
      continue;
    }
    for (const page of pages) {
      if (!await exists(`${root}/${page}`)) problems.push(`"${entry.q}": there is no ${page} in ${root}`);
    }
  }
  if (problems.length > 0) throw new Error(`fixtures/${file}:\n  ${problems.join("\n  ")}`);
  return questions;
}

/** A whole CLI process, timed from spawn to exit; a failure is an error, so nothing broken looks fast. */
export async function timedCli(
  args: string[],
  env: Record<string, string>,
): Promise<{ ms: number; out: CliResult }> {
  const start = performance.now();
  const out = await runCli(args, { env });
  const ms = performance.now() - start;
  if (out.code !== 0) {
    throw new Error(`docsearch-hook ${args.join(" ")} exited ${out.code}:\n${out.stderr}`);
  }
  return { ms, out };
}

/** `index add NAME ROOT` as a user runs it, leaving the user config alone. */
export const addIndex = (name: string, root: string, env: Record<string, string>) =>
  timedCli(["index", "add", name, root, "--no-config"], env);

/** The indexes the CLI built with DOCSEARCH_HOME set to `state`, as this process reads them. */
export const indexHome = (state: string): IndexHome => ({ os: Deno.build.os, stateDir: state });

/** What an index holds, read in this process from the state directory `state`. */
export function indexContents(
  name: string,
  state: string,
): { documents: number; chunks: number; bytes: number } {
  const index = DocsIndex.open(indexFile(indexHome(state), name));
  try {
    const bytes = [...index.stamps().values()].reduce((sum, stamp) => sum + stamp.size, 0);
    return { ...index.counts(), bytes };
  } finally {
    index.close();
  }
}
