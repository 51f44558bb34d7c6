/**
 * The slash commands `/docsearch:disable`, `/docsearch:enable` and `/docsearch:status`: Markdown files in
 * the agent's `commands/docsearch/` folder whose `!` line runs this binary before the agent sees the text,
 * so the switch happens without the model choosing to run anything.
 */

import { shellQuote } from "./shell.ts";

/** Marks the files as ours: install rewrites and uninstall removes only files that carry it. */
export const MARKER = "<!-- written by docsearch-hook install; rewritten on each install -->";

/** The marker as this version writes it and as 0.1.0's `install --commands` did, so upgrades find their files. */
export const isOurFile = (text: string): boolean =>
  /<!-- written by docsearch-hook install( --commands)?; rewritten on each install -->/.test(text);

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
  /** Relative to the agent's commands folder. */
  path: string;
  text: string;
}

/** `self` is the command that runs this docsearch-hook (the binary, or deno running this checkout). */
export function slashCommandFiles(self: readonly string[]): CommandFile[] {
  const binary = self.map(shellQuote).join(" ");
  return COMMANDS.map((command) => ({
    path: `docsearch/${command.name}.md`,
    text: [
      "---",
      `description: ${command.description}`,
      ...(command.argumentHint ? [`argument-hint: ${command.argumentHint}`] : []),
      `allowed-tools: Bash(${binary} ${command.name}:*)`,
      "---",
      MARKER,
      `!\`${binary} ${command.args}\``,
      "",
      "Show the output above to the user as it is, in a code block, and do nothing else.",
      "",
    ].join("\n"),
  }));
}
