/** Doctor's report: the checks as lines with their marks and fixes, or as JSON. */
import { VERSION } from "../version.ts";
import type { Check } from "./checks.ts";

const SYMBOL = { ok: "✓", warn: "!", fail: "✗" } as const;

export function formatChecks(checks: readonly Check[]): string {
  const lines = checks.flatMap((check) => [
    `${SYMBOL[check.status]} ${check.name}: ${check.message}`,
    ...(check.fix ? [`    fix: ${check.fix}`] : []),
  ]);
  const warnings = checks.filter((check) => check.status === "warn").length;
  const failures = checks.filter((check) => check.status === "fail").length;
  const summary = failures + warnings === 0
    ? "Everything is in order."
    : `${failures} ${failures === 1 ? "problem" : "problems"}, ${warnings} ${
      warnings === 1 ? "warning" : "warnings"
    }.`;
  return [...lines, "", summary].join("\n");
}

/** What `doctor --json` prints: `ok` is false when any check failed. */
export const jsonReport = (checks: readonly Check[]): string =>
  JSON.stringify({ version: VERSION, ok: !failed(checks), checks }, null, 2);

export const failed = (checks: readonly Check[]): boolean => checks.some((check) => check.status === "fail");
