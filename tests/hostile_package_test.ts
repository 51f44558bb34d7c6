/**
 * A dependency's folder is an input: a package, a crate checkout or a distribution may hold links out of it, a
 * FIFO, or a link to a file whose stat says 0 bytes and whose reading never ends (`/proc/self/pagemap`). Its
 * indexer reads regular files in its folder only, within the size limit, and finishes.
 */
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { readDocument } from "../lib/docs/sources.ts";
import { readBytesCapped } from "../lib/files.ts";
import { DocsIndex } from "../lib/docs/store.ts";
import { memberGlob } from "../lib/project/cargo.ts";
import { indexCrate } from "../lib/project/crate_docs.ts";
import { indexPackage, packageWriter } from "../lib/project/package_docs.ts";
import { indexDistribution } from "../lib/project/python_docs.ts";
import { withDir } from "./helpers.ts";

const os = "linux";
const SECRET = "ssh-private-key-material";

async function write(path: string, text: string): Promise<void> {
  await Deno.mkdir(path.slice(0, path.lastIndexOf("/")), { recursive: true });
  await Deno.writeTextFile(path, text);
}

/** A FIFO at `path`: opening it for reading blocks until a writer comes, which none will. */
async function fifo(path: string): Promise<void> {
  const made = await new Deno.Command("mkfifo", { args: [path] }).output();
  ok(made.success, new TextDecoder().decode(made.stderr));
}

/** Every passage's text in the index, to look for what must not be there. */
function allText(index: DocsIndex, sources: string[]): string {
  return sources.map((source) => index.page(source)?.passages.map((p) => p.text).join("\n") ?? "").join("\n");
}

Deno.test("an npm package's links out of its folder and to /proc are not read; its own docs are", async () => {
  await withDir(async (dir) => {
    await write(`${dir}/home/.ssh/id_rsa`, `${SECRET}\n`);
    const pkg = `${dir}/project/node_modules/evil`;
    await write(`${pkg}/package.json`, '{"name": "evil", "version": "1.0.0"}');
    await write(`${pkg}/README.md`, "# evil\n\nThe package's own readme.\n");
    await write(`${pkg}/docs/guide.md`, "# Guide\n\nThe package's own guide.\n");
    await Deno.symlink(`${dir}/home/.ssh/id_rsa`, `${pkg}/docs/key.md`);
    // A link out of docs/ that stays in the package is its own docs.
    await write(`${pkg}/api-docs/ref.md`, "# Reference\n\nThe package's own reference.\n");
    await Deno.symlink("../api-docs", `${pkg}/docs/api`);
    await Deno.symlink("/proc/self/pagemap", `${pkg}/docs/endless.md`);
    const index = DocsIndex.open(`${dir}/evil.db`);
    try {
      indexPackage({ ecosystem: "npm", name: "evil", version: "1.0.0", dir: pkg }, index, os);
      const text = allText(
        index,
        ["README.md", "docs/guide.md", "docs/key.md", "docs/api/ref.md"].map((f) => `${pkg}/${f}`),
      );
      ok(text.includes("The package's own reference."));
      ok(text.includes("The package's own readme."));
      ok(text.includes("The package's own guide."));
      ok(!text.includes(SECRET), "a link out of the package was indexed");
      assertEquals(index.counts().documents, 3);
    } finally {
      index.close();
    }
  });
});

Deno.test("a fetched page nested too deep for the HTML reader is one page less, not the package's docs lost", async () => {
  await withDir((dir) => {
    const index = DocsIndex.open(`${dir}/tag.db`);
    try {
      const writer = packageWriter(index);
      const bytes = (text: string) => new TextEncoder().encode(text);
      writer.fetched(
        "https://archive.test/deep.html",
        bytes("<div>".repeat(6000) + "deep"),
        "html",
        "deep.html",
      );
      writer.fetched(
        "https://archive.test/guide.md",
        bytes("# Guide\n\nThe guide.\n"),
        "markdown",
        "guide.md",
      );
      assertEquals(writer.done(), { documents: 1, words: 2 });
      assertEquals([...index.stamps().keys()], ["https://archive.test/guide.md"]);
    } finally {
      index.close();
    }
    return Promise.resolve();
  });
});

Deno.test("a crate whose README links out of it and whose module is a FIFO: indexed without them, and it ends", async () => {
  await withDir(async (dir) => {
    await write(`${dir}/home/.ssh/id_rsa`, `${SECRET}\n`);
    const root = `${dir}/checkout/demo`;
    await write(`${root}/Cargo.toml`, '[package]\nname = "demo"\n');
    await Deno.symlink(`${dir}/home/.ssh/id_rsa`, `${root}/README.md`);
    await write(
      `${root}/src/lib.rs`,
      "//! The demo crate.\npub mod stuck;\npub mod endless;\npub mod outside;\n",
    );
    await fifo(`${root}/src/stuck.rs`);
    await Deno.symlink("/proc/self/pagemap", `${root}/src/endless.rs`);
    await write(`${dir}/elsewhere.rs`, `//! ${SECRET}\n`);
    await Deno.symlink(`${dir}/elsewhere.rs`, `${root}/src/outside.rs`);
    const index = DocsIndex.open(`${dir}/crate.db`);
    try {
      indexCrate({ ecosystem: "crates", name: "demo", version: "1.0.0", dir: root }, index, os);
      const sources = ["README.md", "src/lib.rs", "src/outside.rs"].map((f) => `${root}/${f}`);
      ok(allText(index, sources).includes("The demo crate."));
      ok(!allText(index, sources).includes(SECRET), "a file out of the crate was indexed");
      assertEquals(index.page(`${root}/src/stuck.rs`), undefined);
      assertEquals(index.page(`${root}/src/endless.rs`), undefined);
    } finally {
      index.close();
    }
  });
});

Deno.test("a distribution whose RECORD names a FIFO and an endless file: the other modules are read, and it ends", async () => {
  await withDir(async (dir) => {
    const site = `${dir}/site-packages`;
    const metadata = `${site}/demo-1.0.dist-info`;
    await write(`${metadata}/METADATA`, "Metadata-Version: 2.1\nName: demo\nVersion: 1.0\n");
    await write(`${metadata}/RECORD`, "demo/__init__.py,,\ndemo/stuck.py,,\ndemo/endless.py,,\n");
    await write(`${site}/demo/__init__.py`, '"""The demo package."""\n');
    await fifo(`${site}/demo/stuck.py`);
    await Deno.symlink("/proc/self/pagemap", `${site}/demo/endless.py`);
    const index = DocsIndex.open(`${dir}/demo.db`);
    try {
      indexDistribution({ ecosystem: "pypi", name: "demo", version: "1.0", dir: metadata }, index, os);
      ok(allText(index, [`${site}/demo/__init__.py`]).includes("The demo package."));
      assertEquals(index.page(`${site}/demo/stuck.py`), undefined);
      assertEquals(index.page(`${site}/demo/endless.py`), undefined);
    } finally {
      index.close();
    }
  });
});

Deno.test("a documentation file whose stat says 0 bytes and whose reading never ends is read no further than the limit", () => {
  // The kernel refuses a read of /proc/self/pagemap that is not a multiple of 8 bytes, which the one byte past
  // the limit is not: unreadable, then, and the callers skip it. Before, it read on for gigabytes.
  let read: ReturnType<typeof readDocument> | "unreadable";
  try {
    read = readDocument("/proc/self/pagemap", 0);
  } catch {
    read = "unreadable";
  }
  ok(read === "unreadable" || "skipped" in read, "a file past the limit was read");
});

Deno.test("readBytesCapped: a file whole up to the cap and none past it, whatever size its stat gives", async () => {
  await withDir(async (dir) => {
    for (const size of [0, 1, 1000, 4096, 100_000]) {
      await Deno.writeFile(`${dir}/f`, new Uint8Array(size).fill(7));
      for (const cap of [0, 999, 1000, 4096, 200_000]) {
        assertEquals(
          readBytesCapped(`${dir}/f`, cap)?.length,
          size > cap ? undefined : size,
          `${size}/${cap}`,
        );
      }
    }
  });
  // /proc/self/status says 0 bytes and holds about a kilobyte and a half.
  const status = readBytesCapped("/proc/self/status", 100_000)!;
  ok(new TextDecoder().decode(status).startsWith("Name:"), `${status.length} bytes`);
  assertEquals(readBytesCapped("/proc/self/status", 10), undefined);
});

Deno.test("a Cargo member glob: classes, negation, and a class never closed or out of order taken as text", () => {
  const matches = (glob: string, names: string[]) => names.filter((name) => memberGlob(glob).test(name));
  assertEquals(matches("*", ["a", "b-c"]), ["a", "b-c"]);
  assertEquals(matches("crate-?", ["crate-a", "crate-ab", "crate-"]), ["crate-a"]);
  assertEquals(matches("[ab]*", ["alpha", "beta", "gamma"]), ["alpha", "beta"]);
  assertEquals(matches("[!a]*", ["alpha", "beta", "gamma"]), ["beta", "gamma"]);
  assertEquals(matches("v[0-9]", ["v1", "vx", "v10"]), ["v1"]);
  assertEquals(matches("[]x]", ["]", "x", "y"]), ["]", "x"]);
  assertEquals(matches("[ab", ["[ab", "a", "b"]), ["[ab"]);
  assertEquals(matches("[z-a]", ["[z-a]", "m"]), ["[z-a]"]);
  assertEquals(matches("a.b", ["a.b", "axb"]), ["a.b"]);
});
