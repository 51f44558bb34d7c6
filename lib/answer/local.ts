/**
 * What the local docs say to a web request matched to a built-in index, in one call for the hook: a page
 * read of a page the index holds is answered with that page; anything else with the best passages when the
 * gate finds an answer among them; otherwise there is no local answer, and the request goes through.
 */
import type { DocsIndex } from "../docs/store.ts";
import type { Match } from "../match/match.ts";
import type { WebRequest } from "../redirect/request.ts";
import {
  type Answer,
  type AnswerOptions,
  answerReason,
  answers,
  type Found,
  searchAnswer,
  versionLabel,
} from "./answer.ts";
import { findPage, pageReason } from "./page.ts";

export type LocalAnswer =
  /** The page the request reads, from the index. */
  | { kind: "page"; answer: Answer }
  /** The best passages, the gate passed. */
  | { kind: "passages"; answer: Answer; found: Found }
  /** Nothing the gate takes for an answer (or nothing that fits the budget): the request goes through. */
  | { kind: "none"; found: Found };

/** The version label is the index's own (its package mark); the rest as for `answerReason`. */
export interface LocalAnswerOptions extends Omit<AnswerOptions, "version"> {
  /** When the index was last written (`indexWrittenAt`), said of a page answered from it. */
  indexedAt?: Date;
}

/**
 * The local answer from `index` (open; named `name`, the built-in index `match` sends the agent to).
 * `others` are the request's other matches, named after the answer.
 */
export function localAnswer(
  index: DocsIndex,
  name: string,
  request: WebRequest,
  match: Match,
  options: LocalAnswerOptions,
  others: readonly Match[] = [],
): LocalAnswer {
  const version = versionLabel(index.meta("package"));
  const labelled = version === undefined ? options : { ...options, version };
  const page = request.tool === "WebSearch" ? undefined : findPage(index, request);
  const pageAnswer = page && pageReason(request, match, page, labelled, others);
  if (pageAnswer !== undefined) return { kind: "page", answer: pageAnswer };
  const found = searchAnswer(index, name, request, match);
  const answer = answers(found) ? answerReason(request, match, found, labelled, others) : undefined;
  return answer === undefined ? { kind: "none", found } : { kind: "passages", answer, found };
}
