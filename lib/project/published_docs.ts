/**
 * The docs a package does not ship, from where they are published: for a package whose installed copy is too
 * thin to answer from (THIN_WORDS), the best source its metadata names (published_source.ts), in this order:
 * the repository at the tag of the installed version (its README and docs folder, tag_archive.ts), then the
 * homepage's llms-full.txt / llms.txt, else a small crawl of it (site.ts, the same reader as `index add <url>`).
 * What was read goes into an index of its own beside the installed copy's (`npm-react-18.3.1.published`),
 * labelled with the version it really describes: "react 18.3.1 (repository tag v18.3.1)", or "express docs
 * site (expressjs.com), as of 2026-11-27" when a site was read, whatever version is installed. The index's
 * meta records what was fetched from where and when; a package@version fetched before costs nothing.
 *
 * Every request goes through the network policy (net_policy.ts) and a time budget per package, so that a
 * dead host costs one package its budget, not the upkeep its progress. A failure that may pass (a timeout, a
 * broken connection, HTTP 429 or 5xx) is recorded and asked again after RETRY_MS; a package that publishes
 * nothing readable (no tag, a homepage that answers 404 or 403, a robots.txt that refuses us) is not asked
 * again at that version.
 */
import { count } from "../cli/io.ts";
import { CrawlEndedError, type CrawlOptions, DEFAULT_CRAWL, SiteUnreachableError } from "../docs/crawl.ts";
import { NotAskedError } from "../docs/crawl_fetch.ts";
import { deleteIndexFiles, indexFile, type IndexHome } from "../docs/indexes.ts";
import { readSite } from "../docs/site.ts";
import { documentKind } from "../docs/sources.ts";
import { DocsIndex } from "../docs/store.ts";
import { isFile } from "../files.ts";
import { messageOf } from "../errors.ts";
import { baseName } from "../paths.ts";
import { packageId, packageIndexName } from "./index_names.ts";
import {
  guardedFetch,
  type NetworkPolicy,
  refusal,
  RefusedUrlError,
  type Resolve,
  resolveDns,
} from "./net_policy.ts";
import type { InstalledPackage } from "./npm.ts";
import { packageWriter, wordCount } from "./package_docs.ts";
import { archiveUrl, publishedSources, type Repository, tagCandidates, tagPath } from "./published_source.ts";
import { ArchiveError, type ArchiveFile, fetchArchive } from "./tag_archive.ts";

/**
 * Below this many words the installed copy is too thin to answer from, and its published docs are fetched.
 * Measured on 20 common packages as npm installs them: those with an API reference in their README, docs
 * folder or declarations hold 1,855 words (debug) to 75,642 (the MCP SDK); below 1,000 are one-function READMEs
 * (left-pad 86, ms 263, is-number 689) and READMEs that send the reader to a docs site (yargs 526, express 848).
 * On the 103 distributions of a pyenv Python 3.11, below it are those whose API is documented elsewhere or tiny
 * (certifi 134, six 424, pip 335, PyYAML 872, idna 985), above it those with a documented API (jmespath 1,008,
 * attrs 2,406, requests 8,186). (Measured in November 2026 for the earlier rule that left such packages out of
 * the config; docs/local-docs.md.)
 */
export const THIN_WORDS = 1000;

/** How long after a network failure a package's published docs are asked for again. */
export const RETRY_MS = 60 * 60_000;

/** All the requests for one package, together: a dead host costs this, once per RETRY_MS. */
export const FETCH_BUDGET_MS = 90_000;
/** One request for a tag's archive, its download included. */
const ARCHIVE_REQUEST_MS = 60_000;

/** A docs site is read for what a dependency's questions need, not mirrored: a few dozen pages at most. */
const SITE_CRAWL: CrawlOptions = {
  ...DEFAULT_CRAWL,
  maxPages: 40,
  concurrency: 2,
  timeoutMs: 15_000,
  retryDelaysMs: [1000],
};

/** The index of a package@version's published docs: the installed copy's name with this after it. */
export const PUBLISHED_SUFFIX = ".published";

export const publishedIndexName = (pkg: Pick<InstalledPackage, "ecosystem" | "name" | "version">): string =>
  packageIndexName(pkg, PUBLISHED_SUFFIX);

/** What was fetched, from where, when: the published index's meta, which `doctor` and the entry show. */
export interface Published {
  /** A tag's archive, or what site.ts read of the site. */
  kind: "repository" | "llms-full.txt" | "llms.txt" | "crawl";
  /** The archive's URL, or the site's llms file or start page. */
  url: string;
  /** Beside a site, the tag's archive that was read first and held too little on its own. */
  repository?: string;
  /** What the docs describe: "react 18.3.1 (repository tag v18.3.1)", "express docs site (expressjs.com), as of 2026-11-27". */
  label: string;
  /** When they were fetched, in milliseconds since the epoch. */
  at: number;
  words: number;
  documents: number;
  /**
   * The site's crawl was cut short by the package's time budget: what it read is these docs, the rest of its
   * pages were not asked for ("the 90 s allowed ran out after 17 pages").
   */
  cutShort?: string;
}

/** Where the published docs were read: the site's address, and the tag's archive read beside it. */
export const readFrom = (published: Pick<Published, "url" | "repository">): string =>
  published.repository === undefined ? published.url : `${published.url} and ${published.repository}`;

/** What was found of a package's published docs, in a line of `index add --project` or of the upkeep's log. */
export function describePublished(state: PublishedState): string {
  if ("published" in state) {
    const { label, words, kind, cutShort } = state.published;
    return `published docs: ${label} (${count(words, "word")}, ${kind === "repository" ? "" : `${kind} `}${
      readFrom(state.published)
    }${cutShort === undefined ? "" : `; ${cutShort}`})`;
  }
  return "failed" in state
    ? `published docs failed: ${state.failed} (asked again in an hour)`
    : `no published docs: ${state.none}`;
}

/** A package's published docs as far as they were looked for. */
export type PublishedState =
  | { published: Published; index: string }
  /**
   * Nothing published that could be read (no repository or site named, no tag of this version, a homepage
   * that answers 404 or 403 or whose robots.txt refuses us): final.
   */
  | { none: string; at: number }
  /** The network failed (a timeout, a broken connection, a 429 or 5xx): asked again after RETRY_MS. */
  | { failed: string; at: number };

/** The installed copy's index records an attempt that found nothing, or failed. */
const ATTEMPT = "published_attempt";

/** What is known of the package@version's published docs, by any project; undefined when never looked for. */
export function publishedState(home: IndexHome, pkg: InstalledPackage): PublishedState | undefined {
  const name = publishedIndexName(pkg);
  const read = (file: string, fn: (index: DocsIndex) => PublishedState | undefined) => {
    if (!isFile(file)) return undefined;
    const index = DocsIndex.open(file);
    try {
      return fn(index);
    } finally {
      index.close();
    }
  };
  try {
    const published = read(indexFile(home, name), (index) => {
      const meta = index.meta("published");
      return index.meta("package") === packageId(pkg) && meta !== undefined
        ? { published: JSON.parse(meta) as Published, index: name }
        : undefined;
    });
    if (published !== undefined) return published;
    return read(indexFile(home, packageIndexName(pkg)), (index) => {
      const meta = index.meta(ATTEMPT);
      return meta === undefined ? undefined : JSON.parse(meta) as PublishedState;
    });
  } catch {
    // A record that cannot be read is looked for again.
    return undefined;
  }
}

/** Whether the package's published docs are to be fetched now: thin, and not found, not given up on. */
export function fetchDue(words: number, state: PublishedState | undefined, now: number): boolean {
  if (words >= THIN_WORDS || state === undefined) return words < THIN_WORDS;
  return "failed" in state && now - state.at >= RETRY_MS;
}

export interface FetchDeps {
  fetch: typeof globalThis.fetch;
  policy: NetworkPolicy;
  resolve: Resolve;
  now: () => number;
  sleep: (ms: number) => Promise<void>;
  /** FETCH_BUDGET_MS unless a test says less. */
  budgetMs?: number;
}

/** The network itself, as `index add --project` and the upkeep's worker reach it, under `policy`. */
export const networkFetchDeps = (policy: NetworkPolicy, now: () => number): FetchDeps => ({
  fetch: globalThis.fetch,
  policy,
  resolve: resolveDns,
  now,
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
});

const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/**
 * Why a source gave nothing: a failure that may pass (asked again later), or what it answered (final): a
 * refused address, an archive that is not one, a site whose crawl ended on its own answer (a 404 or 403
 * homepage, robots.txt's refusal).
 */
const isFailure = (error: unknown) =>
  error instanceof CrawlEndedError
    ? error.transient
    : !(error instanceof RefusedUrlError || error instanceof ArchiveError);

/**
 * Fetches the package's published docs into their index (replacing what a failed attempt left), and records
 * the outcome where publishedState reads it. Never throws for what the network or the package's metadata does.
 */
export async function fetchPublished(
  home: IndexHome,
  pkg: InstalledPackage,
  deps: FetchDeps,
): Promise<PublishedState> {
  const sources = publishedSources(pkg, home.os);
  const budgetMs = deps.budgetMs ?? FETCH_BUDGET_MS;
  const budget = AbortSignal.timeout(budgetMs);
  const fetch = guardedFetch(deps.fetch, deps.policy, deps.resolve, budget);
  const name = publishedIndexName(pkg);
  const notes: string[] = [];
  const failures: string[] = [];
  const index = DocsIndex.open(indexFile(home, name));
  let published: Published | undefined;
  try {
    // Unmarked first: a fetch cut short is never taken for this package's published docs.
    index.deleteMeta("package");
    index.upgrade();
    for (const source of index.stamps().keys()) index.remove(source);
    // A source the policy refuses is refused here, where it is said so, and never becomes a failure to retry.
    const allowed = (url: URL) => {
      const why = refusal(url, deps.policy);
      if (why !== undefined) notes.push(`not fetched: ${url.href} (${why})`);
      return why === undefined;
    };
    const tagged = sources.repository !== undefined && allowed(sources.repository.web)
      ? await fromRepository(pkg, sources.repository, fetch, notes, failures)
      : undefined;
    const tag = tagged && writeTag(index, tagged, deps.now());
    published = tag?.published;
    // A tag that holds little (a README that sends the reader to the site, as react's and express's do): the
    // site too, beside it.
    const site = sources.site;
    if ((published === undefined || published.words < THIN_WORDS) && site !== undefined && !budget.aborted) {
      let read: Published | undefined;
      try {
        if (allowed(site)) {
          read = await fromSite(index, pkg, site, { fetch, budget, budgetMs }, deps, new Set(tag?.sources));
          if (read === undefined) notes.push(`${site.href} had no pages to read`);
        }
      } catch (error) {
        // A site that cannot be read says so with its address.
        (isFailure(error) ? failures : notes).push(
          error instanceof SiteUnreachableError ? messageOf(error) : `${site.href}: ${messageOf(error)}`,
        );
      }
      // Reading a site drops what it did not read from the index: the tag's files go back in.
      const again = tagged && writeTag(index, tagged, tag?.published.at ?? deps.now());
      if (read !== undefined) {
        published = again === undefined ? read : {
          ...read,
          label: `${read.label}, with ${again.published.label}`,
          repository: again.published.url,
          words: read.words + again.published.words,
          documents: read.documents + again.published.documents,
        };
      }
    }
    if (sources.repository === undefined && sources.site === undefined) {
      notes.push("its metadata names no repository or homepage");
    }
    if (published !== undefined) {
      index.setMeta("published", JSON.stringify(published));
      index.setMeta("words", String(published.words));
      index.setMeta("package", packageId(pkg));
      return { published, index: name };
    }
  } finally {
    index.close();
  }
  deleteIndexFiles(home, name);
  const at = deps.now();
  const state: PublishedState = failures.length > 0
    ? { failed: failures.join("; "), at }
    : { none: notes.join("; ") || "nothing published was found", at };
  recordAttempt(home, pkg, state);
  return state;
}

/** Beside the installed copy's index, which is there: the next session reads it instead of asking again. */
export function recordAttempt(home: IndexHome, pkg: InstalledPackage, state: PublishedState): void {
  const file = indexFile(home, packageIndexName(pkg));
  if (!isFile(file)) return;
  const index = DocsIndex.open(file);
  try {
    index.setMeta(ATTEMPT, JSON.stringify(state));
  } finally {
    index.close();
  }
}

/** The archive of the installed version's tag: its README and docs. */
interface Tagged {
  pkg: InstalledPackage;
  repository: Repository;
  tag: string;
  url: URL;
  files: ArchiveFile[];
}

/** The first tag of the installed version whose archive exists; undefined when none does, or it failed. */
async function fromRepository(
  pkg: InstalledPackage,
  repository: Repository,
  fetch: typeof globalThis.fetch,
  notes: string[],
  failures: string[],
): Promise<Tagged | undefined> {
  const request: typeof globalThis.fetch = (input, init) =>
    fetch(input, { ...init, signal: AbortSignal.timeout(ARCHIVE_REQUEST_MS) });
  const missing: string[] = [];
  for (const tag of tagCandidates(pkg, repository.directory)) {
    const url = archiveUrl(repository, tag);
    let answer;
    try {
      answer = await fetchArchive(url, repository.directory, request);
    } catch (error) {
      (isFailure(error) ? failures : notes).push(
        error instanceof NotAskedError ? messageOf(error) : `${url.href}: ${messageOf(error)}`,
      );
      return undefined;
    }
    if ("missing" in answer) {
      missing.push(tag);
      continue;
    }
    return { pkg, repository, tag, url, files: answer.files };
  }
  notes.push(`${repository.web.href} has no tag ${missing.join(", ")}`);
  return undefined;
}

/**
 * Puts the tag's files into the index (those it holds already are kept as they are) and says what they hold;
 * undefined when they hold no text, which is noted.
 */
function writeTag(
  index: DocsIndex,
  { pkg, repository, tag, url, files }: Tagged,
  at: number,
): { published: Published; sources: string[] } | undefined {
  const sources = files.map((file) =>
    new URL(`${repository.web.href}/blob/${tagPath(tag)}/${file.path}`).href
  );
  for (const source of sources) index.remove(source);
  const writer = packageWriter(index);
  files.forEach((file, i) =>
    writer.fetched(sources[i], file.bytes, documentKind(file.path), baseName(file.path))
  );
  const { documents, words } = writer.done();
  if (words === 0) return undefined;
  return {
    published: {
      kind: "repository",
      url: url.href,
      label: `${pkg.name} ${pkg.version} (repository tag ${tag})`,
      at,
      words,
      documents,
    },
    sources,
  };
}

/**
 * The docs site: its llms-full.txt or llms.txt, else a small crawl; undefined when it held no text. What it
 * says it read is its own pages, not `others` the index held beside them (a tag's files). A crawl the budget
 * cuts short ends there, and what it read is the site's docs: asked again an hour later, it would be cut
 * short again.
 */
async function fromSite(
  index: DocsIndex,
  pkg: InstalledPackage,
  site: URL,
  { fetch, budget, budgetMs }: { fetch: typeof globalThis.fetch; budget: AbortSignal; budgetMs: number },
  deps: FetchDeps,
  others: ReadonlySet<string>,
): Promise<Published | undefined> {
  index.resetCrawl();
  index.deleteMeta("crawl");
  const report = await readSite(
    index,
    site,
    SITE_CRAWL,
    { fetch, sleep: deps.sleep, progress: () => {}, budget },
    "find",
  );
  let words = 0;
  const sources = [...index.stamps().keys()].filter((source) => !others.has(source));
  for (const source of sources) {
    for (const passage of index.page(source)?.passages ?? []) words += wordCount(passage.text);
  }
  if (words === 0) return undefined;
  const at = deps.now();
  const source = report.source;
  return {
    kind: source.kind,
    url: source.kind === "crawl" ? site.href : source.url.href,
    label: `${pkg.name} docs site (${site.host}), as of ${day(at)}`,
    at,
    words,
    documents: sources.length,
    ...report.cutShort
      ? { cutShort: `the ${budgetMs / 1000} s allowed ran out after ${count(report.read, "page")}` }
      : {},
  };
}
