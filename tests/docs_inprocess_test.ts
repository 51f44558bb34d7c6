/**
 * `index`, `search` and `mcp` in process, through the command line with a captured context: the indexes are
 * the temp machine's, relative paths are the context's folder's, the output is kept; two machines in one
 * process do not see each other's indexes, and this process's environment is not touched.
 */
import { deepStrictEqual as assertEquals, match, ok } from "node:assert/strict";
import { main } from "../lib/cli/commands.ts";
import { instructions } from "../lib/mcp/mcp_command.ts";
import { type CapturedContext, type Machine, machine } from "./command_context.ts";
import { exists } from "./helpers.ts";

/** Two pages, one of which answers "register a runner", in `docs/` of the machine's project folder. */
async function docsFolder(m: Machine): Promise<string> {
  const docs = `${m.project}/docs`;
  await Deno.mkdir(`${docs}/guide`, { recursive: true });
  await Deno.writeTextFile(
    `${docs}/guide/runners.md`,
    "# Runners\n\n## Register a runner\n\nRun `gitlab-runner register` with the registration token.\n",
  );
  await Deno.writeTextFile(`${docs}/pipelines.md`, "# Pipelines\n\nA pipeline runs jobs in stages.\n");
  return docs;
}

/** Runs the command line in `ctx`; it must succeed with nothing on the error stream. */
async function succeeds(argv: string[], ctx: CapturedContext): Promise<string> {
  const code = await main(argv, ctx);
  assertEquals([code, ctx.err], [0, []], ctx.out.join("\n"));
  return ctx.out.join("\n");
}

const userConfigOf = (m: Machine) => `${m.home}/.claude/hooks/docsearch-config.json`;

Deno.test("index add, list, search and remove in process: the context's state and folder, its output captured", async () => {
  await using m = await machine();
  const docs = await docsFolder(m);

  // A relative folder is the context's folder's.
  const added = await succeeds(["index", "add", "gitlab", "docs"], m.context());
  match(
    added,
    new RegExp(
      `^Indexed gitlab from ${docs}: 2 documents, \\d+ chunks \\(2 new or changed, 0 unchanged, 0 removed\\) in 0\\.0 s\\.\n`,
    ),
  );
  match(added, new RegExp(`\nAdded the database "gitlab" in ${userConfigOf(m)}: `));
  ok(await exists(`${m.state}/indexes/gitlab.db`));

  match(
    await succeeds(["index", "list"], m.context()),
    new RegExp(`^gitlab  2 documents, \\d+ chunks  ${docs}$`),
  );

  const found = await succeeds(
    ["search", "gitlab", "how", "do", "I", "register", "a", "runner"],
    m.context(),
  );
  assertEquals(found.split("\n").slice(0, 2), [
    "1. Runners › Register a runner  (gitlab)",
    `   ${docs}/guide/runners.md`,
  ]);
  const json = JSON.parse(await succeeds(["search", "all", "pipeline", "stages", "--json"], m.context()));
  assertEquals(json.map((result: { source: string }) => result.source), [`${docs}/pipelines.md`]);

  // Nothing on the machine changed: refresh finds every file as it was.
  match(
    await succeeds(["index", "refresh", "gitlab"], m.context()),
    /^Indexed gitlab from .*: 2 documents, \d+ chunks \(0 new or changed, 2 unchanged, 0 removed\)/,
  );

  assertEquals(
    await succeeds(["index", "remove", "gitlab"], m.context()),
    `Removed the index gitlab.\nRemoved its database entry from ${userConfigOf(m)}.`,
  );
  assertEquals(await exists(`${m.state}/indexes/gitlab.db`), false);
  assertEquals(
    await succeeds(["index", "list"], m.context()),
    "No indexes yet: docsearch-hook index add <name> <folder|file|URL>",
  );
});

Deno.test("index add of a folder with a link out of it: the link is skipped and named, what it points at not indexed", async () => {
  await using m = await machine();
  const docs = await docsFolder(m);
  await Deno.writeTextFile(`${m.home}/secret.md`, "# Secret\n\nsecretword\n");
  await Deno.symlink(`${m.home}/secret.md`, `${docs}/notes.md`);
  const ctx = m.context();
  assertEquals(await main(["index", "add", "gitlab", "docs"], ctx), 0);
  match(ctx.out.join("\n"), /^Indexed gitlab from .*: 2 documents, /);
  assertEquals(ctx.err, [`docsearch-hook index: skipped ${docs}/notes.md (a link out of ${docs})`]);
  const found = m.context();
  assertEquals(await main(["search", "gitlab", "secretword"], found), 0);
  assertEquals(found.out.join("\n").includes("notes.md"), false);
});

Deno.test("index add: says when the MCP server its entries send the agent to is not registered, and not once it is", async () => {
  await using m = await machine();
  await docsFolder(m);
  const missing =
    'docsearch-hook\'s MCP server "docsearch", which is not registered: run docsearch-hook install --mcp';
  ok((await succeeds(["index", "add", "gitlab", "docs"], m.context())).includes(missing));
  // Registered as install --mcp writes it.
  await Deno.writeTextFile(
    `${m.home}/.claude.json`,
    JSON.stringify({
      mcpServers: { docsearch: { type: "stdio", command: "docsearch-hook", args: ["mcp"] } },
    }),
  );
  const again = await succeeds(["index", "add", "pipes", "docs"], m.context());
  match(again, /Added the database "pipes"/);
  ok(!again.includes("not registered"), again);
  // Ripperdoc's own file, which lists its servers under "servers".
  await Deno.remove(`${m.home}/.claude.json`);
  await Deno.mkdir(`${m.home}/.ripperdoc`);
  await Deno.writeTextFile(
    `${m.home}/.ripperdoc/mcp.json`,
    JSON.stringify({ servers: { docsearch: { type: "stdio", command: "docsearch-hook", args: ["mcp"] } } }),
  );
  const ripperdoc = await succeeds(["index", "add", "runners", "docs"], m.context());
  ok(!ripperdoc.includes("not registered"), ripperdoc);
});

Deno.test("index add of a name that holds another source refuses, changing nothing; --replace replaces, and the description it wrote follows", async () => {
  await using m = await machine();
  const docs = await docsFolder(m);
  const other = `${m.project}/other`;
  await Deno.mkdir(other);
  await Deno.writeTextFile(`${other}/deploy.md`, "# Deploy\n\nShip the build to the servers.\n");
  await succeeds(["index", "add", "gitlab", "docs", "--no-config"], m.context());
  // The same source again, however written, is a refresh.
  for (const again of [docs, `${docs}/`, "./docs/"]) {
    match(await succeeds(["index", "add", "gitlab", again], m.context()), /\(0 new or changed, 2 unchanged/);
  }
  // A folder that is not there is said as such, not taken for another source.
  const typo = m.context();
  assertEquals(await main(["index", "add", "gitlab", "dosc"], typo), 1);
  match(typo.err[0], /^docsearch-hook index: there is no file or folder .*\/dosc\n/);
  const refused = m.context();
  assertEquals(await main(["index", "add", "gitlab", other], refused), 1);
  assertEquals(refused.err, [
    `docsearch-hook index: the index gitlab already holds ${docs}; reading ${other} into it would replace those docs\n` +
    `  fix: choose another name, or replace them: docsearch-hook index add gitlab ${other} --replace (index refresh gitlab reads ${docs} again)`,
  ]);
  match(await succeeds(["index", "list"], m.context()), /^gitlab {2}2 documents/);
  const replaced = await succeeds(["index", "add", "gitlab", other, "--replace"], m.context());
  match(replaced, /\(1 new or changed, 0 unchanged, 2 removed\)/);
  const entry = JSON.parse(await Deno.readTextFile(userConfigOf(m))).databases[0];
  assertEquals(entry.description, `gitlab documentation (from ${other})`);
});

Deno.test("index add and search say what is missing: the source, a folder that is not there, the index a query lost its first word to", async () => {
  await using m = await machine();
  const fails = async (argv: string[], code: number) => {
    const ctx = m.context();
    assertEquals(await main(argv, ctx), code, ctx.out.join("\n"));
    return ctx.err[0].split("\n").slice(0, 2).join("\n");
  };
  match(
    await fails(["index", "add", "docs"], 2),
    /^docsearch-hook index: say what to index as docs: a folder, a file, or a docs site's URL\nUsage: /,
  );
  match(await fails(["search", "gitlab"], 2), /^docsearch-hook search: say what to search for\n/);
  assertEquals(
    await fails(["index", "add", "docs", "nowhere"], 1),
    `docsearch-hook index: there is no file or folder ${m.project}/nowhere\n` +
      "  fix: give a folder or a file of documentation (Markdown, HTML or text), or a docs site's http(s) URL",
  );
  match(
    await fails(["index", "add", "--project", "nowhere"], 1),
    new RegExp(`^docsearch-hook index: there is no folder ${m.project}/nowhere\n`),
  );
  await docsFolder(m);
  await succeeds(["index", "add", "gitlab", "docs", "--no-config"], m.context());
  assertEquals(
    await fails(["search", "how", "to", "register", "a", "runner"], 1),
    "docsearch-hook search: there is no index how (there are: gitlab)\n" +
      "  fix: name one of them first, or all: docsearch-hook search all <query…>",
  );
});

Deno.test("index add and remove keep the newest 5 backups of the config they rewrite, and leave files named alike", async () => {
  await using m = await machine();
  await docsFolder(m);
  const dir = `${m.home}/.claude/hooks`;
  await Deno.mkdir(dir, { recursive: true });
  await Deno.writeTextFile(`${dir}/docsearch-config.json`, '{ "databases": [] }\n');
  await Deno.writeTextFile(`${dir}/docsearch-config.json.bak-mine`, "kept");
  // The machine's clock stands still: every backup falls in one second, and names freed are taken again.
  for (let i = 0; i < 6; i++) {
    await succeeds(["index", "add", `docs${i}`, "docs"], m.context());
    await succeeds(["index", "remove", `docs${i}`], m.context());
  }
  const backups = [...Deno.readDirSync(dir)].map((entry) => entry.name).filter((name) =>
    name.includes(".bak-")
  );
  assertEquals(backups.length, 6, backups.join(", "));
  ok(backups.includes("docsearch-config.json.bak-mine"));
  // The newest is there: the config as it was before the last remove, with docs5's entry.
  const newest = backups.filter((name) => name !== "docsearch-config.json.bak-mine")
    .map((name) => ({ name, at: Deno.statSync(`${dir}/${name}`).mtime!.getTime() }))
    .sort((a, b) => b.at - a.at)[0];
  match(await Deno.readTextFile(`${dir}/${newest.name}`), /"docs5"/);
});

Deno.test("index add says when the keyword it gives a new entry is an ordinary word, and not for a term or keywords given", async () => {
  await using m = await machine();
  await docsFolder(m);
  const added = m.context();
  assertEquals(await main(["index", "add", "guide", "docs"], added), 0);
  assertEquals(added.err, [
    'docsearch-hook index: its keyword is "guide", an ordinary word: web searches that merely use it are matched ' +
    "too (the hook answers them only when these docs hold an answer); --keywords K,K sets precise ones",
  ]);
  await succeeds(["index", "add", "manual", "docs", "--keywords", "gitlab,gitlab-ci"], m.context());
  await succeeds(["index", "add", "postgres", "docs"], m.context());
});

Deno.test("index add --replace of a site by a folder: the entry forgets the site's host, keeps a domain the user added", async () => {
  await using m = await machine();
  await docsFolder(m);
  const site = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    () =>
      new Response(
        "<html><head><title>Guide</title></head><body><main><h1>Guide</h1><p>Widgets.</p></main></body></html>",
        {
          headers: { "content-type": "text/html" },
        },
      ),
  );
  try {
    const url = `http://127.0.0.1:${site.addr.port}/guide/`;
    await succeeds(["index", "add", "guide2", url, "--keywords", "widgets"], m.context());
    const file = userConfigOf(m);
    const entry = () => JSON.parse(Deno.readTextFileSync(file)).databases[0];
    assertEquals(entry().domains, ["127.0.0.1"]);
    await succeeds(["index", "add", "guide2", "docs", "--replace"], m.context());
    assertEquals(entry().domains, undefined);
    // A domain the user added stays.
    await succeeds(["index", "add", "guide3", url, "--domains", "127.0.0.1,docs.example.org"], m.context());
    await succeeds(["index", "add", "guide3", "docs", "--replace"], m.context());
    assertEquals(JSON.parse(Deno.readTextFileSync(file)).databases[1].domains, ["docs.example.org"]);
  } finally {
    await site.shutdown();
  }
});

Deno.test("two machines in one process: each command sees its own context's indexes only", async () => {
  await using first = await machine();
  await using second = await machine();
  await succeeds(["index", "add", "gitlab", await docsFolder(first), "--no-config"], first.context());

  match(await succeeds(["index", "list"], first.context()), /^gitlab {2}2 documents/);
  assertEquals(
    await succeeds(["index", "list"], second.context()),
    "No indexes yet: docsearch-hook index add <name> <folder|file|URL>",
  );
  const other = second.context();
  assertEquals(await main(["search", "gitlab", "runner"], other), 1);
  match(other.err.join("\n"), /there is no index gitlab/);
});

Deno.test("index export and import in process: the file is the context's folder's, the index lands in the other machine's state", async () => {
  await using from = await machine();
  await using to = await machine();
  await succeeds(["index", "add", "gitlab", await docsFolder(from), "--no-config"], from.context());

  const exported = await succeeds(["index", "export", "gitlab", "gitlab.docsearch"], from.context());
  match(exported, new RegExp(`^Exported the index gitlab to ${from.project}/gitlab\\.docsearch `));
  assertEquals((await Array.fromAsync(Deno.readDir(from.project))).map((e) => e.name).sort(), [
    "docs",
    "gitlab.docsearch",
  ]);

  const imported = await succeeds(
    ["index", "import", `${from.project}/gitlab.docsearch`, "--name", "gl", "--no-config"],
    to.context(),
  );
  match(imported, /^Imported the index gl from .*: 2 documents, /);
  assertEquals((await Array.fromAsync(Deno.readDir(`${to.state}/indexes`))).map((e) => e.name), ["gl.db"]);
  match(
    await succeeds(["search", "gl", "register", "runner"], to.context()),
    /^1\. Runners › Register a runner/,
  );
});

// ---- mcp ---------------------------------------------------------------------------------------------

const INITIALIZE = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: {
    protocolVersion: "2025-06-18",
    capabilities: {},
    clientInfo: { name: "in-process", version: "0" },
  },
};
const INITIALIZED = { jsonrpc: "2.0", method: "notifications/initialized" };

const call = (id: number, name: string, args: Record<string, unknown>) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: { name, arguments: args },
});

const lines = (...messages: unknown[]) => messages.map((message) => JSON.stringify(message) + "\n").join("");

interface Answer {
  id: number;
  result?: {
    content?: { text: string }[];
    isError?: boolean;
    serverInfo?: { name: string };
    instructions?: string;
    tools?: { name: string; _meta?: Record<string, unknown> }[];
  };
}

/** The messages the server wrote, by id. */
function answers(ctx: CapturedContext): Map<number, Answer> {
  const parsed = ctx.out.map((line) => JSON.parse(line) as Answer);
  return new Map(parsed.map((answer) => [answer.id, answer]));
}

const textOf = (answer: Answer | undefined) => answer?.result?.content?.[0].text ?? "";

Deno.test("mcp in process: requests read from the context's stdin are all answered on its stdout before the end of the input ends the server", async () => {
  await using m = await machine();
  const docs = await docsFolder(m);
  await succeeds(["index", "add", "gitlab", docs], m.context());

  const ctx = m.context(
    {},
    lines(
      INITIALIZE,
      INITIALIZED,
      call(2, "search", { query: "register a runner" }),
      call(3, "list_indexes", {}),
      call(4, "search", { index: "nope", query: "x" }),
      { jsonrpc: "2.0", id: 5, method: "tools/list" },
    ),
  );
  assertEquals(await main(["mcp"], ctx), 0);
  assertEquals(ctx.err, []);
  const by = answers(ctx);
  assertEquals([...by.keys()].sort(), [1, 2, 3, 4, 5]);
  assertEquals(by.get(1)?.result?.serverInfo?.name, "docsearch");
  // The instructions name the indexes there are; search is loaded up front where tools are deferred.
  match(by.get(1)?.result?.instructions ?? "", / The indexes here: gitlab\.$/);
  const tools = by.get(5)?.result?.tools ?? [];
  assertEquals(tools.map((tool) => [tool.name, tool._meta]), [
    ["search", { "anthropic/alwaysLoad": true }],
    ["list_indexes", undefined],
  ]);
  match(
    textOf(by.get(2)),
    new RegExp(`\n\n1\\. Runners › Register a runner  \\(gitlab\\)\n   ${docs}/guide/runners\\.md\n`),
  );
  // list_indexes reads the config (index add wrote the entry) before it answers: answered all the same.
  match(
    textOf(by.get(3)),
    /^1 local documentation index .*\n- gitlab: 2 documents, .*\n {3}keywords: gitlab/s,
  );
  assertEquals(by.get(4)?.result?.isError, true);
  match(textOf(by.get(4)), /there is no index nope \(there are: gitlab\)/);
});

Deno.test("mcp in process: a line that is no message is logged and passed over; a cancelled request is not waited for", async () => {
  await using m = await machine();
  const ctx = m.context(
    {},
    lines(INITIALIZE, INITIALIZED) + "not json\n" +
      lines(call(2, "list_indexes", {}), {
        jsonrpc: "2.0",
        method: "notifications/cancelled",
        params: { requestId: 2 },
      }, call(3, "list_indexes", {})),
  );
  let timer: ReturnType<typeof setTimeout> | undefined;
  const hung = new Promise<"hung">((resolve) => timer = setTimeout(() => resolve("hung"), 10_000));
  try {
    assertEquals(await Promise.race([main(["mcp"], ctx), hung]), 0);
  } finally {
    clearTimeout(timer);
  }
  assertEquals(ctx.err.length, 1, ctx.err.join("\n"));
  match(ctx.err[0], /^docsearch-hook mcp: /);
  const by = answers(ctx);
  assertEquals(by.has(2), false);
  match(textOf(by.get(3)), /no local documentation indexes yet/);
});

Deno.test("mcp in process: a last request the input ends without a line break is answered", async () => {
  await using m = await machine();
  const ctx = m.context({}, lines(INITIALIZE, INITIALIZED) + JSON.stringify(call(2, "list_indexes", {})));
  assertEquals(await main(["mcp"], ctx), 0);
  assertEquals(ctx.err, []);
  match(textOf(answers(ctx).get(2)), /no local documentation indexes yet/);
  // White space after the last line break is no message, and no error either.
  const trailing = m.context({}, lines(INITIALIZE, INITIALIZED, call(2, "list_indexes", {})) + " \t ");
  assertEquals(await main(["mcp"], trailing), 0);
  assertEquals(trailing.err, []);
  match(textOf(answers(trailing).get(2)), /no local documentation indexes yet/);
});

Deno.test("mcp in process: indexes that cannot be listed (a file where their folder goes) do not stop the server; its tools say why", async () => {
  await using m = await machine();
  await Deno.mkdir(m.state, { recursive: true });
  await Deno.writeTextFile(`${m.state}/indexes`, "not a folder");
  const ctx = m.context(
    {},
    lines(INITIALIZE, INITIALIZED, call(2, "search", { query: "register a runner" }), {
      jsonrpc: "2.0",
      id: 3,
      method: "tools/list",
    }),
  );
  assertEquals(await main(["mcp"], ctx), 0);
  const by = answers(ctx);
  assertEquals(by.get(1)?.result?.serverInfo?.name, "docsearch");
  assertEquals(by.get(2)?.result?.isError, true);
  match(textOf(by.get(2)), /^search failed: Not a directory .*readdir .*\/indexes/);
  assertEquals(by.get(3)?.result?.tools?.map((tool) => tool.name), ["search", "list_indexes"]);
  match(ctx.err[0], /^docsearch-hook mcp: the indexes cannot be listed: /);
});

Deno.test("mcp instructions: the indexes by name, at most 40, the rest counted", () => {
  assertEquals(instructions([]).includes("indexes here"), false);
  match(instructions(["gitlab", "npm-react-18.3.1"]), / The indexes here: gitlab, npm-react-18\.3\.1\.$/);
  const many = Array.from({ length: 45 }, (_, i) => `index-${i}`);
  match(instructions(many), /index-39 and 5 more \(list_indexes lists all\)\.$/);
  assertEquals(instructions(many).includes("index-40"), false);
});
