/** The state database for the interactive commands: every problem explained, nothing created by readers. */
import type { DatabaseSync } from "node:sqlite";
import { CommandFailedError } from "../cli/errors.ts";
import { processEnv, stateDir } from "../paths.ts";
import {
  isCorruption,
  openExistingStateDb,
  openStateDb,
  stateDbPath,
  StateSchemaTooNewError,
} from "../state/db.ts";

export interface OpenedState {
  /** Undefined when the hook has not recorded anything yet. */
  db?: DatabaseSync;
  file: string;
}

function stateDirOrFail(): string {
  const dir = stateDir(processEnv, Deno.build.os);
  if (dir === undefined) {
    throw new CommandFailedError(
      "cannot tell where the state lives: neither DOCSEARCH_HOME nor HOME is set",
      "set DOCSEARCH_HOME to the state directory",
    );
  }
  return dir;
}

function openFailure(file: string, error: unknown): CommandFailedError {
  if (error instanceof StateSchemaTooNewError) return new CommandFailedError(error.message);
  const message = error instanceof Error ? error.message : String(error);
  if (isCorruption(error)) {
    return new CommandFailedError(
      `${file} is corrupted (${message})`,
      "the hook moves it aside and starts a fresh one on its next event; or move it away yourself",
    );
  }
  return new CommandFailedError(
    `cannot open ${file}: ${message}`,
    "check that the file and its directory exist, belong to you and are writable",
  );
}

/** For commands that only read (or change what exists): the database if the hook has created one. */
export function openStateForCommand(): OpenedState {
  const dir = stateDirOrFail();
  const file = stateDbPath(dir, Deno.build.os);
  try {
    return { db: openExistingStateDb(dir, Deno.build.os), file };
  } catch (error) {
    throw openFailure(file, error);
  }
}

/** For commands that must write even before the hook's first event (a switch for a named session). */
export function createStateForCommand(): DatabaseSync {
  const dir = stateDirOrFail();
  try {
    return openStateDb(dir, Deno.build.os);
  } catch (error) {
    throw openFailure(stateDbPath(dir, Deno.build.os), error);
  }
}

/** The note for a state that has nothing yet. */
export const noStateYet = (file: string) =>
  `no state yet at ${file}: the hook creates it on the first agent event it sees`;
