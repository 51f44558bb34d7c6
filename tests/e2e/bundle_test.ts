/**
 * The hook's bundled hot path (`deno task bundle`, lib/build/) against its modules, in a copy of the checkout:
 * the same events give the same answers and leave the same state, the bundle is run only while its sources
 * are unchanged, and what it imports by computed specifier (config validation) still loads from it. Other
 * commands never run it.
 */
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import {
  BUILD_DIR,
  BUNDLE_FILE,
  freshBundle,
  type Manifest,
  MANIFEST_FILE,
  stampOf,
  V8_FLAGS,
} from "../../lib/build/hot_path.ts";
import { openStateDb } from "../../lib/state/db.ts";
import { VERSION } from "../../lib/version.ts";
import { event, exists, readFixture, ROOT, runProgram, sandbox } from "../helpers.ts";

async function copyCheckout(to: string): Promise<void> {
  await Deno.mkdir(to, { recursive: true });
  for (const file of ["main.ts", "deno.json", "deno.lock", "config.example.json"]) {
    await Deno.copyFile(`${ROOT}${file}`, `${to}/${file}`);
  }
  const copyDir = async (dir: string) => {
    await Deno.mkdir(`${to}/${dir}`, { recursive: true });
    for await (const entry of Deno.readDir(`${ROOT}${dir}`)) {
      const path = `${dir}/${entry.name}`;
      if (`${path}/` === BUILD_DIR) continue;
      if (entry.isDirectory) await copyDir(path);
      else await Deno.copyFile(`${ROOT}${path}`, `${to}/${path}`);
    }
  };
  await copyDir("lib");
}

const EVENTS = [
  // The first event misses the config cache: validation is imported from the bundle by computed specifier.
  event("PreToolUse.WebSearch.json", { session_id: "s1" }),
  event("PreToolUse.WebSearch.json", { session_id: "s1" }),
  event("PreToolUse.WebFetch.json", { session_id: "s1" }),
  event("PreToolUse.WebSearch.nomatch.json", { session_id: "s1" }),
  event("PostToolUse.Write.json", { session_id: "s1" }),
  event("PostToolUseFailure.Bash.json", { session_id: "s1" }),
  event("SessionStart.json", { session_id: "s2" }),
  event("UserPromptSubmit.json", { session_id: "s2" }),
  event("PreToolUse.WebSearch.json", { session_id: "s2", cwd: "/nonexistent/project" }),
  "not json",
];

Deno.test("the bundled hook answers every event as its modules do, and only while its sources are unchanged", async () => {
  await using box = await sandbox();
  const checkout = `${box.home}/checkout`;
  await copyCheckout(checkout);
  await Deno.mkdir(`${box.home}/.claude/hooks`, { recursive: true });
  await Deno.writeTextFile(
    `${box.home}/.claude/hooks/docsearch-config.json`,
    readFixture("../config.example.json"),
  );
  // The checkout's hook as install registers it (see SELF in helpers.ts).
  const hook = [
    "run",
    "-A",
    "--quiet",
    V8_FLAGS,
    `--config=${checkout}/deno.json`,
    `${checkout}/main.ts`,
    "hook",
  ];
  assertEquals(freshBundle(checkout), undefined, "a checkout without a bundle runs the modules");

  const built = await runProgram(Deno.execPath(), ["run", "-A", "lib/build/bundle_hook.ts"], {
    env: box.env,
    cwd: checkout,
  });
  assertEquals(built.code, 0, built.stderr);
  assertEquals(freshBundle(checkout), "lib/.build/hook.js", "the bundle is fresh once built");

  const answers = async (state: string) => {
    const results = [];
    for (const stdin of EVENTS) {
      const result = await runProgram(
        Deno.execPath(),
        hook,
        { env: { ...box.env, DOCSEARCH_HOME: state }, stdin, cwd: checkout },
      );
      results.push(result);
    }
    // A command-line error is the bundle's too: the hook still fails open, in the same words.
    results.push(
      await runProgram(Deno.execPath(), [...hook, "--nope"], { env: box.env, stdin: "{}", cwd: checkout }),
    );
    // Every process closed the database: no WAL left for the next one to recover.
    assertEquals(await exists(`${state}/docsearch.db-wal`), false);
    using db = openStateDb(state);
    const rows = db.prepare("SELECT event, tool, outcome FROM observations ORDER BY id").all();
    return { results, rows };
  };
  const bundled = await answers(`${box.home}/state-bundled`);
  ok(bundled.results[0].stdout.includes('"permissionDecision":"deny"'), bundled.results[0].stdout);
  assertEquals(bundled.results[1].stdout, "", "the identical retry passes");

  // The bundle is what ran: one that answers differently, stamped as fresh, is what the hook answers with.
  const bundle = `${BUILD_DIR}${BUNDLE_FILE}`;
  const manifestFile = `${checkout}/${BUILD_DIR}${MANIFEST_FILE}`;
  const manifest = JSON.parse(await Deno.readTextFile(manifestFile)) as Manifest;
  const original = await Deno.readTextFile(`${checkout}/${bundle}`);
  await Deno.writeTextFile(
    `${checkout}/${bundle}`,
    'export const main = () => (console.log("from the bundle"), 0);',
  );
  await Deno.writeTextFile(manifestFile, JSON.stringify({ ...manifest, bundle: stampOf(checkout, bundle) }));
  const marked = await runProgram(
    Deno.execPath(),
    hook,
    { env: box.env, stdin: EVENTS[0], cwd: checkout },
  );
  assertEquals(marked.stdout, "from the bundle\n");
  const version = await runProgram(Deno.execPath(), [...hook.slice(0, -1), "--version"], { env: box.env });
  assertEquals(version.stdout, `docsearch-hook ${VERSION}\n`, "the other commands never run the bundle");

  // A fresh bundle that throws as it loads is outside the command line's error boundary: the modules answer.
  await Deno.writeTextFile(`${checkout}/${bundle}`, 'throw new Error("broken bundle");');
  await Deno.writeTextFile(manifestFile, JSON.stringify({ ...manifest, bundle: stampOf(checkout, bundle) }));
  ok(freshBundle(checkout));
  const broken = await runProgram(
    Deno.execPath(),
    hook,
    { env: { ...box.env, DOCSEARCH_HOME: `${box.home}/state-broken` }, stdin: EVENTS[0], cwd: checkout },
  );
  assertEquals([broken.code, broken.stderr], [0, ""]);
  assertEquals(broken.stdout, bundled.results[0].stdout);

  await Deno.writeTextFile(`${checkout}/${bundle}`, original);
  await Deno.writeTextFile(manifestFile, JSON.stringify({ ...manifest, bundle: stampOf(checkout, bundle) }));
  ok(freshBundle(checkout));

  // An edit (a new modification time is enough) sends the hook back to the modules.
  const edited = `${checkout}/lib/match/keywords.ts`;
  Deno.utimeSync(edited, new Date(), new Date(Date.now() + 5000));
  assertEquals(freshBundle(checkout), undefined);
  const modules = await answers(`${box.home}/state-modules`);
  assertEquals(bundled, modules);
});
