/**
 * The docs that programs write: docs/commands.md is what lib/build/commands_doc.ts writes from the table of
 * commands; a measured table goes into its own section of a page, stamped with the date and the machine, and
 * nothing else on the page changes; docs/performance.md has a section for every measuring script.
 */
import { deepStrictEqual as assertEquals, match, ok, rejects, throws } from "node:assert/strict";
import { COMMANDS_PAGE, commandsPage } from "../lib/build/commands_doc.ts";
import {
  cpuModelIn,
  type Machine,
  MEASURED,
  PERFORMANCE_PAGE,
  stamp,
  withSection,
  writeMeasurement,
} from "../lib/build/doc_pages.ts";
import { COMMANDS } from "../lib/cli/commands.ts";
import { ROOT, withDir } from "./helpers.ts";

const read = (path: string) => Deno.readTextFileSync(`${ROOT}${path}`);

// ---- docs/commands.md --------------------------------------------------------------------------------------

Deno.test("docs/commands.md is what `deno task docs` writes: run it when this fails", async () => {
  assertEquals(read(COMMANDS_PAGE), await commandsPage(), `${COMMANDS_PAGE} is out of date: deno task docs`);
});

/** The page's part from the heading of `name` to the next heading of its level. */
function section(page: string, name: string): string {
  const start = page.indexOf(`\n## \`${name}\`\n`);
  ok(start >= 0, `no section for ${name}`);
  const end = page.indexOf("\n## ", start + 1);
  return page.slice(start, end < 0 ? undefined : end);
}

Deno.test("docs/commands.md: every command, each of its usage lines and options, in its own section", async () => {
  // Checked here on its own as well, so that a generator that drops something cannot pass by itself.
  const page = await commandsPage();
  for (const [name, spec] of Object.entries(COMMANDS)) {
    const own = section(page, name);
    ok(page.includes(`[\`${name}\`](#${name})`), `${name} is not in the list of commands`);
    for (const line of spec.usage.split("\n")) {
      ok(own.includes(line.trim()), `${name}: usage "${line.trim()}"`);
    }
    for (const option of Object.keys(spec.options)) ok(own.includes(`--${option}`), `${name}: --${option}`);
  }
  // What the hand-written command summary once left out.
  const index = section(page, "index");
  for (
    const form of [
      "docsearch-hook index add --project [folder]",
      "docsearch-hook index export <name> <file>",
      "docsearch-hook index import <file|URL> [--sha256 HEX] [--name NAME]",
    ]
  ) ok(index.includes(form), form);
});

// ---- measured tables ---------------------------------------------------------------------------------------

const PAGE = [
  "# Performance",
  "",
  "Prose before.",
  "",
  "<!-- bench:one -->",
  "",
  "| old | table |",
  "| --- | ----- |",
  "| 1   | 2     |",
  "",
  "<!-- /bench:one -->",
  "",
  "Prose between.",
  "",
  "<!-- bench:two -->",
  "",
  "untouched",
  "",
  "<!-- /bench:two -->",
  "",
].join("\n");

Deno.test("withSection replaces what stands between the section's markers and nothing else", () => {
  assertEquals(
    withSection(PAGE, "bench:one", "\nnew text\n"),
    PAGE.replace("| old | table |\n| --- | ----- |\n| 1   | 2     |", "new text"),
  );
  assertEquals(withSection(PAGE, "bench:two", "untouched"), PAGE);
});

Deno.test("withSection refuses a section that is missing, marked twice or marked backwards", () => {
  throws(() => withSection(PAGE, "bench:three", "x"), /no section bench:three/);
  throws(() => withSection(PAGE + "<!-- bench:one -->\n", "bench:one", "x"), /marked more than once/);
  throws(
    () => withSection("<!-- /bench:one -->\n\n<!-- bench:one -->\n", "bench:one", "x"),
    /comes before/,
  );
});

const MACHINE: Machine = {
  cpu: "AMD EPYC 7B13",
  cores: 2,
  os: "linux 6.8.0",
  target: "x86_64-unknown-linux-gnu",
  deno: "2.9.6",
};

Deno.test("stamp: the date, what measured it, and the machine", () => {
  assertEquals(
    stamp(new Date("2026-11-27T23:59:00Z"), "`deno task bench` (80 rounds)", MACHINE),
    "Measured 2026-11-27 by `deno task bench` (80 rounds), on AMD EPYC 7B13 (2 cores), " +
      "linux 6.8.0 (x86_64-unknown-linux-gnu), deno 2.9.6.",
  );
  match(stamp(new Date(0), "x", { ...MACHINE, cores: 1 }), /\(1 core\)/);
});

Deno.test("cpuModelIn: the CPU's name in /proc/cpuinfo, on x86 and on ARM", () => {
  const x86 = "processor\t: 0\nvendor_id\t: AuthenticAMD\nmodel\t\t: 1\nmodel name\t: AMD EPYC 7B13\n";
  assertEquals(cpuModelIn(x86), "AMD EPYC 7B13");
  assertEquals(
    cpuModelIn("processor\t: 0\nBogoMIPS\t: 108.00\nModel\t\t: Raspberry Pi 4 Model B\n"),
    "Raspberry Pi 4 Model B",
  );
  assertEquals(cpuModelIn("processor\t: 0\nHardware\t: BCM2835\n"), "BCM2835");
  assertEquals(cpuModelIn("processor\t: 0\nmodel name\t:\n"), undefined);
});

Deno.test("writeMeasurement: the table in its section, stamped and formatted; the rest of the page as it was", async () => {
  await withDir(async (dir) => {
    const page = `${dir}/performance.md`;
    await Deno.writeTextFile(page, PAGE);
    const logged: string[] = [];
    const options = {
      page,
      machine: MACHINE,
      at: new Date("2026-11-27T10:00:00Z"),
      log: logged.push.bind(logged),
    };
    const table = "| case | median ms |\n| --- | ---: |\n| WebSearch, matching (deny) | 31.1 |";
    await writeMeasurement({ id: "bench:one", body: table, how: "`deno task bench`" }, options);
    const written = await Deno.readTextFile(page);
    assertEquals(
      written,
      PAGE.replace(
        "| old | table |\n| --- | ----- |\n| 1   | 2     |",
        [
          "| case                       | median ms |",
          "| -------------------------- | --------: |",
          "| WebSearch, matching (deny) |      31.1 |",
          "",
          "Measured 2026-11-27 by `deno task bench`, on AMD EPYC 7B13 (2 cores), linux 6.8.0 (x86_64-unknown-linux-gnu),",
          "deno 2.9.6.",
        ].join("\n"),
      ),
    );
    assertEquals(logged, [`wrote bench:one into ${page}`]);
    // Measured again: the new numbers replace the old, one stamp.
    await writeMeasurement({ id: "bench:one", body: table.replace("31.1", "29.0"), how: "x" }, options);
    const again = await Deno.readTextFile(page);
    ok(again.includes("29.0") && !again.includes("31.1"));
    assertEquals(again.match(/Measured /g)?.length, 1);
    // A page without the section is left as it was.
    await rejects(writeMeasurement({ id: "bench:three", body: table, how: "x" }, options), /no section/);
    assertEquals(await Deno.readTextFile(page), again);
  });
});

Deno.test("docs/performance.md has a section for every measuring script", () => {
  // Checked here, not at the end of a benchmark that ran for minutes.
  const page = read(PERFORMANCE_PAGE);
  for (const id of Object.values(MEASURED)) withSection(page, id, "");
});

// ---- links and paths -----------------------------------------------------------------------------------------

/** The README and every page of docs/, from the checkout's root. */
const PAGES = ["README.md", ...[...Deno.readDirSync(`${ROOT}docs`)].map((entry) => `docs/${entry.name}`)]
  .filter((path) => path.endsWith(".md")).sort();

/** The text outside fenced code blocks, where links and references are prose. */
const prose = (page: string) => page.replace(/^```[^\n]*\n[\s\S]*?^```$/gm, "");

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
const slug = (heading: string) =>
  heading.toLowerCase().replace(/\[([^\]]*)\]\([^)]*\)/g, "$1").replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");

/** Every anchor a page has: its headings' and the ones it defines with `<a id="…">`. */
function anchors(page: string): Set<string> {
  const text = prose(page);
  return new Set([
    ...[...text.matchAll(/^#{1,6} (.+)$/gm)].map(([, heading]) => slug(heading)),
    ...[...text.matchAll(/<a id="([^"]+)"><\/a>/g)].map(([, id]) => id),
  ]);
}

Deno.test("slug: GitHub's anchors for headings with code, punctuation and links", () => {
  assertEquals(
    slug("Checking the setup: `docsearch-hook doctor`"),
    "checking-the-setup-docsearch-hook-doctor",
  );
  assertEquals(
    slug("Why our own rules, not a maintained rule set"),
    "why-our-own-rules-not-a-maintained-rule-set",
  );
  assertEquals(slug("Looking at it: `log`, `stats`, `prune`"), "looking-at-it-log-stats-prune");
});

Deno.test("the README's and the docs' links lead to pages and anchors that exist", () => {
  for (const path of PAGES) {
    const dir = path.includes("/") ? path.slice(0, path.lastIndexOf("/") + 1) : "";
    for (const [, target] of prose(read(path)).matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z]+:/.test(target)) continue;
      const [file, anchor] = target.split("#");
      const linked = file === "" ? path : new URL(file, `file:///${dir}`).pathname.slice(1);
      ok(PAGES.includes(linked) || exists(linked), `${path}: ${target}: no ${linked}`);
      if (anchor !== undefined) {
        ok(anchors(read(linked)).has(anchor), `${path}: ${target}: ${linked} has no anchor ${anchor}`);
      }
    }
  }
});

function exists(path: string): boolean {
  try {
    Deno.statSync(`${ROOT}${path}`);
    return true;
  } catch {
    return false;
  }
}

Deno.test("the files the README and the docs name in the tree exist", () => {
  // A path in backticks that starts at a folder of the tree; patterns and placeholders are not paths.
  const named =
    /`((?:lib|tests|fixtures|bin|hooks|commands|docs|\.ci|\.claude-plugin)\/[\w./-]*|main\.ts|install\.sh)`/g;
  const missing = PAGES.flatMap((path) =>
    [...prose(read(path)).matchAll(named)].map(([, file]) => file).filter((file) => !exists(file))
      .map((file) => `${path}: ${file}`)
  );
  assertEquals(missing, []);
});
