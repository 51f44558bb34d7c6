/**
 * Validation and merging of the config layers with zod. Loaded only on a config cache miss and by the
 * interactive commands: zod's import would double the hook's start-up if paid on every event.
 */
import { z } from "zod";
import { backtrackingRisk } from "../capture/backtracking.ts";
import { normalizeHost } from "../match/domains.ts";
import { type ConfigLocation, configLocation, type LayerText, readLayers } from "./layers.ts";
import { jsonPath, syntaxProblem } from "../json_problems.ts";
import type { Env, OS } from "../paths.ts";
import {
  ANSWER_MAX_CHARS,
  type CaptureConfig,
  type Config,
  type ContextConfig,
  type Database,
  DEFAULT_CAPTURE,
  DEFAULT_CONTEXT,
  DEFAULT_DEPENDENCY_DOCS,
  DEFAULT_ESCAPE_HATCH_TTL_SECONDS,
  DEFAULT_FETCH_TOOLS,
  type DependencyDocsConfig,
  type RedactRule,
} from "./types.ts";

const HINTS: Record<string, string> = {
  databases:
    'make it a list, e.g. "databases": [{"keywords": ["gitlab"], "mcp_tool_name": "mcp__leann__search"}]',
  name: 'use a short unique name, e.g. "gitlab"',
  keywords: 'use a non-empty list of non-empty strings, e.g. "keywords": ["gitlab", "gitlab-ci"]',
  path: 'give the database location as a string, e.g. "/home/me/.leann/indexes/gitlab"',
  mcp_tool_name: 'name the MCP tool the agent should call, e.g. "mcp_tool_name": "mcp__leann__search"',
  description: 'use a string, e.g. "GitLab documentation from docs.gitlab.com"',
  domains: 'use a list of hostnames, e.g. "domains": ["docs.gitlab.com"]',
  index_name: 'name the index the MCP tool should search, e.g. "index_name": "gitlab"',
  tool_args:
    'use an object of literal tool arguments, e.g. {"top_k": 5}; "{query}" marks where the query goes',
  enabled: "use true or false",
  escape_hatch_ttl_seconds: "use a whole number of seconds from 1 to 86400, e.g. 300",
  answer_max_chars:
    `use a whole number of characters from ${ANSWER_MAX_CHARS.min} to ${ANSWER_MAX_CHARS.max}, e.g. ${ANSWER_MAX_CHARS.default}`,
  fetch_tools:
    'use a list of tool names, * for any characters, e.g. ["Bash", "mcp__fetch__fetch", "mcp__*__browser_navigate"]',
  capture: 'use an object, e.g. "capture": {"retention_days": 30, "skip_tools": ["TodoWrite"]}',
  retention_days: "use a whole number of days from 1 to 3650, e.g. 30",
  skip_tools: 'use a list of tool names, e.g. ["TodoWrite", "mcp__github__*"]',
  redact_patterns:
    'use a JavaScript regular expression, e.g. "corp-[0-9]{6}" or {"pattern": "corp-[0-9]{6}", "category": "ticket"}',
  exclude_files: 'use a list of file globs, e.g. ["*.tfvars", "deploy/secrets/**"]',
  context: 'use an object, e.g. "context": {"max_chars": 1500, "user_prompt": false}',
  max_chars: "use a whole number of characters from 100 to 10000, e.g. 1500",
  session_start: "use true or false",
  user_prompt: "use true or false",
  dependency_docs: 'use an object, e.g. "dependency_docs": {"auto": false}',
  auto: "use true or false: false stops building dependency docs in the background",
  fetch: "use true or false: false stops fetching the docs that thin packages do not ship",
};

const nonEmpty = z.string().trim().min(1);

const hostname = z.string().transform((value, ctx) => {
  const host = normalizeHost(value);
  if (host === undefined) {
    ctx.addIssue({ code: "custom", message: `${JSON.stringify(value)} is not a hostname` });
    return z.NEVER;
  }
  return host;
});

const databaseEntry = z.object({
  name: nonEmpty.optional(),
  keywords: z.array(nonEmpty).min(1).optional(),
  path: z.string().optional(),
  mcp_tool_name: nonEmpty.optional(),
  description: z.string().optional(),
  domains: z.array(hostname).optional(),
  index_name: nonEmpty.optional(),
  tool_args: z.record(z.string(), z.json()).optional(),
  enabled: z.boolean().optional(),
});

type DatabaseEntry = z.infer<typeof databaseEntry>;

const ttlSeconds = z.number().int().min(1).max(86400);
const answerChars = z.number().int().min(ANSWER_MAX_CHARS.min).max(ANSWER_MAX_CHARS.max);

/** Characters of tool names (MCP servers' included) and `*`; anything else would never match a tool. */
const fetchTool = z.string().regex(/^[A-Za-z0-9_.*-]+$/, "not a tool name (letters, digits, _ . - and *)");

const captureSection = z.object({
  enabled: z.boolean().optional(),
  retention_days: z.number().int().min(1).max(3650).optional(),
  skip_tools: z.array(nonEmpty).optional(),
  // Checked one by one below, so that one bad pattern does not take the others with it.
  redact_patterns: z.array(z.unknown()).optional(),
  exclude_files: z.array(nonEmpty).optional(),
});

const contextSection = z.object({
  enabled: z.boolean().optional(),
  max_chars: z.number().int().min(100).max(10000).optional(),
  session_start: z.boolean().optional(),
  user_prompt: z.boolean().optional(),
});

const dependencyDocsSection = z.object({
  auto: z.boolean().optional(),
  fetch: z.boolean().optional(),
});

const redactPattern = z.union([
  z.string().min(1),
  z.object({
    pattern: z.string().min(1),
    category: z.string().regex(/^[a-z0-9_]{1,40}$/, "use lower-case letters, digits and _").optional(),
    ignore_case: z.boolean().optional(),
  }),
]).transform((value, ctx): RedactRule => {
  const rule = typeof value === "string" ? { pattern: value } : value;
  const ignoreCase = rule.ignore_case ?? false;
  try {
    new RegExp(rule.pattern, ignoreCase ? "gi" : "g");
  } catch (error) {
    ctx.addIssue({ code: "custom", message: `not a valid regular expression: ${(error as Error).message}` });
    return z.NEVER;
  }
  return { pattern: rule.pattern, category: rule.category ?? "custom", ignoreCase };
});

/**
 * The most redaction patterns one layer may add, and the most characters they may hold together. The hook
 * compiles and runs every pattern on every event, and a project's layers come with any cloned repository: 20,000
 * harmless patterns made each event in that project 6-8x slower, and even 100 patterns of 100 characters cost
 * it about 6 ms. A list longer than the caps is better written as alternatives in fewer patterns.
 */
export const MAX_REDACT_PATTERNS = 32;
export const MAX_REDACT_PATTERN_CHARS = 2000;
const TOO_MANY_PATTERNS_FIX =
  'keep the ones that matter, or join alternatives into one pattern, e.g. "(?:corp|acme)-[0-9]{6}"';

/** How to write a pattern that no text can make backtrack for minutes. */
const SLOW_PATTERN_FIX =
  'let each character match one way only, e.g. "(a+)+" as "a+", "(\\w+\\s?)*" as "[\\w\\s]*"';

const TOP_LEVEL_KEYS = new Set([
  "$schema",
  "databases",
  "escape_hatch_ttl_seconds",
  "answer_max_chars",
  "fetch_tools",
  "capture",
  "context",
  "dependency_docs",
]);
const ENTRY_KEYS = new Set(Object.keys(databaseEntry.shape));
const CAPTURE_KEYS = new Set(Object.keys(captureSection.shape));
const CONTEXT_KEYS = new Set(Object.keys(contextSection.shape));
const DEPENDENCY_DOCS_KEYS = new Set(Object.keys(dependencyDocsSection.shape));

function problem(file: string, path: readonly PropertyKey[], message: string): string {
  const field = [...path].reverse().find((key): key is string => typeof key === "string" && key in HINTS);
  const hint = field ? ` (fix: ${HINTS[field]})` : "";
  return `${file}: ${jsonPath(path)}: ${message}${hint}`;
}

function zodProblems(file: string, base: PropertyKey[], error: z.ZodError, consequence: string): string[] {
  return error.issues.map((issue) =>
    problem(file, [...base, ...issue.path], `${issue.message}; ${consequence}`)
  );
}

function unknownKeys(
  file: string,
  base: PropertyKey[],
  value: Record<string, unknown>,
  known: Set<string>,
): string[] {
  return Object.keys(value).filter((key) => !known.has(key)).map((key) => {
    const close = [...known].find((k) => k.startsWith(key) || key.startsWith(k));
    return `${file}: ${jsonPath([...base, key])}: unknown field, ignored${
      close ? ` (did you mean "${close}"?)` : ""
    }`;
  });
}

interface Pending {
  entry: DatabaseEntry;
  source: string;
  at: string;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Validates and merges the layers. Bad files and bad entries are skipped, each with one problem line. */
export function resolveConfig(layers: readonly LayerText[], explicit: boolean): Config {
  const problems: string[] = [];
  const files: string[] = [];
  const merged = new Map<string, Pending>();
  let escapeHatchTtlSeconds = DEFAULT_ESCAPE_HATCH_TTL_SECONDS;
  let answerMaxChars: number = ANSWER_MAX_CHARS.default;
  let fetchTools = [...DEFAULT_FETCH_TOOLS];
  const capture: CaptureConfig = structuredClone(DEFAULT_CAPTURE);
  const context: ContextConfig = { ...DEFAULT_CONTEXT };
  const dependencyDocs: DependencyDocsConfig = { ...DEFAULT_DEPENDENCY_DOCS };

  for (const layer of layers) {
    const file = layer.path;
    if (layer.readError !== undefined) {
      problems.push(`${file}: cannot read the file: ${layer.readError}`);
      continue;
    }
    if (layer.text === undefined) {
      if (explicit) problems.push(`${file}: config file not found (check --config / DOCSEARCH_CONFIG)`);
      continue;
    }
    files.push(file);
    let root: unknown;
    try {
      root = JSON.parse(layer.text);
    } catch (error) {
      problems.push(syntaxProblem(file, layer.text, error));
      continue;
    }
    if (!isRecord(root)) {
      problems.push(problem(file, [], 'expected a JSON object such as {"databases": [...]}'));
      continue;
    }
    problems.push(...unknownKeys(file, [], root, TOP_LEVEL_KEYS));
    if (root.escape_hatch_ttl_seconds !== undefined) {
      const ttl = ttlSeconds.safeParse(root.escape_hatch_ttl_seconds);
      if (ttl.success) escapeHatchTtlSeconds = ttl.data;
      else {
        const using = `using ${escapeHatchTtlSeconds} seconds`;
        problems.push(...zodProblems(file, ["escape_hatch_ttl_seconds"], ttl.error, using));
      }
    }
    if (root.answer_max_chars !== undefined) {
      const chars = answerChars.safeParse(root.answer_max_chars);
      if (chars.success) answerMaxChars = chars.data;
      else problems.push(...zodProblems(file, ["answer_max_chars"], chars.error, `using ${answerMaxChars}`));
    }
    if (root.fetch_tools !== undefined) {
      const read = readFetchTools(file, root.fetch_tools);
      if (read.tools !== undefined) fetchTools = read.tools;
      problems.push(...read.problems);
    }
    if (root.capture !== undefined) problems.push(...mergeCapture(capture, file, root.capture));
    if (root.context !== undefined) problems.push(...mergeContext(context, file, root.context));
    if (root.dependency_docs !== undefined) {
      problems.push(...mergeDependencyDocs(dependencyDocs, layer, root.dependency_docs));
    }
    if (root.databases === undefined) continue;
    if (!Array.isArray(root.databases)) {
      problems.push(problem(file, ["databases"], "not a list; file skipped"));
      continue;
    }
    const namesInFile = new Set<string>();
    root.databases.forEach((raw, i) => {
      const base = ["databases", i];
      const parsed = databaseEntry.safeParse(raw);
      if (!parsed.success) {
        problems.push(...zodProblems(file, base, parsed.error, "database skipped"));
        return;
      }
      problems.push(...unknownKeys(file, base, raw as Record<string, unknown>, ENTRY_KEYS));
      const entry = parsed.data;
      let name = entry.name ?? entry.keywords?.[0];
      if (name === undefined) {
        problems.push(
          problem(file, [...base, "name"], "a database needs a name or keywords; database skipped"),
        );
        return;
      }
      if (namesInFile.has(name.toLowerCase())) {
        if (entry.name !== undefined) {
          problems.push(
            problem(file, [...base, "name"], `duplicate name "${name}" in this file; database skipped`),
          );
          return;
        }
        // Seed-style entries have no names: one whose first keyword repeats an earlier one is its own database.
        let n = 2;
        while (namesInFile.has(`${name}-${n}`.toLowerCase())) n++;
        name = `${name}-${n}`;
      }
      const key = name.toLowerCase();
      namesInFile.add(key);
      const earlier = merged.get(key);
      // A later layer overrides field by field, so a project can e.g. just set "enabled": false.
      merged.set(key, {
        entry: { ...earlier?.entry, ...definedFields(entry), name },
        source: file,
        at: jsonPath(base),
      });
    });
  }

  const databases: Database[] = [];
  for (const { entry, source, at } of merged.values()) {
    const name = entry.name!;
    if (entry.keywords === undefined) {
      problems.push(problem(source, [at, "keywords"], `database "${name}" has no keywords; skipped`));
      continue;
    }
    if (entry.mcp_tool_name === undefined) {
      problems.push(problem(source, [at, "mcp_tool_name"], `database "${name}" names no MCP tool; skipped`));
      continue;
    }
    databases.push({
      name,
      keywords: entry.keywords,
      mcpToolName: entry.mcp_tool_name,
      description: entry.description?.trim() || `${name} documentation`,
      path: entry.path,
      domains: [...new Set(entry.domains ?? [])],
      indexName: entry.index_name,
      toolArgs: entry.tool_args as Record<string, unknown> | undefined,
      enabled: entry.enabled ?? true,
      source,
    });
  }
  return {
    databases,
    escapeHatchTtlSeconds,
    answerMaxChars,
    fetchTools,
    capture,
    context,
    dependencyDocs,
    problems,
    files,
  };
}

/**
 * A layer's list replaces the earlier one, so a project can also narrow it (`[]`: WebSearch and WebFetch only).
 * A bad entry is skipped, the others kept; a value that is not a list leaves the earlier one.
 */
function readFetchTools(file: string, raw: unknown): { tools?: string[]; problems: string[] } {
  const base = ["fetch_tools"];
  if (!Array.isArray(raw)) return { problems: [problem(file, base, "not a list; setting ignored")] };
  const problems: string[] = [];
  const tools = raw.flatMap((value, i) => {
    const tool = fetchTool.safeParse(value);
    if (tool.success) return [tool.data];
    problems.push(...zodProblems(file, [...base, i], tool.error, "tool skipped"));
    return [];
  });
  return { tools: [...new Set(tools)], problems };
}

/**
 * Later layers override the switches; lists add up, so a project can add redactions and exclusions but never
 * remove the user's own.
 */
function mergeCapture(capture: CaptureConfig, file: string, raw: unknown): string[] {
  const base = ["capture"];
  const parsed = captureSection.safeParse(raw);
  if (!parsed.success) return zodProblems(file, base, parsed.error, "capture section ignored");
  const problems = unknownKeys(file, base, raw as Record<string, unknown>, CAPTURE_KEYS);
  const section = parsed.data;
  capture.enabled = section.enabled ?? capture.enabled;
  capture.retentionDays = section.retention_days ?? capture.retentionDays;
  capture.skipTools.push(...section.skip_tools ?? []);
  capture.excludeFiles.push(...section.exclude_files ?? []);
  problems.push(...mergeRedactPatterns(capture.redactPatterns, file, section.redact_patterns ?? []));
  return problems;
}

/**
 * Adds a layer's redaction patterns, up to MAX_REDACT_PATTERNS entries (those past it are not even read) and
 * MAX_REDACT_PATTERN_CHARS characters; the excess is one problem line, at the first pattern skipped.
 */
function mergeRedactPatterns(kept: RedactRule[], file: string, values: readonly unknown[]): string[] {
  const problems: string[] = [];
  const at = (i: number) => `${file}: ${jsonPath(["capture", "redact_patterns", i])}`;
  let chars = 0;
  for (const [i, value] of values.slice(0, MAX_REDACT_PATTERNS).entries()) {
    const rule = redactPattern.safeParse(value);
    if (!rule.success) {
      problems.push(...zodProblems(file, ["capture", "redact_patterns", i], rule.error, "pattern skipped"));
      continue;
    }
    // A pattern that backtracks for minutes on some text would hold up the event that brought that text.
    const risk = backtrackingRisk(rule.data);
    if (risk !== undefined) {
      const consequence = "so matching can take minutes on some texts; pattern skipped";
      problems.push(`${at(i)}: ${risk}, ${consequence} (fix: ${SLOW_PATTERN_FIX})`);
      continue;
    }
    chars += rule.data.pattern.length;
    if (chars > MAX_REDACT_PATTERN_CHARS) {
      const after = values.length - i - 1;
      const skipped = after === 0 ? "this one" : `this one and the ${after} after it`;
      const over = `over the ${MAX_REDACT_PATTERN_CHARS} a layer's may hold together`;
      const where = at(i);
      problems.push(
        `${where}: the patterns up to here hold ${chars} characters, ${over}; ${skipped} skipped ` +
          `(fix: ${TOO_MANY_PATTERNS_FIX})`,
      );
      return problems;
    }
    kept.push(rule.data);
  }
  const over = values.length - MAX_REDACT_PATTERNS;
  if (over > 0) {
    const where = at(MAX_REDACT_PATTERNS);
    problems.push(
      `${where}: ${values.length} patterns, over the ${MAX_REDACT_PATTERNS} a layer may add; the ${over} ` +
        `from here on skipped (fix: ${TOO_MANY_PATTERNS_FIX})`,
    );
  }
  return problems;
}

/** Each layer overrides the fields it sets. */
function mergeContext(context: ContextConfig, file: string, raw: unknown): string[] {
  const base = ["context"];
  const parsed = contextSection.safeParse(raw);
  if (!parsed.success) return zodProblems(file, base, parsed.error, "context section ignored");
  const section = parsed.data;
  context.enabled = section.enabled ?? context.enabled;
  context.maxChars = section.max_chars ?? context.maxChars;
  context.sessionStart = section.session_start ?? context.sessionStart;
  context.userPrompt = section.user_prompt ?? context.userPrompt;
  return unknownKeys(file, base, raw as Record<string, unknown>, CONTEXT_KEYS);
}

/**
 * Each layer overrides the fields it sets: a project can turn the background builds off for itself. Fetching
 * from the network a project's layer can turn off, never on: a cloned repository's config is not the user's
 * word that its dependencies' metadata may send requests from this machine.
 */
function mergeDependencyDocs(dependencyDocs: DependencyDocsConfig, layer: LayerText, raw: unknown): string[] {
  const file = layer.path;
  const base = ["dependency_docs"];
  const parsed = dependencyDocsSection.safeParse(raw);
  if (!parsed.success) return zodProblems(file, base, parsed.error, "dependency_docs section ignored");
  dependencyDocs.auto = parsed.data.auto ?? dependencyDocs.auto;
  const problems: string[] = [];
  if (parsed.data.fetch === true && !dependencyDocs.fetch && layer.project) {
    problems.push(
      `${file}: ${jsonPath([...base, "fetch"])}: a project's config can turn fetching off, not on; ignored ` +
        "(fix: set it in your own config, ~/.claude/hooks/docsearch-config.json)",
    );
  } else dependencyDocs.fetch = parsed.data.fetch ?? dependencyDocs.fetch;
  return [...problems, ...unknownKeys(file, base, raw as Record<string, unknown>, DEPENDENCY_DOCS_KEYS)];
}

function definedFields(entry: DatabaseEntry): Partial<DatabaseEntry> {
  return Object.fromEntries(Object.entries(entry).filter(([, value]) => value !== undefined));
}

/**
 * The config an interactive command sees: the usual lookup from `dir` (a session's working directory, or the
 * command's own) with the command's variables and OS, validated now.
 */
export function commandConfig(
  flag: string | undefined,
  dir: string,
  env: Env,
  os: OS,
): { location: ConfigLocation; config: Config } {
  const location = configLocation(flag, env, os, dir);
  return { location, config: resolveConfig(readLayers(location), location.explicit) };
}
