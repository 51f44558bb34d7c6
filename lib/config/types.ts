/** The resolved configuration: every layer validated, merged and given its defaults. Plain JSON, cacheable. */
import { MCP_PAGE_TOOLS } from "../protocol/events.ts";

export interface Database {
  name: string;
  /** As written (trimmed); matching lower-cases them. */
  keywords: string[];
  mcpToolName: string;
  description: string;
  path?: string;
  /** Hostnames, lower-case, no scheme or leading dot. */
  domains: string[];
  indexName?: string;
  toolArgs?: Record<string, unknown>;
  enabled: boolean;
  /** The config file that defined it last. */
  source: string;
}

/** A user redaction rule (config `capture.redact_patterns`), already checked to compile and not to backtrack. */
export interface RedactRule {
  pattern: string;
  /** Shown as `[REDACTED:category]`. */
  category: string;
  ignoreCase: boolean;
}

/** What the hook records of a session and for how long. */
export interface CaptureConfig {
  enabled: boolean;
  retentionDays: number;
  /** Tool names never recorded; a trailing `*` matches a prefix (`mcp__github__*`). */
  skipTools: string[];
  redactPatterns: RedactRule[];
  /** Globs of files whose content is never stored, on top of the built-in list (.env*, *.pem …). */
  excludeFiles: string[];
}

/** What the hook tells the agent unasked: on SessionStart and on prompts that mention a database. */
export interface ContextConfig {
  enabled: boolean;
  /** The injected text never exceeds this many characters. */
  maxChars: number;
  sessionStart: boolean;
  userPrompt: boolean;
}

/** The docs of the project's dependencies, which the MCP server keeps built while a session runs there. */
export interface DependencyDocsConfig {
  /** Built when missing and rebuilt after an install, in the background; off: only `index add --project`. */
  auto: boolean;
  /**
   * The docs a thin package does not ship fetched from where they are published (its repository's tag, its
   * site); off: nothing is asked of the network. A project's layer can turn it off, not on.
   */
  fetch: boolean;
}

export interface Config {
  databases: Database[];
  escapeHatchTtlSeconds: number;
  /**
   * The most characters of a denial that quotes the local docs (`answer_max_chars`): the passages share what
   * the guidance around them leaves.
   */
  answerMaxChars: number;
  /**
   * The tools besides WebFetch through which an agent reads a web page, as tool-name patterns (`*` matches any
   * run of characters): `Bash` for its curl/wget/HTTPie commands, and MCP fetch and browser tools, whose `url`
   * argument is the page.
   */
  fetchTools: string[];
  capture: CaptureConfig;
  context: ContextConfig;
  dependencyDocs: DependencyDocsConfig;
  /** One line per problem: file, JSON path, what is wrong and how to fix it. */
  problems: string[];
  /** The config files that exist and were read, in layer order. */
  files: string[];
}

export const DEFAULT_ESCAPE_HATCH_TTL_SECONDS = 300;

/**
 * A denial's length when the config does not set one: 6,000 characters hold the best passages of five pages,
 * about 1,500 tokens, without crowding the agent's context. At least 2,000, which leaves one passage room
 * beside the guidance around it; at most 20,000, the most Claude Code (2.1.332) was seen to hand to the model
 * intact.
 */
export const ANSWER_MAX_CHARS = { default: 6000, min: 2000, max: 20000 } as const;

/**
 * Bash, and the page-reading tools of the common fetch and browser MCP servers under any server name. A tool
 * only counts when its `url` is on a covered docs host, so a broad name costs nothing.
 */
export const DEFAULT_FETCH_TOOLS: readonly string[] = [
  "Bash",
  ...MCP_PAGE_TOOLS.map((tool) => `mcp__*__${tool}`),
];

export const DEFAULT_CAPTURE: CaptureConfig = {
  enabled: true,
  retentionDays: 30,
  skipTools: [],
  redactPatterns: [],
  excludeFiles: [],
};

export const DEFAULT_CONTEXT: ContextConfig = {
  enabled: true,
  maxChars: 1500,
  sessionStart: true,
  userPrompt: true,
};

/**
 * On, both: "no hand work" is the point of dependency docs. What fetching sends, and to whom, is in
 * docs/privacy.md: a package's name and version in the URLs its own metadata names, nothing of the project.
 */
export const DEFAULT_DEPENDENCY_DOCS: DependencyDocsConfig = { auto: true, fetch: true };
