/**
 * `docsearch-hook doctor`: gathers the facts (settings files, config, MCP servers, the state database, a
 * synthetic WebSearch through the real hook code) and prints one line per check with a fix for each problem.
 * Exit 1 when anything is broken. It changes nothing of the user's; the self-test uses a throwaway state.
 */
import { messageOf } from "../errors.ts";
import { BUILT } from "../program.ts";
import type { CommandContext } from "../cli/context.ts";
import { exists } from "../files.ts";
import { commandConfig } from "../config/resolve.ts";
import type { Config } from "../config/types.ts";
import {
  type Check,
  configChecks,
  databaseChecks,
  duplicateKeywordChecks,
  type FileFacts,
  mcpChecks,
  mcpServersIn,
  registrationChecks,
  type SettingsFile,
} from "./checks.ts";
import { mcpConfigPath } from "../install/mcp.ts";
import {
  AGENTS,
  COMMENTED,
  hookCommand,
  ourCommand,
  SCOPES,
  scopesOf,
  settingsPath,
  withoutComments,
} from "../install/settings.ts";
import { type Env, homeDir, isAbsolute, join, stateDir } from "../paths.ts";
import { syntaxProblem } from "../json_problems.ts";
import { killSwitchOn } from "../switches/switches.ts";
import { VERSION } from "../version.ts";
import { indexesUnder } from "../docs/built_in.ts";
import { hookDeps, hookOutput } from "../hook/hook.ts";
import {
  builtInToolName,
  PLUGIN_NAME,
  reachableDatabases,
  SERVER_NAME,
  withBuiltInTool,
} from "../docs/built_in.ts";
import { selfCommand } from "../install/self.ts";
import { type EnabledPlugin, enabledPlugin, installedPluginsPath } from "../install/plugin.ts";

export interface DoctorArgs {
  values: { json?: boolean; config?: string };
}

function readText(path: string): { text?: string; readError?: string } {
  try {
    return { text: Deno.readTextFileSync(path) };
  } catch (error) {
    return error instanceof Deno.errors.NotFound ? {} : { readError: messageOf(error) };
  }
}

function jsonProblem(path: string, text: string): string | undefined {
  try {
    JSON.parse(text);
    return undefined;
  } catch (error) {
    return syntaxProblem(path, text, error);
  }
}

function realPath(path: string): string {
  try {
    return Deno.realPathSync(path);
  } catch {
    return path;
  }
}

/** The file system, and the program search of the shell the agent runs hooks with (the context's PATH). */
const fileFacts = ({ env, os }: CommandContext): FileFacts => ({
  exists,
  same: (a, b) => realPath(a) === realPath(b),
  locate(program) {
    if (isAbsolute(program, os) || program.includes("/")) return exists(program) ? program : undefined;
    const dirs = (env("PATH") ?? "").split(os === "windows" ? ";" : ":").filter(Boolean);
    const names = os === "windows" ? [program, `${program}.exe`] : [program];
    for (const dir of dirs) {
      for (const name of names) {
        const path = join(os, dir, name);
        if (exists(path)) return path;
      }
    }
    return undefined;
  },
});

function binaryCheck(self: readonly string[]): Check {
  const name = "binary";
  if (self.length > 1) {
    const script = self[self.length - 1];
    return {
      status: "ok",
      name,
      message: `docsearch-hook ${VERSION}, run from ${
        BUILT ? "the built artifact" : "source"
      } (${script}) by deno ${Deno.version.deno}`,
    };
  }
  return exists(self[0]) ? { status: "ok", name, message: `docsearch-hook ${VERSION} (${self[0]})` } : {
    status: "fail",
    name,
    message: `DOCSEARCH_HOOK_SELF names ${self[0]}, which does not exist`,
    fix: "unset DOCSEARCH_HOOK_SELF, or point it at the launcher that runs docsearch-hook",
  };
}

function settingsFiles(projectDir: string, { env, os }: CommandContext): SettingsFile[] {
  return AGENTS.flatMap((agent) =>
    SCOPES.flatMap((scope) => {
      const path = settingsPath(agent, scope, env, os, projectDir);
      return path === undefined ? [] : [{ agent, scope, path, ...readText(path) }];
    })
  );
}

function mcpCheckList(
  config: Config,
  projectDir: string,
  { env, os }: CommandContext,
  plugin: EnabledPlugin | undefined,
): Check[] {
  const claudeJson = mcpConfigPath("claude", env, os);
  const projectJson = join(os, projectDir, ".mcp.json");
  const unreadable: Check[] = [];
  /** A file Claude Code cannot parse holds no servers for it: said as such, not as "not configured". */
  const text = (path: string) => {
    const { text, readError } = readText(path);
    const problem = readError ?? (text === undefined ? undefined : jsonProblem(path, text));
    if (problem !== undefined) {
      unreadable.push({
        status: "warn",
        name: "MCP servers",
        message: problem,
        fix: `fix ${path}: Claude Code reads its MCP servers from it`,
      });
      return undefined;
    }
    return text;
  };
  // Claude Code calls a plugin's server `plugin:<plugin>:<server>`.
  const fromPlugin = plugin === undefined
    ? []
    : [{ name: `plugin:${PLUGIN_NAME}:${SERVER_NAME}`, source: `the plugin ${plugin.id}` }];
  // Gemini CLI and Qwen Code list theirs in their settings files, comments and all; the registration lines
  // already say when one cannot be read.
  const agentFiles = COMMENTED.flatMap((agent) =>
    scopesOf(agent).flatMap((scope) => settingsPath(agent, scope, env, os, projectDir) ?? [])
  ).flatMap((path) => {
    const { text } = readText(path);
    return text === undefined ? [] : [{ path, text: withoutComments(text) }];
  });
  const servers = [
    ...(claudeJson ? mcpServersIn(text(claudeJson), claudeJson, projectDir) : []),
    ...mcpServersIn(text(projectJson), projectJson),
    ...fromPlugin,
    ...agentFiles.flatMap((file) => mcpServersIn(file.text, file.path)),
  ];
  const lookedIn = [
    ...(claudeJson ? [claudeJson] : []),
    projectJson,
    ...fromPlugin.map((server) => server.source),
    ...agentFiles.map((file) => file.path),
  ];
  return [...unreadable, ...mcpChecks(config, servers, lookedIn)];
}

const size = (bytes: number) =>
  bytes < 1024
    ? `${bytes} B`
    : bytes < 1024 ** 2
    ? `${(bytes / 1024).toFixed(0)} KB`
    : `${(bytes / 1024 ** 2).toFixed(1)} MB`;

/** How long the state check waits for the write lock before it calls the state busy. */
const STATE_LOCK_WAIT_MS = 2000;

/**
 * Opens the state database (creating it when missing, as the first hook event would; an existing one as it
 * is, so a damaged file is reported, not moved aside), reads every page, and proves a write would succeed.
 */
export async function stateCheck(
  lockWaitMs: number,
  { env, os }: Pick<CommandContext, "env" | "os">,
): Promise<Check> {
  const name = "state";
  const dir = stateDir(env, os);
  if (dir === undefined) {
    return {
      status: "fail",
      name,
      message: "no state directory: neither DOCSEARCH_HOME nor HOME is set, so no escape hatch works",
      fix: "set DOCSEARCH_HOME (or HOME) in the agent's environment",
    };
  }
  const {
    corruptionFix,
    isBusy,
    isCorruption,
    openExistingStateDb,
    openStateDb,
    SCHEMA_VERSION,
    stateDbPath,
    waitForLock,
  } = await import("../state/db.ts");
  const file = stateDbPath(dir, os);
  const existed = exists(file);
  const damaged = (problem: string): Check => ({
    status: "fail",
    name,
    // The hook replaces it only once an event reads a damaged page; until then reports may fail.
    message: `${file} is damaged: ${problem}`,
    fix: corruptionFix(file),
  });
  const busy: Check = {
    status: "warn",
    name,
    message: `${file} is busy: other hook processes hold the write lock; try again`,
    fix:
      `run docsearch-hook doctor again in a moment; if it stays busy, see which process holds it: lsof ${file}`,
  };
  /** What an error means here: damage and a busy lock the same whether opening or writing failed. */
  const failure = (error: unknown, otherwise: Omit<Check, "status" | "name">): Check =>
    isCorruption(error)
      ? damaged(messageOf(error))
      : isBusy(error)
      ? busy
      : { status: "fail", name, ...otherwise };
  let db;
  try {
    db = openExistingStateDb(dir, os) ?? openStateDb(dir, os);
  } catch (error) {
    return failure(error, {
      message: `cannot open ${file}: ${messageOf(error)}`,
      fix: `make ${dir} a directory of yours (mode 0700), or set DOCSEARCH_HOME to one`,
    });
  }
  try {
    // Every page is read (on the build machine, 65 ms for 100k observations when cached, 0.7 s from disk):
    // opening reads only the first, and a garbled page elsewhere fails whatever event or report reads it.
    const [check] = db.prepare("PRAGMA quick_check(1)").all() as { quick_check: string }[];
    if (check.quick_check !== "ok") {
      return damaged(check.quick_check.split("\n").filter((line) => !line.startsWith("***")).join(" "));
    }
    const mode = (db.prepare("PRAGMA journal_mode").get() as { journal_mode: string }).journal_mode;
    const version = (db.prepare("PRAGMA user_version").get() as { user_version: number }).user_version;
    // Rewriting the version under a write lock, then rolling back: a real write, and nothing changes.
    waitForLock(() => db.exec("BEGIN IMMEDIATE"), lockWaitMs);
    try {
      db.exec(`PRAGMA user_version = ${version}`);
    } finally {
      db.exec("ROLLBACK");
    }
    const bytes = [file, `${file}-wal`].reduce(
      (sum, path) => sum + (exists(path) ? Deno.statSync(path).size : 0),
      0,
    );
    const facts = `${file}: schema ${version}, ${mode.toUpperCase()}, writable, ${size(bytes)}${
      existed ? "" : " (created now)"
    }`;
    if (mode.toLowerCase() !== "wal") {
      return {
        status: "warn",
        name,
        message: `${facts}: not in WAL mode, so parallel hook events wait for each other`,
        fix: `sqlite3 ${file} 'PRAGMA journal_mode=WAL'`,
      };
    }
    if (version !== SCHEMA_VERSION) {
      return {
        status: "fail",
        name,
        message: `${facts}: expected schema ${SCHEMA_VERSION}`,
        fix: "upgrade docsearch-hook",
      };
    }
    const open = os !== "windows" && ((Deno.statSync(dir).mode ?? 0) & 0o077) !== 0;
    return open
      ? {
        status: "warn",
        name,
        message: `${facts}; ${dir} can be read by other users, and it holds what your sessions did`,
        fix: `chmod 700 ${dir}`,
      }
      : { status: "ok", name, message: facts };
  } catch (error) {
    return failure(error, {
      message: `${file} is not writable: ${messageOf(error)}`,
      fix: `make ${file} and ${dir} yours and writable (file 0600, directory 0700)`,
    });
  } finally {
    db.close();
  }
}

function killSwitchCheck(env: Env): Check {
  return killSwitchOn(env)
    ? {
      status: "warn",
      name: "kill switch",
      message:
        "DOCSEARCH_HOOK_DISABLED is set in this shell: where the agent has it too, every hook event is a silent allow",
      fix: "unset DOCSEARCH_HOOK_DISABLED (and remove it from the agent's env settings)",
    }
    : { status: "ok", name: "kill switch", message: "DOCSEARCH_HOOK_DISABLED is not set" };
}

const ms = (value: number) => `${value.toFixed(1)} ms`;

/**
 * A WebSearch for the first enabled database's first keyword through the hook's own code, with this config
 * and a throwaway state directory: it must be denied with guidance, and its identical retry let through. A
 * database whose built-in index is missing is passed over, as the hook passes it over.
 */
async function selfTest(configFlag: string | undefined, config: Config, ctx: CommandContext): Promise<Check> {
  const name = "self-test";
  let temp: string;
  try {
    temp = Deno.makeTempDirSync({ prefix: "docsearch-doctor-" });
  } catch (error) {
    return {
      status: "fail",
      name,
      message: `cannot create a temporary folder for the self-test: ${messageOf(error)}`,
      fix: "set TMPDIR to a writable folder",
    };
  }
  try {
    // The kill switch is reported on its own; the self-test is about the code path behind it.
    const env: Env = (key) =>
      key === "DOCSEARCH_HOME" ? temp : key === "DOCSEARCH_HOOK_DISABLED" ? undefined : ctx.env(key);
    // Indexes are looked for where this environment keeps them, not in the self-test's throwaway state.
    const indexExists = indexesUnder(ctx.os, stateDir(ctx.env, ctx.os));
    const database = reachableDatabases(config.databases, indexExists).find((candidate) => candidate.enabled);
    const query = database ? `${database.keywords[0]} documentation` : "docsearch-hook doctor self-test";
    // The retry is a new call, with its own tool_use_id: the same id again would be the same call seen twice.
    const event = (toolUseId: string) =>
      JSON.stringify({
        session_id: `docsearch-doctor-${Deno.pid}`,
        cwd: ctx.cwd,
        hook_event_name: "PreToolUse",
        tool_name: "WebSearch",
        tool_input: { query },
        tool_use_id: toolUseId,
      });
    const deps = { ...hookDeps(ctx), env, indexExists };
    const run = async (toolUseId: string) => {
      const start = performance.now();
      const output = await hookOutput({ ok: true, text: event(toolUseId) }, configFlag, deps);
      return { output, took: performance.now() - start };
    };
    const first = await run("docsearch-doctor");
    const retry = await run("docsearch-doctor-retry");
    const noted = first.output.stderr ? ` (the hook noted: ${first.output.stderr})` : "";
    const times = `${ms(first.took)} in process, its retry ${ms(retry.took)}`;
    if (database === undefined) {
      const passed = first.output.stdout === undefined;
      return {
        status: passed ? "ok" : "fail",
        name,
        message: `a WebSearch passed, as it should with no enabled database${
          config.databases.some((candidate) => candidate.enabled) ? " whose index exists" : ""
        } (${times})${noted}`,
        ...(passed ? {} : { fix: "report this as a bug" }),
      };
    }
    const denied = first.output.stdout?.includes('"permissionDecision":"deny"') &&
      first.output.stdout.includes(database.mcpToolName);
    if (!denied) {
      return {
        status: "fail",
        name,
        message: `a WebSearch for "${query}" was not denied${noted}`,
        fix: "run docsearch-hook check " + JSON.stringify(query) + " to see why",
      };
    }
    if (retry.output.stdout !== undefined) {
      return {
        status: "fail",
        name,
        message: `the identical retry of "${query}" was denied again: the escape hatch does not work${noted}`,
        fix: "see the state line above",
      };
    }
    return {
      status: noted ? "warn" : "ok",
      name,
      message: `a WebSearch for "${query}" was denied with guidance to ${database.mcpToolName}, ` +
        `its identical retry let through (${times})${noted}`,
      ...(noted ? { fix: "see the note: the hook works, but not everything it needs is there" } : {}),
    };
  } finally {
    Deno.removeSync(temp, { recursive: true });
  }
}

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

export async function run({ values }: DoctorArgs, ctx: CommandContext): Promise<number> {
  const { env, os } = ctx;
  const projectDir = env("CLAUDE_PROJECT_DIR") || ctx.cwd;
  const self = selfCommand(ctx);
  const own = hookCommand(self, os);
  const selfRegistered = ourCommand(own) ?? { program: self[0] };
  const settings = settingsFiles(projectDir, ctx);
  const installed = installedPluginsPath(env, os);
  const plugin = enabledPlugin(
    settings.filter((file) => file.agent === "claude"),
    installed === undefined ? undefined : readText(installed).text,
  );
  // The plugin's launcher sets DOCSEARCH_PLUGIN for the hook it runs: the agent knows the built-in search by
  // the plugin's name for it, which the checks and the self-test use as the hook would.
  const agent: CommandContext = plugin === undefined || env("DOCSEARCH_PLUGIN")
    ? ctx
    : { ...ctx, env: (key) => key === "DOCSEARCH_PLUGIN" ? PLUGIN_NAME : env(key) };
  // The lookup every command makes (commandConfig), but in the context's environment.
  const { location, config: resolved } = commandConfig(values.config, projectDir, env, os);
  const config = { ...resolved, databases: withBuiltInTool(resolved.databases, builtInToolName(agent.env)) };
  const files = fileFacts(ctx);
  const checks: Check[] = [
    binaryCheck(self),
    ...registrationChecks(settings, selfRegistered, files, own, plugin),
    ...configChecks(config, location.paths, location.explicit),
    ...duplicateKeywordChecks(config),
    ...databaseChecks(config, homeDir(env, os), files, os, stateDir(env, os)),
    ...mcpCheckList(config, projectDir, ctx, plugin),
    await stateCheck(STATE_LOCK_WAIT_MS, ctx),
    killSwitchCheck(env),
    await selfTest(values.config, config, agent),
  ];
  const failed = checks.some((check) => check.status === "fail");
  ctx.stdout(
    values.json ? JSON.stringify({ version: VERSION, ok: !failed, checks }, null, 2) : formatChecks(checks),
  );
  return failed ? 1 : 0;
}
