/** The `hook` command's spec: in the table of commands (for help), and what main.ts beside it runs. */
import { run } from "./hook.ts";
import { command, configOption } from "../cli/command.ts";

export const hookCommand = command({
  summary: "handle one agent hook event from stdin (the command the agent runs)",
  usage: "docsearch-hook hook [--config PATH] < event.json",
  options: { config: configOption },
  // A stray word is refused like an unknown option: failOpen turns the refusal into an allow.
  positionals: [],
  failOpen: true,
  run: ({ values }, context) => run(values, context),
});
