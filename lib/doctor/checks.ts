/**
 * The judgements `docsearch-hook doctor` makes, as functions of facts gathered elsewhere (file contents, what
 * exists, the resolved config), so each one is tested without a machine set up to fail that way.
 */
import type { Config } from "../config/types.ts";
import { messageOf } from "../errors.ts";
import { builtInIndex, indexFileIn, NEXT_STEP, SERVER_NAME } from "../docs/built_in.ts";
import {
  AGENT_NAMES,
  COMMENTED,
  type Found,
  type OurCommand,
  parseSettings,
  registrationsIn,
  type Scope,
  type Settings,
  SettingsError,
} from "../install/settings.ts";
import { agentToolName, DIALECTS } from "../protocol/agents.ts";
import { parseArgv } from "../cli/args.ts";
import { hookCommand } from "../hook/command.ts";
import { shellWords } from "../install/shell.ts";
import {
  type Agent,
  BACKGROUND_HOOKS,
  BASH_CONDITIONS,
  type Registration,
  registrationsFor,
} from "../protocol/events.ts";
import type { EnabledPlugin } from "../install/plugin.ts";
import type { Env, OS } from "../paths.ts";
import { killSwitchOn } from "../switches/switches.ts";
import { VERSION } from "../version.ts";

export type Status = "ok" | "warn" | "fail";

export interface Check {
  status: Status;
  /** What was checked, e.g. "config" or "Claude Code, user scope". */
  name: string;
  message: string;
  /** A concrete next step: always there for warn and fail. */
  fix?: string;
}

const ok = (name: string, message: string): Check => ({ status: "ok", name, message });
const warn = (name: string, message: string, fix: string): Check => ({ status: "warn", name, message, fix });
const fail = (name: string, message: string, fix: string): Check => ({ status: "fail", name, message, fix });

/** What doctor needs to know about files, injected so the checks run on made-up machines. */
export interface FileFacts {
  /** The program's full path when it exists (a bare name is looked up on PATH), else undefined. */
  locate(program: string): string | undefined;
  exists(path: string): boolean;
  /** Whether two paths name the same file (after symlinks). */
  same(a: string, b: string): boolean;
  /** The home directory the agent's shell expands `~` and `$HOME` to in a hook command; none when unknown. */
  home?: string;
}

/**
 * The first part of a command that is not there, after the shell's expansion of the home directory (in a hook
 * command; an MCP server's is run with no shell): its program, looked up on PATH, or a checkout's script.
 */
function missingPart(command: OurCommand, files: FileFacts, shell: boolean): string | undefined {
  const word = (text: string) => shell ? expandHome(text, files.home) : text;
  if (files.locate(word(command.program)) === undefined) return command.program;
  if (command.script !== undefined && !files.exists(word(command.script))) return command.script;
  return undefined;
}

// ---- the program ---------------------------------------------------------------------------------------

/** What runs this docsearch-hook: the built artifact or the source, and by which deno. */
export interface Runtime {
  built: boolean;
  deno: string;
}

/** `self` is the command that runs this docsearch-hook (install/self.ts). */
export function binaryCheck(self: readonly string[], runtime: Runtime, files: FileFacts): Check {
  const name = "binary";
  if (self.length > 1) {
    const script = self[self.length - 1];
    return ok(
      name,
      `docsearch-hook ${VERSION}, run from ${
        runtime.built ? "the built artifact" : "source"
      } (${script}) by deno ${runtime.deno}`,
    );
  }
  // A bare name (DOCSEARCH_HOOK_SELF=docsearch-hook) is what the agent's shell finds on PATH.
  const located = files.locate(self[0]);
  if (located === undefined) {
    return fail(
      name,
      `DOCSEARCH_HOOK_SELF names ${self[0]}, which ${
        /[\\/]/.test(self[0]) ? "does not exist" : "is not on PATH"
      }`,
      "unset DOCSEARCH_HOOK_SELF, or point it at the launcher that runs docsearch-hook",
    );
  }
  return ok(name, `docsearch-hook ${VERSION} (${located === self[0] ? located : `${self[0]}: ${located}`})`);
}

export function killSwitchCheck(env: Env): Check {
  return killSwitchOn(env)
    ? warn(
      "kill switch",
      "DOCSEARCH_HOOK_DISABLED is set in this shell: where the agent has it too, every hook event is a silent allow",
      "unset DOCSEARCH_HOOK_DISABLED (and remove it from the agent's env settings)",
    )
    : ok("kill switch", "DOCSEARCH_HOOK_DISABLED is not set");
}

/**
 * The background upkeep of the project's dependency docs (project/upkeep.ts), as its record says; no line when
 * there is nothing to say (no session has kept them here, and the config does not turn it off).
 */
export function dependencyDocsCheck(
  project: string,
  upkeep: { ok: boolean; text: string } | undefined,
): Check[] {
  if (upkeep === undefined) return [];
  const name = "dependency docs";
  const message = `${project}: ${upkeep.text}`;
  return [
    upkeep.ok ? ok(name, message) : warn(
      name,
      message,
      `run docsearch-hook index add --project in ${project} to build them now and see any error; the next ` +
        "session there tries again by itself",
    ),
  ];
}

/** What was fetched of the project's thin packages' published docs (project/published_docs.ts), by package. */
export interface PublishedFact {
  /** "express 4.21.2" */
  pkg: string;
  /** What was read, from where, when; or why nothing was. */
  fetched?: { label: string; kind: string; url: string; repository?: string; at: number; cutShort?: string };
  failed?: string;
  none?: string;
}

/**
 * What doctor says of the published docs fetched for the project's packages: what from where, and failures
 * (asked again later); no line when none of its packages was looked for and fetching is on.
 */
export function publishedDocsCheck(
  project: string,
  fetchOn: boolean,
  facts: readonly PublishedFact[],
): Check[] {
  const name = "published docs";
  const said = facts.map((fact) =>
    fact.fetched
      ? `${fact.pkg}: ${fact.fetched.label}, from ${
        fact.fetched.kind === "repository" ? "the archive" : fact.fetched.kind
      } ${fact.fetched.url}${
        fact.fetched.repository === undefined ? "" : ` and the archive ${fact.fetched.repository}`
      } (fetched ${new Date(fact.fetched.at).toISOString().slice(0, 10)}${
        fact.fetched.cutShort === undefined ? "" : `; ${fact.fetched.cutShort}`
      })`
      : fact.failed
      ? `${fact.pkg}: failed: ${fact.failed}`
      : `${fact.pkg}: none found (${fact.none})`
  );
  const off = fetchOn ? "" : "dependency_docs.fetch is false: nothing is fetched from the network";
  if (said.length === 0 && off === "") return [];
  const message = `${project}: ${[off, ...said].filter((part) => part !== "").join("; ")}`;
  return [
    facts.some((fact) => fact.failed !== undefined) && fetchOn
      ? warn(name, message, "the background upkeep asks again within the hour; index add --project asks now")
      : ok(name, message),
  ];
}

// ---- registration ----------------------------------------------------------------------------------------

export interface SettingsFile {
  agent: Agent;
  scope: Scope;
  path: string;
  /** Undefined when the file does not exist. */
  text?: string;
  /** Why an existing file could not be read. */
  readError?: string;
}

const scopeFlags = (agent: Agent, scope: Scope) =>
  `${scope === "user" ? "" : ` --scope ${scope}`}${agent === "claude" ? "" : ` --agent ${agent}`}`;

/** What a registered command runs, for messages. */
const runs = (command: OurCommand) => command.script ?? command.program;

/** Whether `found` runs the program `self` does; `shell` as for missingPart. */
function isThis(found: OurCommand, self: OurCommand, files: FileFacts, shell: boolean): boolean {
  const word = (text: string) => shell ? expandHome(text, files.home) : text;
  if (found.script !== undefined || self.script !== undefined) {
    return found.script !== undefined && self.script !== undefined &&
      files.same(word(found.script), self.script);
  }
  const located = files.locate(word(found.program));
  // This program may itself be a bare name (DOCSEARCH_HOOK_SELF), run from wherever PATH finds it.
  const own = files.locate(self.program) ?? self.program;
  return located !== undefined && files.same(located, own);
}

/**
 * The tools a PreToolUse matcher must cover, by Claude Code's names: the web tools, and Bash, whose page reads
 * are redirected too (an entry from before that, `WebSearch|WebFetch`, leaves them alone).
 */
const PAGE_TOOLS = ["WebSearch", "WebFetch", "Bash"];

/** Whether a matcher covers a tool, by the agent's name for it. */
const covers = (matcher: string | undefined, tool: string, agent: Agent) => {
  if (matcher === undefined || matcher === "" || matcher === "*") return true;
  try {
    return new RegExp(`^(?:${matcher})$`).test(agentToolName(agent, tool));
  } catch {
    return false;
  }
};

/**
 * Whether the PreToolUse entries cover the page tools: in one entry, as install wrote them before handlers
 * had an `if`, or split, Bash's with a handler for each program whose page reads are redirected (a handler
 * without an `if` covers them all).
 */
function coversPageTools(entries: readonly Found[], agent: Agent): boolean {
  return PAGE_TOOLS.every((tool) => {
    const covering = entries.filter((entry) => covers(entry.matcher, tool, agent));
    if (tool !== "Bash" || covering.some((entry) => entry.condition === undefined)) {
      return covering.length > 0;
    }
    const conditions = new Set(covering.map((entry) => entry.condition));
    return BASH_CONDITIONS.every((condition) => conditions.has(condition));
  });
}

/** The agent's own switch for all its hooks, as one file sets it: `"<key>": <value>`, and whether that is off. */
interface HooksSwitch {
  key: string;
  value: boolean;
  off: boolean;
}

const booleanIn = (record: unknown, key: string): boolean | undefined => {
  const value = typeof record === "object" && record !== null
    ? (record as Record<string, unknown>)[key]
    : undefined;
  return typeof value === "boolean" ? value : undefined;
};

/**
 * Claude Code's and Qwen Code's `disableAllHooks`; Gemini CLI's `hooksConfig.enabled` (`hooks.enabled` in its
 * older versions). Ripperdoc has none.
 */
function hooksSwitch(agent: Agent, settings: Settings): HooksSwitch | undefined {
  if (agent === "claude" || agent === "qwen") {
    const off = settings.disableAllHooks;
    return off === undefined ? undefined : { key: "disableAllHooks", value: off, off };
  }
  if (agent !== "gemini") return undefined;
  for (const parent of ["hooksConfig", "hooks"]) {
    const on = booleanIn(settings[parent], "enabled");
    if (on !== undefined) return { key: `${parent}.enabled`, value: on, off: !on };
  }
  return undefined;
}

interface Read {
  file: SettingsFile;
  found: Found[];
  /** Why the file cannot be read as settings, and what to do. */
  error?: string;
  hint?: string;
  /** The agent's switch for all hooks, where the file sets it. */
  switch?: HooksSwitch;
}

function read(file: SettingsFile, own: string | undefined): Read | undefined {
  if (file.readError !== undefined) {
    return { file, found: [], error: `cannot read ${file.path}: ${file.readError}` };
  }
  if (file.text === undefined) return undefined;
  try {
    const settings = parseSettings(file.text, file.path, COMMENTED.includes(file.agent));
    return { file, found: registrationsIn(settings, own), switch: hooksSwitch(file.agent, settings) };
  } catch (error) {
    if (!(error instanceof SettingsError)) throw error;
    return { file, found: [], error: error.message, hint: error.hint };
  }
}

/** One line for a settings file that registers docsearch-hook or cannot be read; none for the others. */
function fileCheck(
  { file, found, error, hint }: Read,
  self: OurCommand,
  files: FileFacts,
): Check | undefined {
  const name = `${AGENT_NAMES[file.agent]}, ${file.scope} scope`;
  const again = `docsearch-hook install${scopeFlags(file.agent, file.scope)}`;
  if (error !== undefined) {
    return fail(name, error, hint ?? `fix the file: ${AGENT_NAMES[file.agent]} cannot read it either`);
  }
  if (found.length === 0) return undefined;
  const where = ` (${file.path})`;
  const commands = [...new Map(found.map((entry) => [entry.command, entry.ours])).values()];
  // Both halves of a checkout's command must be there: deno, and the checkout's main.ts.
  const gone = commands.flatMap((command) => missingPart(command, files, true) ?? []);
  if (gone.length > 0) {
    return fail(
      name,
      `the registered command runs ${gone[0]}, which does not exist${where}`,
      `register this binary instead: ${again}`,
    );
  }
  // What was added by hand after `hook` and the hook does not take: it fails open, every event let through.
  const refused = commands.flatMap((command) =>
    command.after === undefined ? [] : hookRefuses(command.after)
  );
  if (refused.length > 0) {
    return fail(
      name,
      `the registered command gives the hook more than it takes (${
        refused[0]
      }): the hook refuses it and lets every event through${where}`,
      `remove it from the command in ${file.path} (install keeps what was added after "hook")`,
    );
  }
  const registrations = registrationsFor(file.agent);
  const expected = [...new Set(registrations.map((registration) => registration.entry.event))];
  const perEvent = new Map<string, number>();
  for (const entry of found) perEvent.set(entry.event, (perEvent.get(entry.event) ?? 0) + 1);
  // The same handler twice (an event's entries split by `if` are different handlers).
  const handlers = new Map<string, number>();
  for (const { event, matcher, condition } of found) {
    const key = JSON.stringify([event, matcher, condition]);
    handlers.set(key, (handlers.get(key) ?? 0) + 1);
  }
  const twice = [
    ...new Set(
      found.filter((e) => handlers.get(JSON.stringify([e.event, e.matcher, e.condition]))! > 1)
        .map((e) => e.event),
    ),
  ];
  if (twice.length > 0) {
    return warn(
      name,
      `registered more than once for ${twice.join(", ")}: each such event is handled twice${where}`,
      `${again} (it writes each of its entries once)`,
    );
  }
  const absent = expected.filter((event) => !perEvent.has(event));
  if (absent.length > 0) {
    return warn(
      name,
      `registered for ${expected.length - absent.length} of ${expected.length} events (missing ${
        absent.join(", ")
      })${where}`,
      again,
    );
  }
  const preToolUse = registrations.find((registration) => registration.event === "PreToolUse")!.entry.event;
  const pre = found.filter((entry) => entry.event === preToolUse);
  if (pre.length > 0 && !coversPageTools(pre, file.agent)) {
    const names = PAGE_TOOLS.map((tool) => agentToolName(file.agent, tool));
    const tools = `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`;
    const matchers = [...new Set(pre.map((entry) => `"${entry.matcher}"`))].join(", ");
    return warn(
      name,
      `the ${preToolUse} ${pre.length > 1 ? "entries" : "matcher"} ${matchers} do${
        pre.length > 1 ? "" : "es"
      } not cover all of ${tools}${where}`,
      again,
    );
  }
  const other = commands.find((command) => !isThis(command, self, files, true));
  if (other !== undefined) {
    return warn(
      name,
      `registered, but it runs ${runs(other)}, not this docsearch-hook (${runs(self)})${where}`,
      `if this one is the one to use: ${again}`,
    );
  }
  const stale = staleEntries(found, registrations, file.agent);
  if (stale !== undefined) {
    return warn(name, `entries not as install writes them: ${stale}${where}`, again);
  }
  return ok(name, `registered for all ${expected.length} events, running this docsearch-hook${where}`);
}

/**
 * How the entries differ from what install writes now, in `async` and `timeout` (e.g. an older version's
 * background Stop and SessionEnd, which `claude -p` kills as it exits); undefined when they do not.
 */
function staleEntries(
  found: readonly Found[],
  registrations: readonly Registration[],
  agent: Agent,
): string | undefined {
  const waited: string[] = [];
  const background: string[] = [];
  const unit = DIALECTS[agent].timeoutUnit;
  // Grouped by the timeout they have and should have: an older install's three entries make one phrase.
  const timeouts = new Map<string, string[]>();
  for (const entry of found) {
    const registration = registrations.find((r) => r.entry.event === entry.event);
    if (registration === undefined) continue;
    // An agent without background hooks (Ripperdoc) ignores `async`: what an entry says about it changes nothing.
    if (BACKGROUND_HOOKS[agent] && (entry.async === true) !== registration.async) {
      (entry.async === true ? background : waited).push(entry.event);
    }
    if (entry.timeout !== registration.entry.timeout) {
      const has = entry.timeout === undefined ? "no timeout" : `a ${entry.timeout} ${unit} timeout`;
      const key = `${has}, not ${registration.entry.timeout} ${unit}`;
      timeouts.set(key, [...timeouts.get(key) ?? [], entry.event]);
    }
  }
  const once = (events: string[]) => [...new Set(events)].join(", ");
  const parts = [
    background.length > 0 &&
    `${once(background)} run in the background ("async": true): \`claude -p\` kills them as it exits`,
    waited.length > 0 && `${once(waited)} are waited for, though they can run in the background`,
    ...[...timeouts].map(([how, events]) =>
      `${once(events)} ${new Set(events).size > 1 ? "have" : "has"} ${how}`
    ),
  ].filter((part) => typeof part === "string");
  return parts.length === 0 ? undefined : parts.join("; ");
}

/**
 * The Claude Code plugin, which registers docsearch-hook too: a line of its own, and a warning where a settings
 * file registers it as well, since Claude Code then runs every event twice.
 */
function pluginChecks(plugin: EnabledPlugin, reads: readonly Read[]): Check[] {
  const where = [plugin.version, plugin.installPath].filter(Boolean).join(", ");
  const checks = [ok(
    "Claude Code plugin",
    `${plugin.id} is enabled (${plugin.path}): it runs docsearch-hook on every event, with its MCP server and ` +
      `the /docsearch: commands${where ? ` (${where})` : ""}`,
  )];
  const also = reads.filter((r) => r.file.agent === "claude" && r.found.length > 0);
  if (also.length > 0) {
    checks.push(warn(
      "Claude Code, registered twice",
      `by the plugin ${plugin.id} and in ${
        also.map((r) => r.file.path).join(" and ")
      }: every event runs twice`,
      `keep the plugin and take the settings' entries out: ${
        also.map((r) => `docsearch-hook uninstall${scopeFlags("claude", r.file.scope)}`).join("; ")
      }`,
    ));
  }
  return checks;
}

/** What the hook refuses of the words after `hook` in a command (as the shell splits them); none when all is well. */
function hookRefuses(after: string): string[] {
  try {
    const { positionals } = parseArgv(shellWords(after), hookCommand.options);
    return positionals.slice(0, 1).map((word) => `the word "${word}"`);
  } catch (error) {
    return [messageOf(error)];
  }
}

/**
 * One line per settings file that registers docsearch-hook or is unreadable, then what spans files: the same
 * agent told to run two different commands, or no registration anywhere. `own` is the command this
 * docsearch-hook registers, ours whatever its program's name; `plugin` the enabled Claude Code plugin.
 */
export function registrationChecks(
  settings: readonly SettingsFile[],
  self: OurCommand,
  files: FileFacts,
  own?: string,
  plugin?: EnabledPlugin,
): Check[] {
  const reads = settings.flatMap((file) => read(file, own) ?? []);
  const checks = reads.flatMap((r) => fileCheck(r, self, files) ?? []);
  if (plugin !== undefined) checks.push(...pluginChecks(plugin, reads));
  for (const agent of new Set(reads.map((r) => r.file.agent))) {
    const registered = reads.filter((r) => r.file.agent === agent && r.found.length > 0);
    // The agent runs an identical command once however many files name it; different ones all run.
    const commands = new Set(registered.flatMap((r) => r.found.map((entry) => entry.command)));
    if (commands.size > 1 && registered.length > 1) {
      const scopes = registered.map((r) => r.file.scope);
      checks.push(warn(
        `${AGENT_NAMES[agent]}, duplicates`,
        `registered in the ${scopes.join(" and ")} scopes with different commands: every event runs each`,
        `keep one: docsearch-hook uninstall${scopeFlags(agent, scopes[scopes.length - 1])}`,
      ));
    }
  }
  // An agent's own switch for every hook, where docsearch-hook is registered: the most specific file decides.
  const registeredWith = new Set([
    ...reads.filter((r) => r.found.length > 0).map((r) => r.file.agent),
    ...(plugin === undefined ? [] : ["claude" as const]),
  ]);
  for (const agent of registeredWith) {
    const specific = ["local", "project", "user"].flatMap((scope) =>
      reads.filter((r) =>
        r.file.agent === agent && r.file.scope === scope && r.switch !== undefined
      )
    )[0];
    if (!specific?.switch?.off) continue;
    const { key, value } = specific.switch;
    const path = specific.file.path;
    checks.push(fail(
      `${AGENT_NAMES[agent]}, all hooks`,
      `"${key}": ${value} in ${path}: ${AGENT_NAMES[agent]} runs no hook at all`,
      key === "disableAllHooks"
        ? `remove "disableAllHooks" from ${path} (or set it to false)`
        : `set "${key}" to true in ${path}`,
    ));
  }
  if (plugin === undefined && !reads.some((r) => r.found.length > 0)) {
    checks.push(fail(
      "registration",
      "docsearch-hook is not registered with any agent: it never runs",
      "docsearch-hook install (add --scope project, or --agent ripperdoc|gemini|qwen, as needed)",
    ));
  }
  return checks;
}

/** The agents docsearch-hook is registered with, by these settings files or the Claude Code plugin. */
export function registeredAgents(
  settings: readonly SettingsFile[],
  own: string | undefined,
  plugin: EnabledPlugin | undefined,
): Agent[] {
  const agents = new Set(
    settings.flatMap((file) => read(file, own) ?? []).filter((r) => r.found.length > 0).map((r) =>
      r.file.agent
    ),
  );
  if (plugin !== undefined) agents.add("claude");
  return [...agents];
}

// ---- config --------------------------------------------------------------------------------------------

/** Problems that only mean something was ignored (the rest skip a file, an entry or a setting). */
const isNotice = (problem: string) => /unknown field, ignored/.test(problem);

export function configChecks(config: Config, paths: readonly string[], explicit: boolean): Check[] {
  const checks: Check[] = [];
  const enabled = config.databases.filter((database) => database.enabled);
  for (const path of paths) {
    const problems = config.problems.filter((problem) => problem.startsWith(`${path}:`));
    const read = config.files.includes(path);
    if (!read && problems.length === 0) continue;
    const name = `config ${path}`;
    const serious = problems.filter((problem) => !isNotice(problem));
    const detail = (list: string[]) => list.map((problem) => problem.slice(path.length + 2)).join("; ");
    if (serious.length > 0) {
      checks.push(
        fail(
          name,
          detail(serious),
          "correct the file where the problem says (its JSON path, or line and column; see docs/configuration.md)",
        ),
      );
    } else if (problems.length > 0) {
      checks.push(warn(name, detail(problems), "remove or rename the field"));
    } else {
      const own = config.databases.filter((database) => database.source === path).length;
      checks.push(ok(name, `valid, ${own === 1 ? "1 database" : `${own} databases`} defined here`));
    }
  }
  // Problems not tied to one of the files (e.g. an --config file that does not exist).
  const loose = config.problems.filter((problem) => !paths.some((path) => problem.startsWith(`${path}:`)));
  for (const problem of loose) checks.push(fail("config", problem, "see docs/configuration.md"));
  // A file whose problem left it no database says so above, with the fix: no second line about the databases.
  const faulty = paths.some((path) =>
    config.problems.some((problem) => problem.startsWith(`${path}:`) && !isNotice(problem)) &&
    !config.databases.some((database) => database.source === path)
  );
  if (config.files.length === 0 && !explicit) {
    checks.push(fail(
      "config",
      `no config file found (looked for ${paths.join(", ")}): nothing is redirected`,
      `docsearch-hook install creates the user config; then ${NEXT_STEP}`,
    ));
  } else if (enabled.length === 0 && config.files.length > 0 && !faulty) {
    checks.push(warn("databases", "no enabled database: every web search passes", NEXT_STEP));
  }
  return checks;
}

export function duplicateKeywordChecks(config: Config): Check[] {
  const owners = new Map<string, string[]>();
  for (const database of config.databases.filter((d) => d.enabled)) {
    for (const keyword of new Set(database.keywords.map((k) => k.toLowerCase()))) {
      owners.set(keyword, [...owners.get(keyword) ?? [], database.name]);
    }
  }
  return [...owners].filter(([, names]) => names.length > 1).map(([keyword, names]) =>
    warn(
      "keywords",
      `"${keyword}" is a keyword of ${names.join(" and ")}: a search naming it is sent to all of them`,
      `keep "${keyword}" in one database, unless searching them all in parallel is what you want`,
    )
  );
}

/** `~/x`, `$HOME/x` and `${HOME}/x` as the shell would read them (unquoted). */
export function expandHome(path: string, home: string | undefined): string {
  const lead = /^(?:~|\$HOME|\$\{HOME\})(?=\/|$)/.exec(path);
  return home !== undefined && lead !== null ? home + path.slice(lead[0].length) : path;
}

/** The passages an index file holds, read without writing to it; throws when the file is not an index. */
export type PassagesIn = (file: string) => number;

/** What doctor says of a built-in index's file: missing, not an index, empty, or how many passages it holds. */
function builtInIndexCheck(
  name: string,
  index: string,
  file: string,
  source: string,
  files: FileFacts,
  passagesIn: PassagesIn,
): Check {
  const replace = `docsearch-hook index add ${index} <docs folder|file|URL> --replace`;
  if (!files.exists(file)) {
    return warn(
      name,
      `there is no index ${index} (${file}): its web searches pass until there is`,
      `docsearch-hook index add ${index} <docs folder|file|URL>, or remove the entry from ${source}`,
    );
  }
  let passages: number;
  try {
    passages = passagesIn(file);
  } catch (error) {
    // The hook cannot search it either: every web search it matches passes, as if there were no index.
    return fail(
      name,
      `${file} is not an index docsearch-hook can search (${messageOf(error)}): its web searches pass`,
      `${replace}, or remove the file`,
    );
  }
  return passages === 0
    ? warn(name, `index ${index} holds no passages (${file}): its web searches pass`, replace)
    : ok(name, `index ${index}: ${passages === 1 ? "1 passage" : `${passages} passages`} (${file})`);
}

/**
 * Each enabled database's index. A built-in one that is missing is passed over by the hook (its web searches
 * go through), so it is a warning with the command that builds it; a file there that is not an index is an
 * error; another tool's missing path means the agent is sent to a database that is not there.
 */
export function databaseChecks(
  config: Config,
  home: string | undefined,
  files: FileFacts,
  os: OS,
  stateDir: string | undefined,
  passagesIn: PassagesIn,
): Check[] {
  return config.databases.filter((database) => database.enabled).flatMap((database) => {
    const name = `database ${database.name}`;
    const index = builtInIndex(database);
    if (index !== undefined && stateDir !== undefined) {
      const file = indexFileIn(os, stateDir, index);
      return [builtInIndexCheck(name, index, file, database.source, files, passagesIn)];
    }
    if (database.path === undefined) return [];
    const path = database.path;
    return [
      files.exists(expandHome(path, home)) ? ok(name, `${path} exists`) : warn(
        name,
        `${path} does not exist: the agent is sent to a database that is not there`,
        `build the index at ${path}, or correct "path" in ${database.source}`,
      ),
    ];
  });
}

// ---- MCP servers ---------------------------------------------------------------------------------------

/** An MCP server the agent knows, and the file that names it. */
export interface McpServer {
  name: string;
  source: string;
  /** What the entry runs, when it is docsearch-hook's own server (read as a hook command would be). */
  runs?: OurCommand;
}

/** The agent whose MCP servers are judged, and what its own server's command is judged with. */
export interface McpJudged {
  agent: Agent;
  /** Whether the lines name the agent: more than one agent has docsearch-hook registered. */
  named: boolean;
  self: OurCommand;
  files: FileFacts;
}

/** A file an agent reads its MCP servers from that cannot be read, and why. */
export interface UnreadableFile {
  path: string;
  problem: string;
}

/** A file Claude Code cannot parse holds no servers for it: said as such, not as "not configured". */
export const unreadableMcpFileChecks = (files: readonly UnreadableFile[]): Check[] =>
  files.map(({ path, problem }) =>
    warn("MCP servers", problem, `fix ${path}: Claude Code reads its MCP servers from it`)
  );

/** Whether `tool` is one of the server's, as any agent names them (`mcp__<server>__…`, `mcp_<server>_…`). */
const isToolOf = (tool: string, server: string) =>
  Object.values(DIALECTS).some((dialect) => tool.startsWith(dialect.mcpTool(server, "")));

/**
 * docsearch-hook's own server, found by its name: its command must be there and be this docsearch-hook, as for
 * a hook command (though an agent runs it with no shell); undefined when it is, or is not ours to judge.
 */
function ownServerProblem(
  name: string,
  server: McpServer,
  judged: McpJudged | undefined,
): Check | undefined {
  if (server.runs === undefined || judged === undefined) return undefined;
  const { agent, self, files } = judged;
  const again = `docsearch-hook install --mcp${agent === "claude" ? "" : ` --agent ${agent}`}`;
  const gone = missingPart(server.runs, files, false);
  if (gone !== undefined) {
    return fail(
      name,
      `server "${server.name}" in ${server.source} runs ${gone}, which does not exist: the tool does not start`,
      `register this binary's server instead: ${again}`,
    );
  }
  if (!isThis(server.runs, self, files, false)) {
    return warn(
      name,
      `server "${server.name}" in ${server.source} runs ${runs(server.runs)}, not this docsearch-hook (${
        runs(self)
      })`,
      `if this one is the one to use: ${again}`,
    );
  }
  return undefined;
}

/**
 * One line per MCP tool the enabled databases send the agent to: whether one of the servers that agent reads
 * (`servers`, from the files `lookedIn`) provides it. `judged`: the agent, and what docsearch-hook's own
 * server is compared with.
 */
export function mcpChecks(
  config: Config,
  servers: readonly McpServer[],
  lookedIn: readonly string[],
  judged?: McpJudged,
): Check[] {
  const byTool = new Map<string, string[]>();
  for (const database of config.databases.filter((d) => d.enabled)) {
    byTool.set(database.mcpToolName, [...byTool.get(database.mcpToolName) ?? [], database.name]);
  }
  const agentName = judged === undefined ? undefined : AGENT_NAMES[judged.agent];
  const forAgent = agentName === undefined ? "" : ` for ${agentName}`;
  return [...byTool].map(([tool, databases]) => {
    const name = `MCP tool ${tool}${judged?.named ? ` (${agentName})` : ""}`;
    const used = `used by ${databases.join(", ")}`;
    if (!tool.startsWith("mcp_")) {
      return warn(
        name,
        `not an MCP tool name (${used})`,
        'set "mcp_tool_name" to mcp__<server>__<tool> (Gemini CLI: mcp_<server>_<tool>)',
      );
    }
    const server = servers.find((candidate) => isToolOf(tool, candidate.name));
    if (server !== undefined) {
      return ownServerProblem(name, server, judged) ??
        ok(name, `server "${server.name}" is configured in ${server.source} (${used})`);
    }
    const guess = tool.startsWith("mcp__") ? tool.slice(5).split("__")[0] : tool.slice(4).split("_")[0];
    // Every web search these databases match is denied and sent to a tool the agent does not have.
    return fail(
      name,
      `no MCP server "${guess}" is configured${forAgent} (${used}; looked in ${lookedIn.join(", ")})`,
      guess === SERVER_NAME
        ? `docsearch-hook install --mcp${
          judged === undefined || judged.agent === "claude" ? "" : ` --agent ${judged.agent}`
        } registers docsearch-hook's own (or install the plugin, which brings it)`
        : `add it (claude mcp add ${guess} -- <its command>, or in the agent's settings), or set "mcp_tool_name" to a tool you have`,
    );
  });
}

/**
 * The servers named in `~/.claude.json` (user, and this project's private ones), a project `.mcp.json`, or an
 * agent's settings file. `ours` tells what an entry runs when it is docsearch-hook's own server.
 */
export function mcpServersIn(
  text: string | undefined,
  source: string,
  projectDir?: string,
  ours?: (entry: unknown) => OurCommand | undefined,
): McpServer[] {
  if (text === undefined) return [];
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return [];
  }
  const entries = (value: unknown): [string, unknown][] =>
    typeof value === "object" && value !== null && !Array.isArray(value) ? Object.entries(value) : [];
  if (typeof json !== "object" || json === null) return [];
  const record = json as {
    mcpServers?: unknown;
    /** Ripperdoc's `mcp.json` lists them under `servers` (or `mcpServers`). */
    servers?: unknown;
    projects?: Record<string, { mcpServers?: unknown } | null>;
  };
  const project = projectDir === undefined ? undefined : record.projects?.[projectDir]?.mcpServers;
  // A project's private server of a name hides the user's: the last one of a name is what the agent runs.
  const byName = new Map([...entries(record.mcpServers), ...entries(record.servers), ...entries(project)]);
  return [...byName].map(([name, entry]) => {
    const runs = ours?.(entry);
    return runs === undefined ? { name, source } : { name, source, runs };
  });
}
