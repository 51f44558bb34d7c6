/**
 * When a project's install is done, as far as a build of its dependency docs can tell without being told: what
 * the install changes (the lockfile, each installed package's folder and the folder it sits in: node_modules,
 * site-packages) seen unchanged for a few seconds. A build that read an install still running would index
 * half a package, and keep it: an index is built once per package@version.
 */
import type { Env, OS } from "../paths.ts";
import { dirName } from "../paths.ts";
import { installedDependencies } from "./index_project.ts";
import type { ProjectDependencies } from "./npm.ts";

export interface InstallState {
  dependencies: ProjectDependencies;
  /** Changes whenever anything looked at does: a version, a package's folder, the lockfile, what is missing. */
  key: string;
  /** The newest modification time among the files and folders looked at. */
  newest: number;
  /** The files and folders whose change means another look, and their stats then. */
  watched: string[];
  stats: string;
}

function stat(path: string): [string, number, number] {
  try {
    const info = Deno.statSync(path);
    return [path, info.size, info.mtime?.getTime() ?? 0];
  } catch {
    return [path, -1, 0];
  }
}

/** The project's installed dependencies now, and the stats that tell an install at work; undefined without a manifest. */
export function installState(project: string, env: Env, os: OS): InstallState | undefined {
  const { dependencies } = installedDependencies(project, env, os);
  if (dependencies === undefined) return undefined;
  const dirs = dependencies.packages.map((pkg) => pkg.dir);
  const paths = [
    ...new Set([...dependencies.lockfiles, ...dirs.map(dirName), ...dirs]),
  ];
  const stats = paths.map(stat);
  // The project's own folder changes when an install creates node_modules, .venv or the lockfile; and when any
  // file at its top is saved, so it only says when to look again, and is not part of the state.
  const watched = [project, ...paths];
  return {
    dependencies,
    key: JSON.stringify([
      dependencies.packages.map((pkg) => `${pkg.ecosystem}:${pkg.name}@${pkg.version} ${pkg.dir}`),
      dependencies.missing,
      stats,
    ]),
    newest: Math.max(0, ...stats.map(([, , mtime]) => mtime)),
    watched,
    stats: JSON.stringify(watched.map(stat)),
  };
}

/**
 * Whether nothing an install touches changed since `state` was looked at: a few stats, where reading the
 * manifests again costs 30 ms for a hundred Python distributions. An install adds, replaces or removes a
 * package's folder, which changes the folder it sits in.
 */
export const unchangedSince = (state: InstallState): boolean =>
  JSON.stringify(state.watched.map(stat)) === state.stats;

export interface SettleTiming {
  /** How long nothing may change before the install counts as done. */
  quietMs: number;
  /** How often the state is looked at meanwhile. */
  pollMs: number;
  /** The longest wait: an install still changing after this is not waited for any longer, this time. */
  maxMs: number;
}

/** The time, and a wait that ends early (false) when the waiting is called off. */
export interface Clock {
  now(): number;
  sleep(ms: number): Promise<boolean>;
}

export type Settled<T> = { settled: T } | { changing: T } | { cancelled: true };

/**
 * Waits for the install to be done: the same state seen for `quietMs`, or at once a state whose newest change
 * is `quietMs` old (the usual case: a session starting long after the last install). `changing` when it was
 * still changing after `maxMs`.
 */
export async function settled<T extends { key: string; newest: number }>(
  look: () => T,
  timing: SettleTiming,
  clock: Clock,
): Promise<Settled<T>> {
  const start = clock.now();
  let state = look();
  let since = start;
  for (;;) {
    const now = clock.now();
    // A modification time ahead of the clock (a file touched into the future) counts as recent.
    if (now - state.newest >= timing.quietMs || now - since >= timing.quietMs) return { settled: state };
    if (now - start >= timing.maxMs) return { changing: state };
    if (!await clock.sleep(timing.pollMs)) return { cancelled: true };
    const next = look();
    if (next.key !== state.key) since = clock.now();
    state = next;
  }
}
