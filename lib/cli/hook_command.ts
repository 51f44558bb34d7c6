/** The `hook` command's spec: in the table of commands (for help), and what hook_main.ts runs. */
import { run } from "../commands/hook.ts";
import { command, configOption } from "./command.ts";

export const hookCommand = command({
  summary: "handle one agent hook event from stdin (the command the agent runs)",
  usage: "docsearch-hook hook [--config PATH] < event.json",
  options: { config: configOption },
  failOpen: true,
  run: ({ values }) => run(values),
});
