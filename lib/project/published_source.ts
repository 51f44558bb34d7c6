/**
 * Where a dependency's documentation is published, from what its installed copy says of itself: npm's
 * `repository` (a URL, a `github:owner/repo` or `owner/repo` shorthand, or `{url, directory}` for a package in
 * a monorepo) and `homepage`; a Python distribution's `Project-URL`s and `Home-page`; Cargo.toml's
 * `repository`, `homepage` and `documentation`; a Go module's path. The repository gives the archive of the tag
 * of the installed version; the homepage, the site to read. The text is the package author's: only what parses
 * as an http(s) URL is taken (net_policy.ts decides what may be asked).
 */
import { parse as parseToml } from "smol-toml";
import { readRegularTextCapped } from "../files.ts";
import { join, type OS } from "../paths.ts";
import { type InstalledPackage, readJsonObject } from "./npm.ts";
import { readMetadata } from "./python.ts";

export interface Repository {
  /** The repository's web address: `https://github.com/owner/repo`. */
  web: URL;
  /** The package's folder in it, for a monorepo: `packages/react-dom`. */
  directory?: string;
}

export interface PublishedSources {
  repository?: Repository;
  /** The docs site: a homepage, or a distribution's Documentation URL. */
  site?: URL;
}

/** Hosts of the `host:owner/repo` shorthands npm accepts. */
const SHORTHAND_HOSTS: Record<string, string> = {
  github: "github.com",
  gitlab: "gitlab.com",
  bitbucket: "bitbucket.org",
};

/** A repository folder name: no path tricks, no empty or dot segments. */
const cleanDirectory = (value: string | undefined): string | undefined => {
  const parts = (value ?? "").replaceAll("\\", "/").split("/").filter((part) => part !== "" && part !== ".");
  return parts.length === 0 || parts.some((part) => part === "..") ? undefined : parts.join("/");
};

/**
 * A repository as package metadata writes it, to its web address: `git+https://github.com/o/r.git`,
 * `git://…`, `git+ssh://git@github.com/o/r.git`, `git@github.com:o/r.git`, `github:o/r`, `o/r`, or a web page
 * of it (`https://github.com/o/r/tree/main/packages/x`, whose folder is the package's). Undefined when it
 * is none of these.
 */
export function repositoryUrl(raw: string, directory?: string): Repository | undefined {
  let text = raw.trim();
  const shorthand = /^(?:(github|gitlab|bitbucket):)?([\w.-]+)\/([\w.-]+?)(?:\.git)?$/.exec(text);
  if (shorthand !== null && !text.includes("//")) {
    text = `https://${SHORTHAND_HOSTS[shorthand[1] ?? "github"]}/${shorthand[2]}/${shorthand[3]}`;
  }
  // scp-like: git@github.com:owner/repo.git
  const scp = /^[\w.-]+@([\w.-]+):\/?(.+)$/.exec(text);
  if (scp !== null) text = `https://${scp[1]}/${scp[2]}`;
  text = text.replace(/^git\+/, "").replace(/^(?:git|ssh):\/\//, "https://");
  if (!URL.canParse(text)) return undefined;
  const url = new URL(text);
  if (url.protocol !== "https:" && url.protocol !== "http:") return undefined;
  const segments = url.pathname.split("/").filter((part) => part !== "");
  if (segments.length < 2) return undefined;
  const [owner, repo] = [segments[0], segments[1].replace(/\.git$/, "")];
  if (!/^[\w.-]+$/.test(owner) || !/^[\w.-]+$/.test(repo)) return undefined;
  // A page of the repository: /tree/<ref>/<folder> names the package's folder.
  const tree = segments[2] === "tree" && segments.length > 4 ? segments.slice(4).join("/") : undefined;
  const folder = cleanDirectory(directory) ?? cleanDirectory(tree);
  return {
    web: new URL(`https://${url.host}/${owner}/${repo}`.replace(/^https:/, url.protocol)),
    ...folder === undefined ? {} : { directory: folder },
  };
}

/** An http(s) URL as written, else undefined. */
function httpUrl(raw: unknown): URL | undefined {
  if (typeof raw !== "string" || !URL.canParse(raw.trim())) return undefined;
  const url = new URL(raw.trim());
  return url.protocol === "https:" || url.protocol === "http:" ? url : undefined;
}

/** A code host's page is the repository's, not a docs site: the archive reads it better. */
const CODE_HOSTS = new Set(["github.com", "www.github.com", "gitlab.com", "bitbucket.org", "codeberg.org"]);

function site(candidates: unknown[]): URL | undefined {
  return candidates.map(httpUrl).find((url) => url !== undefined && !CODE_HOSTS.has(url.hostname));
}

/** Where an npm package's docs are published, from its package.json. */
export function npmSources(manifest: Record<string, unknown>): PublishedSources {
  const field = manifest.repository;
  const record = typeof field === "object" && field !== null ? field as Record<string, unknown> : undefined;
  const raw = typeof field === "string" ? field : typeof record?.url === "string" ? record.url : undefined;
  const directory = typeof record?.directory === "string" ? record.directory : undefined;
  const repository = raw === undefined ? undefined : repositoryUrl(raw, directory);
  const homepage = site([manifest.homepage]);
  return {
    ...repository === undefined ? {} : { repository },
    ...homepage === undefined ? {} : { site: homepage },
  };
}

const SOURCE_LABELS = /^(source|sources|source code|code|repository|repo|github|gitlab)$/i;
const DOCS_LABELS = /^(documentation|docs|doc)$/i;
const HOME_LABELS = /^(homepage|home|home-page|website)$/i;

/**
 * Where a Python distribution's docs are published, from its METADATA: the repository from a Project-URL
 * labelled Source (Repository, Code, GitHub …) or a code-host Homepage; the site from Documentation, else
 * Homepage or Home-page.
 */
export function pypiSources(projectUrls: readonly [string, string][], homePage?: string): PublishedSources {
  const labelled = (labels: RegExp) =>
    projectUrls.filter(([label]) => labels.test(label)).map(([, url]) => url);
  const homes = [...labelled(HOME_LABELS), ...homePage ? [homePage] : []];
  const repository = [
    ...labelled(SOURCE_LABELS),
    ...homes.filter((url) => CODE_HOSTS.has(httpUrl(url)?.hostname ?? "")),
  ]
    .map((url) => httpUrl(url) && repositoryUrl(url))
    .find((found) => found !== undefined);
  const docs = site([...labelled(DOCS_LABELS), ...homes]);
  return {
    ...repository === undefined ? {} : { repository },
    ...docs === undefined ? {} : { site: docs },
  };
}

/** Where a crate's docs are published, from its Cargo.toml's [package] table. */
export function crateSources(pkg: Record<string, unknown>): PublishedSources {
  const repository = typeof pkg.repository === "string" ? repositoryUrl(pkg.repository) : undefined;
  // docs.rs is the API reference the installed sources already hold; a homepage is the guide.
  const docs = site([pkg.homepage, pkg.documentation].filter((url) => !String(url).includes("docs.rs")));
  return {
    ...repository === undefined ? {} : { repository },
    ...docs === undefined ? {} : { site: docs },
  };
}

/**
 * Where a Go module's docs are published: a module on a code host is its repository (`github.com/o/r/v2`
 * is `o/r`; a module in a subfolder, `github.com/o/r/sub`, is that folder of it). Other paths (vanity imports)
 * would need a request to resolve: none.
 */
export function goSources(modulePath: string): PublishedSources {
  const [host, owner, repo, ...rest] = modulePath.split("/");
  if (!CODE_HOSTS.has(host) || owner === undefined || repo === undefined) return {};
  const folder = rest.filter((part) => !/^v\d+$/.test(part)).join("/");
  const repository = repositoryUrl(`https://${host}/${owner}/${repo}`, folder || undefined);
  return repository === undefined ? {} : { repository };
}

const MAX_MANIFEST_BYTES = 1024 * 1024;

/** Where the installed package's docs are published, from its own metadata; nothing when it says nothing. */
export function publishedSources(pkg: InstalledPackage, os: OS): PublishedSources {
  switch (pkg.ecosystem) {
    case "npm": {
      const manifest = readJsonObject(join(os, pkg.dir, "package.json"));
      return manifest === undefined ? {} : npmSources(manifest);
    }
    case "pypi": {
      const metadata = readMetadata(pkg.dir, os);
      return metadata === undefined
        ? {}
        : pypiSources(metadata.projectUrls, metadata.headers.get("home-page"));
    }
    case "crates": {
      try {
        const toml = parseToml(
          readRegularTextCapped(join(os, pkg.dir, "Cargo.toml"), MAX_MANIFEST_BYTES) ?? "",
        );
        const table = toml.package;
        return typeof table === "object" && table !== null
          ? crateSources(table as Record<string, unknown>)
          : {};
      } catch {
        return {};
      }
    }
    case "go":
      return goSources(pkg.name);
  }
}

/**
 * The tags the installed version may be published under, most common first: `v1.2.3`, `1.2.3`, and a
 * monorepo's `name@1.2.3`; a Go module's version is its tag already (`v1.2.3`, or `sub/v1.2.3` for a module in
 * a subfolder).
 */
export function tagCandidates(
  pkg: Pick<InstalledPackage, "ecosystem" | "name" | "version">,
  directory?: string,
): string[] {
  if (pkg.ecosystem === "go") {
    return directory === undefined ? [pkg.version] : [`${directory}/${pkg.version}`, pkg.version];
  }
  const version = pkg.version.replace(/^v/, "");
  return [...new Set([`v${version}`, version, `${pkg.name}@${version}`])];
}

/** A tag's source archive, as GitHub (and Gitea, Forgejo) serve it. */
/** A tag in a URL's path: each of its segments escaped, its slashes kept (a Go module's `sdk/azcore/v1.1.0`). */
export const tagPath = (tag: string): string => tag.split("/").map(encodeURIComponent).join("/");

export const archiveUrl = (repository: Repository, tag: string): URL =>
  new URL(`${repository.web.href}/archive/refs/tags/${tagPath(tag)}.tar.gz`);
