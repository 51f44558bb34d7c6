/** The state database for `log`, `stats` and `prune`: never created by them, every problem explained. */
import type { DatabaseSync } from "node:sqlite";
import { CommandFailedError } from "../cli/errors.ts";
import { processEnv, stateDir } from "../paths.ts";
import { isCorruption, openExistingStateDb, stateDbPath, StateSchemaTooNewError } from "../state/db.ts";

export interface OpenedState {
  /** Undefined when the hook has not recorded anything yet. */
  db?: DatabaseSync;
  file: string;
}

export function openStateForCommand(): OpenedState {
  const dir = stateDir(processEnv, Deno.build.os);
  if (dir === undefined) {
    throw new CommandFailedError(
      "cannot tell where the state lives: neither DOCSEARCH_HOME nor HOME is set",
      "set DOCSEARCH_HOME to the state directory",
    );
  }
  const file = stateDbPath(dir, Deno.build.os);
  try {
    return { db: openExistingStateDb(dir, Deno.build.os), file };
  } catch (error) {
    if (error instanceof StateSchemaTooNewError) throw new CommandFailedError(error.message);
    const message = error instanceof Error ? error.message : String(error);
    if (isCorruption(error)) {
      throw new CommandFailedError(
        `${file} is corrupted (${message})`,
        "the hook moves it aside and starts a fresh one on its next event; or move it away yourself",
      );
    }
    throw new CommandFailedError(
      `cannot open ${file}: ${message}`,
      "check that the file and its directory exist, belong to you and are writable",
    );
  }
}

/** The note for a state that has nothing yet. */
export const noStateYet = (file: string) =>
  `no state yet at ${file}: the hook creates it on the first agent event it sees`;
