/**
 * `docsearch-hook stats`: what the redirect achieved (denied → local tool called, or escaped back to the
 * web), what the web was asked that no database covers, and what the hook itself costs.
 */
import { count, escapeControl } from "../cli/io.ts";
import type { CommandContext } from "../cli/context.ts";
import { parseDuration } from "../cli/duration.ts";
import { commandConfig } from "../config/resolve.ts";
import { type StatsRows, statsRows } from "./report.ts";
import { noStateYet, readState } from "./open_state.ts";

export interface StatsArgs {
  values: { since?: string; json?: boolean; config?: string };
}

interface Rates {
  denied: number;
  followed: number;
  escaped: number;
  /** Shares of `denied`; null when nothing was denied. */
  followRate: number | null;
  escapeRate: number | null;
}

interface Latency {
  count: number;
  p50: number | null;
  p95: number | null;
}

export interface Stats {
  since: string;
  redirects: Rates;
  databases: (Rates & { database: string })[];
  unmatchedQueries: { query: string; count: number }[];
  /** Requests a built-in index matched and did not answer, with the index's docs: where the docs are thin. */
  unansweredQueries: { query: string; count: number }[];
  keywordSuggestions: { term: string; count: number }[];
  sessions: { total: number; byAgent: Record<string, number> };
  observations: number;
  outcomes: Record<string, number>;
  latencyMs: { decision: Latency; context: Latency; capture: Latency };
}

const rates = (r: { denied: number; followed: number; escaped: number }): Rates => ({
  denied: r.denied,
  followed: r.followed,
  escaped: r.escaped,
  followRate: r.denied ? r.followed / r.denied : null,
  escapeRate: r.denied ? r.escaped / r.denied : null,
});

/** Nearest-rank percentile, rounded to 0.1 ms. */
export function percentile(values: readonly number[], q: number): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return Math.round(sorted[Math.max(0, Math.ceil(q * sorted.length) - 1)] * 10) / 10;
}

const latency = (values: readonly number[]): Latency => ({
  count: values.length,
  p50: percentile(values, 0.5),
  p95: percentile(values, 0.95),
});

const STOPWORDS = new Set(
  ("a an and are as at be best by can difference do does error example examples for from get guide how i in is " +
    "it latest my new not of on or set the to tutorial use using version vs what when where which why with without " +
    "docs documentation")
    .split(" "),
);

/** Words of a query: letters and digits, keeping the symbols of names like c++, c#, node.js and gitlab-ci. */
const words = (query: string) =>
  (query.toLowerCase().match(/[\p{L}\p{N}][\p{L}\p{N}+#.\-_]*/gu) ?? []).map((w) =>
    w.replace(/[.\-_]+$/, "")
  );

/**
 * Terms that recur across the unmatched queries, as candidate keywords: a term counts once per query, must
 * come back in two queries at least, and is not a keyword already.
 */
export function keywordSuggestions(queries: readonly string[], keywords: ReadonlySet<string>, limit = 10) {
  const counts = new Map<string, number>();
  for (const query of queries) {
    for (const term of new Set(words(query))) {
      if (STOPWORDS.has(term) || keywords.has(term) || /^\d+$/.test(term) || term.length < 2) continue;
      counts.set(term, (counts.get(term) ?? 0) + 1);
    }
  }
  return [...counts].filter(([, count]) => count >= 2)
    .sort(([a, x], [b, y]) => y - x || a.localeCompare(b))
    .slice(0, limit)
    .map(([term, count]) => ({ term, count }));
}

function topQueries(queries: readonly string[], limit = 10) {
  const counts = new Map<string, { query: string; count: number }>();
  for (const query of queries) {
    const key = query.trim().toLowerCase().replace(/\s+/g, " ");
    const seen = counts.get(key);
    if (seen) seen.count++;
    else counts.set(key, { query: query.trim(), count: 1 });
  }
  return [...counts.values()].sort((a, b) => b.count - a.count).slice(0, limit);
}

export function buildStats(rows: StatsRows, since: number, keywords: ReadonlySet<string>): Stats {
  return {
    since: new Date(since).toISOString(),
    redirects: rates(rows.denials),
    databases: rows.byDatabase.map((d) => ({ database: d.database, ...rates(d) })),
    unmatchedQueries: topQueries(rows.unmatched),
    unansweredQueries: topQueries(rows.unanswered.map((summary) => summary.replace("\n→ ", "  → "))),
    keywordSuggestions: keywordSuggestions(rows.unmatched, keywords),
    sessions: {
      total: rows.sessions.reduce((sum, s) => sum + s.count, 0),
      byAgent: Object.fromEntries(rows.sessions.map((s) => [s.agent, s.count])),
    },
    observations: rows.observations,
    outcomes: Object.fromEntries(rows.outcomes.map((o) => [o.outcome, o.count])),
    latencyMs: {
      decision: latency(rows.latency.decision),
      context: latency(rows.latency.context),
      capture: latency(rows.latency.capture),
    },
  };
}

const share = (rate: number | null) => rate === null ? "–" : `${Math.round(rate * 100)}%`;
const ms = (l: Latency) =>
  l.count === 0 ? "no runs" : `p50 ${l.p50} ms, p95 ${l.p95} ms (${count(l.count, "run")})`;

export function formatStats(stats: Stats, window: string): string {
  const r = stats.redirects;
  const lines = [
    `Since ${stats.since} (${window}):`,
    "",
    `Redirects: ${r.denied} web request${
      r.denied === 1 ? "" : "s"
    } denied; local tool called after ${r.followed} (${
      share(r.followRate)
    }), came back through the escape hatch ${r.escaped} (${share(r.escapeRate)})`,
  ];
  if (stats.databases.length > 0) {
    const width = Math.max(8, ...stats.databases.map((d) => d.database.length));
    lines.push(`  ${"database".padEnd(width)}  denied  followed  escaped`);
    for (const d of stats.databases) {
      lines.push(
        `  ${d.database.padEnd(width)}  ${String(d.denied).padStart(6)}  ${
          share(d.followRate).padStart(8)
        }  ${share(d.escapeRate).padStart(7)}`,
      );
    }
  }
  lines.push("", "Web searches no database matched:");
  if (stats.unmatchedQueries.length === 0) lines.push("  none");
  for (const q of stats.unmatchedQueries) lines.push(`  ${String(q.count).padStart(3)}×  ${q.query}`);
  if (stats.keywordSuggestions.length > 0) {
    lines.push(
      `  keyword candidates: ${stats.keywordSuggestions.map((k) => `${k.term} (${k.count})`).join(", ")}`,
    );
  }
  if (stats.unansweredQueries.length > 0) {
    lines.push("", "Matched, but the local docs held no answer (let through to the web):");
    for (const q of stats.unansweredQueries) lines.push(`  ${String(q.count).padStart(3)}×  ${q.query}`);
  }
  const agents = Object.entries(stats.sessions.byAgent).map(([agent, n]) => `${agent} ${n}`).join(", ");
  const outcomes = Object.entries(stats.outcomes).map(([outcome, n]) => `${outcome} ${n}`).join(", ");
  lines.push(
    "",
    `Sessions: ${stats.sessions.total}${agents ? ` (${agents})` : ""}`,
    `Observations: ${stats.observations}${outcomes ? ` (${outcomes})` : ""}`,
    `Hook latency: web decisions ${ms(stats.latencyMs.decision)}; context ${ms(stats.latencyMs.context)}; ` +
      `capture ${ms(stats.latencyMs.capture)}`,
  );
  // Queries and database names are the model's and the config's words: shown, never obeyed by the terminal.
  return lines.map(escapeControl).join("\n");
}

/** Existing keywords, so they are not suggested again; a broken config only means no filtering. */
function configuredKeywords(configFlag: string | undefined, { cwd, env, os }: CommandContext): Set<string> {
  const { config } = commandConfig(configFlag, cwd, env, os);
  return new Set(config.databases.flatMap((d) => d.keywords.map((k) => k.toLowerCase())));
}

export function run({ values }: StatsArgs, context: CommandContext): number {
  const { now, stdout: print, stderr: printError } = context;
  const window = values.since ?? "7d";
  const since = now() - parseDuration(window, "since");
  const rows = readState(context, (db, file) => {
    if (db === undefined) printError(noStateYet(file));
    return db && statsRows(db, since);
  });
  const empty: StatsRows = {
    byDatabase: [],
    denials: { denied: 0, followed: 0, escaped: 0 },
    unmatched: [],
    unanswered: [],
    sessions: [],
    outcomes: [],
    observations: 0,
    latency: { decision: [], context: [], capture: [] },
  };
  const stats = buildStats(rows ?? empty, since, configuredKeywords(values.config, context));
  print(values.json ? JSON.stringify(stats, null, 2) : formatStats(stats, window));
  return 0;
}
