/**
 * What an interactive command takes from the process it runs in, given to it as the hook is given its
 * HookDeps: a test runs the command as a function, with a temp HOME in `env` and its output captured, and
 * neither the real environment nor the real home is touched.
 */
import { type Env, type OS, processEnv } from "../paths.ts";
import { print } from "./io.ts";

export interface CommandContext {
  env: Env;
  os: OS;
  /** The directory the command was started in: relative paths and the default project are taken from it. */
  cwd: string;
  /** Milliseconds since the epoch, as Date.now. */
  now: () => number;
  /** The program running this one: deno, or the compiled docsearch-hook. */
  execPath: string;
  /** One message for the user, written whole; the line end is added. */
  stdout: (text: string) => void;
}

/** This process's own. */
export function processContext(): CommandContext {
  return {
    env: processEnv,
    os: Deno.build.os,
    cwd: Deno.cwd(),
    now: Date.now,
    execPath: Deno.execPath(),
    stdout: print,
  };
}
