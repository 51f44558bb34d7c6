/** What an edit in place must leave of a file: its lines, in order. */
import { ok } from "node:assert/strict";

/** `candidate` is `line` with one comma added (the member before an appended one gains it). */
export const gainedComma = (candidate: string, line: string): boolean =>
  [...candidate].some((char, i) => char === "," && candidate.slice(0, i) + candidate.slice(i + 1) === line);

/** Checks that every line of `before` is in `after`, in order, as it was or with a comma gained; returns how many gained one. */
export function keptInOrder(before: string, after: string): number {
  const lines = after.split("\n");
  let at = 0;
  let commas = 0;
  for (const line of before.split("\n")) {
    while (at < lines.length && lines[at] !== line && !gainedComma(lines[at], line)) at++;
    ok(at < lines.length, `not kept: ${JSON.stringify(line)}\n${after}`);
    if (lines[at++] !== line) commas++;
  }
  return commas;
}

/** Checks that a dry run's diff takes out no line but to give it a comma: the real, minimal change. */
export function onlyCommasTakenOut(diff: string): void {
  const lines = diff.split("\n");
  const added = lines.filter((line) => line.startsWith("+") && !line.startsWith("+++")).map((line) =>
    line.slice(1)
  );
  const removed = lines.filter((line) => line.startsWith("-") && !line.startsWith("---")).map((line) =>
    line.slice(1)
  );
  for (const line of removed) {
    ok(added.some((other) => gainedComma(other, line)), `taken out: ${line}\n${diff}`);
  }
}
