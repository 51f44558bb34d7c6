/**
 * Interactive commands run in process: a temp machine (HOME, state, a project folder) and the context a
 * command gets there, with none of this process's environment, a fixed clock and its output kept.
 */
import type { CommandContext } from "../lib/cli/context.ts";
import { exists } from "./helpers.ts";

/** 2026-11-21 10:15:00 UTC: a backup made at this time is `….bak-20261121T101500Z`. */
export const NOW = Date.UTC(2026, 10, 21, 10, 15, 0);

export interface CapturedContext extends CommandContext {
  /** What the command printed, a message per entry. */
  out: string[];
}

export interface Machine extends AsyncDisposable {
  home: string;
  state: string;
  /** The directory the command runs in. */
  project: string;
  /** HOME and DOCSEARCH_HOME set, then `vars` (undefined unsets); the only variables the command sees. */
  context(vars?: Record<string, string | undefined>): CapturedContext;
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
    context(vars = {}) {
      const env = new Map(Object.entries({ HOME: home, DOCSEARCH_HOME: state, ...vars }));
      const out: string[] = [];
      return {
        env: (name) => env.get(name),
        os: Deno.build.os,
        cwd: project,
        now: () => NOW,
        execPath: Deno.execPath(),
        stdout: (text) => out.push(text),
        out,
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
