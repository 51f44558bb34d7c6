/**
 * `index add <URL>` end to end: the real CLI crawling docs sites this test serves on 127.0.0.1, in a temp
 * HOME. The CLI's retry delays are 1 s and 4 s and cannot be changed from outside, so the failure cases are
 * built to wait as few of them as possible (see each test).
 */
import { deepStrictEqual as assertEquals, match, ok } from "node:assert/strict";
import { exists, runCli, type Sandbox, sandbox } from "../helpers.ts";

const cli = (box: Sandbox, args: string[]) => runCli(args, { env: box.env });

const MAX_FILE_BYTES = 10 * 1024 * 1024;

type Handler = (request: Request, url: URL) => Response | Promise<Response>;

/** A server on 127.0.0.1 (a free port) that records the paths asked for; `await using` shuts it down. */
function serve(routes: Map<string, Handler>) {
  const requests: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, (request) => {
    const url = new URL(request.url);
    requests.push(url.pathname + url.search);
    const route = routes.get(url.pathname);
    return route ? route(request, url) : new Response("Not found", { status: 404 });
  });
  const origin = `http://127.0.0.1:${server.addr.port}`;
  return {
    origin,
    requests,
    routes,
    /** How many times `path` was asked for. */
    count: (path: string) => requests.filter((asked) => asked === path).length,
    async [Symbol.asyncDispose]() {
      await server.shutdown();
    },
  };
}

const page = (body: string | Uint8Array<ArrayBuffer>, type = "text/html; charset=utf-8"): Handler => () =>
  new Response(body, { headers: { "content-type": type } });

/** A docs page with the furniture of a real site around its content. */
function layout(title: string, body: string): string {
  return `<!doctype html>
<html><head><meta charset="utf-8"><title>${title} | Test Docs</title>
<style>body { font-family: sans-serif }</style><script>var tracking = "scriptword";</script></head>
<body>
<header class="site-header">Test Docs bannerword</header>
<nav><a href="/docs/">Home</a> <a href="/docs/guide.html">Guide</a> <a href="/docs/api.html">API</a> navmenuword</nav>
<div class="sidebar"><a href="/docs/guide.html#install">Install</a> sidebarword</div>
<main>${body}</main>
<footer>Copyright footerword</footer>
</body></html>`;
}

/** A page with no links but its own: the order of a crawl over it is known. */
const plain = (title: string, body: string) =>
  `<!doctype html><html><head><title>${title}</title></head><body><main>${body}</main></body></html>`;

const latin1 = (text: string): Uint8Array<ArrayBuffer> => Uint8Array.from(text, (char) => char.charCodeAt(0));

interface SearchResult {
  source: string;
  title: string;
  trail: string[];
  snippet: string;
  index: string;
}

async function search(box: Sandbox, name: string, query: string): Promise<SearchResult[]> {
  const found = await cli(box, ["search", name, query, "--json", "--limit", "20"]);
  assertEquals([found.code, found.stderr], [0, ""], query);
  return JSON.parse(found.stdout);
}

const sources = (results: SearchResult[]) => [...new Set(results.map((result) => result.source))].sort();

/** The stderr lines `index add` prints for skipped pages. */
const skippedLines = (stderr: string) =>
  stderr.split("\n").filter((line) => line.startsWith("docsearch-hook index: skipped ")).sort();

Deno.test("index add <URL>: a docs site crawled in scope, its furniture left out, then refreshed", async () => {
  await using other = serve(
    new Map([["/docs/elsewhere.html", page(layout("Elsewhere", "<p>offsiteword</p>"))]]),
  );
  const routes = new Map<string, Handler>();
  await using site = serve(routes);
  const docs = `${site.origin}/docs/`;
  routes.set("/robots.txt", page("User-agent: *\nDisallow: /docs/private/\n", "text/plain"));
  routes.set(
    "/sitemap.xml",
    page(
      `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <url><loc>${docs}</loc></url>
  <url><loc>${site.origin}/docs/hidden.html</loc></url>
  <url><loc>${site.origin}/blog/outside.html</loc></url>
</urlset>`,
      "application/xml",
    ),
  );
  routes.set(
    "/docs/",
    page(layout(
      "Welcome",
      `<h1>Welcome</h1><p>Start with the guide. homeword</p><ul>
        <li><a href="guide.html#install">Install</a></li>
        <li><a href="api.html">API</a></li>
        <li><a href="old.html">Old page</a></li>
        <li><a href="elsewhere.html">Elsewhere</a></li>
        <li><a href="missing.html">Missing</a></li>
        <li><a href="download.html">Download</a></li>
        <li><a href="huge.html">Huge</a></li>
        <li><a href="latin1.html">Latin-1</a></li>
        <li><a href="private/secret.html">Secret</a></li>
        <li><a href="../blog/outside.html">Blog</a></li>
      </ul>`,
    )),
  );
  const guide = (tool: string) =>
    layout("Guide", `<h1>Guide</h1><h2>Install</h2><p>Run the ${tool} installer to set everything up.</p>`);
  routes.set("/docs/guide.html", page(guide("zorbinate")));
  routes.set(
    "/docs/api.html",
    page(layout(
      "API",
      "<h1>API</h1><h2>Endpoints</h2><pre>GET /widgets\n    returns the frobnicator list</pre>",
    )),
  );
  routes.set("/docs/old.html", () => Response.redirect(`${site.origin}/docs/new.html`, 301));
  routes.set(
    "/docs/new.html",
    page(layout("Moved", "<h1>Moved</h1><p>quuxmigration details live here.</p>")),
  );
  routes.set("/docs/elsewhere.html", () => Response.redirect(`${other.origin}/docs/elsewhere.html`, 302));
  routes.set(
    "/docs/download.html",
    page(new Uint8Array([0x7f, 0x45, 0x4c, 0x46, 0, 0, 0, 1, 2, 3]), "application/octet-stream"),
  );
  // Served with its Content-Length, one byte over the limit.
  const huge = new TextEncoder().encode(layout("Huge", `<p>hugeword</p>${" ".repeat(MAX_FILE_BYTES)}`));
  routes.set("/docs/huge.html", page(huge));
  routes.set(
    "/docs/latin1.html",
    page(
      latin1(layout("Desserts", "<h1>Desserts</h1><p>Cr\xe8me br\xfbl\xe9e \xe0 la fa\xe7on latinword.</p>")),
      "text/html; charset=ISO-8859-1",
    ),
  );
  routes.set("/docs/hidden.html", page(layout("Hidden", "<h1>Hidden</h1><p>sitemaponlyword glimmerfen</p>")));
  routes.set("/docs/private/secret.html", page(layout("Secret", "<p>secretword</p>")));
  routes.set("/blog/outside.html", page(layout("Blog", "<p>outsideword</p>")));

  await using box = await sandbox();
  const added = await cli(box, ["index", "add", "site", docs, "--no-config"]);
  assertEquals(added.code, 0, added.stderr);
  match(
    added.stdout,
    new RegExp(
      `^Indexed site from ${docs.replaceAll(".", "\\.")}: 6 documents, \\d+ chunks ` +
        `\\(11 pages requested; 6 new or changed, 0 unchanged, 0 removed\\) in \\d+\\.\\d s\\.\\n$`,
    ),
  );
  assertEquals(skippedLines(added.stderr), [
    `docsearch-hook index: skipped ${site.origin}/docs/download.html (not a page (application/octet-stream))`,
    `docsearch-hook index: skipped ${site.origin}/docs/elsewhere.html ` +
    `(redirects off-site to ${other.origin}/docs/elsewhere.html)`,
    `docsearch-hook index: skipped ${site.origin}/docs/huge.html (larger than 10 MB)`,
    `docsearch-hook index: skipped ${site.origin}/docs/missing.html (HTTP 404)`,
    `docsearch-hook index: skipped ${site.origin}/docs/private/secret.html (disallowed by robots.txt)`,
  ]);
  match(
    added.stderr,
    new RegExp(`^docsearch-hook index: sitemap: 2 pages under ${docs.replaceAll(".", "\\.")}$`, "m"),
  );

  // What was asked for: each page once, nothing disallowed, off-site or outside /docs/.
  assertEquals(other.requests, []);
  assertEquals(site.count("/docs/private/secret.html"), 0);
  assertEquals(site.count("/blog/outside.html"), 0);
  for (
    const path of ["/docs/", "/docs/guide.html", "/docs/new.html", "/docs/hidden.html", "/docs/huge.html"]
  ) {
    assertEquals(site.count(path), 1, path);
  }

  const [installer, sitemapOnly, moved, latin, code, furniture, excluded] = await Promise.all([
    search(box, "site", "zorbinate"),
    search(box, "site", "glimmerfen"),
    search(box, "site", "quuxmigration"),
    search(box, "site", "brûlée"),
    search(box, "site", "frobnicator"),
    search(box, "site", "navmenuword sidebarword footerword bannerword scriptword"),
    search(box, "site", "secretword outsideword offsiteword hugeword"),
  ]);
  assertEquals(sources(installer), [`${site.origin}/docs/guide.html`]);
  assertEquals([installer[0].title, installer[0].trail, installer[0].index], ["Guide", ["Install"], "site"]);
  assertEquals(sources(sitemapOnly), [`${site.origin}/docs/hidden.html`]);
  assertEquals(sources(moved), [`${site.origin}/docs/new.html`]);
  assertEquals(sources(latin), [`${site.origin}/docs/latin1.html`]);
  ok(latin[0].snippet.includes("Crème [brûlée] à la façon"), latin[0].snippet);
  assertEquals(sources(code), [`${site.origin}/docs/api.html`]);
  assertEquals(code[0].trail, ["Endpoints"]);
  assertEquals(furniture, []);
  assertEquals(excluded, []);

  const listed = await cli(box, ["index", "list"]);
  assertEquals(listed.code, 0, listed.stderr);
  match(listed.stdout, new RegExp(`^site {2}6 documents, \\d+ chunks {2}${docs.replaceAll(".", "\\.")}\\n$`));

  // One page changes: a refresh reads the site again and rewrites only that page.
  routes.set("/docs/guide.html", page(guide("blorptastic")));
  const refreshed = await cli(box, ["index", "refresh", "site"]);
  assertEquals(refreshed.code, 0, refreshed.stderr);
  match(
    refreshed.stdout,
    /: 6 documents, \d+ chunks \(11 pages requested; 1 new or changed, 5 unchanged, 0 removed\)/,
  );
  assertEquals(sources(await search(box, "site", "blorptastic")), [`${site.origin}/docs/guide.html`]);
  assertEquals(await search(box, "site", "zorbinate"), []);
});

Deno.test("index add <URL> of a closed port: exit 1, a clear message, no index and no config left", async () => {
  // About 15 s: robots.txt, sitemap.xml and the start page are each tried 3 times with the CLI's fixed 1 s
  // and 4 s retry delays, which nothing outside lib/ can shorten.
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = listener.addr.port;
  listener.close();
  const url = `http://127.0.0.1:${port}/docs/`;

  await using box = await sandbox();
  const added = await cli(box, ["index", "add", "down", url]);
  assertEquals([added.code, added.stdout], [1, ""]);
  match(
    added.stderr,
    new RegExp(
      `^docsearch-hook index: cannot read ${url.replaceAll(".", "\\.")}: could not be read: .+\\n` +
        "  fix: check the URL and the network, then run the same command\\n$",
    ),
  );
  // Nothing half-made: no config entry for an index that does not exist, no empty index.
  assertEquals(await exists(`${box.home}/.claude/hooks/docsearch-config.json`), false);
  const listed = await cli(box, ["index", "list"]);
  // BUG: buildFromSite (lib/docs/index_command.ts) opens (creates) indexes/down.db before crawling and leaves it
  // when the crawl throws SiteUnreachableError, so `index list` shows "down  0 documents, 0 chunks  <url>".
  assertEquals(listed.stdout, "No indexes yet: docsearch-hook index add <name> <folder|file|URL>\n");
});

Deno.test("index add <URL> of a site that dies mid-crawl: exit 1 with how to resume; the rerun finishes", async () => {
  // About 10 s: the crawl stops after 5 failures in a row, each failure costs the CLI's 1 s + 4 s retry
  // delays, and 4 run at once: two rounds of waiting, the least that can reach 5.
  const routes = new Map<string, Handler>();
  await using site = serve(routes);
  const docs = `${site.origin}/docs/`;
  const links = Array.from({ length: 20 }, (_, i) => `<a href="p${i}.html">Page ${i}</a>`).join(" ");
  let answered = 0;
  let down = false;
  let dies = true;
  const live = (handler: Handler): Handler => (request, url) => {
    if (dies && answered++ >= 5) down = true;
    return down ? new Response("Service Unavailable", { status: 503 }) : handler(request, url);
  };
  routes.set("/docs/", live(page(plain("Home", `<h1>Home</h1><p>${links}</p>`))));
  for (let i = 0; i < 20; i++) {
    routes.set(`/docs/p${i}.html`, live(page(plain(`Page ${i}`, `<h1>Page ${i}</h1><p>pageword${i}x</p>`))));
  }

  await using box = await sandbox();
  const first = await cli(box, ["index", "add", "flaky", docs, "--no-config"]);
  assertEquals([first.code, first.stdout], [1, ""]);
  match(
    first.stderr,
    /docsearch-hook index: the site stopped answering \(HTTP 503\) after 5 pages; what was read is kept\n {2}fix: run the same command again to resume where it stopped\n$/,
  );
  const read = ["/docs/", "/docs/p0.html", "/docs/p1.html", "/docs/p2.html", "/docs/p3.html"];
  for (const path of read) assertEquals(site.count(path), 1, path);
  const listed = await cli(box, ["index", "list"]);
  match(
    listed.stdout,
    /^flaky {2}5 documents, 5 chunks {2}.*\(crawl interrupted, \d+ pages queued: index refresh flaky resumes it\)\n$/,
  );

  // The site is back: the same command picks up where the crawl stopped.
  dies = false;
  down = false;
  site.requests.length = 0;
  const again = await cli(box, ["index", "add", "flaky", docs, "--no-config"]);
  assertEquals(again.code, 0, again.stderr);
  match(again.stderr, /resuming the crawl of .*: 5 pages read, \d+ queued/);
  match(again.stdout, /pages requested to finish an interrupted crawl; /);
  for (const path of read) assertEquals(site.count(path), 0, `${path} asked again`);
  // BUG: the pages that answered 503 before the crawl stopped (p4…p11) are marked skipped, never asked again
  // on resume (lib/docs/crawl.ts visit()), so the "finished" index lacks them: 13 documents, not 21.
  match(again.stdout, /^Indexed flaky from .*: 21 documents, 21 chunks /);
  assertEquals(skippedLines(again.stderr), []);
});

Deno.test("index add <URL> writes the config entry: searches and fetches of the host are sent to the index", async () => {
  const routes = new Map<string, Handler>([
    [
      "/docs/",
      page(plain("Widgets", `<h1>Widgets</h1><p>About widgets. <a href="setup.html">Setup</a></p>`)),
    ],
    ["/docs/setup.html", page(plain("Setup", "<h1>Setup</h1><p>Calibrate the widget spindle.</p>"))],
  ]);
  await using site = serve(routes);
  const docs = `${site.origin}/docs/`;
  await using box = await sandbox();

  const added = await cli(box, ["index", "add", "widgets", docs]);
  assertEquals(added.code, 0, added.stderr);
  const configPath = `${box.home}/.claude/hooks/docsearch-config.json`;
  assertEquals(
    added.stdout.split("\n").slice(1).join("\n"),
    `Added the database "widgets" in ${configPath}: web searches about it now go to mcp__docsearch__search.\n`,
  );
  const config = JSON.parse(await Deno.readTextFile(configPath));
  assertEquals(config.databases, [{
    name: "widgets",
    keywords: ["widgets"],
    domains: ["127.0.0.1"],
    path: `${box.state}/indexes/widgets.db`,
    mcp_tool_name: "mcp__docsearch__search",
    tool_args: { index: "widgets", query: "{query}" },
    description: `widgets documentation (from ${docs})`,
  }]);

  const reasonOf = async (args: string[]) => {
    const checked = await cli(box, ["check", ...args, "--json"]);
    assertEquals([checked.code, checked.stderr], [0, ""], args.join(" "));
    if (checked.stdout === "") return undefined;
    const output = JSON.parse(checked.stdout).hookSpecificOutput;
    assertEquals(output.permissionDecision, "deny");
    return output.permissionDecisionReason as string;
  };
  const [bySearch, byUrl, elsewhere] = await Promise.all([
    reasonOf(["widgets spindle calibration"]),
    reasonOf(["--url", `${site.origin}/docs/spindle-setup.html`]),
    reasonOf(["--url", "https://example.org/docs/spindle.html"]),
  ]);
  ok(
    bySearch?.includes('mcp__docsearch__search {"index":"widgets","query":"widgets spindle calibration"}'),
    bySearch,
  );
  ok(byUrl?.includes('mcp__docsearch__search {"index":"widgets","query":"docs spindle setup"}'), byUrl);
  assertEquals(elsewhere, undefined);

  // The same command again: the index is unchanged and so is the config.
  const again = await cli(box, ["index", "add", "widgets", docs]);
  assertEquals(again.code, 0, again.stderr);
  match(
    again.stdout,
    /^Indexed widgets from .*: 2 documents, \d+ chunks \(2 pages requested; 0 new or changed, 2 unchanged, 0 removed\) in [\d.]+ s\.\n$/,
  );
  assertEquals(JSON.parse(await Deno.readTextFile(configPath)), config);

  // Removing the index takes its entry away.
  const removed = await cli(box, ["index", "remove", "widgets"]);
  assertEquals(removed.code, 0, removed.stderr);
  assertEquals(await reasonOf(["widgets spindle calibration"]), undefined);
});

Deno.test("index add <URL>: a page streamed past 10 MB without Content-Length is skipped, the crawl goes on", async () => {
  // BUG: lib/docs/crawl_fetch.ts readCapped() calls response.body.cancel() while its own `for await` holds the
  // body's lock; the TypeError ("Cannot cancel a locked ReadableStream") ends the whole crawl with exit 1,
  // "unexpected error". Servers send no Content-Length for streamed or compressed pages.
  const chunk = new Uint8Array(1024 * 1024).fill(0x61);
  let sent = 0;
  const routes = new Map<string, Handler>([
    ["/docs/", page(plain("Home", `<h1>Home</h1><p>homeword <a href="stream.html">Stream</a></p>`))],
    ["/docs/stream.html", () => {
      const body = new ReadableStream<Uint8Array>({
        pull(controller) {
          if (sent >= 40 * chunk.length) return controller.close();
          sent += chunk.length;
          controller.enqueue(chunk);
        },
      });
      return new Response(body, { headers: { "content-type": "text/html" } });
    }],
  ]);
  await using site = serve(routes);
  await using box = await sandbox();
  const added = await cli(box, ["index", "add", "streamed", `${site.origin}/docs/`, "--no-config"]);
  assertEquals(added.code, 0, added.stderr);
  match(added.stdout, /: 1 document, \d+ chunks? \(2 pages requested; 1 new or changed/);
  assertEquals(skippedLines(added.stderr), [
    `docsearch-hook index: skipped ${site.origin}/docs/stream.html (larger than 10 MB)`,
  ]);
});
