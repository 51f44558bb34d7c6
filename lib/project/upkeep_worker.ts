/**
 * The background upkeep's builds (upkeep.ts), in a worker thread: reading a package's docs is synchronous work
 * of up to seconds (a large declaration tree, a big Python distribution), which on the MCP server's thread
 * would hold up its answers to the agent; so is writing what a fetch of its published docs brought. One
 * message in (the packages to build, and those whose published docs may be fetched), then one message out per
 * package built, in order: its index, or why not; one when all are built (the build lock may go); one as each
 * fetch starts and ends; and a last one.
 */
import { messageOf } from "../errors.ts";
import type { IndexHome } from "../docs/indexes.ts";
import { lockPolling } from "./build_lock.ts";
import { indexedBefore, type PackageIndex, packageIndex } from "./index_project.ts";
import type { NetworkPolicy } from "./net_policy.ts";
import type { InstalledPackage } from "./npm.ts";
import {
  fetchDue,
  fetchPublished,
  networkFetchDeps,
  type PublishedState,
  publishedState,
  recordAttempt,
} from "./published_docs.ts";

export interface BuildRequest {
  home: IndexHome;
  packages: InstalledPackage[];
  /**
   * When fetching is on: the round's packages, of which those thin and due get their published docs, once
   * the fetch lock is free (tried every `lockPollMs`).
   */
  fetch?: { packages: InstalledPackage[]; policy: NetworkPolicy; lockPollMs: number };
}

export type BuildReply =
  | { pkg: InstalledPackage; index: PackageIndex }
  | { pkg: InstalledPackage; error: string }
  /** Every package is built: the build lock may go. */
  | { built: true }
  /** Another process is fetching published docs: this fetch waits for it. */
  | { waitingForFetch: true }
  | { pkg: InstalledPackage; fetching: true }
  | { pkg: InstalledPackage; published: PublishedState }
  | { done: true };

/** The worker's side of the channel (the global scope of a worker, typed as the program uses it). */
const scope = globalThis as unknown as {
  onmessage: ((event: MessageEvent<BuildRequest>) => void) | null;
  postMessage(reply: BuildReply): void;
};

/**
 * The worker's clock. A worker is an edge of its own, as processContext is the process's: a fetch's date and a
 * failure's time are when they happened, not when the round began (a round may take 90 s a thin package).
 */
const now = () => Date.now();

/**
 * The published docs of the packages that are thin and due, one at a time (each within its own budget), under
 * the fetch lock: due is asked under it, as the process that held it may have fetched them.
 */
async function fetchAll(home: IndexHome, fetch: NonNullable<BuildRequest["fetch"]>): Promise<void> {
  const lock = await lockPolling(
    home,
    "fetch",
    fetch.lockPollMs,
    () => scope.postMessage({ waitingForFetch: true }),
  );
  try {
    for (const pkg of fetch.packages) await fetchOne(home, pkg, fetch.policy);
  } finally {
    lock.release();
  }
}

/** The package's published docs, when it is thin and due; what becomes of it goes to the server. */
async function fetchOne(home: IndexHome, pkg: InstalledPackage, policy: NetworkPolicy): Promise<void> {
  try {
    const words = indexedBefore(home, pkg)?.words;
    if (words === undefined || !fetchDue(words, publishedState(home, pkg), now())) return;
    scope.postMessage({ pkg, fetching: true });
    const published = await fetchPublished(home, pkg, networkFetchDeps(policy, now));
    scope.postMessage({ pkg, published });
  } catch (error) {
    // What fetchPublished does not record itself (an index it could not write) is this package's failure,
    // recorded so that it is asked again after the retry delay, not at the next look.
    const failed: PublishedState = { failed: messageOf(error), at: now() };
    try {
      recordAttempt(home, pkg, failed);
    } catch {
      // Not recorded: asked again at the next look.
    }
    scope.postMessage({ pkg, published: failed });
  }
}

scope.onmessage = async ({ data: { home, packages, fetch } }) => {
  for (const pkg of packages) {
    try {
      scope.postMessage({ pkg, index: packageIndex(home, pkg) });
    } catch (error) {
      // One package that cannot be read is that package's failure, not the others'.
      scope.postMessage({ pkg, error: messageOf(error) });
    }
  }
  scope.postMessage({ built: true });
  if (fetch !== undefined) await fetchAll(home, fetch);
  scope.postMessage({ done: true });
};
