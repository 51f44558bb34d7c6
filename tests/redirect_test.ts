import { deepStrictEqual as assertEquals, match, ok } from "node:assert/strict";
import { matchRequest } from "../lib/match/match.ts";
import { buildDenial, decideRedirect, type RedirectState } from "../lib/redirect/decide.ts";
import { formatDuration, literalArguments, localQuery, toolCall } from "../lib/redirect/guidance.ts";
import { requestIdentity, type WebRequest, webRequestFrom } from "../lib/redirect/request.ts";
import type { DenialRecord } from "../lib/state/store.ts";
import { config, database } from "./helpers.ts";

const gitlab = database({
  name: "gitlab",
  keywords: ["gitlab"],
  domains: ["docs.gitlab.com"],
  path: "/db/gitlab",
  indexName: "gitlab",
  mcpToolName: "mcp__leann__leann_search",
  description: "GitLab docs",
});
const k8s = database({ name: "kubernetes", keywords: ["k8s"], path: "/db/k8s" });
const search = (query: string, allowedDomains: string[] = [], blockedDomains: string[] = []): WebRequest => ({
  tool: "WebSearch",
  query,
  allowedDomains,
  blockedDomains,
});
const reasonOf = (output: string) => JSON.parse(output).hookSpecificOutput.permissionDecisionReason as string;

Deno.test("web requests are read from WebSearch and WebFetch tool_input only", () => {
  assertEquals(
    webRequestFrom("WebSearch", { query: "q", allowed_domains: ["a.com", 3], blocked_domains: "x" }),
    {
      tool: "WebSearch",
      query: "q",
      allowedDomains: ["a.com"],
      blockedDomains: [],
    },
  );
  assertEquals(webRequestFrom("WebFetch", { url: "https://a.com", prompt: 5 }), {
    tool: "WebFetch",
    url: "https://a.com",
    prompt: "",
  });
  assertEquals(webRequestFrom("WebSearch", { query: "  " }), undefined);
  assertEquals(webRequestFrom("WebSearch", { q: "gitlab" }), undefined);
  assertEquals(webRequestFrom("WebFetch", {}), undefined);
  assertEquals(webRequestFrom("Bash", { query: "gitlab" }), undefined);
  assertEquals(webRequestFrom("WebSearch", undefined), undefined);
});

Deno.test("request identity: exact query, domain lists as sets, or the exact URL", () => {
  const id = (r: WebRequest) => requestIdentity(r);
  assertEquals(id(search("q", ["b.com", "a.com"])), id(search("q", ["A.com", "b.com", "a.com"])));
  assertEquals(id(search("q", [], ["x.com", "y.com"])), id(search("q", [], ["y.com", "x.com"])));
  ok(id(search("q")) !== id(search("q ")));
  ok(id(search("q")) !== id(search("Q")));
  ok(id(search("q", ["a.com"])) !== id(search("q", [], ["a.com"])));
  assertEquals(
    id({ tool: "WebFetch", url: "https://a.com/x", prompt: "one" }),
    id({ tool: "WebFetch", url: "https://a.com/x", prompt: "two" }),
  );
  ok(
    id({ tool: "WebFetch", url: "https://a.com/x", prompt: "" }) !==
      id({ tool: "WebFetch", url: "https://a.com/y", prompt: "" }),
  );
});

Deno.test("literal arguments come from index_name and tool_args, with {query} placing the query", () => {
  assertEquals(literalArguments(gitlab, "q"), { index_name: "gitlab", query: "q" });
  assertEquals(literalArguments(database({ name: "x", toolArgs: { q: "{query}", limit: 5 } }), "runners"), {
    q: "runners",
    limit: 5,
  });
  assertEquals(literalArguments(database({ name: "x" }), "q"), undefined);
  assertEquals(
    toolCall(gitlab, 'say "hi"'),
    'mcp__leann__leann_search {"index_name":"gitlab","query":"say \\"hi\\""}',
  );
  assertEquals(toolCall(k8s, "pods"), 'mcp__leann__search for "pods" in /db/k8s');
});

Deno.test("what to search locally: the query, the fetch prompt, or words of the URL path", () => {
  assertEquals(localQuery(search("  gitlab runners ")), "gitlab runners");
  assertEquals(
    localQuery({ tool: "WebFetch", url: "https://x.io/a", prompt: "register a runner" }),
    "register a runner",
  );
  assertEquals(
    localQuery({
      tool: "WebFetch",
      url: "https://docs.gitlab.com/ee/ci/runners/register_runner.html",
      prompt: "",
    }),
    "ee ci runners register runner",
  );
  assertEquals(localQuery(search("x".repeat(600))).length, 501);
  // An emoji across the 500th character is left out whole, not cut in half.
  assertEquals(localQuery(search("x".repeat(499) + "🙂 more")), "x".repeat(499) + "…");
});

Deno.test("single match: the reason names keyword, database, path, the literal call and the escape hatch", () => {
  const request = search("configure GitLab runners");
  const output = buildDenial(request, matchRequest(request, [gitlab, k8s]), {
    ttlSeconds: 300,
    retryWillPass: true,
  });
  const parsed = JSON.parse(output);
  assertEquals(parsed.hookSpecificOutput.hookEventName, "PreToolUse");
  assertEquals(parsed.hookSpecificOutput.permissionDecision, "deny");
  match(parsed.hookSpecificOutput.additionalContext, /gitlab \(mcp__leann__leann_search\)/);
  const reason = reasonOf(output);
  match(reason, /"gitlab" matches the "gitlab" docs \(GitLab docs; database \/db\/gitlab\)/);
  ok(reason.includes('mcp__leann__leann_search {"index_name":"gitlab","query":"configure GitLab runners"}'));
  match(
    reason,
    /repeat this identical WebSearch \(same query and domains\) within 5 minutes and it will be allowed/,
  );
  ok(!reason.includes("IN PARALLEL"));
});

Deno.test("the built-in search's denial says how to query a keyword index; another tool's does not", () => {
  const builtIn = database({
    name: "pg",
    keywords: ["postgres"],
    indexName: undefined,
    mcpToolName: "mcp__docsearch__search",
    toolArgs: { index: "pg", query: "{query}" },
  });
  const request = search("postgres index concurrently");
  const reason = (db: typeof gitlab) =>
    reasonOf(buildDenial(request, matchRequest(request, [db]), { ttlSeconds: 60, retryWillPass: true }));
  match(reason(builtIn), /keyword index: use the docs' own terms and API names/);
  match(reason(builtIn), /takes a list of phrasings/);
  ok(!reason({ ...gitlab, keywords: ["postgres"] }).includes("keyword index"));
});

Deno.test("several matches: one numbered line per database and IN PARALLEL", () => {
  const request = search("gitlab on k8s");
  const reason = reasonOf(
    buildDenial(request, matchRequest(request, [gitlab, k8s]), { ttlSeconds: 90, retryWillPass: true }),
  );
  match(reason, /IN PARALLEL/);
  match(
    reason,
    /\n1\. "gitlab" \("gitlab"; GitLab docs; database \/db\/gitlab\): mcp__leann__leann_search \{/,
  );
  match(
    reason,
    /\n2\. "kubernetes" \("k8s"; kubernetes documentation; database \/db\/k8s\): mcp__leann__search for "gitlab on k8s"/,
  );
  match(reason, /within 90 seconds/);
});

Deno.test("a fetch denial names the URL and domain; without state the reason says a retry will not pass", () => {
  const request: WebRequest = { tool: "WebFetch", url: "https://docs.gitlab.com/ee/", prompt: "tags" };
  const reason = reasonOf(
    buildDenial(request, matchRequest(request, [gitlab]), { ttlSeconds: 60, retryWillPass: false }),
  );
  match(reason, /covers https:\/\/docs\.gitlab\.com\/ee\/: domain docs\.gitlab\.com matches/);
  match(
    reason,
    /repeating the request would be denied again; tell the user that docsearch-hook cannot save its state/,
  );
  ok(!reason.includes("will be allowed"));
});

Deno.test("a long URL is clipped in the reason like a long query", () => {
  const request: WebRequest = {
    tool: "WebFetch",
    url: `https://docs.gitlab.com/${"a/".repeat(1_000_000)}`,
    prompt: "",
  };
  const reason = reasonOf(
    buildDenial(request, matchRequest(request, [gitlab]), { ttlSeconds: 60, retryWillPass: true }),
  );
  ok(reason.length < 2_000, `${reason.length}`);
});

Deno.test("durations read naturally", () => {
  assertEquals([1, 45, 60, 300, 3600, 7200, 90].map(formatDuration), [
    "1 second",
    "45 seconds",
    "1 minute",
    "5 minutes",
    "1 hour",
    "2 hours",
    "90 seconds",
  ]);
});

/** An in-memory state with the store's semantics, for the decision alone. */
function memoryState(): RedirectState & { records: DenialRecord[] } {
  const records: DenialRecord[] = [];
  return {
    records,
    retryOrRecord(denial, notBefore) {
      const i = records.findIndex((r) =>
        r.sessionId === denial.sessionId && r.requestKey === denial.requestKey && r.at >= notBefore
      );
      if (i >= 0) {
        records.splice(i, 1);
        return "retry";
      }
      records.splice(0, records.length, ...records.filter((r) => r.at >= notBefore), denial);
      return "recorded";
    },
  };
}

Deno.test("decision: deny and record, let the identical retry through once, then deny again", () => {
  const state = memoryState();
  const cfg = config([gitlab]);
  const open = { state };
  const request = search("gitlab runners");
  const first = decideRedirect(request, "s1", cfg, open, 1_000);
  assertEquals(first.action, "deny");
  assertEquals(state.records.map((r) => [r.sessionId, r.tool, r.request, r.databases]), [
    ["s1", "WebSearch", "gitlab runners", ["gitlab"]],
  ]);
  assertEquals(decideRedirect(request, "s2", cfg, open, 2_000).action, "deny");
  const retry = decideRedirect(request, "s1", cfg, open, 3_000);
  assertEquals(retry.action === "allow" && retry.why, "escape-hatch");
  assertEquals(decideRedirect(request, "s1", cfg, open, 4_000).action, "deny");
});

Deno.test("decision: the same call seen again (same tool_use_id) is denied again with the same guidance", () => {
  const ids: (string | undefined)[] = [];
  const seenAgain = {
    retryOrRecord(denial: DenialRecord) {
      ids.push(denial.toolUseId);
      assertEquals(denial.via, "settings");
      return ids.length === 1 ? "recorded" as const : "repeat" as const;
    },
  };
  const cfg = config([gitlab]);
  const decide = () =>
    decideRedirect(search("gitlab"), "s", cfg, { state: seenAgain }, 0, undefined, {
      toolUseId: "toolu_1",
      via: "settings",
    });
  const [first, again] = [decide(), decide()];
  assertEquals(ids, ["toolu_1", "toolu_1"]);
  ok(first.action === "deny" && again.action === "deny");
  assertEquals([first.repeat, again.repeat, again.output], [undefined, true, first.output]);
});

Deno.test("decision: a retry after the TTL is denied again", () => {
  const state = memoryState();
  const cfg = config([gitlab], 10);
  const open = { state };
  decideRedirect(search("gitlab"), "s", cfg, open, 0);
  assertEquals(decideRedirect(search("gitlab"), "s", cfg, open, 10_001).action, "deny");
  assertEquals(decideRedirect(search("gitlab"), "s", cfg, open, 10_002).action, "allow");
});

Deno.test("decision: no match never touches the state", () => {
  const untouchable = {
    retryOrRecord(): never {
      throw new Error("state used");
    },
  };
  const decision = decideRedirect(search("pizza"), "s", config([gitlab]), { state: untouchable }, 0);
  assertEquals(decision, { action: "allow", why: "no-match" });
});

Deno.test("decision: the state failing mid-decision still denies, and promises no retry", () => {
  const failing = {
    retryOrRecord(): never {
      throw new Error("database is locked");
    },
  };
  const decision = decideRedirect(search("gitlab"), "s", config([gitlab]), { state: failing }, 0);
  ok(decision.action === "deny");
  assertEquals(decision.stateProblem, "database is locked");
});

Deno.test("decision: the denial record keeps the query only through the privacy filter", () => {
  const state = memoryState();
  decideRedirect(search("gitlab token glpat-123"), "s", config([gitlab]), { state }, 0, () => "[filtered]");
  assertEquals(state.records.map((r) => r.request), ["[filtered]"]);
});

Deno.test("decision: unavailable state still denies, says why, and promises no retry", () => {
  const decision = decideRedirect(
    search("gitlab"),
    "s",
    config([gitlab]),
    { unavailable: "disk on fire" },
    0,
  );
  ok(decision.action === "deny");
  assertEquals(decision.stateProblem, "disk on fire");
  match(reasonOf(decision.output), /would be denied again/);
});
