/**
 * Which addresses the fetching of a dependency's published docs may ask. The URLs come from the dependency's
 * own metadata (package.json's `repository` and `homepage`, a distribution's Project-URLs, Cargo.toml), which
 * its author wrote: a hostile one could name a service on the user's machine or network. So the product asks
 * only https URLs of public hosts, by name and by the addresses the name resolves to; tests give a policy that
 * lets them serve on 127.0.0.1. The policy is data, so that it crosses into the upkeep's worker thread.
 */
import { NotAskedError } from "../docs/crawl_fetch.ts";
import { messageOf } from "../errors.ts";

export interface NetworkPolicy {
  /** Plain http too (a test's server); the product asks https only. */
  http: boolean;
  /** Loopback, private and link-local addresses too (a test's 127.0.0.1); never in the product. */
  privateHosts: boolean;
  /** Nothing at all: a test's machine, where packages name real hosts that must not be asked. */
  offline?: boolean;
  /**
   * Requests go through a proxy (HTTPS_PROXY), which resolves names itself: a name this machine cannot resolve
   * is asked all the same. Without one, such a name is refused: the system's resolver, which fetch uses, also
   * knows names DNS does not (mDNS's `printer.local`, a company's name service), and may send them inward.
   */
  proxied?: boolean;
}

/** What the program asks when it runs for a user. */
export const PRODUCT_POLICY: NetworkPolicy = { http: false, privateHosts: false };

/**
 * A request the policy refuses: it never leaves the machine, now or later. A name that does not resolve is a
 * NotAskedError only: the machine may be offline now.
 */
export class RefusedUrlError extends NotAskedError {
  override readonly final = true;
}

/** Whether an IPv4 address (dotted) is one a public site cannot have. */
function privateIPv4(address: string): boolean {
  const parts = address.split(".").map(Number);
  if (parts.length !== 4 || parts.some((part) => !Number.isInteger(part) || part < 0 || part > 255)) {
    return true;
  }
  const [a, b] = parts;
  return a === 0 || a === 10 || a === 127 || (a === 100 && b >= 64 && b <= 127) ||
    (a === 169 && b === 254) || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) ||
    (a === 198 && (b === 18 || b === 19)) || a >= 224;
}

/** Whether an IPv6 address (as URL.hostname writes it, without brackets) is one a public site cannot have. */
function privateIPv6(address: string): boolean {
  const lower = address.toLowerCase();
  if (lower === "::" || lower === "::1") return true;
  // IPv4 in IPv6 (::ffff:127.0.0.1, which URL writes as ::ffff:7f00:1): judged as that IPv4 address.
  const mapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(lower);
  if (mapped !== null) {
    const high = parseInt(mapped[1], 16);
    const low = parseInt(mapped[2], 16);
    return privateIPv4(`${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`);
  }
  if (/^::ffff:\d/.test(lower)) return privateIPv4(lower.slice(7));
  const first = parseInt(lower.split(":")[0] || "0", 16);
  // fc00::/7 unique local, fe80::/10 link-local, ff00::/8 multicast.
  return (first & 0xfe00) === 0xfc00 || (first & 0xffc0) === 0xfe80 || (first & 0xff00) === 0xff00;
}

/** Whether an address (IPv4 or IPv6, no brackets) is loopback, private, link-local or otherwise not public. */
export function privateAddress(address: string): boolean {
  return address.includes(":") ? privateIPv6(address) : privateIPv4(address);
}

const IPV4 = /^\d{1,3}(\.\d{1,3}){3}$/;

/** Names for hosts of a home or a company, never public ones (special-use and private-use domains). */
const INWARD = /(^|\.)(localhost|local|internal|home\.arpa|lan|localdomain|intranet|corp|test|invalid)$/;

/** Why the policy refuses `url` by its text alone; undefined when its scheme and host may be asked. */
export function refusal(url: URL, policy: NetworkPolicy): string | undefined {
  if (policy.offline) return "this machine asks no network";
  const schemes = policy.http ? ["https:", "http:"] : ["https:"];
  if (!schemes.includes(url.protocol)) return `${url.protocol} is not ${policy.http ? "http(s)" : "https"}`;
  if (url.username !== "" || url.password !== "") return "a URL with credentials in it";
  if (policy.privateHosts) return undefined;
  // "localhost." is "localhost": a name's final dot changes nothing of where it leads.
  const host = url.hostname.replace(/^\[|\]$/g, "").toLowerCase().replace(/\.$/, "");
  if (INWARD.test(host) || !host.includes(".") && !host.includes(":")) {
    return `${host} is not a public host`;
  }
  if ((IPV4.test(host) || host.includes(":")) && privateAddress(host)) {
    return `${host} is not a public address`;
  }
  return undefined;
}

/** The addresses a host name resolves to (Deno.resolveDns in the product). */
export type Resolve = (host: string) => Promise<string[]>;

/** Deno's resolver, for both address families; a family the name has none of is no error. */
export const resolveDns: Resolve = async (host) => {
  const found = await Promise.allSettled([Deno.resolveDns(host, "A"), Deno.resolveDns(host, "AAAA")]);
  const addresses = found.flatMap((result) => result.status === "fulfilled" ? result.value : []);
  if (addresses.length === 0) {
    // "No records found" is all there is to say (the resolver's text adds its query's debug dump); anything
    // else (a timeout, a refused lookup) is said as it is.
    const failed = found.find((result) =>
      result.status === "rejected" && !(result.reason instanceof Deno.errors.NotFound)
    ) as PromiseRejectedResult | undefined;
    throw new Error(`${host} does not resolve${failed ? `: ${messageOf(failed.reason)}` : ""}`);
  }
  return addresses;
};

/**
 * `fetch` that asks only what the policy allows: every request, so a redirect followed by hand is checked as
 * well (the callers follow redirects themselves, `redirect: "manual"`), and a name that resolves to a private
 * address is refused before it is asked. `signal` ends every request at once (a package's time budget).
 */
export function guardedFetch(
  fetch: typeof globalThis.fetch,
  policy: NetworkPolicy,
  resolve: Resolve,
  signal?: AbortSignal,
): typeof globalThis.fetch {
  return async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : input);
    const why = refusal(url, policy);
    if (why !== undefined) throw new RefusedUrlError(`not fetched: ${url.href} (${why})`);
    const host = url.hostname.replace(/^\[|\]$/g, "");
    if (!policy.privateHosts && !IPV4.test(host) && !host.includes(":")) {
      let addresses: string[] = [];
      try {
        addresses = await resolve(host);
      } catch (error) {
        // Behind a proxy only the proxy resolves names (see NetworkPolicy.proxied). Without one, not asked;
        // and a failure to ask again later, not a refusal: a machine offline now resolves nothing.
        if (!policy.proxied) throw new NotAskedError(`not fetched: ${url.href} (${messageOf(error)})`);
      }
      const privateOnes = addresses.filter(privateAddress);
      if (privateOnes.length > 0) {
        throw new RefusedUrlError(`not fetched: ${url.href} (${host} resolves to ${privateOnes[0]})`);
      }
    }
    const signals = [init?.signal, signal].filter((one): one is AbortSignal => one != null);
    return await fetch(input, {
      ...init,
      redirect: "manual",
      ...signals.length > 0 ? { signal: AbortSignal.any(signals) } : {},
    });
  };
}
