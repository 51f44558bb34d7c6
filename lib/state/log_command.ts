/** `docsearch-hook log`: the latest observations, one readable line each (or JSON). */
import { UsageError } from "../errors.ts";
import { escapeControl } from "../cli/io.ts";
import type { CommandContext } from "../cli/context.ts";
import { latestObservations, type ObservationRow } from "./report.ts";
import { noStateYet, readState } from "./open_state.ts";

export interface LogArgs {
  values: { session?: string; limit?: string; json?: boolean };
}

const pad = (n: number) => String(n).padStart(2, "0");

/** Local time, as people read their own log. */
export function localTime(ms: number): string {
  const d = new Date(ms);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${
    pad(d.getMinutes())
  }:${pad(d.getSeconds())}`;
}

/** One line per observation; the summary's lines joined, control characters shown escaped. */
export function formatRow(row: ObservationRow): string {
  const summary = row.summary.replace(/\n/g, " ⏎ ");
  const what = [row.event, row.tool, row.outcome].filter(Boolean).join(" ");
  const took = row.durationMs === null ? "" : ` (${row.durationMs} ms)`;
  // Every field is the agent's to write (a session id, a tool name), not only the summary.
  return escapeControl(
    `${localTime(row.at)}  ${row.session.slice(0, 8).padEnd(8)}  ${what}${took}  ${summary}`,
  );
}

export function parseLimit(text: string | undefined, fallback: number): number {
  if (text === undefined) return fallback;
  const n = Number(text);
  if (!Number.isSafeInteger(n) || n < 1) {
    throw new UsageError(`--limit ${JSON.stringify(text)} is not a whole number ≥ 1`);
  }
  return n;
}

export function run({ values }: LogArgs, context: CommandContext): number {
  const { stdout: print, stderr: printError } = context;
  const limit = parseLimit(values.limit, 20);
  const { rows, file } = readState(context, (db, file) => ({
    rows: db && latestObservations(db, limit, values.session),
    file,
  }));
  if (values.json) print(JSON.stringify(rows ?? [], null, 2));
  else if (rows === undefined) printError(noStateYet(file));
  else if (rows.length === 0) {
    printError(
      values.session === undefined ? "no observations yet" : `no observations for session ${values.session}`,
    );
  } else rows.forEach((row) => print(formatRow(row)));
  return 0;
}
