/** Hostname handling shared by config validation and matching. */

/**
 * Lower-case hostname from a bare host, a `*.host` / `.host` pattern or a URL; undefined when it is not a
 * hostname. Users paste all of these into `domains` and agents into `allowed_domains`.
 */
export function normalizeHost(input: string): string | undefined {
  let host = input.trim().toLowerCase();
  if (host.includes("://")) {
    try {
      host = new URL(host).hostname;
    } catch {
      return undefined;
    }
  } else {
    host = host.replace(/^\*?\./, "").split("/")[0].replace(/:\d+$/, "");
  }
  host = host.replace(/\.$/, "");
  return /^[a-z0-9-]+(\.[a-z0-9-]+)*$/.test(host) || /^\[[0-9a-f:.]+\]$/.test(host) ? host : undefined;
}

/** True when `host` is `domain` or one of its subdomains. */
export function hostCovered(host: string, domain: string): boolean {
  return host === domain || host.endsWith("." + domain);
}

/** Plain `http(s)://host[:port]` followed by a path, query, fragment or nothing; the host is group 1. */
const PLAIN_HTTP_URL = /^https?:\/\/([a-z0-9.-]+)(?::\d*)?(?:[/?#]|$)/i;
const NUMERIC_LAST_LABEL = /(^|\.)\d+\.?$/;

/** The hostname of a URL the agent wants to fetch, or undefined for anything that is not an http(s) URL. */
export function urlHost(url: string): string | undefined {
  // `new URL` costs ~0.35 ms on first use, a third of the hook's own work. Plain URLs are read by hand;
  // anything else in the authority (userinfo, backslashes, escapes, IPv4 shorthands, non-ASCII,
  // whitespace) goes to the WHATWG parser, so both paths agree on every host (see match_test.ts).
  const plain = PLAIN_HTTP_URL.exec(url);
  if (plain && !NUMERIC_LAST_LABEL.test(plain[1])) return normalizeHost(plain[1]);
  try {
    const parsed = new URL(url);
    if (parsed.protocol !== "http:" && parsed.protocol !== "https:") return undefined;
    return normalizeHost(parsed.hostname);
  } catch {
    return undefined;
  }
}

/**
 * The path of a URL with an authority (`scheme://host/path?query`), up to its query or fragment; "" when it
 * has none, undefined for text that is no such URL. Read by hand for the reason urlHost reads plain URLs so:
 * only the path's words and last segment are needed, and `new URL` costs ~0.35 ms on first use.
 */
export function urlPath(url: string): string | undefined {
  const authority = url.indexOf("://");
  if (authority < 0) return undefined;
  let path = "";
  let inPath = false;
  for (let i = authority + 3; i < url.length && url[i] !== "?" && url[i] !== "#"; i++) {
    if (url[i] === "/") inPath = true;
    if (inPath) path += url[i];
  }
  return path;
}
