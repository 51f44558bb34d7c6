/**
 * Whether a user's redaction pattern can backtrack catastrophically: V8's regex engine backtracks, so a
 * pattern such as `(a+)+$` takes minutes on a text of a few thousand `a`s, and the hook would spin on every
 * tool call. A linear-time engine for user patterns cost 11–13 ms of start-up (re2js, measured), so the
 * config's validation reads each pattern instead and refuses those whose characters can be matched more than
 * a bounded number of ways.
 */
import type { RedactRule } from "../config/types.ts";
import { lazily } from "../lazy.ts";

/** A set of characters: the ASCII ones as bits, and whether it may hold any other. */
interface CharSet {
  ascii: bigint;
  other: boolean;
}

const NO_CHARS: CharSet = { ascii: 0n, other: false };
const union = (a: CharSet, b: CharSet): CharSet => ({ ascii: a.ascii | b.ascii, other: a.other || b.other });
const overlap = (a: CharSet, b: CharSet) => (a.ascii & b.ascii) !== 0n || (a.other && b.other);

/** Characters beyond ASCII that classes such as `.`, `\s`, `\W` and `[^…]` match. */
const OTHER_PROBES = ["\u00e9", "\u00a0", "\u2028", "\u4e00", "\ud83d"];

/**
 * The characters a class or escape (`[a-z]`, `\t`) matches, found by trying each. Kept per process: the same
 * classes recur, and a new regex costs its compilation when first tried.
 */
const classSets = new Map<string, CharSet>();
function classSet(atom: string, caseless: boolean): CharSet {
  const key = `${caseless}${atom}`;
  const known = classSets.get(key);
  if (known !== undefined) return known;
  const regex = new RegExp(`^(?:${atom})$`, caseless ? "i" : "");
  let ascii = 0n;
  for (let code = 0; code < 128; code++) {
    if (regex.test(String.fromCharCode(code))) ascii |= 1n << BigInt(code);
  }
  const other = /[\u0080-\uffff]|\\[ux]/.test(atom) || OTHER_PROBES.some((probe) => regex.test(probe));
  classSets.set(key, { ascii, other });
  return { ascii, other };
}

/** ASCII codes from..to as bits. */
const codes = (from: number, to: number) => ((1n << BigInt(to - from + 1)) - 1n) << BigInt(from);

/** The classes patterns use most, which need no trying: `.`, `\d`, `\w`, `\s` and their complements. */
const SHORTHANDS = lazily(() => {
  const all = codes(0, 127);
  const digits = codes(48, 57);
  const word = digits | codes(65, 90) | codes(97, 122) | codes(95, 95);
  const space = codes(9, 13) | codes(32, 32);
  return new Map<string, CharSet>([
    [".", { ascii: all & ~(codes(10, 10) | codes(13, 13)), other: true }],
    ["\\d", { ascii: digits, other: false }],
    ["\\D", { ascii: all & ~digits, other: true }],
    ["\\w", { ascii: word, other: false }],
    ["\\W", { ascii: all & ~word, other: true }],
    ["\\s", { ascii: space, other: true }],
    ["\\S", { ascii: all & ~space, other: true }],
  ]);
});

function literalSet(char: string, caseless: boolean): CharSet {
  if (char.charCodeAt(0) >= 128) return { ascii: 0n, other: true };
  const variants = caseless ? [char, char.toLowerCase(), char.toUpperCase()] : [char];
  return {
    ascii: variants.reduce((bits, variant) => bits | 1n << BigInt(variant.charCodeAt(0)), 0n),
    other: false,
  };
}

/** One character, a group, an assertion (`^`, `\b`, a lookaround) or a backreference, repeated min to max times. */
interface Term {
  node:
    | { kind: "chars"; set: CharSet }
    | { kind: "group"; alternatives: Term[][] }
    | { kind: "assertion"; alternatives: Term[][] }
    | { kind: "backreference"; group: number; set: CharSet };
  min: number;
  max: number;
  /** Where the term stands in the pattern, to name it in a problem. */
  from: number;
  to: number;
}

/** Reads a pattern (one that compiles, without the `u` flag) into terms. */
class PatternReader {
  private at = 0;
  /** The alternatives of each capturing group, by number (from 0), and their names. */
  private readonly captures: Term[][][] = [];
  private readonly names: string[] = [];
  private readonly references: { kind: "backreference"; group: number; set: CharSet }[] = [];
  private readonly groupCount: number;
  private readonly escapes: RegExp;

  constructor(private readonly pattern: string) {
    this.groupCount = [...pattern.matchAll(/\\[\s\S]|\[(?:\\[\s\S]|[^\]\\])*\]|\((?!\?)|\(\?<(?![=!])/g)]
      .filter((found) => found[0].startsWith("(")).length;
    // `\k<name>` is a backreference only in a pattern with named groups; elsewhere it is `k<name>`.
    const named = /\(\?<[^=!]/.test(pattern) ? "k<[^>]+>|" : "";
    this.escapes = new RegExp(
      String.raw`^\\(?:[bB]|[1-9]\d*|${named}c[A-Za-z]|x[0-9A-Fa-f]{2}|u[0-9A-Fa-f]{4}|0[0-7]{0,2}|[\s\S])`,
    );
  }

  read(ignoreCase: boolean): Term[][] {
    const top = this.sequences(ignoreCase);
    // A backreference matches what its group did, so any character the group can take.
    for (const reference of this.references) {
      reference.set = (this.captures[reference.group] ?? []).flat().map(setOf).reduce(union, NO_CHARS);
    }
    return top;
  }

  private sequences(caseless: boolean): Term[][] {
    const list: Term[][] = [[]];
    while (this.at < this.pattern.length && this.pattern[this.at] !== ")") {
      if (this.pattern[this.at] === "|") {
        this.at++;
        list.push([]);
      } else list.at(-1)!.push(this.term(caseless));
    }
    return list;
  }

  private term(caseless: boolean): Term {
    const from = this.at;
    const node = this.atom(caseless);
    const quantifier = /^(?:([*+?])|\{(\d+)(?:(,)(\d*))?\})\??/.exec(this.pattern.slice(this.at));
    if (quantifier === null) return { node, min: 1, max: 1, from, to: this.at };
    this.at += quantifier[0].length;
    const [, symbol, low, comma, high] = quantifier;
    const [min, max] = symbol === "*"
      ? [0, Infinity]
      : symbol === "+"
      ? [1, Infinity]
      : symbol === "?"
      ? [0, 1]
      : [Number(low), comma === undefined ? Number(low) : high === "" ? Infinity : Number(high)];
    return { node, min, max, from, to: this.at };
  }

  private atom(caseless: boolean): Term["node"] {
    const char = this.pattern[this.at];
    if (char === "(") return this.group(caseless);
    if (char === "\\") return this.escape(caseless);
    if (char === "[") {
      const end = /^\[\^?(?:\\[\s\S]|[^\]\\])*\]/.exec(this.pattern.slice(this.at))![0];
      this.at += end.length;
      return { kind: "chars", set: classSet(end, caseless) };
    }
    this.at++;
    if (char === "^" || char === "$") return { kind: "assertion", alternatives: [] };
    return { kind: "chars", set: char === "." ? SHORTHANDS().get(".")! : literalSet(char, caseless) };
  }

  private group(caseless: boolean): Term["node"] {
    const head = /^\((?:\?(?::|=|!|<=|<!|<([^>]+)>|([ims]*)-?([ims]*):))?/.exec(this.pattern.slice(this.at))!;
    this.at += head[0].length;
    const capture = head[0] === "(" || head[1] !== undefined;
    const number = this.captures.length;
    if (capture) {
      this.captures.push([]);
      this.names.push(head[1] ?? "");
    }
    // `(?i:…)` and `(?-i:…)` switch case-insensitivity for their content.
    const alternatives = this.sequences(head[2]?.includes("i") || caseless && !head[3]?.includes("i"));
    this.at++;
    if (capture) this.captures[number] = alternatives;
    return /^\(\?<?[=!]/.test(head[0])
      ? { kind: "assertion", alternatives }
      : { kind: "group", alternatives };
  }

  private escape(caseless: boolean): Term["node"] {
    const escape = this.escapes.exec(this.pattern.slice(this.at))![0];
    this.at += escape.length;
    if (escape === "\\b" || escape === "\\B") return { kind: "assertion", alternatives: [] };
    const number = /^\\(\d+)$/.exec(escape);
    const name = /^\\k<(.+)>$/.exec(escape);
    if (number && Number(number[1]) <= this.groupCount || name) {
      const group = number ? Number(number[1]) - 1 : this.names.indexOf(name![1]);
      const reference = { kind: "backreference" as const, group, set: NO_CHARS };
      this.references.push(reference);
      return reference;
    }
    // `\.`, `\-`, `\/`: an escaped sign is itself.
    const set = SHORTHANDS().get(escape) ??
      (/^\\[^A-Za-z0-9]$/.test(escape) ? literalSet(escape[1], caseless) : classSet(escape, caseless));
    return { kind: "chars", set };
  }
}

function setOf(term: Term): CharSet {
  const { node } = term;
  if (node.kind === "chars" || node.kind === "backreference") return node.set;
  return node.kind === "group" ? node.alternatives.flat().map(setOf).reduce(union, NO_CHARS) : NO_CHARS;
}

const nullable = (sequence: Term[]): boolean =>
  sequence.every((term) =>
    term.min === 0 || term.node.kind === "assertion" ||
    term.node.kind === "group" && term.node.alternatives.some(nullable)
  );

/** The characters a sequence can start with. */
function firstSet(sequence: Term[]): CharSet {
  let set = NO_CHARS;
  for (const term of sequence) {
    const { node } = term;
    if (node.kind === "assertion") continue;
    set = union(
      set,
      node.kind === "group" ? node.alternatives.map(firstSet).reduce(union, NO_CHARS) : setOf(term),
    );
    if (term.min > 0 && !(node.kind === "group" && node.alternatives.some(nullable))) break;
  }
  return set;
}

/** Whether a repetition of more than 16 choices is anywhere in a sequence. */
const hasLongRepetition = (sequence: Term[]): boolean =>
  sequence.some((term) =>
    term.max - term.min > LONG_SPAN || term.node.kind === "backreference" ||
    (term.node.kind === "group" || term.node.kind === "assertion") &&
      term.node.alternatives.some(hasLongRepetition)
  );

/**
 * A repetition that can still take more characters: those it takes, where it starts in the pattern, and how
 * many choices of length it leaves, added up over the short repetitions side by side that can trade the same
 * characters (`\w{0,16}` four times is as slow as one long one). Over 16 it is long, which is what makes a
 * further repetition beside it slow.
 */
interface OpenRun {
  set: CharSet;
  from: number;
  span: number;
}

const LONG_SPAN = 16;
const isLong = (run: OpenRun) => run.span > LONG_SPAN;

/** The repetition open after one of several alternatives: any of theirs. */
const joinRuns = (a: OpenRun | undefined, b: OpenRun | undefined): OpenRun | undefined =>
  a === undefined || b === undefined
    ? a ?? b
    : { set: union(a.set, b.set), from: Math.min(a.from, b.from), span: Math.max(a.span, b.span) };

class Backtracking extends Error {}

/**
 * Follows a sequence, given the repetition left open before it, and throws where a text could be split
 * between repetitions in a number of ways that grows with its length: two repetitions side by side that
 * can take the same characters (`\d+\d+`, `\w+\s?\w+`), a repetition in a repeated group that can take what
 * the next turn takes (`(a+)+`, `(\w+\s?)*`, `(.*a){20}`), repeated alternatives that can start alike
 * (`(a|aa)+`), or a repeated lookaround over a repetition. JavaScript's engine backtracks through every
 * such split, exponentially or with a high power, on a text that almost matches. Side by side at the very
 * end of the pattern is fine: nothing after them can fail, so the first split is taken.
 */
function follow(
  pattern: string,
  sequence: Term[],
  before: OpenRun | undefined,
  repeated: boolean,
  atEnd: boolean,
): OpenRun | undefined {
  let open = before;
  const quote = (from: number, to: number) => `"${pattern.slice(from, to)}"`;
  sequence.forEach((term, index) => {
    const { node } = term;
    const last = atEnd && index === sequence.length - 1;
    if (node.kind === "assertion") {
      if (repeated && node.alternatives.some(hasLongRepetition)) {
        throw new Backtracking(
          `${quote(term.from, term.to)} looks ahead over a repetition on every turn of one`,
        );
      }
      for (const alternative of node.alternatives) follow(pattern, alternative, undefined, false, false);
      return;
    }
    if (term.max === 0) return;
    const variable = term.min !== term.max || node.kind === "backreference";
    if (node.kind === "group") {
      const inRepeat = repeated || term.max > 1;
      if (inRepeat && node.alternatives.length > 1) {
        const firsts = node.alternatives.map(firstSet);
        if (
          node.alternatives.some(nullable) ||
          firsts.some((a, i) => firsts.slice(i + 1).some((b) => overlap(a, b)))
        ) {
          throw new Backtracking(
            `${quote(term.from, term.to)} repeats alternatives that can match the same text`,
          );
        }
      }
      // Two turns of a repeated group show what one turn leaves open to the next.
      let turn = variable ? undefined : open;
      for (let round = 0; round < Math.min(term.max, 2); round++) {
        try {
          turn = node.alternatives
            .map((alternative) => follow(pattern, alternative, turn, inRepeat, last && term.max === 1))
            .reduce(joinRuns, undefined);
        } catch (error) {
          if (round === 0 || !(error instanceof Backtracking)) throw error;
          throw new Backtracking(`${quote(term.from, term.to)} repeats a repetition of the same characters`);
        }
      }
      if (!variable) {
        // A run left open inside the group is named from the group's start, so that the quote is whole.
        open = turn && { ...turn, from: Math.min(turn.from, term.from) };
        return;
      }
    } else if (!variable) {
      if (open !== undefined && !overlap(open.set, setOf(term))) open = undefined;
      return;
    }
    const run: OpenRun = {
      set: setOf(term),
      from: term.from,
      span: node.kind === "backreference" ? Infinity : term.max - term.min,
    };
    // A group takes over from the open repetition only where its first characters could also go on it.
    const starts = node.kind === "group" ? node.alternatives.map(firstSet).reduce(union, NO_CHARS) : run.set;
    const trading = open !== undefined && overlap(open.set, starts);
    if (trading && (isLong(open!) || isLong(run) || repeated) && !last) {
      throw new Backtracking(
        `${quote(open!.from, term.to)} has repetitions side by side that can match the same characters`,
      );
    }
    open = trading
      ? { set: union(open!.set, run.set), from: open!.from, span: open!.span + run.span }
      : term.min === 0
      ? joinRuns(open, run)
      : run;
  });
  return open;
}

/**
 * Why a user pattern could make one event run for minutes, or undefined when every character of a text
 * can be matched a bounded number of ways, so that a try costs at most a constant times the text. The
 * config's validation refuses the others, so the hook never compiles one.
 */
export function backtrackingRisk(rule: Pick<RedactRule, "pattern" | "ignoreCase">): string | undefined {
  // Most patterns have one repetition at most and no alternative or backreference: nothing to split, and
  // the reading below (a millisecond or two) is skipped.
  const outline = rule.pattern.replace(
    /\\[\s\S]|\[(?:\\[\s\S]|[^\]\\])*\]/g,
    (atom) => /^\\(?:[1-9]|k<)/.test(atom) ? "|" : "x",
  );
  if (!outline.includes("|") && (outline.match(/[*+?{]/g)?.length ?? 0) <= 1) return undefined;
  try {
    for (const alternative of new PatternReader(rule.pattern).read(rule.ignoreCase)) {
      follow(rule.pattern, alternative, undefined, false, true);
    }
    return undefined;
  } catch (error) {
    if (error instanceof Backtracking) return error.message;
    throw error;
  }
}
