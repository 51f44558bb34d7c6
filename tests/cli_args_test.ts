/**
 * The command line's words, through its dispatch in process: a word more than a command takes is refused
 * before the command runs (exit 2, nothing changed, the option it looks like suggested), a value-taking
 * option does not swallow the next option, and every command line the docs show still parses.
 */
import { deepStrictEqual as assertEquals, ok, rejects, throws } from "node:assert/strict";
import { parseArgv } from "../lib/cli/args.ts";
import { parseCommand } from "../lib/cli/command.ts";
import { COMMANDS, main as cli } from "../lib/cli/commands.ts";
import { main as hook } from "../lib/hook/main.ts";
import { shellWords } from "../lib/install/shell.ts";
import { UsageError } from "../lib/errors.ts";
import { machine, tree } from "./command_context.ts";
import { event, exists, ROOT } from "./helpers.ts";

/** What a refused command printed: its first line and its fix line. */
const refusal = (err: string[]) => err.join("\n").split("\n").slice(0, 2);

Deno.test("stray word: uninstall dry-run is refused and leaves the installed settings as they were", async () => {
  await using m = await machine();
  assertEquals(await cli(["install"], m.context()), 0);
  const settings = `${m.home}/.claude/settings.json`;
  const before = await Deno.readTextFile(settings);
  const files = await tree(m.home);

  const ctx = m.context();
  assertEquals(await cli(["uninstall", "dry-run"], ctx), 2);
  assertEquals(refusal(ctx.err), [
    'docsearch-hook uninstall: unexpected word "dry-run" (uninstall takes only options)',
    "  fix: did you mean --dry-run?",
  ]);
  assertEquals(ctx.out, []);
  assertEquals(await Deno.readTextFile(settings), before);
  assertEquals(await tree(m.home), files);
});

Deno.test("stray word: prune 365d is refused, with --older-than suggested, and deletes nothing", async () => {
  await using m = await machine();
  await Deno.mkdir(m.state);
  await Deno.writeTextFile(`${m.state}/kept.txt`, "x");
  const files = await tree(m.home);
  const ctx = m.context();
  assertEquals(await cli(["prune", "365d"], ctx), 2);
  assertEquals(refusal(ctx.err), [
    'docsearch-hook prune: unexpected word "365d" (prune takes only options)',
    "  fix: did you mean --older-than 365d?",
  ]);
  assertEquals(await tree(m.home), files);
});

Deno.test("stray word: install with extra words writes nothing", async () => {
  await using m = await machine();
  const files = await tree(m.home);
  const ctx = m.context();
  assertEquals(await cli(["install", "--scope=project", "extra", "words"], ctx), 2);
  assertEquals(refusal(ctx.err), [
    'docsearch-hook install: unexpected word "extra" (install takes only options)',
    "  fix: leave it out",
  ]);
  ok(ctx.err.join("\n").includes("\nUsage: docsearch-hook install [--scope"), ctx.err.join("\n"));
  assertEquals(await tree(m.home), files);
});

Deno.test("stray word: each command that takes no words, or fewer, refuses one more and names it", async () => {
  await using m = await machine();
  const cases: [string[], string, string][] = [
    [["doctor", "now"], 'doctor: unexpected word "now" (doctor takes only options)', "leave it out"],
    [
      ["doctor", "json"],
      'doctor: unexpected word "json" (doctor takes only options)',
      "did you mean --json?",
    ],
    [["mcp", "serve"], 'mcp: unexpected word "serve" (mcp takes no arguments)', "leave it out"],
    [["stats", "7d"], 'stats: unexpected word "7d" (stats takes only options)', "did you mean --since 7d?"],
    [
      ["stats", "since=2w"],
      'stats: unexpected word "since=2w" (stats takes only options)',
      "did you mean --since=2w?",
    ],
    [["log", "5"], 'log: unexpected word "5" (log takes only options)', "did you mean --limit 5?"],
    [["status", "all"], 'status: unexpected word "all" (status takes only options)', "leave it out"],
    [
      ["install", "scope", "project"],
      'install: unexpected word "scope" (install takes only options)',
      "did you mean --scope project?",
    ],
    [
      ["index", "list", "all"],
      'index: unexpected word "all" (index list takes only options)',
      "leave it out",
    ],
    [
      ["index", "remove", "pg", "crawl"],
      'index: unexpected word "crawl" (index remove takes <name> and options)',
      "did you mean --crawl?",
    ],
    [
      ["index", "export", "pg", "pg.dsi", "more"],
      'index: unexpected word "more" (index export takes <name> <file> and options)',
      "leave it out",
    ],
    [
      ["index", "add", "pg", "./docs", "replace"],
      'index: unexpected word "replace" (index add takes <name> <folder|file|URL> and options)',
      "did you mean --replace?",
    ],
  ];
  for (const [argv, message, fix] of cases) {
    const ctx = m.context();
    assertEquals(await cli(argv, ctx), 2, argv.join(" "));
    assertEquals(refusal(ctx.err), [`docsearch-hook ${message}`, `  fix: ${fix}`]);
  }
  // A word after `--` is a word too.
  assertEquals(await cli(["doctor", "--", "x"], m.context()), 2);
  // The slash commands' status reports on stdout and exits 0, as it does for every error.
  const slash = m.context();
  assertEquals(await cli(["status", "--slash", "x"], slash), 0);
  assertEquals(
    slash.out[0].split("\n")[0],
    'docsearch-hook status: unexpected word "x" (status takes only options)',
  );
  assertEquals(await tree(m.home), ["project/"]);
});

Deno.test("stray word: the hook still fails open, with one line, and prints no decision", async () => {
  await using m = await machine();
  const ctx = m.context({}, event("PreToolUse.WebSearch.json"));
  assertEquals(await hook(["hook", "stray"], ctx), 0);
  assertEquals(ctx.out, []);
  assertEquals(ctx.err, ['docsearch-hook hook: unexpected word "stray" (hook takes only options); allowing']);
});

Deno.test("an option's value: the next option is not taken for it, `=` gives any value, - stays a value", () => {
  const table = {
    settings: { type: "string", value: "PATH", description: "s" },
    "dry-run": { type: "boolean", description: "d" },
  } as const;
  throws(
    () => parseArgv(["--settings", "--dry-run"], table),
    (e) =>
      e instanceof UsageError &&
      e.message === "option --settings needs a value (PATH), but the next word is --dry-run" &&
      e.hint ===
        "give the value after it (--settings PATH), or with = if it starts with -- (--settings=--dry-run)",
  );
  throws(() => parseArgv(["--settings", "--"], table), /--settings needs a value \(PATH\)/);
  assertEquals(parseArgv(["--settings=--odd-name", "--dry-run"], table), {
    values: { settings: "--odd-name", "dry-run": true },
    positionals: [],
  });
  assertEquals(parseArgv(["--settings", "-"], table).values, { settings: "-" });
  assertEquals(parseArgv(["--settings", "-odd"], table).values, { settings: "-odd" });
});

Deno.test("an option's value: install --settings --dry-run writes no file named --dry-run", async () => {
  await using m = await machine();
  const ctx = m.context();
  assertEquals(await cli(["install", "--settings", "--dry-run"], ctx), 2);
  assertEquals(refusal(ctx.err), [
    "docsearch-hook install: option --settings needs a value (PATH), but the next word is --dry-run",
    "  fix: give the value after it (--settings PATH), or with = if it starts with -- (--settings=--dry-run)",
  ]);
  assertEquals(await tree(m.home), ["project/"]);
  // install reads a relative --settings from the process's directory, where the old parser wrote the file.
  assertEquals(await exists("--dry-run"), false);
});

Deno.test("the words commands take are still taken: queries, names, actions and their arguments", async () => {
  const parses = (line: string[], positionals: string[]) =>
    parseCommand(line[0], COMMANDS[line[0] as keyof typeof COMMANDS], line.slice(1)).then((args) =>
      assertEquals(args.positionals, positionals, line.join(" "))
    );
  await parses(["check", "how", "do", "I", "use", "kubernetes"], ["how", "do", "I", "use", "kubernetes"]);
  await parses(["check", "--url", "https://x.io/a", "what", "is", "it"], ["what", "is", "it"]);
  await parses(["search", "all", "create", "index", "--limit", "3"], ["all", "create", "index"]);
  await parses(["disable", "web", "fetch", "redirect"], ["web", "fetch", "redirect"]);
  await parses(["enable", "--", "--odd name"], ["--odd name"]);
  await parses(["index", "add", "pg", "/usr/share/doc/pg", "--keywords", "pg"], [
    "add",
    "pg",
    "/usr/share/doc/pg",
  ]);
  await parses(["index", "add", "--project", "../app"], ["add", "../app"]);
  await parses(["index", "refresh", "pg", "--crawl"], ["refresh", "pg"]);
  await parses(["index", "list"], ["list"]);
  await parses(["index", "remove", "pg"], ["remove", "pg"]);
  await parses(["index", "export", "pg", "-"], ["export", "pg", "-"]);
  await parses(["index", "import", "pg.dsi", "--name", "pg2"], ["import", "pg.dsi"]);
  // An action the table does not know is the command's to refuse, with its own list of actions.
  await parses(["index", "rebuild", "pg", "x", "y"], ["rebuild", "pg", "x", "y"]);
  await parses(["hook", "--config", "c.json"], []);
  await rejects(parses(["install", "x"], []), UsageError);
});

/**
 * Every concrete command line in README.md and docs/*.md: a line of a code block that starts with the
 * program, or an inline code span that does; placeholders (`<name>`, `[--json]`, `…`) are usage, not an
 * example.
 */
function documentedCommandLines(): { file: string; words: string[] }[] {
  const files = ["README.md", ...[...Deno.readDirSync(`${ROOT}docs`)].map((e) => `docs/${e.name}`)]
    .filter((file) => file.endsWith(".md"));
  const found: { file: string; words: string[] }[] = [];
  const program = /^(?:\$ |!`)?(?:\S*\/)?docsearch-hook ([a-z].*)$/;
  for (const file of files) {
    let fenced = false;
    const candidates: string[] = [];
    for (const line of Deno.readTextFileSync(`${ROOT}${file}`).split("\n")) {
      if (/^\s*```/.test(line)) {
        fenced = !fenced;
        continue;
      }
      if (fenced) candidates.push(line.trim());
      else candidates.push(...[...line.matchAll(/`([^`]+)`/g)].map((span) => span[1]));
    }
    for (const candidate of candidates) {
      const rest = program.exec(candidate)?.[1];
      if (rest === undefined) continue;
      // A comment, a redirection, a list, or the end of an inline `!` command ends the command line.
      const command = rest.replace(/\s+#.*$/, "").replace(/\s*(?:[<;|]\s.*|`)$/, "");
      const words = [...shellWords(command)];
      if (!Object.hasOwn(COMMANDS, words[0])) continue;
      if (words.some((word) => /^[<[]|[>\]]$|^…$|\|/.test(word))) continue;
      found.push({ file, words });
    }
  }
  return found;
}

Deno.test("every command line in README.md and docs/*.md parses as its command takes it", async () => {
  const lines = documentedCommandLines();
  const shown = lines.map(({ words }) => words.join(" "));
  // The finder finds them: a few that the docs show, written down here.
  for (
    const expected of [
      "uninstall --mcp",
      "install --agent gemini --dry-run",
      "disable context",
      "log --limit 4",
      "index export postgres postgres-15.dsi",
      "search postgres create index concurrently",
      "check --config config.example.json how do I use c# with kubernetes",
      "disable --slash --session ${CLAUDE_SESSION_ID} -- $ARGUMENTS",
      "hook",
    ]
  ) ok(shown.includes(expected), `not found in the docs: ${expected}\n${shown.join("\n")}`);
  for (const { file, words } of lines) {
    const [name, ...argv] = words;
    try {
      await parseCommand(name, COMMANDS[name as keyof typeof COMMANDS], argv);
    } catch (error) {
      throw new Error(`${file}: docsearch-hook ${words.join(" ")}: ${error}`);
    }
  }
});
