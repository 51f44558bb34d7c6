/**
 * The external-tool line: where the agent defers MCP tools behind ToolSearch (current Claude Code), the
 * guidance for a tool that is not the built-in search says how to load it before calling it.
 */
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { BUILT_IN_TOOL } from "../lib/docs/built_in.ts";
import { matchRequest } from "../lib/match/match.ts";
import { denyReason, loadToolsLine } from "../lib/redirect/guidance.ts";
import type { WebRequest } from "../lib/redirect/request.ts";
import { database } from "./helpers.ts";

const leann = database({ name: "gitlab", keywords: ["gitlab"], mcpToolName: "mcp__leann__leann_search" });
const context7 = database({ name: "react", keywords: ["react"], mcpToolName: "mcp__context7__get-docs" });
const builtIn = database({ name: "pg", keywords: ["postgres"], mcpToolName: BUILT_IN_TOOL });
const search = (query: string): WebRequest => ({
  tool: "WebSearch",
  query,
  allowedDomains: [],
  blockedDomains: [],
});
const options = { ttlSeconds: 300, retryWillPass: true };

Deno.test("loadToolsLine: ToolSearch with select: and the external tools' names, each once; none for the built-in", () => {
  assertEquals(
    loadToolsLine(["mcp__leann__leann_search"]),
    'If that tool is not loaded yet, load it first: ToolSearch {"query": "select:mcp__leann__leann_search"}',
  );
  assertEquals(
    loadToolsLine([
      "mcp__leann__leann_search",
      BUILT_IN_TOOL,
      "mcp__context7__get-docs",
      "mcp__leann__leann_search",
    ]),
    'If those tools are not loaded yet, load them first: ToolSearch {"query": ' +
      '"select:mcp__leann__leann_search,mcp__context7__get-docs"}',
  );
  // The built-in search is loaded from the start, by any name it has (the plugin's too).
  assertEquals(loadToolsLine([BUILT_IN_TOOL, "mcp__plugin_docsearch_docsearch__search"]), undefined);
  assertEquals(loadToolsLine([]), undefined);
});

Deno.test("denyReason: the load line only where the agent defers tools, after the call it is about", () => {
  const request = search("gitlab runners");
  const matches = matchRequest(request, [leann]);
  const deferred = denyReason(request, matches, { ...options, deferredTools: true });
  const lines = deferred.split("\n");
  const call = lines.findIndex((line) =>
    line.startsWith("Search it instead of the web: mcp__leann__leann_search")
  );
  const load = lines.findIndex((line) =>
    line.includes('ToolSearch {"query": "select:mcp__leann__leann_search"}')
  );
  ok(call >= 0 && load > call, deferred);
  ok(lines.at(-1)!.startsWith("If the local results are not enough"), "the escape hatch stays last");
  // Without deferral, today's guidance exactly: the same lines but that one.
  assertEquals(denyReason(request, matches, options), lines.filter((_, i) => i !== load).join("\n"));
  assertEquals(
    denyReason(request, matches, { ...options, deferredTools: false }),
    denyReason(request, matches, options),
  );
});

Deno.test("denyReason: several docs name every external tool in one line; the built-in search alone gets none", () => {
  const request = search("gitlab react postgres");
  const reason = denyReason(request, matchRequest(request, [leann, context7, builtIn]), {
    ...options,
    deferredTools: true,
  });
  ok(reason.includes('"select:mcp__leann__leann_search,mcp__context7__get-docs"'), reason);
  const alone = denyReason(search("postgres vacuum"), matchRequest(search("postgres vacuum"), [builtIn]), {
    ...options,
    deferredTools: true,
  });
  ok(!alone.includes("ToolSearch"), alone);
});
