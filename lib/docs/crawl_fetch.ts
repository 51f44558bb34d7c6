/**
 * The crawler's requests: who asks, conditional on what was read before, retried when the failure may pass,
 * and bodies read only up to the size an index takes.
 */
import { readUpTo } from "../bytes.ts";
import { messageOf } from "../errors.ts";
import { VERSION } from "../version.ts";
import { USER_AGENT } from "./robots.ts";
import { MAX_FILE_BYTES } from "./sources.ts";

/** Who asks: every request for docs says so, the crawler's and the published docs' alike. */
export const HEADERS = { "user-agent": `${USER_AGENT}/${VERSION} (docs indexer)` };

/** A request for `url`, with retries for what may pass; the last response or error otherwise. */
export type Request = (url: URL, headers?: Record<string, string>) => Promise<Response>;

export interface RetryPolicy {
  /** Per request. */
  timeoutMs: number;
  /** Waits before the second and third try. */
  retryDelaysMs: readonly number[];
}

/**
 * A request the fetch function declined to make (a network policy's refusal, a host this machine cannot
 * resolve); its message names the URL and why. Asked again a second later it would be declined again: it is
 * never retried.
 */
export class NotAskedError extends Error {
  /**
   * Declined for good (a policy's refusal), not only now (a name that does not resolve while the machine is
   * offline): what an hour later would not change.
   */
  readonly final: boolean = false;
}

/**
 * A host name the resolver says does not exist (offline, a typo), in Linux's, macOS's and Windows' words: asked
 * again a second later, it still does not. "Temporary failure in name resolution" may pass, and is retried.
 */
const unresolved = (error: unknown) =>
  /^dns error\b.*(name or service not known|nodename nor servname|no such host is known)/i.test(
    messageOf(error),
  );

/** An answer that may be different if asked again a little later: the site is busy or broken for now. */
export const transient = (status: number): boolean => status === 429 || status >= 500;

/**
 * `sleep`, ended early when `budget` aborts: a wait (a retry's, a Crawl-delay's) never outlasts the time
 * allowed, which an injected sleep knows nothing of.
 */
export function budgetedSleep(
  sleep: (ms: number) => Promise<void>,
  budget: AbortSignal | undefined,
): (ms: number) => Promise<void> {
  if (budget === undefined) return sleep;
  return (ms) => {
    if (budget.aborted) return Promise.resolve();
    let ended = () => {};
    const over = new Promise<void>((resolve) => {
      ended = resolve;
      budget.addEventListener("abort", ended, { once: true });
    });
    return Promise.race([sleep(ms), over]).finally(() => budget.removeEventListener("abort", ended));
  };
}

/**
 * Requests that retry timeouts, network errors, 429 and 5xx (not a request declined before it was made, nor a
 * host name that does not resolve), and follow no redirect by themselves: the crawl decides whether a
 * redirect's target is in scope. `budget` ends a request in flight and its retries at once.
 */
export function requester(
  fetch: typeof globalThis.fetch,
  sleep: (ms: number) => Promise<void>,
  policy: RetryPolicy,
  budget?: AbortSignal,
): Request {
  const wait = budgetedSleep(sleep, budget);
  return async (url, headers = {}) => {
    for (let attempt = 0;; attempt++) {
      const last = attempt >= policy.retryDelaysMs.length;
      const timeout = AbortSignal.timeout(policy.timeoutMs);
      try {
        const response = await fetch(url, {
          headers: { ...HEADERS, ...headers },
          redirect: "manual",
          signal: budget === undefined ? timeout : AbortSignal.any([timeout, budget]),
        });
        if (!transient(response.status) || last || budget?.aborted) return response;
        await response.body?.cancel();
      } catch (error) {
        if (last || budget?.aborted || error instanceof NotAskedError || unresolved(error)) throw error;
      }
      await wait(policy.retryDelaysMs[attempt]);
    }
  };
}

/** The headers that ask for a page only if it changed since it was read with `validator`. */
export function conditional(validator: string | undefined): Record<string, string> {
  if (validator === undefined) return {};
  // An ETag is quoted ("…" or W/"…"); anything else is a Last-Modified date.
  return /^(W\/)?"/.test(validator) ? { "if-none-match": validator } : { "if-modified-since": validator };
}

/** The body, up to `limit` bytes; undefined when it is larger (and then it is not read to the end). */
export async function readCapped(
  response: Response,
  limit = MAX_FILE_BYTES,
): Promise<Uint8Array | undefined> {
  const declared = Number(response.headers.get("content-length") ?? NaN);
  if (declared > limit) {
    await response.body?.cancel();
    return undefined;
  }
  return await readUpTo(response.body ?? [], limit);
}
