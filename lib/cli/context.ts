/**
 * What a command takes from the process it runs in, given to it as an argument: a test runs any command as a
 * function, with a temp HOME in `env` and its output captured, and neither the real environment nor the real
 * home is touched. processContext() below is the one place under lib/ that reads the process's globals.
 */
import { type Env, type OS, stateDir } from "../paths.ts";
import type { NetworkPolicy } from "../project/net_policy.ts";
import { print, printError } from "./io.ts";

export interface CommandContext {
  env: Env;
  os: OS;
  /** The directory the command was started in: relative paths and the default project are taken from it. */
  cwd: string;
  /** Milliseconds since the epoch, as Date.now. */
  now: () => number;
  /** Milliseconds since the process started: the latency the hook records of itself. */
  elapsed: () => number;
  /** The program running this one: deno, or the compiled docsearch-hook. */
  execPath: string;
  /** This process's id: what sets its temp files apart from another process's doing the same. */
  pid: number;
  /** Where the state and the indexes live (DOCSEARCH_HOME, else under HOME); undefined when neither is set. */
  stateDir: string | undefined;
  /** The command's input (the hook's event, the MCP server's messages). */
  stdin: Pick<typeof Deno.stdin, "read" | "isTerminal" | "readable">;
  /** One message for the user, written whole; the line end is added. */
  stdout: (text: string) => void;
  /** One message on the error stream, written whole; the line end is added. */
  stderr: (text: string) => void;
  /** Which addresses fetching a dependency's published docs may ask (lib/project/net_policy.ts). */
  network: NetworkPolicy;
}

/** The process's directory; a directory deleted under it still has the name the shell gave it. */
function currentDir(env: Env): string {
  try {
    return Deno.cwd();
  } catch {
    return env("PWD") ?? ".";
  }
}

/** This process's own. */
export function processContext(): CommandContext {
  const env: Env = (name) => Deno.env.get(name);
  const os = Deno.build.os;
  return {
    env,
    os,
    cwd: currentDir(env),
    now: Date.now,
    elapsed: () => performance.now(),
    execPath: Deno.execPath(),
    pid: Deno.pid,
    stateDir: stateDir(env, os),
    stdin: Deno.stdin,
    stdout: print,
    stderr: printError,
    // net_policy.ts's PRODUCT_POLICY, written here so that the hook does not load that module; fetch goes
    // through the proxy HTTPS_PROXY names, which resolves the names itself.
    network: {
      http: false,
      privateHosts: false,
      proxied: (env("HTTPS_PROXY") ?? env("https_proxy") ?? "") !== "",
    },
  };
}
