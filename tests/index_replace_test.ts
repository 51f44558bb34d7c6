/**
 * `index add --replace` and `index refresh` in process against a site on 127.0.0.1: a run that reads nothing
 * changes nothing (what the index says it holds, the config entry), and replacing a site by another version on
 * the same host keeps that host among the entry's domains.
 */
import { deepStrictEqual as assertEquals, match } from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { main } from "../lib/cli/commands.ts";
import { type CapturedContext, type Machine, machine } from "./command_context.ts";

/** A page of its own at each of `folders` (emptied, the site serves none); anything else is a 404. */
function serveDocs(folders: string[]): Deno.HttpServer<Deno.NetAddr> & { base: string } {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, (request) => {
    const path = new URL(request.url).pathname;
    if (!folders.includes(path)) return new Response("not here", { status: 404 });
    return new Response(
      `<html><head><title>Guide</title></head><body><main><h1>Guide ${path}</h1><p>Widgets.</p></main></body></html>`,
      { headers: { "content-type": "text/html" } },
    );
  });
  return Object.assign(server, { base: `http://127.0.0.1:${server.addr.port}` });
}

async function succeeds(argv: string[], ctx: CapturedContext): Promise<string> {
  const code = await main(argv, ctx);
  assertEquals([code, ctx.err], [0, []], ctx.out.join("\n"));
  return ctx.out.join("\n");
}

/** Runs the command line, which must exit 1 and print nothing on stdout; returns its error stream. */
async function fails(argv: string[], ctx: CapturedContext): Promise<string> {
  const code = await main(argv, ctx);
  assertEquals([code, ctx.out], [1, []], ctx.err.join("\n"));
  return ctx.err.join("\n");
}

const configOf = (m: Machine) => `${m.home}/.claude/hooks/docsearch-config.json`;

/** What the index file records of its source (crawl_frontier.ts's recordPass). */
function recorded(m: Machine, name: string): Record<string, string> {
  const db = new DatabaseSync(`${m.state}/indexes/${name}.db`, { readOnly: true });
  try {
    const rows = db.prepare(
      "SELECT key, value FROM meta WHERE key IN ('root', 'source', 'max_pages', 'patterns') ORDER BY key",
    ).all() as { key: string; value: string }[];
    return Object.fromEntries(rows.map(({ key, value }) => [key, value]));
  } finally {
    db.close();
  }
}

Deno.test("index add --replace by a URL nothing can be read from fails and leaves the folder's index and its entry as they were", async () => {
  await using m = await machine();
  const docs = `${m.project}/docs`;
  await Deno.mkdir(docs);
  await Deno.writeTextFile(`${docs}/runners.md`, "# Runners\n\nRegister a runner with a token.\n");
  await succeeds(["index", "add", "gitlab", "docs"], m.context());
  const config = await Deno.readTextFile(configOf(m));
  await using site = serveDocs([]);
  const typo = `${site.base}/typo/`;

  assertEquals(
    await fails(["index", "add", "gitlab", typo, "--replace"], m.context()),
    `docsearch-hook index: cannot read ${typo}: HTTP 404\n  fix: check the URL`,
  );
  // A folder that is not there fails before the index is opened.
  match(
    await fails(["index", "add", "gitlab", "dosc", "--replace"], m.context()),
    new RegExp(`^docsearch-hook index: there is no file or folder ${m.project}/dosc\n`),
  );

  assertEquals(await succeeds(["index", "list"], m.context()), `gitlab  1 document, 1 chunk  ${docs}`);
  assertEquals(recorded(m, "gitlab"), { root: docs });
  assertEquals(await Deno.readTextFile(configOf(m)), config);
  // The folder is still the index's source: adding it again is a refresh, and so is refresh.
  for (const argv of [["index", "add", "gitlab", "docs"], ["index", "refresh", "gitlab"]]) {
    assertEquals(
      await succeeds(argv, m.context()),
      `Indexed gitlab from ${docs}: 1 document, 1 chunk (0 new or changed, 1 unchanged, 0 removed) in 0.0 s.`,
    );
  }
});

Deno.test("a replacement or a refresh of a site that reads nothing leaves what the index records of its source", async () => {
  await using m = await machine();
  const folders = ["/guide/"];
  await using site = serveDocs(folders);
  const guide = `${site.base}/guide/`;
  await succeeds(["index", "add", "guide", guide, "--keywords", "widgets", "--no-config"], m.context());
  const asAdded = {
    max_pages: "1000",
    patterns: '{"include":[],"exclude":[]}',
    root: guide,
    source: "crawl",
  };
  assertEquals(recorded(m, "guide"), asAdded);

  await fails(["index", "add", "guide", `${site.base}/typo/`, "--replace", "--max-pages", "5"], m.context());
  assertEquals(recorded(m, "guide"), asAdded);
  assertEquals(
    await succeeds(["index", "list"], m.context()),
    `guide  1 document, 1 chunk  ${guide} (crawled)`,
  );

  // The page gone: a refresh with other options reads nothing, and records none of them.
  folders.length = 0;
  await fails(["index", "refresh", "guide", "--max-pages", "5", "--exclude", "/guide/old/"], m.context());
  assertEquals(recorded(m, "guide"), asAdded);
});

Deno.test("index add --replace by another version on the same host keeps that host among the entry's domains", async () => {
  await using m = await machine();
  await using site = serveDocs(["/v1/", "/v2/"]);
  const entry = () => JSON.parse(Deno.readTextFileSync(configOf(m))).databases[0];
  await succeeds(
    [
      "index",
      "add",
      "guide",
      `${site.base}/v1/`,
      "--keywords",
      "widgets",
      "--domains",
      "127.0.0.1,example.com",
    ],
    m.context(),
  );
  assertEquals(entry().domains, ["127.0.0.1", "example.com"]);

  await succeeds(["index", "add", "guide", `${site.base}/v2/`, "--replace"], m.context());
  assertEquals(entry().domains, ["127.0.0.1", "example.com"]);
  assertEquals(entry().description, `guide documentation (from ${site.base}/v2/)`);
});

/** The documents an index holds, by address. */
function documents(m: Machine, name: string): string[] {
  const db = new DatabaseSync(`${m.state}/indexes/${name}.db`, { readOnly: true });
  try {
    return (db.prepare("SELECT source FROM documents ORDER BY source").all() as { source: string }[])
      .map((row) => row.source);
  } finally {
    db.close();
  }
}

/**
 * Versions of a docs site at /v1/, /v2/ and /v3/: each has a start page, an "install" page every version has
 * word for word, and a "changes" page of its own, except /v3/, a copy of /v2/ throughout. /l1/ and /l2/ have
 * the same llms-full.txt.
 */
function serveVersions(): Deno.HttpServer<Deno.NetAddr> & { base: string } {
  const html = (title: string, text: string) =>
    new Response(
      `<html><head><title>${title}</title></head><body><main><h1>${title}</h1><p>${text}</p>` +
        `<a href="install.html">install</a> <a href="changes.html">changes</a></main></body></html>`,
      { headers: { "content-type": "text/html" } },
    );
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, (request) => {
    const path = new URL(request.url).pathname;
    const [, folder, page] = /^\/(v[123]|l[12])\/(.*)$/.exec(path) ?? [];
    const version = folder === "v3" ? "v2" : folder;
    if (folder?.startsWith("l") && page === "llms-full.txt") {
      return new Response(
        "# Widgets\n\n## Installing\n\nRun the widget installer.\n\n## Frobnicating\n\nTurn the frobnicator.\n",
        { headers: { "content-type": "text/plain" } },
      );
    }
    if (folder?.startsWith("v")) {
      if (page === "") return html(`Widgets ${version}`, `The widget guide, ${version}.`);
      if (page === "install.html") return html("Installing", "Run the widget installer.");
      if (page === "changes.html") return html("Changes", `What ${version} changed.`);
    }
    return new Response("not here", { status: 404 });
  });
  return Object.assign(server, { base: `http://127.0.0.1:${server.addr.port}` });
}

Deno.test("index add --replace of a site by another version indexes the pages they share under the new addresses", async () => {
  await using m = await machine();
  await using site = serveVersions();
  const v = (folder: string, ...pages: string[]) => pages.map((page) => `${site.base}/${folder}/${page}`);
  await succeeds(["index", "add", "guide", `${site.base}/v1/`, "--no-config"], m.context());
  assertEquals(documents(m, "guide"), v("v1", "", "changes.html", "install.html"));

  // The install page is the same in v1 and v2: it is v2's now, not skipped as v1's (which then went).
  await succeeds(["index", "add", "guide", `${site.base}/v2/`, "--replace", "--no-config"], m.context());
  assertEquals(documents(m, "guide"), v("v2", "", "changes.html", "install.html"));

  // Every page of v3 is one of v2's: still a replacement, not "cannot read …: the same page as …".
  await succeeds(["index", "add", "guide", `${site.base}/v3/`, "--replace", "--no-config"], m.context());
  assertEquals(documents(m, "guide"), v("v3", "", "changes.html", "install.html"));

  // A refresh keeps them all.
  await succeeds(["index", "refresh", "guide"], m.context());
  assertEquals(documents(m, "guide"), v("v3", "", "changes.html", "install.html"));

  // The same for the pages of an llms-full.txt, replaced by another with the same pages.
  await succeeds(["index", "add", "notes", `${site.base}/l1/`, "--no-config"], m.context());
  assertEquals(documents(m, "notes"), v("l1", "llms-full.txt#frobnicating", "llms-full.txt#installing"));
  await succeeds(["index", "add", "notes", `${site.base}/l2/`, "--replace", "--no-config"], m.context());
  assertEquals(documents(m, "notes"), v("l2", "llms-full.txt#frobnicating", "llms-full.txt#installing"));
});

Deno.test("index add --replace of a folder by a copy of it, or by a site with the same pages, indexes the new source whole", async () => {
  await using m = await machine();
  await using site = serveVersions();
  for (const folder of ["old", "new"]) {
    await Deno.mkdir(`${m.project}/${folder}`);
    await Deno.writeTextFile(
      `${m.project}/${folder}/install.md`,
      "# Installing\n\nRun the widget installer.\n",
    );
  }
  await succeeds(["index", "add", "guide", "old", "--no-config"], m.context());
  await succeeds(["index", "add", "guide", "new", "--replace", "--no-config"], m.context());
  assertEquals(documents(m, "guide"), [`${m.project}/new/install.md`]);
  // A page whose text is a file's of the folder replaced is indexed as the site's.
  await succeeds(["index", "add", "guide", `${site.base}/l1/`, "--replace", "--no-config"], m.context());
  assertEquals(documents(m, "guide"), [
    `${site.base}/l1/llms-full.txt#frobnicating`,
    `${site.base}/l1/llms-full.txt#installing`,
  ]);
});
