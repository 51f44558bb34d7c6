/** Durations on the command line: `30d`, `12h`, `2w`, `90m`, `45s`. */
import { UsageError } from "../errors.ts";

const UNIT_MS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };

const DURATION = /^\s*(\d+(?:\.\d+)?)\s*([smhdw])\s*$/i;

/** Whether `text` is written as a duration (a stray `365d` is one that lost its option). */
export const isDuration = (text: string): boolean => DURATION.test(text);

/** The longest duration taken: a time that far back is still a date (and longer ago than any record). */
const MAX_YEARS = 1000;

export function parseDuration(text: string, option: string): number {
  const parsed = DURATION.exec(text);
  if (parsed === null || Number(parsed[1]) <= 0) {
    throw new UsageError(`--${option} ${JSON.stringify(text)} is not a duration; use e.g. 30d, 12h, 2w, 90m`);
  }
  const ms = Number(parsed[1]) * UNIT_MS[parsed[2].toLowerCase()];
  if (!(ms <= MAX_YEARS * 365.25 * UNIT_MS.d)) {
    throw new UsageError(`--${option} ${JSON.stringify(text)} is longer than ${MAX_YEARS} years`);
  }
  return ms;
}
