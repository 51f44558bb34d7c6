/** What kind of shell command the agent ran: tests and builds get an outcome, installs are chatter. */
import { lazily } from "../lazy.ts";
import { readShell, simpleCommands, type Word } from "../shell/read.ts";

export type CommandKind = "own" | "test" | "build" | "install" | "other";

const anchored = (alternatives: readonly string[]) => new RegExp(`^(?:${alternatives.join("|")})`);

interface Kind {
  kind: Exclude<CommandKind, "other">;
  /**
   * Strings one of which any match of the pattern contains (as in redact.ts). Most command lines hold none,
   * and a regex not run is not compiled: its compilation is most of what classifying costs the hook.
   */
  hints: readonly string[];
  /**
   * Matched against one command of the line, its program first (see `commandsOf`): a word elsewhere, such as
   * `npm install` in a commit message or `docsearch-hook` in a directory name, says nothing about what ran.
   * Made when first needed, like the regex itself is compiled.
   */
  pattern: () => RegExp;
}

const KINDS: readonly Kind[] = [
  // The release binaries are named docsearch-hook-<target>[.exe].
  { kind: "own", hints: ["docsearch-hook"], pattern: () => /^docsearch-hook[\w.-]*(?:\s|$)/ },
  {
    kind: "test",
    hints: ["test", "check", "verify", "spec", "tox", "nox", "jest", "mocha", "phpunit"],
    pattern: lazily(() =>
      anchored([
        String.raw`(?:pytest|py\.test|tox|nox|jest|vitest|mocha|phpunit|rspec|ctest)(?:\s|$)`,
        String.raw`python[\d.]*\s+-m\s+(?:pytest|unittest)\b`,
        String.raw`(?:deno|bun|dotnet|mix|swift|go)\s+test\b`,
        String.raw`deno\s+task\s+(?:test|check)\b`,
        String.raw`(?:npm|pnpm|yarn|bun)\s+(?:run\s+)?test\b`,
        String.raw`cargo\s+(?:test|nextest)\b`,
        String.raw`make\s+(?:test|check)\b`,
        String.raw`(?:mvnw?|gradlew?)\s.*\b(?:test|verify|check)\b`,
        String.raw`rake\s+(?:test|spec)\b`,
      ])
    ),
  },
  {
    kind: "build",
    hints: ["build", "compile", "make", "tsc", "webpack", "rollup", "package", "assemble"],
    pattern: lazily(() =>
      anchored([
        String.raw`(?:cargo|go|dotnet|swift|zig)\s+build\b`,
        String.raw`(?:npm|pnpm|yarn|bun)\s+(?:run\s+)?build\b`,
        String.raw`deno\s+(?:compile|task\s+(?:build|compile))\b`,
        String.raw`(?:make|tsc|webpack|esbuild|rollup)(?:\s|$)`,
        String.raw`vite\s+build\b`,
        String.raw`cmake\s+--build\b`,
        String.raw`(?:mvnw?|gradlew?)\s.*\b(?:package|build|compile|assemble)\b`,
      ])
    ),
  },
  {
    kind: "install",
    hints: [
      "npm",
      "yarn",
      "bun",
      "install",
      "uv",
      "poetry",
      "apt",
      "brew",
      "dnf",
      "yum",
      "apk",
      "cargo",
      "go",
      "deno",
      "composer",
    ],
    pattern: lazily(() =>
      anchored([
        String.raw`(?:npm|pnpm|yarn|bun)\s+(?:install|i|add|ci)\b`,
        String.raw`(?:pip[\d.]*|python[\d.]*\s+-m\s+pip)\s+install\b`,
        String.raw`uv\s+(?:pip\s+install|add|sync)\b`,
        String.raw`poetry\s+(?:install|add)\b`,
        String.raw`(?:apt-get|apt|brew|dnf|yum|apk)(?:\s+-\S+)*\s+(?:install|update|upgrade|add)\b`,
        String.raw`cargo\s+(?:add|install|fetch)\b`,
        String.raw`go\s+(?:get|install|mod\s+(?:download|tidy))\b`,
        String.raw`deno\s+(?:add|install|cache)\b`,
        String.raw`(?:gem|bundle)\s+install\b`,
        String.raw`composer\s+(?:install|require)\b`,
      ])
    ),
  },
];

/** What runs another command: variable assignments, sudo, npx, `uv run` … */
const wrapper = lazily(() =>
  /^(?:\w+=\S*|(?:sudo|env|time|nice|nohup|exec|command|npx|bunx|pnpx|uvx)(?:\s+-\S+)*|timeout\s+\S+|(?:uv|poetry|pipenv|hatch|pdm)\s+run|(?:pnpm|yarn)\s+(?:exec|dlx)|bundle\s+exec)\s+/
);

/** How deep a command line given to `-c` inside one given to `-c` is followed. */
const MAX_NESTED_LINES = 4;

/**
 * A word as the patterns see it. No program, subcommand or goal holds a blank, nor is empty: such a word (a
 * commit message, a quoted sentence) stands as `''`, one word that matches nothing.
 */
const shown = ({ text }: Word) => text === "" || /\s/.test(text) ? "''" : text;

/**
 * The commands of a shell line, each starting with its program's base name (`./gradlew test` → `gradlew test`):
 * those of its pipelines, subshells, groups and substitutions, and of the command line given to `-c`
 * (`bash -c '…'`, `sudo sh -c …`). A here-document is text, not commands.
 */
export function commandsOf(line: string, nested = 0): string[] {
  const commands: string[] = [];
  for (const { words } of simpleCommands(readShell(line))) {
    words.forEach((word, i) => {
      if (word.text === "-c" && i + 1 < words.length && nested < MAX_NESTED_LINES) {
        commands.push(...commandsOf(words[i + 1].text, nested + 1));
      }
    });
    let command = words.map(shown).join(" ");
    for (let found = wrapper().exec(command); found; found = wrapper().exec(command)) {
      command = command.slice(found[0].length);
    }
    commands.push(command.replace(/^\S*\//, ""));
  }
  return commands;
}

/** A command's kind shows in its first lines; a 10 MB heredoc is not read to the end for it. */
const CLASSIFIED_CHARS = 8192;

export function commandKind(command: string): CommandKind {
  const head = command.slice(0, CLASSIFIED_CHARS);
  const candidates = KINDS.filter(({ hints }) => hints.some((hint) => head.includes(hint)));
  if (candidates.length === 0) return "other";
  const commands = commandsOf(head);
  return candidates.find(({ pattern }) => commands.some((one) => pattern().test(one)))?.kind ?? "other";
}

/**
 * Output lines that carry no information: progress, downloads, package-manager notices. A status word must
 * stand alone (`Downloading foo`, `Done.`): `download.py` or `Downloads` in a listing is real output.
 */
const chatterLine = lazily(() =>
  /^\s*(?:npm (?:warn|notice)\b|added \d+ packages?|removed \d+ packages?|changed \d+ packages?|up to date\b|audited \d+|found 0 vulnerabilities|\d+ packages? (?:are|is) looking for funding|run `npm fund`|(?:downloading|downloaded|download|fetching|resolving|resolved|installing|installed|collecting|compiling|building|checking|finished|progress|unpacking|preparing|setting up|selecting|reading|requirement already satisfied|successfully (?:installed|built|compiled)|webpack compiled|done|ok|success)(?=[\s:!,]|\.(?!\w)|$)|[\s#=>.\-|/\\*[\]]*\d{1,3}(?:\.\d+)?\s*%)/i
);

/**
 * Strings one of which every chatter line holds, in lower case: a line with none is real output. ("ok"
 * covers "looking for funding".)
 */
const CHATTER_HINTS = [
  "npm ",
  "added ",
  "removed ",
  "changed ",
  "up to date",
  "audited ",
  "found 0 vulnerabilities",
  "download",
  "fetching",
  "resolv",
  "install",
  "collecting",
  "compiling",
  "building",
  "checking",
  "finished",
  "progress",
  "unpacking",
  "preparing",
  "setting up",
  "selecting",
  "reading",
  "requirement already satisfied",
  "success",
  "webpack compiled",
  "done",
  "ok",
  "%",
];

const mayBeChatter = (line: string) => {
  const lower = line.toLowerCase();
  return CHATTER_HINTS.some((hint) => lower.includes(hint));
};

/** True when the output says nothing: empty, a bare OK/Done, or only progress and install chatter. */
export function isNoiseOutput(output: string): boolean {
  const lines = output.split("\n").filter((line) => line.trim() !== "");
  return lines.length === 0 || lines.every((line) => mayBeChatter(line) && chatterLine().test(line));
}
