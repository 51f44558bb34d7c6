/**
 * Doctor's self-test: the hook's own code run on a synthetic WebSearch, in the context's environment but with a
 * throwaway state, so the user's sessions are untouched.
 */
import { messageOf } from "../errors.ts";
import type { CommandContext } from "../cli/context.ts";
import type { Config, Database } from "../config/types.ts";
import { builtInIndex, indexesUnder, indexFileIn, reachableDatabases } from "../docs/built_in.ts";
import { hookDeps, hookOutput } from "../hook/hook.ts";
import type { Env, OS } from "../paths.ts";
import type { Check } from "./checks.ts";
import { readIndex } from "./facts.ts";

const ms = (value: number) => `${value.toFixed(1)} ms`;

/** Whether an index file holds passages to search (databaseChecks says why one does not). */
function searchable(file: string): boolean {
  try {
    return readIndex(file).passages > 0;
  } catch {
    return false;
  }
}

/**
 * The search the self-test makes for `database`: its first keyword, with a built-in index's first page title
 * (so that the index answers it: a search its passages do not answer is let through, by design); "<keyword>
 * documentation" for another tool's database, which the hook denies without reading it.
 */
function selfTestQuery(database: Database, os: OS, stateDir: string | undefined): string {
  const keyword = database.keywords[0];
  const index = builtInIndex(database);
  if (index === undefined || stateDir === undefined) return `${keyword} documentation`;
  const { title } = readIndex(indexFileIn(os, stateDir, index));
  return title === undefined ? `${keyword} documentation` : `${keyword} ${title}`;
}

/**
 * A WebSearch for the first enabled database through the hook's own code (selfTestQuery), with this config
 * and a throwaway state directory: it must be denied with guidance, and its identical retry let through. A
 * database whose built-in index is missing, is not an index or holds no passages is passed over, as the hook
 * passes over one that is missing and lets through what one that answers nothing matches.
 */
export async function selfTest(
  configFlag: string | undefined,
  config: Config,
  ctx: CommandContext,
): Promise<Check> {
  const name = "self-test";
  let temp: string;
  try {
    temp = Deno.makeTempDirSync({ prefix: "docsearch-doctor-" });
  } catch (error) {
    return {
      status: "fail",
      name,
      message: `cannot create a temporary folder for the self-test: ${messageOf(error)}`,
      fix: "set TMPDIR to a writable folder",
    };
  }
  try {
    // The kill switch is reported on its own; the self-test is about the code path behind it.
    const env: Env = (key) =>
      key === "DOCSEARCH_HOME" ? temp : key === "DOCSEARCH_HOOK_DISABLED" ? undefined : ctx.env(key);
    // Indexes are looked for where this environment keeps them, not in the self-test's throwaway state; read
    // only to count their passages, so a file that is not an index is neither searched nor written to.
    const present = indexesUnder(ctx.os, ctx.stateDir);
    const indexExists = (name: string) =>
      present(name) && searchable(indexFileIn(ctx.os, ctx.stateDir!, name));
    const database = reachableDatabases(config.databases, indexExists).find((candidate) => candidate.enabled);
    const query = database
      ? selfTestQuery(database, ctx.os, ctx.stateDir)
      : "docsearch-hook doctor self-test";
    // The retry is a new call, with its own tool_use_id: the same id again would be the same call seen twice.
    const event = (toolUseId: string) =>
      JSON.stringify({
        session_id: `docsearch-doctor-${ctx.pid}`,
        cwd: ctx.cwd,
        hook_event_name: "PreToolUse",
        tool_name: "WebSearch",
        tool_input: { query },
        tool_use_id: toolUseId,
      });
    const deps = { ...hookDeps(ctx), env, indexExists };
    const run = async (toolUseId: string) => {
      const start = ctx.elapsed();
      const output = await hookOutput({ ok: true, text: event(toolUseId) }, configFlag, deps);
      return { output, took: ctx.elapsed() - start };
    };
    const first = await run("docsearch-doctor");
    const retry = await run("docsearch-doctor-retry");
    const noted = first.output.stderr ? ` (the hook noted: ${first.output.stderr})` : "";
    const times = `${ms(first.took)} in process, its retry ${ms(retry.took)}`;
    if (database === undefined) {
      const passed = first.output.stdout === undefined;
      return {
        status: passed ? "ok" : "fail",
        name,
        message: `a WebSearch passed, as it should with no enabled database${
          config.databases.some((candidate) => candidate.enabled) ? " whose index exists" : ""
        } (${times})${noted}`,
        ...(passed ? {} : { fix: "report this as a bug" }),
      };
    }
    const denied = first.output.stdout?.includes('"permissionDecision":"deny"') &&
      first.output.stdout.includes(database.mcpToolName);
    if (!denied) {
      return {
        status: "fail",
        name,
        message: `a WebSearch for "${query}" was not denied${noted}`,
        fix: "run docsearch-hook check " + JSON.stringify(query) + " to see why",
      };
    }
    if (retry.output.stdout !== undefined) {
      return {
        status: "fail",
        name,
        message: `the identical retry of "${query}" was denied again: the escape hatch does not work${noted}`,
        fix: "see the state line above",
      };
    }
    return {
      status: noted ? "warn" : "ok",
      name,
      message: `a WebSearch for "${query}" was denied with guidance to ${database.mcpToolName}, ` +
        `its identical retry let through (${times})${noted}`,
      ...(noted ? { fix: "see the note: the hook works, but not everything it needs is there" } : {}),
    };
  } finally {
    Deno.removeSync(temp, { recursive: true });
  }
}
