import { deepStrictEqual as assertEquals, throws } from "node:assert/strict";
import { describeOptions, hasFlag, parseArgv } from "../lib/cli/args.ts";
import { UsageError } from "../lib/errors.ts";
import { writeAllSync } from "../lib/cli/io.ts";
import { fileUrlPath, homeDir, isAbsolute, join, stateDir } from "../lib/paths.ts";
import { VERSION } from "../lib/version.ts";
import { ROOT } from "./helpers.ts";

const table = {
  url: { type: "string", value: "URL", description: "u" },
  domain: { type: "string", multiple: true, description: "d" },
  json: { type: "boolean", short: "j", description: "j" },
} as const;

Deno.test("argv: values, inline values, repeatable options, short flags, positionals and --", () => {
  assertEquals(
    parseArgv(
      ["a", "--url", "https://x", "--domain=a.io", "--domain", "b.io", "-j", "b", "--", "--json"],
      table,
    ),
    {
      values: { url: "https://x", domain: ["a.io", "b.io"], json: true },
      positionals: ["a", "b", "--json"],
    },
  );
  assertEquals(parseArgv(["-"], table).positionals, ["-"]);
});

Deno.test("argv: unknown options, missing values and values on flags are usage errors", () => {
  throws(
    () => parseArgv(["--nope"], table),
    (e) => e instanceof UsageError && /unknown option --nope/.test(e.message),
  );
  throws(() => parseArgv(["-x"], table), UsageError);
  throws(() => parseArgv(["--url"], table), /--url needs a value \(URL\)/);
  throws(() => parseArgv(["--json=yes"], table), /takes no value/);
  // Names every object has are no options.
  for (const name of ["constructor", "toString", "__proto__", "hasOwnProperty"]) {
    throws(
      () => parseArgv([`--${name}`, "x"], table),
      (e) => e instanceof UsageError && e.message === `unknown option --${name}`,
    );
  }
});

Deno.test("argv: a flag counts only before --", () => {
  assertEquals(hasFlag(["-h"], "--help", "-h"), true);
  assertEquals(hasFlag(["x", "--help", "--", "y"], "--help", "-h"), true);
  assertEquals(hasFlag(["--", "-h"], "--help", "-h"), false);
  assertEquals(hasFlag(["q", "--", "--slash"], "--slash"), false);
});

Deno.test("argv: option help is generated from the table", () => {
  assertEquals(describeOptions(table).split("\n"), [
    "      --url URL       u",
    "      --domain VALUE  d (repeatable)",
    "  -j, --json          j",
  ]);
});

Deno.test("paths: joins and absolute paths on POSIX and Windows", () => {
  assertEquals(join("linux", "/home/u/", "/.claude", "hooks"), "/home/u/.claude/hooks");
  assertEquals(join("linux", "/", "a"), "/a");
  assertEquals(join("linux", "a", "//b", "", "c/"), "a/b/c/");
  assertEquals(join("linux", "a", "\\b"), "a/\\b", "a backslash is a name's character on POSIX");
  assertEquals(join("windows", "C:\\", "/\\x", "y"), "C:\\x\\y");
  assertEquals(
    join("windows", "C:\\Users\\u\\", "AppData", "docsearch-hook"),
    "C:\\Users\\u\\AppData\\docsearch-hook",
  );
  assertEquals(isAbsolute("C:/x", "windows"), true);
  assertEquals(isAbsolute("\\\\server\\share", "windows"), true);
  assertEquals(isAbsolute("rel\\x", "windows"), false);
  assertEquals(isAbsolute("/x", "linux"), true);
  assertEquals(isAbsolute("x", "darwin"), false);
});

Deno.test("paths: the state directory follows DOCSEARCH_HOME, then the platform default", () => {
  const env = (vars: Record<string, string>) => (name: string) => vars[name];
  assertEquals(stateDir(env({ DOCSEARCH_HOME: "/d", HOME: "/h" }), "linux"), "/d");
  assertEquals(stateDir(env({ XDG_STATE_HOME: "/x", HOME: "/h" }), "linux"), "/x/docsearch-hook");
  assertEquals(
    stateDir(env({ XDG_STATE_HOME: "relative", HOME: "/h" }), "linux"),
    "/h/.local/state/docsearch-hook",
  );
  assertEquals(stateDir(env({ HOME: "/Users/u" }), "darwin"), "/Users/u/.local/state/docsearch-hook");
  assertEquals(
    stateDir(env({ LOCALAPPDATA: "C:\\Users\\u\\AppData\\Local", USERPROFILE: "C:\\Users\\u" }), "windows"),
    "C:\\Users\\u\\AppData\\Local\\docsearch-hook",
  );
  assertEquals(stateDir(env({}), "linux"), undefined);
  assertEquals(homeDir(env({ USERPROFILE: "C:\\Users\\u", HOME: "/h" }), "windows"), "C:\\Users\\u");
});

Deno.test("the version constant matches deno.json", () => {
  assertEquals(VERSION, JSON.parse(Deno.readTextFileSync(`${ROOT}deno.json`)).version);
});

Deno.test("paths: file URLs become paths with escapes decoded, Windows drives without a leading slash", () => {
  assertEquals(
    fileUrlPath(new URL("file:///home/me/my%20checkout/main.ts"), "linux"),
    "/home/me/my checkout/main.ts",
  );
  assertEquals(fileUrlPath(new URL("file:///opt/50%25/x.ts"), "darwin"), "/opt/50%/x.ts");
  assertEquals(
    fileUrlPath(new URL("file:///C:/Users/Me/docsearch%20hook/main.ts"), "windows"),
    "C:\\Users\\Me\\docsearch hook\\main.ts",
  );
});

Deno.test("writeAllSync continues partial writes and stops quietly when the reader has gone", () => {
  const written: number[] = [];
  // Two bytes at a time: a partial write is continued, not lost.
  writeAllSync(
    { writeSync: (bytes) => (written.push(...bytes.subarray(0, 2)), Math.min(2, bytes.length)) },
    "hello",
  );
  assertEquals(new TextDecoder().decode(new Uint8Array(written)), "hello");
  let calls = 0;
  writeAllSync({
    writeSync: () => {
      calls++;
      throw new Deno.errors.BrokenPipe("Broken pipe (os error 32)");
    },
  }, "lost");
  assertEquals(calls, 1);
  throws(() =>
    writeAllSync({
      writeSync: () => {
        throw new Deno.errors.PermissionDenied("no");
      },
    }, "x")
  );
});
