/**
 * The program's typed errors, and the one way to read any error's message. Library code throws these; the
 * command line's error boundary (lib/cli/command.ts) maps them to exit codes in one place, and the hook
 * turns every error into an allow.
 */

/** Something the user can fix: the message says what is wrong, the hint how to fix it. A command exits 1. */
export class Problem extends Error {
  override name = "Problem";
  constructor(message: string, readonly hint?: string) {
    super(message);
  }
}

/** A value the user gave is not one the program takes (an index name, a duration, an option): exit 2. */
export class InvalidInputError extends Problem {
  override name = "InvalidInputError";
}

/** The command line's words are off (an unknown option, a missing value): exit 2, with the command's usage. */
export class UsageError extends InvalidInputError {
  override name = "UsageError";
}

/** What the command line exits with for an error its command threw: 2 for input, 1 for everything else. */
export const exitCodeOf = (error: unknown): number => error instanceof InvalidInputError ? 2 : 1;

/**
 * An error's message, whatever was thrown. Deno's fetch says only "fetch failed" and puts why in its cause
 * ("error sending request for url (…): client error (Connect): dns error: …"): the why is said, without the
 * URL its caller names anyway.
 */
export function messageOf(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  if (error.message === "fetch failed" && error.cause instanceof Error) {
    // The URL, which may hold ")" itself, has no space in it (fetch writes it percent-encoded).
    return error.cause.message.replace(/^error sending request for url \(\S*\): /, "")
      .replace(/^client error \([^)]*\): /, "");
  }
  return error.message;
}
