/**
 * The background upkeep's builds (upkeep.ts), in a worker thread: reading a package's docs is synchronous work
 * of up to seconds (a large declaration tree, a big Python distribution), which on the MCP server's thread
 * would hold up its answers to the agent. One message in (the packages to build), one message out per package,
 * in order: its index built, or why not.
 */
import { messageOf } from "../errors.ts";
import type { IndexHome } from "../docs/indexes.ts";
import { packageIndex } from "./index_project.ts";
import type { InstalledPackage } from "./npm.ts";

export interface BuildRequest {
  home: IndexHome;
  packages: InstalledPackage[];
}

export type BuildReply =
  | { pkg: InstalledPackage; index: { name: string; words: number; reused: boolean } }
  | { pkg: InstalledPackage; error: string };

/** The worker's side of the channel (the global scope of a worker, typed as the program uses it). */
const scope = globalThis as unknown as {
  onmessage: ((event: MessageEvent<BuildRequest>) => void) | null;
  postMessage(reply: BuildReply): void;
};

scope.onmessage = ({ data: { home, packages } }) => {
  for (const pkg of packages) {
    try {
      scope.postMessage({ pkg, index: packageIndex(home, pkg) });
    } catch (error) {
      // One package that cannot be read is that package's failure, not the others'.
      scope.postMessage({ pkg, error: messageOf(error) });
    }
  }
};
