/**
 * Hostile or broken input never hangs the hook: a writer that never closes stdin, a project config that is a
 * FIFO, a device or a huge file. Each case ends in exit 0, within the agent's patience, with at most one line
 * on stderr.
 */
import { deepStrictEqual as assertEquals, match } from "node:assert/strict";
import { event, readFixture, runCli, type Sandbox, sandbox } from "../helpers.ts";

async function withUserConfig(box: Sandbox) {
  await Deno.mkdir(`${box.home}/.claude/hooks`, { recursive: true });
  await Deno.writeTextFile(
    `${box.home}/.claude/hooks/docsearch-config.json`,
    readFixture("../config.example.json"),
  );
}

/** The hook with `stdin` written and the pipe left open, as a broken wrapper script leaves it. */
const hookWithOpenStdin = (box: Sandbox, stdin: string) =>
  runCli(["hook"], { env: box.env, stdin, keepStdinOpen: true });

Deno.test("stdin never closed: a whole event is answered at once; a cut one is allowed after the idle bound", async () => {
  await using box = await sandbox();
  await withUserConfig(box);
  const whole = await hookWithOpenStdin(box, event("PreToolUse.WebSearch.json"));
  // A hang would be killed (exit 143) by runProgram's bound, long past the hook's own.
  assertEquals([whole.code, whole.stderr], [0, ""]);
  assertEquals(JSON.parse(whole.stdout).hookSpecificOutput.permissionDecision, "deny");

  const cut = event("PreToolUse.WebSearch.json").slice(0, 40);
  const partial = await hookWithOpenStdin(box, cut);
  assertEquals([partial.code, partial.stdout], [0, ""]);
  assertEquals(
    partial.stderr,
    "docsearch-hook: stdin was not closed, and the event stopped short for 1000 ms; allowing\n",
  );
});

/** A project whose `.claude/docsearch.json` is made by `plant`, and a WebSearch event from it. */
async function hostileProject(box: Sandbox, plant: (file: string) => void) {
  const project = `${box.home}/cloned-repo`;
  await Deno.mkdir(`${project}/.claude`, { recursive: true });
  const file = `${project}/.claude/docsearch.json`;
  plant(file);
  const run = () =>
    runCli(["hook"], { env: box.env, stdin: event("PreToolUse.WebSearch.json", { cwd: project }) });
  return { file, run };
}

const PLANTS: [string, (file: string) => void, RegExp][] = [
  ["a FIFO", (file) => {
    assertEquals(new Deno.Command("mkfifo", { args: [file] }).outputSync().success, true);
  }, /it is not a regular file/],
  ["a link to /dev/zero", (file) => Deno.symlinkSync("/dev/zero", file), /it is not a regular file/],
  ["a 64 MB file", (file) => {
    using handle = Deno.openSync(file, { write: true, create: true });
    handle.truncateSync(64 * 1024 * 1024);
  }, /it is 67108864 bytes, over the 1048576 a config may hold/],
];

for (const [what, plant, problem] of PLANTS) {
  Deno.test(`a project config that is ${what} is skipped with one line; the user's databases still work`, async () => {
    await using box = await sandbox();
    await withUserConfig(box);
    const { file, run } = await hostileProject(box, plant);
    const result = await run();
    assertEquals(result.code, 0);
    assertEquals(JSON.parse(result.stdout).hookSpecificOutput.permissionDecision, "deny");
    assertEquals(result.stderr.split("\n").filter(Boolean).length, 1, result.stderr);
    match(
      result.stderr,
      new RegExp(`^docsearch-hook: ${file.replaceAll(".", "\\.")}: cannot read the file: `),
    );
    match(result.stderr, problem);
  });
}
