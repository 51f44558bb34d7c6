/**
 * Interactive commands run in process: a temp machine (HOME, state, a project folder) and the context a
 * command gets there, with none of this process's environment, a fixed clock and its output kept.
 */
import type { CommandContext } from "../lib/cli/context.ts";
import { stateDir } from "../lib/paths.ts";
import { exists } from "./helpers.ts";

/** 2026-11-21 10:15:00 UTC: a backup made at this time is `….bak-20261121T101500Z`. */
export const NOW = Date.UTC(2026, 10, 21, 10, 15, 0);

/** The process id a command is given: fixed, so that a temp file it names after its process is known. */
export const PID = 4242;

export interface CapturedContext extends CommandContext {
  /** What the command printed, a message per entry. */
  out: string[];
  /** What it printed on the error stream, a message per entry. */
  err: string[];
}

/** A standard input that holds `text` and then ends, as a pipe would. */
export function stdinOf(text = ""): CommandContext["stdin"] {
  const bytes = new TextEncoder().encode(text);
  let at = 0;
  return {
    read: (buffer: Uint8Array) => {
      if (at >= bytes.length) return Promise.resolve(null);
      const n = Math.min(buffer.length, bytes.length - at);
      buffer.set(bytes.subarray(at, at + n));
      at += n;
      return Promise.resolve(n);
    },
    isTerminal: () => false,
    get readable() {
      return ReadableStream.from([bytes.subarray(at)]);
    },
  };
}

export interface Machine extends AsyncDisposable {
  home: string;
  state: string;
  /** The directory the command runs in. */
  project: string;
  /**
   * HOME and DOCSEARCH_HOME set, then `vars` (undefined unsets); the only variables the command sees. `stdin`
   * is what the command reads.
   */
  context(vars?: Record<string, string | undefined>, stdin?: string): CapturedContext;
}

export async function machine(): Promise<Machine> {
  // The real path: it is what the commands print and register.
  const home = await Deno.realPath(await Deno.makeTempDir({ prefix: "docsearch-inprocess-" }));
  const state = `${home}/state`;
  const project = `${home}/project`;
  await Deno.mkdir(project);
  return {
    home,
    state,
    project,
    context(vars = {}, stdin = "") {
      const values = new Map(Object.entries({ HOME: home, DOCSEARCH_HOME: state, ...vars }));
      const env = (name: string) => values.get(name);
      const out: string[] = [];
      const err: string[] = [];
      return {
        env,
        os: Deno.build.os,
        cwd: project,
        now: () => NOW,
        elapsed: () => 1,
        execPath: Deno.execPath(),
        pid: PID,
        stateDir: stateDir(env, Deno.build.os),
        stdin: stdinOf(stdin),
        stdout: (text) => out.push(text),
        stderr: (text) => err.push(text),
        // Real packages name real hosts: a test that fetches serves them on 127.0.0.1 and says so.
        network: { http: false, privateHosts: false, offline: true },
        out,
        err,
      };
    },
    async [Symbol.asyncDispose]() {
      await Deno.remove(home, { recursive: true });
    },
  };
}

/** Every file under `root`, relative, sorted: to show that a command wrote nothing. */
export async function tree(root: string, prefix = ""): Promise<string[]> {
  if (!(await exists(root))) return [];
  const out: string[] = [];
  for await (const entry of Deno.readDir(root)) {
    const rel = `${prefix}${entry.name}`;
    if (entry.isDirectory) out.push(`${rel}/`, ...await tree(`${root}/${entry.name}`, `${rel}/`));
    else out.push(rel);
  }
  return out.sort();
}
