/**
 * The Claude Code plugin's files that follow from the code: the manifest's version and MCP server, the hooks
 * (the event table's registrations for Claude Code) and the slash commands (install's, running the launcher),
 * and the launcher's pinned version. Written from here so that they cannot drift from what `install` writes;
 * tests/plugin_test.ts fails while one is out of date.
 *
 *   deno run -A lib/build/plugin.ts     rewrites the files that differ
 */
import { PLUGIN_NAME, SERVER_NAME } from "../docs/built_in.ts";
import { MARKETPLACE_NAME, PLUGIN_COMMAND_LAUNCHER, PLUGIN_LAUNCHER } from "../install/plugin.ts";
import { withRegistration } from "../install/settings.ts";
import { pluginCommandFiles } from "../install/slash_commands.ts";
import { fileUrlPath } from "../paths.ts";
import { VERSION } from "../version.ts";

export interface PluginFile {
  /** From the repository's root, which is the plugin's. */
  path: string;
  text: string;
}

export const LAUNCHER_PATH = "bin/docsearch-hook";

const REPOSITORY = `https://github.com/${MARKETPLACE_NAME}/${MARKETPLACE_NAME}`;

const json = (value: unknown) => JSON.stringify(value, null, 2) + "\n";

const DESCRIPTION = "Keeps documentation lookups on local docs: a web search or fetch that a local docs " +
  "database covers is denied with the exact local MCP search to run instead (the identical retry is let " +
  "through), with a built-in docs index served over MCP and /docsearch:disable, enable and status.";

function manifest(): unknown {
  return {
    name: PLUGIN_NAME,
    version: VERSION,
    description: DESCRIPTION,
    author: { name: MARKETPLACE_NAME, url: REPOSITORY },
    homepage: REPOSITORY,
    repository: REPOSITORY,
    keywords: ["documentation", "offline", "hooks", "mcp", "search"],
    // Inline rather than a .mcp.json at the root, which Claude Code would also read as this repository's own.
    mcpServers: {
      [SERVER_NAME]: { command: "sh", args: ["${CLAUDE_PLUGIN_ROOT}/" + LAUNCHER_PATH, "mcp"] },
    },
  };
}

function hooks(): unknown {
  return {
    description: "docsearch-hook on every event it handles, as `docsearch-hook install` registers it",
    hooks: withRegistration({}, `${PLUGIN_LAUNCHER} hook`, "claude").settings.hooks,
  };
}

/** The launcher's text with this version pinned. */
export const withLauncherVersion = (launcher: string): string =>
  launcher.replace(/^VERSION=.*$/m, `VERSION=${VERSION}`);

/** Every generated file; `launcher` is the launcher as it is, whose version line is the generated part. */
export function pluginFiles(launcher: string): PluginFile[] {
  return [
    { path: ".claude-plugin/plugin.json", text: json(manifest()) },
    { path: "hooks/hooks.json", text: json(hooks()) },
    ...pluginCommandFiles(PLUGIN_COMMAND_LAUNCHER),
    { path: LAUNCHER_PATH, text: withLauncherVersion(launcher) },
  ];
}

if (import.meta.main) {
  const root = fileUrlPath(new URL("../../", import.meta.url), Deno.build.os);
  const launcher = Deno.readTextFileSync(root + LAUNCHER_PATH);
  for (const file of pluginFiles(launcher)) {
    const path = root + file.path;
    let before: string | undefined;
    try {
      before = Deno.readTextFileSync(path);
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound)) throw error;
    }
    if (before === file.text) continue;
    Deno.mkdirSync(path.slice(0, path.lastIndexOf("/")), { recursive: true });
    Deno.writeTextFileSync(path, file.text);
    console.log(`wrote ${file.path}`);
  }
}
