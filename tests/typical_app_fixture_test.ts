/**
 * The typical app that tests/bench/project.ts installs with `npm ci`: its package.json and its lockfile must
 * say the same thing, or `npm ci` refuses to install (and the bench skips the project) or installs versions the
 * package.json does not name. A quick check, with no network.
 */
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { readFixture } from "./helpers.ts";

interface Manifest {
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
}
interface Lockfile {
  lockfileVersion: number;
  packages: Record<string, Partial<Manifest> & { version?: string }>;
}

const manifest: Manifest = JSON.parse(readFixture("projects/typical-app/package.json"));
const lockfile: Lockfile = JSON.parse(readFixture("projects/typical-app/package-lock.json"));
const direct = { ...manifest.dependencies, ...manifest.devDependencies };

Deno.test("typical app: 26 direct dependencies at exact versions, the issue's named ones among them", () => {
  assertEquals(Object.keys(direct).length, 26);
  assertEquals(Object.keys(manifest.dependencies).length + Object.keys(manifest.devDependencies).length, 26);
  for (const [name, version] of Object.entries(direct)) {
    ok(/^\d+\.\d+\.\d+$/.test(version), `${name} ${version}`);
  }
  const named = [
    "react",
    "express",
    "zod",
    "axios",
    "lodash",
    "next",
    "prisma",
    "vite",
    "vitest",
    "jest",
    "tailwindcss",
  ];
  for (const name of named) ok(name in direct, `${name} is a direct dependency`);
});

Deno.test("typical app: the lockfile pins every direct dependency at package.json's version", () => {
  assertEquals(lockfile.lockfileVersion, 3);
  const root = lockfile.packages[""];
  assertEquals(root.dependencies, manifest.dependencies);
  assertEquals(root.devDependencies, manifest.devDependencies);
  for (const [name, version] of Object.entries(direct)) {
    assertEquals(lockfile.packages[`node_modules/${name}`]?.version, version, name);
  }
});
