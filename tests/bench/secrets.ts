/**
 * The privacy filter: how it scores on the secret corpus (fixtures/secrets/), and what it costs on the
 * capture path: per redaction of a typical Bash output window, and on first use in a fresh process, where
 * the hook pays it on every event (regexes are made on first use, and only for rules whose hints appear).
 * The results also go into docs/performance.md, stamped with the date and the machine.
 *
 *   deno run -A tests/bench/secrets.ts [--spawns N] [--json]
 */
import { MEASURED, writeMeasurement } from "../../lib/build/doc_pages.ts";
import { parseArgv } from "../../lib/cli/args.ts";
import type { RedactRule } from "../../lib/config/types.ts";
import { ROOT } from "../helpers.ts";
import { scoreCorpus } from "../secrets_corpus.ts";

const { values } = parseArgv(Deno.args, {
  spawns: { type: "string", value: "N", description: "fresh processes per first-use measure (default 15)" },
  json: { type: "boolean", description: "print the results as JSON" },
  probe: { type: "string", value: "KIND", description: "(internal) time one first use in this process" },
});

/** No hint of any rule in it: the filter must get through it without making a regex. */
const ORDINARY =
  "added 142 packages, and audited 143 packages in 3s\n\n23 packages are looking for funding\n" +
  "  run `npm fund` for details\n\nfound 0 vulnerabilities\n";

/** What the capture path redacts for a Bash event: the first 300 characters of output and 512 beyond. */
const TYPICAL = [
  "NAME                      READY   STATUS    RESTARTS   AGE",
  "api-7d9f8c6b5-x2k4p       1/1     Running   0          3d",
  "$ kubectl exec api-7d9f8c6b5-x2k4p -- env",
  "PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin",
  "HOSTNAME=api-7d9f8c6b5-x2k4p",
  "DATABASE_URL=postgres://api:FAKEpassw0rd@db.internal:5432/api",
  "API_TOKEN=FAKEk8sTokenValue0123456789",
  "SESSION_SECRET=Zm9vYmFyRkFLRQ==",
  "LOG_LEVEL=info",
  'ANTHROPIC_BASE_URL="https://api.anthropic.com"',
  "GITHUB_TOKEN=ghp_FAKEexample0123456789abcdefghijkLMNOP",
  "KUBERNETES_SERVICE_HOST=10.96.0.1",
  "NODE_ENV=production",
].join("\n").padEnd(812, " #");

/** The most work per character: a long run of key names, which every rule start looks through. */
const WORST = "a-key-".repeat(Math.ceil(2512 / 6)).slice(0, 2512);

const USER_PATTERNS: RedactRule[] = [
  { pattern: String.raw`TICKET-\d+`, category: "ticket", ignoreCase: false },
  { pattern: String.raw`(?:\d{1,3}\.){3}\d{1,3}`, category: "ip", ignoreCase: false },
  { pattern: String.raw`\bcorp_(?:live|test)_[a-z0-9]{24}\b`, category: "corp_key", ignoreCase: true },
];

const PROBES: Record<string, { text: string; patterns: RedactRule[] }> = {
  ordinary: { text: ORDINARY, patterns: [] },
  typical: { text: TYPICAL, patterns: [] },
  "user patterns": { text: ORDINARY, patterns: USER_PATTERNS },
};

if (values.probe !== undefined) {
  const { text, patterns } = PROBES[values.probe];
  const start = performance.now();
  const { createRedactor } = await import("../../lib/capture/redact.ts");
  const imported = performance.now();
  const redactor = createRedactor(patterns, []);
  const created = performance.now();
  redactor.redact(text);
  const done = performance.now();
  console.log(
    JSON.stringify({ importMs: imported - start, createMs: created - imported, redactMs: done - created }),
  );
  Deno.exit(0);
}

const median = (samples: number[]) => samples.toSorted((a, b) => a - b)[Math.floor(samples.length / 2)];
const round = (ms: number) => Math.round(ms * 1000) / 1000;

const { createRedactor } = await import("../../lib/capture/redact.ts");
const score = scoreCorpus(createRedactor([], []).redact);
const missedFamilies = Object.entries(score.families).filter(([, tally]) => tally.caught < tally.total)
  .map(([family, tally]) => `${family} ${tally.caught}/${tally.total}`);

/** Milliseconds per redaction once warm. */
function warm(text: string): number {
  const { redact } = createRedactor([], []);
  for (let i = 0; i < 200; i++) redact(text);
  const runs = 2000;
  const start = performance.now();
  for (let i = 0; i < runs; i++) redact(text);
  return (performance.now() - start) / runs;
}

/** The probes in fresh processes, interleaved so that noise on the machine hits them all alike. */
async function firstUse(spawns: number) {
  const samples: Record<string, { importMs: number[]; createMs: number[]; redactMs: number[] }> = {};
  for (let i = 0; i < spawns; i++) {
    for (const kind of Object.keys(PROBES)) {
      const out = await new Deno.Command(Deno.execPath(), {
        args: [
          "run",
          "-A",
          "--quiet",
          `--config=${ROOT}deno.json`,
          import.meta.filename!,
          "--probe",
          kind,
        ],
        stdout: "piped",
      }).output();
      const probe = JSON.parse(new TextDecoder().decode(out.stdout));
      const into = samples[kind] ??= { importMs: [], createMs: [], redactMs: [] };
      for (const key of ["importMs", "createMs", "redactMs"] as const) into[key].push(probe[key]);
    }
  }
  return Object.fromEntries(
    Object.entries(samples).map(([kind, probe]) => [kind, {
      importMs: round(median(probe.importMs)),
      createMs: round(median(probe.createMs)),
      redactMs: round(median(probe.redactMs)),
    }]),
  );
}

const spawns = Number(values.spawns ?? 15);
const result = {
  corpus: {
    caught: score.caught,
    total: score.total,
    families: Object.keys(score.families).length,
    missedFamilies,
    falsePositives: score.falsePositives.length,
    ordinary: score.ordinary,
  },
  warmMsPerRedact: { typical: round(warm(TYPICAL)), worst: round(warm(WORST)) },
  firstUse: await firstUse(spawns),
};

/** The results in Markdown: printed, and written into docs/performance.md. */
const { corpus, warmMsPerRedact, firstUse: fresh } = result;
const report = [
  `- secret corpus: recall ${corpus.caught}/${corpus.total} (${corpus.families} families, ${
    corpus.missedFamilies.length === 0 ? "none missed" : `missed in ${corpus.missedFamilies.join(", ")}`
  }), false positives ${corpus.falsePositives}/${corpus.ordinary}`,
  `- capture path, warm: ${warmMsPerRedact.typical} ms per redact of a typical Bash output (${TYPICAL.length} chars), ` +
  `${warmMsPerRedact.worst} ms at worst (${WORST.length} chars of key names)`,
  `- first use in a fresh process (median of ${spawns}):`,
  ...Object.entries(fresh).map(([kind, probe]) =>
    `  - ${kind}: import ${probe.importMs} ms, createRedactor ${probe.createMs} ms, first redact ${probe.redactMs} ms`
  ),
].join("\n");
console.log(values.json ? JSON.stringify(result, null, 2) : report);
await writeMeasurement({
  id: MEASURED.secrets,
  body: report,
  how: `\`deno task bench\` (tests/bench/secrets.ts, ${spawns} fresh processes per first use)`,
});
