/** Which configured databases cover a web request. */
import type { Database } from "../config/types.ts";
import { requestUrls, type WebRequest } from "../redirect/request.ts";
import { hostCovered, normalizeHost, urlHost } from "./domains.ts";
import { containsKeyword, normalizeText } from "./keywords.ts";

export type MatchReason = { kind: "keyword"; keyword: string } | { kind: "domain"; host: string };

export interface Match {
  database: Database;
  reason: MatchReason;
}

function coveringDomain(hosts: string[], database: Database): string | undefined {
  return hosts.find((host) => database.domains.some((domain) => hostCovered(host, domain)));
}

/** Every enabled database that covers the request, in config order, each once. */
export function matchRequest(request: WebRequest, databases: readonly Database[]): Match[] {
  const enabled = databases.filter((database) => database.enabled);
  if (request.tool !== "WebSearch") {
    // A URL is specific: only its host decides, never keywords in the URL, the prompt or the command.
    const hosts = requestUrls(request).flatMap((url) => urlHost(url) ?? []);
    return enabled.flatMap((database): Match[] => {
      const host = coveringDomain(hosts, database);
      return host !== undefined ? [{ database, reason: { kind: "domain", host } }] : [];
    });
  }
  const text = normalizeText(request.query);
  const allowedHosts = request.allowedDomains.flatMap((d) => normalizeHost(d) ?? []);
  return enabled.flatMap((database): Match[] => {
    const keyword = database.keywords.find((k) => containsKeyword(text, normalizeText(k)));
    if (keyword !== undefined) return [{ database, reason: { kind: "keyword", keyword } }];
    const host = coveringDomain(allowedHosts, database);
    return host !== undefined ? [{ database, reason: { kind: "domain", host } }] : [];
  });
}
