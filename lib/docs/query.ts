/**
 * What users type, as an FTS5 match expression. Every term is quoted, so FTS5's own syntax in a query
 * (`AND`, `NEAR(`, `*`, `"`, `-`, `:`) is searched for as text and can never be a syntax error.
 */

/** Words that carry no topic: a question's "how do I … the …" would otherwise outweigh what it is about. */
const STOPWORDS = new Set(
  ("a an and are as at be by can do does for from how i in is it of on or that the this to was what when where " +
    "which who why will with you your my me we").split(" "),
);

const words = (query: string) => query.toLowerCase().match(/[\p{L}\p{N}_]+/gu) ?? [];

/** The query's words, lower-cased, each once, in order; stopwords only when there is nothing else. */
export function terms(query: string): string[] {
  const all = [...new Set(words(query))];
  const topical = all.filter((word) => !STOPWORDS.has(word));
  return topical.length > 0 ? topical : all;
}

/** One term as an FTS5 string: a phrase of one word, whatever characters it holds. */
export const quoted = (term: string): string => `"${term.replaceAll('"', '""')}"`;

/**
 * The query's terms as FTS5 expressions, one per word. Two words side by side that the docs also write as one
 * ("sha 256" and `sha256`, "time zone" and `timezone`) each match that one word too, so a passage holding it
 * counts as holding both. `isWord` says whether the index holds a word; only such joins are made, so "on
 * line" stays two words in docs that never say "online". The joined word is an alternative, never a
 * replacement: replacing sent "find all" to `findall` and "shut down" to `shutdown`, API names of other
 * things, and lost the pages written in plain words.
 */
export function termExpressions(query: string, isWord: (word: string) => boolean): string[] {
  const kept = new Set(terms(query));
  const sequence = words(query);
  const out: string[] = [];
  const used = new Set<string>();
  for (let i = 0; i < sequence.length; i++) {
    const [word, next] = [sequence[i], sequence[i + 1]];
    if (!kept.has(word) || used.has(word)) continue;
    if (next !== undefined && kept.has(next) && !used.has(next) && next !== word && isWord(word + next)) {
      const joined = quoted(word + next);
      out.push(`${quoted(word)} OR ${joined}`, `${quoted(next)} OR ${joined}`);
      used.add(word).add(next);
      i++;
      continue;
    }
    out.push(quoted(word));
    used.add(word);
  }
  return out;
}

/** A passage that matches any of the expressions (`termExpressions`). */
export const anyOf = (expressions: readonly string[]): string =>
  expressions.map((expression) => `(${expression})`).join(" OR ");
