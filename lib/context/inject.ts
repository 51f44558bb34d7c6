/**
 * Context injection (seed 004): a short note at session start listing the local docs, and a hint on prompts
 * that mention a database's keywords, so the agent reaches for local docs before the web. Pure: the text is
 * a function of the event's data and the session's view of the config, never longer than `max_chars`.
 */
import type { Database } from "../config/types.ts";
import { containsKeyword, normalizeText } from "../match/keywords.ts";
import { toolCall } from "../redirect/guidance.ts";
import type { SessionView } from "../switches/switches.ts";

/** What the example call searches for; the agent puts its own question there. */
const QUESTION = "<your question>";

/** Cuts at a code point boundary, marking the cut, so the result is at most `max` UTF-16 units. */
export function clipTo(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = max - 1;
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end--;
  return text.slice(0, end) + "…";
}

function entry(database: Database): string {
  const keywords = database.keywords.join(", ");
  return `- ${database.name}: ${database.description} (topics: ${keywords}). Search: ${
    toolCall(database, QUESTION)
  }`;
}

const moreNote = (count: number) => `\n… and ${count} more: run \`docsearch-hook status\` to list them`;

/** The header and as many whole lines as fit, then a note saying how many were left out. */
function fit(header: string, lines: readonly string[], max: number): string {
  const kept: string[] = [];
  for (const [i, line] of lines.entries()) {
    const left = lines.length - i - 1;
    const candidate = [header, ...kept, line].join("\n") + (left > 0 ? moreNote(left) : "");
    if (candidate.length > max) break;
    kept.push(line);
  }
  const omitted = lines.length - kept.length;
  return clipTo([header, ...kept].join("\n") + (omitted > 0 ? moreNote(omitted) : ""), max);
}

const enabledDatabases = (view: SessionView) => view.config.databases.filter((d) => d.enabled);

/** SessionStart: the enabled local docs databases and how to search them. */
export function sessionStartContext(view: SessionView): string | undefined {
  const { context } = view.config;
  if (!context.enabled || !context.sessionStart) return undefined;
  const databases = enabledDatabases(view);
  if (databases.length === 0) return undefined;
  const redirected = view.redirect
    ? " Web searches on these topics are redirected to them; repeating one identical search gets through."
    : "";
  const header = "docsearch-hook: local, version-correct documentation is available on this machine. " +
    `For questions it covers, search it before the web.${redirected}`;
  return fit(header, databases.map(entry), context.maxChars);
}

/** UserPromptSubmit: a hint naming the databases whose keywords the prompt mentions; nothing otherwise. */
export function promptContext(prompt: string, view: SessionView): string | undefined {
  const { context } = view.config;
  if (!context.enabled || !context.userPrompt || prompt.trim() === "") return undefined;
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
    hits.map(({ database, keyword }) => `- "${keyword}": ${entry(database).slice(2)}`),
    context.maxChars,
  );
}
