/**
 * `doctor` as a function of its context: the machine it checks is the temp HOME in the context's env (the
 * self-test's hook call included), its report captured; no subprocess, and this process's environment untouched.
 */
import { deepStrictEqual as assertEquals, match, ok } from "node:assert/strict";
import { run as doctor } from "../lib/commands/doctor.ts";
import { install } from "../lib/commands/install.ts";
import { type CapturedContext, type Machine, machine } from "./command_context.ts";

/** What the example config needs to work: its two index folders, and the MCP server its tools go to. */
async function workingSetup(m: Machine) {
  for (const name of ["gitlab", "kubernetes"]) {
    await Deno.mkdir(`${m.home}/.leann/indexes/${name}`, { recursive: true });
  }
  const leann = { type: "stdio", command: "leann_mcp", args: [] };
  await Deno.writeTextFile(`${m.home}/.claude.json`, JSON.stringify({ mcpServers: { leann } }));
  assertEquals(install({ values: {} }, m.context()), 0);
}

/** The report's one line for the check `name`. */
function line(ctx: CapturedContext, name: string): string {
  const lines = ctx.out.join("\n").split("\n").filter((l) =>
    /^[✓!✗] /.test(l) && l.startsWith(`${name}:`, 2)
  );
  assertEquals(lines.length, 1, ctx.out.join("\n"));
  return lines[0];
}

Deno.test("doctor in process after an install in process: the registration ✓, exit 0 with the example config", async () => {
  await using m = await machine();
  await workingSetup(m);
  const ctx = m.context();
  assertEquals(await doctor({ values: {} }, ctx), 0, ctx.out.join("\n"));
  match(line(ctx, "Claude Code, user scope"), /^✓ .*\b9 events\b/);
  ok(line(ctx, `config ${m.home}/.claude/hooks/docsearch-config.json`).startsWith("✓ "), ctx.out.join("\n"));
  match(line(ctx, "state"), new RegExp(`^✓ state: ${m.state}/docsearch\\.db: .*\\(created now\\)$`));
  match(
    line(ctx, "self-test"),
    /^✓ self-test: a WebSearch for "gitlab documentation" was denied with guidance/,
  );
  // The example's third database names a tool no server here provides.
  assertEquals(ctx.out.join("\n").split("\n").at(-1), "0 problems, 1 warning.");
});

Deno.test("doctor in process sees the context's environment only: its kill switch, and the self-test still runs", async () => {
  await using m = await machine();
  await workingSetup(m);
  const ctx = m.context({ DOCSEARCH_HOOK_DISABLED: "1" });
  assertEquals(await doctor({ values: {} }, ctx), 0, ctx.out.join("\n"));
  match(line(ctx, "kill switch"), /^! kill switch: DOCSEARCH_HOOK_DISABLED is set/);
  match(line(ctx, "self-test"), /^✓ self-test: .* was denied/);
});

Deno.test("doctor --json in process on a HOME without install: ok false, the registration ✗ with install as the fix, exit 1", async () => {
  await using m = await machine();
  const ctx = m.context();
  assertEquals(await doctor({ values: { json: true } }, ctx), 1);
  const report = JSON.parse(ctx.out.join("\n"));
  assertEquals(report.ok, false);
  const registration = report.checks.find((c: { name: string }) => c.name === "registration");
  assertEquals(registration.status, "fail");
  match(registration.fix, /^docsearch-hook install\b/);
});
