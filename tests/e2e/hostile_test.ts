/**
 * Hostile or broken input never hangs the hook: a writer that never closes stdin, a project config that is a
 * FIFO, a device or a huge file. Each case ends in exit 0, within the agent's patience, with at most one line
 * on stderr.
 */
import { deepStrictEqual as assertEquals, match } from "node:assert/strict";
import { event, readFixture, runCli, type Sandbox, sandbox, SELF } from "../helpers.ts";

/** Long past the hook's own bounds: reaching it means the hook hung, and the test kills it. */
const HANG_MS = 10_000;

async function withUserConfig(box: Sandbox) {
  await Deno.mkdir(`${box.home}/.claude/hooks`, { recursive: true });
  await Deno.writeTextFile(
    `${box.home}/.claude/hooks/docsearch-config.json`,
    readFixture("../config.example.json"),
  );
}

/** The hook with `stdin` written and the pipe left open, as a broken wrapper script leaves it. */
async function hookWithOpenStdin(box: Sandbox, stdin: string) {
  const child = new Deno.Command(SELF[0], {
    args: [...SELF.slice(1), "hook"],
    env: box.env,
    clearEnv: true,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(stdin));
  const started = performance.now();
  const killer = setTimeout(() => child.kill(), HANG_MS);
  try {
    const out = await child.output();
    const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
    return {
      code: out.code,
      hung: performance.now() - started >= HANG_MS,
      stdout: decode(out.stdout),
      stderr: decode(out.stderr),
    };
  } finally {
    clearTimeout(killer);
    await writer.close().catch(() => {});
  }
}

Deno.test("stdin never closed: a whole event is answered at once; a cut one is allowed after the idle bound", async () => {
  await using box = await sandbox();
  await withUserConfig(box);
  const whole = await hookWithOpenStdin(box, event("PreToolUse.WebSearch.json"));
  assertEquals([whole.code, whole.hung, whole.stderr], [0, false, ""]);
  assertEquals(JSON.parse(whole.stdout).hookSpecificOutput.permissionDecision, "deny");

  const cut = event("PreToolUse.WebSearch.json").slice(0, 40);
  const partial = await hookWithOpenStdin(box, cut);
  assertEquals([partial.code, partial.hung, partial.stdout], [0, false, ""]);
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
