/**
 * Subagents and the docs tool: a custom agent whose definition's `tools:` leaves the docs tool out must not
 * be sent there; its definition is read from a checkout, which may hold anything.
 */
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { BUILT_IN_TOOL } from "../lib/docs/built_in.ts";
import {
  AGENT_FILE_BYTES,
  findAgentDefinition,
  parseAgentDefinition,
  subagentHasTool,
} from "../lib/redirect/subagents.ts";

const os = Deno.build.os;
const PLUGIN_TOOL = "mcp__plugin_docsearch_docsearch__search";
const DOCS = [BUILT_IN_TOOL, PLUGIN_TOOL];
const agent = (frontMatter: string, body = "You review code.\n") => `---\n${frontMatter}\n---\n\n${body}`;

Deno.test("parseAgentDefinition: tools as Claude Code writes them, as a flow list or as a block list", () => {
  assertEquals(parseAgentDefinition(agent("name: reviewer\ndescription: Reviews\ntools: Read, Grep, Glob")), {
    name: "reviewer",
    tools: ["Read", "Grep", "Glob"],
    disallowedTools: [],
  });
  assertEquals(parseAgentDefinition(agent('name: "r"\ntools: [Read, "mcp__docsearch__search"]'))?.tools, [
    "Read",
    "mcp__docsearch__search",
  ]);
  assertEquals(
    parseAgentDefinition(
      agent("name: r\ntools:\n  - Read\n  - 'Bash'\ndisallowedTools: Write, Edit\nmodel: haiku"),
    ),
    { name: "r", tools: ["Read", "Bash"], disallowedTools: ["Write", "Edit"] },
  );
  assertEquals(parseAgentDefinition(agent("name: r\ntools: []"))?.tools, [], "no tools at all");
  assertEquals(parseAgentDefinition(agent("name: r\ndescription: all tools")), {
    name: "r",
    disallowedTools: [],
  });
  assertEquals(parseAgentDefinition("---\r\nname: crlf\r\ntools: Read\r\n---\r\nbody")?.tools, ["Read"]);
  assertEquals(parseAgentDefinition(agent("description: no name")), undefined);
  assertEquals(parseAgentDefinition("name: r\ntools: Read\n"), undefined, "no front matter");
  // `tools:` in the body is prose, not the definition's.
  assertEquals(parseAgentDefinition(agent("name: r", "tools: Read\n"))?.tools, undefined);
});

Deno.test("subagentHasTool: without tools: every tool; a list must name the docs tool, by name, pattern or server", () => {
  const has = (frontMatter: string) => subagentHasTool("r", [agent(`name: r\n${frontMatter}`)], DOCS);
  ok(has("description: inherits"), "no tools: line");
  ok(!has("tools: Read, Grep, Glob"), "a list without it");
  ok(!has("tools: []"));
  ok(has(`tools: Read, ${BUILT_IN_TOOL}`));
  ok(has(`tools: Read, ${PLUGIN_TOOL}`), "by the name the plugin gives it");
  ok(has("tools: Read, mcp__docsearch__*"));
  ok(has("tools: Read, mcp__docsearch"), "every tool of the server");
  ok(!has("tools: Read, mcp__docsearchx, mcp__docsearch_other__*"), "another server's name is not ours");
  ok(!has(`disallowedTools: ${BUILT_IN_TOOL}, ${PLUGIN_TOOL}`), "taken away from all tools");
  ok(!has("tools: mcp__docsearch__*\ndisallowedTools: mcp__docsearch"));
});

Deno.test("subagentHasTool: Claude Code's own agents have no definition and have the tool; the first definition wins", () => {
  ok(subagentHasTool("general-purpose", [], DOCS));
  ok(subagentHasTool("Explore", [agent("name: reviewer\ntools: Read")], DOCS), "another agent's definition");
  const project = agent("name: reviewer\ntools: Read");
  const user = agent(`name: reviewer\ntools: ${BUILT_IN_TOOL}`);
  ok(!subagentHasTool("reviewer", [project, user], DOCS));
  ok(subagentHasTool("reviewer", [user, project], DOCS));
  ok(subagentHasTool("reviewer", ["not a definition", user], DOCS));
});

Deno.test("findAgentDefinition: <type>.md first, then the folder's other files, the project's folder before the user's", async () => {
  const root = await Deno.makeTempDir();
  try {
    const [project, user] = [`${root}/project`, `${root}/user`];
    await Deno.mkdir(project);
    await Deno.mkdir(user);
    const reviewer = agent("name: reviewer\ntools: Read");
    await Deno.writeTextFile(`${project}/code-review.md`, reviewer);
    await Deno.writeTextFile(`${project}/notes.txt`, agent("name: writer\ntools: Read"));
    await Deno.writeTextFile(`${user}/reviewer.md`, agent("name: reviewer\ntools: Bash"));
    await Deno.writeTextFile(`${user}/writer.md`, agent("name: writer\ntools: Write"));
    // The project's, though its file is not named after the agent and the user's is.
    assertEquals(findAgentDefinition([project, user], "reviewer", os), reviewer);
    assertEquals(findAgentDefinition([project, user], "writer", os), agent("name: writer\ntools: Write"));
    assertEquals(findAgentDefinition([project, user], "general-purpose", os), undefined);
    assertEquals(
      findAgentDefinition([`${root}/missing`, user], "writer", os),
      agent("name: writer\ntools: Write"),
    );
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("findAgentDefinition: a hostile folder: no FIFO opened, no device read, no file too large, no path from agent_type", async () => {
  const root = await Deno.makeTempDir();
  try {
    const dir = `${root}/agents`;
    await Deno.mkdir(dir);
    const fifo = await new Deno.Command("mkfifo", { args: [`${dir}/reviewer.md`] }).output();
    ok(fifo.success, "mkfifo");
    await Deno.symlink("/dev/zero", `${dir}/zero.md`);
    await Deno.writeTextFile(
      `${dir}/big.md`,
      agent("name: reviewer\ntools: Read", "x".repeat(AGENT_FILE_BYTES)),
    );
    // Outside the folder, under a name agent_type could reach as a path.
    await Deno.writeTextFile(`${root}/secret.md`, agent("name: ../secret\ntools: Read"));
    assertEquals(findAgentDefinition([dir], "reviewer", os), undefined);
    assertEquals(findAgentDefinition([dir], "../secret", os), undefined);
    const fits = agent("name: reviewer\ntools: Read");
    await Deno.writeTextFile(`${dir}/small.md`, fits);
    assertEquals(findAgentDefinition([dir], "reviewer", os), fits);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
