/**
 * `index add --project` on a project with a go.mod and a Cargo.toml naming real upstream modules and crates,
 * Debian's packaged sources (tests/debian_sources.ts): one copied into the Go module cache under its
 * case-encoded path and one into Cargo's registry sources, the others read where Debian put them. Their docs
 * are indexed at the versions read, the config entries say which, a known doc comment is found, private items
 * are not, a web search about one is denied, and a go.sum change is noticed at the next SessionStart.
 */
import { deepStrictEqual as assertEquals, match, ok } from "node:assert/strict";
import {
  noFetching,
  runCli,
  runProgram,
  type Sandbox,
  sandbox,
  sessionStartIn,
  succeeded,
  webSearchIn,
} from "../helpers.ts";
import { debianSources, upstreamVersion } from "../debian_sources.ts";

const REGISTRY = "registry+https://github.com/rust-lang/crates.io-index";

async function copy(from: string, to: string): Promise<void> {
  await Deno.mkdir(to.slice(0, to.lastIndexOf("/")), { recursive: true });
  const out = await runProgram("cp", ["-R", from, to], { env: { PATH: "/usr/bin:/bin" } });
  assertEquals(out.code, 0, out.stderr);
}

interface Project {
  project: string;
  versions: Awaited<ReturnType<typeof debianSources>>;
  toml: string;
  itoa: string;
  semver: string;
}

/**
 * The project: go.mod requires BurntSushi/toml (in the module cache), google/uuid (Debian's), pkg/errors by way
 * of a replace, an indirect module and one never downloaded; Cargo.toml depends on itoa (in Cargo's registry
 * sources) and, for Unix targets only, on semver (Debian's), plus a path dependency.
 */
async function goRustProject(box: Sandbox): Promise<Project> {
  const versions = await debianSources();
  const toml = `v${upstreamVersion(versions["golang-github-burntsushi-toml-dev"])}`;
  const uuid = `v${upstreamVersion(versions["golang-github-google-uuid-dev"])}`;
  const errors = `v${upstreamVersion(versions["golang-github-pkg-errors-dev"])}`;
  const itoa = upstreamVersion(versions["librust-itoa-dev"]);
  const semver = upstreamVersion(versions["librust-semver-dev"]);
  await copy(
    "/usr/share/gocode/src/github.com/BurntSushi/toml",
    `${box.home}/gomod/github.com/!burnt!sushi/toml@${toml}`,
  );
  await copy(
    `/usr/share/cargo/registry/itoa-${itoa}`,
    `${box.home}/cargo/registry/src/index.crates.io-6f17d22bba15001f/itoa-${itoa}`,
  );
  const project = `${box.home}/app`;
  await Deno.mkdir(`${project}/local/src`, { recursive: true });
  await Deno.writeTextFile(
    `${project}/go.mod`,
    [
      "module example.com/app",
      "",
      "go 1.21",
      "",
      "require (",
      `\tgithub.com/BurntSushi/toml ${toml}`,
      `\tgithub.com/google/uuid ${uuid}`,
      "\texample.com/legacy/errors v0.8.0",
      "\texample.com/never/downloaded v1.0.0",
      ")",
      "",
      "require golang.org/x/sys v0.1.0 // indirect",
      "",
      `replace example.com/legacy/errors => github.com/pkg/errors ${errors}`,
    ].join("\n"),
  );
  await Deno.writeTextFile(
    `${project}/go.sum`,
    `github.com/google/uuid ${uuid} h1:KjJaJ9iWZ3jOFZIf1Lqf4laDRCasjl0BCmnEGxkdLb4=\n`,
  );
  await Deno.writeTextFile(
    `${project}/Cargo.toml`,
    [
      "[package]",
      'name = "app"',
      'version = "0.1.0"',
      "",
      "[dependencies]",
      'itoa = "1"',
      'local = { path = "local" }',
      "",
      "[target.'cfg(unix)'.dev-dependencies]",
      'semver = { version = "1" }',
    ].join("\n"),
  );
  await Deno.writeTextFile(`${project}/local/Cargo.toml`, '[package]\nname = "local"\nversion = "0.1.0"\n');
  await Deno.writeTextFile(
    `${project}/Cargo.lock`,
    [
      "version = 3",
      '[[package]]\nname = "app"\nversion = "0.1.0"\ndependencies = ["itoa", "local", "semver"]',
      `[[package]]\nname = "itoa"\nversion = "${itoa}"\nsource = "${REGISTRY}"`,
      '[[package]]\nname = "local"\nversion = "0.1.0"',
      `[[package]]\nname = "semver"\nversion = "${semver}"\nsource = "${REGISTRY}"`,
    ].join("\n\n"),
  );
  return { project, versions, toml, itoa, semver };
}

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

Deno.test("index add --project on a Go and Rust project: module cache, Cargo's registry sources and Debian's, at the versions read", async () => {
  await using box = await sandbox();
  await noFetching(box);
  box.env.GOMODCACHE = `${box.home}/gomod`;
  box.env.CARGO_HOME = `${box.home}/cargo`;
  const { project, versions, toml, itoa, semver } = await goRustProject(box);
  const cli = (args: string[]) => runCli(args, { env: box.env, cwd: project });
  const started = performance.now();
  const added = await cli(["index", "add", "--project"]);
  const seconds = (performance.now() - started) / 1000;
  assertEquals(added.code, 0, added.stderr);
  console.log(`index add --project, 5 modules and crates: ${seconds.toFixed(2)} s\n${added.stdout}`);
  match(added.stdout, /Indexed the docs of 5 direct dependencies of .*app \(5 built, 0 indexed before\)/);
  const uuidDeb = versions["golang-github-google-uuid-dev"];
  const errorsDeb = versions["golang-github-pkg-errors-dev"];
  const words = (line: RegExp) => Number(line.exec(added.stdout)?.[1].replace(/,/g, ""));
  ok(
    words(new RegExp(`github\\.com/BurntSushi/toml ${escaped(toml)}: ([\\d,]+) words\\n`)) >= 1000,
    added.stdout,
  );
  ok(
    words(new RegExp(`github\\.com/google/uuid ${escaped(uuidDeb)}: ([\\d,]+) words\\n`)) >= 1000,
    added.stdout,
  );
  ok(
    words(new RegExp(`github\\.com/pkg/errors ${escaped(errorsDeb)}: ([\\d,]+) words\\n`)) >= 1000,
    added.stdout,
  );
  ok(words(new RegExp(`semver ${escaped(semver)}: ([\\d,]+) words\\n`)) >= 1000, added.stdout);
  // itoa's API is one type: a few hundred words, listed all the same (the hook's gate decides what they answer).
  match(added.stdout, new RegExp(`itoa ${escaped(itoa)}: \\d+ words\\n`));
  // The indirect requirement and the path dependency are not dependencies to index; a module never
  // downloaded is named.
  match(added.stderr, /not installed, so not indexed: example\.com\/never\/downloaded \(/);
  ok(!added.stdout.includes("golang.org/x/sys") && !added.stderr.includes("golang.org/x/sys"), added.stderr);
  ok(!/^ {2}local /m.test(added.stdout) && !/\blocal\b/.test(added.stderr), added.stderr);

  // The entries say which version was read, and from where.
  const local = JSON.parse(await Deno.readTextFile(`${project}/.claude/docsearch.local.json`));
  const entries = new Map<string, { description: string; tool_args: { index: string }; keywords: string[] }>(
    local.databases.map((d: { name: string }) => [d.name, d]),
  );
  assertEquals([...entries.keys()].sort(), [
    "github.com/BurntSushi/toml",
    "github.com/google/uuid",
    "github.com/pkg/errors",
    "itoa",
    "semver",
  ]);
  const entry = (name: string) => entries.get(name)!;
  assertEquals(
    entry("github.com/BurntSushi/toml").tool_args.index,
    `go-github.com__BurntSushi__toml-${toml}`,
  );
  assertEquals(
    entry("github.com/BurntSushi/toml").description,
    `github.com/BurntSushi/toml ${toml}, as installed in this project (README, package docs, doc comments)`,
  );
  assertEquals(entry("github.com/google/uuid").tool_args.index, `go-github.com__google__uuid-${uuidDeb}`);
  assertEquals(
    entry("github.com/google/uuid").description,
    `github.com/google/uuid ${uuidDeb}, as packaged by Debian in golang-github-google-uuid-dev, the version go.mod ` +
      "asks for (README, package docs, doc comments)",
  );
  match(
    entry("github.com/pkg/errors").description,
    new RegExp(
      `^github\\.com/pkg/errors ${
        escaped(errorsDeb)
      }, as packaged by Debian in golang-github-pkg-errors-dev, ` +
        "the version go.mod asks for, in place of example\\.com/legacy/errors \\(go.mod's replace\\)",
    ),
  );
  assertEquals(entry("semver").tool_args.index, `crates-semver-${semver}`);
  assertEquals(
    entry("semver").description,
    `semver ${semver}, as packaged by Debian in librust-semver-dev (README, crate and item docs)`,
  );
  assertEquals(entry("github.com/google/uuid").keywords, ["github.com/google/uuid", "google/uuid"]);

  // Known doc comments are found; unexported Go functions and a private Rust module's items are not.
  const search = async (index: string, query: string) => (await cli(["search", index, query])).stdout;
  match(
    succeeded(await cli(["search", `go-github.com__google__uuid-${uuidDeb}`, "NewRandom random version 4"])),
    /uuid\.NewRandom/,
  );
  match(
    succeeded(
      await cli(["search", `go-github.com__BurntSushi__toml-${toml}`, "DecodeFile read file decode"]),
    ),
    /toml\.DecodeFile/,
  );
  match(
    succeeded(await cli(["search", `crates-semver-${semver}`, "VersionReq matches"])),
    /semver::VersionReq::matches/,
  );
  match(
    succeeded(await cli(["search", `crates-itoa-${itoa}`, "stack allocation formatted integer"])),
    /itoa::Buffer/,
  );
  // uuid's unexported randomBits and getHardwareInterface have doc comments of their own.
  for (
    const [query, name] of [["randomBits fills slice random data", "randomBits"], [
      "hardware address interface",
      "getHardwareInterface",
    ]]
  ) {
    ok(!(await search(`go-github.com__google__uuid-${uuidDeb}`, query)).includes(name), query);
  }
  // itoa's private module udiv128: "Integer division algorithm is based on … Granlund and P. Montgomery".
  ok(!(await search(`crates-itoa-${itoa}`, "Granlund Montgomery division invariant")).includes("udivmod"));

  const hook = (query: string, session: string) => webSearchIn(project, box.env, query, session);
  const denied = await hook("github.com/google/uuid NewRandom version 4", "s1");
  match(denied.stdout, /"permissionDecision":"deny"/);
  match(denied.stdout, new RegExp(`github\\.com/google/uuid ${escaped(uuidDeb)}, as packaged by Debian`));
  const crate = await hook("semver VersionReq matches", "s2");
  match(crate.stdout, /"permissionDecision":"deny"/);
  match(crate.stdout, new RegExp(`semver ${escaped(semver)}, as packaged by Debian`));
  // A search about the Go language itself is no search about a module.
  assertEquals((await hook("golang generate uuid", "s3")).stdout, "");

  // go.sum is the stamp: the next session is told when it changed.
  ok(!(await sessionStartIn(project, box.env)).stdout.includes("changed since"));
  await Deno.writeTextFile(`${project}/go.sum`, "github.com/google/uuid v1.6.0 h1:x=\n", { append: true });
  match(
    (await sessionStartIn(project, box.env)).stdout,
    /go\.sum changed since this project's dependency docs/,
  );

  // Indexed again: the versions are the same, so nothing is built.
  match((await cli(["index", "add", "--project"])).stdout, /\(0 built, 5 indexed before\)/);
});
