/**
 * The redirect's I/O around the local answer, loaded by the hook (and `check`) only for a request that a
 * built-in index matched: the index files opened once each, the answer of each written once per wording, and
 * a subagent's definition read to tell whether it can call the tool a denial would name.
 */
import { builtInIndex, indexFileIn } from "../docs/built_in.ts";
import { DocsIndex } from "../docs/store.ts";
import { join, type OS } from "../paths.ts";
import type { AnswerFor } from "../redirect/decide.ts";
import type { WebRequest } from "../redirect/request.ts";
import { findAgentDefinition, subagentHasTool } from "../redirect/subagents.ts";
import { localAnswer } from "./local.ts";
import { indexWrittenAt } from "./page.ts";

/** The answers to one request, from the built-in indexes under `stateDir`; close() closes what was opened. */
export function indexAnswers(request: WebRequest, os: OS, stateDir: string): AnswerFor & Disposable {
  const open = new Map<string, DocsIndex | undefined>();
  const written = new Map<string, ReturnType<AnswerFor>>();
  const fileOf = (name: string) => indexFileIn(os, stateDir, name);
  const indexNamed = (name: string) => {
    if (!open.has(name)) {
      try {
        // Read-only: the hook never writes an index (a file that is not one stays as it was, and one in an
        // older layout is for `index refresh` to upgrade).
        open.set(name, DocsIndex.openReadOnly(fileOf(name)));
      } catch {
        // An index that does not open answers nothing; the request is decided as if it had no answer.
        open.set(name, undefined);
      }
    }
    return open.get(name);
  };
  const answer: AnswerFor = (match, others, options) => {
    const name = builtInIndex(match.database)!;
    const key = JSON.stringify([name, others.map((other) => other.database.name), options]);
    const known = written.get(key);
    if (known !== undefined) return known;
    const index = indexNamed(name);
    let local: ReturnType<typeof localAnswer> | undefined;
    try {
      local = index &&
        localAnswer(
          index,
          name,
          request,
          match,
          { ...options, indexedAt: indexWrittenAt(fileOf(name)) },
          others,
        );
    } catch {
      // A damaged index answers nothing. Its error must not leave here: the answer is written inside the state
      // database's transaction, whose healing would take "database disk image is malformed" for its own damage
      // and set the session's state aside.
      local = undefined;
    }
    const result: ReturnType<AnswerFor> = local === undefined || local.kind === "none"
      ? { answered: false }
      : { answered: true, reason: local.answer.reason };
    written.set(key, result);
    return result;
  };
  return Object.assign(answer, {
    [Symbol.dispose]: () => {
      for (const index of open.values()) index?.close();
      open.clear();
    },
  });
}

/**
 * Whether the subagent `agentType` can call a tool, by its definition in the project's `.claude/agents` or
 * the user's (`~/.claude/agents`): every tool when neither defines it (Claude Code's own agents). Read once.
 */
export function subagentTools(
  agentType: string,
  dirs: { project?: string; home?: string },
  os: OS,
): (tool: string) => boolean {
  const folders = [dirs.project, dirs.home].flatMap((dir) => dir ? [join(os, dir, ".claude", "agents")] : []);
  const definition = findAgentDefinition(folders, agentType, os);
  const definitions = definition === undefined ? [] : [definition];
  return (tool) => subagentHasTool(agentType, definitions, [tool]);
}
