/** Index export files (lib/docs/share.ts): what they hold, and every way a damaged or foreign one is refused. */
import { deepStrictEqual as assertEquals, match, ok, rejects } from "node:assert/strict";
import { ImportRefusedError, packIndex, sha256Hex, unpackIndex } from "../lib/docs/share.ts";
import { sweepStaged } from "../lib/docs/index_share.ts";
import { listDir, withDir } from "./helpers.ts";
import { LAYOUT } from "../lib/docs/store.ts";

const INDEX = new TextEncoder().encode("SQLite format 3\u0000 pretend pages ".repeat(100));
const ABOUT = { name: "pg", source: "/usr/share/doc/pg", documents: 3, chunks: 7, writtenBy: "0.1.0" };

const refusal = async (file: Uint8Array, pattern: RegExp) => {
  await rejects(unpackIndex(file), (error: unknown) => {
    ok(error instanceof ImportRefusedError, String(error));
    match((error as Error).message, pattern);
    return true;
  });
};

Deno.test("packIndex and unpackIndex: the index and its description come back as written", async () => {
  const file = await packIndex(ABOUT, INDEX);
  const { header, index } = await unpackIndex(file);
  assertEquals(index, INDEX);
  assertEquals(header, {
    format: 1,
    layout: LAYOUT,
    ...ABOUT,
    bytes: INDEX.length,
    sha256: await sha256Hex(INDEX),
  });
  // The first two lines say what the file is to anyone who opens it.
  const text = new TextDecoder().decode(file.subarray(0, 200));
  match(text, /^docsearch-hook index export\n\{"format":1,"layout":\d+,"name":"pg"/);
});

Deno.test("unpackIndex: a cut-short, lengthened or altered file, another file, or another layout is refused", async () => {
  const file = await packIndex(ABOUT, INDEX);
  await refusal(file.subarray(0, file.length - 10), /truncated: \d+ of \d+ index bytes/);
  await refusal(new Uint8Array([...file, 1, 2]), /2 bytes more than its description says/);
  const altered = file.slice();
  altered[altered.length - 5] ^= 0xff;
  await refusal(altered, /does not match its checksum/);
  await refusal(
    new TextEncoder().encode("SQLite format 3\u0000..."),
    /not an index exported by docsearch-hook/,
  );
  await refusal(new TextEncoder().encode("docsearch-hook index export\n{not json\n"), /not valid JSON/);
  await refusal(new TextEncoder().encode("docsearch-hook index export\n{}"), /missing or cut short/);
  await refusal(
    new TextEncoder().encode('docsearch-hook index export\n{"format":1}\n'),
    /has no valid layout, documents, chunks, bytes, name, sha256$/,
  );
  await refusal(
    new TextEncoder().encode(
      'docsearch-hook index export\n{"format":1,"layout":2,"name":"x","documents":1,"chunks":1,"bytes":0,"sha256":"","source":7}\n',
    ),
    /has no valid source$/,
  );
  const text = new TextDecoder().decode(file.subarray(0, 300));
  const other = text.replace(`"layout":${LAYOUT}`, `"layout":${LAYOUT + 1}`);
  const head = text.slice(0, text.indexOf("\n", 30) + 1);
  const relaid = new Uint8Array([
    ...new TextEncoder().encode(other.slice(0, other.indexOf("\n", 30) + 1)),
    ...file.subarray(new TextEncoder().encode(head).length),
  ]);
  await refusal(relaid, new RegExp(`layout ${LAYOUT + 1} .*searches layout ${LAYOUT}`));
});

Deno.test("sweepStaged: what killed imports left is removed after a day, a running import's staged file stays", async () => {
  await withDir(async (dir) => {
    const now = Date.now();
    const old = new Date(now - 25 * 60 * 60 * 1000);
    for (const name of ["docs.123.import", "docs.123.import-wal", "other.sqlite", "docs.456.import"]) {
      await Deno.writeTextFile(`${dir}/${name}`, "x");
    }
    for (const name of ["docs.123.import", "docs.123.import-wal", "other.sqlite"]) {
      await Deno.utime(`${dir}/${name}`, old, old);
    }
    sweepStaged(dir, now, Deno.build.os);
    assertEquals((await listDir(dir)).sort(), ["docs.456.import", "other.sqlite"]);
  });
});
