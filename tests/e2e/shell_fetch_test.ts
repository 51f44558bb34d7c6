/**
 * The real hook process on page reads that go around WebFetch: curl in Bash and an MCP fetch tool get the
 * redirect's guidance and escape hatch; a command that reads no covered page passes without touching the state.
 */
import { deepStrictEqual as assertEquals, match } from "node:assert/strict";
import { event, exists, newCall, readFixture, runCli, type Sandbox, sandbox } from "../helpers.ts";

async function withUserConfig(box: Sandbox) {
  await Deno.mkdir(`${box.home}/.claude/hooks`, { recursive: true });
  await Deno.writeTextFile(
    `${box.home}/.claude/hooks/docsearch-config.json`,
    readFixture("../config.example.json"),
  );
}

/** Each run is a new call of the agent's (a retry has its own tool_use_id). */
const hook = (box: Sandbox, stdin: string) => runCli(["hook"], { env: box.env, stdin: newCall(stdin) });

const bash = (command: string) => event("PreToolUse.Bash.json", { tool_input: { command } });
const mcpFetch = (url: string, start_index = 0) =>
  event("PreToolUse.Bash.json", { tool_name: "mcp__fetch__fetch", tool_input: { url, start_index } });

async function denied(box: Sandbox, stdin: string): Promise<string> {
  const result = await hook(box, stdin);
  assertEquals([result.code, result.stderr], [0, ""]);
  const output = JSON.parse(result.stdout).hookSpecificOutput;
  assertEquals(output.permissionDecision, "deny");
  return output.permissionDecisionReason;
}

async function allowed(box: Sandbox, stdin: string): Promise<void> {
  assertEquals(await hook(box, stdin), { code: 0, stdout: "", stderr: "" });
}

Deno.test("curl of a covered docs page is denied with guidance; the identical command passes once", async () => {
  await using box = await sandbox();
  await withUserConfig(box);
  const curl = bash("curl -sL https://docs.gitlab.com/ee/ci/runners/ | head -100");
  const reason = await denied(box, curl);
  match(reason, /covers https:\/\/docs\.gitlab\.com\/ee\/ci\/runners\/ \(read by this Bash call\)/);
  match(reason, /mcp__leann__leann_search \{"index_name":"gitlab","query":"ee ci runners"\}/);
  match(reason, /repeat this identical Bash command \(same command text\) within 5 minutes/);
  // The same page read another way is another request.
  await denied(box, bash("curl -s https://docs.gitlab.com/ee/ci/runners/"));
  await allowed(box, curl);
  await denied(box, curl);
});

Deno.test("a page denied to WebFetch is denied to curl too, each with its own retry", async () => {
  await using box = await sandbox();
  await withUserConfig(box);
  const url = "https://docs.gitlab.com/ee/ci/runners/";
  const webFetch = event("PreToolUse.WebFetch.json", { tool_input: { url, prompt: "runner tags" } });
  await denied(box, webFetch);
  const curl = bash(`curl -s ${url}`);
  await denied(box, curl);
  await allowed(box, curl);
  await allowed(box, webFetch);
});

Deno.test("an MCP fetch of a covered page is denied; the same tool and URL pass once", async () => {
  await using box = await sandbox();
  await withUserConfig(box);
  const url = "https://kubernetes.io/docs/concepts/workloads/pods/";
  match(await denied(box, mcpFetch(url)), /repeat this identical mcp__fetch__fetch call \(same URL\)/);
  // Paging through the page is the same request.
  await allowed(box, mcpFetch(url, 5000));
  await denied(box, mcpFetch(url));
});

Deno.test("Bash commands that read no covered page pass and leave no state behind", async () => {
  await using box = await sandbox();
  await withUserConfig(box);
  for (
    const command of [
      "ls -la",
      "curl -s https://docs.gitlab.com/api/v4/projects | jq .",
      "curl -s https://developer.mozilla.org/en-US/docs/Web/HTTP | head",
      'echo "docs: https://docs.gitlab.com/ee/ci/"',
    ]
  ) await allowed(box, bash(command));
  assertEquals(await exists(`${box.state}/docsearch.db`), false);
});
