/**
 * The privacy filter against the secret corpus (fixtures/secrets/): every secret of the shapes gitleaks and
 * detect-secrets know, in the contexts it stands in, must leave no run of its characters behind, and the
 * ordinary excerpts must come out as they went in but for at most 2.
 */
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { createRedactor } from "../lib/capture/redact.ts";
import { scoreCorpus } from "./secrets_corpus.ts";

Deno.test("the corpus: no secret leaves a trace, and at most 2 of 98 ordinary excerpts change", () => {
  const score = scoreCorpus(createRedactor([], []).redact);
  ok(Object.keys(score.families).length >= 25, `${Object.keys(score.families).length} families`);
  const missed = score.missed.map(({ family, text, output, leaked }) =>
    `${family}: ${JSON.stringify(text)} -> ${JSON.stringify(output)} (left ${leaked.join(", ")})`
  );
  assertEquals(missed.slice(0, 10), [], `${missed.length} of ${score.total} cases leak`);
  assertEquals(score.ordinary, 98);
  ok(score.falsePositives.length <= 2, JSON.stringify(score.falsePositives, null, 2));
});
