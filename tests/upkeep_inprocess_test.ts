/**
 * The background upkeep of a project's dependency docs, run in process on a hand-made npm project (packages
 * written into node_modules as an install leaves them), with short waits: what it builds and when, what it
 * writes in the project's local config layer, the stamp and the progress record, an install still running,
 * the config key that turns it off, and two sessions at once.
 */
import { deepStrictEqual as assertEquals, match, ok } from "node:assert/strict";
import type { CommandContext } from "../lib/cli/context.ts";
import { indexedFrom } from "../lib/project/stamp.ts";
import { startUpkeep, type UpkeepTiming } from "../lib/project/upkeep.ts";
import { describeProgress, readProgress, writeProgress } from "../lib/project/upkeep_progress.ts";
import { tryLock } from "../lib/project/build_lock.ts";
import { fetchPublished } from "../lib/project/published_docs.ts";
import { machine } from "./command_context.ts";
import { exists, until } from "./helpers.ts";
import { site } from "./published_site.ts";

const FAST: UpkeepTiming = {
  startMs: 0,
  pollMs: 50,
  settle: { quietMs: 400, pollMs: 50, maxMs: 10_000 },
  lockPollMs: 50,
  fetchCheckMs: 60_000,
};

/** A README of `words` distinct words. */
const readme = (name: string, version: string, words: number) =>
  `# ${name} ${version}\n\n${Array.from({ length: words }, (_, i) => `${name}word${i}`).join(" ")}\n`;

/** Writes the package into node_modules as an install would; the lockfile names every version. */
function install(project: string, packages: Record<string, { version: string; words: number }>): void {
  for (const [name, { version, words }] of Object.entries(packages)) {
    Deno.mkdirSync(`${project}/node_modules/${name}`, { recursive: true });
    Deno.writeTextFileSync(`${project}/node_modules/${name}/README.md`, readme(name, version, words));
    Deno.writeTextFileSync(`${project}/node_modules/${name}/package.json`, JSON.stringify({ name, version }));
  }
  const versions = Object.fromEntries(Object.entries(packages).map(([name, { version }]) => [name, version]));
  Deno.writeTextFileSync(`${project}/package.json`, JSON.stringify({ name: "app", dependencies: versions }));
  Deno.writeTextFileSync(`${project}/package-lock.json`, JSON.stringify({ lockfileVersion: 3, versions }));
}

/** The context the MCP server runs in, on the real clock (the waits compare it with file times). */
function session(context: CommandContext): { context: CommandContext; log: string[] } {
  const log: string[] = [];
  return { context: { ...context, now: Date.now }, log };
}

const localConfig = (project: string) =>
  JSON.parse(Deno.readTextFileSync(`${project}/.claude/docsearch.local.json`)) as {
    databases: { name: string; tool_args: { index: string } }[];
  };

const finishedAfter = (ctx: CommandContext, project: string, after: number) => () => {
  const progress = readProgress(ctx.os, ctx.stateDir!, project);
  return progress !== undefined && progress.started > after &&
      (progress.phase === "done" || progress.phase === "failed")
    ? progress
    : undefined;
};

Deno.test("upkeep: builds what is missing, lists each ready package in the local config, stamps the lockfile; after an upgrade, only the upgraded package", async () => {
  await using m = await machine();
  install(m.project, { alpha: { version: "1.0.0", words: 1500 }, beta: { version: "2.0.0", words: 50 } });
  const { context, log } = session(m.context());
  const upkeep = startUpkeep(context, (line) => log.push(line), FAST);
  try {
    const first = await until("the first build", finishedAfter(context, m.project, 0));
    assertEquals(
      [first.phase, first.total, first.ready, first.built, first.error],
      ["done", 2, 2, 2, undefined],
    );
    // beta's few words are listed too: the hook's gate, not their number, decides what they answer.
    assertEquals(
      localConfig(m.project).databases.map((d) => [d.name, d.tool_args.index]),
      [["alpha", "npm-alpha-1.0.0"], ["beta", "npm-beta-2.0.0"]],
    );
    ok(await exists(`${m.state}/indexes/npm-beta-2.0.0.db`));
    ok(indexedFrom(context.os, m.state, m.project, [`${m.project}/package-lock.json`]));
    assertEquals(log.filter((line) => / indexed \(/.test(line)).length, 2, log.join("\n"));

    // An upgrade of alpha: beta's index was built before at its version and is not built again.
    const betaIndex = Deno.statSync(`${m.state}/indexes/npm-beta-2.0.0.db`).mtime?.getTime();
    const upgraded = Date.now();
    log.length = 0;
    install(m.project, { alpha: { version: "1.1.0", words: 1500 }, beta: { version: "2.0.0", words: 50 } });
    const second = await until("the rebuild", finishedAfter(context, m.project, upgraded));
    assertEquals([second.phase, second.total, second.ready, second.built], ["done", 2, 2, 1]);
    const indexed = log.filter((line) => / indexed \(/.test(line));
    assertEquals(indexed.length, 1, log.join("\n"));
    match(indexed[0], /: alpha 1\.1\.0 indexed \(\d+ words\)$/);
    assertEquals(Deno.statSync(`${m.state}/indexes/npm-beta-2.0.0.db`).mtime?.getTime(), betaIndex);
    assertEquals(
      localConfig(m.project).databases.map((d) => [d.name, d.tool_args.index]).sort(),
      [["alpha", "npm-alpha-1.1.0"], ["beta", "npm-beta-2.0.0"]],
    );
    // The user's file was backed up once, before the first change of each round.
    const backups = [...Deno.readDirSync(`${m.project}/.claude`)].filter((e) => e.name.includes(".bak-"));
    assertEquals(backups.length, 1, backups.map((e) => e.name).join());
  } finally {
    await upkeep.stop();
  }
});

Deno.test("upkeep: a record a killed session left at building is replaced by the next round's, when nobody builds or fetches", async () => {
  await using m = await machine();
  install(m.project, { alpha: { version: "1.0.0", words: 1500 } });
  const first = session(m.context());
  const firstUpkeep = startUpkeep(first.context, (line) => first.log.push(line), FAST);
  try {
    await until("the first build", finishedAfter(first.context, m.project, 0));
  } finally {
    await firstUpkeep.stop();
  }
  // A session killed just after its last heartbeat: its record says building, written a moment ago, and it
  // holds no lock (a killed process's locks go with it). The lockfile is written again, so the next session
  // runs a round, and finds alpha built.
  const killed = Date.now();
  writeProgress("linux", m.state, {
    project: m.project,
    phase: "building",
    total: 1,
    ready: 0,
    built: 0,
    missing: 0,
    started: killed - 2000,
    updated: killed,
  });
  Deno.writeTextFileSync(
    `${m.project}/package-lock.json`,
    JSON.stringify({ lockfileVersion: 3, versions: { alpha: "1.0.0" } }, null, 2),
  );
  const next = session(m.context());
  const nextUpkeep = startUpkeep(next.context, (line) => next.log.push(line), FAST);
  try {
    const done = await until(
      "the next round's record",
      finishedAfter(next.context, m.project, killed),
      10_000,
    );
    assertEquals([done.phase, done.total, done.ready, done.built], ["done", 1, 1, 0]);
  } finally {
    await nextUpkeep.stop();
  }
});

Deno.test("upkeep: an install still changing the project is waited for; nothing is built until it stops", async () => {
  await using m = await machine();
  install(m.project, { alpha: { version: "1.0.0", words: 1500 } });
  // The install is still at work: the lockfile is rewritten every 100 ms for 1.5 s.
  const lockfile = `${m.project}/package-lock.json`;
  const index = `${m.state}/indexes/npm-alpha-1.0.0.db`;
  const builtEarly: number[] = [];
  const writing = (async () => {
    for (let i = 0; i < 15; i++) {
      Deno.writeTextFileSync(lockfile, JSON.stringify({ lockfileVersion: 3, step: i }));
      if (await exists(index)) builtEarly.push(i);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  })();
  const { context, log } = session(m.context());
  const upkeep = startUpkeep(context, (line) => log.push(line), FAST);
  try {
    const waiting = await until("the wait", () => {
      const progress = readProgress(context.os, m.state, m.project);
      return progress?.phase === "waiting" ? progress : undefined;
    });
    assertEquals(waiting.waitingFor, "install");
    await writing;
    const stopped = Date.now();
    assertEquals(builtEarly, []);
    const done = await until("the build", finishedAfter(context, m.project, 0));
    assertEquals([done.phase, done.built], ["done", 1]);
    ok(done.finished! - stopped >= FAST.settle.quietMs - 150, `built ${done.finished! - stopped} ms after`);
  } finally {
    await upkeep.stop();
  }
});

Deno.test("upkeep: dependency_docs.auto false in the project's config builds nothing", async () => {
  await using m = await machine();
  install(m.project, { alpha: { version: "1.0.0", words: 1500 } });
  Deno.mkdirSync(`${m.project}/.claude`);
  Deno.writeTextFileSync(`${m.project}/.claude/docsearch.json`, '{"dependency_docs": {"auto": false}}');
  const { context, log } = session(m.context());
  const upkeep = startUpkeep(context, (line) => log.push(line), FAST);
  // Long enough for a build: the one with auto on above takes well under this.
  await new Promise((resolve) => setTimeout(resolve, 1500));
  await upkeep.stop();
  assertEquals(log, []);
  assertEquals(readProgress(context.os, m.state, m.project), undefined);
  assertEquals(await exists(`${m.state}/indexes/npm-alpha-1.0.0.db`), false);
  assertEquals(await exists(`${m.project}/.claude/docsearch.local.json`), false);
});

Deno.test("upkeep: two sessions in one project at once build each package once", async () => {
  await using m = await machine();
  install(m.project, {
    alpha: { version: "1.0.0", words: 1500 },
    beta: { version: "2.0.0", words: 1500 },
    gamma: { version: "3.0.0", words: 1500 },
  });
  const sessions = [session(m.context()), session(m.context())];
  const upkeeps = sessions.map(({ context, log }) => startUpkeep(context, (line) => log.push(line), FAST));
  try {
    await until("the build", finishedAfter(sessions[0].context, m.project, 0));
    // The other session's round: it waited for the lock, then found every package built.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    assertEquals(readProgress("linux", m.state, m.project)?.phase, "done");
    const indexed = sessions.flatMap(({ log }) => log.filter((line) => / indexed \(/.test(line)));
    assertEquals(
      indexed.map((line) => line.replace(/^.*: (\w+) .*$/, "$1")).sort(),
      ["alpha", "beta", "gamma"],
      indexed.join("\n"),
    );
    match(
      JSON.stringify(localConfig(m.project).databases.map((d) => d.name)),
      /^\["alpha","beta","gamma"\]$/,
    );
  } finally {
    await Promise.all(upkeeps.map((upkeep) => upkeep.stop()));
  }
});

Deno.test("upkeep: a thin package gets its published docs, from its repository's tag, and its entry says so; a second look asks nothing", async () => {
  await using m = await machine();
  await using server = await site();
  install(m.project, { widget: { version: "1.2.0", words: 40 }, alpha: { version: "1.0.0", words: 1500 } });
  // What npm leaves of a package that names its repository.
  Deno.writeTextFileSync(
    `${m.project}/node_modules/widget/package.json`,
    JSON.stringify({ name: "widget", version: "1.2.0", repository: `git+${server.origin}/o/r.git` }),
  );
  const { context, log } = session({ ...m.context(), network: { http: true, privateHosts: true } });
  const upkeep = startUpkeep(context, (line) => log.push(line), FAST);
  try {
    const done = await until("the build", finishedAfter(context, m.project, 0));
    assertEquals([done.phase, done.built, done.fetched], ["done", 2, 1]);
    const widget = localConfig(m.project).databases.find((d) => d.name === "widget") as unknown as {
      tool_args: { index: string };
      description: string;
    };
    assertEquals(widget.tool_args.index, "npm-widget-1.2.0.published");
    assertEquals(
      widget.description,
      "widget 1.2.0 (repository tag v1.2.0), the version installed in this project",
    );
    // alpha has docs enough: nothing asked for it.
    assertEquals(server.asked, [
      "/o/r/archive/refs/tags/v1.2.0.tar.gz",
      "/codeload/o/r/tar.gz/refs/tags/v1.2.0",
    ]);
    match(
      log.join("\n"),
      /widget 1\.2\.0: published docs: widget 1\.2\.0 \(repository tag v1\.2\.0\) \(\d+ words, http:\/\/127\.0\.0\.1:\d+\/o\/r\/archive\/refs\/tags\/v1\.2\.0\.tar\.gz\)/,
    );
  } finally {
    await upkeep.stop();
  }
  // Another session in the project: built and fetched before, nothing is asked.
  const again = session({ ...m.context(), network: { http: true, privateHosts: true } });
  const second = startUpkeep(again.context, (line) => again.log.push(line), { ...FAST, fetchCheckMs: 50 });
  try {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    assertEquals(server.asked.length, 2);
  } finally {
    await second.stop();
  }
});

/** The thin widget 1.2.0, whose package.json names the repository `server` serves. */
function installWidget(project: string, origin: string): void {
  install(project, { widget: { version: "1.2.0", words: 40 } });
  Deno.writeTextFileSync(
    `${project}/node_modules/widget/package.json`,
    JSON.stringify({ name: "widget", version: "1.2.0", repository: `git+${origin}/o/r.git` }),
  );
}

const TESTS_NETWORK = { http: true, privateHosts: true };

Deno.test("upkeep: the build lock goes once every package is built, and the fetch runs under the fetch lock alone", async () => {
  await using m = await machine();
  const { promise: stall, resolve: answer } = Promise.withResolvers<void>();
  await using server = await site({ stall });
  installWidget(m.project, server.origin);
  const { context, log } = session({ ...m.context(), network: TESTS_NETWORK });
  const home = { os: context.os, stateDir: context.stateDir };
  const upkeep = startUpkeep(context, (line) => log.push(line), FAST);
  try {
    // The host keeps the fetch waiting: another project's build goes on meanwhile, another fetch waits.
    await until("the archive to be asked for", () => server.asked.length > 0 || undefined);
    const build = tryLock(home, "build");
    ok(build !== undefined, "another project's build goes on");
    build.release();
    assertEquals(tryLock(home, "fetch"), undefined);
    assertEquals(readProgress(context.os, m.state, m.project)?.fetching, "widget 1.2.0");
    answer();
    const done = await until("the build", finishedAfter(context, m.project, 0));
    assertEquals([done.phase, done.fetched], ["done", 1]);
    assertEquals(localConfig(m.project).databases[0].tool_args.index, "npm-widget-1.2.0.published");
  } finally {
    answer();
    await upkeep.stop();
  }
});

Deno.test("upkeep: a fetch waits for another process's, then finds its package fetched there: nothing asked, the entry names those docs", async () => {
  await using m = await machine();
  await using server = await site();
  installWidget(m.project, server.origin);
  const { context, log } = session({ ...m.context(), network: TESTS_NETWORK });
  const home = { os: context.os, stateDir: context.stateDir };
  // Another process's fetch, as far as this one can tell: the lock is held on another descriptor.
  const other = tryLock(home, "fetch");
  ok(other !== undefined);
  const upkeep = startUpkeep(context, (line) => log.push(line), FAST);
  try {
    const waiting = await until("the wait for the fetch lock", () => {
      const progress = readProgress(context.os, m.state, m.project);
      return progress?.waitingFor === "fetch" ? progress : undefined;
    });
    match(
      describeProgress(waiting, Date.now()).text,
      /^building: 1 of 1 package ready .*; waiting for another fetch of published docs to end$/,
    );
    const build = tryLock(home, "build");
    ok(build !== undefined, "the build lock is not held while waiting");
    build.release();
    // The other process fetches widget's docs, then lets go.
    const pkg = {
      ecosystem: "npm" as const,
      name: "widget",
      version: "1.2.0",
      dir: `${m.project}/node_modules/widget`,
    };
    const fetched = await fetchPublished(home, pkg, {
      fetch,
      policy: TESTS_NETWORK,
      resolve: () => Promise.resolve(["93.184.216.34"]),
      now: Date.now,
      sleep: () => Promise.resolve(),
    });
    ok("published" in fetched, JSON.stringify(fetched));
    assertEquals(server.asked.length, 2);
    other.release();
    const done = await until("the build", finishedAfter(context, m.project, 0));
    assertEquals(done.phase, "done");
    assertEquals(server.asked.length, 2, "nothing asked again");
    assertEquals(localConfig(m.project).databases[0].tool_args.index, "npm-widget-1.2.0.published");
  } finally {
    other.release();
    await upkeep.stop();
  }
});

Deno.test("upkeep: while one session fetches, another in the project that finds everything built leaves the record to it", async () => {
  await using m = await machine();
  const { promise: stall, resolve: answer } = Promise.withResolvers<void>();
  await using server = await site({ stall });
  installWidget(m.project, server.origin);
  const sessions = [session({ ...m.context(), network: TESTS_NETWORK })];
  const upkeeps = [startUpkeep(sessions[0].context, (line) => sessions[0].log.push(line), FAST)];
  try {
    await until("the archive to be asked for", () => server.asked.length > 0 || undefined);
    sessions.push(session({ ...m.context(), network: TESTS_NETWORK }));
    upkeeps.push(startUpkeep(sessions[1].context, (line) => sessions[1].log.push(line), FAST));
    // The second session's round: the install settles (400 ms), the build lock is free, widget is built, and
    // it waits for the first one's fetch. Throughout, status tells of the fetch.
    const seen = new Set<string>();
    const end = Date.now() + 1500;
    while (Date.now() < end) {
      const progress = readProgress("linux", m.state, m.project);
      if (progress !== undefined) {
        seen.add(describeProgress(progress, Date.now()).text.replace(/[\d.]+ s/, "_"));
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    assertEquals([...seen], [
      "building: 1 of 1 package ready (1 built now, 0 before), for _; fetching the published docs of widget 1.2.0",
    ]);
    answer();
    await until("the fetch", finishedAfter(sessions[0].context, m.project, 0));
    // The second session's wait ends too, with nothing left to fetch.
    await new Promise((resolve) => setTimeout(resolve, 500));
    assertEquals(server.asked.length, 2, "fetched once");
  } finally {
    answer();
    await Promise.all(upkeeps.map((upkeep) => upkeep.stop()));
  }
});
