/**
 * The background upkeep's builds (upkeep.ts), in a worker thread: reading a package's docs is synchronous work
 * of up to seconds (a large declaration tree, a big Python distribution), which on the MCP server's thread
 * would hold up its answers to the agent; so is writing what a fetch of its published docs brought. One
 * message in (the packages to build, and those whose published docs may be fetched), then one message out per
 * package built, in order: its index, or why not; one as each fetch starts and ends; and a last one.
 */
import { messageOf } from "../errors.ts";
import type { IndexHome } from "../docs/indexes.ts";
import { indexedBefore, packageIndex } from "./index_project.ts";
import { type NetworkPolicy, resolveDns } from "./net_policy.ts";
import type { InstalledPackage } from "./npm.ts";
import {
  fetchDue,
  fetchPublished,
  type PublishedState,
  publishedState,
  recordAttempt,
} from "./published_docs.ts";

export interface BuildRequest {
  home: IndexHome;
  packages: InstalledPackage[];
  /** When fetching is on: the round's packages, of which those thin and due get their published docs. */
  fetch?: { packages: InstalledPackage[]; policy: NetworkPolicy };
}

export type BuildReply =
  | { pkg: InstalledPackage; index: { name: string; words: number; reused: boolean } }
  | { pkg: InstalledPackage; error: string }
  | { pkg: InstalledPackage; fetching: true }
  | { pkg: InstalledPackage; published: PublishedState }
  | { done: true };

/** A reply about one package. */
export type PackageReply = Exclude<BuildReply, { done: true }>;

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

/** The published docs of the packages that are thin and due, one at a time (each within its own budget). */
async function fetchAll(home: IndexHome, fetch: NonNullable<BuildRequest["fetch"]>): Promise<void> {
  for (const pkg of fetch.packages) {
    try {
      const words = indexedBefore(home, pkg)?.words;
      if (words === undefined || !fetchDue(words, publishedState(home, pkg), now())) continue;
      scope.postMessage({ pkg, fetching: true });
      const published = await fetchPublished(home, pkg, {
        fetch: globalThis.fetch,
        policy: fetch.policy,
        resolve: resolveDns,
        now,
        sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
      });
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
  if (fetch !== undefined) await fetchAll(home, fetch);
  scope.postMessage({ done: true });
};
