/** What kind of shell command the agent ran: tests and builds get an outcome, installs are chatter. */

export type CommandKind = "own" | "test" | "build" | "install" | "other";

const KINDS: readonly [Exclude<CommandKind, "other">, RegExp][] = [
  ["own", /(?:^|[\s/;&|(])docsearch-hook(?:\.exe)?\b/],
  [
    "test",
    new RegExp(
      [
        String.raw`\b(?:pytest|py\.test|tox|nox|jest|vitest|mocha|phpunit|rspec|ctest)\b`,
        String.raw`\b(?:python3?|uv\s+run|poetry\s+run)\s+-m\s+(?:pytest|unittest)\b`,
        String.raw`\b(?:deno|bun|dotnet|mix|swift)\s+test\b`,
        String.raw`\bdeno\s+task\s+(?:test|check)\b`,
        String.raw`\b(?:npm|pnpm|yarn|bun)\s+(?:run\s+)?test\b`,
        String.raw`\bcargo\s+(?:test|nextest)\b`,
        String.raw`\bgo\s+test\b`,
        String.raw`\bmake\s+(?:test|check)\b`,
        String.raw`\b(?:mvn|mvnw|gradle|gradlew)\b[^|;&]*\b(?:test|verify|check)\b`,
        String.raw`\brake\s+(?:test|spec)\b`,
      ].join("|"),
    ),
  ],
  [
    "build",
    new RegExp(
      [
        String.raw`\b(?:cargo|go|dotnet|swift|zig)\s+build\b`,
        String.raw`\b(?:npm|pnpm|yarn|bun)\s+(?:run\s+)?build\b`,
        String.raw`\bdeno\s+(?:compile|task\s+(?:build|compile))\b`,
        String.raw`(?:^|[\s;&|(])make\b`,
        String.raw`\b(?:tsc|webpack|esbuild|rollup)\b`,
        String.raw`\bvite\s+build\b`,
        String.raw`\bcmake\s+--build\b`,
        String.raw`\b(?:mvn|mvnw|gradle|gradlew)\b[^|;&]*\b(?:package|build|compile|assemble)\b`,
      ].join("|"),
    ),
  ],
  [
    "install",
    new RegExp(
      [
        String.raw`\b(?:npm|pnpm|yarn|bun)\s+(?:install|i|add|ci)\b`,
        String.raw`\bpip3?\s+install\b`,
        String.raw`\buv\s+(?:pip\s+install|add|sync)\b`,
        String.raw`\bpoetry\s+(?:install|add)\b`,
        String.raw`\b(?:apt-get|apt|brew|dnf|yum|apk)\s+(?:install|update|upgrade|add)\b`,
        String.raw`\bcargo\s+(?:add|install|fetch)\b`,
        String.raw`\bgo\s+(?:get|mod\s+(?:download|tidy))\b`,
        String.raw`\bdeno\s+(?:add|install|cache)\b`,
        String.raw`\b(?:gem|bundle)\s+install\b`,
        String.raw`\bcomposer\s+(?:install|require)\b`,
      ].join("|"),
    ),
  ],
];

export function commandKind(command: string): CommandKind {
  return KINDS.find(([, pattern]) => pattern.test(command))?.[0] ?? "other";
}

/** Output lines that carry no information: progress, downloads, package-manager notices. */
const CHATTER_LINE =
  /^\s*(?:npm (?:warn|notice)\b|added \d+ packages?|removed \d+ packages?|changed \d+ packages?|up to date\b|audited \d+|found 0 vulnerabilities|\d+ packages? (?:are|is) looking for funding|run `npm fund`|(?:downloading|downloaded|download|fetching|resolving|resolved|installing|installed|collecting|compiling|building|checking|finished|progress|unpacking|preparing|setting up|selecting|reading|requirement already satisfied|successfully (?:installed|built|compiled)|webpack compiled|done\b|ok\b|success\b)|[\s#=>.\-|/\\*]*\d{1,3}(?:\.\d+)?\s*%)/i;

/** True when the output says nothing: empty, a bare OK/Done, or only progress and install chatter. */
export function isNoiseOutput(output: string): boolean {
  const lines = output.split("\n").filter((line) => line.trim() !== "");
  return lines.length === 0 || lines.every((line) => CHATTER_LINE.test(line));
}
