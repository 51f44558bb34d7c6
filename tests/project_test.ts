/**
 * Docs for a project's dependencies: the API reference read from `.d.ts` doc comments, and the direct
 * dependencies found as a package manager installed them.
 */
import { deepStrictEqual as assertEquals, match, ok } from "node:assert/strict";
import { packageIndexName } from "../lib/project/index_names.ts";
import { withPackageEntries } from "../lib/docs/config_entry.ts";
import { declarationsMarkdown } from "../lib/project/dts.ts";
import { denoDependencies, denoDir, resolveImports } from "../lib/project/deno.ts";
import { npmDependencies } from "../lib/project/npm.ts";
import { installedDependencies } from "../lib/project/index_project.ts";
import { changedLockfile, indexedFrom, recordLockfiles } from "../lib/project/stamp.ts";
import { withDir } from "./helpers.ts";

Deno.test("declarationsMarkdown: each commented declaration as a section with its comment and first line", () => {
  const source = `/*! license header, not a doc comment */
/**
 * Parses the input.
 * @param input what to parse
 * @returns the value
 */
export declare function parse(input: string): Value;
/** A schema. */
export interface Schema<T> {
    /** Refines the schema with a check. */
    refine(check: (value: T) => boolean, message?: string): Schema<T>;
    /** Whether optional values pass. */
    readonly optional?: boolean;
}
/** Dangling comment at the end */
`;
  const markdown = declarationsMarkdown(source, "zod 4.1.12: index.d.ts");
  assertEquals(
    markdown,
    [
      "# zod 4.1.12: index.d.ts",
      "",
      "## parse",
      "",
      "Parses the input.\n@param input what to parse\n@returns the value",
      "",
      "```ts\nexport declare function parse(input: string): Value;\n```",
      "",
      "## Schema",
      "",
      "A schema.",
      "",
      "```ts\nexport interface Schema<T>\n```",
      "",
      "## refine",
      "",
      "Refines the schema with a check.",
      "",
      "```ts\nrefine(check: (value: T) => boolean, message?: string): Schema<T>;\n```",
      "",
      "## optional",
      "",
      "Whether optional values pass.",
      "",
      "```ts\nreadonly optional?: boolean;\n```",
      "",
    ].join("\n"),
  );
  assertEquals(declarationsMarkdown("export declare const x: number;\n", "t"), "");
});

Deno.test("packageIndexName: one valid index name per package@version, long ones shortened by a hash", () => {
  assertEquals(packageIndexName({ ecosystem: "npm", name: "zod", version: "4.1.12" }), "npm-zod-4.1.12");
  assertEquals(
    packageIndexName({ ecosystem: "npm", name: "@modelcontextprotocol/sdk", version: "1.32.2" }),
    "npm-_modelcontextprotocol__sdk-1.32.2",
  );
  // A scoped name and an unscoped one with the same letters are two packages.
  assertEquals(packageIndexName({ ecosystem: "npm", name: "a__b", version: "1.0.0" }), "npm-a__b-1.0.0");
  assertEquals(packageIndexName({ ecosystem: "npm", name: "@a/b", version: "1.0.0" }), "npm-_a__b-1.0.0");
  assertEquals(
    packageIndexName({ ecosystem: "pypi", name: "Typing_Extensions", version: "4.15.0" }),
    "pypi-typing-extensions-4.15.0",
  );
  assertEquals(
    packageIndexName({ ecosystem: "go", name: "github.com/x/y", version: "v2.0.0+incompatible" }),
    "go-github.com__x__y-v2.0.0_incompatible",
  );
  const long = packageIndexName({ ecosystem: "npm", name: `@scope/${"a".repeat(80)}`, version: "1.0.0" });
  ok(long.length <= 64 && /^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(long), long);
  ok(long !== packageIndexName({ ecosystem: "npm", name: `@scope/${"a".repeat(80)}`, version: "1.0.1" }));
});

Deno.test("packageIndexName: packages whose escaped names would meet get a hash of their id, and stay apart", () => {
  const name = (ecosystem: "npm" | "go", name: string, version: string) =>
    packageIndexName({ ecosystem, name, version });
  assertEquals(name("npm", "@a/b__c", "1.0.0"), "npm-_a__b__c-1.0.0-08d50da6");
  assertEquals(name("npm", "@a__b/c", "1.0.0"), "npm-_a__b__c-1.0.0-08f9259b");
  assertEquals(name("go", "github.com/a__b/c", "v1.0.0"), "go-github.com__a__b__c-v1.0.0-1697775e");
  assertEquals(name("go", "github.com/a/b__c", "v1.0.0"), "go-github.com__a__b__c-v1.0.0-1475de7c");
  assertEquals(name("npm", "x", "1.0.0+a"), "npm-x-1.0.0_a");
  assertEquals(name("npm", "x", "1.0.0_a"), "npm-x-1.0.0_a-1745e64d");
  assertEquals(name("npm", "x", "1.0.0+build!1"), "npm-x-1.0.0_build_1-1f4f28b8");
});

Deno.test("npmDependencies: direct dependencies resolved to node_modules (pnpm's links followed), the rest named", async () => {
  await withDir(async (dir) => {
    await Deno.writeTextFile(
      `${dir}/package.json`,
      JSON.stringify({
        dependencies: { zod: "^4", "@scope/pkg": "1" },
        devDependencies: { linked: "2", absent: "3", "../evil": "1" },
      }),
    );
    await Deno.writeTextFile(`${dir}/pnpm-lock.yaml`, "lockfileVersion: '9.0'\n");
    const write = async (folder: string, version: string) => {
      await Deno.mkdir(folder, { recursive: true });
      await Deno.writeTextFile(`${folder}/package.json`, JSON.stringify({ version }));
    };
    await write(`${dir}/node_modules/zod`, "4.1.12");
    await write(`${dir}/node_modules/@scope/pkg`, "1.2.3");
    await write(`${dir}/node_modules/.pnpm/linked@2.0.1/node_modules/linked`, "2.0.1");
    await Deno.symlink(
      `${dir}/node_modules/.pnpm/linked@2.0.1/node_modules/linked`,
      `${dir}/node_modules/linked`,
    );
    const found = npmDependencies(dir, "linux")!;
    assertEquals(found.packages.map((p) => `${p.name}@${p.version}`), [
      "@scope/pkg@1.2.3",
      "linked@2.0.1",
      "zod@4.1.12",
    ]);
    match(found.packages[1].dir, /\.pnpm\/linked@2\.0\.1\/node_modules\/linked$/);
    assertEquals(found.missing, ["absent"]);
    assertEquals(found.lockfiles, [`${dir}/pnpm-lock.yaml`]);
    assertEquals(npmDependencies(`${dir}/node_modules`, "linux"), undefined);
  });
});

Deno.test("withPackageEntries: the project's package entries replaced as a set, the user's own entries kept in place", () => {
  const entry = (name: string, index: string) => ({
    name,
    index,
    path: `/s/indexes/${index}.db`,
    keywords: [name],
    description: `${name}, as installed`,
  });
  const mine = { name: "gitlab", keywords: ["gitlab"], mcp_tool_name: "mcp__leann__leann_search" };
  const first = withPackageEntries({ databases: [mine] }, [entry("zod", "npm-zod-4.1.12")], ["npm-"]);
  assertEquals(first.change, "updated");
  const databases = (config: Record<string, unknown>) => config.databases as Record<string, unknown>[];
  assertEquals(databases(first.config)[1], {
    name: "zod",
    keywords: ["zod"],
    path: "/s/indexes/npm-zod-4.1.12.db",
    mcp_tool_name: "mcp__docsearch__search",
    tool_args: { index: "npm-zod-4.1.12", query: "{query}" },
    description: "zod, as installed",
  });
  assertEquals(
    withPackageEntries(first.config, [entry("zod", "npm-zod-4.1.12")], ["npm-"]).change,
    "unchanged",
  );
  // An upgrade replaces the entry; a dependency gone loses it; the user's entry stays first.
  const upgraded = withPackageEntries(first.config, [entry("zod", "npm-zod-4.2.0")], ["npm-"]);
  assertEquals(databases(upgraded.config).map((d) => [d.name, (d.tool_args as { index?: string })?.index]), [
    ["gitlab", undefined],
    ["zod", "npm-zod-4.2.0"],
  ]);
  assertEquals(databases(withPackageEntries(upgraded.config, [], ["npm-"]).config), [mine]);
  // What the user set in an entry stays, and so does its place.
  const edited = {
    databases: [{ ...databases(first.config)[1], enabled: false, keywords: ["zod schema"] }, mine],
  };
  const again = databases(withPackageEntries(edited, [entry("zod", "npm-zod-4.2.0")], ["npm-"]).config);
  assertEquals(again.map((d) => d.name), ["zod", "gitlab"]);
  assertEquals([again[0].enabled, again[0].keywords, again[0].tool_args], [false, ["zod schema"], {
    index: "npm-zod-4.2.0",
    query: "{query}",
  }]);
});

Deno.test("recordLockfiles and changedLockfile: nothing said until recorded, then only when a lockfile changes or goes", async () => {
  await withDir(async (dir) => {
    const lock = `${dir}/app/package-lock.json`;
    await Deno.mkdir(`${dir}/app`);
    await Deno.writeTextFile(lock, '{"lockfileVersion":3}');
    const state = `${dir}/state`;
    assertEquals(changedLockfile("linux", state, `${dir}/app`), undefined);
    recordLockfiles("linux", state, `${dir}/app`, [lock]);
    assertEquals(changedLockfile("linux", state, `${dir}/app`), undefined);
    assertEquals(changedLockfile("linux", state, `${dir}/other`), undefined);
    await Deno.writeTextFile(lock, '{"lockfileVersion":3,"packages":{}}');
    assertEquals(changedLockfile("linux", state, `${dir}/app`), lock);
    recordLockfiles("linux", state, `${dir}/app`, [lock]);
    assertEquals(changedLockfile("linux", state, `${dir}/app`), undefined);
    await Deno.remove(lock);
    assertEquals(changedLockfile("linux", state, `${dir}/app`), lock);
  });
});

Deno.test("a project with npm and Go keeps both lockfiles' stamps: a go.sum change is seen beside an unchanged package-lock.json", async () => {
  await withDir(async (dir) => {
    const npmLock = `${dir}/app/package-lock.json`;
    const goSum = `${dir}/app/go.sum`;
    await Deno.mkdir(`${dir}/app`);
    await Deno.writeTextFile(npmLock, '{"lockfileVersion":3}');
    await Deno.writeTextFile(goSum, "github.com/google/uuid v1.3.0 h1:x\n");
    const state = `${dir}/state`;
    ok(!indexedFrom("linux", state, `${dir}/app`, [npmLock, goSum]), "never indexed");
    recordLockfiles("linux", state, `${dir}/app`, [npmLock, goSum]);
    ok(indexedFrom("linux", state, `${dir}/app`, [npmLock, goSum]));
    // Not what the docs were built from: one lockfile of the two, or a third.
    ok(!indexedFrom("linux", state, `${dir}/app`, [npmLock]));
    ok(!indexedFrom("linux", state, `${dir}/app`, [npmLock, goSum, `${dir}/app/Cargo.lock`]));
    // Another size: a rewrite within the same millisecond keeps the modification time.
    await Deno.writeTextFile(goSum, "github.com/google/uuid v1.6.10 h1:y\n");
    assertEquals(changedLockfile("linux", state, `${dir}/app`), goSum);
    ok(!indexedFrom("linux", state, `${dir}/app`, [npmLock, goSum]));
    // A stamp written by the version that kept one lockfile a project is still read.
    const [file] = [...Deno.readDirSync(`${state}/projects`)];
    const info = Deno.statSync(npmLock);
    Deno.writeTextFileSync(
      `${state}/projects/${file.name}`,
      JSON.stringify({
        project: `${dir}/app`,
        lockfile: npmLock,
        size: info.size,
        mtime: info.mtime!.getTime(),
      }),
    );
    ok(indexedFrom("linux", state, `${dir}/app`, [npmLock]));
    assertEquals(changedLockfile("linux", state, `${dir}/app`), undefined);
  });
});

Deno.test("installedDependencies: a project with npm and Go names both lockfiles", async () => {
  await withDir(async (dir) => {
    await Deno.writeTextFile(`${dir}/package.json`, "{}");
    await Deno.writeTextFile(`${dir}/package-lock.json`, "{}");
    await Deno.writeTextFile(`${dir}/go.mod`, "module example.com/app\n\ngo 1.21\n");
    await Deno.writeTextFile(`${dir}/go.sum`, "");
    const { dependencies } = installedDependencies(dir, (name) => name === "HOME" ? dir : undefined, "linux");
    assertEquals(dependencies?.lockfiles, [`${dir}/package-lock.json`, `${dir}/go.sum`]);
  });
});

Deno.test("resolveImports: the lockfile's keys are gone through once, not once per import", () => {
  const lock: Record<string, unknown> = {
    "npm:a@1": "1.0.0",
    "npm:b@^2": "2.1.0",
    "npm:@s/c@3": "3.0.0_a@1.0.0",
  };
  for (let i = 0; i < 50; i++) lock[`npm:other${i}@1`] = "1.0.0";
  let passes = 0;
  const specifiers = new Proxy(lock, {
    ownKeys: (target) => {
      passes++;
      return Reflect.ownKeys(target);
    },
  });
  const found = resolveImports(
    ["npm:a@^1.0.0", "npm:b@^2", "npm:@s/c@^3.0.0", "npm:gone@1", "./local.ts"],
    specifiers,
    (name, resolved) =>
      typeof resolved === "string"
        ? { ecosystem: "npm", name, version: resolved.split("_")[0], dir: `/c/${name}` }
        : undefined,
  );
  assertEquals(found.packages.map((p) => `${p.name}@${p.version}`), ["@s/c@3.0.0", "a@1.0.0", "b@2.1.0"]);
  assertEquals(found.missing, ["gone"]);
  assertEquals(passes, 1);
});

Deno.test("denoDependencies: deno.json's npm: imports at the versions deno.lock resolved, found in Deno's npm cache", async () => {
  await withDir(async (dir) => {
    const cache = `${dir}/deno-dir`;
    const project = `${dir}/app`;
    await Deno.mkdir(project);
    await Deno.writeTextFile(
      `${project}/deno.json`,
      JSON.stringify({
        imports: {
          "@mcp/sdk": "npm:@modelcontextprotocol/sdk@^1.32.2",
          "parser": "npm:htmlparser2@^12.0.0",
          "zod": "npm:zod@^4.1.12",
          "gone": "npm:left-pad@1",
          "local": "./lib/mod.ts",
          "jsr": "jsr:@std/path@1",
        },
      }),
    );
    await Deno.writeTextFile(
      `${project}/deno.lock`,
      JSON.stringify({
        version: "5",
        specifiers: {
          "npm:@modelcontextprotocol/sdk@^1.32.2": "1.32.2_zod@4.6.7",
          // Deno writes some ranges shortened: the name's key is found all the same.
          "npm:htmlparser2@12": "12.0.0",
          "npm:zod@^4.1.12": "4.6.7",
          "npm:left-pad@1": "1.3.0",
        },
      }),
    );
    for (
      const [name, version] of [["@modelcontextprotocol/sdk", "1.32.2"], ["htmlparser2", "12.0.0"], [
        "zod",
        "4.6.7",
      ]]
    ) {
      const folder = `${cache}/npm/registry.npmjs.org/${name}/${version}`;
      await Deno.mkdir(folder, { recursive: true });
      await Deno.writeTextFile(`${folder}/package.json`, JSON.stringify({ name, version }));
    }
    const env = (name: string) => ({ DENO_DIR: cache, HOME: dir } as Record<string, string>)[name];
    const found = denoDependencies(project, env, "linux")!;
    assertEquals(found.packages.map((p) => `${p.name}@${p.version}`), [
      "@modelcontextprotocol/sdk@1.32.2",
      "htmlparser2@12.0.0",
      "zod@4.6.7",
    ]);
    assertEquals(found.packages[2].dir, `${cache}/npm/registry.npmjs.org/zod/4.6.7`);
    assertEquals(found.missing, ["left-pad"]);
    assertEquals(found.lockfiles, [`${project}/deno.lock`]);
    assertEquals(
      denoDir((name) => ({ HOME: "/h" } as Record<string, string>)[name], "linux"),
      "/h/.cache/deno",
    );
    assertEquals(
      denoDir((name) => ({ HOME: "/h" } as Record<string, string>)[name], "darwin"),
      "/h/Library/Caches/deno",
    );
  });
});
