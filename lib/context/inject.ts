/**
 * Context injection: a short note at session start listing the local docs, and a hint on prompts
 * that mention a database's keywords, so the agent reaches for local docs before the web. Pure: the text is
 * a function of the event's data and the session's view of the config, never longer than `max_chars`.
 */
import type { Database } from "../config/types.ts";
import { containsKeyword, normalizeText } from "../match/keywords.ts";
import { toolCall } from "../redirect/guidance.ts";
import type { SessionView } from "../switches/switches.ts";
import { clipTo } from "../text.ts";

/** What the example call searches for; the agent puts its own question there. */
const QUESTION = "<your question>";

/** One database: what it holds, why it is listed, and the call to make. */
function entry(database: Database, why: string): Entry {
  return {
    name: database.name,
    line: `- ${database.name}: ${database.description} (${why}). Search: ${toolCall(database, QUESTION)}`,
  };
}

interface Entry {
  name: string;
  line: string;
}

/** Left out for room: named when the names fit, so the agent knows they exist; else just counted. */
const countNote = (left: number) => left === 0 ? "" : `\n… and ${left} more`;
const namesNote = (left: readonly Entry[]) =>
  `${countNote(left.length)}: ${left.map((e) => e.name).join(", ")}`;

/** The header and as many whole entries as fit, then what was left out. */
function fit(header: string, entries: readonly Entry[], max: number): string {
  const upTo = (n: number) => [header, ...entries.slice(0, n).map((e) => e.line)].join("\n");
  let kept = 0;
  while (
    kept < entries.length && upTo(kept + 1).length + countNote(entries.length - kept - 1).length <= max
  ) kept++;
  const left = entries.slice(kept);
  const named = left.length > 0 ? upTo(kept) + namesNote(left) : upTo(kept);
  return clipTo(named.length <= max ? named : upTo(kept) + countNote(left.length), max);
}

const enabledDatabases = (view: SessionView) => view.config.databases.filter((d) => d.enabled);

/**
 * SessionStart: the enabled local docs databases and how to search them; and, when the project's lockfile
 * changed since its dependencies' docs were indexed (`staleLockfile`), that they may be of older versions.
 */
export function sessionStartContext(view: SessionView, staleLockfile?: string): string | undefined {
  const { context } = view.config;
  if (!context.enabled || !context.sessionStart) return undefined;
  const stale = staleLockfile === undefined
    ? ""
    : `\n${staleNote(staleLockfile, view.config.dependencyDocs.auto)}`;
  const databases = enabledDatabases(view);
  if (databases.length === 0) return stale === "" ? undefined : clipTo(stale.slice(1), context.maxChars);
  const redirected = view.redirect
    ? " Web searches on these topics are redirected to them; repeating one identical search gets through."
    : "";
  const header = "docsearch-hook: local, version-correct documentation is available on this machine. " +
    `For questions it covers, search it before the web.${redirected}`;
  // The note goes with the header: placed after the entries, it would be the first thing cut for room.
  return fit(
    `${header}${stale}`,
    databases.map((d) => entry(d, `topics: ${d.keywords.join(", ")}`)),
    context.maxChars,
  );
}

/** What the agent is told (and can tell the user) when the installed dependencies changed. */
export const staleNote = (lockfile: string, background: boolean): string =>
  `docsearch-hook: ${lockfile} changed since this project's dependency docs were indexed, so they may be ` +
  (background
    ? "of older versions until the docsearch MCP server, which rebuilds them in the background, is done " +
      "(docsearch-hook status tells how far; docsearch-hook index add --project does it at once)"
    : "of older versions. To index the versions installed now, run: docsearch-hook index add --project");

/** UserPromptSubmit: a hint naming the databases whose keywords the prompt mentions; nothing otherwise. */
export function promptContext(prompt: string, view: SessionView): string | undefined {
  const { context } = view.config;
  if (!context.enabled || !context.userPrompt || prompt.trim() === "") return undefined;
  // "/docsearch:disable gitlab" is about the switch, not a question for the gitlab docs.
  if (prompt.trimStart().startsWith("/docsearch:")) return undefined;
  const text = normalizeText(prompt);
  const hits = enabledDatabases(view).flatMap((database) => {
    const keyword = database.keywords.find((k) => containsKeyword(text, normalizeText(k)));
    return keyword === undefined ? [] : [{ database, keyword }];
  });
  if (hits.length === 0) return undefined;
  if (hits.length === 1) {
    const [{ database, keyword }] = hits;
    return clipTo(
      `docsearch-hook: "${keyword}" is covered by the local "${database.name}" docs (${database.description}). ` +
        `Search them before the web: ${toolCall(database, QUESTION)}`,
      context.maxChars,
    );
  }
  return fit(
    `docsearch-hook: this prompt touches ${hits.length} local docs databases; search them IN PARALLEL ` +
      "before the web:",
    hits.map(({ database, keyword }) => entry(database, `the prompt says "${keyword}"`)),
    context.maxChars,
  );
}
