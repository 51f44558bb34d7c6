/**
 * The agent's hook settings: where they live, what docsearch-hook registers there, and how its entries are
 * merged into and taken out of a file that also holds the user's own hooks and settings. Pure: text and
 * objects in, text and objects out; the command modules do the reading and writing.
 */
import { parse, type ParseError, printParseErrorCode, visit } from "jsonc-parser";
import { z } from "zod";
import { jsonPath, lineAndColumn } from "../json_problems.ts";
import { baseName, claudeUserDir, type Env, homeDir, join, type OS } from "../paths.ts";
import { ARTIFACT_ENTRY } from "../program.ts";
import { type Agent, AGENTS, type Registration, registrationsFor } from "../protocol/events.ts";
import { DIALECTS } from "../protocol/agents.ts";
import { commandLine, shellWords } from "./shell.ts";

/** The agents and what each gets registered come from the event table; the settings modules use them here. */
export { type Agent, AGENTS, registrationsFor };
export const SCOPES = ["user", "project", "local"] as const;
export type Scope = typeof SCOPES[number];

export const AGENT_NAMES = Object.fromEntries(
  AGENTS.map((agent) => [agent, DIALECTS[agent].name]),
) as Record<Agent, string>;

/** Each agent's folder, in the home folder and in a project. */
const AGENT_DIRS: Record<Agent, string> = {
  claude: ".claude",
  ripperdoc: ".ripperdoc",
  gemini: ".gemini",
  qwen: ".qwen",
};

/** The agent's settings file of each scope (relative to its folder), and which scopes it has. */
const SETTINGS_FILES: Record<Agent, Partial<Record<Scope, string>>> = {
  claude: { user: "settings.json", project: "settings.json", local: "settings.local.json" },
  ripperdoc: { user: "hooks.json", project: "hooks.json", local: "hooks.local.json" },
  gemini: { user: "settings.json", project: "settings.json" },
  qwen: { user: "settings.json", project: "settings.json" },
};

/** The scopes the agent has a settings file for. */
export const scopesOf = (agent: Agent): Scope[] => SCOPES.filter((scope) => SETTINGS_FILES[agent][scope]);

/**
 * The agent's folder in the home folder: `~/.claude` (all of it elsewhere when CLAUDE_CONFIG_DIR is set),
 * `~/.gemini` (under GEMINI_CLI_HOME when that is set: Gemini CLI takes it for the home folder), `~/.ripperdoc`,
 * `~/.qwen`. Undefined when there is no home folder.
 */
export function agentUserDir(agent: Agent, env: Env, os: OS): string | undefined {
  if (agent === "claude") return claudeUserDir(env, os);
  const home = (agent === "gemini" && env("GEMINI_CLI_HOME")) || homeDir(env, os);
  return home ? join(os, home, AGENT_DIRS[agent]) : undefined;
}

/** The agent's folder in a project. */
export const agentProjectDir = (agent: Agent, os: OS, projectDir: string): string =>
  join(os, projectDir, AGENT_DIRS[agent]);

/**
 * The settings file of one agent and scope; undefined for the user scope when there is no home directory, and
 * for a scope the agent has no file for (scopesOf).
 */
export function settingsPath(
  agent: Agent,
  scope: Scope,
  env: Env,
  os: OS,
  projectDir: string,
): string | undefined {
  const file = SETTINGS_FILES[agent][scope];
  if (file === undefined) return undefined;
  const dir = scope === "user" ? agentUserDir(agent, env, os) : agentProjectDir(agent, os, projectDir);
  return dir === undefined ? undefined : join(os, dir, file);
}

/** `<program words> hook`, quoted for the agent's shell on `os`. */
export function hookCommand(self: readonly string[], os: OS): string {
  return commandLine([...self, "hook"], os);
}

/** What a registered command of ours runs: the binary, or for a checkout the deno binary and its main.ts. */
export interface OurCommand {
  program: string;
  script?: string;
  /**
   * What the user added by hand, exactly as written (quotes, `$HOME`, `~` and all): variable assignments
   * before it, options after `hook`. Kept on re-install.
   */
  before?: string;
  after?: string;
}

const BINARY_NAME = /^docsearch-hook([-.][\w.-]*)?$/i;

const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;

/**
 * Recognises docsearch-hook's own entries by their command: a program named docsearch-hook (any folder, any
 * release target suffix) running `hook`, deno running the built artifact (`<dir>/docsearch-hook.js hook`), or
 * deno running a checkout in exactly the shape install writes (`--config=<dir>/deno.json <dir>/main.ts hook`),
 * which another project's command would not have. Variable
 * assignments (or `env`) before it are allowed; a command line with pipes, lists or redirections is the
 * user's own composition, never ours to replace.
 */
export function ourCommand(command: string): OurCommand | undefined {
  const all = shellWords(command);
  if (all.compound) return undefined;
  let start = all[0] === "env" ? 1 : 0;
  while (start < all.length && ASSIGNMENT.test(all[start])) start++;
  const words = all.slice(start);
  const at = words.indexOf("hook");
  if (at < 1) return undefined;
  const program = words[0];
  const { spans } = all;
  const raw = (from: number, to: number) => command.slice(spans[from][0], spans[to][1]);
  const last = all.length - 1;
  const custom = {
    ...(start > 0 ? { before: raw(0, start - 1) } : {}),
    ...(start + at < last ? { after: raw(start + at + 1, last) } : {}),
  };
  if (at === 1 && BINARY_NAME.test(baseName(program))) return { program, ...custom };
  const script = words[at - 1];
  if (!/^deno(\.exe)?$/i.test(baseName(program))) return undefined;
  if (baseName(script) === ARTIFACT_ENTRY) return { program, script, ...custom };
  if (baseName(script) !== "main.ts") return undefined;
  const dir = script.slice(0, script.length - "main.ts".length);
  return words.includes(`--config=${dir}deno.json`) ? { program, script, ...custom } : undefined;
}

// ---- the settings file -----------------------------------------------------------------------------------

const handlerSchema = z.looseObject({ type: z.string(), command: z.string().optional() });
const groupSchema = z.looseObject({ matcher: z.string().optional(), hooks: z.array(handlerSchema) });

/** Gemini CLI's own settings that its older versions keep in `hooks`, beside the event lists. */
const HOOKS_SETTINGS = ["enabled", "disabled", "notifications"];

const settingsSchema = z.looseObject({
  hooks: z.object(Object.fromEntries(HOOKS_SETTINGS.map((key) => [key, z.unknown().optional()]))).catchall(
    z.array(groupSchema),
  ).optional(),
  disableAllHooks: z.boolean().optional(),
});

type Handler = z.infer<typeof handlerSchema>;
type Group = z.infer<typeof groupSchema>;
/** As settingsSchema checks it, `hooks` typed by its event lists: HOOKS_SETTINGS are only carried along. */
export interface Settings {
  hooks?: Record<string, Group[]>;
  disableAllHooks?: boolean;
  [key: string]: unknown;
}

/** The event lists of a `hooks` object. */
const eventLists = (hooks: Settings["hooks"]) =>
  Object.entries(hooks ?? {}).filter(([key]) => !HOOKS_SETTINGS.includes(key)) as [string, Group[]][];

/** Gemini CLI and Qwen Code read their settings files with comments (JSONC); the others read plain JSON. */
export const COMMENTED: readonly Agent[] = ["gemini", "qwen"];

/**
 * The text with its line and block comments blanked out, strings left alone: what a JSONC reader parses.
 * Spaces keep every other character where it was, so a syntax error's line and column stay right.
 */
export function withoutComments(text: string): string {
  let out = "";
  let from = 0;
  visit(text, {
    onComment: (offset, length) => {
      out += text.slice(from, offset) + text.slice(offset, offset + length).replace(/[^\n\r]/g, " ");
      from = offset + length;
    },
  });
  return out + text.slice(from);
}

/** A settings file that cannot be merged into safely; nothing is written. */
export class SettingsError extends Error {
  constructor(
    message: string,
    readonly hint = "fix the file (the agent cannot read it either), then run this again",
  ) {
    super(message);
  }
}

/** What each of jsonc-parser's syntax errors means, as the user reads it. */
const SYNTAX_ERRORS: Record<string, string> = {
  InvalidSymbol: "not a JSON value",
  InvalidNumberFormat: "a malformed number",
  PropertyNameExpected: "a property name in double quotes was expected",
  ValueExpected: "a value was expected",
  ColonExpected: "a colon was expected",
  CommaExpected: "a comma was expected",
  CloseBraceExpected: "a closing } was expected",
  CloseBracketExpected: "a closing ] was expected",
  EndOfFileExpected: "the file should end here",
  InvalidCommentToken: "a comment, which this file cannot have: the agent reads it as plain JSON",
  UnexpectedEndOfComment: "a block comment that is never closed",
  UnexpectedEndOfString: "a string that is never closed",
  UnexpectedEndOfNumber: "a number cut short",
  InvalidUnicode: "a malformed \\u escape",
  InvalidEscapeCharacter: "an escape that JSON does not have",
  InvalidCharacter: "a control character inside a string (write it as an escape)",
};

/** How the agent reads the file: comments only where it allows them, never a trailing comma (none allows one). */
const parseOptions = (comments: boolean) => ({ disallowComments: !comments, allowTrailingComma: false });

/** A syntax error, with line and column. */
function syntaxProblem(text: string, file: string, comments: boolean, error: ParseError): string {
  // Told apart by asking again with trailing commas allowed: the common slip of deleting a list's last item.
  const lenient: ParseError[] = [];
  parse(text, lenient, { ...parseOptions(comments), allowTrailingComma: true });
  const what = lenient.some((other) => other.offset === error.offset)
    ? SYNTAX_ERRORS[printParseErrorCode(error.error)]
    : "a comma before the closing bracket, which JSON does not allow";
  return `${file}: invalid JSON at ${lineAndColumn(text, error.offset)}: ${what}`;
}

/**
 * The file's own values (not zod's copy, so key order and unknown fields stay as written), once zod has
 * confirmed that the parts install touches have the shape the agent expects. An empty file is empty settings.
 * `comments`: the agent reads the file with comments (COMMENTED).
 */
export function parseSettings(text: string, file: string, comments = false): Settings {
  if (text.trim() === "") return {};
  if (text.startsWith("\uFEFF")) {
    throw new SettingsError(
      `${file}: starts with a byte-order mark (BOM), which JSON does not allow`,
      "save the file as UTF-8 without a BOM",
    );
  }
  const errors: ParseError[] = [];
  const raw: unknown = parse(text, errors, parseOptions(comments));
  if (errors.length > 0) throw new SettingsError(syntaxProblem(text, file, comments, errors[0]));
  const checked = settingsSchema.safeParse(raw);
  if (!checked.success) {
    const issue = checked.error.issues[0];
    throw new SettingsError(`${file}: ${jsonPath(issue.path)}: ${issue.message}`);
  }
  return raw as Settings;
}

/** Indentation, line ending and final newline as the file has them, so a change is written in its style. */
export interface Layout {
  indent: string;
  newline: "\n" | "\r\n";
  finalNewline: boolean;
}

export function layoutOf(text: string | undefined): Layout {
  if (text === undefined || text.trim() === "") return { indent: "  ", newline: "\n", finalNewline: true };
  return {
    indent: /^([ \t]+)["}\]]/m.exec(text)?.[1] ?? "  ",
    newline: text.includes("\r\n") ? "\r\n" : "\n",
    finalNewline: text.endsWith("\n"),
  };
}

/** A whole new file: what is written where there was none, or only blanks. */
export function formatSettings(settings: Settings, layout: Layout): string {
  const text = JSON.stringify(settings, null, layout.indent) + (layout.finalNewline ? "\n" : "");
  return layout.newline === "\n" ? text : text.replaceAll("\n", layout.newline);
}

/**
 * Ours by shape, or exactly the command this docsearch-hook registers (`own`): a launcher named in
 * DOCSEARCH_HOOK_SELF can have any name.
 */
function ourHandler(handler: Handler, own: string | undefined): OurCommand | undefined {
  if (handler.type !== "command" || handler.command === undefined) return undefined;
  const ours = ourCommand(handler.command);
  if (ours !== undefined || handler.command !== own) return ours;
  return { program: shellWords(own)[0] };
}

interface Stripped {
  settings: Settings;
  removed: number;
  /** Per event, where the first removed entry stood, so a new one takes its place. */
  at: Map<string, number>;
  /** Per event, the first removed entry's hand-made additions. */
  custom: Map<string, OurCommand>;
}

/** Takes out every handler of ours. Event lists it empties stay, empty, for the caller to refill or drop. */
function strip(settings: Settings, own: string | undefined): Stripped {
  const copy = structuredClone(settings);
  const at = new Map<string, number>();
  const custom = new Map<string, OurCommand>();
  let removed = 0;
  for (const [event, groups] of eventLists(copy.hooks)) {
    const kept: Group[] = [];
    for (const group of groups) {
      const handlers = group.hooks.filter((handler) => {
        const ours = ourHandler(handler, own);
        if (ours && (ours.before || ours.after) && !custom.has(event)) custom.set(event, ours);
        return ours === undefined;
      });
      const gone = group.hooks.length - handlers.length;
      if (gone > 0 && !at.has(event)) at.set(event, kept.length);
      removed += gone;
      if (gone === 0) kept.push(group);
      else if (handlers.length > 0) kept.push({ ...group, hooks: handlers });
    }
    copy.hooks![event] = kept;
  }
  return { settings: copy, removed, at, custom };
}

/** Drops the event lists (and the `hooks` object) that only our entries filled. */
function dropEmptied(settings: Settings, emptied: Iterable<string>): Settings {
  const hooks = settings.hooks;
  if (hooks === undefined) return settings;
  let dropped = false;
  for (const event of emptied) {
    if (hooks[event]?.length === 0) {
      delete hooks[event];
      dropped = true;
    }
  }
  if (dropped && Object.keys(hooks).length === 0) delete settings.hooks;
  return settings;
}

/** The entry's handlers: one per `if` where it has them, else one. */
function handlersFor(registration: Registration, command: string): Handler[] {
  const handler = {
    type: "command",
    command,
    timeout: registration.entry.timeout,
    ...(registration.async ? { async: true } : {}),
  };
  const conditions = registration.entry.conditions;
  return conditions === undefined
    ? [handler]
    : conditions.map((condition) => ({ ...handler, if: condition }));
}

export interface Merge {
  settings: Settings;
  /** Whether the meaning changed (formatting aside). */
  changed: boolean;
  /** Our handlers found before the change. */
  removed: number;
}

const sameMeaning = (a: Settings, b: Settings) => JSON.stringify(a) === JSON.stringify(b);

/**
 * The settings with docsearch-hook registered for every event the agent has, replacing its earlier entries
 * where they stood (so a re-install keeps the order the user chose, and what they added to the command by
 * hand) and touching nothing else.
 */
export function withRegistration(settings: Settings, command: string, agent: Agent): Merge {
  const { settings: next, removed, at, custom } = strip(settings, command);
  const hooks = next.hooks ??= {};
  // An event with several entries (PreToolUse's, split by `if`) gets them in order, where the old ones stood.
  const placed = new Map<string, number>();
  for (const registration of registrationsFor(agent)) {
    const { event, matcher } = registration.entry;
    const { before, after } = custom.get(event) ?? {};
    const line = [before, command, after].filter(Boolean).join(" ");
    const group: Group = {
      ...(matcher === undefined ? {} : { matcher }),
      hooks: handlersFor(registration, line),
    };
    const groups = hooks[event] ??= [];
    const offset = placed.get(event) ?? 0;
    groups.splice((at.get(event) ?? groups.length - offset) + offset, 0, group);
    placed.set(event, offset + 1);
  }
  // An entry of ours under an event this agent no longer gets (another agent's list) leaves nothing behind.
  dropEmptied(next, at.keys());
  return { settings: next, changed: !sameMeaning(settings, next), removed };
}

/**
 * The settings without any entry of docsearch-hook's (`own`: the command this one registers); what only they
 * needed goes with them.
 */
export function withoutRegistration(settings: Settings, own?: string): Merge {
  const { settings: next, removed, at } = strip(settings, own);
  const cleaned = dropEmptied(next, at.keys());
  return { settings: cleaned, changed: !sameMeaning(settings, cleaned), removed };
}

/** One registered command of ours, where it is, for doctor. */
export interface Found {
  event: string;
  matcher?: string;
  command: string;
  ours: OurCommand;
  /** As the file has them, whatever their type. */
  async?: unknown;
  timeout?: unknown;
  /** The handler's `if`, as the file has it. */
  condition?: unknown;
}

export function registrationsIn(settings: Settings, own?: string): Found[] {
  return eventLists(settings.hooks).flatMap(([event, groups]) =>
    groups.flatMap((group) =>
      group.hooks.flatMap((handler) => {
        const ours = ourHandler(handler, own);
        const { command, async, timeout, if: condition } = handler;
        return ours
          ? [{
            event,
            matcher: group.matcher,
            command: command!,
            ours,
            async,
            timeout,
            ...condition === undefined ? {} : { condition },
          }]
          : [];
      })
    )
  );
}
