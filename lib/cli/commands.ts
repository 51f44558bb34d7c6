/**
 * The command line (main.ts runs it for every command but `hook`): the table of commands and their options,
 * global help and dispatch. Each command runs through the one error boundary (command.ts), and its module is
 * imported when it runs, so that `--help` does not load the MCP SDK or zod.
 */
import type { OptionTable } from "./args.ts";
import { type Command, command, commandHelp, configOption, runCommand } from "./command.ts";
import type { CommandContext } from "./context.ts";
import { hookCommand } from "../hook/command.ts";
import { VERSION } from "../version.ts";

const sessionOption = {
  type: "string",
  value: "ID",
  description:
    "the session (its id or the start of it); default: CLAUDE_CODE_SESSION_ID or RIPPERDOC_SESSION_ID, else the latest session in this directory",
} as const;

const installOptions = {
  scope: {
    type: "string",
    value: "SCOPE",
    description:
      "user (default: ~/.claude/settings.json), project (.claude/settings.json) or local (.claude/settings.local.json)",
  },
  agent: {
    type: "string",
    value: "AGENT",
    description:
      "claude (default), ripperdoc (~/.ripperdoc/hooks.json, .ripperdoc/hooks[.local].json), gemini or qwen (~/.gemini/settings.json, ~/.qwen/settings.json and the project's; no local scope)",
  },
  settings: { type: "string", value: "PATH", description: "this settings file instead of the scope's" },
  commands: { type: "boolean", description: "only the /docsearch:* slash commands" },
  "dry-run": {
    type: "boolean",
    description: "print what would change (a diff of the settings), change nothing",
  },
  mcp: {
    type: "boolean",
    description: 'also register `docsearch-hook mcp` as the agent\'s MCP server "docsearch" (user scope)',
  },
} as const;

/** uninstall takes install's options; its `--mcp` removes the server that install's registers. */
const uninstallOptions = {
  ...installOptions,
  mcp: {
    type: "boolean",
    description: 'also remove the MCP server "docsearch" that install --mcp registered',
  },
} as const;

/** The slash commands pass it: Claude Code hides a failed `!` command's output, so failures must exit 0 too. */
const slashOption = {
  type: "boolean",
  description: "print every message, errors too, on stdout and exit 0 (used by the slash commands)",
} as const;

/** `--json`, printing `what` as JSON. */
const jsonOption = (what: string) => ({ type: "boolean", description: `print ${what} as JSON` }) as const;

/** `disable` and `enable`: one spec, the verb apart. */
const switchCommand = (verb: "disable" | "enable", summary: string) =>
  command({
    summary,
    usage: `docsearch-hook ${verb} <name> [--session ID]`,
    options: { session: sessionOption, config: configOption, slash: slashOption },
    // The slash commands pass what the user typed as one word; typed here, a name's words may come apart.
    positionals: ["name…"],
    run: async (args, context) => (await import("../switches/switch_command.ts")).run(verb, args, context),
  });

/** The table of commands: dispatch and help read it, and so does docs/commands.md (lib/build/commands_doc.ts). */
export const COMMANDS = {
  hook: hookCommand,
  check: command({
    summary: "dry run: which databases a web search matches, and the exact hook output",
    usage:
      "docsearch-hook check <query…> [--domain HOST]… [--json]\n       docsearch-hook check --url URL [prompt…] [--json]",
    options: {
      url: {
        type: "string",
        value: "URL",
        description: "check a WebFetch of this URL instead of a WebSearch",
      },
      domain: {
        type: "string",
        value: "HOST",
        multiple: true,
        description: "add HOST to the search's allowed_domains",
      },
      json: {
        type: "boolean",
        description: "print exactly what the hook would print (nothing when it allows)",
      },
      config: configOption,
    },
    positionals: ["query…"],
    run: async (args, context) => (await import("../redirect/check_command.ts")).run(args, context),
  }),
  disable: switchCommand(
    "disable",
    "turn a docs database or a feature (redirect, capture, context, all) off for one session",
  ),
  enable: switchCommand("enable", "turn back on what disable turned off for a session"),
  status: command({
    summary: "what is on and off for a session, and why",
    usage: "docsearch-hook status [--session ID] [--json]",
    options: {
      session: sessionOption,
      json: jsonOption("the status"),
      config: configOption,
      slash: slashOption,
    },
    positionals: [],
    run: async (args, context) => (await import("../switches/status_command.ts")).run(args, context),
  }),
  install: command({
    summary:
      "register the hook in the agent's settings, create the config, add the /docsearch:* slash commands",
    usage:
      "docsearch-hook install [--scope user|project|local] [--agent claude|ripperdoc|gemini|qwen] [--settings PATH] [--commands] [--mcp] [--dry-run]",
    options: installOptions,
    positionals: [],
    run: async (args, context) => (await import("../install/install_command.ts")).run(args, context),
  }),
  uninstall: command({
    summary: "remove what install added to the agent's settings, and the slash commands",
    usage:
      "docsearch-hook uninstall [--scope user|project|local] [--agent claude|ripperdoc|gemini|qwen] [--settings PATH] [--commands] [--mcp] [--dry-run]",
    options: uninstallOptions,
    positionals: [],
    run: async (args, context) => (await import("../install/install_command.ts")).uninstall(args, context),
  }),
  doctor: command({
    summary:
      "check the setup (binary, registration, config, databases, MCP servers, state) and say how to fix it",
    usage: "docsearch-hook doctor [--json] [--config PATH]",
    options: {
      json: jsonOption("the checks"),
      config: configOption,
    },
    positionals: [],
    run: async (args, context) => (await import("../doctor/doctor_command.ts")).run(args, context),
  }),
  index: command({
    summary:
      "index documentation (a folder, a file or a docs site) for `search` and the MCP server; share indexes as files",
    usage:
      "docsearch-hook index add <name> <folder|file|URL> [--keywords K,K] [--domains D,D] [--description TEXT] [--max-pages N] [--include PATH]… [--exclude PATH]… [--crawl] [--replace]\n       docsearch-hook index add --project [folder]\n       docsearch-hook index refresh <name> [--max-pages N] [--include PATH]… [--exclude PATH]… [--crawl]\n       docsearch-hook index list\n       docsearch-hook index remove <name>\n       docsearch-hook index export <name> <file>\n       docsearch-hook index import <file|URL> [--sha256 HEX] [--name NAME]",
    options: {
      keywords: {
        type: "string",
        value: "K,K",
        description: "words in a web search that send the agent to this index (default: the name)",
      },
      domains: {
        type: "string",
        value: "D,D",
        description:
          "sites this index covers: fetches of their pages go to the index (default: a crawled site's host)",
      },
      description: { type: "string", value: "TEXT", description: "one line saying what the docs are" },
      "max-pages": {
        type: "string",
        value: "N",
        description: "read at most N pages of a site (default 1000; refresh: as add was told)",
      },
      include: {
        type: "string",
        multiple: true,
        value: "PATH",
        description:
          "read only a site's pages whose path starts so (robots.txt syntax: * any characters, $ the end)",
      },
      exclude: {
        type: "string",
        multiple: true,
        value: "PATH",
        description: "never read a site's pages whose path starts so (as --include)",
      },
      crawl: {
        type: "boolean",
        description:
          "crawl the site even when it publishes llms-full.txt or llms.txt (refresh otherwise reads what add read)",
      },
      project: {
        type: "boolean",
        description:
          "add: index the installed docs of the project's direct dependencies (the folder given, else this one)",
      },
      replace: {
        type: "boolean",
        description: "add: read another source into an index of that name, replacing what it holds",
      },
      sha256: {
        type: "string",
        value: "HEX",
        description:
          "import: the SHA-256 the file must have (as its publisher gives it); anything else is refused",
      },
      name: {
        type: "string",
        value: "NAME",
        description: "import: the name to give the index (default: its own)",
      },
      "no-config": {
        type: "boolean",
        description: "do not add or update the index's entry in the user config",
      },
      config: configOption,
    },
    // add --project takes its folder where add takes the name: one word either way.
    positionals: {
      add: ["name", "folder|file|URL"],
      refresh: ["name"],
      list: [],
      remove: ["name"],
      export: ["name", "file"],
      import: ["file|URL"],
    },
    run: async (args, context) => (await import("../docs/index_command.ts")).run(args, context),
  }),
  search: command({
    summary: "search the local indexes: ranked passages with their page, headings and a snippet",
    usage: "docsearch-hook search <name|all> <query…> [--limit N] [--json]",
    options: {
      limit: { type: "string", value: "N", description: "how many passages (default 5, at most 100)" },
      json: jsonOption("the results"),
    },
    positionals: ["name|all", "query…"],
    run: async (args, context) => (await import("../docs/search_command.ts")).run(args, context),
  }),
  mcp: command({
    summary: "serve the local indexes to the agent over MCP (stdio): tools search and list_indexes",
    usage: "docsearch-hook mcp",
    options: {},
    positionals: [],
    run: async (_, context) => (await import("../mcp/mcp_command.ts")).run(context),
  }),
  log: command({
    summary: "the latest observations the hook recorded",
    usage: "docsearch-hook log [--session ID] [--limit N] [--json]",
    options: {
      session: { type: "string", value: "ID", description: "only this session (its id, or the start of it)" },
      limit: { type: "string", value: "N", description: "how many observations (default 20)" },
      json: jsonOption("them"),
    },
    positionals: [],
    run: async (args, context) => (await import("../state/log_command.ts")).run(args, context),
  }),
  stats: command({
    summary: "redirects, follow-through, escapes, unmatched web searches and the hook's latency",
    usage: "docsearch-hook stats [--since 7d] [--json]",
    options: {
      since: { type: "string", value: "AGE", description: "how far back, e.g. 24h, 7d, 4w (default 7d)" },
      json: jsonOption("the numbers"),
      config: configOption,
    },
    positionals: [],
    run: async (args, context) => (await import("../state/stats_command.ts")).run(args, context),
  }),
  prune: command({
    summary: "delete recorded data older than the retention",
    usage: "docsearch-hook prune [--older-than 30d]",
    options: {
      "older-than": {
        type: "string",
        value: "AGE",
        description: "delete what is older than this (default: capture.retention_days, 30d)",
      },
      config: configOption,
    },
    positionals: [],
    run: async (args, context) => (await import("../state/prune_command.ts")).run(args, context),
  }),
};

type CommandName = keyof typeof COMMANDS;

/** Own names only: `toString` is no command, though `"toString" in COMMANDS` says so. */
const isCommand = (name: string | undefined): name is CommandName =>
  name !== undefined && Object.hasOwn(COMMANDS, name);

function globalHelp(): string {
  const names = Object.keys(COMMANDS) as CommandName[];
  const width = Math.max(...names.map((n) => n.length));
  return [
    `docsearch-hook ${VERSION}: keeps an AI coding agent's documentation searches on local docs.`,
    "",
    "Usage: docsearch-hook <command> [options]",
    "",
    "Commands:",
    ...names.map((name) => `  ${name.padEnd(width)}  ${COMMANDS[name].summary}`),
    "",
    "Options:",
    "  -h, --help     show help (also: docsearch-hook <command> --help)",
    "  -V, --version  show the version",
    "",
    "Environment: DOCSEARCH_CONFIG (config file), DOCSEARCH_HOME (state directory),",
    "             DOCSEARCH_HOOK_DISABLED=1 (every hook action becomes a silent allow).",
  ].join("\n");
}

/** Edit distance, for "did you mean" on mistyped commands. */
function distance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++) {
      next[j] = Math.min(row[j] + 1, next[j - 1] + 1, row[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    row = next;
  }
  return row[b.length];
}

function closest(name: string): string | undefined {
  return Object.keys(COMMANDS).find((known) => distance(name, known) <= 2);
}

/** Runs the command line (main.ts gives it `Deno.args` and the process's context). */
export async function main(argv: string[], context: CommandContext): Promise<number> {
  const { stdout: print, stderr: printError } = context;
  const [name, ...rest] = argv;
  if (name === undefined) {
    printError(globalHelp());
    return 2;
  }
  if (name === "--help" || name === "-h" || name === "help") {
    const [help] = rest;
    print(isCommand(help) ? commandHelp(help, COMMANDS[help]) : globalHelp());
    return 0;
  }
  if (name === "--version" || name === "-V" || name === "version") {
    print(`docsearch-hook ${VERSION}`);
    return 0;
  }
  if (!isCommand(name)) {
    const guess = closest(name);
    printError(
      `docsearch-hook: unknown command "${name}"${guess ? `; did you mean "${guess}"?` : ""}\n` +
        "Run docsearch-hook --help for the list of commands.",
    );
    return 2;
  }
  const spec: Command<OptionTable> = COMMANDS[name];
  return await runCommand(name, spec, rest, context);
}
