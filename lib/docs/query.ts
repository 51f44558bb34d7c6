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

/** Every term (`all`: a chunk must hold each of them) or any of them; undefined when there is no word. */
export function matchExpression(query: string, mode: "all" | "any"): string | undefined {
  const words = terms(query);
  if (words.length === 0) return undefined;
  return words.map((word) => `"${word}"`).join(mode === "all" ? " " : " OR ");
}
