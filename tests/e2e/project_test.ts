/**
 * `index add --project` on a project whose node_modules npm itself installed: real packages from the npm
 * registry, indexed at their installed versions, listed in the project's local config layer, and a web
 * search about one of them denied with its version named, while ordinary searches pass.
 */
import { deepStrictEqual as assertEquals, match, ok } from "node:assert/strict";
import {
  event,
  noFetching,
  runCli,
  runProgram,
  type Sandbox,
  sandbox,
  sessionStartIn,
  succeeded,
} from "../helpers.ts";

/** Real packages of different shapes: a large typed API (zod), a common-word name (debug), a tiny README (ms). */
const PACKAGES = { zod: "4.1.12", debug: "4.4.3", ms: "2.1.3" };

async function npmProject(box: Sandbox): Promise<string> {
  const project = `${box.home}/app`;
  await Deno.mkdir(project);
  await Deno.writeTextFile(
    `${project}/package.json`,
    JSON.stringify({ name: "app", dependencies: PACKAGES }),
  );
  const npm = await runProgram(
    "npm",
    ["install", "--ignore-scripts", "--no-audit", "--no-fund", "--loglevel=error"],
    { env: Deno.env.toObject(), cwd: project },
  );
  assertEquals(npm.code, 0, npm.stderr);
  return project;
}

Deno.test("index add --project: each dependency's docs at its installed version, listed in the local config; the hook names the version", async () => {
  await using box = await sandbox();
  await noFetching(box);
  const project = await npmProject(box);
  const cli = (args: string[]) => runCli(args, { env: box.env, cwd: project });
  const added = await cli(["index", "add", "--project"]);
  assertEquals(added.code, 0, added.stderr);
  match(added.stdout, /Indexed the docs of 3 direct dependencies of .*app \(3 built, 0 indexed before\)/);
  match(added.stdout, /ms 2\.1\.3: \d+ words?\n/);
  const local = JSON.parse(await Deno.readTextFile(`${project}/.claude/docsearch.local.json`));
  const names = local.databases.map((d: { name: string }) => d.name);
  ok(names.includes("zod") && names.includes("ms"), JSON.stringify(local));
  const zod = local.databases.find((d: { name: string }) => d.name === "zod");
  assertEquals(zod.tool_args, { index: "npm-zod-4.1.12", query: "{query}" });
  match(zod.description, /^zod 4\.1\.12, as installed in this project/);
  // The API reference from the declarations is searchable.
  match(succeeded(await cli(["search", "npm-zod-4.1.12", "safeParse"])), /safeParse/i);

  const hook = (query: string) =>
    runCli(["hook"], {
      env: box.env,
      cwd: project,
      stdin: event("PreToolUse.WebSearch.json", {
        cwd: project,
        session_id: `s-${query}`,
        tool_input: { query, allowed_domains: [], blocked_domains: [] },
      }),
    });
  const denied = await hook("zod discriminated union error message");
  match(denied.stdout, /"permissionDecision":"deny"/);
  match(denied.stdout, /zod 4\.1\.12, as installed in this project/);
  for (const ordinary of ["how to debug a memory leak in node", "convert ms to seconds in javascript"]) {
    assertEquals((await hook(ordinary)).stdout, "", ordinary);
  }
  // ms's README is short: what it says answers, and what it does not say goes to the web.
  match(
    (await hook("npm ms convert milliseconds to a written-out time format")).stdout,
    /"permissionDecision":"deny"/,
  );
  assertEquals((await hook("npm ms benchmark against moment.js with webpack tree shaking")).stdout, "");

  // A package version's docs never change: refresh is not the way to bring them up to date.
  const refreshed = await cli(["index", "refresh", "npm-zod-4.1.12"]);
  assertEquals(refreshed.code, 1);
  match(refreshed.stderr, /holds the docs of the package npm:zod@4\.1\.12.*\n.*index add --project/);
  match(succeeded(await cli(["search", "npm-zod-4.1.12", "safeParse"])), /safeParse/i);

  // After an install that changes the lockfile, the next session is told the docs may be of older versions.
  const sessionStart = () => sessionStartIn(project, box.env);
  ok(!(await sessionStart()).stdout.includes("changed since"));
  const lock = `${project}/package-lock.json`;
  await Deno.writeTextFile(lock, (await Deno.readTextFile(lock)) + "\n");
  match(
    (await sessionStart()).stdout,
    /package-lock\.json changed since this project's dependency docs were indexed/,
  );

  // A second project with the same versions reuses the indexes.
  const again = await cli(["index", "add", "--project", project]);
  match(again.stdout, /\(0 built, 3 indexed before\)/);
  match(again.stdout, /already lists them/);
});

Deno.test("index add --project without a package.json, deno.json, Python, Go or Rust manifest says where to run it", async () => {
  await using box = await sandbox();
  await noFetching(box);
  const out = await runCli(["index", "add", "--project", box.home], { env: box.env });
  assertEquals(out.code, 1);
  match(
    out.stderr,
    /no package\.json, deno\.json, pyproject\.toml, requirements\.txt, Pipfile, go\.mod or Cargo\.toml in .*\n.*fix: run it in the project's folder/,
  );
});
