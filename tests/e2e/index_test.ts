/** `index` and `search` end to end: real processes on a docs folder made by the test, in a temp HOME. */
import { deepStrictEqual as assertEquals, match, ok } from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { packIndex, unpackIndex } from "../../lib/docs/share.ts";
import { runCli, type Sandbox, sandbox, succeeded } from "../helpers.ts";

const cli = (box: Sandbox, args: string[]) => runCli(args, { env: box.env });

async function docsFolder(box: Sandbox): Promise<string> {
  const docs = `${box.home}/docs`;
  await Deno.mkdir(`${docs}/guide`, { recursive: true });
  await Deno.mkdir(`${docs}/node_modules/pkg`, { recursive: true });
  await Deno.writeTextFile(
    `${docs}/guide/runners.md`,
    "# Runners\n\n## Register a runner\n\nRun `gitlab-runner register` with the token.\n",
  );
  await Deno.writeTextFile(
    `${docs}/guide/cache.md`,
    "# Cache\n\nThe cache keeps dependencies between jobs.\n",
  );
  await Deno.writeTextFile(`${docs}/notes.txt`, "Plain notes about pipelines and stages.\n");
  await Deno.writeTextFile(`${docs}/node_modules/pkg/README.md`, "# Not docs\n\nregister runner\n");
  await Deno.writeFile(`${docs}/guide/logo.md`, new Uint8Array([0x89, 0x50, 0x00, 0x01, 0x02]));
  await Deno.writeFile(
    `${docs}/latin1.txt`,
    new Uint8Array([0x63, 0x61, 0x66, 0xe9, 0x20, 0x72, 0x75, 0x6e]),
  );
  return docs;
}

Deno.test("index add, search, refresh of changed files only, list and remove", async () => {
  await using box = await sandbox();
  const docs = await docsFolder(box);

  const added = await cli(box, ["index", "add", "gitlab", docs]);
  assertEquals(added.code, 0, added.stderr);
  match(
    added.stdout,
    /^Indexed gitlab from .*\/docs: 4 documents, \d+ chunks \(4 new or changed, 0 unchanged, 0 removed\)/,
  );
  match(added.stderr, /skipped .*logo\.md \(binary\)/);
  match(
    added.stdout,
    /Added the database "gitlab" in .*docsearch-config\.json: web searches about it now go to/,
  );

  // The redirect now names the built-in tool with arguments that search this index.
  const checked = await cli(box, ["check", "gitlab runner register", "--json"]);
  const reason = JSON.parse(checked.stdout).hookSpecificOutput.permissionDecisionReason;
  ok(reason.includes('mcp__docsearch__search {"index":"gitlab","query":"gitlab runner register"}'), reason);

  const found = await cli(box, ["search", "gitlab", "how do I register a runner?", "--json"]);
  assertEquals([found.code, found.stderr], [0, ""]);
  const results = JSON.parse(found.stdout);
  assertEquals(results[0].source, `${docs}/guide/runners.md`);
  assertEquals(results[0].trail, ["Register a runner"]);
  assertEquals(results[0].index, "gitlab");
  ok(!results.some((result: { source: string }) => result.source.includes("node_modules")));

  // FTS5 operators and quotes in a query are text, never an error.
  const odd = await cli(box, ["search", "all", 'NEAR( "cache* AND -jobs: OR', "--limit", "2"]);
  assertEquals([odd.code, odd.stderr], [0, ""]);
  match(odd.stdout, /^1\. Cache {2}\(gitlab\)\n/);

  await Deno.writeTextFile(`${docs}/guide/cache.md`, "# Cache\n\nArtifacts, not cache.\n");
  await Deno.remove(`${docs}/notes.txt`);
  const refreshed = await cli(box, ["index", "refresh", "gitlab"]);
  assertEquals(refreshed.code, 0, refreshed.stderr);
  match(refreshed.stdout, /3 documents, .*\(1 new or changed, 2 unchanged, 1 removed\)/);

  const listed = await cli(box, ["index", "list"]);
  match(listed.stdout, /^gitlab {2}3 documents, \d+ chunks {2}.*\/docs\n$/);
  const removed = await cli(box, ["index", "remove", "gitlab"]);
  assertEquals(removed.code, 0, removed.stderr);
  match(
    removed.stdout,
    /^Removed the index gitlab\.\nRemoved its database entry from .*docsearch-config\.json\.\n$/,
  );
  assertEquals((await cli(box, ["check", "gitlab runner register", "--json"])).stdout, "");
  match((await cli(box, ["index", "list"])).stdout, /^No indexes yet/);
});

Deno.test("index and search errors: usage 2, missing things 1, each with a way forward", async () => {
  await using box = await sandbox();
  const missing = await cli(box, ["index", "add", "x", `${box.home}/nope`]);
  assertEquals(missing.code, 1);
  match(missing.stderr, /there is no file or folder .*nope/);
  assertEquals((await cli(box, ["index", "add", "../evil", box.home])).code, 2);
  assertEquals((await cli(box, ["index", "frobnicate"])).code, 2);
  const noIndex = await cli(box, ["search", "gitlab", "runner"]);
  assertEquals(noIndex.code, 1);
  match(noIndex.stderr, /there is no index gitlab/);
  assertEquals((await cli(box, ["search", "all", "x", "--limit", "0"])).code, 2);
  assertEquals((await cli(box, ["search", "all"])).code, 2);
});

Deno.test("search while index add is writing: every search answers (exit 0, no error), none sees a broken index", async () => {
  await using box = await sandbox();
  const docs = `${box.home}/many`;
  await Deno.mkdir(docs);
  for (let i = 0; i < 600; i++) {
    await Deno.writeTextFile(
      `${docs}/page${i}.md`,
      `# Page ${i}\n\n## Cache\n\nThe cache of page ${i}. `.repeat(20),
    );
  }
  await cli(box, ["index", "add", "many", docs, "--no-config"]);
  // Touch every file so the second add rewrites all of them while the searches run.
  const later = new Date(Date.now() + 60_000);
  for (let i = 0; i < 600; i++) await Deno.utime(`${docs}/page${i}.md`, later, later);
  const writing = cli(box, ["index", "add", "many", docs, "--no-config"]);
  const searches = await Promise.all(
    Array.from({ length: 6 }, () => cli(box, ["search", "many", "cache page", "--json"])),
  );
  const written = await writing;
  assertEquals(written.code, 0, written.stderr);
  match(written.stdout, /600 documents, .*\(600 new or changed/);
  for (const search of searches) {
    assertEquals([search.code, search.stderr], [0, ""]);
    assertEquals(JSON.parse(search.stdout).length, 5);
  }
});

Deno.test("each result's snippet is its own passage's text; a broken index is skipped by `all`; `all` is no index name", async () => {
  await using box = await sandbox();
  const docs = `${box.home}/docs`;
  await Deno.mkdir(docs);
  // The first passage holding "index" is elsewhere: a snippet taken from the wrong row would show it.
  await Deno.writeTextFile(
    `${docs}/a.md`,
    "# Acronyms\n\nDDL: statements that create an index or a table.\n",
  );
  await Deno.writeTextFile(
    `${docs}/b.md`,
    "# Create Index\n\n## Concurrently\n\nBuild the index concurrently without locking writes.\n",
  );
  assertEquals((await cli(box, ["index", "add", "pg", docs, "--no-config"])).code, 0);
  const results = JSON.parse((await cli(box, ["search", "pg", "index concurrently", "--json"])).stdout);
  assertEquals(results[0].source, `${docs}/b.md`);
  match(results[0].snippet, /\*\*concurrently\*\* without locking/);

  await Deno.writeTextFile(`${box.state}/indexes/junk.db`, "not a database at all, just text\n".repeat(100));
  const all = await cli(box, ["search", "all", "index concurrently", "--json"]);
  assertEquals(all.code, 0);
  assertEquals(JSON.parse(all.stdout)[0].source, `${docs}/b.md`);
  match(all.stderr, /the index junk cannot be read: .*skipped; fix: docsearch-hook index remove junk/);
  const alone = await cli(box, ["search", "junk", "index"]);
  assertEquals(alone.code, 1);
  match(alone.stderr, /the index junk cannot be read/);
  match((await cli(box, ["index", "list"])).stdout, /junk {2}cannot be read: /);

  assertEquals((await cli(box, ["index", "add", "all", docs, "--no-config"])).code, 2);
});

Deno.test("index add follows symlinks within the folder, once each; a link out of it and a dangling one are skipped", async () => {
  await using box = await sandbox();
  const docs = `${box.home}/docs`;
  // Linked to, not walked: a dot folder is left out of the walk.
  const real = `${docs}/.generated`;
  await Deno.mkdir(`${real}/sub`, { recursive: true });
  await Deno.writeTextFile(`${real}/kiwi.md`, "# Kiwi\n\nkiwi text\n");
  await Deno.writeTextFile(`${real}/sub/mango.md`, "# Mango\n\nmango text\n");
  await Deno.writeTextFile(`${docs}/own.md`, "# Own\n\nown text\n");
  await Deno.writeTextFile(`${box.home}/secret.md`, "# Secret\n\nsecret text\n");
  await Deno.symlink(`${real}/kiwi.md`, `${docs}/kiwi.md`);
  await Deno.symlink(`${real}/sub`, `${docs}/sub`);
  await Deno.symlink(docs, `${docs}/loop`);
  await Deno.symlink(`${box.home}/nowhere.md`, `${docs}/dangling.md`);
  await Deno.symlink(`${box.home}/secret.md`, `${docs}/notes.md`);
  const added = await cli(box, ["index", "add", "links", docs, "--no-config"]);
  assertEquals(added.code, 0, added.stderr);
  match(added.stdout, /: 3 documents,/);
  match(added.stderr, new RegExp(`skipped ${docs}/notes\\.md \\(a link out of ${docs}\\)`));
  const found = JSON.parse((await cli(box, ["search", "links", "mango", "--json"])).stdout);
  assertEquals(found[0].source, `${docs}/sub/mango.md`);
});

Deno.test("index add reads a page once: one format of X.html and X.txt, one of two copies or a link; summaries answer", async () => {
  await using box = await sandbox();
  const docs = `${box.home}/docs`;
  await Deno.mkdir(docs);
  await Deno.writeTextFile(
    `${docs}/tuning.html`,
    '<html><head><title>Tuning</title><meta name="description" content="Make slow queries fast"></head>' +
      "<body><main><h1>Tuning</h1><p>Planner settings.</p><h2>Costs</h2><p>Raise random_page_cost.</p></main></body></html>",
  );
  await Deno.writeTextFile(`${docs}/tuning.txt`, "Tuning\n\nPlanner settings.\n\nRaise random_page_cost.\n");
  await Deno.writeTextFile(`${docs}/kiwi.md`, "# Kiwi\n\nkiwi text\n");
  await Deno.writeTextFile(`${docs}/kiwi-copy.md`, "# Kiwi\n\nkiwi text\n");
  await Deno.symlink(`${docs}/kiwi.md`, `${docs}/kiwi-link.md`);
  const added = await cli(box, ["index", "add", "d", docs, "--no-config"]);
  assertEquals(added.code, 0, added.stderr);
  match(added.stdout, /: 2 documents, .*2 the same as another file\)/);
  const sources = (query: string) =>
    cli(box, ["search", "d", query, "--json"]).then((out) =>
      JSON.parse(out.stdout).map((r: { source: string }) => r.source)
    );
  assertEquals(await sources("kiwi"), [`${docs}/kiwi-copy.md`]);
  // Only the page's description says "slow" and "fast"; its passage about costs is found by it.
  assertEquals(await sources("slow queries"), [`${docs}/tuning.html`]);
  // A refresh with nothing changed reads the copies again and still keeps them out.
  const refreshed = await cli(box, ["index", "refresh", "d"]);
  match(
    refreshed.stdout,
    /: 2 documents, .*\(0 new or changed, 2 unchanged, 0 removed, 2 the same as another file\)/,
  );
});

Deno.test("an index an older version built is refused by search with the fix, and refresh rebuilds it", async () => {
  await using box = await sandbox();
  const docs = `${box.home}/docs`;
  await Deno.mkdir(docs);
  await Deno.writeTextFile(`${docs}/a.md`, "# A\n\napple text\n");
  succeeded(await cli(box, ["index", "add", "old", docs, "--no-config"]));
  const db = new DatabaseSync(`${box.state}/indexes/old.db`);
  // The layout before pages had summaries.
  db.exec(
    "DROP TABLE chunks; CREATE VIRTUAL TABLE chunks USING fts5(title, trail, body, document UNINDEXED);",
  );
  db.close();
  const refused = await cli(box, ["search", "old", "apple"]);
  assertEquals(refused.code, 1);
  match(refused.stderr, /built by an older docsearch-hook.*\n.*docsearch-hook index refresh old/);
  const refreshed = await cli(box, ["index", "refresh", "old"]);
  assertEquals(refreshed.code, 0, refreshed.stderr);
  match(refreshed.stdout, /1 new or changed/);
  match((await cli(box, ["search", "old", "apple"])).stdout, /\*\*apple\*\*/);
});

async function sharedIndex(box: Sandbox): Promise<string> {
  const docs = `${box.home}/docs`;
  await Deno.mkdir(docs, { recursive: true });
  await Deno.writeTextFile(`${docs}/kiwi.md`, "# Kiwi\n\nPeel the kiwi with a spoon.\n");
  await Deno.writeTextFile(`${docs}/mango.md`, "# Mango\n\nCut the mango along the stone.\n");
  succeeded(await cli(box, ["index", "add", "fruit", docs, "--no-config"]));
  const file = `${box.home}/fruit.dsi`;
  const exported = succeeded(await cli(box, ["index", "export", "fruit", file]));
  match(
    exported,
    /^Exported the index fruit to .*fruit\.dsi \(\d+\.\d MB\), sha256 [0-9a-f]{64}\.\nImport it elsewhere with: docsearch-hook index import .* --sha256 [0-9a-f]{64}\n$/,
  );
  return file;
}

Deno.test("index export then import on another machine: the same results, and its config entry", async () => {
  await using first = await sandbox();
  const file = await sharedIndex(first);
  const sha256 =
    /sha256 ([0-9a-f]{64})/.exec(succeeded(await cli(first, ["index", "export", "fruit", file])))![1];

  await using second = await sandbox();
  const imported = await cli(second, ["index", "import", file, "--sha256", sha256]);
  assertEquals(imported.code, 0, imported.stderr);
  match(imported.stdout, /^Imported the index fruit from .*: 2 documents, 2 chunks, built from .*\/docs\.\n/);
  match(imported.stdout, /Added the database "fruit" in .*docsearch-config\.json/);
  const results = (box: Sandbox) =>
    cli(box, ["search", "fruit", "peel", "--json"]).then((out) => JSON.parse(out.stdout));
  assertEquals(await results(second), await results(first));
  // An index of that name is not overwritten; another name is fine.
  const again = await cli(second, ["index", "import", file]);
  assertEquals(again.code, 1);
  match(
    again.stderr,
    /there is already an index fruit\n.*index remove fruit first, or import it under another name with --name/,
  );
  succeeded(await cli(second, ["index", "import", file, "--name", "fruit2", "--no-config"]));
  match(succeeded(await cli(second, ["index", "list"])), /fruit2 {2}2 documents/);
});

Deno.test("index import refuses a wrong --sha256, a truncated or altered file, and installs nothing", async () => {
  await using box = await sandbox();
  const file = await sharedIndex(box);
  const bytes = await Deno.readFile(file);
  const tries: [string, Uint8Array, string[], RegExp][] = [
    ["wrong.dsi", bytes, ["--sha256", "0".repeat(64)], /its sha256 is [0-9a-f]{64}, not the 0{64} you gave/],
    ["cut.dsi", bytes.subarray(0, bytes.length - 100), [], /it is truncated/],
    [
      "altered.dsi",
      bytes.map((byte, i) => i === bytes.length - 50 ? byte ^ 1 : byte),
      [],
      /does not match its checksum/,
    ],
    ["notes.dsi", new TextEncoder().encode("hello"), [], /not an index exported by docsearch-hook/],
  ];
  for (const [name, content, flags, reason] of tries) {
    await Deno.writeFile(`${box.home}/${name}`, content);
    const out = await cli(box, ["index", "import", `${box.home}/${name}`, "--name", "other", ...flags]);
    assertEquals(out.code, 1, `${name}: ${out.stderr}`);
    match(out.stderr, reason, name);
    match(out.stderr, /fix: get the file again from where it was published/);
  }
  const usage = await cli(box, ["index", "import", file, "--sha256", "abc"]);
  assertEquals(usage.code, 2);
  match(usage.stderr, /--sha256 takes the 64 hex digits/);
  assertEquals((await Array.fromAsync(Deno.readDir(`${box.state}/indexes`))).map((e) => e.name).sort(), [
    "fruit.db",
  ]);
});

Deno.test("index import from a URL (a server on 127.0.0.1), and an HTTP error said as such", async () => {
  await using box = await sandbox();
  const file = await sharedIndex(box);
  const bytes = await Deno.readFile(file);
  await using server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    (request) =>
      new URL(request.url).pathname === "/fruit.dsi"
        ? new Response(bytes)
        : new Response("no", { status: 404 }),
  );
  const base = `http://127.0.0.1:${server.addr.port}`;
  const sha256 =
    /sha256 ([0-9a-f]{64})/.exec(succeeded(await cli(box, ["index", "export", "fruit", file])))![1];
  const imported = await cli(box, [
    "index",
    "import",
    `${base}/fruit.dsi`,
    "--sha256",
    sha256,
    "--name",
    "remote",
    "--no-config",
  ]);
  assertEquals(imported.code, 0, imported.stderr);
  match(
    imported.stdout,
    /^Imported the index remote from http:\/\/127\.0\.0\.1:\d+\/fruit\.dsi: 2 documents/,
  );
  match(succeeded(await cli(box, ["search", "remote", "stone"])), /\*\*stone\*\*/);
  const missing = await cli(box, ["index", "import", `${base}/nothing.dsi`, "--name", "nothing"]);
  assertEquals(missing.code, 1);
  match(missing.stderr, /cannot download http:\/\/127\.0\.0\.1:\d+\/nothing\.dsi: HTTP 404/);
});

Deno.test("a copy left out while its twin was there is indexed once the twin is gone or changed", async () => {
  await using box = await sandbox();
  const docs = `${box.home}/docs`;
  await Deno.mkdir(docs);
  await Deno.writeTextFile(`${docs}/a.md`, "# Kiwi\n\nkiwi text\n");
  await Deno.writeTextFile(`${docs}/b.md`, "# Kiwi\n\nkiwi text\n");
  await Deno.writeTextFile(`${docs}/d.md`, "# Lime\n\nlime text\n");
  succeeded(await cli(box, ["index", "add", "d", docs, "--no-config"]));
  const sources = async (query: string) =>
    JSON.parse((await cli(box, ["search", "d", query, "--json"])).stdout).map((r: { source: string }) =>
      r.source
    );
  assertEquals(await sources("kiwi"), [`${docs}/a.md`]);
  // The twin gone: the copy is all there is of that text.
  await Deno.remove(`${docs}/a.md`);
  // A new copy, read before its twin (sorted first), while the twin changes: it is compared with the new text.
  await Deno.writeTextFile(`${docs}/c.md`, "# Lime\n\nlime text\n");
  await Deno.writeTextFile(`${docs}/d.md`, "# Lime\n\nlime text, revised\n");
  const refreshed = succeeded(await cli(box, ["index", "refresh", "d"]));
  match(refreshed, /: 3 documents, .*\(3 new or changed, 0 unchanged, 1 removed\)/);
  assertEquals(await sources("kiwi"), [`${docs}/b.md`]);
  assertEquals((await sources("lime")).sort(), [`${docs}/c.md`, `${docs}/d.md`]);
});

Deno.test("index import: options checked before anything is read, code in the index refused, the file's source never a domain", async () => {
  await using box = await sandbox();
  const file = await sharedIndex(box);
  const typo = await cli(box, ["index", "import", `${box.home}/nowhere.dsi`, "--keywords", " , "]);
  assertEquals(typo.code, 2);
  match(typo.stderr, /--keywords needs at least one value/);

  // An export whose index carries a trigger: well-formed, its checksum right, and still not installed.
  const copy = `${box.home}/hostile.db`;
  await Deno.copyFile(`${box.state}/indexes/fruit.db`, copy);
  const db = new DatabaseSync(copy);
  db.exec("PRAGMA journal_mode = DELETE");
  db.exec("CREATE TRIGGER t AFTER INSERT ON meta BEGIN DELETE FROM documents; END");
  const counts = db.prepare(
    "SELECT (SELECT count(*) FROM documents) AS d, (SELECT count(*) FROM chunks) AS c",
  ).get() as {
    d: number;
    c: number;
  };
  db.close();
  const hostile = await packIndex(
    {
      name: "fruit",
      source: "https://github.com/",
      documents: counts.d,
      chunks: counts.c,
      writtenBy: "0.1.0",
    },
    await Deno.readFile(copy),
  );
  await Deno.writeFile(`${box.home}/hostile.dsi`, hostile);
  const refused = await cli(box, ["index", "import", `${box.home}/hostile.dsi`, "--name", "hostile"]);
  assertEquals(refused.code, 1);
  match(refused.stderr, /the index in it holds code: t/);
  assertEquals(await Deno.stat(`${box.state}/indexes/hostile.db`).then(() => true, () => false), false);

  // A source the file names is its author's word: it describes the entry, it does not make a domain.
  const fair = await packIndex(
    { name: "fruit", source: "https://github.com/", documents: 2, chunks: 2, writtenBy: "0.1.0" },
    (await unpackIndex(await Deno.readFile(file))).index,
  );
  await Deno.writeFile(`${box.home}/fair.dsi`, fair);
  succeeded(await cli(box, ["index", "import", `${box.home}/fair.dsi`, "--name", "fair"]));
  const config = JSON.parse(await Deno.readTextFile(`${box.home}/.claude/hooks/docsearch-config.json`));
  const entry = config.databases.find((d: { name: string }) => d.name === "fair");
  assertEquals(entry.domains, undefined);
  match(entry.description, /https:\/\/github\.com\//);
});
