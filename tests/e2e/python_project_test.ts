/**
 * `index add --project` on a Python project whose virtualenv Python's own tools made: `python3 -m venv`
 * (which brings pip and setuptools, real distributions) and a pip install of the greetlib fixture from a
 * wheel, offline. The docs are indexed at the installed versions, the packages with enough of them listed in
 * the local config, a web search about one denied with its version named, and a change to the environment
 * noticed at the next SessionStart.
 */
import { deepStrictEqual as assertEquals, match, ok } from "node:assert/strict";
import {
  fixture,
  noFetching,
  runCli,
  runProgram,
  type Sandbox,
  sandbox,
  sessionStartIn,
  succeeded,
  webSearchIn,
} from "../helpers.ts";

/** The project: greetlib from its wheel, setuptools and pip as the venv has them, one name never installed. */
async function pythonProject(
  box: Sandbox,
): Promise<{ project: string; pip: (...args: string[]) => Promise<void> }> {
  const project = `${box.home}/app`;
  await Deno.mkdir(project);
  await Deno.writeTextFile(
    `${project}/pyproject.toml`,
    [
      "[project]",
      'name = "app"',
      'version = "0.1.0"',
      'dependencies = ["greetlib>=1.4", "setuptools"]',
      "",
      "[dependency-groups]",
      'dev = [{include-group = "lint"}]',
      'lint = ["not-installed-linter"]',
    ].join("\n"),
  );
  await Deno.writeTextFile(`${project}/requirements-dev.txt`, "pip  # the installer's own docs\n");
  const env = { ...box.env, PIP_DISABLE_PIP_VERSION_CHECK: "1", PIP_NO_INDEX: "1" };
  const run = async (program: string, args: string[]) => {
    const out = await runProgram(program, args, { env, cwd: project });
    assertEquals(out.code, 0, `${program} ${args.join(" ")}: ${out.stderr}`);
  };
  await run("python3", ["-m", "venv", ".venv"]);
  await run("python3", [fixture("python/build_wheel.py"), box.home]);
  const pip = (...args: string[]) => run(`${project}/.venv/bin/pip`, ["--quiet", ...args]);
  await pip("install", `${box.home}/greetlib-1.4.2-py3-none-any.whl`);
  return { project, pip };
}

Deno.test("index add --project on a Python project: its virtualenv's distributions, description and docstrings, at their versions", async () => {
  await using box = await sandbox();
  await noFetching(box);
  const { project, pip } = await pythonProject(box);
  const cli = (args: string[]) => runCli(args, { env: box.env, cwd: project });
  const added = await cli(["index", "add", "--project"]);
  assertEquals(added.code, 0, added.stderr);
  match(
    added.stdout,
    /Indexed the docs of 3 direct dependencies of .*app \(Python: .*\.venv\) \(3 built, 0 indexed before\)/,
  );
  match(added.stdout, /greetlib 1\.4\.2: \d+ words\n/);
  const setuptools = /setuptools (\d[\w.]*): (\d+) words\n/.exec(added.stdout);
  ok(setuptools !== null && Number(setuptools[2]) >= 1000, added.stdout);
  match(added.stderr, /not installed, so not indexed: not-installed-linter/);

  const local = JSON.parse(await Deno.readTextFile(`${project}/.claude/docsearch.local.json`));
  // Every installed package is listed: the hook's gate decides what their pages answer.
  assertEquals(local.databases.map((d: { name: string }) => d.name), ["greetlib", "pip", "setuptools"]);
  const index = `pypi-setuptools-${setuptools[1]}`;
  assertEquals(local.databases[2].tool_args, { index, query: "{query}" });
  match(
    local.databases[2].description,
    /^setuptools \S+, as installed in this project \(description, docstrings\)/,
  );

  // The long description, the public docstrings and signatures; private modules and methods left out.
  const search = (query: string) => cli(["search", "pypi-greetlib-1.4.2", query]);
  match(succeeded(await search("salutation style recipient surname")), /Salutation styles/);
  match(succeeded(await search("honorific title surname")), /greetlib\.formal\.honorific/);
  match(
    succeeded(await search("punctuation mark")),
    /def greet\(self, name, \*, (\*\*)?punctuation(\*\*)?="!"\)/,
  );
  match(succeeded(await search("interpreters courteously goodbye")), /greetlib\.farewell/);
  ok(!(await search("renderer quokka detail")).stdout.includes("_render.py"));
  ok(!(await search("internal cache rendered greetings")).stdout.includes("Greeter._cache"));

  const hook = (query: string, session: string) => webSearchIn(project, box.env, query, session);
  // A search its docstrings answer is denied with them quoted; one they do not answer goes to the web.
  const denied = await hook("setuptools find namespace packages", "s1");
  match(denied.stdout, /"permissionDecision":"deny"/);
  match(
    denied.stdout,
    new RegExp(`setuptools ${setuptools[1].replaceAll(".", "\\.")}, as installed in this project`),
  );
  match(denied.stdout, /find_namespace_packages/);
  // greetlib's few words are listed too, and answer what they are about.
  match(
    (await hook("greetlib formal greeting", "g1")).stdout,
    /Greetlib composes greetings for every occasion/,
  );
  // Ordinary Python searches are not about setuptools; and setuptools' docstrings say nothing of its release
  // history.
  const passing = [
    "python list comprehension examples",
    "setuptools release history",
  ];
  for (const [i, query] of passing.entries()) {
    assertEquals((await hook(query, `s${i + 2}`)).stdout, "", query);
  }

  // Installing into the environment changes site-packages, which the next session is told of.
  const sessionStart = () => sessionStartIn(project, box.env);
  ok(!(await sessionStart()).stdout.includes("changed since"));
  await pip("uninstall", "--yes", "greetlib");
  match(
    (await sessionStart()).stdout,
    /site-packages changed since this project's dependency docs were indexed/,
  );

  // Indexed again: the versions are the same, so nothing is built; greetlib is now missing.
  const again = await cli(["index", "add", "--project"]);
  match(again.stdout, /\(0 built, 2 indexed before\)/);
  match(again.stderr, /not installed, so not indexed: greetlib, not-installed-linter/);
});

Deno.test("index add --project on a Python project with no environment says how to make one", async () => {
  await using box = await sandbox({ PATH: "/nonexistent" });
  const project = `${box.home}/app`;
  await Deno.mkdir(project);
  await Deno.writeTextFile(`${project}/requirements.txt`, "requests\n");
  const out = await runCli(["index", "add", "--project", project], { env: box.env });
  assertEquals(out.code, 1);
  match(out.stderr, /no Python environment found for .*app.*\n.*fix: create the project's environment/);
});
