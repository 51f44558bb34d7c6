/**
 * `docsearch-hook install --commands` / `uninstall --commands`: the /docsearch:disable, /docsearch:enable and
 * /docsearch:status slash commands, in the user's or the project's `.claude/commands/docsearch/`. Nothing is
 * written unless every file can be: a file of the same name that docsearch-hook did not write stops it.
 */
import { CommandFailedError, UsageError } from "../cli/errors.ts";
import { count, print } from "../cli/io.ts";
import { type CommandFile, MARKER, slashCommandFiles } from "../install/slash_commands.ts";
import { fileUrlPath, homeDir, join, processEnv } from "../paths.ts";

export interface InstallArgs {
  values: { commands?: boolean; scope?: string; "dry-run"?: boolean };
}

const SCOPES = ["user", "project"] as const;
type Scope = typeof SCOPES[number];

/** The command that runs this docsearch-hook: the compiled binary, or deno running this checkout. */
export function selfCommand(): string[] {
  const exec = Deno.execPath();
  const name = exec.slice(Math.max(exec.lastIndexOf("/"), exec.lastIndexOf("\\")) + 1);
  if (name !== "deno" && name !== "deno.exe") return [exec];
  // --quiet: Deno's own download notes would otherwise show up in the slash command's output.
  const file = (name: string) => fileUrlPath(new URL(`../../${name}`, import.meta.url), Deno.build.os);
  return [exec, "run", "-A", "--quiet", `--config=${file("deno.json")}`, file("main.ts")];
}

function commandsDir(scope: Scope): string {
  const os = Deno.build.os;
  if (scope === "project") {
    return join(os, processEnv("CLAUDE_PROJECT_DIR") || Deno.cwd(), ".claude", "commands");
  }
  const home = homeDir(processEnv, os);
  if (home === undefined) throw new CommandFailedError("HOME is not set", "set HOME, or use --scope project");
  return join(os, home, ".claude", "commands");
}

function readIfExists(path: string): string | undefined {
  try {
    return Deno.readTextFileSync(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return undefined;
    throw new CommandFailedError(`cannot read ${path}: ${(error as Error).message}`);
  }
}

function parseScope(value: string | undefined): Scope {
  const scope = value ?? "user";
  if (!SCOPES.includes(scope as Scope)) {
    throw new UsageError(`--scope must be user or project, not "${scope}"`);
  }
  return scope as Scope;
}

function requireCommandsFlag(values: InstallArgs["values"], verb: string): void {
  if (!values.commands) {
    throw new UsageError(
      `${verb} needs --commands: registering the hook in the agent's settings is not part of ${verb} yet ` +
        "(see the README for the settings entry to add by hand)",
    );
  }
}

interface Placed {
  path: string;
  text: string;
  /** What stands at `path` now. */
  existing?: string;
}

/** Each file at its place in `dir`, with what is there now (read once). */
function place(dir: string, files: readonly CommandFile[]): Placed[] {
  return files.map((file) => {
    const path = join(Deno.build.os, dir, file.path);
    return { path, text: file.text, existing: readIfExists(path) };
  });
}

const ours = (file: Placed) => file.existing?.includes(MARKER) ?? false;

/** Refuses before writing anything when a file in the way is not ours. */
function checkOurs(files: readonly Placed[]): void {
  const foreign = files.find((file) => file.existing !== undefined && !ours(file));
  if (foreign !== undefined) {
    throw new CommandFailedError(
      `${foreign.path} exists and was not written by docsearch-hook; nothing was changed`,
      "move that file away, or install into the other scope (--scope user|project)",
    );
  }
}

function writeAtomically(path: string, text: string): void {
  const temp = `${path}.tmp-${Deno.pid}`;
  Deno.writeTextFileSync(temp, text);
  Deno.renameSync(temp, path);
}

export function install({ values }: InstallArgs): number {
  requireCommandsFlag(values, "install");
  const dir = commandsDir(parseScope(values.scope));
  const target = join(Deno.build.os, dir, "docsearch");
  const files = place(dir, slashCommandFiles(selfCommand()));
  checkOurs(files);
  const changed = files.filter((file) => file.existing !== file.text);
  if (values["dry-run"]) {
    print(
      changed.length === 0
        ? `Nothing to do: the slash commands in ${target} are up to date.`
        : changed.map((file) => `Would write ${file.path}:\n${file.text}`).join("\n"),
    );
    return 0;
  }
  if (changed.length > 0) Deno.mkdirSync(target, { recursive: true });
  for (const file of changed) writeAtomically(file.path, file.text);
  print(
    changed.length === 0
      ? `The slash commands in ${target} are up to date.`
      : `Wrote ${count(changed.length, "slash command")} to ${target}: ` +
        "/docsearch:disable, /docsearch:enable, /docsearch:status (restart the agent to see them).",
  );
  return 0;
}

export function uninstall({ values }: InstallArgs): number {
  requireCommandsFlag(values, "uninstall");
  const dir = commandsDir(parseScope(values.scope));
  const removable = place(dir, slashCommandFiles(selfCommand())).filter(ours).map((file) => file.path);
  if (values["dry-run"]) {
    print(
      removable.length === 0 ? "Nothing to remove." : removable.map((p) => `Would remove ${p}`).join("\n"),
    );
    return 0;
  }
  for (const path of removable) Deno.removeSync(path);
  try {
    Deno.removeSync(join(Deno.build.os, dir, "docsearch"));
  } catch {
    // Not empty (the user keeps files of their own there) or already gone: either way it stays as it is.
  }
  print(
    removable.length === 0
      ? `No docsearch-hook slash commands in ${dir}.`
      : `Removed ${removable.join(", ")}.`,
  );
  return 0;
}
