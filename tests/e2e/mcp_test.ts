/**
 * `docsearch-hook mcp` end to end, driven by the official MCP SDK client as an agent would drive it (a real
 * `deno run -A --quiet main.ts mcp` process over stdio, on an index the CLI built in a temp HOME), and
 * `install --mcp` / `uninstall --mcp` on a sandboxed `~/.claude.json`.
 */
import { deepStrictEqual as assertEquals, match, ok } from "node:assert/strict";
// The SDK's `./*` export names types that do not exist for `.js` paths; these name the real ones.
// @ts-types="@modelcontextprotocol/sdk/client/index"
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
// @ts-types="@modelcontextprotocol/sdk/client/stdio"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import {
  backupsOf,
  exists,
  listDir,
  REGISTERED,
  runCli,
  runProgram,
  type Sandbox,
  sandbox,
  SELF,
  succeeded,
} from "../helpers.ts";

const ENTRY = { type: "stdio", command: REGISTERED[0], args: [...REGISTERED.slice(1), "mcp"], env: {} };

const cli = (box: Sandbox, args: string[], env: Record<string, string> = {}) =>
  runCli(args, { env: { ...box.env, ...env } });

/** Three pages, one of which answers "register a runner". */
async function docsFolder(box: Sandbox): Promise<string> {
  const docs = `${box.home}/docs`;
  await Deno.mkdir(`${docs}/guide`, { recursive: true });
  await Deno.writeTextFile(
    `${docs}/guide/runners.md`,
    "# Runners\n\n## Register a runner\n\nRun `gitlab-runner register` with the registration token.\n",
  );
  await Deno.writeTextFile(
    `${docs}/guide/cache.md`,
    "# Cache\n\nThe cache keeps dependencies between jobs.\n",
  );
  await Deno.writeTextFile(`${docs}/pipelines.md`, "# Pipelines\n\nA pipeline runs jobs in stages.\n");
  return docs;
}

interface Connection {
  client: Client;
  transport: StdioClientTransport;
  stderr: () => string;
  [Symbol.asyncDispose](): Promise<void>;
}

/** An SDK client connected to a fresh server process; `command` defaults to this checkout's `main.ts mcp`. */
async function connect(box: Sandbox, command = [...SELF, "mcp"]): Promise<Connection> {
  const transport = new StdioClientTransport({
    command: command[0],
    args: command.slice(1),
    // The SDK adds a few of this process's variables (HOME, PATH …); these win. USERPROFILE: Windows' home.
    env: { ...box.env, USERPROFILE: box.home },
    // A folder with no project in it: the server would keep the dependency docs of a project it runs in.
    cwd: box.home,
    stderr: "pipe",
  });
  let stderr = "";
  transport.stderr?.on("data", (chunk: Uint8Array) => stderr += new TextDecoder().decode(chunk));
  const client = new Client({ name: "docsearch-test", version: "0" });
  await client.connect(transport);
  return {
    client,
    transport,
    stderr: () => stderr,
    async [Symbol.asyncDispose]() {
      await client.close();
    },
  };
}

/** The text of a tool's answer. */
function textOf(result: Awaited<ReturnType<Client["callTool"]>>): string {
  const content = result.content as { type: string; text?: string }[];
  assertEquals(content.map((part) => part.type), ["text"]);
  return content[0].text!;
}

// ---- the server ----------------------------------------------------------------------------------------

Deno.test("mcp: an SDK client lists both tools, searches an index built by the CLI, lists the indexes", async () => {
  await using box = await sandbox();
  const docs = await docsFolder(box);
  succeeded(await cli(box, ["index", "add", "gitlab", docs]));

  await using server = await connect(box);
  const { client } = server;
  assertEquals(client.getServerVersion()?.name, "docsearch");
  match(client.getInstructions() ?? "", /before searching the web/);

  const { tools } = await client.listTools();
  assertEquals(tools.map((tool) => tool.name).sort(), ["list_indexes", "search"]);
  const search = tools.find((tool) => tool.name === "search")!;
  match(search.description ?? "", /local/i);
  match(search.description ?? "", /web search/);
  const properties = search.inputSchema.properties as Record<string, Record<string, unknown>>;
  assertEquals(Object.keys(properties).sort(), ["index", "limit", "query"]);
  assertEquals(search.inputSchema.required, ["query"]);
  assertEquals([properties.index.type, properties.index.default], ["string", "all"]);
  assertEquals(
    [properties.limit.type, properties.limit.minimum, properties.limit.maximum, properties.limit.default],
    ["integer", 1, 20, 5],
  );
  assertEquals(search.annotations?.readOnlyHint, true);

  const found = await client.callTool({
    name: "search",
    arguments: { index: "gitlab", query: "how do I register a runner" },
  });
  assertEquals(found.isError, undefined, textOf(found));
  const text = textOf(found);
  const [first] = text.split("\n\n").slice(1);
  assertEquals(
    first.split("\n").slice(0, 2),
    ["1. Runners › Register a runner  (gitlab)", `   ${docs}/guide/runners.md`],
    text,
  );
  match(first, /\*\*register\*\*/i);

  // Several phrasings in one call: their rankings fused, each page once.
  const fused = textOf(
    await client.callTool({
      name: "search",
      arguments: { query: ["register a runner", "cache between jobs"] },
    }),
  );
  match(fused, /^3 passages from the local docs for "register a runner" or "cache between jobs"/);
  // Each phrasing's best page leads; a page only one of them finds lower down comes after.
  match(fused, /\n1\. Runners › Register a runner .*\n\n2\. Cache .*\n\n3\. Pipelines /s);
  const phrasings = properties.query.anyOf as Record<string, unknown>[];
  assertEquals(phrasings.map((schema) => schema.type), ["string", "array"]);
  match(search.description ?? "", /keyword index/);

  // "all" is the default index; limit caps the passages.
  const all = textOf(await client.callTool({ name: "search", arguments: { query: "jobs", limit: 1 } }));
  match(all, /^1 passage from the local docs for "jobs"/);
  ok(!all.includes("\n2. "), all);

  const nothing = await client.callTool({ name: "search", arguments: { query: "kubernetes ingress" } });
  assertEquals(nothing.isError, undefined);
  match(
    textOf(nothing),
    /^Nothing in the local indexes matches "kubernetes ingress"\. The indexes there are: gitlab\./,
  );

  const listed = await client.callTool({ name: "list_indexes", arguments: {} });
  assertEquals(listed.isError, undefined);
  const listing = textOf(listed);
  match(listing, /^1 local documentation index /);
  ok(listing.includes(`- gitlab: 3 documents, 3 passages, from ${docs}\n`), listing);
  // `index add` put the index in the config: what it covers comes from there.
  match(listing, /keywords: gitlab/);
  assertEquals(server.stderr(), "");

  // An index file that cannot be read is named as such; the others are still listed.
  await Deno.writeTextFile(`${box.state}/indexes/junk.db`, "not a database at all, just text\n".repeat(100));
  const withJunk = await client.callTool({ name: "list_indexes", arguments: {} });
  assertEquals(withJunk.isError, undefined);
  match(
    textOf(withJunk),
    /^2 local documentation indexes .*\n- gitlab: 3 documents.*\n- junk: cannot be read \(/s,
  );
});

Deno.test("mcp: an unknown index, an empty query and a limit out of range are errors the agent reads", async () => {
  await using box = await sandbox();
  succeeded(await cli(box, ["index", "add", "gitlab", await docsFolder(box)]));
  await using server = await connect(box);
  const { client } = server;

  const unknown = await client.callTool({ name: "search", arguments: { index: "gitlb", query: "runner" } });
  assertEquals(unknown.isError, true);
  match(textOf(unknown), /there is no index gitlb \(there are: gitlab\)/);

  for (
    const args of [
      { query: "" },
      { query: "   " },
      {},
      { query: [] },
      { query: ["a", "b", "c", "d", "e", "f"] },
      {
        query: ["runner", " "],
      },
      { query: "runner", limit: 21 },
      {
        query: "x",
        limit: 0,
      },
    ]
  ) {
    const result = await client.callTool({ name: "search", arguments: args });
    assertEquals(result.isError, true, JSON.stringify(args));
    match(textOf(result), /Input validation error/, JSON.stringify(args));
  }
  // The server is still there after the errors.
  assertEquals((await client.listTools()).tools.length, 2);
  assertEquals(server.stderr(), "");
});

Deno.test("mcp: with no index at all, search and list_indexes say how one is added", async () => {
  await using box = await sandbox();
  await using server = await connect(box);
  const searched = await server.client.callTool({ name: "search", arguments: { query: "runner" } });
  match(textOf(searched), /no local documentation indexes yet.*docsearch-hook index add/);
  const listed = await server.client.callTool({ name: "list_indexes", arguments: {} });
  match(textOf(listed), /no local documentation indexes yet/);
});

Deno.test("mcp: the client closing ends the server (no process left behind)", async () => {
  await using box = await sandbox();
  const server = await connect(box);
  const pid = server.transport.pid;
  ok(pid !== null);
  await server.client.listTools();
  await server.client.close();
  // Gone: signalling it fails (on Linux, its /proc entry is gone too).
  let alive = true;
  try {
    Deno.kill(pid, "SIGCONT");
  } catch {
    alive = false;
  }
  assertEquals(alive, false);
});

Deno.test("mcp: stdin closing is the end: exit 0, and stdout holds only protocol messages", async () => {
  await using box = await sandbox();
  const messages = [
    {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "0" } },
    },
    { jsonrpc: "2.0", method: "notifications/initialized" },
    { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "list_indexes", arguments: {} } },
  ];
  const result = await runProgram(SELF[0], [...SELF.slice(1), "mcp"], {
    env: box.env,
    stdin: messages.map((message) => JSON.stringify(message) + "\n").join(""),
  });
  assertEquals([result.code, result.stderr], [0, ""], result.stderr);
  const lines = result.stdout.trimEnd().split("\n").map((line) => JSON.parse(line));
  assertEquals(lines.map((line) => [line.jsonrpc, line.id]), [["2.0", 1], ["2.0", 2]]);
  assertEquals(lines[0].result.serverInfo.name, "docsearch");
});

// ---- install --mcp ---------------------------------------------------------------------------------------

const claudeJsonOf = (box: Sandbox) => `${box.home}/.claude.json`;

/** A ~/.claude.json as Claude Code keeps it: two-space JSON, another server, per-project state. */
const CLAUDE_JSON = {
  numStartups: 12,
  installMethod: "native",
  autoUpdates: true,
  mcpServers: { leann: { type: "stdio", command: "leann_mcp", args: [], env: {} } },
  projects: { "/work/proj": { allowedTools: [], mcpServers: {}, hasTrustDialogAccepted: true } },
  userID: "0123abcd",
};
const CLAUDE_TEXT = JSON.stringify(CLAUDE_JSON, null, 2);

Deno.test("install --mcp: the hook and our server in ~/.claude.json, the rest kept byte for byte; uninstall --mcp restores it", async () => {
  await using box = await sandbox();
  await Deno.writeTextFile(claudeJsonOf(box), CLAUDE_TEXT);

  const preview = succeeded(await cli(box, ["install", "--mcp", "--dry-run"]));
  match(preview, /Would register the MCP server "docsearch" for Claude Code in .*\.claude\.json:\n/);
  match(preview, /\+ {4}"docsearch": \{/);
  assertEquals(await Deno.readTextFile(claudeJsonOf(box)), CLAUDE_TEXT);
  assertEquals(await exists(`${box.home}/.claude`), false);

  const stdout = succeeded(await cli(box, ["install", "--mcp"]));
  match(
    stdout,
    /Registered the MCP server "docsearch" for Claude Code in .*\/\.claude\.json \(command: .* mcp;/,
  );
  // --mcp adds to what install does: the hook is registered as well.
  match(stdout, /Registered docsearch-hook for Claude Code in .*settings\.json/);
  ok(await exists(`${box.home}/.claude/settings.json`));
  const expected = JSON.stringify(
    { ...CLAUDE_JSON, mcpServers: { ...CLAUDE_JSON.mcpServers, docsearch: ENTRY } },
    null,
    2,
  );
  assertEquals(await Deno.readTextFile(claudeJsonOf(box)), expected);
  const [backup, ...more] = await backupsOf(claudeJsonOf(box));
  assertEquals(more, []);
  assertEquals(await Deno.readTextFile(backup), CLAUDE_TEXT);

  // The command written there starts the server.
  {
    await using server = await connect(box, [ENTRY.command, ...ENTRY.args]);
    assertEquals((await server.client.listTools()).tools.length, 2);
  }

  const again = succeeded(await cli(box, ["install", "--mcp"]));
  match(again, /The MCP server "docsearch" is already registered for Claude Code in .*; nothing changed/);
  assertEquals(await Deno.readTextFile(claudeJsonOf(box)), expected);
  assertEquals((await backupsOf(claudeJsonOf(box))).length, 1);

  // Plain uninstall leaves the server, and says so.
  const plain = succeeded(await cli(box, ["uninstall"]));
  match(
    plain,
    /The MCP server "docsearch" is still registered in .*\.claude\.json: uninstall --mcp removes it/,
  );
  assertEquals(await Deno.readTextFile(claudeJsonOf(box)), expected);

  const removed = succeeded(await cli(box, ["uninstall", "--mcp"]));
  match(removed, /Removed the MCP server "docsearch" from .*\.claude\.json\./);
  assertEquals(await Deno.readTextFile(claudeJsonOf(box)), CLAUDE_TEXT);
  const gone = succeeded(await cli(box, ["uninstall", "--mcp"]));
  match(gone, /No docsearch-hook MCP server in .*\.claude\.json\./);
  assertEquals(await Deno.readTextFile(claudeJsonOf(box)), CLAUDE_TEXT);
});

Deno.test("install --mcp refuses another server called docsearch and writes nothing at all", async () => {
  await using box = await sandbox();
  const theirs = JSON.stringify({
    mcpServers: { docsearch: { type: "http", url: "https://docs.example.com" } },
  });
  await Deno.writeTextFile(claudeJsonOf(box), theirs);
  const result = await cli(box, ["install", "--mcp"]);
  assertEquals(result.code, 1);
  assertEquals(result.stdout, "");
  match(
    result.stderr,
    /mcpServers\.docsearch is another MCP server called "docsearch" .*nothing was changed/,
  );
  match(result.stderr, /fix: remove or rename it \(claude mcp remove --scope user docsearch\)/);
  assertEquals(await listDir(box.home), [".claude.json"]);
  assertEquals(await Deno.readTextFile(claudeJsonOf(box)), theirs);

  // uninstall --mcp leaves it alone too.
  const removed = succeeded(await cli(box, ["uninstall", "--mcp"]));
  match(removed, /The MCP server "docsearch" in .* is not docsearch-hook's: left alone/);
  assertEquals(await Deno.readTextFile(claudeJsonOf(box)), theirs);
});

Deno.test("install --mcp follows CLAUDE_CONFIG_DIR; Ripperdoc's server goes to ~/.ripperdoc/mcp.json", async () => {
  await using box = await sandbox();
  const dir = `${box.home}/claude-work`;
  succeeded(await cli(box, ["install", "--mcp"], { CLAUDE_CONFIG_DIR: dir }));
  assertEquals(JSON.parse(await Deno.readTextFile(`${dir}/.claude.json`)), {
    mcpServers: { docsearch: ENTRY },
  });
  assertEquals(await exists(claudeJsonOf(box)), false);

  succeeded(await cli(box, ["install", "--mcp", "--agent", "ripperdoc"]));
  const ripperdoc = `${box.home}/.ripperdoc/mcp.json`;
  assertEquals(JSON.parse(await Deno.readTextFile(ripperdoc)), { mcpServers: { docsearch: ENTRY } });
  succeeded(await cli(box, ["uninstall", "--mcp", "--agent", "ripperdoc"]));
  assertEquals(JSON.parse(await Deno.readTextFile(ripperdoc)), {});
});

Deno.test("install --commands --mcp is a usage error", async () => {
  await using box = await sandbox();
  const result = await cli(box, ["install", "--commands", "--mcp"]);
  assertEquals([result.code, result.stdout], [2, ""]);
  match(result.stderr, /--commands and --mcp do not go together/);
  assertEquals(await listDir(box.home), []);
});
