/**
 * Typed errors of the interactive commands. main.ts maps them to exit codes in one place; the `hook`
 * command never lets one escape (it fails open).
 */

/** The command line itself is wrong: exit 2, with the usage of the command. */
export class UsageError extends Error {
  override name = "UsageError";
  readonly exitCode = 2;
}

/** The command understood its arguments but cannot do its job: exit 1, with a hint how to fix it. */
export class CommandFailedError extends Error {
  override name = "CommandFailedError";
  readonly exitCode = 1;
  constructor(message: string, readonly hint?: string) {
    super(message);
  }
}
