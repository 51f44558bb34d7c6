/** Shared test helpers: config builders and a sandboxed runner for the real CLI. */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import {
  ANSWER_MAX_CHARS,
  type Config,
  type Database,
  DEFAULT_CAPTURE,
  DEFAULT_CONTEXT,
  DEFAULT_DEPENDENCY_DOCS,
  DEFAULT_FETCH_TOOLS,
} from "../lib/config/types.ts";
import { fileUrlPath } from "../lib/paths.ts";

/** The checkout, with a trailing separator; a real path on Windows too (no "/C:/", no %20). */
export const ROOT = fileUrlPath(new URL("../", import.meta.url), Deno.build.os);
export const fixture = (path: string): string => `${ROOT}fixtures/${path}`;
export const readFixture = (path: string): string => Deno.readTextFileSync(fixture(path));

/**
 * What install writes in one entry (group) of an event: its matcher, timeout (seconds) and `async`, and the `if`
 * of each of its handlers (absent: one handler, without `if`).
 */
export interface Entry {
  matcher?: string;
  timeout: number;
  async?: true;
  conditions?: readonly string[];
}

/** An entry with the event it is under. */
export interface EventEntry extends Entry {
  event: string;
}

/**
 * Pinned here rather than read from the event table, so that a wrong table fails the tests. PreToolUse acts on
 * the web tools, Bash and the MCP page tools under any server name: in one entry for every agent but Claude
 * Code (in the agent's own tool names), and in Claude Code's settings before its handlers took an `if`.
 */
export const PAGE_TOOLS_MATCHER = "WebSearch|WebFetch|Bash|^mcp__.*__fetch$|^mcp__.*__fetch_html$|" +
  "^mcp__.*__fetch_markdown$|^mcp__.*__fetch_txt$|^mcp__.*__browser_navigate$|^mcp__.*__puppeteer_navigate$|" +
  "^mcp__.*__navigate_page$|^mcp__.*__new_page$|^mcp__.*__firecrawl_scrape$";
/** Claude Code's first PreToolUse entry: the same without Bash, which has an entry of its own. */
export const WEB_TOOLS_MATCHER = "WebSearch|WebFetch|^mcp__.*__fetch$|^mcp__.*__fetch_html$|" +
  "^mcp__.*__fetch_markdown$|^mcp__.*__fetch_txt$|^mcp__.*__browser_navigate$|^mcp__.*__puppeteer_navigate$|" +
  "^mcp__.*__navigate_page$|^mcp__.*__new_page$|^mcp__.*__firecrawl_scrape$";
/**
 * The `if` of each handler of Claude Code's Bash entry, in order: one per program whose page reads the redirect
 * knows (curl, wget, wget2, HTTPie's http and https, xh and xhs), so that a Bash command starting none of them
 * starts no hook process.
 */
export const BASH_CONDITIONS: readonly string[] = [
  "Bash(curl *)",
  "Bash(wget *)",
  "Bash(wget2 *)",
  "Bash(http *)",
  "Bash(https *)",
  "Bash(xh *)",
  "Bash(xhs *)",
];

/**
 * Per event, in install's order, what install writes in one entry, in Claude Code's names: what Ripperdoc and
 * Qwen Code get (Qwen Code in its own tool names and milliseconds), and Claude Code too but for PreToolUse,
 * which it gets as CLAUDE_PRE_TOOL_USE. The agent waits for the answers (deny, context), and for the end of a
 * turn, a subagent or the session, which `claude -p` would kill in the background as it exits: 10 s, SessionEnd
 * within the 1.5 s Claude Code gives all SessionEnd hooks. The rest record in the background, 30 s.
 */
export const CLAUDE_ENTRIES: Readonly<Record<string, Entry>> = {
  PreToolUse: { matcher: PAGE_TOOLS_MATCHER, timeout: 10 },
  UserPromptSubmit: { timeout: 10 },
  SessionStart: { timeout: 10 },
  PostToolUse: { matcher: "*", timeout: 30, async: true },
  PostToolUseFailure: { matcher: "*", timeout: 30, async: true },
  Stop: { timeout: 10 },
  SubagentStop: { timeout: 10 },
  PreCompact: { timeout: 30, async: true },
  SessionEnd: { timeout: 1 },
};

/** Claude Code's two PreToolUse entries, in order: the web and MCP page tools, then Bash's page reads. */
export const CLAUDE_PRE_TOOL_USE: readonly Entry[] = [
  { matcher: WEB_TOOLS_MATCHER, timeout: 10 },
  { matcher: "Bash", timeout: 10, conditions: BASH_CONDITIONS },
];

/**
 * What install must write for Claude Code, in the order it writes it: 9 events in 10 entries, PreToolUse's two
 * first, 16 handlers (PreToolUse's Bash entry holds 7).
 */
export const CLAUDE_REGISTRATION: readonly EventEntry[] = Object.entries(CLAUDE_ENTRIES).flatMap((
  [event, entry],
) => (event === "PreToolUse" ? CLAUDE_PRE_TOOL_USE : [entry]).map((one) => ({ event, ...one })));

/** A handler as it is told apart from the others of its event: `[event, matcher, if]`. */
export type HandlerKey = [string, string | undefined, string | undefined];

/** The handlers of `entries`, one per `if` (or one without), for comparing with what a file holds. */
export const handlerKeys = (entries: readonly EventEntry[]): HandlerKey[] =>
  entries.flatMap(({ event, matcher, conditions }) =>
    (conditions ?? [undefined]).map((condition): HandlerKey => [event, matcher, condition])
  );

/** An entry as install writes it, its handlers running `command`: `{ matcher?, hooks }`. */
export function group(
  { matcher, timeout, async, conditions }: Entry,
  command: string,
): Record<string, unknown> {
  const handler = { type: "command", command, timeout, ...(async ? { async } : {}) };
  return {
    ...(matcher === undefined ? {} : { matcher }),
    hooks: conditions === undefined
      ? [handler]
      : conditions.map((condition) => ({ ...handler, if: condition })),
  };
}

/** The events install registers for each agent, in its order; Ripperdoc has no PostToolUseFailure. */
export const CLAUDE_EVENTS: readonly string[] = Object.keys(CLAUDE_ENTRIES);
export const RIPPERDOC_EVENTS: readonly string[] = [
  "PreToolUse",
  "UserPromptSubmit",
  "SessionStart",
  "PostToolUse",
  "Stop",
  "SubagentStop",
  "PreCompact",
  "SessionEnd",
];

/** Whether anything (a dangling link too) stands at `path`. */
export async function exists(path: string): Promise<boolean> {
  try {
    await Deno.lstat(path);
    return true;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return false;
    throw error;
  }
}

/**
 * `pkg@version` from npm, installed once into .cache/<dir>/<version>: the path `within` names in it. Installed
 * beside, then renamed into place, so a run cut short leaves no half-installed cache; another run installing
 * it meanwhile is no failure. Not runProgram: a download the size of an agent's may outlast its hang guard.
 */
export async function npmCached(dir: string, pkg: string, version: string, within: string): Promise<string> {
  const prefix = `${ROOT}.cache/${dir}/${version}`;
  const path = `${prefix}/${within}`;
  if (await exists(path)) return path;
  console.error(`Installing ${pkg}@${version} into ${prefix} …`);
  const staging = `${prefix}.${Deno.pid}.tmp`;
  const npm = await new Deno.Command("npm", {
    args: [
      "install",
      "--no-save",
      "--no-audit",
      "--no-fund",
      "--loglevel=error",
      "--prefix",
      staging,
      `${pkg}@${version}`,
    ],
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (npm.code !== 0) throw new Error(`npm install failed: ${new TextDecoder().decode(npm.stderr)}`);
  try {
    await Deno.rename(staging, prefix);
  } catch (error) {
    await Deno.remove(staging, { recursive: true });
    if (!await exists(path)) throw error;
  }
  return path;
}

/** The names in a folder, sorted. */
export async function listDir(path: string): Promise<string[]> {
  return (await Array.fromAsync(Deno.readDir(path))).map((entry) => entry.name).sort();
}

export function database(overrides: Partial<Database> & { name: string }): Database {
  return {
    keywords: [overrides.name],
    mcpToolName: "mcp__leann__search",
    description: `${overrides.name} documentation`,
    domains: [],
    enabled: true,
    source: "test.json",
    ...overrides,
  };
}

export function config(databases: Database[], escapeHatchTtlSeconds = 300): Config {
  return {
    databases,
    escapeHatchTtlSeconds,
    answerMaxChars: ANSWER_MAX_CHARS.default,
    fetchTools: [...DEFAULT_FETCH_TOOLS],
    capture: DEFAULT_CAPTURE,
    context: DEFAULT_CONTEXT,
    dependencyDocs: DEFAULT_DEPENDENCY_DOCS,
    problems: [],
    files: [],
  };
}

let denoDirCache: string | undefined;

/** The parent's Deno cache, so subprocesses under a temp HOME neither re-download zod nor re-transpile. */
async function denoDir(): Promise<string> {
  if (denoDirCache) return denoDirCache;
  const out = await new Deno.Command(Deno.execPath(), { args: ["info", "--json"], stdout: "piped" }).output();
  denoDirCache = JSON.parse(new TextDecoder().decode(out.stdout)).denoDir as string;
  return denoDirCache;
}

/**
 * The variables a subprocess needs to reach the registries as this process does: without the TLS ones, a
 * machine whose TLS goes through an inspecting proxy (its CA in SSL_CERT_FILE) cannot verify the npm registry
 * when a fresh Deno cache downloads a package.
 */
export const NETWORK_ENV = [
  "SSL_CERT_FILE",
  "SSL_CERT_DIR",
  "DENO_CERT",
  "DENO_TLS_CA_STORE",
  "HTTP_PROXY",
  "HTTPS_PROXY",
  "NO_PROXY",
  "http_proxy",
  "https_proxy",
  "no_proxy",
] as const;

/** Those of NETWORK_ENV that `get` has. */
export function networkEnv(get: (name: string) => string | undefined): Record<string, string> {
  const found: Record<string, string> = {};
  for (const name of NETWORK_ENV) {
    const value = get(name);
    if (value !== undefined) found[name] = value;
  }
  return found;
}

export interface Sandbox {
  home: string;
  state: string;
  env: Record<string, string>;
  [Symbol.asyncDispose](): Promise<void>;
}

/**
 * A temp HOME and DOCSEARCH_HOME with nothing of the caller's environment (`parent`, this process's unless a
 * test gives its own) leaking in but the way to the network (NETWORK_ENV) and PATH.
 */
export async function sandbox(
  extraEnv: Record<string, string> = {},
  parent: (name: string) => string | undefined = (name) => Deno.env.get(name),
): Promise<Sandbox> {
  const home = await Deno.makeTempDir({ prefix: "docsearch-test-" });
  const state = `${home}/state`;
  return {
    home,
    state,
    env: {
      ...networkEnv(parent),
      HOME: home,
      PATH: parent("PATH") ?? "/usr/bin:/bin",
      DENO_DIR: await denoDir(),
      DOCSEARCH_HOME: state,
      NO_COLOR: "1",
      ...extraEnv,
    },
    async [Symbol.asyncDispose]() {
      await Deno.remove(home, { recursive: true });
    },
  };
}

/** Far past any command's own bounds: a program still running then has hung. */
export const HANG_MS = 60_000;

/** What `get` gives once it gives something, asked every 20 ms; an error naming `what` after `timeoutMs`. */
export async function until<T>(what: string, get: () => T | undefined, timeoutMs = 20_000): Promise<T> {
  const start = performance.now();
  for (;;) {
    const value = get();
    if (value !== undefined) return value;
    if (performance.now() - start > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** A temp folder for `fn`, removed afterwards. */
export async function withDir(fn: (dir: string) => void | Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir();
  try {
    await fn(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  env: Record<string, string>;
  stdin?: string | Uint8Array;
  cwd?: string;
  /** Leave stdin open after writing, as a broken wrapper script does; it is closed once the program exits. */
  keepStdinOpen?: boolean;
}

/**
 * Runs a program as the agent runs the hook: a fresh process, only `env`, stdin piped and closed (or left
 * open). A program that has not exited after a minute is killed, so a hang fails its test instead of the run.
 */
export async function runProgram(program: string, args: string[], options: RunOptions): Promise<CliResult> {
  const child = new Deno.Command(program, {
    args,
    cwd: options.cwd ?? ROOT,
    env: options.env,
    clearEnv: true,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const writer = child.stdin.getWriter();
  const close = async () => {
    try {
      await writer.close();
    } catch (error) {
      // A program may exit without reading its stdin (the kill switch, an empty program): not a failure.
      if (!(error instanceof Deno.errors.BrokenPipe)) throw error;
    }
  };
  try {
    if (options.stdin !== undefined) {
      await writer.write(
        typeof options.stdin === "string" ? new TextEncoder().encode(options.stdin) : options.stdin,
      );
    }
    if (!options.keepStdinOpen) await close();
  } catch (error) {
    // The write too, for the same reason.
    if (!(error instanceof Deno.errors.BrokenPipe)) throw error;
  }
  const killer = setTimeout(() => child.kill(), HANG_MS);
  try {
    const out = await child.output();
    const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
    return { code: out.code, stdout: decode(out.stdout), stderr: decode(out.stderr) };
  } finally {
    clearTimeout(killer);
    if (options.keepStdinOpen) await close();
  }
}

/** `deno run -A SCRIPT ARGS` with this checkout's deno.json, as install registers it. */
export const runScript = (script: string, args: string[], options: RunOptions): Promise<CliResult> =>
  runProgram(
    Deno.execPath(),
    ["run", "-A", "--quiet", `--config=${ROOT}deno.json`, `${ROOT}${script}`, ...args],
    options,
  );

/** `docsearch-hook ARGS`, run from source. */
export const runCli = (args: string[], options: RunOptions): Promise<CliResult> =>
  runScript("main.ts", args, options);

/**
 * A built-in index `name` in the sandbox's state, built by `index add` from `pages` (file name → Markdown),
 * its config entry left to the test: what the hook searches for the answer it quotes.
 */
export async function builtIndex(box: Sandbox, name: string, pages: Record<string, string>): Promise<void> {
  const docs = `${box.home}/docs-${name}`;
  await Deno.mkdir(docs, { recursive: true });
  for (const [file, text] of Object.entries(pages)) await Deno.writeTextFile(`${docs}/${file}`, text);
  const added = await runCli(["index", "add", name, docs, "--no-config"], { env: box.env });
  if (added.code !== 0) throw new Error(`index add ${name} failed: ${added.stderr}`);
}

/** A GitLab page that answers the fixtures' WebSearch, "how to configure gitlab ci runners". */
export const RUNNERS_PAGE = {
  "runners.md": "# Configure GitLab CI runners\n\nTo configure a runner, edit its `config.toml`: each " +
    "`[[runners]]` section sets the executor, the concurrency and the tags of one runner.\n",
};

/** The hook run on one event from `project`, as the agent runs it there. */
const hookIn = (project: string, env: Record<string, string>, event: Record<string, unknown>) =>
  runCli(["hook"], { env, cwd: project, stdin: JSON.stringify({ cwd: project, ...event }) });

/** The hook run on a session's start in `project`, as the agent starts it there. */
export const sessionStartIn = (project: string, env: Record<string, string>): Promise<CliResult> =>
  hookIn(project, env, { session_id: "s", hook_event_name: "SessionStart", source: "startup" });

/** The hook run on a WebSearch for `query` in `project`, in the session `session`. */
export const webSearchIn = (
  project: string,
  env: Record<string, string>,
  query: string,
  session: string,
): Promise<CliResult> =>
  hookIn(project, env, {
    session_id: session,
    hook_event_name: "PreToolUse",
    tool_name: "WebSearch",
    tool_input: { query },
  });

/**
 * What install registers when run from this checkout: deno running the artifact install builds in dist/, the
 * program as it ships.
 */
export const REGISTERED = [
  Deno.execPath(),
  "run",
  "-A",
  "--quiet",
  "--no-config",
  `${ROOT}dist/docsearch-hook.js`,
];

/** This program from its sources, as the tests start it: deno running main.ts with its deno.json. */
export const SELF = [
  Deno.execPath(),
  "run",
  "-A",
  "--quiet",
  `--config=${ROOT}deno.json`,
  `${ROOT}main.ts`,
];

/** A command that did its job: exit 0, nothing on stderr; its stdout. */
export function succeeded(result: CliResult): string {
  assertEquals([result.code, result.stderr], [0, ""], result.stderr + result.stdout);
  return result.stdout;
}

/** The backups install made beside `path` (full paths). */
export async function backupsOf(path: string): Promise<string[]> {
  const dir = path.slice(0, path.lastIndexOf("/"));
  const name = path.slice(path.lastIndexOf("/") + 1);
  return (await listDir(dir)).filter((entry) => entry.startsWith(`${name}.bak`)).map((e) => `${dir}/${e}`);
}

let calls = 0;
const freshId = (id: string) => `${id}_${++calls}`;

/**
 * A fixture event with some fields replaced. Claude Code's PreToolUse events get a fresh tool_use_id unless one is
 * given, as the agent gives every call, and so every retry, its own: the same id twice is one call seen twice
 * (the hook registered twice).
 */
export function event(path: string, overrides: Record<string, unknown> = {}): string {
  const fixture = JSON.parse(readFixture(`events/${path}`));
  const fresh =
    !path.includes("/") && fixture.hook_event_name === "PreToolUse" && typeof fixture.tool_use_id === "string"
      ? { tool_use_id: freshId(fixture.tool_use_id) }
      : {};
  return JSON.stringify({ ...fixture, ...fresh, ...overrides });
}

/** An event (JSON text) as a new call of the agent's, such as a retry: the same, with a fresh tool_use_id. */
export function newCall(text: string): string {
  const parsed = JSON.parse(text);
  return typeof parsed.tool_use_id === "string"
    ? JSON.stringify({ ...parsed, tool_use_id: freshId(parsed.tool_use_id) })
    : text;
}

/**
 * The sandbox's user config with fetching turned off. Real packages name real hosts (github.com, their sites),
 * and a test run has no network but the registries: a test of dependency docs built from real packages asks
 * nothing more, and fetching is tested against servers on 127.0.0.1 (tests/published_docs_test.ts).
 */
export async function noFetching(box: Sandbox): Promise<void> {
  await Deno.mkdir(`${box.home}/.claude/hooks`, { recursive: true });
  await Deno.writeTextFile(
    `${box.home}/.claude/hooks/docsearch-config.json`,
    JSON.stringify({ dependency_docs: { fetch: false } }),
  );
}
