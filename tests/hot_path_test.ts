import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { freshBundle, type HotPathFs, type Manifest } from "../lib/build/hot_path.ts";

const ROOT = "/src/checkout";
const BUNDLE = "lib/.build/hook.js";

/** A file system of files by path (relative to ROOT): size and mtime; `reads` lists what was opened. */
function fakeFs(files: Record<string, { size: number; mtime: number; text?: string }>, dirs: string[]) {
  const reads: string[] = [];
  const relative = (path: string) => {
    if (!path.startsWith(`${ROOT}/`)) throw new Deno.errors.NotFound(path);
    return path.slice(ROOT.length + 1);
  };
  const fs: HotPathFs = {
    readDir: (path) =>
      dirs.filter((d) => d.startsWith(`${relative(path)}/`)).map((d) => ({
        name: d.slice(relative(path).length + 1),
      })),
    readText: (path) => {
      reads.push(relative(path));
      const text = files[relative(path)]?.text;
      if (text === undefined) throw new Deno.errors.NotFound(path);
      return text;
    },
    stat: (path) => {
      const file = files[relative(path)];
      if (file === undefined) throw new Deno.errors.NotFound(path);
      return { size: file.size, mtime: new Date(file.mtime) };
    },
  };
  return { fs, reads };
}

const manifest: Manifest = {
  bundle: ["lib/.build/hook.js", 70_000, 3000],
  sources: [["lib/commands/hook.ts", 8000, 1000], ["lib/match/match.ts", 1700, 2000]],
};

function built(
  overrides: Record<string, { size: number; mtime: number }> = {},
  text = JSON.stringify(manifest),
) {
  return fakeFs({
    "lib/.build/hook.json": { size: 1, mtime: 1, text },
    "lib/.build/hook.js": { size: 70_000, mtime: 3000 },
    "lib/commands/hook.ts": { size: 8000, mtime: 1000 },
    "lib/match/match.ts": { size: 1700, mtime: 2000 },
    ...overrides,
  }, ["lib/.build", "lib/commands", "lib/match"]);
}

Deno.test("hot path: the bundle runs while every source and the bundle itself are as it stamped them", () => {
  assertEquals(freshBundle(ROOT, built().fs), BUNDLE);
});

Deno.test("hot path: an edited source, a resized one, a gone one or an edited bundle falls back to the modules", () => {
  assertEquals(freshBundle(ROOT, built({ "lib/match/match.ts": { size: 1700, mtime: 2001 } }).fs), undefined);
  assertEquals(
    freshBundle(ROOT, built({ "lib/commands/hook.ts": { size: 8001, mtime: 1000 } }).fs),
    undefined,
  );
  assertEquals(
    freshBundle(ROOT, built({ "lib/.build/hook.js": { size: 69_000, mtime: 3000 } }).fs),
    undefined,
  );
  const { fs } = built();
  const gone: HotPathFs = {
    ...fs,
    stat: (path) => path.endsWith("match.ts") ? fs.stat(`${ROOT}/nope`) : fs.stat(path),
  };
  assertEquals(freshBundle(ROOT, gone), undefined);
});

Deno.test("hot path: a torn or foreign manifest falls back to the modules", () => {
  assertEquals(freshBundle(ROOT, built({}, '{"bundle": ["lib/.build/hook.js"').fs), undefined);
  assertEquals(freshBundle(ROOT, built({}, "{}").fs), undefined);
  assertEquals(freshBundle(ROOT, built({}, '{"bundle": 1, "sources": [2]}').fs), undefined);
});

Deno.test("hot path: without a bundle, nothing is opened (a failed open costs the hook's start-up)", () => {
  const { fs, reads } = fakeFs({ "lib/commands/hook.ts": { size: 1, mtime: 1 } }, ["lib/commands"]);
  assertEquals(freshBundle(ROOT, fs), undefined);
  assertEquals(reads, []);
});
