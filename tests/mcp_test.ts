/**
 * `install --mcp` / `uninstall --mcp` as pure functions: where the agent keeps its user-scope MCP servers,
 * the entry that runs `docsearch-hook mcp`, how an entry of ours is recognised, and the merge in and out of a
 * file the agent owns (everything else in it, and its layout, kept).
 */
import { deepStrictEqual as assertEquals, match, ok, throws } from "node:assert/strict";
import {
  isOurServer,
  mcpConfigPath,
  serverEntry,
  withMcpServer,
  withoutMcpServer,
} from "../lib/install/mcp.ts";
import {
  formatSettings,
  layoutOf,
  parseSettings,
  type Settings,
  SettingsError,
} from "../lib/install/settings.ts";
import type { Env } from "../lib/paths.ts";

const envOf = (vars: Record<string, string>): Env => (name) => vars[name];

const FILE = "/home/me/.claude.json";
const BINARY = serverEntry(["/home/me/.local/bin/docsearch-hook"]);
const CHECKOUT = serverEntry([
  "/usr/bin/deno",
  "run",
  "-A",
  "--quiet",
  "--config=/src/docsearch/deno.json",
  "/src/docsearch/main.ts",
]);

/** A ~/.claude.json as Claude Code writes it: other servers, per-project state, keys in its own order. */
const CLAUDE_JSON: Settings = {
  numStartups: 42,
  installMethod: "native",
  mcpServers: {
    leann: { type: "stdio", command: "leann_mcp", args: [], env: {} },
  },
  projects: {
    "/work/proj": { allowedTools: [], mcpServers: { docsearch: { type: "http", url: "https://x" } } },
  },
  userID: "abc",
};

const add = (settings: Settings, own = BINARY, agent: "claude" | "ripperdoc" = "claude") =>
  withMcpServer(settings, own, agent, FILE, "linux");
const remove = (settings: Settings, own = BINARY, agent: "claude" | "ripperdoc" = "claude") =>
  withoutMcpServer(settings, own, agent, FILE, "linux");

function settingsError(run: () => unknown): SettingsError {
  let caught: unknown;
  throws(() => {
    try {
      run();
    } catch (error) {
      caught = error;
      throw error;
    }
  }, SettingsError);
  return caught as SettingsError;
}

// ---- where and what ------------------------------------------------------------------------------------

Deno.test("mcpConfigPath: ~/.claude.json, moved by CLAUDE_CONFIG_DIR; Ripperdoc's ~/.ripperdoc/mcp.json", () => {
  assertEquals(mcpConfigPath("claude", envOf({ HOME: "/home/me" }), "linux"), "/home/me/.claude.json");
  assertEquals(
    mcpConfigPath("claude", envOf({ HOME: "/home/me", CLAUDE_CONFIG_DIR: "/cfg/claude" }), "linux"),
    "/cfg/claude/.claude.json",
  );
  assertEquals(
    mcpConfigPath("ripperdoc", envOf({ HOME: "/home/me", CLAUDE_CONFIG_DIR: "/cfg" }), "linux"),
    "/home/me/.ripperdoc/mcp.json",
  );
  assertEquals(
    mcpConfigPath("claude", envOf({ USERPROFILE: "C:\\Users\\me", HOME: "/c/x" }), "windows"),
    "C:\\Users\\me\\.claude.json",
  );
  assertEquals(mcpConfigPath("claude", envOf({}), "linux"), undefined);
  assertEquals(mcpConfigPath("ripperdoc", envOf({}), "linux"), undefined);
});

Deno.test("serverEntry: what `claude mcp add --scope user docsearch -- <command> mcp` writes", () => {
  assertEquals(BINARY, {
    type: "stdio",
    command: "/home/me/.local/bin/docsearch-hook",
    args: ["mcp"],
    env: {},
  });
  assertEquals(CHECKOUT.command, "/usr/bin/deno");
  assertEquals(CHECKOUT.args.slice(-2), ["/src/docsearch/main.ts", "mcp"]);
});

Deno.test("isOurServer: this one, a docsearch-hook binary or checkout elsewhere; not other programs", () => {
  const ours = [
    BINARY,
    CHECKOUT,
    { command: "/opt/old/docsearch-hook", args: ["mcp"] },
    {
      type: "stdio",
      command: "C:\\tools\\docsearch-hook-x86_64-pc-windows-msvc.exe",
      args: ["mcp"],
      env: {},
    },
    serverEntry(["/other/deno", "run", "-A", "--config=/elsewhere/deno.json", "/elsewhere/main.ts"]),
  ];
  for (const entry of ours) ok(isOurServer(entry, BINARY, "linux"), JSON.stringify(entry));
  // A launcher named by DOCSEARCH_HOOK_SELF can have any name: exactly our own entry is ours.
  const launcher = serverEntry(["/home/me/bin/docs-wrapper"]);
  ok(isOurServer(launcher, launcher, "linux"));
  ok(!isOurServer(launcher, BINARY, "linux"));
  const foreign = [
    { type: "http", url: "https://docs.example.com/mcp" },
    { type: "stdio", command: "npx", args: ["-y", "docsearch-mcp"] },
    { command: "/home/me/.local/bin/docsearch-hook", args: ["hook"] },
    { command: "/home/me/.local/bin/docsearch-hook", args: ["mcp", "--verbose"] },
    { command: "/usr/bin/deno", args: ["run", "-A", "/src/other/main.ts", "mcp"] },
    { type: "sse", command: "/home/me/.local/bin/docsearch-hook", args: ["mcp"] },
    "docsearch-hook mcp",
    null,
  ];
  for (const entry of foreign) ok(!isOurServer(entry, BINARY, "linux"), JSON.stringify(entry));
});

// ---- the merge in ---------------------------------------------------------------------------------------

Deno.test("withMcpServer adds ours to mcpServers after the others, touching nothing else", () => {
  const before = structuredClone(CLAUDE_JSON);
  const merge = add(CLAUDE_JSON);
  assertEquals(CLAUDE_JSON, before, "its input is left alone");
  assertEquals([merge.changed, merge.removed], [true, 0]);
  const { mcpServers, ...rest } = merge.settings as { mcpServers: Record<string, unknown> };
  const { mcpServers: oldServers, ...oldRest } = CLAUDE_JSON as { mcpServers: Record<string, unknown> };
  assertEquals(rest, oldRest);
  assertEquals(Object.keys(merge.settings), Object.keys(CLAUDE_JSON));
  assertEquals(Object.keys(mcpServers), ["leann", "docsearch"]);
  assertEquals(mcpServers.leann, oldServers.leann);
  assertEquals(mcpServers.docsearch, BINARY);
});

Deno.test("withMcpServer into an empty file, and twice: the second time changes nothing", () => {
  const first = add(parseSettings("", FILE));
  assertEquals(first.settings, { mcpServers: { docsearch: BINARY } });
  const second = add(first.settings);
  assertEquals([second.changed, second.removed], [false, 1]);
  assertEquals(second.settings, first.settings);
});

Deno.test("withMcpServer replaces an entry of ours from another place where it stands, keeping its env", () => {
  const settings: Settings = {
    mcpServers: {
      a: { command: "a" },
      docsearch: { type: "stdio", command: "/opt/old/docsearch-hook", args: ["mcp"], env: { X: "1" } },
      z: { command: "z" },
    },
  };
  const merge = add(settings);
  assertEquals([merge.changed, merge.removed], [true, 1]);
  const servers = merge.settings.mcpServers as Record<string, unknown>;
  assertEquals(Object.keys(servers), ["a", "docsearch", "z"]);
  assertEquals(servers.docsearch, { ...BINARY, env: { X: "1" } });
  assertEquals(add(merge.settings).changed, false);
});

Deno.test("withMcpServer refuses a foreign server called docsearch, naming it and the fix", () => {
  const settings: Settings = {
    mcpServers: { docsearch: { type: "stdio", command: "npx", args: ["docs-mcp"] } },
  };
  const error = settingsError(() => add(settings));
  ok(error.message.startsWith(FILE), error.message);
  match(error.message, /mcpServers\.docsearch .*npx docs-mcp/);
  match(error.hint, /claude mcp remove --scope user docsearch/);
  // A project's private server of that name (local scope) is another list: not in the way.
  assertEquals(add(CLAUDE_JSON).changed, true);
});

Deno.test("withMcpServer: a server list that is not an object is a SettingsError with its JSON path", () => {
  for (const value of [[], "docsearch", 3]) {
    const error = settingsError(() => add({ mcpServers: value }));
    match(error.message, /^\/home\/me\/\.claude\.json: mcpServers: /);
  }
});

Deno.test("formatting: ~/.claude.json round-trips byte for byte apart from our entry", () => {
  for (const indent of ["  ", "    ", "\t"]) {
    for (const newline of ["\n", "\r\n"]) {
      const text = JSON.stringify(CLAUDE_JSON, null, indent).replaceAll("\n", newline) + newline;
      const label = JSON.stringify({ indent, newline });
      const added = formatSettings(add(parseSettings(text, FILE)).settings, layoutOf(text));
      const expected = JSON.stringify(
        { ...CLAUDE_JSON, mcpServers: { ...CLAUDE_JSON.mcpServers as object, docsearch: BINARY } },
        null,
        indent,
      ).replaceAll("\n", newline) + newline;
      assertEquals(added, expected, label);
      const removed = formatSettings(remove(parseSettings(added, FILE)).settings, layoutOf(added));
      assertEquals(removed, text, label);
    }
  }
});

// ---- the merge out --------------------------------------------------------------------------------------

Deno.test("withoutMcpServer takes out only ours; a list only ours filled goes too", () => {
  const added = add(CLAUDE_JSON).settings;
  const merge = remove(added);
  assertEquals([merge.changed, merge.removed, merge.foreign], [true, 1, false]);
  assertEquals(merge.settings, CLAUDE_JSON);
  assertEquals(remove(add({ model: "x" }).settings).settings, { model: "x" });
  // Another place's entry of ours goes as well: uninstall from a new binary cleans up an old one.
  const old = { mcpServers: { docsearch: { command: "/opt/old/docsearch-hook", args: ["mcp"] } } };
  assertEquals(remove(old).settings, {});
});

Deno.test("withoutMcpServer leaves a foreign docsearch and says so; with nothing of ours nothing changes", () => {
  const foreign: Settings = { mcpServers: { docsearch: { type: "http", url: "https://x" } } };
  assertEquals(remove(foreign), { settings: foreign, changed: false, removed: 0, foreign: true });
  assertEquals(remove(CLAUDE_JSON), { settings: CLAUDE_JSON, changed: false, removed: 0, foreign: false });
  assertEquals(remove({}), { settings: {}, changed: false, removed: 0, foreign: false });
});

// ---- Ripperdoc -----------------------------------------------------------------------------------------

Deno.test("Ripperdoc: ours goes into the list the file has (servers or mcpServers), mcpServers in a new one", () => {
  const inServers = add({ servers: { ctx: { command: "ctx7" } } }, BINARY, "ripperdoc");
  assertEquals(inServers.settings, { servers: { ctx: { command: "ctx7" }, docsearch: BINARY } });
  const inMcp = add({ mcpServers: { ctx: { command: "ctx7" } } }, BINARY, "ripperdoc");
  assertEquals(inMcp.settings, { mcpServers: { ctx: { command: "ctx7" }, docsearch: BINARY } });
  assertEquals(add({}, BINARY, "ripperdoc").settings, { mcpServers: { docsearch: BINARY } });
  assertEquals(remove(inServers.settings, BINARY, "ripperdoc").settings, {
    servers: { ctx: { command: "ctx7" } },
  });
});

Deno.test("Ripperdoc: a copy of ours in its other list is dropped; a foreign one in either list refuses", () => {
  const twice: Settings = {
    servers: { docsearch: { command: "/opt/old/docsearch-hook", args: ["mcp"] } },
    mcpServers: { other: { command: "o" }, docsearch: { command: "/x/docsearch-hook", args: ["mcp"] } },
  };
  const merge = add(twice, BINARY, "ripperdoc");
  assertEquals(merge.removed, 2);
  assertEquals(merge.settings, { servers: { docsearch: BINARY }, mcpServers: { other: { command: "o" } } });
  const error = settingsError(() =>
    add({ mcpServers: { docsearch: { url: "https://x" } } }, BINARY, "ripperdoc")
  );
  match(error.message, /mcpServers\.docsearch/);
  match(error.hint, /\/home\/me\/\.claude\.json/);
});

Deno.test("Ripperdoc: servers listed at the top level (its oldest form) are not hidden by a new list", () => {
  const legacy: Settings = { ctx: { command: "ctx7", args: [] } };
  const error = settingsError(() => add(legacy, BINARY, "ripperdoc"));
  match(error.message, /top level/);
  match(error.message, /ctx/);
  // Claude Code has no such form: any top-level key is just a setting.
  assertEquals(add(legacy).settings, {
    ctx: { command: "ctx7", args: [] },
    mcpServers: { docsearch: BINARY },
  });
});
