/**
 * Whether a subagent has the docs tool. Claude Code's events from a subagent carry its `agent_type`; a custom
 * agent's definition (`.claude/agents/*.md` in the project, else in the user's folder) may list its tools in
 * its front matter (`tools:`, `disallowedTools:`), and a list that leaves the docs tool out means a denial
 * would send the subagent to a tool it does not have.
 *
 * The decision is pure (definitions' text in, yes or no out); reading the definitions is a separate, bounded
 * edge: a checkout is an input, and its `.claude/agents/` may hold anything.
 */
import { frontMatter } from "../docs/summary.ts";
import { readRegularTextCapped } from "../files.ts";
import { join, type OS } from "../paths.ts";
import { toolPatternMatches } from "./request.ts";

/** What a definition says of its agent's tools. */
export interface AgentDefinition {
  name: string;
  /** The tools it may use; undefined when the definition does not say (every tool the session has). */
  tools?: string[];
  /** The tools it may not use, taken out of the others. */
  disallowedTools: string[];
}

/**
 * A front matter field as a list: `tools: Read, Grep` (Claude Code's own form), `tools: [Read, "Grep"]`, or
 * a block of `- Read` lines. Undefined when the field is absent or has no value.
 */
function listField(block: string, scalars: Record<string, string>, field: string): string[] | undefined {
  const unquote = (item: string) => item.trim().replace(/^(["'])(.*)\1$/, "$2").trim();
  const items = (text: string) => text.split(",").map(unquote).filter((item) => item !== "");
  const plain = scalars[field.toLowerCase()];
  if (plain !== undefined) return items(plain);
  const lines = block.split(/\r?\n/);
  const at = lines.findIndex((line) => new RegExp(`^${field}:`, "i").test(line));
  if (at < 0) return undefined;
  const inline = lines[at].slice(field.length + 1).trim();
  const flow = /^\[(.*)\]$/.exec(inline);
  if (flow !== null) return items(flow[1]);
  if (inline !== "") return undefined;
  const listed: string[] = [];
  for (const line of lines.slice(at + 1)) {
    const item = /^\s+-\s+(.+?)\s*$/.exec(line);
    if (item === null) break;
    listed.push(unquote(item[1]));
  }
  return listed.length > 0 ? listed : undefined;
}

/** A definition's name and tool lists; undefined for a file without front matter or a name. */
export function parseAgentDefinition(text: string): AgentDefinition | undefined {
  const { fields, body } = frontMatter(text);
  const name = fields.name;
  if (name === undefined) return undefined;
  const block = text.slice(0, text.length - body.length);
  const tools = listField(block, fields, "tools");
  return {
    name,
    ...tools === undefined ? {} : { tools },
    disallowedTools: listField(block, fields, "disallowedTools") ?? [],
  };
}

/**
 * Whether a tools list names the tool: by its name, by a pattern with `*` (`mcp__docsearch__*`), or by its
 * MCP server (`mcp__docsearch`, as permission rules name every tool of a server).
 */
export const listsTool = (list: readonly string[], tool: string): boolean =>
  list.some((entry) =>
    toolPatternMatches(entry, tool) || (entry.startsWith("mcp__") && tool.startsWith(`${entry}__`))
  );

/**
 * Whether the subagent `agentType` may call one of `tools` (the names the docs tool has). `definitions` are
 * definition files' text, the one that wins first (the project's before the user's; `findAgentDefinition`
 * finds it); the first whose name is `agentType` decides. An agent with no definition is one of Claude Code's own (general-purpose,
 * Explore, Plan), which have the session's MCP tools; a definition without `tools:` has them all too.
 */
export function subagentHasTool(
  agentType: string,
  definitions: readonly string[],
  tools: readonly string[],
): boolean {
  const definition = definitions.map(parseAgentDefinition).find((parsed) => parsed?.name === agentType);
  if (definition === undefined) return true;
  return tools.some((tool) =>
    (definition.tools === undefined || listsTool(definition.tools, tool)) &&
    !listsTool(definition.disallowedTools, tool)
  );
}

/** A definition file larger than this is not read: its front matter is at the top, and the file is an input. */
export const AGENT_FILE_BYTES = 128 * 1024;
/** The most definition files read in one folder: a folder of thousands is not a reason to stall the hook. */
export const AGENT_FILES = 100;

/** A name that can only be a file in the folder, as `agent_type` is not to be trusted with a path. */
const PLAIN_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;

/**
 * The text of the definition of `agentType`, from the folders in the order they win (the project's
 * `.claude/agents`, then the user's): in each, `<agentType>.md` first (where agents are conventionally
 * saved), then the other `.md` files the folder lists, up to `AGENT_FILES`, until one's name is `agentType`.
 * Regular files only, each at most `AGENT_FILE_BYTES`; a folder that is missing or unreadable gives nothing.
 */
export function findAgentDefinition(dirs: readonly string[], agentType: string, os: OS): string | undefined {
  const named = PLAIN_NAME.test(agentType) ? `${agentType}.md` : undefined;
  for (const dir of dirs) {
    const names = named === undefined ? [] : [named];
    try {
      for (const entry of Deno.readDirSync(dir)) {
        if (names.length >= AGENT_FILES) break;
        if (entry.name.endsWith(".md") && entry.name !== named) names.push(entry.name);
      }
    } catch {
      continue;
    }
    for (const name of names) {
      const text = readRegularTextCapped(join(os, dir, name), AGENT_FILE_BYTES);
      if (text !== undefined && parseAgentDefinition(text)?.name === agentType) return text;
    }
  }
  return undefined;
}
