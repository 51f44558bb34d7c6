/**
 * `docsearch-hook install --commands` / `uninstall --commands`: the /docsearch:disable, /docsearch:enable and
 * /docsearch:status slash commands, in the user's or the project's `.claude/commands/docsearch/`. Nothing is
 * written unless every file can be: a file of the same name that docsearch-hook did not write stops it.
 */
import { CommandFailedError, UsageError } from "../cli/errors.ts";
import { print } from "../cli/io.ts";
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

/** Refuses before writing anything when a file in the way is not ours. */
function checkOurs(dir: string, files: readonly CommandFile[]): void {
  for (const file of files) {
    const path = join(Deno.build.os, dir, file.path);
    const existing = readIfExists(path);
    if (existing !== undefined && !existing.includes(MARKER)) {
      throw new CommandFailedError(
        `${path} exists and was not written by docsearch-hook; nothing was changed`,
        "move that file away, or install into the other scope (--scope user|project)",
      );
    }
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
  const files = slashCommandFiles(selfCommand());
  checkOurs(dir, files);
  const changed = files.filter((f) => readIfExists(join(Deno.build.os, dir, f.path)) !== f.text);
  if (values["dry-run"]) {
    print(
      changed.length === 0
        ? `Nothing to do: the slash commands in ${dir} are up to date.`
        : changed.map((f) => `Would write ${join(Deno.build.os, dir, f.path)}:\n${f.text}`).join("\n"),
    );
    return 0;
  }
  if (changed.length > 0) Deno.mkdirSync(join(Deno.build.os, dir, "docsearch"), { recursive: true });
  for (const file of changed) writeAtomically(join(Deno.build.os, dir, file.path), file.text);
  print(
    changed.length === 0
      ? `The slash commands in ${dir}/docsearch are up to date.`
      : `Wrote ${changed.length} slash command${changed.length === 1 ? "" : "s"} to ${dir}/docsearch: ` +
        "/docsearch:disable, /docsearch:enable, /docsearch:status (restart the agent to see them).",
  );
  return 0;
}

export function uninstall({ values }: InstallArgs): number {
  requireCommandsFlag(values, "uninstall");
  const dir = commandsDir(parseScope(values.scope));
  const ours = slashCommandFiles(selfCommand()).map((f) => join(Deno.build.os, dir, f.path)).filter((path) =>
    readIfExists(path)?.includes(MARKER)
  );
  if (values["dry-run"]) {
    print(ours.length === 0 ? "Nothing to remove." : ours.map((p) => `Would remove ${p}`).join("\n"));
    return 0;
  }
  for (const path of ours) Deno.removeSync(path);
  try {
    Deno.removeSync(join(Deno.build.os, dir, "docsearch"));
  } catch {
    // Not empty (the user keeps files of their own there) or already gone: either way it stays as it is.
  }
  print(ours.length === 0 ? `No docsearch-hook slash commands in ${dir}.` : `Removed ${ours.join(", ")}.`);
  return 0;
}
