/**
 * The docs of a project's dependencies kept up to date while an agent session runs there, with nothing typed.
 * The MCP server runs this after it connects: the agent starts the server per session, in the project's
 * folder, and it lives as long as the session, where a hook event lasts milliseconds and must not wait.
 *
 * Every few seconds it stats what an install changes (install_state.ts). When the installed dependencies are
 * not what their docs were last built from (the lockfiles' stamp, stamp.ts), it waits for the install to be
 * done, takes the machine's build lock (build_lock.ts), and builds the indexes that are missing in a worker
 * thread (upkeep_worker.ts), so that the server answers `search` throughout; an index built before, for any
 * project, at that package@version costs nothing. The worker then fetches the published docs of thin packages
 * under the fetch lock, the build lock let go. Each package is listed in the project's local config layer
 * within a second of its index being ready, so the hook sends web searches to it from then on. Progress goes
 * to a record that `status`, `doctor` and `list_indexes` show (upkeep_progress.ts). `dependency_docs.auto:
 * false` turns it off; `index add --project` does the same by hand.
 */
import type { CommandContext } from "../cli/context.ts";
import { count } from "../cli/io.ts";
import { configLocation } from "../config/layers.ts";
import { loadConfig } from "../config/load.ts";
import { type PackageEntry, withPackageEntries } from "../docs/config_entry.ts";
import type { IndexHome } from "../docs/indexes.ts";
import { messageOf } from "../errors.ts";
import { pruneBackups } from "../files.ts";
import { applySettings, planSettings } from "../install/json_file.ts";
import { programWorker } from "../program.ts";
import { type Lock, lockWhenFree, nobodyAtWork } from "./build_lock.ts";
import { indexedBefore, localConfigPath, packageEntry, PREFIXES } from "./index_project.ts";
import { describePublished, fetchDue, publishedState } from "./published_docs.ts";
import { DEFAULT_DEPENDENCY_DOCS, type DependencyDocsConfig } from "../config/types.ts";
import {
  type Clock,
  type InstallState,
  installState,
  settled,
  type SettleTiming,
  unchangedSince,
} from "./install_state.ts";
import type { InstalledPackage } from "./npm.ts";
import { indexedFrom, recordLockfiles } from "./stamp.ts";
import {
  duration,
  HEARTBEAT_MS,
  readProgress,
  STALE_MS,
  type UpkeepProgress,
  upkeepProject,
  writeProgress,
} from "./upkeep_progress.ts";
import type { BuildReply, BuildRequest } from "./upkeep_worker.ts";

export interface UpkeepTiming {
  /** From connect to the first look: the agent's first requests come first. */
  startMs: number;
  /** How often the project is looked at for an install. */
  pollMs: number;
  settle: SettleTiming;
  /** How often a build waiting for another one tries the lock again. */
  lockPollMs: number;
  /**
   * How often, with nothing installed meanwhile, the project's thin packages are looked at for published docs
   * to fetch: a failure's retry once due (published_docs.ts's RETRY_MS), or fetching turned on since.
   */
  fetchCheckMs: number;
}

export const UPKEEP_TIMING: UpkeepTiming = {
  startMs: 500,
  pollMs: 2000,
  settle: { quietMs: 3000, pollMs: 500, maxMs: 10 * 60_000 },
  lockPollMs: 1000,
  fetchCheckMs: 5 * 60_000,
};

export interface Upkeep {
  /** Calls it off and waits for it to end; a package being built then is built again next time. */
  stop(): Promise<void>;
}

/** Thrown into a round when the upkeep is called off. */
class Stopped extends Error {}

/** A wait that ends early, with false, when `signal` calls it off. */
function sleep(ms: number, signal: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve(false);
    const abort = () => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", abort);
      resolve(true);
    }, ms);
    signal.addEventListener("abort", abort, { once: true });
  });
}

/** Builds the packages' indexes in a worker thread; `onReply` hears of each step as it is taken. */
function buildInWorker(
  request: BuildRequest,
  signal: AbortSignal,
  onReply: (reply: Exclude<BuildReply, { done: true }>) => void,
): Promise<void> {
  if (signal.aborted) return Promise.reject(new Stopped());
  return new Promise((resolve, reject) => {
    const worker = programWorker("lib/project/upkeep_worker");
    const end = (error?: unknown) => {
      worker.terminate();
      signal.removeEventListener("abort", abort);
      if (error === undefined) resolve();
      else reject(error);
    };
    const abort = () => end(new Stopped());
    signal.addEventListener("abort", abort, { once: true });
    worker.onmessage = ({ data }: MessageEvent<BuildReply>) => {
      if ("done" in data) return end();
      try {
        onReply(data);
      } catch (error) {
        end(error);
      }
    };
    worker.onerror = (event) => {
      // Handled here: left alone, a worker's uncaught error would end the server too.
      event.preventDefault();
      end(new Error(`the build stopped: ${event.message}`));
    };
    worker.onmessageerror = () => end(new Error("a build's answer could not be read"));
    worker.postMessage(request);
  });
}

/**
 * The local config layer is rewritten at most this often during a build: the hook's next event after a change
 * validates the config again (about 20 ms more for that event, measured), where a build lists a package every
 * 0.1 s on average.
 */
const CONFIG_EVERY_MS = 1000;

/** The state of a project whose manifests went away mid-wait: nothing installed. */
const NOTHING: InstallState = {
  dependencies: { packages: [], missing: [], lockfiles: [] },
  key: "",
  newest: 0,
  watched: [],
  stats: "",
};

/**
 * Starts looking after the dependency docs of the context's project; `log` hears of each package built and of
 * what went wrong (the MCP server's stderr, which the agent keeps in its logs).
 */
export function startUpkeep(
  context: CommandContext,
  log: (line: string) => void,
  timing: UpkeepTiming = UPKEEP_TIMING,
): Upkeep {
  const project = upkeepProject(context);
  const { stateDir } = context;
  if (stateDir === undefined || project === undefined) return { stop: () => Promise.resolve() };
  return keepUp(context, project, stateDir, log, timing);
}

function keepUp(
  context: CommandContext,
  project: string,
  stateDir: string,
  log: (line: string) => void,
  timing: UpkeepTiming,
): Upkeep {
  const { env, os, now } = context;
  const home: IndexHome = { os, stateDir };
  const controller = new AbortController();
  const { signal } = controller;
  const clock: Clock = { now, sleep: (ms) => sleep(ms, signal) };
  const look = () => installState(project, env, os);

  /** The state last looked at: while its stats hold, nothing is read again. */
  let known: InstallState | undefined;
  /** The state the last round was for: not tried again until something changes. */
  let tried: string | undefined;
  /** The last failure to read the project, said once. */
  let unreadable: string | undefined;

  const needed = (state: InstallState) =>
    state.key !== tried &&
    !indexedFrom(os, stateDir, project, state.dependencies.lockfiles);

  async function switches(): Promise<DependencyDocsConfig> {
    try {
      const location = configLocation(undefined, env, os, project);
      return (await loadConfig(location, stateDir, os, now())).dependencyDocs;
    } catch {
      // The config's problems are doctor's to tell; the defaults hold meanwhile.
      return DEFAULT_DEPENDENCY_DOCS;
    }
  }

  /** When the thin packages were last looked at for published docs to fetch. */
  let fetchChecked = now();

  /** Whether the package's index is there, thin, and due a fetch of its published docs (published_docs.ts). */
  function fetchWanted(pkg: InstalledPackage): boolean {
    try {
      const words = indexedBefore(home, pkg)?.words;
      return words !== undefined && fetchDue(words, publishedState(home, pkg), now());
    } catch {
      return false;
    }
  }

  /**
   * Of `packages`, those `wanted`, with a turn for the server's requests between packages: each look opens an
   * index or two. Stops at the first when `first`.
   */
  async function wanted(
    packages: readonly InstalledPackage[],
    want: (pkg: InstalledPackage) => boolean,
    first = false,
  ): Promise<InstalledPackage[]> {
    const found: InstalledPackage[] = [];
    for (const pkg of packages) {
      if (want(pkg)) {
        found.push(pkg);
        if (first) break;
      }
      if (!await clock.sleep(0)) throw new Stopped();
    }
    return found;
  }

  async function poll(): Promise<void> {
    if (known !== undefined && unchangedSince(known)) {
      if (now() - fetchChecked < timing.fetchCheckMs) return;
      fetchChecked = now();
      const docs = await switches();
      if (
        docs.auto && docs.fetch && (await wanted(known.dependencies.packages, fetchWanted, true)).length > 0
      ) {
        await round(known, true);
      }
      return;
    }
    let state: InstallState | undefined;
    try {
      state = look();
      unreadable = undefined;
    } catch (error) {
      if (messageOf(error) !== unreadable) {
        log(`dependency docs of ${project} not built: ${messageOf(error)}`);
      }
      unreadable = messageOf(error);
      return;
    }
    known = state;
    if (state === undefined || !needed(state)) return;
    if (!(await switches()).auto) {
      tried = state.key;
      return;
    }
    await round(state);
  }

  /**
   * The project's local config layer, listing the packages ready so far: written at once, then at most every
   * CONFIG_EVERY_MS (the entries ready meanwhile together), and backed up at the round's first change.
   */
  function configWriter() {
    const path = localConfigPath(os, project);
    let changed = false;
    let failed: string | undefined;
    let written = -Infinity;
    let pending: PackageEntry[] | undefined;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const flush = () => {
      clearTimeout(timer);
      timer = undefined;
      const entries = pending;
      pending = undefined;
      if (entries === undefined || failed !== undefined) return;
      written = now();
      try {
        const plan = planSettings(path, (config) => {
          const result = withPackageEntries(config, entries, PREFIXES);
          return { settings: result.config, changed: result.change !== "unchanged" };
        });
        if (!plan.merge.changed) return;
        // The round's first write keeps the user's file; the later ones change only what that one wrote.
        if (applySettings(changed ? { ...plan, chained: true } : plan, context) !== undefined) {
          pruneBackups(path, context.os);
        }
        changed = true;
      } catch (error) {
        failed = `${path} was not updated: ${messageOf(error)}`;
      }
    };
    return {
      write(entries: Map<string, PackageEntry>): void {
        pending = [...entries.values()].sort((a, b) => a.name < b.name ? -1 : 1);
        const wait = written + CONFIG_EVERY_MS - now();
        if (wait <= 0) flush();
        else timer ??= setTimeout(flush, wait);
      },
      /** Writes what is pending; what it could not write, if anything. */
      end(): string | undefined {
        flush();
        return failed;
      },
    };
  }

  /** `again`: the install is as the last round saw it; only published docs due a fetch are wanted. */
  async function round(first: InstallState, again = false): Promise<void> {
    // Whatever becomes of it, this state is not tried again: only a change is.
    tried = first.key;
    const started = now();
    const record: UpkeepProgress = {
      project,
      phase: "waiting",
      waitingFor: "install",
      total: first.dependencies.packages.length,
      ready: 0,
      built: 0,
      missing: first.dependencies.missing.length,
      started,
      updated: started,
    };
    let working = false;
    const save = (fields: Partial<UpkeepProgress> = {}) => {
      Object.assign(record, fields, { updated: now() });
      if (record.built > 0 || record.fetching !== undefined) working = true;
      // Until this round builds or fetches something itself, another session's build of this project is the
      // news, not this one's wait for the install, the build lock or that session's fetch, nor its finding that
      // the other built it all; unless, as this round ends (holding no lock), nobody builds or fetches: that
      // session was killed, and its record would stay "building", then "interrupted", until the next install.
      const current = working ? undefined : readProgress(os, stateDir, project);
      const ending = record.phase === "done" || record.phase === "failed";
      if (
        current?.phase === "building" && current.started !== started && now() - current.updated < STALE_MS &&
        !(ending && nobodyAtWork(home))
      ) {
        return;
      }
      writeProgress(os, stateDir, record);
    };
    const heartbeat = setInterval(() => {
      try {
        save();
      } catch {
        // A record not rewritten now is rewritten at the next step.
      }
    }, HEARTBEAT_MS);
    try {
      for (;;) {
        save({ waitingFor: "install" });
        const wait = await settled(() => look() ?? NOTHING, timing.settle, clock);
        if ("cancelled" in wait) throw new Stopped();
        if ("changing" in wait) {
          tried = wait.changing.key;
          throw new Error(
            `the install was still changing the project's packages after ${
              duration(timing.settle.maxMs)
            }; the docs are built once it stops`,
          );
        }
        const lock = await lockWhenFree(
          home,
          "build",
          () => clock.sleep(timing.lockPollMs),
          () => save({ waitingFor: "build" }),
        );
        if (lock === undefined) throw new Stopped();
        try {
          // Another look under the lock: an install that came while it waited is waited for in turn.
          const state = look() ?? NOTHING;
          if (state.key === wait.settled.key) return await build(state, record, save, again, lock);
        } finally {
          lock.release();
        }
      }
    } catch (error) {
      const stopped = error instanceof Stopped;
      save({
        phase: "failed",
        error: stopped
          ? "the session ended before the docs were built (the next session in this project builds them)"
          : messageOf(error),
        finished: now(),
      });
      if (!stopped) log(`dependency docs of ${project}: ${messageOf(error)}`);
    } finally {
      clearInterval(heartbeat);
      // Looked at afresh next time: what the round saw is not what the next poll compares with.
      known = undefined;
    }
  }

  /** Under the build `lock`, let go once every package is built: fetching published docs waits on the network. */
  async function build(
    state: InstallState,
    record: UpkeepProgress,
    save: (fields?: Partial<UpkeepProgress>) => void,
    again: boolean,
    lock: Lock,
  ): Promise<void> {
    const { packages, missing } = state.dependencies;
    tried = state.key;
    fetchChecked = now();
    save({ phase: "building", waitingFor: undefined, total: packages.length, missing: missing.length });
    const docs = await switches();
    const entries = new Map<string, PackageEntry>();
    const indexes = new Map<string, { name: string; words: number }>();
    const key = (pkg: InstalledPackage) => `${pkg.ecosystem}:${pkg.name}`;
    const list = (pkg: InstalledPackage, published = publishedState(home, pkg)) =>
      entries.set(key(pkg), packageEntry(home, pkg, indexes.get(key(pkg))!, packages, published));
    const ready = (pkg: InstalledPackage, index: { name: string; words: number }) => {
      indexes.set(key(pkg), index);
      list(pkg);
      record.ready++;
    };
    const todo: InstalledPackage[] = [];
    for (const pkg of packages) {
      let before: { name: string; words: number } | undefined;
      try {
        before = indexedBefore(home, pkg);
      } catch {
        // An index that cannot be read is built again.
      }
      if (before === undefined) todo.push(pkg);
      else ready(pkg, before);
      // A turn for the server's requests between packages: each look opens an index.
      if (!await clock.sleep(0)) throw new Stopped();
    }
    const config = configWriter();
    config.write(entries);
    save();
    const failures: string[] = [];
    // Those built now are looked at once built, in the worker; the others now, so that no worker is started
    // for nothing.
    const toFetch = docs.fetch ? await wanted(packages, (pkg) => todo.includes(pkg) || fetchWanted(pkg)) : [];
    const fetch = toFetch.length > 0
      ? { packages: toFetch, policy: context.network, lockPollMs: timing.lockPollMs }
      : undefined;
    try {
      if (todo.length > 0 || fetch !== undefined) {
        await buildInWorker({ home, packages: todo, fetch }, signal, (reply) => {
          if ("built" in reply) return lock.release();
          if ("waitingForFetch" in reply) return save({ waitingFor: "fetch" });
          const { pkg } = reply;
          if ("fetching" in reply) {
            record.fetching = `${pkg.name} ${pkg.version}`;
            record.waitingFor = undefined;
          } else if ("published" in reply) {
            record.fetching = undefined;
            const { published } = reply;
            // A package whose index could not be read has no entry to change.
            if (indexes.has(key(pkg))) {
              list(pkg, published);
              config.write(entries);
            }
            if ("published" in published) record.fetched = (record.fetched ?? 0) + 1;
            log(`dependency docs of ${project}: ${pkg.name} ${pkg.version}: ${describePublished(published)}`);
          } else if ("error" in reply) {
            failures.push(`${pkg.name} ${pkg.version}: ${reply.error}`);
            log(`dependency docs of ${project}: ${pkg.name} ${pkg.version} not indexed: ${reply.error}`);
          } else {
            ready(pkg, reply.index);
            if (!reply.index.reused) record.built++;
            config.write(entries);
            log(
              `dependency docs of ${project}: ${pkg.name} ${pkg.version} indexed (${
                count(reply.index.words, "word")
              }${reply.index.reused ? ", built before" : ""})`,
            );
          }
          save();
        });
      }
      // Each entry as its package's published docs now stand: another process's fetch may have ended since
      // the package was listed (this round then found nothing due, or waited for that fetch), and no reply of
      // this worker's names it.
      for (const pkg of packages) if (indexes.has(key(pkg))) list(pkg);
      config.write(entries);
    } finally {
      // Listed however the build ended: the indexes that are ready are searchable.
      const unwritten = config.end();
      if (unwritten !== undefined) failures.push(unwritten);
    }
    // The build is over; let go before the last save, which asks whether anyone else still works.
    lock.release();
    // The stamp says what the docs were built from: not recorded over an install that came meanwhile.
    if (failures.length === 0 && look()?.key === state.key) {
      recordLockfiles(os, stateDir, project, state.dependencies.lockfiles);
    }
    save({
      phase: failures.length > 0 ? "failed" : "done",
      waitingFor: undefined,
      ...failures.length > 0 ? { error: failures.join("; ") } : {},
      finished: now(),
    });
    if (record.built > 0 || failures.length > 0 || (again && record.fetched !== undefined)) {
      log(
        `dependency docs of ${project}: ${record.ready} of ${
          count(record.total, "package")
        } ready (${record.built} built) in ${duration(now() - record.started)}`,
      );
    }
  }

  const running = (async () => {
    if (!await clock.sleep(timing.startMs)) return;
    do {
      try {
        await poll();
      } catch (error) {
        // Called off while it looked: the session is ending, nothing to say.
        if (!(error instanceof Stopped)) log(`dependency docs of ${project}: ${messageOf(error)}`);
      }
    } while (await clock.sleep(timing.pollMs));
  })();

  return {
    async stop() {
      controller.abort();
      await running;
    },
  };
}
