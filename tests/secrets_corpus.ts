/**
 * The secret corpus (fixtures/secrets/): secrets of the shapes public scanners detect, each in the contexts
 * they stand in, and ordinary text that must come out unchanged. Shared by the corpus test and the bench.
 */

interface Family {
  family: string;
  sources: string[];
  /** Which contexts of `contexts` every sample is put in: under a key name, bare, or none (texts only). */
  embed: "named" | "named+bare" | "none";
  identifier?: string;
  samples?: string[];
  /** Texts with their secrets marked «…». */
  texts?: string[];
}

interface Positives {
  contexts: { named: string[]; bare: string[] };
  families: Family[];
}

interface Negatives {
  excerpts: { kind: string; source?: string; text: string }[];
}

export interface SecretCase {
  family: string;
  text: string;
  secrets: string[];
}

const read = <T>(name: string): T =>
  JSON.parse(Deno.readTextFileSync(new URL(`../fixtures/secrets/${name}`, import.meta.url))) as T;

const MARKED = /«([^»]*)»/g;

/** Every sample in every context its family asks for, and every marked text. */
export function secretCases(): SecretCase[] {
  const { contexts, families } = read<Positives>("positives.json");
  const cases: SecretCase[] = [];
  for (const family of families) {
    const templates = family.embed === "none"
      ? []
      : family.embed === "named"
      ? contexts.named
      : [...contexts.named, ...contexts.bare];
    for (const secret of family.samples ?? []) {
      for (const template of templates) {
        const text = template.replaceAll("{i}", family.identifier ?? "").replaceAll("{s}", secret);
        cases.push({ family: family.family, text, secrets: [secret] });
      }
    }
    for (const marked of family.texts ?? []) {
      const secrets = [...marked.matchAll(MARKED)].map((match) => match[1]);
      cases.push({ family: family.family, text: marked.replace(MARKED, "$1"), secrets });
    }
  }
  return cases;
}

export function ordinaryExcerpts(): string[] {
  return read<Negatives>("negatives.json").excerpts.map((excerpt) => excerpt.text);
}

/**
 * How long a run of a secret's characters must be to count as a leak. Shorter runs turn up by chance in the
 * text around a secret and in the tags themselves (`secret`, `token`), so they would flag sound redactions;
 * a run of 6 is where a piece of a random token stops being a coincidence. Secrets shorter than that count
 * as leaked only whole.
 */
export const LEAK_RUN = 6;

/** A text with its own secrets taken out: what the output may hold for the text's sake. */
export function aroundSecrets(text: string, secrets: readonly string[]): string {
  let context = text;
  for (const secret of secrets) context = context.replaceAll(secret, "\0");
  return context;
}

/**
 * The runs of any secret that survive in `output`: every window of LEAK_RUN characters of a secret that is
 * there, once the redaction tags are taken out, unless the same window is also in `context`, the texts
 * around the secrets (aroundSecrets): then the output may hold it for that text's sake. Each text is taken
 * around its own secrets only, as one case's secret can be a word of another's (`password`).
 */
export function leakedRuns(output: string, context: string, secrets: readonly string[]): string[] {
  const kept = output.replace(/\[REDACTED:[a-z0-9_]+\]/g, "\0");
  const leaked = new Set<string>();
  for (const secret of secrets) {
    const size = Math.min(LEAK_RUN, secret.length);
    for (let i = 0; i + size <= secret.length; i++) {
      const run = secret.slice(i, i + size);
      if (kept.includes(run) && !context.includes(run)) leaked.add(run);
    }
  }
  return [...leaked];
}

export interface CorpusScore {
  /** Cases whose every secret left no run behind, per family and in all. */
  families: Record<string, { caught: number; total: number }>;
  caught: number;
  total: number;
  missed: { family: string; text: string; output: string; leaked: string[] }[];
  /** Ordinary excerpts the filter changed. */
  falsePositives: { text: string; output: string }[];
  ordinary: number;
}

export function scoreCorpus(redact: (text: string) => string): CorpusScore {
  const score: CorpusScore = {
    families: {},
    caught: 0,
    total: 0,
    missed: [],
    falsePositives: [],
    ordinary: 0,
  };
  for (const { family, text, secrets } of secretCases()) {
    const output = redact(text);
    const leaked = leakedRuns(output, aroundSecrets(text, secrets), secrets);
    const tally = score.families[family] ??= { caught: 0, total: 0 };
    tally.total++;
    score.total++;
    if (leaked.length === 0) {
      tally.caught++;
      score.caught++;
    } else score.missed.push({ family, text, output, leaked });
  }
  for (const text of ordinaryExcerpts()) {
    score.ordinary++;
    const output = redact(text);
    if (output !== text) score.falsePositives.push({ text, output });
  }
  return score;
}
