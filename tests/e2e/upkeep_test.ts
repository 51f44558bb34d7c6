/**
 * The dependency docs of a project kept built with nothing typed: an npm project whose node_modules npm itself
 * installed from the registry, with no index; `docsearch-hook mcp` started as the agent starts it (a process
 * in the project's folder, its stdin held open for the session), driven by the official MCP SDK client. Within
 * a measured time the docs are built and listed in the project's local config layer while `search` answers
 * throughout; an install that changes the lockfile rebuilds what changed and nothing else; two sessions at
 * once build each package once.
 */
import { deepStrictEqual as assertEquals, match, ok } from "node:assert/strict";
// @ts-types="@modelcontextprotocol/sdk/client/index"
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
// @ts-types="@modelcontextprotocol/sdk/client/stdio"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { noFetching, runProgram, type Sandbox, sandbox, SELF } from "../helpers.ts";

/** Real packages: a large typed API (zod), a README with an API reference (debug), a one-function README (ms). */
const PACKAGES = { zod: "4.1.12", debug: "4.4.3", ms: "2.1.3" };
/** Every installed package is listed, ms's few words too: the hook's gate decides what they answer. */
const LISTED = ["debug", "ms", "zod"];
/** The longest the first build may take, start to listed: a few seconds are expected (see the log). */
const BUILD_BOUND_MS = 60_000;

const npm = async (project: string, args: string[]) => {
  const out = await runProgram(
    "npm",
    [...args, "--ignore-scripts", "--no-audit", "--no-fund", "--loglevel=error"],
    { env: Deno.env.toObject(), cwd: project },
  );
  assertEquals(out.code, 0, out.stderr);
};

async function npmProject(box: Sandbox, name: string): Promise<string> {
  const project = `${box.home}/${name}`;
  await Deno.mkdir(project);
  await Deno.writeTextFile(`${project}/package.json`, JSON.stringify({ name, dependencies: PACKAGES }));
  await npm(project, ["install"]);
  return project;
}

interface Session {
  client: Client;
  stderr: () => string;
  close(): Promise<void>;
}

/** The server as the agent starts it: in the project's folder, with the session's stdin. */
async function session(box: Sandbox, project: string): Promise<Session> {
  const transport = new StdioClientTransport({
    command: SELF[0],
    args: [...SELF.slice(1), "mcp"],
    env: { ...box.env, USERPROFILE: box.home },
    cwd: project,
    stderr: "pipe",
  });
  let stderr = "";
  transport.stderr?.on("data", (chunk: Uint8Array) => stderr += new TextDecoder().decode(chunk));
  const client = new Client({ name: "docsearch-test", version: "0" });
  await client.connect(transport);
  return { client, stderr: () => stderr, close: () => client.close() };
}

const textOf = (result: Awaited<ReturnType<Client["callTool"]>>) =>
  (result.content as { type: string; text: string }[])[0].text;

/** The packages the project's local config layer sends web searches for, with the index each names. */
function listed(project: string): Record<string, string> {
  try {
    const config = JSON.parse(Deno.readTextFileSync(`${project}/.claude/docsearch.local.json`));
    return Object.fromEntries(
      config.databases.map((
        d: { name: string; tool_args: { index: string } },
      ) => [d.name, d.tool_args.index]),
    );
  } catch {
    return {};
  }
}

/** The packages the server's log says it built ("… zod 4.1.12 indexed (…)"), in order. */
const builtIn = (log: string) => [...log.matchAll(/: (\S+) (\S+) indexed \(/g)].map((m) => `${m[1]}@${m[2]}`);

/**
 * Searches without pause until `done` holds: every search is answered (no error), and how long each took.
 * Returns the latencies.
 */
async function searchUntil(client: Client, done: () => boolean, boundMs: number): Promise<number[]> {
  const latencies: number[] = [];
  const start = performance.now();
  while (!done()) {
    ok(performance.now() - start < boundMs, `not done within ${boundMs} ms`);
    const asked = performance.now();
    const answer = await client.callTool({ name: "search", arguments: { query: "parse a schema" } });
    latencies.push(performance.now() - asked);
    assertEquals(answer.isError, undefined, textOf(answer));
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return latencies;
}

const stats = (latencies: number[]) =>
  `${latencies.length} searches, median ${
    latencies.toSorted((a, b) => a - b)[Math.floor(latencies.length / 2)].toFixed(0)
  } ms, slowest ${Math.max(...latencies).toFixed(0)} ms`;

Deno.test("upkeep: the MCP server the agent starts in an npm project builds its dependency docs and lists them, search answering throughout; an upgrade rebuilds only the upgraded package", async () => {
  await using box = await sandbox();
  await noFetching(box);
  const project = await npmProject(box, "app");
  const indexes = `${box.state}/indexes`;

  const started = performance.now();
  const server = await session(box, project);
  try {
    const connected = performance.now() - started;
    const latencies = await searchUntil(
      server.client,
      () => LISTED.every((name) => name in listed(project)),
      BUILD_BOUND_MS,
    );
    const builtMs = performance.now() - started;
    console.log(
      `  first build: connected in ${connected.toFixed(0)} ms, all listed ${(builtMs / 1000).toFixed(2)} s ` +
        `after start; meanwhile ${stats(latencies)}`,
    );
    // Searches were answered while the docs were being built, not only after.
    ok(latencies.length >= 2, stats(latencies));
    assertEquals(listed(project), { debug: "npm-debug-4.4.3", ms: "npm-ms-2.1.3", zod: "npm-zod-4.1.12" });
    assertEquals(builtIn(server.stderr()).sort(), ["debug@4.4.3", "ms@2.1.3", "zod@4.1.12"], server.stderr());
    const found = await server.client.callTool({
      name: "search",
      arguments: { index: "npm-zod-4.1.12", query: "safeParse" },
    });
    match(textOf(found), /safeParse/i);
    // list_indexes says so too, with the progress the record keeps.
    const list = textOf(await server.client.callTool({ name: "list_indexes", arguments: {} }));
    match(list, /- npm-zod-4\.1\.12: /);
    match(
      list,
      /\n\nDependency docs of this project \(.*\): up to date: 3 of 3 packages ready \(3 built now, 0 before\)/,
    );

    // An upgrade of debug changes the lockfile: debug is built at its new version, the others are not touched.
    const zodIndex = Deno.statSync(`${indexes}/npm-zod-4.1.12.db`).mtime?.getTime();
    const msIndex = Deno.statSync(`${indexes}/npm-ms-2.1.3.db`).mtime?.getTime();
    const before = server.stderr().length;
    const upgrading = performance.now();
    await npm(project, ["install", "debug@4.4.1"]);
    const rebuilt = await searchUntil(
      server.client,
      () => listed(project).debug === "npm-debug-4.4.1",
      BUILD_BOUND_MS,
    );
    console.log(
      `  after npm install debug@4.4.1: listed ${((performance.now() - upgrading) / 1000).toFixed(2)} s ` +
        `after the install began; meanwhile ${stats(rebuilt)}`,
    );
    assertEquals(builtIn(server.stderr().slice(before)), ["debug@4.4.1"], server.stderr().slice(before));
    assertEquals(Deno.statSync(`${indexes}/npm-zod-4.1.12.db`).mtime?.getTime(), zodIndex);
    assertEquals(Deno.statSync(`${indexes}/npm-ms-2.1.3.db`).mtime?.getTime(), msIndex);
    assertEquals(listed(project), { debug: "npm-debug-4.4.1", ms: "npm-ms-2.1.3", zod: "npm-zod-4.1.12" });
  } finally {
    await server.close();
  }
});

Deno.test("upkeep: two sessions started at once in one project build each package once", async () => {
  await using box = await sandbox();
  await noFetching(box);
  const project = await npmProject(box, "app");
  const sessions = await Promise.all([session(box, project), session(box, project)]);
  try {
    await searchUntil(
      sessions[0].client,
      () => LISTED.every((name) => name in listed(project)),
      BUILD_BOUND_MS,
    );
    // The other session's round: it waited for the build lock, then found every package built.
    const record = async () =>
      textOf(await sessions[1].client.callTool({ name: "list_indexes", arguments: {} }));
    const start = performance.now();
    while (!/: up to date: 3 of 3/.test(await record())) {
      ok(performance.now() - start < 20_000, await record());
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const built = sessions.flatMap(({ stderr }) => builtIn(stderr()));
    assertEquals(
      built.sort(),
      ["debug@4.4.3", "ms@2.1.3", "zod@4.1.12"],
      sessions.map((s) => s.stderr()).join("\n"),
    );
  } finally {
    await Promise.all(sessions.map((s) => s.close()));
  }
});
