/**
 * How the background upkeep of a project's dependency docs is doing (upkeep.ts), as a small record in the state
 * directory beside the project's lockfile stamp: `status`, `doctor` and the MCP server's `list_indexes` read
 * it, from any process. The process at work rewrites it at every step and at least every HEARTBEAT_MS, so a
 * record left behind by a process that was killed is told apart by its age.
 */
import type { CommandContext } from "../cli/context.ts";
import { count } from "../cli/io.ts";
import { projectDirectory } from "../config/layers.ts";
import { hash53 } from "../hash.ts";
import { join, type OS } from "../paths.ts";
import { ensurePrivateDir } from "../state/dir.ts";

export type Phase = "waiting" | "building" | "done" | "failed";

export interface UpkeepProgress {
  project: string;
  phase: Phase;
  /**
   * While waiting: for the install to stop changing the project's files, or for another build to end; while
   * building, for another process's fetch of published docs to end before this one's starts.
   */
  waitingFor?: "install" | "build" | "fetch";
  /** The installed direct dependencies this round indexes; `ready` of them have their index. */
  total: number;
  ready: number;
  /** Of the ready ones, those built in this round (the others were built before, at that version). */
  built: number;
  /** Direct dependencies with no installed copy, so not indexed. */
  missing: number;
  started: number;
  finished?: number;
  /** When the process at work last wrote the record. */
  updated: number;
  /** What went wrong, by package where one did. */
  error?: string;
  /** The package whose published docs are being fetched now (published_docs.ts). */
  fetching?: string;
  /** Packages whose published docs this round fetched. */
  fetched?: number;
}

/** How often a process at work rewrites its record, at least. */
export const HEARTBEAT_MS = 10_000;
/** A waiting or building record not rewritten for this long was left by a process that ended mid-way. */
export const STALE_MS = 6 * HEARTBEAT_MS;

/** The project a session's upkeep looks after: the agent's project directory, else the server's folder. */
export const upkeepProject = ({ env, cwd }: Pick<CommandContext, "env" | "cwd">): string | undefined =>
  projectDirectory(env, cwd);

const progressFile = (os: OS, stateDir: string, project: string) =>
  join(os, stateDir, "projects", `${hash53(project)}.upkeep.json`);

/** Written whole (a temp file renamed over it): a reader never sees half a record. */
export function writeProgress(os: OS, stateDir: string, progress: UpkeepProgress): void {
  ensurePrivateDir(join(os, stateDir, "projects"));
  const file = progressFile(os, stateDir, progress.project);
  // Two servers of one project may write at once: each its own temp file.
  const temp = `${file}.${crypto.randomUUID()}.tmp`;
  Deno.writeTextFileSync(temp, JSON.stringify(progress), { mode: 0o600 });
  Deno.renameSync(temp, file);
}

const PHASES: readonly string[] = ["waiting", "building", "done", "failed"];

/** The project's record; undefined when there is none, or none that can be read as one. */
export function readProgress(os: OS, stateDir: string, project: string): UpkeepProgress | undefined {
  try {
    const record = JSON.parse(Deno.readTextFileSync(progressFile(os, stateDir, project)));
    const numbers = ["total", "ready", "built", "missing", "started", "updated"];
    return record?.project === project && PHASES.includes(record.phase) &&
        numbers.every((key) => typeof record[key] === "number")
      ? record
      : undefined;
  } catch {
    return undefined;
  }
}

/** "4.2 s", "12 min", "3 h": a build's time, to the second while it is short. */
export function duration(ms: number): string {
  const seconds = Math.max(0, ms) / 1000;
  if (seconds < 60) return `${seconds.toFixed(1)} s`;
  if (seconds < 3600) return `${Math.round(seconds / 60)} min`;
  return `${Math.round(seconds / 3600)} h`;
}

/** What the record says, in a line, and whether it is something to look into (a failure, an interrupted build). */
export function describeProgress(
  progress: UpkeepProgress,
  now: number,
): { ok: boolean; text: string } {
  const { total, ready, built } = progress;
  const counts = `${ready} of ${count(total, "package")} ready (${built} built now, ${ready - built} before)`;
  const missing = progress.missing > 0 ? `; ${progress.missing} not installed, so not indexed` : "";
  const atWork = progress.phase === "waiting" || progress.phase === "building";
  if (atWork && now - progress.updated > STALE_MS) {
    return {
      ok: false,
      text: `interrupted while ${progress.phase} (not heard of for ${
        duration(now - progress.updated)
      }: its session ended or was killed); ${counts}`,
    };
  }
  const running = duration(now - progress.started);
  switch (progress.phase) {
    case "waiting":
      return {
        ok: true,
        text: progress.waitingFor === "build"
          ? `waiting for another build of dependency docs to end (for ${running})`
          : `waiting for the install to finish, until the lockfile and the packages stop changing (for ${running})`,
      };
    case "building":
      return {
        ok: true,
        text: `building: ${counts}, for ${running}${missing}${
          progress.fetching !== undefined
            ? `; fetching the published docs of ${progress.fetching}`
            : progress.waitingFor === "fetch"
            ? "; waiting for another fetch of published docs to end"
            : ""
        }`,
      };
    case "done": {
      const finished = progress.finished ?? progress.updated;
      const fetched = progress.fetched
        ? `; the published docs of ${count(progress.fetched, "package")} fetched`
        : "";
      return {
        ok: true,
        text: `up to date: ${counts} in ${duration(finished - progress.started)}, ${
          duration(now - finished)
        } ago${missing}${fetched}`,
      };
    }
    case "failed":
      return { ok: false, text: `failed: ${progress.error ?? "no reason recorded"}; ${counts}${missing}` };
  }
}

/**
 * What `status` and `doctor` say of the project's dependency docs: the record's line, or that the config turns
 * the upkeep off; undefined when there is nothing to say (no record, upkeep on).
 */
export function describeUpkeep(
  auto: boolean,
  progress: UpkeepProgress | undefined,
  now: number,
): { ok: boolean; text: string } | undefined {
  if (!auto) {
    const last = progress === undefined ? "" : `; the last build: ${describeProgress(progress, now).text}`;
    return {
      ok: true,
      text: `not kept up to date in the background (dependency_docs.auto is false; ` +
        `docsearch-hook index add --project builds them by hand)${last}`,
    };
  }
  return progress && describeProgress(progress, now);
}
