/**
 * The decision with the local answer: a built-in index that matched is asked for its answer; quoted when it
 * has one, let through when it has none (unless other docs matched), and docs a subagent cannot search are
 * left out of the guidance. The answer itself is a stand-in here (tests/answer_test.ts tests the real one).
 */
import { deepStrictEqual as assertEquals, match, ok } from "node:assert/strict";
import { BUILT_IN_TOOL } from "../lib/docs/built_in.ts";
import { type AnswerFor, decideRedirect, type RedirectState } from "../lib/redirect/decide.ts";
import type { WebRequest } from "../lib/redirect/request.ts";
import type { DenialRecord } from "../lib/state/store.ts";
import { config, database } from "./helpers.ts";

const react = database({
  name: "react",
  keywords: ["react"],
  mcpToolName: BUILT_IN_TOOL,
  toolArgs: { index: "npm-react-18.3.1", query: "{query}" },
});
const leann = database({ name: "react-leann", keywords: ["react"], mcpToolName: "mcp__leann__leann_search" });
const search: WebRequest = {
  tool: "WebSearch",
  query: "react useEffect cleanup",
  allowedDomains: [],
  blockedDomains: [],
};
const reasonOf = (output: string) => JSON.parse(output).hookSpecificOutput.permissionDecisionReason as string;

/** A state that records every denial and never sees a retry. */
function recorder(): RedirectState & { records: DenialRecord[] } {
  const records: DenialRecord[] = [];
  return { records, retryOrRecord: (denial) => (records.push(denial), "recorded") };
}

/** An answer that quotes `text` when `answers`, keeping what it was asked with. */
function standIn(answers: boolean, text = "QUOTED DOCS") {
  const asked: Parameters<AnswerFor>[] = [];
  const answer: AnswerFor = (...args) => {
    asked.push(args);
    return answers
      ? { answered: true, reason: `${text} (retry ${args[2].retryWillPass ? "passes" : "fails"})` }
      : { answered: false };
  };
  return { answer, asked };
}

Deno.test("answer: the built-in index's answer is quoted in the denial, which is recorded for the escape hatch", () => {
  const state = recorder();
  const { answer, asked } = standIn(true);
  const decision = decideRedirect(search, "s", config([react]), { state }, 0, undefined, { answer });
  ok(decision.action === "deny" && decision.answered, JSON.stringify(decision));
  assertEquals(reasonOf(decision.output), "QUOTED DOCS (retry passes)");
  assertEquals(state.records.map((r) => r.databases), [["react"]]);
  const [[matched, others, options]] = asked;
  assertEquals([matched.database.name, others, options.maxChars, options.withoutDocsTool], [
    "react",
    [],
    6000,
    false,
  ]);
});

Deno.test("answer: no answer from the only docs that matched lets the request through, and records no denial", () => {
  const state = recorder();
  const { answer } = standIn(false);
  const decision = decideRedirect(search, "s", config([react]), { state }, 0, undefined, { answer });
  ok(decision.action === "allow" && decision.why === "no-local-answer", JSON.stringify(decision));
  assertEquals(decision.matches.map((m) => m.database.name), ["react"]);
  assertEquals(state.records, []);
  // Without an answer to ask (no index could be read here), the built-in docs still guide.
  const guided = decideRedirect(search, "s", config([react]), { state }, 0);
  ok(guided.action === "deny" && !guided.answered);
  match(reasonOf(guided.output), /Search it instead of the web: mcp__docsearch__search /);
});

Deno.test("answer: unanswered built-in docs beside other docs: the denial guides to the others only", () => {
  const { answer } = standIn(false);
  const decision = decideRedirect(search, "s", config([react, leann]), { state: recorder() }, 0, undefined, {
    answer,
  });
  ok(decision.action === "deny" && !decision.answered);
  const reason = reasonOf(decision.output);
  match(reason, /Search it instead of the web: mcp__leann__leann_search /);
  ok(!reason.includes(BUILT_IN_TOOL), reason);
});

Deno.test("answer: a denial that cannot be recorded says so in the answer it quotes", () => {
  const { answer } = standIn(true);
  const failing: RedirectState = {
    retryOrRecord: () => {
      throw new Error("disk full");
    },
  };
  const decision = decideRedirect(search, "s", config([react]), { state: failing }, 0, undefined, { answer });
  ok(decision.action === "deny" && decision.answered);
  assertEquals([reasonOf(decision.output), decision.stateProblem], [
    "QUOTED DOCS (retry fails)",
    "disk full",
  ]);
});

Deno.test("subagents: docs the subagent cannot search are no redirect; an answer it can read still is", () => {
  const withoutBuiltIn = (tool: string) => tool !== BUILT_IN_TOOL;
  const state = recorder();
  // Guidance only, to a tool it lacks: let through, and nothing recorded.
  const lacking = decideRedirect(search, "s", config([react]), { state }, 0, undefined, {
    hasTool: withoutBuiltIn,
  });
  assertEquals(lacking.action === "allow" && lacking.why, "no-tool");
  assertEquals(state.records, []);
  // Another docs tool it has: guided there alone.
  const other = decideRedirect(search, "s", config([react, leann]), { state }, 0, undefined, {
    hasTool: withoutBuiltIn,
  });
  ok(other.action === "deny" && !reasonOf(other.output).includes(BUILT_IN_TOOL));
  // The answer needs no tool: quoted, and told the tool is not its to call.
  const { answer, asked } = standIn(true);
  const answered = decideRedirect(search, "s", config([react]), { state }, 0, undefined, {
    answer,
    hasTool: withoutBuiltIn,
  });
  ok(answered.action === "deny" && answered.answered);
  assertEquals(asked[0][2].withoutDocsTool, true);
});

Deno.test("answer: several built-in indexes matched: each is asked in turn until one answers", () => {
  const zod = database({
    name: "zod",
    keywords: ["react"],
    mcpToolName: BUILT_IN_TOOL,
    toolArgs: { index: "npm-zod-4.1.12" },
  });
  const asked: string[] = [];
  const answer: AnswerFor = (matched) => {
    asked.push(matched.database.name);
    return matched.database.name === "react" ? { answered: true, reason: "REACT DOCS" } : { answered: false };
  };
  const decision = decideRedirect(search, "s", config([zod, react]), { state: recorder() }, 0, undefined, {
    answer,
  });
  ok(decision.action === "deny" && decision.answered, JSON.stringify(decision));
  assertEquals(reasonOf(decision.output), "REACT DOCS");
  assertEquals(asked, ["zod", "react"]);
  // Neither answers: let through, each asked once.
  asked.length = 0;
  const none: AnswerFor = (matched) => (asked.push(matched.database.name), { answered: false });
  const passed = decideRedirect(search, "s", config([zod, react]), { state: recorder() }, 0, undefined, {
    answer: none,
  });
  assertEquals(passed.action === "allow" && passed.why, "no-local-answer");
  assertEquals(asked, ["zod", "react"]);
});

Deno.test("subagents: an answer quoted to a subagent names no other docs it cannot search", () => {
  const onlyBuiltIn = (tool: string) => tool === BUILT_IN_TOOL;
  const { answer, asked } = standIn(true);
  const decision = decideRedirect(search, "s", config([react, leann]), { state: recorder() }, 0, undefined, {
    answer,
    hasTool: onlyBuiltIn,
  });
  ok(decision.action === "deny" && decision.answered);
  assertEquals(asked[0][1], [], "the others the answer names");
  const context = JSON.parse(decision.output).hookSpecificOutput.additionalContext as string;
  ok(!context.includes("mcp__leann__leann_search"), context);
  ok(context.includes("react (mcp__docsearch__search)"), context);
});

Deno.test("deferred tools: guidance to an external tool says how to load it with ToolSearch; without, it does not", () => {
  const decide = (deferredTools: boolean) => {
    const decision = decideRedirect(search, "s", config([leann]), { state: recorder() }, 0, undefined, {
      deferredTools,
    });
    ok(decision.action === "deny");
    return reasonOf(decision.output);
  };
  match(decide(true), /ToolSearch .*select:mcp__leann__leann_search/);
  ok(!decide(false).includes("ToolSearch"));
});
