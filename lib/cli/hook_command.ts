/** The `hook` command's spec: in the table of commands, and all of the hook's bundle needs of it. */
import { command, configOption } from "./command.ts";

export const hookCommand = command({
  summary: "handle one agent hook event from stdin (the command the agent runs)",
  usage: "docsearch-hook hook [--config PATH] < event.json",
  options: { config: configOption },
  failOpen: true,
  run: async ({ values }, load) => (await load("hook")).run(values),
});
