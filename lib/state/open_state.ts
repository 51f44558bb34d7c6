/** The state database for the interactive commands: every problem explained, nothing created by readers. */
import type { DatabaseSync } from "node:sqlite";
import { messageOf, Problem } from "../errors.ts";
import type { CommandContext } from "../cli/context.ts";
import {
  corruptionFix,
  isCorruption,
  openExistingStateDb,
  openStateDb,
  openStateDbForLooking,
  stateDbPath,
  StateSchemaTooNewError,
  StateSchemaTooOldError,
} from "./db.ts";

/** Where the state is: the command's state directory, on its OS. */
export type StatePlace = Pick<CommandContext, "stateDir" | "os">;

export interface OpenedState {
  /** Undefined when the hook has not recorded anything yet. */
  db?: DatabaseSync;
  file: string;
}

function stateDirOrFail({ stateDir: dir }: StatePlace): string {
  if (dir === undefined) {
    throw new Problem(
      "cannot tell where the state lives: neither DOCSEARCH_HOME nor HOME is set",
      "set DOCSEARCH_HOME to the state directory",
    );
  }
  return dir;
}

function openFailure(file: string, error: unknown): Problem {
  if (error instanceof StateSchemaTooNewError) return new Problem(error.message);
  if (error instanceof StateSchemaTooOldError) {
    return new Problem(
      `${file}: ${error.message}`,
      "the hook upgrades it in place, keeping everything, at the agent's next event",
    );
  }
  const message = messageOf(error);
  if (isCorruption(error)) {
    return new Problem(`${file} is corrupted (${message})`, corruptionFix(file));
  }
  return new Problem(
    `cannot open ${file}: ${message}`,
    "check that the file and its directory exist, belong to you and are writable",
  );
}

/** For commands that change what exists: the database (migrated) if the hook has created one. */
export function openStateForCommand(place: StatePlace): OpenedState {
  const dir = stateDirOrFail(place);
  const file = stateDbPath(dir, place.os);
  try {
    return { db: openExistingStateDb(dir, place.os), file };
  } catch (error) {
    throw openFailure(file, error);
  }
}

/**
 * For commands that only look: `look` gets the database as it is (undefined when the hook has not recorded
 * anything yet), which is closed afterwards, leaving the state directory as it was.
 */
export function readState<T>(place: StatePlace, look: (db: DatabaseSync | undefined, file: string) => T): T {
  const dir = stateDirOrFail(place);
  const file = stateDbPath(dir, place.os);
  let db;
  try {
    db = openStateDbForLooking(dir, place.os);
  } catch (error) {
    throw openFailure(file, error);
  }
  try {
    return explainingCorruption(file, () => look(db, file));
  } finally {
    db?.close();
  }
}

/** Runs `work` on the state database in `file`; a corruption it meets is explained like one met on opening. */
export function explainingCorruption<T>(file: string, work: () => T): T {
  try {
    return work();
  } catch (error) {
    throw isCorruption(error) ? openFailure(file, error) : error;
  }
}

/** For commands that must write even before the hook's first event (a switch for a named session). */
export function createStateForCommand(place: StatePlace): DatabaseSync {
  const dir = stateDirOrFail(place);
  try {
    return openStateDb(dir, place.os);
  } catch (error) {
    throw openFailure(stateDbPath(dir, place.os), error);
  }
}

/** The note for a state that has nothing yet. */
export const noStateYet = (file: string) =>
  `no state yet at ${file}: the hook creates it on the first agent event it sees`;
