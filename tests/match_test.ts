import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { containsKeyword, normalizeText } from "../lib/match/keywords.ts";
import { hostCovered, normalizeHost, urlHost } from "../lib/match/domains.ts";
import { matchRequest } from "../lib/match/match.ts";
import { database } from "./helpers.ts";

const matches = (text: string, keyword: string) =>
  containsKeyword(normalizeText(text), normalizeText(keyword));

Deno.test("keywords match case-insensitively and only where not glued to a word character", () => {
  const cases: [string, string, boolean][] = [
    ["how to configure GitLab CI", "gitlab", true],
    ["GITLAB", "gitlab", true],
    ["ungitlabbed repos", "gitlab", false],
    ["gitlabs are great", "gitlab", false],
    ["my_gitlab setup", "gitlab", false],
    ["gitlab2 migration", "gitlab", false],
    ["(gitlab) runners", "gitlab", true],
    ["gitlab-ci.yml syntax", "gitlab", true],
    ["gitlab-ci.yml syntax", "gitlab-ci", true],
    ["gitlab-cix", "gitlab-ci", false],
    ["gitla", "gitlab", false],
    ["gitlab, kubernetes", "gitlab", true],
    ["end with gitlab", "gitlab", true],
    ["gitlab", "gitlab", true],
  ];
  for (const [text, keyword, expected] of cases) {
    assertEquals(matches(text, keyword), expected, `${keyword} in ${text}`);
  }
});

Deno.test("symbol keywords work where a \\b regex fails", () => {
  const cases: [string, string, boolean][] = [
    ["c++ templates tutorial", "c++", true],
    ["modern C++", "c++", true],
    ["c++17 features", "c++", false],
    ["abc++ operator", "c++", false],
    ["c# linq query", "c#", true],
    ["what is f# vs c#?", "c#", true],
    ["abc# thing", "c#", false],
    ["install .NET 8 sdk", ".net", true],
    ["asp.net routing", ".net", false],
    ["node.js streams", "node.js", true],
    ["Node.JS", "node.js", true],
    ["nodexjs", "node.js", false],
  ];
  for (const [text, keyword, expected] of cases) {
    assertEquals(matches(text, keyword), expected, `${keyword} in ${text}`);
  }
});

Deno.test("multi-word keywords tolerate any whitespace between the words", () => {
  assertEquals(matches("GitHub Actions cache", "github actions"), true);
  assertEquals(matches("github\n\t actions", "github actions"), true);
  assertEquals(matches("github actionsx", "github actions"), false);
  assertEquals(matches("mygithub actions", "github actions"), false);
});

Deno.test("letters outside ASCII count as word characters", () => {
  assertEquals(matches("éGitLab", "gitlab"), false);
  assertEquals(matches("gitlab日本", "gitlab"), false);
  assertEquals(matches("日本 gitlab", "gitlab"), true);
  assertEquals(matches("𝒜gitlab", "gitlab"), false);
  assertEquals(matches("🚀gitlab🚀", "gitlab"), true);
  assertEquals(matches("straße docs", "straße"), true);
});

Deno.test("a keyword found glued once is still found free later in the text", () => {
  assertEquals(matches("ungitlabbed but gitlab", "gitlab"), true);
});

Deno.test("hostnames are normalised from hosts, patterns and URLs", () => {
  assertEquals(normalizeHost("Docs.GitLab.com"), "docs.gitlab.com");
  assertEquals(normalizeHost("https://docs.gitlab.com/ee/"), "docs.gitlab.com");
  assertEquals(normalizeHost("*.gitlab.com"), "gitlab.com");
  assertEquals(normalizeHost(".gitlab.com."), "gitlab.com");
  assertEquals(normalizeHost("docs.gitlab.com/ee/ci"), "docs.gitlab.com");
  assertEquals(normalizeHost("localhost:8080"), "localhost");
  assertEquals(normalizeHost("not a host"), undefined);
  assertEquals(normalizeHost(""), undefined);
  assertEquals(urlHost("https://DOCS.gitlab.com./x"), "docs.gitlab.com");
  assertEquals(urlHost("ftp://docs.gitlab.com/x"), undefined);
  assertEquals(urlHost("not a url"), undefined);
});

Deno.test("URL hosts read by hand agree with the WHATWG parser", () => {
  const urls = [
    "https://docs.gitlab.com/ee/ci/",
    "HTTPS://DOCS.GITLAB.COM",
    "http://docs.gitlab.com:8080/x?y#z",
    "https://docs.gitlab.com./x",
    "https://docs.gitlab.com?q=1",
    "https://docs.gitlab.com#frag",
    "https://docs.gitlab.com\\@evil.example/",
    "https://user:pw@docs.gitlab.com/",
    "https://docs.gitlab.com@evil.example/",
    "https://docs.git\tlab.com/",
    " https://docs.gitlab.com/",
    "https://127.1/",
    "https://0x7f.1/",
    "https://[::1]:3000/",
    "https://xn--bcher-kva.example/",
    "https://bücher.example/",
    "https://docs%2egitlab.com/",
    "https://docs..gitlab.com/",
    "https:docs.gitlab.com/",
    "ftp://docs.gitlab.com/",
    "https://",
  ];
  for (const url of urls) {
    let expected: string | undefined;
    try {
      const parsed = new URL(url);
      expected = parsed.protocol.startsWith("http") ? normalizeHost(parsed.hostname) : undefined;
    } catch {
      expected = undefined;
    }
    assertEquals(urlHost(url), expected, url);
  }
});

Deno.test("a host is covered by its domain and the domain's subdomains only", () => {
  assertEquals(hostCovered("docs.gitlab.com", "docs.gitlab.com"), true);
  assertEquals(hostCovered("eu.docs.gitlab.com", "docs.gitlab.com"), true);
  assertEquals(hostCovered("gitlab.com", "docs.gitlab.com"), false);
  assertEquals(hostCovered("evildocs.gitlab.com", "docs.gitlab.com"), false);
  assertEquals(hostCovered("docs.gitlab.com.evil.io", "docs.gitlab.com"), false);
});

const gitlab = database({ name: "gitlab", keywords: ["gitlab", "gitlab-ci"], domains: ["docs.gitlab.com"] });
const k8s = database({ name: "kubernetes", keywords: ["kubernetes", "k8s"], domains: ["kubernetes.io"] });
const off = database({ name: "terraform", keywords: ["terraform"], enabled: false });
const all = [gitlab, k8s, off];
const search = (query: string, allowedDomains: string[] = []) =>
  matchRequest({ tool: "WebSearch", query, allowedDomains, blockedDomains: [] }, all);
const fetch = (url: string, prompt = "") => matchRequest({ tool: "WebFetch", url, prompt }, all);
const names = (ms: { database: { name: string } }[]) => ms.map((m) => m.database.name);

Deno.test("every matching database is collected once, in config order", () => {
  assertEquals(names(search("k8s and GitLab and gitlab-ci")), ["gitlab", "kubernetes"]);
  assertEquals(search("gitlab-ci and gitlab")[0].reason, { kind: "keyword", keyword: "gitlab" });
  assertEquals(names(search("pizza")), []);
});

Deno.test("disabled databases never match", () => {
  assertEquals(names(search("terraform modules")), []);
});

Deno.test("a search whose allowed_domains name a database domain matches it without a keyword", () => {
  assertEquals(search("runner tokens", ["docs.gitlab.com"])[0].reason, {
    kind: "domain",
    host: "docs.gitlab.com",
  });
  assertEquals(names(search("runner tokens", ["https://eu.docs.gitlab.com/"])), ["gitlab"]);
  assertEquals(names(search("runner tokens", ["gitlab.com"])), []);
  assertEquals(names(search("runner tokens", ["example.com"])), []);
});

Deno.test("a fetch is matched by its host only, never by keywords in its URL or prompt", () => {
  assertEquals(fetch("https://docs.gitlab.com/ee/ci/")[0].reason, {
    kind: "domain",
    host: "docs.gitlab.com",
  });
  assertEquals(names(fetch("https://kubernetes.io/docs/concepts/")), ["kubernetes"]);
  assertEquals(names(fetch("https://example.com/gitlab/kubernetes", "explain gitlab and k8s")), []);
  assertEquals(names(fetch("https://gitlab.com/gitlab-org/gitlab")), []);
  assertEquals(names(fetch("not a url at all gitlab")), []);
});
