/** The resolved configuration: every layer validated, merged and given its defaults. Plain JSON, cacheable. */

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

export interface Config {
  databases: Database[];
  escapeHatchTtlSeconds: number;
  /** One line per problem: file, JSON path, what is wrong and how to fix it. */
  problems: string[];
  /** The config files that exist and were read, in layer order. */
  files: string[];
}

export const DEFAULT_ESCAPE_HATCH_TTL_SECONDS = 300;
