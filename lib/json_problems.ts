/** How a problem in a JSON file the user wrote is named: the JSON path, and line and column for syntax. */

/** `databases[1].keywords[0]`, the form users search their file for. */
export function jsonPath(path: readonly PropertyKey[]): string {
  return path.map((key, i) => typeof key === "number" ? `[${key}]` : `${i > 0 ? "." : ""}${String(key)}`)
    .join("") ||
    "(top level)";
}

/** JSON.parse reports a character offset (newer V8 adds line and column); editors want line and column. */
export function syntaxProblem(file: string, text: string, error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const offset = /position (\d+)/.exec(message);
  if (offset && !/line \d+/.test(message)) {
    const before = text.slice(0, Number(offset[1]));
    const line = before.split("\n").length;
    const column = before.length - before.lastIndexOf("\n");
    return `${file}: invalid JSON at line ${line}, column ${column}: ${message}`;
  }
  return `${file}: invalid JSON: ${message}`;
}
