/**
 * Config for the hook's hot path. Validating with zod costs ~10 ms of imports, so the validated result is
 * cached in the state directory with a stamp of every layer it came from (its length and a hash of its
 * text): an edited, added or removed file misses the cache and is validated again. The stamp, not the text,
 * because every event in every project reads the one cache file: a project's big layer kept there slowed
 * them all.
 */
import { hash53 } from "../hash.ts";
import { join, type OS } from "../paths.ts";
import { programModule } from "../program.ts";
import { ensurePrivateDir } from "../state/dir.ts";
import { VERSION } from "../version.ts";
import { type ConfigLocation, type LayerText, readLayers } from "./layers.ts";
import type { Config } from "./types.ts";

const CACHE_FILE = "config-cache.json";
/**
 * What a cache entry promises beyond the program's version: bumped whenever validation comes to guarantee
 * more, so that an entry a build without that guarantee wrote is a miss. 2: no user redaction pattern can
 * backtrack for minutes (the hook compiles the cached patterns unchecked). 3: a layer adds at most
 * MAX_REDACT_PATTERNS patterns (resolve.ts); entries hold layer stamps.
 */
const CACHE_VERSION = `${VERSION}/3`;
/** One entry per distinct set of layers (e.g. per project); the oldest go first. */
const MAX_CACHE_ENTRIES = 16;

interface CacheFile {
  version: string;
  /** Keyed by the layer paths; `layers` stamps what they contained when `config` was made from them. */
  entries: Record<string, { layers: LayerStamp[]; config: Config; storedAt: number }>;
}

/** A layer as the cache remembers it: its text by length and hash, not the text itself. */
interface LayerStamp {
  path: string;
  /** `<length>:<hash53>` of the text; absent when there was none. */
  text?: string;
  readError?: string;
  project?: boolean;
}

/**
 * A layer's stamp. A 53-bit hash can collide, but a colliding edit would only be served the config validated
 * from the earlier text of the same file, never an unvalidated one. Hashing a 2 KB layer costs about 0.2 ms.
 */
const stampOf = (layer: LayerText): LayerStamp => ({
  ...layer,
  text: layer.text === undefined ? undefined : `${layer.text.length}:${hash53(layer.text)}`,
});

const isStringList = (value: unknown) => Array.isArray(value) && value.every((v) => typeof v === "string");

/**
 * A cheap structural check of a cached entry, so that a cache written by a build with another Config shape
 * (same version number during development, a hand edit, a torn disk) is a miss and not a crash on every event.
 */
function isCachedConfig(value: unknown): value is Config {
  const config = value as Config | undefined;
  const capture = config?.capture;
  const context = config?.context;
  return typeof config?.escapeHatchTtlSeconds === "number" && typeof config.answerMaxChars === "number" &&
    isStringList(config.problems) &&
    isStringList(config.fetchTools) &&
    typeof context?.enabled === "boolean" && typeof context.maxChars === "number" &&
    typeof config.dependencyDocs?.auto === "boolean" && typeof config.dependencyDocs.fetch === "boolean" &&
    typeof context.sessionStart === "boolean" && typeof context.userPrompt === "boolean" &&
    typeof capture?.enabled === "boolean" && typeof capture.retentionDays === "number" &&
    isStringList(capture.skipTools) && isStringList(capture.excludeFiles) &&
    Array.isArray(capture.redactPatterns) &&
    capture.redactPatterns.every((r) => typeof r?.pattern === "string" && typeof r.category === "string") &&
    Array.isArray(config.databases) &&
    config.databases.every((d) =>
      typeof d?.name === "string" && typeof d.mcpToolName === "string" && typeof d.description === "string" &&
      typeof d.enabled === "boolean" && isStringList(d.keywords) && isStringList(d.domains)
    );
}

function sameLayers(cached: LayerStamp[] | undefined, current: LayerStamp[]): boolean {
  return Array.isArray(cached) && cached.length === current.length &&
    cached.every((layer, i) =>
      layer?.path === current[i].path && layer.text === current[i].text &&
      layer.readError === current[i].readError && layer.project === current[i].project
    );
}

function readCache(path: string): CacheFile | undefined {
  try {
    const cache = JSON.parse(Deno.readTextFileSync(path)) as CacheFile;
    return cache?.version === CACHE_VERSION && typeof cache.entries === "object" ? cache : undefined;
  } catch {
    return undefined;
  }
}

function writeCache(dir: string, path: string, cache: CacheFile): void {
  const entries = Object.entries(cache.entries).sort(([, a], [, b]) => b.storedAt - a.storedAt);
  const kept: CacheFile = {
    version: CACHE_VERSION,
    entries: Object.fromEntries(entries.slice(0, MAX_CACHE_ENTRIES)),
  };
  // Rename is atomic, so a concurrent hook reads the old cache or the new one, never half of one. The name
  // is random: two hooks writing at once each rename their own file.
  const temp = `${path}.${crypto.randomUUID()}.tmp`;
  try {
    ensurePrivateDir(dir);
    Deno.writeTextFileSync(temp, JSON.stringify(kept), { mode: 0o600 });
    Deno.renameSync(temp, path);
  } catch {
    // Best effort: without a cache the next event validates again.
    try {
      Deno.removeSync(temp);
    } catch { /* never written */ }
  }
}

/** Loads the layered config; without a state directory it validates every time. */
export async function loadConfig(
  location: ConfigLocation,
  stateDir: string | undefined,
  os: OS,
  now: number,
): Promise<Config> {
  const layers = readLayers(location);
  const stamps = layers.map(stampOf);
  const key = JSON.stringify([location.explicit, location.paths]);
  const cacheFile = stateDir === undefined ? undefined : join(os, stateDir, CACHE_FILE);
  const cache = cacheFile ? readCache(cacheFile) : undefined;
  const entry = cache?.entries[key];
  if (entry && sameLayers(entry.layers, stamps) && isCachedConfig(entry.config)) return entry.config;

  // Imported only on a cache miss, by a computed specifier (see lib/program.ts): zod costs ~10 ms to load.
  const { resolveConfig }: typeof import("./resolve.ts") = await import(programModule("lib/config/resolve"));
  const config = resolveConfig(layers, location.explicit);
  if (stateDir !== undefined && cacheFile !== undefined) {
    writeCache(stateDir, cacheFile, {
      version: CACHE_VERSION,
      entries: { ...cache?.entries, [key]: { layers: stamps, config, storedAt: now } },
    });
  }
  return config;
}
