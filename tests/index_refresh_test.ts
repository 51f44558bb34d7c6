/** `index refresh` in process, where a file it leaves open can be seen. */
import { deepStrictEqual as assertEquals, rejects } from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { run } from "../lib/docs/index_command.ts";
import { machine } from "./command_context.ts";

/** The files this process has open under `dir` (Linux shows them in /proc). */
const openUnder = (dir: string) =>
  [...Deno.readDirSync("/proc/self/fd")].map((entry) => {
    try {
      return Deno.readLinkSync(`/proc/self/fd/${entry.name}`);
    } catch {
      return ""; // The descriptor readDir itself used, closed by now.
    }
  }).filter((target) => target.startsWith(dir));

Deno.test({
  name: "index refresh closes the index when reading it fails",
  ignore: Deno.build.os !== "linux",
  fn: async () => {
    await using m = await machine();
    await Deno.mkdir(`${m.state}/indexes`, { recursive: true });
    // A SQLite file whose meta table is not an index's: it opens, and reading what it was built from fails.
    const odd = new DatabaseSync(`${m.state}/indexes/odd.db`);
    odd.exec("CREATE TABLE meta (key TEXT PRIMARY KEY)");
    odd.close();
    await rejects(run({ positionals: ["refresh", "odd"], values: {} }, m.context()), /no such column: value/);
    assertEquals(openUnder(m.state), []);
  },
});
