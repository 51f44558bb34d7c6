/**
 * The parts of the background upkeep of dependency docs: the wait for an install to be done, the machine's
 * build and fetch locks (against another process, one that is killed too), and the progress record that status, doctor
 * and list_indexes show.
 */
import { deepStrictEqual as assertEquals, match, ok } from "node:assert/strict";
import { type LockKind, lockWhenFree, tryLock } from "../lib/project/build_lock.ts";
import { type Clock, settled, type SettleTiming } from "../lib/project/install_state.ts";
import {
  describeProgress,
  readProgress,
  STALE_MS,
  type UpkeepProgress,
  writeProgress,
} from "../lib/project/upkeep_progress.ts";
import { ROOT, withDir } from "./helpers.ts";

// ---- the wait for the install --------------------------------------------------------------------------

const TIMING: SettleTiming = { quietMs: 3000, pollMs: 500, maxMs: 60_000 };

/** A clock that moves only when slept on; each look gives the next state of `states` (the last one repeats). */
function scripted(states: { key: string; newest: number }[], start = 1_000_000) {
  let time = start;
  let looks = 0;
  const clock: Clock = {
    now: () => time,
    sleep: (ms) => {
      time += ms;
      return Promise.resolve(true);
    },
  };
  const look = () => states[Math.min(looks++, states.length - 1)];
  return { clock, look, elapsed: () => time - start, looks: () => looks };
}

Deno.test("settled: an install last changed long ago is done at once, with one look", async () => {
  const run = scripted([{ key: "a", newest: 1_000_000 - 60_000 }]);
  assertEquals(await settled(run.look, TIMING, run.clock), { settled: { key: "a", newest: 940_000 } });
  assertEquals([run.elapsed(), run.looks()], [0, 1]);
});

Deno.test("settled: an install at work is waited for until nothing changed for the quiet time", async () => {
  const start = 1_000_000;
  // Changing at every look for 2 s (newest = the time of the look), then still.
  const states = [0, 500, 1000, 1500, 2000].map((at) => ({ key: `k${at}`, newest: start + at }));
  const run = scripted(states, start);
  const result = await settled(run.look, TIMING, run.clock);
  assertEquals(result, { settled: states[4] });
  // Last change seen at 2 s, then 3 s with none.
  assertEquals(run.elapsed(), 2000 + TIMING.quietMs);
});

Deno.test("settled: a file stamped in the future does not pass for an old one", async () => {
  const run = scripted([{ key: "a", newest: 1_000_000 + 3_600_000 }]);
  assertEquals(await settled(run.look, TIMING, run.clock), { settled: { key: "a", newest: 4_600_000 } });
  assertEquals(run.elapsed(), TIMING.quietMs);
});

Deno.test("settled: an install that never stops changing is given up after the bound", async () => {
  let n = 0;
  const run = scripted([]);
  const look = () => ({ key: `k${n++}`, newest: run.clock.now() });
  const result = await settled(look, TIMING, run.clock);
  ok("changing" in result, JSON.stringify(result));
  assertEquals(run.elapsed(), TIMING.maxMs);
});

Deno.test("settled: called off while waiting", async () => {
  const clock: Clock = { now: () => 1_000_000, sleep: () => Promise.resolve(false) };
  assertEquals(
    await settled(() => ({ key: "a", newest: 1_000_000 }), TIMING, clock),
    { cancelled: true },
  );
});

// ---- the build lock and the fetch lock ----------------------------------------------------------------

const homeIn = (dir: string) => ({ os: Deno.build.os, stateDir: dir });

/** A process that takes the `kind` lock in `dir`, says so, and holds it until it is killed or `holdMs` passes. */
async function holder(dir: string, holdMs: number, kind: LockKind = "build") {
  const code = `import { tryLock } from "${ROOT}lib/project/build_lock.ts";
    const lock = tryLock(${JSON.stringify(homeIn(dir))}, "${kind}");
    console.log(lock === undefined ? "busy" : "held");
    await new Promise((resolve) => setTimeout(resolve, ${holdMs}));`;
  const child = new Deno.Command(Deno.execPath(), {
    args: ["eval", `--config=${ROOT}deno.json`, code],
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  const first = (await reader.read()).value?.trim();
  reader.releaseLock();
  await child.stdout.cancel().catch(() => {});
  return { child, first };
}

Deno.test("build lock: one holder at a time; free again when released (twice is once); the fetch lock is another", async () => {
  await withDir((dir) => {
    const home = homeIn(dir);
    const first = tryLock(home, "build");
    ok(first !== undefined);
    assertEquals(tryLock(home, "build"), undefined);
    const fetching = tryLock(home, "fetch");
    ok(fetching !== undefined, "a fetch does not wait for a build");
    assertEquals(tryLock(home, "fetch"), undefined);
    first.release();
    first.release();
    const again = tryLock(home, "build");
    ok(again !== undefined);
    again.release();
    fetching.release();
  });
});

Deno.test("build lock: a process killed while holding it leaves it free at once", async () => {
  await withDir(async (dir) => {
    const home = homeIn(dir);
    const killed = await holder(dir, 60_000);
    assertEquals(killed.first, "held");
    assertEquals(tryLock(home, "build"), undefined);
    killed.child.kill("SIGKILL");
    await killed.child.status;
    const taken = tryLock(home, "build");
    ok(taken !== undefined, "the killed process's lock is taken over");
    taken.release();
  });
});

Deno.test("lockWhenFree: a live holder is waited for, the lock tried after each pause; it stops when the pause says so", async () => {
  await withDir(async (dir) => {
    const home = homeIn(dir);
    const live = await holder(dir, 500, "fetch");
    assertEquals(live.first, "held");
    // Called off at the first pause: no lock.
    let pauses = 0;
    const stop = () => {
      pauses++;
      return Promise.resolve(false);
    };
    assertEquals(await lockWhenFree(home, "fetch", stop), undefined);
    assertEquals(pauses, 1);
    let waiting = 0;
    const start = performance.now();
    const lock = await lockWhenFree(
      home,
      "fetch",
      () => new Promise((resolve) => setTimeout(() => resolve(true), 50)),
      () => waiting++,
    );
    ok(lock !== undefined);
    ok(performance.now() - start > 100, "it waited for the holder");
    assertEquals(waiting, 1, "said once");
    lock.release();
    await live.child.status;
  });
});

// ---- the progress record -------------------------------------------------------------------------------

const NOW = Date.UTC(2026, 10, 21, 10, 15, 0);

const progress = (fields: Partial<UpkeepProgress> = {}): UpkeepProgress => ({
  project: "/home/me/app",
  phase: "building",
  total: 7,
  ready: 3,
  built: 2,
  missing: 0,
  started: NOW - 12_000,
  updated: NOW - 1000,
  ...fields,
});

Deno.test("progress record: written whole and read back per project; anything else is none", async () => {
  await withDir((state) => {
    const record = progress({ phase: "failed", error: "zod 4.1.12: disk full", finished: NOW });
    writeProgress("linux", state, record);
    assertEquals(readProgress("linux", state, "/home/me/app"), record);
    assertEquals(readProgress("linux", state, "/home/me/other"), undefined);
    writeProgress("linux", state, { ...record, phase: "done" });
    assertEquals(readProgress("linux", state, "/home/me/app")?.phase, "done");
    // No temp file is left beside it.
    assertEquals([...Deno.readDirSync(`${state}/projects`)].length, 1);
    const [file] = [...Deno.readDirSync(`${state}/projects`)];
    Deno.writeTextFileSync(`${state}/projects/${file.name}`, '{"project": "/home/me/app", "phase": "odd"}');
    assertEquals(readProgress("linux", state, "/home/me/app"), undefined);
  });
});

Deno.test("describeProgress: each phase in a line; a failure and a build left behind are to look into", () => {
  const waiting = describeProgress(progress({ phase: "waiting", waitingFor: "install" }), NOW);
  assertEquals(waiting.ok, true);
  match(waiting.text, /^waiting for the install to finish, .* \(for 12\.0 s\)$/);
  match(
    describeProgress(progress({ phase: "waiting", waitingFor: "build" }), NOW).text,
    /^waiting for another build of dependency docs to end/,
  );
  assertEquals(describeProgress(progress(), NOW), {
    ok: true,
    text: "building: 3 of 7 packages ready (2 built now, 1 before), for 12.0 s",
  });
  assertEquals(
    describeProgress(
      progress({ phase: "done", ready: 7, built: 2, finished: NOW - 120_000, missing: 1 }),
      NOW,
    ),
    {
      ok: true,
      text:
        "up to date: 7 of 7 packages ready (2 built now, 5 before) in 0.0 s, 2 min ago; 1 not installed, " +
        "so not indexed",
    },
  );
  const failed = describeProgress(progress({ phase: "failed", error: "zod 4.1.12: disk full" }), NOW);
  assertEquals(failed.ok, false);
  match(failed.text, /^failed: zod 4\.1\.12: disk full; 3 of 7 packages ready/);
  // Not rewritten for longer than a working process ever leaves it: its process is gone.
  const left = describeProgress(progress({ updated: NOW - STALE_MS - 1000 }), NOW);
  assertEquals(left.ok, false);
  match(left.text, /^interrupted while building \(not heard of for 1 min: its session ended or was killed\)/);
});
