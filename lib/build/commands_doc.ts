/**
 * docs/commands.md, the command reference, written from the table of commands (lib/cli/commands.ts): each
 * command's section is exactly what its `--help` prints, so the page cannot say what the program does not
 * take. tests/generated_docs_test.ts fails while the page differs from what this writes.
 *
 *   deno task docs     rewrites docs/commands.md when it differs
 */
import { commandHelp } from "../cli/command.ts";
import { COMMANDS } from "../cli/commands.ts";
import { formatMarkdown, ROOT } from "./doc_pages.ts";

export const COMMANDS_PAGE = "docs/commands.md";

const cell = (text: string) => text.replaceAll("|", "\\|");

/** The page, formatted as `deno fmt` would. */
export async function commandsPage(): Promise<string> {
  const names = Object.keys(COMMANDS) as (keyof typeof COMMANDS)[];
  const lines = [
    "# Commands",
    "",
    "<!-- Written by `deno task docs` from the table of commands in lib/cli/commands.ts: change the table, " +
    "not this page. tests/generated_docs_test.ts fails while the two differ. -->",
    "",
    "Each section is what `docsearch-hook <command> --help` prints. `docsearch-hook --help` lists the " +
    "commands and `docsearch-hook --version` prints the version. A command exits 0 when it did its work, 1 on " +
    "a problem (the message says what is wrong and how to fix it) and 2 on a usage error (its usage follows); " +
    "`hook` always exits 0, so that it never blocks the agent.",
    "",
    "| command | what it does |",
    "| --- | --- |",
    ...names.map((name) => `| [\`${name}\`](#${name}) | ${cell(COMMANDS[name].summary)} |`),
    ...names.flatMap((
      name,
    ) => ["", `## \`${name}\``, "", "```text", commandHelp(name, COMMANDS[name]), "```"]),
    "",
  ];
  return await formatMarkdown(lines.join("\n"));
}

if (import.meta.main) {
  const path = ROOT + COMMANDS_PAGE;
  const text = await commandsPage();
  let before: string | undefined;
  try {
    before = await Deno.readTextFile(path);
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
  if (before !== text) {
    await Deno.mkdir(`${ROOT}docs`, { recursive: true });
    await Deno.writeTextFile(path, text);
    console.log(`wrote ${COMMANDS_PAGE}`);
  }
}
