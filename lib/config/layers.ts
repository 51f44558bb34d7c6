/** Where configuration comes from, read as raw text (cheap; validation happens in resolve.ts). */
import { type Env, homeDir, join, type OS } from "../paths.ts";

export interface LayerText {
  path: string;
  /** The file's text; undefined when it does not exist or cannot be read. */
  text?: string;
  /** Why an existing file could not be read. */
  readError?: string;
}

export interface ConfigLocation {
  /** Layer files in order, later ones overriding earlier ones. */
  paths: string[];
  /** True for `--config` / `DOCSEARCH_CONFIG`: that file replaces the lookup, and must exist. */
  explicit: boolean;
}

/** The seed's location of the user's config, which `install` creates from the example. */
export function userConfigPath(env: Env, os: OS): string | undefined {
  const home = homeDir(env, os);
  return home === undefined ? undefined : join(os, home, ".claude", "hooks", "docsearch-config.json");
}

/**
 * `--config PATH` or `DOCSEARCH_CONFIG`; otherwise the user file (the seed's location), then the project's
 * shared and local files. The project is the agent's project directory (`CLAUDE_PROJECT_DIR`,
 * `RIPPERDOC_PROJECT_DIR`), else the directory the event came from.
 */
export function configLocation(
  flag: string | undefined,
  env: Env,
  os: OS,
  projectDir: string | undefined,
): ConfigLocation {
  const explicit = flag ?? env("DOCSEARCH_CONFIG");
  if (explicit) return { paths: [explicit], explicit: true };
  const paths: string[] = [];
  const user = userConfigPath(env, os);
  if (user) paths.push(user);
  const project = env("CLAUDE_PROJECT_DIR") || env("RIPPERDOC_PROJECT_DIR") || projectDir;
  if (project) {
    paths.push(
      join(os, project, ".claude", "docsearch.json"),
      join(os, project, ".claude", "docsearch.local.json"),
    );
  }
  return { paths: [...new Set(paths)], explicit: false };
}

export function readLayer(path: string): LayerText {
  try {
    return { path, text: Deno.readTextFileSync(path) };
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return { path };
    if (error instanceof Deno.errors.PermissionDenied) {
      return { path, readError: "permission denied (fix: make it readable by this user)" };
    }
    if (error instanceof Deno.errors.IsADirectory) {
      return { path, readError: "it is a directory, not a file" };
    }
    return { path, readError: error instanceof Error ? error.message : String(error) };
  }
}
