/**
 * One answer from the site and what it means for the crawl: asked again later, unchanged, a redirect, not
 * a page, or a page to read. Pure: a response's status and headers in, a decision (or a read page) out.
 */
import { NotAskedError, transient } from "./crawl_fetch.ts";
import { pageUrl } from "./crawl_scope.ts";
import { hash53 } from "../hash.ts";
import { chunkDocument, type Read } from "./sources.ts";
import type { DocumentStamp } from "./store.ts";

export type Kind = "html" | "markdown" | "text";

export type ResponseAction =
  /**
   * The site did not serve the page, even after `tries` tries: it counts toward "the site is down", and the
   * page is asked for again when the pass resumes. `why` is the kind of failure.
   */
  | { do: "fail"; why: string; note: string }
  /** The site has no such page for us (404, 403, 410…): the page failed, the site did not. */
  | { do: "missing"; why: string }
  /** 304: the page as it was read last time. */
  | { do: "unchanged" }
  /** A redirect to a page in scope, which is crawled in its place. */
  | { do: "redirect"; target: URL }
  | { do: "skip"; note: string }
  | { do: "read"; kind: Kind };

/** What to do with the answer to a request for `url`, made `tries` times. */
export function responseAction(
  response: { status: number; headers: Headers },
  url: URL,
  inScope: (url: URL) => boolean,
  tries: number,
): ResponseAction {
  const { status, headers } = response;
  if (transient(status)) {
    return { do: "fail", why: `HTTP ${status}`, note: `HTTP ${status}, after ${tries} tries` };
  }
  if (status === 304) return { do: "unchanged" };
  if (status >= 300 && status < 400) {
    const target = pageUrl(headers.get("location") ?? "", url);
    if (target !== undefined && inScope(target)) return { do: "redirect", target };
    const where = target?.origin === url.origin ? "out of scope" : "off-site";
    return { do: "skip", note: `redirects ${where} to ${target?.href ?? "nowhere"}` };
  }
  if (status < 200 || status >= 300) return { do: "missing", why: `HTTP ${status}` };
  const kind = kindOf(headers.get("content-type"), url);
  if (kind === undefined) {
    return { do: "skip", note: `not a page (${headers.get("content-type") ?? "no type"})` };
  }
  return { do: "read", kind };
}

function kindOf(contentType: string | null, url: URL): Kind | undefined {
  const type = (contentType ?? "").split(";")[0].trim().toLowerCase();
  if (type === "text/html" || type === "application/xhtml+xml") return "html";
  if (type === "text/markdown" || /\.(md|markdown|mdx)$/i.test(url.pathname)) return "markdown";
  if (type === "text/plain") return "text";
  return undefined;
}

/** A request declined for good (NotAskedError.final): the one kind of failure that asking later does not mend. */
const REFUSED = "refused";

/** The kind of failure a request that threw is: what a failure count groups it under. */
export const failureOf = (error: unknown): string =>
  error instanceof NotAskedError && error.final
    ? REFUSED
    : error instanceof DOMException && error.name === "TimeoutError"
    ? "timeout"
    : "network error";

/**
 * Whether a failure of this kind (failureOf's, or an answer's "HTTP 503") may pass: a timeout, a network
 * error, a busy or broken server (429, 5xx) may answer later; a page the site says is not there (404, 403,
 * 410) is not there later either, and a refused request is not made later either.
 */
export function mayPass(kind: string): boolean {
  const status = /^HTTP (\d+)$/.exec(kind);
  return status === null ? kind !== REFUSED : transient(Number(status[1]));
}

export type Page = Exclude<Read, { skipped: string }> & { stamp: DocumentStamp } | { skipped: string };

/**
 * A page's body read into chunks, the links it holds (as written) and what tells whether it changed; `name`
 * titles it when it has no title of its own.
 */
export function readPage(
  bytes: Uint8Array,
  kind: Kind,
  url: URL,
  headers: Headers,
  name = pageName(url),
): Page {
  const read = chunkDocument(bytes, kind, name, headers.get("content-type"));
  if ("skipped" in read) return read;
  const stamp = {
    size: bytes.length,
    version: hash53(new TextDecoder().decode(bytes)),
    validator: headers.get("etag") ?? headers.get("last-modified") ?? undefined,
  };
  return { ...read, stamp };
}

/** The last part of the path, which titles a page that has no title of its own. */
export function pageName(url: URL): string {
  const last = url.pathname.split("/").filter(Boolean).pop() ?? url.host;
  try {
    return decodeURIComponent(last);
  } catch {
    // A stray "%" in a link: the raw name titles the page just as well.
    return last;
  }
}
