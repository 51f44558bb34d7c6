/**
 * Whether the real Gemini CLI and Qwen Code run docsearch-hook as install registers it for them: each runs one
 * headless prompt (`-p … --yolo`) in a temp HOME against a scripted model API on 127.0.0.1 that calls the
 * agent's web tool for covered docs twice, then answers. The first call must be denied with the guidance (the
 * next model request carries it), the identical second let through, and `docsearch-hook log` must show both
 * under the agent's name. Gemini CLI must also offer the model the built-in search by the name the guidance
 * gives it, from the server `install --mcp` registered.
 *
 * By hand only, not part of `deno task test`: it downloads the agents from npm (about 100 MB, into .cache/).
 *
 *   deno run -A tests/agents/headless_check.ts [--agent gemini|qwen] [--gemini-version X] [--qwen-version X]
 *
 * Exit status 1 when an agent's run misses any of that.
 */
import { parseArgs } from "node:util";
import { npmCached, ROOT, runCli, runProgram, sandbox, succeeded } from "../helpers.ts";

const { values } = parseArgs({
  options: {
    agent: { type: "string" },
    "gemini-version": { type: "string", default: "latest" },
    "qwen-version": { type: "string", default: "latest" },
  },
});

const PROMPT = "Look up how to configure gitlab ci runners on the web.";
const GUIDANCE = "Search it instead of the web";

interface Agent {
  name: "gemini" | "qwen";
  recordedAs: string;
  npm: string;
  version: string;
  bin: string;
  /** Settings beside the hooks that a headless run needs: which credentials to use. */
  settings: Record<string, unknown>;
  env: (baseUrl: string) => Record<string, string>;
  /** The scripted model: a call of the web tool while `call` is true, else a short answer. */
  reply: (path: string, body: Record<string, unknown>, call: boolean) => Response;
  /** Whether a request is the agent's main turn (not a helper call such as routing). */
  mainTurn: (body: Record<string, unknown>) => boolean;
  /** The name the model is offered the built-in search by, if the agent lists MCP tools up front. */
  builtInTool?: string;
}

const sse = (events: unknown[]) =>
  new Response(events.map((event) => `data: ${JSON.stringify(event)}\n\n`).join(""), {
    headers: { "content-type": "text/event-stream" },
  });

const AGENTS: Agent[] = [
  {
    name: "gemini",
    recordedAs: "gemini-cli",
    npm: "@google/gemini-cli",
    version: values["gemini-version"]!,
    bin: "gemini",
    settings: { security: { auth: { selectedType: "gemini-api-key" } } },
    env: (baseUrl) => ({ GEMINI_API_KEY: "dummy", GOOGLE_GEMINI_BASE_URL: baseUrl }),
    mainTurn: (body) => JSON.stringify(body).includes("google_web_search"),
    reply(path, _body, call) {
      const parts = call
        ? [{
          functionCall: { name: "google_web_search", args: { query: "how to configure gitlab ci runners" } },
        }]
        : [{ text: "done" }];
      const candidate = {
        candidates: [{ content: { role: "model", parts }, finishReason: "STOP", index: 0 }],
      };
      if (path.endsWith(":streamGenerateContent")) return sse([candidate]);
      // Helper calls (routing, the next speaker, the search itself) get one JSON text that answers them all.
      const text = JSON.stringify({
        complexity_reasoning: "simple",
        complexity_score: 1,
        next_speaker: "user",
        reasoning: "done",
      });
      return Response.json({
        candidates: [{ content: { role: "model", parts: [{ text }] }, finishReason: "STOP" }],
      });
    },
    builtInTool: "mcp_docsearch_search",
  },
  {
    name: "qwen",
    recordedAs: "qwen-code",
    npm: "@qwen-code/qwen-code",
    version: values["qwen-version"]!,
    bin: "qwen",
    settings: { security: { auth: { selectedType: "openai" } }, model: { name: "fake-model" } },
    env: (baseUrl) => ({
      OPENAI_API_KEY: "dummy",
      OPENAI_BASE_URL: `${baseUrl}/v1`,
      OPENAI_MODEL: "fake-model",
    }),
    mainTurn: (body) =>
      Array.isArray(body.tools) && body.tools.length > 0 && JSON.stringify(body.messages).includes(PROMPT),
    // Its web_search needs a search provider configured; web_fetch is always there.
    reply(_path, body, call) {
      // A new id each time: the identical call again, not the same one.
      const toolCall = {
        id: `call_${(body.messages as unknown[]).length}`,
        type: "function",
        function: {
          name: "web_fetch",
          arguments: JSON.stringify({
            url: "https://docs.gitlab.com/runner/configuration/",
            prompt: "concurrent",
          }),
        },
      };
      const message = call
        ? { role: "assistant", tool_calls: [toolCall] }
        : { role: "assistant", content: "done" };
      const finish = call ? "tool_calls" : "stop";
      if (!body.stream) return Response.json({ choices: [{ index: 0, message, finish_reason: finish }] });
      const delta = call ? { ...message, tool_calls: [{ index: 0, ...toolCall }] } : message;
      return sse([
        { choices: [{ index: 0, delta, finish_reason: null }] },
        { choices: [{ index: 0, delta: {}, finish_reason: finish }] },
      ]);
    },
  },
];

const agentBinary = (agent: Agent): Promise<string> =>
  npmCached(agent.name, agent.npm, agent.version, `node_modules/.bin/${agent.bin}`);

/** One headless run; the problems found, none when everything is as it should be. */
async function check(agent: Agent): Promise<string[]> {
  const bin = await agentBinary(agent);
  const requests: Record<string, unknown>[] = [];
  let calls = 0;
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (request) => {
    const text = await request.text();
    const body = text ? JSON.parse(text) : {};
    const main = agent.mainTurn(body);
    if (main) requests.push(body);
    return agent.reply(new URL(request.url).pathname, body, main && ++calls <= 2);
  });
  await using box = await sandbox();
  try {
    const project = `${await Deno.realPath(box.home)}/project`;
    await Deno.mkdir(project);
    succeeded(await runCli(["install", "--agent", agent.name, "--mcp"], { env: box.env }));
    await Deno.copyFile(`${ROOT}config.example.json`, `${box.home}/.claude/hooks/docsearch-config.json`);
    const settingsPath = `${box.home}/.${agent.name}/settings.json`;
    const settings = JSON.parse(await Deno.readTextFile(settingsPath));
    await Deno.writeTextFile(settingsPath, JSON.stringify({ ...settings, ...agent.settings }, null, 2));
    await Deno.writeTextFile(
      `${box.home}/.${agent.name}/trustedFolders.json`,
      JSON.stringify({ [project]: "TRUST_FOLDER" }),
    );
    const run = await runProgram("node", [bin, "-p", PROMPT, "--yolo"], {
      cwd: project,
      env: { ...box.env, ...agent.env(`http://127.0.0.1:${server.addr.port}`) },
    });
    const problems = run.code === 0 ? [] : [`${agent.bin} exited ${run.code}: ${run.stderr.slice(-2000)}`];
    const after = requests.map((request) => JSON.stringify(request).includes(GUIDANCE));
    if (!after[1]) problems.push("the model's next request does not carry the guidance");
    if (agent.builtInTool && !JSON.stringify(requests[0] ?? {}).includes(`"${agent.builtInTool}"`)) {
      problems.push(`the model is not offered ${agent.builtInTool}`);
    }
    const log = JSON.parse(
      succeeded(await runCli(["log", "--json", "--limit", "100"], { env: box.env })),
    ) as {
      event: string;
      outcome: string | null;
    }[];
    const outcomes = log.filter((row) => row.event === "PreToolUse").map((row) => row.outcome);
    if (outcomes.join() !== "denied,escaped") {
      problems.push(`PreToolUse outcomes: ${outcomes.join() || "none"}`);
    }
    const stats = JSON.parse(succeeded(await runCli(["stats", "--json"], { env: box.env })));
    const agents = Object.keys(stats.sessions.byAgent);
    if (agents.join() !== agent.recordedAs) problems.push(`recorded as ${agents.join() || "nothing"}`);
    console.log(`${agent.npm}@${agent.version}: events ${log.map((row) => row.event).join(", ")}`);
    return problems;
  } finally {
    await server.shutdown();
  }
}

let failed = false;
for (const agent of AGENTS.filter((agent) => values.agent === undefined || agent.name === values.agent)) {
  const problems = await check(agent);
  console.log(problems.length === 0 ? `✓ ${agent.name}` : `✗ ${agent.name}: ${problems.join("; ")}`);
  failed ||= problems.length > 0;
}
Deno.exit(failed ? 1 : 0);
