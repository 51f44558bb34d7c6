/**
 * The slash commands `/docsearch:disable`, `/docsearch:enable` and `/docsearch:status`: files in the agent's
 * `commands/docsearch/` folder whose shell line runs this binary before the agent sees the text, so the
 * switch happens without the model choosing to run anything. Claude Code and Qwen Code read Markdown, Gemini
 * CLI TOML.
 */

import type { Agent } from "../protocol/events.ts";
import { shellQuote } from "./shell.ts";

/** Marks the files as ours: install rewrites and uninstall removes only files that carry it. */
export const MARKER = "<!-- written by docsearch-hook install; rewritten on each install -->";

/** The marker in a TOML file. */
const TOML_MARKER = "# written by docsearch-hook install; rewritten on each install";

/** The marker as this version writes it and as 0.1.0's `install --commands` did, so upgrades find their files. */
export const isOurFile = (text: string): boolean =>
  /(<!--|#) written by docsearch-hook install( --commands)?; rewritten on each install/.test(text);

interface SlashCommand {
  name: "disable" | "enable" | "status";
  description: string;
  argumentHint?: string;
  /** What follows the binary on the `!` line. */
  args: string;
}

/**
 * `${CLAUDE_SESSION_ID}` is replaced by Claude Code (2.1.9+) with the session's id; older versions leave it
 * to the shell, where it is empty and the command falls back to CLAUDE_CODE_SESSION_ID or the directory.
 * `--` keeps a name that starts with "-" from being read as an option. `--slash` makes failures exit 0 with
 * their message on stdout, since Claude Code shows only an error line for a `!` command that fails.
 */
const SESSION = '--slash --session "${CLAUDE_SESSION_ID}"';

const COMMANDS: readonly SlashCommand[] = [
  {
    name: "disable",
    description:
      "Turn a docsearch-hook docs database or feature (redirect, capture, context, all) off for this session",
    argumentHint: "<database or feature, e.g. redirect>",
    args: `disable ${SESSION} -- "$ARGUMENTS"`,
  },
  {
    name: "enable",
    description: "Turn a docsearch-hook docs database or feature back on for this session",
    argumentHint: "<database or feature, e.g. redirect>",
    args: `enable ${SESSION} -- "$ARGUMENTS"`,
  },
  {
    name: "status",
    description: "Show what docsearch-hook has on and off in this session",
    args: `status ${SESSION}`,
  },
];

export interface CommandFile {
  /** Relative to the agent's commands folder (the plugin's: to the plugin's folder). */
  path: string;
  text: string;
}

/** The files, each running `binary` (a command line, quoted as the shell needs it), with `marker` if any. */
function commandFiles(binary: string, folder: string, marker?: string): CommandFile[] {
  return COMMANDS.map((command) => ({
    path: `${folder}${command.name}.md`,
    text: [
      "---",
      `description: ${command.description}`,
      ...(command.argumentHint ? [`argument-hint: ${command.argumentHint}`] : []),
      `allowed-tools: Bash(${binary} ${command.name}:*)`,
      "---",
      "",
      ...(marker ? [marker] : []),
      `!\`${binary} ${command.args}\``,
      "",
      "Show the output above to the user as it is, in a code block, and do nothing else.",
      "",
    ].join("\n"),
  }));
}

/** `self` is the command that runs this docsearch-hook (the binary, or deno running this checkout). */
export function slashCommandFiles(self: readonly string[]): CommandFile[] {
  return commandFiles(self.map(shellQuote).join(" "), "docsearch/", MARKER);
}

/**
 * The Claude Code plugin's own copies, in its `commands/` folder: Claude Code names a plugin's commands
 * `/<plugin>:<file>`, so the plugin `docsearch` offers the same three. `launcher` runs the plugin's launcher.
 */
export const pluginCommandFiles = (launcher: string): CommandFile[] => commandFiles(launcher, "commands/");

/**
 * Gemini CLI's and Qwen Code's: `!{…}` runs the line (once the user confirms it) and `{{args}}` inside it is
 * what the user typed, quoted for the shell by the agent. Neither gives the command its session's id: the
 * switch goes to the session last active in this directory.
 */
function agentCommandFiles(self: readonly string[], agent: "gemini" | "qwen"): CommandFile[] {
  const binary = self.map(shellQuote).join(" ");
  return COMMANDS.map((command) => {
    // A command with an argument hint takes a name.
    const line = `!{${binary} ${command.name} --slash${command.argumentHint ? " -- {{args}}" : ""}}`;
    const prompt =
      `${line}\n\nShow the output above to the user as it is, in a code block, and do nothing else.\n`;
    // A TOML basic string is JSON's, less the escapes JSON.stringify never writes.
    const text = agent === "gemini"
      ? [
        TOML_MARKER,
        `description = ${JSON.stringify(command.description)}`,
        `prompt = ${JSON.stringify(prompt)}`,
        "",
      ]
      : ["---", `description: ${command.description}`, "---", "", MARKER, prompt];
    return { path: `docsearch/${command.name}.${agent === "gemini" ? "toml" : "md"}`, text: text.join("\n") };
  });
}

/** The files of the agent's slash commands, each running `self`; none for an agent without them. */
export function agentSlashCommandFiles(self: readonly string[], agent: Agent): CommandFile[] {
  if (agent === "gemini" || agent === "qwen") return agentCommandFiles(self, agent);
  return agent === "claude" ? slashCommandFiles(self) : [];
}
