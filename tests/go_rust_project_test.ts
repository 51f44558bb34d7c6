/**
 * Go and Rust projects for `index add --project`: the direct dependencies go.mod and Cargo.toml name, the
 * versions go.mod and Cargo.lock pin, where the go command and cargo put their sources, and which of a
 * module's or crate's files are read. Real Debian sources are read end to end in
 * tests/e2e/go_rust_project_test.ts.
 */
import { deepStrictEqual as assertEquals, match, ok, throws } from "node:assert/strict";
import {
  compareGoVersions,
  escapeModulePath,
  goDependencies,
  goModCache,
  goModTokens,
  parseGoMod,
} from "../lib/project/go.ts";
import { cargoHome, lockedVersions, manifestCrates, rustDependencies } from "../lib/project/cargo.ts";
import { installedVersions } from "../lib/project/debian.ts";
import { indexGoModule } from "../lib/project/go_docs.ts";
import { indexCrate } from "../lib/project/crate_docs.ts";
import { addProject } from "../lib/project/index_project.ts";
import { packageIndexName } from "../lib/project/index_names.ts";
import { packageKeywords } from "../lib/project/keywords.ts";
import { checkIndexName } from "../lib/docs/indexes.ts";
import { DocsIndex } from "../lib/docs/store.ts";
import { withDir } from "./helpers.ts";
import { machine } from "./command_context.ts";

const os = "linux";
const envOf = (vars: Record<string, string>) => (name: string) => vars[name];

async function write(path: string, text: string): Promise<void> {
  await Deno.mkdir(path.slice(0, path.lastIndexOf("/")), { recursive: true });
  await Deno.writeTextFile(path, text);
}

Deno.test("go.mod: require lines and blocks, // indirect apart, replace by version or for all, comments and quotes", () => {
  const mod = parseGoMod(`module example.com/app // the app

go 1.22

require github.com/single/one v1.0.0
require (
	github.com/a/b v1.2.3
	"github.com/quoted/path" v0.1.0 // a note, not indirect
	golang.org/x/sys v0.20.0 // indirect
	golang.org/x/net v0.21.0 // indirect; needed by x/sys
)

replace github.com/a/b => github.com/fork/b v1.2.4
replace (
	github.com/single/one v1.0.0 => github.com/single/one v1.0.1
	github.com/local/dep => ../dep
)
exclude github.com/a/b v1.0.0
`);
  assertEquals(mod.require, [
    { path: "github.com/single/one", version: "v1.0.0", indirect: false },
    { path: "github.com/a/b", version: "v1.2.3", indirect: false },
    { path: "github.com/quoted/path", version: "v0.1.0", indirect: false },
    { path: "golang.org/x/sys", version: "v0.20.0", indirect: true },
    { path: "golang.org/x/net", version: "v0.21.0", indirect: true },
  ]);
  assertEquals(mod.replace, [
    { path: "github.com/a/b", to: "github.com/fork/b", toVersion: "v1.2.4" },
    { path: "github.com/single/one", version: "v1.0.0", to: "github.com/single/one", toVersion: "v1.0.1" },
    { path: "github.com/local/dep", to: "../dep" },
  ]);
  // A `//` inside a quoted path is not a comment.
  assertEquals(goModTokens('"example.com/a//b" v1.0.0 // note'), {
    tokens: ["example.com/a//b", "v1.0.0"],
    comment: "note",
  });
});

Deno.test("go.work: its use folders and replacements; Go's order of versions", () => {
  const work = parseGoMod(`go 1.22

use (
	./api
	./worker // the jobs
)
use ./tools
replace github.com/a/b => github.com/fork/b v1.2.4
`);
  assertEquals([work.module, work.use, work.replace.length], [
    undefined,
    ["./api", "./worker", "./tools"],
    1,
  ]);
  assertEquals(parseGoMod("module example.com/app // the app\n").module, "example.com/app");
  const sorted = ["v1.10.0", "v1.9.0", "v1.9.0-rc.1", "v2.0.0", "v1.9.1", "v1.9.0-beta"]
    .sort(compareGoVersions);
  assertEquals(sorted, ["v1.9.0-beta", "v1.9.0-rc.1", "v1.9.0", "v1.9.1", "v1.10.0", "v2.0.0"]);
});

Deno.test("goDependencies in a workspace: each used module's requirements at the highest version required, its own modules and folders outside it left out", async () => {
  await withDir(async (dir) => {
    const cache = `${dir}/gomod`;
    const project = `${dir}/app`;
    await write(`${project}/go.work`, "go 1.22\n\nuse (\n\t./api\n\t./worker\n\t../elsewhere\n\t/etc\n)\n");
    await write(`${project}/go.work.sum`, "");
    await write(
      `${project}/api/go.mod`,
      "module example.com/app/api\nrequire (\n\tgithub.com/google/uuid v1.3.0\n\texample.com/app/worker v0.0.0\n)\n",
    );
    await write(`${project}/api/go.sum`, "");
    await write(
      `${project}/worker/go.mod`,
      "module example.com/app/worker\nrequire github.com/google/uuid v1.6.0\nrequire github.com/pkg/errors v0.9.1\n",
    );
    await write(
      `${dir}/elsewhere/go.mod`,
      "module example.com/elsewhere\nrequire github.com/never/read v1.0.0\n",
    );
    await write(`${cache}/github.com/google/uuid@v1.6.0/go.mod`, "module github.com/google/uuid\n");
    await write(`${cache}/github.com/pkg/errors@v0.9.1/go.mod`, "module github.com/pkg/errors\n");
    const found = goDependencies(project, envOf({ GOMODCACHE: cache, HOME: dir }), os)!;
    assertEquals(found.packages.map((p) => [p.name, p.version]), [
      ["github.com/google/uuid", "v1.6.0"],
      ["github.com/pkg/errors", "v0.9.1"],
    ]);
    assertEquals(found.missing, []);
    // go.work.sum, then each module's go.sum (else its go.mod): a change of any one is seen.
    assertEquals(found.lockfiles, [
      `${project}/go.work.sum`,
      `${project}/api/go.sum`,
      `${project}/worker/go.mod`,
    ]);
  });
});

Deno.test("the module cache: GOMODCACHE, else GOPATH's first entry, else ~/go; paths case-encoded as Go writes them", () => {
  assertEquals(goModCache(envOf({ GOMODCACHE: "/c", GOPATH: "/g", HOME: "/h" }), os), "/c");
  assertEquals(goModCache(envOf({ GOPATH: "/g1:/g2", HOME: "/h" }), os), "/g1/pkg/mod");
  assertEquals(goModCache(envOf({ HOME: "/h" }), os), "/h/go/pkg/mod");
  assertEquals(escapeModulePath("github.com/BurntSushi/toml"), "github.com/!burnt!sushi/toml");
  assertEquals(escapeModulePath("github.com/Azure/azure-SDK"), "github.com/!azure/azure-!s!d!k");
});

Deno.test("goDependencies: direct requirements at go.mod's versions in the module cache, replaced ones as replaced, indirect ones skipped", async () => {
  await withDir(async (dir) => {
    const cache = `${dir}/gomod`;
    const project = `${dir}/app`;
    await write(
      `${project}/go.mod`,
      [
        "module example.com/app",
        "require (",
        "\tgithub.com/BurntSushi/toml v1.2.0",
        "\tgithub.com/old/name v0.1.0",
        "\tgithub.com/local/dep v0.0.0",
        "\tgithub.com/not/downloaded v1.0.0",
        "\tgolang.org/x/sys v0.20.0 // indirect",
        ")",
        "replace github.com/old/name => github.com/new/name v0.2.0",
        "replace github.com/local/dep => ./dep",
      ].join("\n"),
    );
    await write(`${project}/go.sum`, "github.com/BurntSushi/toml v1.2.0 h1:x=\n");
    await write(`${cache}/github.com/!burnt!sushi/toml@v1.2.0/go.mod`, "module github.com/BurntSushi/toml\n");
    await write(`${cache}/github.com/new/name@v0.2.0/go.mod`, "module github.com/new/name\n");
    await write(`${cache}/github.com/old/name@v0.1.0/go.mod`, "module github.com/old/name\n");
    await write(`${cache}/golang.org/x/sys@v0.20.0/go.mod`, "module golang.org/x/sys\n");
    const found = goDependencies(project, envOf({ GOMODCACHE: cache, HOME: dir }), os)!;
    assertEquals(found.packages.map((p) => [p.name, p.version, p.dir, p.origin ?? null]), [
      ["github.com/BurntSushi/toml", "v1.2.0", `${cache}/github.com/!burnt!sushi/toml@v1.2.0`, null],
      [
        "github.com/new/name",
        "v0.2.0",
        `${cache}/github.com/new/name@v0.2.0`,
        "as installed in this project, in place of github.com/old/name (go.mod's replace)",
      ],
    ]);
    // Not downloaded (and not packaged by Debian either): named. A folder replacement is the project's own code.
    assertEquals(found.missing, ["github.com/not/downloaded"]);
    assertEquals(found.lockfiles, [`${project}/go.sum`]);
    assertEquals(goDependencies(`${dir}/none`, envOf({}), os), undefined);
  });
});

Deno.test("dpkg's status database: the version of each installed package asked about", () => {
  const status = [
    "Package: golang-github-google-uuid-dev",
    "Status: install ok installed",
    "Version: 1.3.0-1",
    "",
    "Package: librust-itoa-dev",
    "Status: deinstall ok config-files",
    "Version: 1.0.1-2",
    "",
    "Package: other",
    "Status: install ok installed",
    "Version: 2",
  ].join("\n");
  assertEquals(
    [...installedVersions(status, new Set(["golang-github-google-uuid-dev", "librust-itoa-dev"]))],
    [["golang-github-google-uuid-dev", "1.3.0-1"]],
  );
});

Deno.test("Cargo.toml: every dependency table, target-specific ones, renames by package, workspace = true, git; path left out", () => {
  const names = manifestCrates(
    {
      package: { name: "app" },
      dependencies: {
        serde: "1",
        json: { package: "serde_json", version: "1" },
        local: { path: "../local" },
        forked: { git: "https://example.org/forked" },
        shared: { workspace: true },
        shared_local: { workspace: true },
      },
      "dev-dependencies": { semver: { version: "1", features: ["serde"] } },
      "build-dependencies": { cc: "1" },
      target: {
        "cfg(unix)": { dependencies: { libc: "0.2" } },
        "x86_64-pc-windows-msvc": { "dev-dependencies": { winapi: "0.3" } },
      },
    },
    { shared: { version: "1", package: "shared-real" }, shared_local: { path: "crates/shared" } },
  );
  assertEquals(names.sort(), [
    "cc",
    "forked",
    "libc",
    "semver",
    "serde",
    "serde_json",
    "shared-real",
    "winapi",
  ]);
});

Deno.test("Cargo.lock: the version each member depends on, told apart when several are locked; registry crates and git ones at a whole commit", () => {
  const registry = "registry+https://github.com/rust-lang/crates.io-index";
  const commit = "0123456789abcdef0123456789abcdef01234567";
  const lock = {
    package: [
      {
        name: "app",
        version: "0.1.0",
        dependencies: ["itoa 1.0.1", "semver", "forked", "helper", "pathy", "partial"],
      },
      { name: "helper", version: "0.1.0", dependencies: ["itoa 0.4.8"] },
      { name: "itoa", version: "0.4.8", source: registry },
      { name: "itoa", version: "1.0.1", source: registry },
      { name: "semver", version: "1.0.14", source: "sparse+https://index.crates.io/" },
      {
        name: "forked",
        version: "0.3.0",
        source: `git+https://example.org/o/forked.git?branch=main#${commit}`,
      },
      // No commit Cargo.lock pins: nothing to read it at.
      { name: "partial", version: "0.1.0", source: "git+https://example.org/o/partial#abc" },
      { name: "pathy", version: "0.1.0", source: "path+file:///somewhere" },
    ],
  };
  const wanted = new Set(["itoa", "semver", "forked", "pathy", "partial"]);
  const versions = lockedVersions(lock, new Set(["app"]), wanted);
  assertEquals([...versions].sort(), [
    ["forked", { version: "0.3.0", git: { url: "https://example.org/o/forked.git", commit } }],
    ["itoa", { version: "1.0.1" }],
    ["semver", { version: "1.0.14" }],
  ]);
  assertEquals([...lockedVersions(lock, new Set(["helper"]), new Set(["itoa"]))], [["itoa", {
    version: "0.4.8",
  }]]);
  // One version locked from two sources: the member's entry names the one it depends on.
  const both = {
    package: [
      { name: "app", version: "0.1.0", dependencies: [`forked 0.3.0 (${registry})`] },
      { name: "forked", version: "0.3.0", source: `git+https://example.org/o/forked#${commit}` },
      { name: "forked", version: "0.3.0", source: registry },
    ],
  };
  assertEquals([...lockedVersions(both, new Set(["app"]), new Set(["forked"]))], [["forked", {
    version: "0.3.0",
  }]]);
});

Deno.test("rustDependencies: a workspace's members' crates at Cargo.lock's versions, in CARGO_HOME's registry sources", async () => {
  await withDir(async (dir) => {
    const project = `${dir}/ws`;
    const home = `${dir}/cargo`;
    await write(
      `${project}/Cargo.toml`,
      '[workspace]\nmembers = ["crates/*"]\nexclude = ["crates/skipped"]\n[workspace.dependencies]\nitoa = "1"\n',
    );
    await write(
      `${project}/crates/core/Cargo.toml`,
      '[package]\nname = "core-lib"\n[dependencies]\nitoa = { workspace = true }\n',
    );
    await write(
      `${project}/crates/cli/Cargo.toml`,
      '[package]\nname = "cli"\n[dependencies]\ncore-lib = { path = "../core" }\nsemver = "1"\nabsent = "2"\n',
    );
    await write(
      `${project}/crates/skipped/Cargo.toml`,
      '[package]\nname = "skipped"\n[dependencies]\nrand = "1"\n',
    );
    const registry = "registry+https://github.com/rust-lang/crates.io-index";
    await write(
      `${project}/Cargo.lock`,
      [
        "version = 3",
        '[[package]]\nname = "cli"\nversion = "0.1.0"\ndependencies = ["core-lib", "semver"]',
        '[[package]]\nname = "core-lib"\nversion = "0.1.0"\ndependencies = ["itoa"]',
        `[[package]]\nname = "itoa"\nversion = "1.0.11"\nsource = "${registry}"`,
        `[[package]]\nname = "semver"\nversion = "1.0.23"\nsource = "${registry}"`,
      ].join("\n\n"),
    );
    const src = `${home}/registry/src/index.crates.io-6f17d22bba15001f`;
    await write(`${src}/itoa-1.0.11/Cargo.toml`, '[package]\nname = "itoa"\n');
    await write(`${src}/semver-1.0.23/Cargo.toml`, '[package]\nname = "semver"\n');
    const found = rustDependencies(project, envOf({ CARGO_HOME: home, HOME: dir }), os)!;
    assertEquals(found.packages.map((p) => [p.ecosystem, p.name, p.version, p.dir]), [
      ["crates", "itoa", "1.0.11", `${src}/itoa-1.0.11`],
      ["crates", "semver", "1.0.23", `${src}/semver-1.0.23`],
    ]);
    // Not in the lockfile: named; the excluded member's dependencies are not the workspace's.
    assertEquals(found.missing, ["absent"]);
    assertEquals(found.lockfiles, [`${project}/Cargo.lock`]);
    // A member's folder reads its own manifest, at the workspace's lockfile.
    const member = rustDependencies(`${project}/crates/core`, envOf({ CARGO_HOME: home }), os)!;
    assertEquals(member.packages.map((p) => p.name), ["itoa"]);
    assertEquals(cargoHome(envOf({ HOME: "/h" }), os), "/h/.cargo");
    await Deno.writeTextFile(`${project}/Cargo.toml`, "[workspace\n");
    throws(() => rustDependencies(project, envOf({}), os), /Cargo\.toml is not valid TOML \(line 1/);
  });
});

Deno.test("rustDependencies: a git crate in Cargo's checkout of the commit Cargo.lock pins, found in its repository's folders; its version names the commit", async () => {
  await withDir(async (dir) => {
    const project = `${dir}/app`;
    const home = `${dir}/cargo`;
    const commit = "89abcdef0123456789abcdef0123456789abcdef";
    await write(
      `${project}/Cargo.toml`,
      '[package]\nname = "app"\n[dependencies]\ntool = { git = "https://github.com/Org/Toolbox", branch = "main" }\n' +
        'gone = { git = "https://github.com/o/gone" }\n',
    );
    await write(
      `${project}/Cargo.lock`,
      [
        'version = 3\n[[package]]\nname = "app"\nversion = "0.1.0"\ndependencies = ["tool", "gone"]',
        `[[package]]\nname = "tool"\nversion = "0.3.0"\nsource = "git+https://github.com/Org/Toolbox?branch=main#${commit}"`,
        `[[package]]\nname = "gone"\nversion = "1.0.0"\nsource = "git+https://github.com/o/gone#${
          "f".repeat(40)
        }"`,
      ].join("\n\n"),
    );
    const checkouts = `${home}/git/checkouts`;
    // Cargo's checkout of the commit: a workspace, the crate in crates/tool, beside a member whose manifest is
    // not TOML (a checkout is anyone's: it is passed over).
    const clone = `${checkouts}/toolbox-0123456789abcdef/89abcde`;
    await write(`${clone}/Cargo.toml`, '[workspace]\nmembers = ["crates/*"]\n');
    await write(`${clone}/crates/broken/Cargo.toml`, "[package\n");
    await write(`${clone}/crates/tool/Cargo.toml`, '[package]\nname = "tool"\nversion = "0.3.0"\n');
    // Another commit of it, and another repository of the same name: not the one pinned.
    await write(`${checkouts}/toolbox-0123456789abcdef/1111111/Cargo.toml`, '[package]\nname = "tool"\n');
    await write(`${checkouts}/toolbox-fedcba9876543210/2222222/Cargo.toml`, '[package]\nname = "tool"\n');
    const found = rustDependencies(project, envOf({ CARGO_HOME: home }), os)!;
    assertEquals(found.packages.map((p) => [p.name, p.version, p.dir, p.origin]), [
      [
        "tool",
        "0.3.0+git.89abcde",
        `${clone}/crates/tool`,
        "as checked out from https://github.com/Org/Toolbox at 89abcde",
      ],
    ]);
    // Not checked out: what a cargo fetch gets.
    assertEquals(found.missing, ["gone"]);
    assertEquals(packageIndexName(found.packages[0]), "crates-tool-0.3.0_git.89abcde");
  });
});

Deno.test("packageIndexName and keywords for Go modules and Rust crates: valid names, a module's path and a crate's spellings", () => {
  const names = [
    packageIndexName({ ecosystem: "go", name: "github.com/google/uuid", version: "v1.3.0" }),
    packageIndexName({ ecosystem: "go", name: "github.com/google/uuid", version: "1.3.0-1" }),
    packageIndexName({ ecosystem: "crates", name: "serde_json", version: "1.0.120" }),
    packageIndexName({
      ecosystem: "go",
      name: "github.com/aws/aws-sdk-go-v2/service/s3",
      version: "v0.0.0-20231127180814-3a041ad873d4",
    }),
  ];
  assertEquals(names.slice(0, 3), [
    "go-github.com__google__uuid-v1.3.0",
    "go-github.com__google__uuid-1.3.0-1",
    "crates-serde_json-1.0.120",
  ]);
  for (const name of names) assertEquals(checkIndexName(name), name);
  // "a/b_c" and "a_b/c" stay two modules.
  ok(
    packageIndexName({ ecosystem: "go", name: "x.org/a/b_c", version: "v1.0.0" }) !==
      packageIndexName({ ecosystem: "go", name: "x.org/a_b/c", version: "v1.0.0" }),
  );
  assertEquals(packageKeywords("go", "github.com/google/uuid"), ["github.com/google/uuid", "google/uuid"]);
  assertEquals(packageKeywords("go", "gopkg.in/yaml.v3"), ["gopkg.in/yaml.v3", "gopkg.in/yaml"]);
  assertEquals(packageKeywords("go", "github.com/sirupsen/logrus"), [
    "github.com/sirupsen/logrus",
    "sirupsen/logrus",
    "logrus",
  ]);
  assertEquals(packageKeywords("rust", "serde_json"), ["serde_json", "serde-json"]);
  assertEquals(packageKeywords("rust", "regex"), ["regex crate", "cargo add regex"]);
  assertEquals(packageKeywords("rust", "log"), ["cargo add log"]);
  assertEquals(packageKeywords("rust", "chalk"), [
    "chalk rust",
    "rust chalk",
    "chalk crate",
    "cargo add chalk",
  ]);
});

Deno.test("indexGoModule: the README and importable packages; internal, testdata, commands, tests and nested modules left out", async () => {
  await withDir(async (dir) => {
    const root = `${dir}/mod@v1.0.0`;
    const doc = (name: string) => `// Package ${name} is the ${name} package.\npackage ${name}\n`;
    await write(`${root}/README.md`, "# mod\n\nThe module's readme.\n");
    await write(`${root}/mod.go`, `${doc("mod")}\n// Open opens.\nfunc Open() {}\n`);
    await write(`${root}/mod_test.go`, "package mod\n\n// TestOpen tests.\nfunc TestOpen() {}\n");
    await write(`${root}/sub/sub.go`, doc("sub"));
    await write(`${root}/internal/secret/secret.go`, doc("secret"));
    await write(`${root}/testdata/fixture.go`, doc("fixture"));
    await write(`${root}/cmd/tool/main.go`, "// Command tool.\npackage main\n");
    await write(`${root}/nested/go.mod`, "module example.com/mod/nested\n");
    await write(`${root}/nested/nested.go`, doc("nested"));
    await write(`${root}/_hidden/h.go`, doc("h"));
    const index = DocsIndex.open(`${dir}/go.db`);
    try {
      const { documents } = indexGoModule(
        { ecosystem: "go", name: "example.com/mod", version: "v1.0.0", dir: root },
        index,
        os,
      );
      assertEquals(documents, 3);
      assertEquals([...index.stamps().keys()].sort(), [
        `${root}/README.md`,
        `${root}/mod.go`,
        `${root}/sub/sub.go`,
      ]);
      assertEquals(index.page(`${root}/sub/sub.go`)?.title, "example.com/mod v1.0.0: example.com/mod/sub");
      match(index.page(`${root}/mod.go`)!.passages.map((p) => p.text).join("\n"), /Open opens\./);
    } finally {
      index.close();
    }
  });
});

Deno.test("indexCrate: the README and the module tree from lib.rs; a private module's items only when re-exported", async () => {
  await withDir(async (dir) => {
    const root = `${dir}/demo-1.0.0`;
    await write(`${root}/Cargo.toml`, '[package]\nname = "demo-crate"\nreadme = "docs/INTRO.md"\n');
    await write(`${root}/docs/INTRO.md`, "# demo\n\nThe intro.\n");
    await write(`${root}/README.md`, "# not the declared readme\n");
    await write(
      `${root}/src/lib.rs`,
      [
        "//! The demo crate.",
        "/// Public module.",
        "pub mod shapes;",
        "mod imp;",
        "mod glob;",
        "mod unused;",
        "mod inner;",
        "pub use imp::Reexported;",
        "pub use glob::*;",
      ].join("\n"),
    );
    await write(`${root}/src/shapes.rs`, "//! Shapes.\npub mod circle;\n/// A square.\npub struct Square;\n");
    await write(`${root}/src/shapes/circle.rs`, "/// A circle.\npub struct Circle;\n");
    await write(
      `${root}/src/imp.rs`,
      "/// Re-exported by name.\npub struct Reexported;\n/// Public in a private module, never re-exported.\npub struct Stranded;\n",
    );
    await write(`${root}/src/glob/mod.rs`, "/// Re-exported by the glob.\npub fn globbed() {}\n");
    await write(
      `${root}/src/unused.rs`,
      "//! Unreachable module docs.\n/// Unreachable.\npub fn unused() {}\n",
    );
    // A re-export inside a module out of reach is the crate's own business.
    await write(`${root}/src/inner/mod.rs`, "mod deep;\npub use self::deep::Internal;\n");
    await write(`${root}/src/inner/deep.rs`, "/// Internal only.\npub struct Internal;\n");
    await write(`${root}/tests/it.rs`, "/// A test helper.\npub fn helper() {}\n");
    const index = DocsIndex.open(`${dir}/crate.db`);
    try {
      indexCrate({ ecosystem: "crates", name: "demo-crate", version: "1.0.0", dir: root }, index, os);
      const text = (file: string) => index.page(`${root}/${file}`)?.passages.map((p) => p.text).join("\n");
      ok(text("docs/INTRO.md")?.includes("The intro."));
      assertEquals(text("README.md"), undefined);
      match(text("src/lib.rs")!, /The demo crate\./);
      match(text("src/shapes.rs")!, /Public module\.[\s\S]*Shapes\.[\s\S]*A square\./);
      match(text("src/shapes/circle.rs")!, /A circle\./);
      assertEquals(
        index.page(`${root}/src/shapes/circle.rs`)?.title,
        "demo-crate 1.0.0: demo_crate::shapes::circle",
      );
      match(text("src/imp.rs")!, /Re-exported by name\./);
      ok(!text("src/imp.rs")!.includes("Stranded"));
      match(text("src/glob/mod.rs")!, /Re-exported by the glob\./);
      assertEquals(text("src/unused.rs"), undefined);
      assertEquals(text("src/inner/deep.rs"), undefined);
      assertEquals(text("tests/it.rs"), undefined);
    } finally {
      index.close();
    }
  });
});

Deno.test("a Rust crate and an npm package of one name are two config entries, each named with its ecosystem", async () => {
  await using m = await machine();
  const prose = (what: string) => Array.from({ length: 1200 }, (_, i) => `${what}${i % 7}`).join(" ");
  await write(`${m.project}/package.json`, JSON.stringify({ dependencies: { semver: "^7" } }));
  await write(
    `${m.project}/node_modules/semver/package.json`,
    JSON.stringify({ name: "semver", version: "7.7.3" }),
  );
  await write(`${m.project}/node_modules/semver/README.md`, `# semver\n\n${prose("npm")}\n`);
  await write(`${m.project}/Cargo.toml`, '[package]\nname = "app"\n[dependencies]\nsemver = "1"\n');
  await write(
    `${m.project}/Cargo.lock`,
    '[[package]]\nname = "app"\nversion = "0.1.0"\ndependencies = ["semver"]\n\n[[package]]\nname = "semver"\n' +
      'version = "1.0.23"\nsource = "registry+https://github.com/rust-lang/crates.io-index"\n',
  );
  const crate = `${m.home}/cargo/registry/src/index.crates.io-6f17d22bba15001f/semver-1.0.23`;
  await write(`${crate}/Cargo.toml`, '[package]\nname = "semver"\nversion = "1.0.23"\n');
  await write(`${crate}/src/lib.rs`, `//! ${prose("rust")}\n`);
  await addProject(m.context({ CARGO_HOME: `${m.home}/cargo` }), undefined, {});
  const local = JSON.parse(await Deno.readTextFile(`${m.project}/.claude/docsearch.local.json`));
  assertEquals(
    local.databases.map((d: { name: string; tool_args: { index: string } }) => [d.name, d.tool_args.index]),
    [
      ["semver (npm)", "npm-semver-7.7.3"],
      ["semver (crates)", "crates-semver-1.0.23"],
    ],
  );
});
