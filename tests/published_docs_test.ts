/**
 * The docs thin packages do not ship, fetched from where their metadata says they are published: URLs read
 * from package.json, METADATA and Cargo.toml shapes; the network policy; and, against a server on 127.0.0.1
 * that serves a GitHub-like tag archive (a real .tar.gz built here), a homepage's llms-full.txt and a small
 * docs site, what is read, in which order, how it is labelled, and what a hostile archive or URL gets.
 */
import { deepStrictEqual as assertEquals, match, ok, rejects } from "node:assert/strict";
import { publishedDocsCheck } from "../lib/doctor/checks.ts";
import { addProject } from "../lib/project/index_project.ts";
import { packageIndex } from "../lib/project/index_project.ts";
import {
  guardedFetch,
  type NetworkPolicy,
  PRODUCT_POLICY,
  refusal,
  RefusedUrlError,
} from "../lib/project/net_policy.ts";
import type { InstalledPackage } from "../lib/project/npm.ts";
import {
  describePublished,
  type FetchDeps,
  fetchDue,
  fetchPublished,
  publishedIndexName,
  type PublishedState,
  publishedState,
  RETRY_MS,
} from "../lib/project/published_docs.ts";
import {
  archiveUrl,
  crateSources,
  goSources,
  npmSources,
  pypiSources,
  repositoryUrl,
  tagCandidates,
  tagPath,
} from "../lib/project/published_source.ts";
import {
  ARCHIVE_LIMITS,
  archiveDocs,
  ArchiveError,
  fetchArchive,
  repositoryPath,
} from "../lib/project/tag_archive.ts";
import { parseMetadata } from "../lib/project/python.ts";
import { DocsIndex } from "../lib/docs/store.ts";
import { machine, NOW } from "./command_context.ts";
import { until } from "./helpers.ts";
import { tryLock } from "../lib/project/build_lock.ts";
import { file, site, targz, words } from "./published_site.ts";
import type { CommandContext } from "../lib/cli/context.ts";

const TESTS: NetworkPolicy = { http: true, privateHosts: true };

Deno.test("repositoryUrl: the shapes package metadata writes a repository in", () => {
  const web = (raw: string, directory?: string) => {
    const found = repositoryUrl(raw, directory);
    return found && [found.web.href, found.directory];
  };
  assertEquals(web("git+https://github.com/expressjs/express.git"), [
    "https://github.com/expressjs/express",
    undefined,
  ]);
  assertEquals(web("https://github.com/vercel/ms"), ["https://github.com/vercel/ms", undefined]);
  assertEquals(web("git://github.com/isaacs/node-glob.git"), [
    "https://github.com/isaacs/node-glob",
    undefined,
  ]);
  assertEquals(web("git+ssh://git@github.com/facebook/react.git"), [
    "https://github.com/facebook/react",
    undefined,
  ]);
  assertEquals(web("git@github.com:lodash/lodash.git"), ["https://github.com/lodash/lodash", undefined]);
  assertEquals(web("github:colinhacks/zod"), ["https://github.com/colinhacks/zod", undefined]);
  assertEquals(web("gitlab:owner/repo"), ["https://gitlab.com/owner/repo", undefined]);
  assertEquals(web("vercel/ms"), ["https://github.com/vercel/ms", undefined]);
  assertEquals(web("https://github.com/facebook/react/tree/main/packages/react-dom"), [
    "https://github.com/facebook/react",
    "packages/react-dom",
  ]);
  assertEquals(web("https://github.com/facebook/react.git", "packages/react"), [
    "https://github.com/facebook/react",
    "packages/react",
  ]);
  // A folder that climbs out of the repository is no folder.
  assertEquals(web("https://github.com/o/r", "../../etc"), ["https://github.com/o/r", undefined]);
  assertEquals(web("file:///etc/passwd"), undefined);
  assertEquals(web("javascript:alert(1)"), undefined);
  assertEquals(web("just words"), undefined);
});

Deno.test("npmSources, pypiSources, crateSources, goSources: the repository and the docs site", () => {
  const show = (sources: ReturnType<typeof npmSources>) => ({
    repository: sources.repository && [sources.repository.web.href, sources.repository.directory],
    site: sources.site?.href,
  });
  assertEquals(
    show(npmSources({
      repository: {
        type: "git",
        url: "git+https://github.com/facebook/react.git",
        directory: "packages/react",
      },
      homepage: "https://react.dev/",
    })),
    { repository: ["https://github.com/facebook/react", "packages/react"], site: "https://react.dev/" },
  );
  // A homepage on the code host is the repository's page, not a docs site.
  assertEquals(
    show(npmSources({ repository: "vercel/ms", homepage: "https://github.com/vercel/ms#readme" })),
    { repository: ["https://github.com/vercel/ms", undefined], site: undefined },
  );
  assertEquals(show(npmSources({ repository: 42, homepage: "ftp://x.org" })), {
    repository: undefined,
    site: undefined,
  });
  const metadata = parseMetadata(
    "Metadata-Version: 2.1\nName: requests\nVersion: 2.32.3\nHome-page: https://requests.readthedocs.io\n" +
      "Project-URL: Documentation, https://requests.readthedocs.io\n" +
      "Project-URL: Source, https://github.com/psf/requests\n\nbody\n",
  );
  assertEquals(metadata.projectUrls, [
    ["Documentation", "https://requests.readthedocs.io"],
    ["Source", "https://github.com/psf/requests"],
  ]);
  assertEquals(show(pypiSources(metadata.projectUrls, metadata.headers.get("home-page"))), {
    repository: ["https://github.com/psf/requests", undefined],
    site: "https://requests.readthedocs.io/",
  });
  // Only a Homepage on GitHub: the repository, and no site.
  assertEquals(show(pypiSources([["Homepage", "https://github.com/benjaminp/six"]])), {
    repository: ["https://github.com/benjaminp/six", undefined],
    site: undefined,
  });
  assertEquals(
    show(crateSources({
      repository: "https://github.com/dtolnay/itoa",
      documentation: "https://docs.rs/itoa",
      homepage: "https://serde.rs",
    })),
    { repository: ["https://github.com/dtolnay/itoa", undefined], site: "https://serde.rs/" },
  );
  assertEquals(show(goSources("github.com/google/uuid")), {
    repository: ["https://github.com/google/uuid", undefined],
    site: undefined,
  });
  assertEquals(show(goSources("github.com/go-chi/chi/v5")), {
    repository: ["https://github.com/go-chi/chi", undefined],
    site: undefined,
  });
  assertEquals(show(goSources("github.com/Azure/azure-sdk-for-go/sdk/azcore")), {
    repository: ["https://github.com/Azure/azure-sdk-for-go", "sdk/azcore"],
    site: undefined,
  });
  assertEquals(show(goSources("golang.org/x/text")), { repository: undefined, site: undefined });
});

Deno.test("tagCandidates and archiveUrl: the tags a version is published under, and their archive", () => {
  assertEquals(tagCandidates({ ecosystem: "npm", name: "react", version: "18.3.1" }), [
    "v18.3.1",
    "18.3.1",
    "react@18.3.1",
  ]);
  assertEquals(tagCandidates({ ecosystem: "go", name: "github.com/google/uuid", version: "v1.6.0" }), [
    "v1.6.0",
  ]);
  assertEquals(
    tagCandidates({
      ecosystem: "go",
      name: "github.com/Azure/azure-sdk-for-go/sdk/azcore",
      version: "v1.1.0",
    }, "sdk/azcore"),
    ["sdk/azcore/v1.1.0", "v1.1.0"],
  );
  assertEquals(
    archiveUrl(repositoryUrl("github:babel/babel")!, "@babel/core@7.26.0").href,
    "https://github.com/babel/babel/archive/refs/tags/%40babel/core%407.26.0.tar.gz",
  );
  // The source links of a file read from a tag keep the tag's slashes too.
  assertEquals(tagPath("sdk/azcore/v1.1.0"), "sdk/azcore/v1.1.0");
  assertEquals(tagPath("@babel/core@7.26.0"), "%40babel/core%407.26.0");
});

Deno.test("the network policy: the product asks https of public hosts only; a name resolving inward is refused", async () => {
  const why = (url: string, policy = PRODUCT_POLICY) => refusal(new URL(url), policy);
  assertEquals(why("https://github.com/o/r"), undefined);
  match(why("http://github.com/o/r")!, /http: is not https/);
  match(why("https://127.0.0.1/x")!, /not a public address/);
  match(why("https://10.1.2.3/x")!, /not a public address/);
  match(why("https://192.168.0.1/x")!, /not a public address/);
  match(why("https://169.254.169.254/latest/meta-data")!, /not a public address/);
  match(why("https://[::1]/x")!, /not a public address/);
  match(why("https://[::ffff:127.0.0.1]/x")!, /not a public address/);
  match(why("https://[fd00::1]/x")!, /not a public address/);
  match(why("https://localhost/x")!, /not a public host/);
  match(why("https://intranet/x")!, /not a public host/);
  match(why("https://user:pw@github.com/x")!, /credentials/);
  match(why("file:///etc/passwd")!, /file: is not https/);
  assertEquals(why("http://127.0.0.1:8080/x", TESTS), undefined);
  match(why("https://github.com/x", { ...TESTS, offline: true })!, /asks no network/);

  let asked = 0;
  const counting: typeof fetch = () => {
    asked++;
    return Promise.resolve(new Response("ok"));
  };
  const inward = guardedFetch(counting, PRODUCT_POLICY, () => Promise.resolve(["93.184.216.34", "10.0.0.7"]));
  await rejects(inward("https://rebind.example.com/x"), /resolves to 10\.0\.0\.7/);
  const outward = guardedFetch(counting, PRODUCT_POLICY, () => Promise.resolve(["93.184.216.34"]));
  assertEquals((await outward("https://example.com/x")).status, 200);
  assertEquals(asked, 1);
  // A name this machine cannot resolve is not asked: the system's resolver, which fetch uses, knows names
  // DNS does not (mDNS, a company's name service). A failure, asked again later, not a refusal. Behind a
  // proxy, which resolves names itself, it is asked.
  const noDns = () => Promise.reject(new Error("no DNS here"));
  const unresolved = await guardedFetch(counting, PRODUCT_POLICY, noDns)("https://nas.example/y").catch((e) =>
    e
  );
  ok(unresolved instanceof Error && !(unresolved instanceof RefusedUrlError), String(unresolved));
  match(unresolved.message, /not fetched: https:\/\/nas\.example\/y \(no DNS here\)/);
  assertEquals(asked, 1);
  const proxied = guardedFetch(counting, { ...PRODUCT_POLICY, proxied: true }, noDns);
  assertEquals((await proxied("https://example.com/y")).status, 200);
  assertEquals(asked, 2);
  // Names of a home's or a company's hosts, and a final dot, are refused by their text.
  for (
    const inward of ["printer.local", "db.internal", "nas.home.arpa", "router.lan", "localhost.", "x.corp"]
  ) {
    match(why(`https://${inward}/x`)!, /not a public host/, inward);
  }
  assertEquals(why("https://docs.example.com./x"), undefined);
});

Deno.test("repositoryPath: an archive entry's path, never one that leads out", () => {
  assertEquals(repositoryPath("r-1.0.0/docs/guide.md"), "docs/guide.md");
  assertEquals(repositoryPath("r-1.0.0/docs/../../escape.md"), undefined);
  assertEquals(repositoryPath("/etc/passwd"), undefined);
  assertEquals(repositoryPath("r-1.0.0/docs\\..\\x.md"), undefined);
  assertEquals(repositoryPath("r-1.0.0/"), undefined);
});

/** An installed npm package with these package.json fields and a README of `readmeWords`. */
function installed(
  dir: string,
  name: string,
  version: string,
  fields: Record<string, unknown>,
  readmeWords = 40,
) {
  Deno.mkdirSync(dir, { recursive: true });
  Deno.writeTextFileSync(`${dir}/package.json`, JSON.stringify({ name, version, ...fields }));
  Deno.writeTextFileSync(`${dir}/README.md`, `# ${name}\n\n${words(name, readmeWords)}\n`);
  const pkg: InstalledPackage = { ecosystem: "npm", name, version, dir };
  return pkg;
}

const deps = (policy: NetworkPolicy = TESTS): FetchDeps => ({
  fetch,
  policy,
  resolve: () => Promise.resolve(["93.184.216.34"]),
  now: () => NOW,
  sleep: () => Promise.resolve(),
});

/** The package's published docs fetched as the upkeep does, after it built the installed copy's index. */
function fetchedAfterIndexing(
  context: CommandContext,
  pkg: InstalledPackage,
  policy?: NetworkPolicy,
): Promise<PublishedState> {
  Deno.mkdirSync(`${context.stateDir}/indexes`, { recursive: true });
  packageIndex(context, pkg);
  return fetchPublished(context, pkg, deps(policy));
}

function documentsOf(file: string): string[] {
  const index = DocsIndex.open(file);
  try {
    return [...index.stamps().keys()].sort();
  } finally {
    index.close();
  }
}

Deno.test("fetchPublished: the repository at the installed version's tag, its README and docs, labelled with that tag", async () => {
  await using m = await machine();
  await using server = await site();
  const context = m.context();
  const pkg = installed(`${m.home}/nm/widget`, "widget", "1.2.0", {
    repository: { type: "git", url: `git+${server.origin}/o/r.git` },
    homepage: `${server.origin}/home/`,
  });
  const state = await fetchedAfterIndexing(context, pkg);
  ok("published" in state, JSON.stringify(state));
  assertEquals(
    [state.published.kind, state.published.label, state.published.url, state.index],
    [
      "repository",
      "widget 1.2.0 (repository tag v1.2.0)",
      `${server.origin}/o/r/archive/refs/tags/v1.2.0.tar.gz`,
      "npm-widget-1.2.0.published",
    ],
  );
  // The README and the docs folder; no source file, no link, nothing from outside the archive's folder.
  assertEquals(documentsOf(`${m.state}/indexes/npm-widget-1.2.0.published.db`), [
    `${server.origin}/o/r/blob/v1.2.0/README.md`,
    `${server.origin}/o/r/blob/v1.2.0/docs/api.html`,
    `${server.origin}/o/r/blob/v1.2.0/docs/guide.md`,
  ]);
  ok(state.published.words > 1500, String(state.published.words));
  // Asked once: the homepage is not needed when the tag had docs.
  assertEquals(server.asked, [
    "/o/r/archive/refs/tags/v1.2.0.tar.gz",
    "/codeload/o/r/tar.gz/refs/tags/v1.2.0",
  ]);
  // Known from now on, by any project: nothing is asked again.
  assertEquals(publishedState(context, pkg), state);
  assertEquals(fetchDue(40, publishedState(context, pkg), NOW + 10 * RETRY_MS), false);
});

Deno.test("fetchPublished: no tag of the version falls through to the homepage's llms-full.txt, labelled as the site of that day", async () => {
  await using m = await machine();
  await using server = await site();
  const context = m.context();
  const pkg = installed(`${m.home}/nm/widget`, "widget", "2.0.0", {
    repository: `${server.origin}/o/r`,
    homepage: `${server.origin}/home/`,
  });
  const state = await fetchedAfterIndexing(context, pkg);
  ok("published" in state, JSON.stringify(state));
  const host = new URL(server.origin).host;
  assertEquals(
    [state.published.kind, state.published.label, state.published.url],
    ["llms-full.txt", `widget docs site (${host}), as of 2026-11-21`, `${server.origin}/home/llms-full.txt`],
  );
  // Every tag the version may have, then the site.
  assertEquals(server.asked.slice(0, 3), [
    "/o/r/archive/refs/tags/v2.0.0.tar.gz",
    "/o/r/archive/refs/tags/2.0.0.tar.gz",
    "/o/r/archive/refs/tags/widget%402.0.0.tar.gz",
  ]);
  ok(server.asked.includes("/home/llms-full.txt"), server.asked.join());
});

Deno.test("fetchPublished: a tag that holds little is read with the homepage's docs beside it, and both are named", async () => {
  await using m = await machine();
  await using server = await site();
  const context = m.context();
  const pkg = installed(`${m.home}/nm/thin`, "thin", "3.0.0", {
    repository: `${server.origin}/o/thin`,
    homepage: `${server.origin}/home/`,
  });
  const state = await fetchedAfterIndexing(context, pkg);
  ok("published" in state, JSON.stringify(state));
  const host = new URL(server.origin).host;
  assertEquals(
    [state.published.kind, state.published.label, state.published.url, state.published.repository],
    [
      "llms-full.txt",
      `thin docs site (${host}), as of 2026-11-21, with thin 3.0.0 (repository tag v3.0.0)`,
      `${server.origin}/home/llms-full.txt`,
      `${server.origin}/o/thin/archive/refs/tags/v3.0.0.tar.gz`,
    ],
  );
  // The tag's README stays beside the site's pages, though reading a site keeps only what it read.
  const documents = documentsOf(`${m.state}/indexes/npm-thin-3.0.0.published.db`);
  ok(documents.includes(`${server.origin}/o/thin/blob/v3.0.0/README.md`), documents.join());
  ok(documents.some((source) => source.startsWith(`${server.origin}/home/`)), documents.join());
  assertEquals(state.published.documents, documents.length);
  ok(state.published.words > 1200, String(state.published.words));
  assertEquals(publishedState(context, pkg), state);
});

Deno.test("fetchPublished: a site with no llms file is crawled, a few pages, and labelled as the site", async () => {
  await using m = await machine();
  await using server = await site();
  const context = m.context();
  const pkg = installed(`${m.home}/nm/gadget`, "gadget", "3.1.0", { homepage: `${server.origin}/docs/` });
  const state = await fetchedAfterIndexing(context, pkg);
  ok("published" in state, JSON.stringify(state));
  assertEquals([state.published.kind, state.published.documents], ["crawl", 3]);
  match(state.published.label, /^gadget docs site \(127\.0\.0\.1:\d+\), as of 2026-11-21$/);
});

Deno.test("fetchPublished: in the product's policy a repository on a private address is refused, nothing is asked, and it is final", async () => {
  await using m = await machine();
  await using server = await site();
  const context = m.context();
  const pkg = installed(`${m.home}/nm/widget`, "widget", "1.2.0", {
    repository: `${server.origin}/o/r`,
    homepage: "https://10.0.0.1/docs/",
  });
  const state = await fetchedAfterIndexing(context, pkg, PRODUCT_POLICY);
  ok("none" in state, JSON.stringify(state));
  match(state.none, /http: is not https/);
  match(state.none, /10\.0\.0\.1 is not a public address/);
  assertEquals(server.asked, []);
  // Recorded beside the installed copy's index; no empty index left behind.
  assertEquals(publishedState(context, pkg), state);
  ok(!documentsOf(`${m.state}/indexes/npm-widget-1.2.0.db`).some((source) => source.includes("published")));
  ok(!(await Deno.stat(`${m.state}/indexes/${publishedIndexName(pkg)}.db`).then(() => true, () => false)));
});

Deno.test("fetchPublished: a dead host is a failure, recorded and asked again only after RETRY_MS", async () => {
  await using m = await machine();
  const context = m.context();
  // A port nothing listens on: the connection is refused.
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  const pkg = installed(`${m.home}/nm/widget`, "widget", "1.2.0", {
    repository: `http://127.0.0.1:${port}/o/r`,
  });
  const state = await fetchedAfterIndexing(context, pkg);
  ok("failed" in state, JSON.stringify(state));
  assertEquals(fetchDue(40, publishedState(context, pkg), NOW + 1000), false);
  assertEquals(fetchDue(40, publishedState(context, pkg), NOW + RETRY_MS), true);
  // A package with docs enough is never fetched for.
  assertEquals(fetchDue(5000, undefined, NOW), false);
  assertEquals(fetchDue(40, undefined, NOW), true);
});

/** A server on 127.0.0.1 that answers every request with `handler`. */
function serve(handler: (url: URL) => Response | Promise<Response>): { origin: string } & AsyncDisposable {
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    (request) => handler(new URL(request.url)),
  );
  return {
    origin: `http://127.0.0.1:${server.addr.port}`,
    [Symbol.asyncDispose]: () => server.shutdown(),
  };
}

Deno.test("fetchPublished: a homepage that answers 404 or 403, or whose robots.txt refuses us, is final, with why; a 503 is asked again", async () => {
  const html = (body: string) => new Response(body, { headers: { "content-type": "text/html" } });
  const cases: [string, (url: URL) => Response, (origin: string) => string, boolean][] = [
    ["404", () => new Response("gone", { status: 404 }), (o) => `cannot read ${o}/docs/: HTTP 404`, false],
    ["403", () => new Response("no", { status: 403 }), (o) => `cannot read ${o}/docs/: HTTP 403`, false],
    [
      "robots.txt",
      (url) =>
        url.pathname === "/robots.txt"
          ? new Response("User-agent: *\nDisallow: /\n")
          : html(`<main><p>${words("page", 300)}</p></main>`),
      (o) => `cannot read ${o}/docs/: disallowed by robots.txt`,
      false,
    ],
    [
      "503",
      (url) => new Response("busy", { status: url.pathname === "/robots.txt" ? 404 : 503 }),
      (o) => `cannot read ${o}/docs/: HTTP 503, after 2 tries`,
      true,
    ],
  ];
  for (const [label, handler, why, retried] of cases) {
    await using m = await machine();
    await using server = serve(handler);
    const context = m.context();
    const pkg = installed(`${m.home}/nm/widget`, "widget", "1.2.0", { homepage: `${server.origin}/docs/` });
    const state = await fetchedAfterIndexing(context, pkg);
    assertEquals(
      [label, describePublished(state)],
      [
        label,
        retried
          ? `published docs failed: ${why(server.origin)} (asked again in an hour)`
          : `no published docs: ${why(server.origin)}`,
      ],
    );
    assertEquals([label, fetchDue(40, publishedState(context, pkg), NOW + 10 * RETRY_MS)], [label, retried]);
  }
});

Deno.test("fetchPublished: an archive whose download breaks off is a failure, asked again; one received whole that is no archive is final", async () => {
  // Raw HTTP on a socket: the head and the start of a gzip stream of a promised 4096 bytes, then the
  // connection closes; once `broken` is off, 24 bytes received whole that are no gzip'd tar.
  let broken = true;
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const serving = (async () => {
    for await (const connection of listener) {
      await connection.read(new Uint8Array(16384));
      const body = broken
        ? new Uint8Array([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3, 1, 2, 3, 4])
        : new TextEncoder().encode("not a gzip'd tar at all");
      const head = `HTTP/1.1 200 OK\r\ncontent-type: application/x-gzip\r\ncontent-length: ${
        broken ? 4096 : body.length
      }\r\nconnection: close\r\n\r\n`;
      await connection.write(new TextEncoder().encode(head));
      await connection.write(body);
      connection.close();
    }
  })().catch(() => {});
  try {
    const origin = `http://127.0.0.1:${(listener.addr as Deno.NetAddr).port}`;
    const url = new URL(`${origin}/o/r/archive/refs/tags/v1.2.0.tar.gz`);
    const error = await fetchArchive(url, undefined, fetch).catch((error) => error);
    ok(error instanceof Error && !(error instanceof ArchiveError), String(error));
    match(error.message, new RegExp(`^${url.href.replaceAll(".", "\\.")}: the download broke off \\(.+\\)$`));

    await using m = await machine();
    const context = m.context();
    const pkg = installed(`${m.home}/nm/widget`, "widget", "1.2.0", { repository: `${origin}/o/r` });
    const state = await fetchedAfterIndexing(context, pkg);
    ok("failed" in state, JSON.stringify(state));
    match(state.failed, /the download broke off/);
    assertEquals(fetchDue(40, publishedState(context, pkg), NOW + RETRY_MS), true);

    broken = false;
    await rejects(fetchArchive(url, undefined, fetch), ArchiveError);
    const again = await fetchPublished(context, pkg, deps());
    ok("none" in again, JSON.stringify(again));
    match(again.none, /the archive could not be read/);
    assertEquals(fetchDue(40, publishedState(context, pkg), NOW + 10 * RETRY_MS), false);
  } finally {
    listener.close();
    await serving;
  }
});

Deno.test("fetchPublished: offline, each source is tried once and named once with why it was not asked, and asked again later", async () => {
  await using m = await machine();
  const context = m.context();
  const pkg = installed(`${m.home}/nm/widget`, "widget", "1.2.0", {
    repository: "https://code.example/o/r",
    homepage: "https://site.example/",
  });
  Deno.mkdirSync(`${context.stateDir}/indexes`, { recursive: true });
  packageIndex(context, pkg);
  let asked = 0;
  const resolved: string[] = [];
  const state = await fetchPublished(context, pkg, {
    ...deps(PRODUCT_POLICY),
    fetch: () => {
      asked++;
      return Promise.resolve(new Response("never"));
    },
    resolve: (host) => {
      resolved.push(host);
      return Promise.reject(new Error(`${host} does not resolve`));
    },
  });
  assertEquals(asked, 0);
  // Once each (the archive; the site's robots.txt, then its llms-full.txt): a request declined before it was
  // made is not tried again a second later.
  assertEquals(resolved, ["code.example", "site.example", "site.example"]);
  assertEquals(
    describePublished(state),
    "published docs failed: not fetched: https://code.example/o/r/archive/refs/tags/v1.2.0.tar.gz " +
      "(code.example does not resolve); cannot read https://site.example/: could not be read: not fetched: " +
      "https://site.example/llms-full.txt (site.example does not resolve) (asked again in an hour)",
  );
  assertEquals(fetchDue(40, publishedState(context, pkg), NOW + RETRY_MS), true);
});

Deno.test("fetchArchive: an archive over the size cap, or unpacking past it, is refused; entries that climb out or link are not read", async () => {
  await using server = await site();
  const url = new URL(`${server.origin}/o/r/archive/refs/tags/v1.2.0.tar.gz`);
  await rejects(
    fetchArchive(url, undefined, fetch, { ...ARCHIVE_LIMITS, archiveBytes: 200 }),
    /the archive is larger than/,
  );
  await rejects(
    fetchArchive(url, undefined, fetch, { ...ARCHIVE_LIMITS, unpackedBytes: 4096 }),
    /the unpacked archive is larger than/,
  );
  await rejects(
    fetchArchive(url, undefined, fetch, { ...ARCHIVE_LIMITS, redirects: 0 }),
    /too many redirects/,
  );
  const read = await fetchArchive(url, undefined, fetch);
  ok("files" in read);
  assertEquals(read.files.map((f) => f.path), ["README.md", "docs/guide.md", "docs/api.html"]);
  const capped = await fetchArchive(url, undefined, fetch, { ...ARCHIVE_LIMITS, files: 1, fileBytes: 1000 });
  ok("files" in capped);
  assertEquals(capped.files.map((f) => f.path), ["README.md"]);
  assertEquals(
    await fetchArchive(new URL(`${server.origin}/o/r/archive/refs/tags/v9.tar.gz`), undefined, fetch),
    {
      missing: `${server.origin}/o/r/archive/refs/tags/v9.tar.gz: HTTP 404`,
    },
  );
  // A host that is down says nothing of the tag: a plain failure, which fetchPublished asks again later; a
  // 403 is the host's answer, final.
  const answering = (status: number): typeof fetch => () => Promise.resolve(new Response("", { status }));
  for (const status of [503, 429]) {
    const error = await fetchArchive(url, undefined, answering(status)).catch((e) => e);
    ok(error instanceof Error && !(error instanceof ArchiveError), String(error));
    match(error.message, new RegExp(`HTTP ${status}`));
  }
  await rejects(fetchArchive(url, undefined, answering(403)), ArchiveError);
  // It says who asks, as the crawler does.
  let agent: string | null = null;
  await fetchArchive(url, undefined, (_, init) => {
    agent = new Headers(init?.headers).get("user-agent");
    return Promise.resolve(new Response("", { status: 404 }));
  });
  match(String(agent), /^docsearch-hook\/\S+ \(docs indexer\)$/);
});

Deno.test("archiveDocs: at the file cap, a monorepo package's own docs take the place of the root's", async () => {
  const archive = await targz([
    file("r-2.0.0/docs/d1.md", "# d1\n"),
    file("r-2.0.0/docs/d2.md", "# d2\n"),
    file("r-2.0.0/docs/d3.md", "# d3\n"),
    file("r-2.0.0/packages/x/README.md", "# x\n"),
    file("r-2.0.0/packages/x/docs/api.md", "# api\n"),
  ]);
  const read = (files: number, directory?: string) =>
    archiveDocs(ReadableStream.from([archive]), directory, { ...ARCHIVE_LIMITS, files })
      .then((found) => found.map((f) => f.path));
  assertEquals(await read(2, "packages/x"), ["packages/x/README.md", "packages/x/docs/api.md"]);
  assertEquals(await read(3, "packages/x"), ["packages/x/README.md", "packages/x/docs/api.md", "docs/d1.md"]);
  // Without a folder of its own, the first files of the root, in archive order.
  assertEquals(await read(2), ["docs/d1.md", "docs/d2.md"]);
});

Deno.test("index add --project: a thin package's published docs in its entry; with fetching off, or turned on by the project against the user, nothing is asked", async () => {
  await using m = await machine();
  await using server = await site();
  installed(`${m.project}/node_modules/widget`, "widget", "1.2.0", { repository: `${server.origin}/o/r` });
  Deno.writeTextFileSync(`${m.project}/package.json`, JSON.stringify({ dependencies: { widget: "^1.2.0" } }));
  const userConfig = `${m.home}/.claude/hooks/docsearch-config.json`;
  Deno.mkdirSync(`${m.home}/.claude/hooks`, { recursive: true });
  Deno.mkdirSync(`${m.project}/.claude`, { recursive: true });
  Deno.writeTextFileSync(userConfig, JSON.stringify({ dependency_docs: { fetch: false } }));
  // A cloned repository's config turning it on: not the user's word.
  Deno.writeTextFileSync(
    `${m.project}/.claude/docsearch.json`,
    JSON.stringify({ dependency_docs: { fetch: true } }),
  );
  const off = { ...m.context(), network: TESTS };
  await addProject(off, undefined, {});
  assertEquals(server.asked, []);
  const entry = () =>
    JSON.parse(Deno.readTextFileSync(`${m.project}/.claude/docsearch.local.json`)).databases[0] as {
      description: string;
      tool_args: { index: string };
    };
  assertEquals(entry().tool_args.index, "npm-widget-1.2.0");
  match(entry().description, /^widget 1\.2\.0, as installed in this project/);

  // The user turns it on: the thin package's published docs are fetched and named by its entry.
  Deno.writeTextFileSync(userConfig, JSON.stringify({ dependency_docs: { fetch: true } }));
  const on = { ...m.context(), network: TESTS };
  await addProject(on, undefined, {});
  assertEquals(server.asked.length, 2, server.asked.join());
  assertEquals(entry().tool_args.index, "npm-widget-1.2.0.published");
  assertEquals(
    entry().description,
    "widget 1.2.0 (repository tag v1.2.0), the version installed in this project",
  );
  match(
    on.out.join("\n"),
    /widget 1\.2\.0: \d+ words \(indexed before\); published docs: widget 1\.2\.0 \(repository tag v1\.2\.0\)/,
  );

  // Fetched before: a second run asks nothing.
  await addProject({ ...m.context(), network: TESTS }, undefined, {});
  assertEquals(server.asked.length, 2);
});

Deno.test("index add --project: the build lock is let go before a fetch, which holds only the fetch lock; a second run waits for it, then finds it done", async () => {
  await using m = await machine();
  const { promise: stall, resolve: answer } = Promise.withResolvers<void>();
  await using server = await site({ stall });
  installed(`${m.project}/node_modules/widget`, "widget", "1.2.0", { repository: `${server.origin}/o/r` });
  Deno.writeTextFileSync(`${m.project}/package.json`, JSON.stringify({ dependencies: { widget: "^1.2.0" } }));
  const context = { ...m.context(), network: TESTS };
  const first = addProject(context, undefined, { "no-config": true });
  await until("the archive to be asked for", () => server.asked.length > 0 || undefined);
  // The host keeps the fetch waiting: another project's build goes on meanwhile, another fetch waits.
  const home = { os: context.os, stateDir: context.stateDir };
  const build = tryLock(home, "build");
  ok(build !== undefined, "the build lock is free during the fetch");
  build.release();
  assertEquals(tryLock(home, "fetch"), undefined);
  const other = { ...m.context(), network: TESTS };
  const second = addProject(other, undefined, { "no-config": true });
  answer();
  await Promise.all([first, second]);
  match(
    context.out.join("\n"),
    /widget 1\.2\.0: \d+ words; published docs: widget 1\.2\.0 \(repository tag v1\.2\.0\)/,
  );
  // The second waited for the first's fetch, then found it done and asked nothing itself.
  match(other.err.join("\n"), /another fetch of published docs is running; waiting for it/);
  assertEquals(context.err.filter((line) => line.includes("waiting")), []);
  match(other.out.join("\n"), /published docs: widget 1\.2\.0 \(repository tag v1\.2\.0\)/);
  assertEquals(server.asked.length, 2, server.asked.join());
});

Deno.test("doctor's published docs line: what was fetched from where and when, failures to look into, the switch off", () => {
  const fetched = {
    pkg: "express 4.21.2",
    fetched: {
      label: "express docs site (expressjs.com), as of 2026-11-21",
      kind: "llms-full.txt",
      url: "https://expressjs.com/llms-full.txt",
      at: NOW,
    },
  };
  const [line] = publishedDocsCheck("/p", true, [fetched, {
    pkg: "ms 2.1.3",
    none: "https://github.com/vercel/ms has no tag v2.1.3",
  }]);
  assertEquals(
    [line.status, line.message],
    [
      "ok",
      "/p: express 4.21.2: express docs site (expressjs.com), as of 2026-11-21, from llms-full.txt " +
      "https://expressjs.com/llms-full.txt (fetched 2026-11-21); ms 2.1.3: none found (https://github.com/vercel/ms has no tag v2.1.3)",
    ],
  );
  const [both] = publishedDocsCheck("/p", true, [{
    pkg: "react 18.3.1",
    fetched: {
      label: "react docs site (react.dev), as of 2026-11-21, with react 18.3.1 (repository tag v18.3.1)",
      kind: "llms.txt",
      url: "https://react.dev/llms.txt",
      repository: "https://github.com/facebook/react/archive/refs/tags/v18.3.1.tar.gz",
      at: NOW,
    },
  }]);
  assertEquals(
    both.message,
    "/p: react 18.3.1: react docs site (react.dev), as of 2026-11-21, with react 18.3.1 (repository tag v18.3.1), " +
      "from llms.txt https://react.dev/llms.txt and the archive " +
      "https://github.com/facebook/react/archive/refs/tags/v18.3.1.tar.gz (fetched 2026-11-21)",
  );
  // A crawl the budget cut short says so.
  const [cut] = publishedDocsCheck("/p", true, [{
    pkg: "gadget 3.1.0",
    fetched: {
      label: "gadget docs site (gadget.dev), as of 2026-11-21",
      kind: "crawl",
      url: "https://gadget.dev/docs/",
      at: NOW,
      cutShort: "the 90 s allowed ran out after 17 pages",
    },
  }]);
  assertEquals(
    [cut.status, cut.message],
    [
      "ok",
      "/p: gadget 3.1.0: gadget docs site (gadget.dev), as of 2026-11-21, from crawl https://gadget.dev/docs/ " +
      "(fetched 2026-11-21; the 90 s allowed ran out after 17 pages)",
    ],
  );
  const [failed] = publishedDocsCheck("/p", true, [{ pkg: "react 18.3.1", failed: "timed out" }]);
  assertEquals(failed.status, "warn");
  match(failed.message, /react 18\.3\.1: failed: timed out/);
  match(
    publishedDocsCheck("/p", false, [])[0].message,
    /dependency_docs\.fetch is false: nothing is fetched/,
  );
  assertEquals(publishedDocsCheck("/p", true, []), []);
});

/**
 * A docs site whose start page links to /docs/p1.html … p10.html, each a page of its own; robots.txt says
 * `robots`. Pages past `served` are not answered while the test runs.
 */
function slowSite(robots: string, served: number) {
  let release = () => {};
  const released = new Promise<void>((resolve) => release = resolve);
  const asked: string[] = [];
  const html = (title: string, links: string[]) =>
    new Response(
      `<html><head><title>${title}</title></head><body><main><h1>${title}</h1><p>${
        words(title.replace(" ", "").toLowerCase(), 300)
      }</p>${links.map((href) => `<a href="${href}">${href}</a>`).join(" ")}</main></body></html>`,
      { headers: { "content-type": "text/html" } },
    );
  const server = serve(async (url) => {
    asked.push(url.pathname);
    if (url.pathname === "/robots.txt") return new Response(robots);
    if (url.pathname === "/docs/") {
      return html("Docs home", Array.from({ length: 10 }, (_, i) => i + 1).map((n) => `/docs/p${n}.html`));
    }
    const n = Number(/^\/docs\/p(\d+)\.html$/.exec(url.pathname)?.[1] ?? NaN);
    if (!(n > 0)) return new Response("not found", { status: 404 });
    if (n > served) await released;
    return html(`Page ${n}`, []);
  });
  return {
    origin: server.origin,
    asked,
    async [Symbol.asyncDispose]() {
      release();
      await server[Symbol.asyncDispose]();
    },
  };
}

/** `promise`, or a failure if it has not settled within `ms`: a wait the code under test never ends. */
async function within<T>(ms: number, what: string, promise: Promise<T>): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not end within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

Deno.test("fetchPublished: a Crawl-delay wait ends with the budget, and the pages read by then are the package's published docs", async () => {
  await using m = await machine();
  await using server = slowSite("User-agent: *\nCrawl-delay: 30\n", 6);
  const context = m.context();
  const pkg = installed(`${m.home}/nm/gadget`, "gadget", "3.1.0", { homepage: `${server.origin}/docs/` });
  Deno.mkdirSync(`${context.stateDir}/indexes`, { recursive: true });
  packageIndex(context, pkg);
  // The first two waits pass at once; the third is the full 30 s, which no test waits for: only the budget
  // can end it.
  const slept: number[] = [];
  const sleep = (ms: number) => {
    slept.push(ms);
    return slept.length <= 2 ? Promise.resolve() : new Promise<void>(() => {});
  };
  const state = await within(
    8000,
    "a fetch with a 3 s budget",
    fetchPublished(context, pkg, { ...deps(), sleep, budgetMs: 3000 }),
  );
  ok("published" in state, JSON.stringify(state));
  assertEquals(
    [state.published.kind, state.published.documents, state.published.cutShort],
    ["crawl", 3, "the 3 s allowed ran out after 3 pages"],
  );
  assertEquals(slept, [30_000, 30_000, 30_000]);
  // Nothing asked once the budget ran out.
  assertEquals(server.asked.filter((path) => path.endsWith(".html")), ["/docs/p1.html", "/docs/p2.html"]);
  assertEquals(documentsOf(`${m.state}/indexes/${publishedIndexName(pkg)}.db`), [
    `${server.origin}/docs/`,
    `${server.origin}/docs/p1.html`,
    `${server.origin}/docs/p2.html`,
  ]);
  // Recorded as found, not as a failure to ask again in an hour.
  assertEquals(publishedState(context, pkg), state);
  assertEquals(fetchDue(40, publishedState(context, pkg), NOW + 10 * RETRY_MS), false);
  match(describePublished(state), /; the 3 s allowed ran out after 3 pages\)$/);
});

Deno.test("fetchPublished: a crawl whose requests the budget ends keeps what it read, and the requests in flight are no failures", async () => {
  await using m = await machine();
  // No Crawl-delay: two requests at a time; pages 3 to 10 never answer.
  await using server = slowSite("User-agent: *\n", 2);
  const context = m.context();
  const pkg = installed(`${m.home}/nm/gadget`, "gadget", "3.1.0", { homepage: `${server.origin}/docs/` });
  Deno.mkdirSync(`${context.stateDir}/indexes`, { recursive: true });
  packageIndex(context, pkg);
  // 3 s: ample for three local pages however busy the machine running the tests in parallel is.
  const state = await fetchPublished(context, pkg, { ...deps(), budgetMs: 3000 });
  ok("published" in state, JSON.stringify(state));
  assertEquals(
    [state.published.kind, state.published.documents, state.published.cutShort],
    ["crawl", 3, "the 3 s allowed ran out after 3 pages"],
  );
  // The two pages in flight when the budget ran out, each asked once: no retry, no page after them.
  assertEquals(server.asked.filter((path) => path.endsWith(".html")).sort(), [
    "/docs/p1.html",
    "/docs/p2.html",
    "/docs/p3.html",
    "/docs/p4.html",
  ]);
  assertEquals(documentsOf(`${m.state}/indexes/${publishedIndexName(pkg)}.db`), [
    `${server.origin}/docs/`,
    `${server.origin}/docs/p1.html`,
    `${server.origin}/docs/p2.html`,
  ]);
});
