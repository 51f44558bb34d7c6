/** Where configuration comes from, read as raw text (cheap; validation happens in resolve.ts). */
import { messageOf } from "../errors.ts";
import { readTextCapped } from "../files.ts";
import { baseName, dirName, type Env, homeDir, join, type OS } from "../paths.ts";

export interface LayerText {
  path: string;
  /** The file's text; undefined when it does not exist or cannot be read. */
  text?: string;
  /** Why an existing file could not be read. */
  readError?: string;
  /** A layer of the project's (it comes with a cloned repository): what it may set is narrower. */
  project?: boolean;
}

export interface ConfigLocation {
  /** Layer files in order, later ones overriding earlier ones. */
  paths: string[];
  /** True for `--config` / `DOCSEARCH_CONFIG`: that file replaces the lookup, and must exist. */
  explicit: boolean;
  /** Of `paths`, the project's layers. */
  fromProject?: readonly string[];
}

/** Where the original Python hook read its config, kept so its users' files work; `install` creates it. */
export function userConfigPath(env: Env, os: OS): string | undefined {
  const home = homeDir(env, os);
  return home === undefined ? undefined : join(os, home, ".claude", "hooks", "docsearch-config.json");
}

/** The agent's project directory (`CLAUDE_PROJECT_DIR`, `RIPPERDOC_PROJECT_DIR`), else the event's. */
export const projectDirectory = (env: Env, eventDir: string | undefined): string | undefined =>
  env("CLAUDE_PROJECT_DIR") || env("RIPPERDOC_PROJECT_DIR") || eventDir;

/**
 * `--config PATH` or `DOCSEARCH_CONFIG`; otherwise the user file (the original Python hook's), then the project's
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
  const project = projectDirectory(env, projectDir);
  const fromProject = project
    ? [join(os, project, ".claude", "docsearch.json"), join(os, project, ".claude", "docsearch.local.json")]
    : [];
  return { paths: [...new Set([...paths, ...fromProject])], explicit: false, fromProject };
}

/**
 * A config layer holds a few KB. A project's layers come with any cloned repository, so the cap keeps a
 * hostile one from making every event read (and the config cache keep) a huge file.
 */
export const MAX_LAYER_BYTES = 1024 * 1024;

/**
 * Reads one layer: a regular file of at most MAX_LAYER_BYTES, else a read error that skips the layer. The
 * stat comes first because opening a FIFO blocks until a writer appears, and a link to /dev/zero reads
 * without end: either would hang the hook on every event.
 */
export function readLayer(path: string): LayerText {
  try {
    const info = Deno.statSync(path);
    if (info.isDirectory) return { path, readError: "it is a directory, not a file" };
    if (!info.isFile) {
      return {
        path,
        readError: "it is not a regular file (a FIFO, a device or a socket; fix: make it a plain JSON file)",
      };
    }
    if (info.size > MAX_LAYER_BYTES) {
      return {
        path,
        readError: `it is ${info.size} bytes, over the ${MAX_LAYER_BYTES} a config may hold (fix: trim it)`,
      };
    }
    return readCapped(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return { path };
    if (error instanceof Deno.errors.PermissionDenied) {
      return { path, readError: "permission denied (fix: make it readable by this user)" };
    }
    return { path, readError: messageOf(error) };
  }
}

function readCapped(path: string): LayerText {
  const text = readTextCapped(path, MAX_LAYER_BYTES);
  return text === undefined
    ? { path, readError: `it holds more than the ${MAX_LAYER_BYTES} bytes a config may (fix: trim it)` }
    : { path, text };
}

/** Names as a folder listing is compared with a path's (ASCII: `.claude`, `hooks`, the layer files). */
const entryKey = (name: string) => name.toLowerCase();

/**
 * Reads the layers. The lookup's files are usually partly missing (few projects have both), and a failed
 * open costs the hook's start-up 0.3–1.4 ms (Deno builds the error with its stack, measured), so a lookup
 * file is opened only when its folder lists it, and the folder is listed only when its own parent lists it.
 * A name matching in another case only costs the open; what cannot be listed is left to the open to judge.
 * An explicit file is opened directly: it is expected to exist.
 */
export function readLayers(location: ConfigLocation, open = readLayer): LayerText[] {
  if (location.explicit) return location.paths.map(open);
  const listings = new Map<string, Set<string> | undefined>();
  const lists = (dir: string, name: string): boolean => {
    if (!listings.has(dir)) {
      try {
        listings.set(dir, new Set(Array.from(Deno.readDirSync(dir), (entry) => entryKey(entry.name))));
      } catch (error) {
        // A missing folder holds nothing; one that cannot be listed is left to the open.
        listings.set(dir, error instanceof Deno.errors.NotFound ? new Set() : undefined);
      }
    }
    return listings.get(dir)?.has(entryKey(name)) ?? true;
  };
  return location.paths.map((path) => {
    const dir = dirName(path);
    const parent = dirName(dir);
    const missing = (parent !== dir && !lists(parent, baseName(dir))) || !lists(dir, baseName(path));
    const layer = missing ? { path } : open(path);
    return location.fromProject?.includes(path) ? { ...layer, project: true } : layer;
  });
}
