/**
 * What users type, as an FTS5 match expression. Every term is quoted, so FTS5's own syntax in a query
 * (`AND`, `NEAR(`, `*`, `"`, `-`, `:`) is searched for as text and can never be a syntax error.
 */

/** Words that carry no topic: a question's "how do I … the …" would otherwise outweigh what it is about. */
const STOPWORDS = new Set(
  ("a an and are as at be by can do does for from how i in is it of on or that the this to was what when where " +
    "which who why will with you your my me we").split(" "),
);

/** The query's words, lower-cased, each once, in order; stopwords only when there is nothing else. */
export function terms(query: string): string[] {
  const words = [...new Set(query.toLowerCase().match(/[\p{L}\p{N}_]+/gu) ?? [])];
  const topical = words.filter((word) => !STOPWORDS.has(word));
  return topical.length > 0 ? topical : words;
}

/** One term as an FTS5 string: a phrase of one word, whatever characters it holds. */
export const quoted = (term: string): string => `"${term.replaceAll('"', '""')}"`;

/** Every term (`all`: a passage must hold each of them) or any of them. */
export function matchExpression(words: readonly string[], mode: "all" | "any"): string {
  return words.map(quoted).join(mode === "all" ? " " : " OR ");
}
