/** Output for the commands: synchronous, whole-string writes (a partial write is continued, not lost). */

const encoder = new TextEncoder();

export function writeAllSync(writer: Pick<typeof Deno.stdout, "writeSync">, text: string): void {
  const bytes = encoder.encode(text);
  try {
    for (let at = 0; at < bytes.length;) at += writer.writeSync(bytes.subarray(at));
  } catch (error) {
    // The reader has gone (`docsearch-hook log | head`): what is left has no one to read it.
    if (!(error instanceof Deno.errors.BrokenPipe)) throw error;
  }
}

export const print = (text: string): void => writeAllSync(Deno.stdout, text + "\n");
export const printError = (text: string): void => writeAllSync(Deno.stderr, text + "\n");

/**
 * Control characters (a NUL in a path, an escape sequence in a summary, a C1 control that some terminals take
 * for ESC [) shown escaped, so a line stays a line and text a model wrote cannot drive the terminal.
 */
export const escapeControl = (text: string): string =>
  // deno-lint-ignore no-control-regex -- control characters are what is being escaped
  text.replace(/[\u0000-\u001f\u007f-\u009f]/g, (c) =>
    // JSON's escapes where it has them (\n, \t, \u001b); it writes DEL and the C1 controls as they are.
    c < "\u0020" ? JSON.stringify(c).slice(1, -1) : `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);

/** "1 line", "3 lines". */
export const count = (n: number, noun: string, plural = `${noun}s`): string =>
  `${n} ${n === 1 ? noun : plural}`;
