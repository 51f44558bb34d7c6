/** Context injection as pure functions: what the agent is told, when nothing is said, and the size limit. */
import { deepStrictEqual as assertEquals, equal, match, ok } from "node:assert/strict";
import { promptContext, sessionStartContext } from "../lib/context/inject.ts";
import { clipTo } from "../lib/text.ts";
import type { Config, ContextConfig } from "../lib/config/types.ts";
import { contextOutput } from "../lib/protocol/output.ts";
import { NO_SWITCHES, sessionView } from "../lib/switches/switches.ts";
import { config, database } from "./helpers.ts";

const gitlab = database({
  name: "gitlab",
  keywords: ["gitlab", "gitlab-ci"],
  mcpToolName: "mcp__leann__leann_search",
  indexName: "gitlab",
  description: "GitLab documentation",
});
const dotnet = database({
  name: "dotnet",
  keywords: [".net", "c#"],
  mcpToolName: "mcp__docs__search",
  toolArgs: { collection: "dotnet", q: "{query}" },
  description: ".NET docs",
});
const plain = database({ name: "react", keywords: ["react"], path: "/docs/react" });

const withContext = (databases = [gitlab, dotnet, plain], context: Partial<ContextConfig> = {}): Config => {
  const base = config(databases);
  return { ...base, context: { ...base.context, ...context } };
};
const view = (cfg: Config = withContext()) => sessionView(cfg, NO_SWITCHES);

Deno.test("session start: every enabled database with its tool and literal arguments", () => {
  const text = sessionStartContext(view())!;
  match(text, /^docsearch-hook: local, version-correct documentation/);
  match(text, /search it before the web/);
  ok(
    text.includes(
      '- gitlab: GitLab documentation (topics: gitlab, gitlab-ci). Search: mcp__leann__leann_search {"index_name":"gitlab","query":"<your question>"}',
    ),
  );
  ok(text.includes('mcp__docs__search {"collection":"dotnet","q":"<your question>"}'));
  // Without literal arguments the call names the tool, what to search and where.
  ok(
    text.includes(
      '- react: react documentation (topics: react). Search: mcp__leann__search for "<your question>" in /docs/react',
    ),
  );
  match(text, /redirected to them/);
});

Deno.test("session start: switched-off databases, redirect and context are respected", () => {
  const noGitlab = sessionView(withContext(), { features: [], databases: ["gitlab"] });
  ok(!sessionStartContext(noGitlab)!.includes("gitlab"));
  const noRedirect = sessionView(withContext(), { features: ["redirect"], databases: [] });
  ok(!sessionStartContext(noRedirect)!.includes("redirected"));
  equal(sessionStartContext(sessionView(withContext(), { features: ["context"], databases: [] })), undefined);
  equal(sessionStartContext(sessionView(withContext(), { features: ["all"], databases: [] })), undefined);
  equal(sessionStartContext(view(withContext(undefined, { enabled: false }))), undefined);
  equal(sessionStartContext(view(withContext(undefined, { sessionStart: false }))), undefined);
  equal(sessionStartContext(view(withContext([]))), undefined);
  equal(sessionStartContext(view(withContext([{ ...gitlab, enabled: false }]))), undefined);
});

Deno.test("prompt: one database mentioned, a hint naming it and the call to make", () => {
  const text = promptContext("How do I cache between GitLab-CI jobs?", view())!;
  equal(
    text,
    'docsearch-hook: "gitlab" is covered by the local "gitlab" docs (GitLab documentation). ' +
      'Search them before the web: mcp__leann__leann_search {"index_name":"gitlab","query":"<your question>"}',
  );
});

Deno.test("prompt: several databases mentioned are listed, to search in parallel", () => {
  const text = promptContext("Port this C# service to GitLab and React", view())!;
  match(text, /3 local docs databases; search them IN PARALLEL/);
  for (const name of ["gitlab", "dotnet", "react"]) ok(text.includes(`${name}:`), name);
});

Deno.test("prompt: nothing at all for unrelated prompts and where context is off", () => {
  for (
    const prompt of [
      "Fix the failing auth test",
      "",
      "   ",
      "ungitlabbed reactor c#x",
      "netlify",
      "/docsearch:disable gitlab",
    ]
  ) {
    equal(promptContext(prompt, view()), undefined, prompt);
  }
  const prompt = "gitlab pipelines";
  equal(promptContext(prompt, view(withContext(undefined, { userPrompt: false }))), undefined);
  equal(promptContext(prompt, view(withContext(undefined, { enabled: false }))), undefined);
  equal(
    promptContext(prompt, sessionView(withContext(), { features: ["context"], databases: [] })),
    undefined,
  );
  equal(
    promptContext(prompt, sessionView(withContext(), { features: [], databases: ["gitlab"] })),
    undefined,
  );
  // The redirect being off does not silence hints: they are a separate feature.
  ok(promptContext(prompt, sessionView(withContext(), { features: ["redirect"], databases: [] })));
});

Deno.test("size: never over max_chars, whole lines kept, the rest counted", () => {
  const many = Array.from(
    { length: 40 },
    (_, i) => database({ name: `docs${i}`, keywords: [`topic${i}`], description: "x".repeat(i * 7) }),
  );
  for (const maxChars of [100, 150, 400, 1500, 5000]) {
    const cfg = withContext(many, { maxChars });
    const start = sessionStartContext(view(cfg))!;
    ok(start.length <= maxChars, `${maxChars}: ${start.length}`);
    const prompt = promptContext(many.map((d) => d.keywords[0]).join(" "), view(cfg))!;
    ok(prompt.length <= maxChars, `${maxChars}: ${prompt.length}`);
    if (maxChars >= 400) {
      const omitted = /\n… and (\d+) more(?:: ([\w, ]+))?$/.exec(start);
      ok(omitted, start);
      // Named when the names fit (the last of them too), else counted.
      if (omitted[2] !== undefined) {
        assertEquals(omitted[2].split(", "), many.slice(-Number(omitted[1])).map((d) => d.name));
      }
      const listed = start.split("\n").filter((line) => line.startsWith("- docs")).length;
      equal(listed + Number(omitted[1]), many.length);
    }
  }
  // Within the limit nothing is cut.
  const roomy = sessionStartContext(view(withContext(undefined, { maxChars: 10000 })))!;
  ok(!roomy.includes("… and"));
});

Deno.test("clipTo: at most max units, never half a surrogate pair", () => {
  equal(clipTo("short", 10), "short");
  equal(clipTo("abcdefghij", 5), "abcd…");
  const emoji = "ab😀😀😀";
  for (let max = 2; max <= emoji.length; max++) {
    const out = clipTo(emoji, max);
    ok(out.length <= max);
    ok(!/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/.test(out), JSON.stringify(out));
  }
});

Deno.test("output: one hookSpecificOutput object with the event name and the context", () => {
  assertEquals(JSON.parse(contextOutput("SessionStart", "hello")), {
    hookSpecificOutput: { hookEventName: "SessionStart", additionalContext: "hello" },
  });
});

Deno.test("SessionStart after an install: the note says the MCP server is rebuilding, or, with that off, what to run", () => {
  const note = (auto: boolean) => {
    const cfg = { ...withContext(), dependencyDocs: { auto, fetch: true } };
    return sessionStartContext(view(cfg), "/work/app/package-lock.json")!;
  };
  match(
    note(true),
    /package-lock\.json changed since .* until the docsearch MCP server, which rebuilds them in the background, is done/,
  );
  ok(!note(true).includes("To index the versions installed now"), note(true));
  match(note(false), /To index the versions installed now, run: docsearch-hook index add --project/);
  ok(!note(false).includes("background"), note(false));
});
