/**
 * A shell command line read as Bash reads it: quotes, escapes, continuation lines, comments, pipes, lists,
 * redirections and here-documents. What a command does is for its reader to say (the redirect's page reads,
 * capture's summaries); this only says what the commands are.
 *
 * Subshells, groups, command and process substitutions and arithmetic are read through, so that where they end
 * is right and their commands are found, and each is named in `constructs`: a reader that trusts only plain
 * commands refuses a line holding any. A here-document's body is skipped as text (the expansions Bash makes in
 * an unquoted one are not looked for). Compound commands (`if`, `for`, `case`) are not modelled: their reserved
 * words read as plain words. A syntax error does not stop the reading: the line is marked malformed and read on,
 * as far as it goes.
 *
 * The hook reads every Bash command the agent runs, some of them megabytes long: one pass over the text, in
 * linear time (a backquoted command is read twice: once for its end, once for its commands), bounded by
 * MAX_DEPTH and MAX_TOKENS; plain string scanning, no regex.
 */

export interface Word {
  /** The word as the program receives it: quotes and escapes removed, expansions left as written. */
  text: string;
  /** Some of it was quoted or escaped. */
  quoted: boolean;
  /** Holds an expansion (`$HOME`, `${V}`, `$(…)`, `` `…` ``, `$((…))`, `$'…'`): its value is unknown here. */
  opaque: boolean;
}

export type RedirectOp = "<" | ">" | ">>" | ">|" | "<>" | ">&" | "<&" | "<<" | "<<-" | "<<<";

export interface Redirect {
  fd: number;
  op: RedirectOp;
  /** `&>`, `&>>`: stdout and stderr. */
  both: boolean;
  /** A file, a descriptor (`2>&1`), a here-document's delimiter or a here-string. */
  target: Word;
}

export interface SimpleCommand {
  kind: "simple";
  words: Word[];
  redirects: Redirect[];
}

/** `( … )` runs its commands in a subshell, `{ …; }` in the shell itself. */
export interface CompoundCommand {
  kind: "subshell" | "group";
  body: Pipeline[];
  redirects: Redirect[];
}

export type Command = SimpleCommand | CompoundCommand;

export type ListOperator = ";" | "&" | "&&" | "||";

export interface Pipeline {
  /** The commands joined by `|` or `|&`. */
  commands: Command[];
  /** What ends it: `;` for a newline or the end of the line too. */
  end: ListOperator;
}

export type Construct =
  | "subshell"
  | "group"
  | "command substitution"
  | "process substitution"
  | "arithmetic"
  | "here-document"
  | "here-string";

export interface Script {
  pipelines: Pipeline[];
  /** The commands of every command and process substitution in the line, in the order they start. */
  substitutions: Pipeline[][];
  constructs: ReadonlySet<Construct>;
  /** The shell would refuse the line (a syntax error) or read past its end (an unclosed quote). */
  malformed: boolean;
  /** Nested deeper than MAX_DEPTH, or longer than MAX_TOKENS: the rest of the line is not in the script. */
  truncated: boolean;
}

/** Nesting of substitutions, subshells, groups and braced expansions deeper than this is not read. */
export const MAX_DEPTH = 16;

/**
 * Tokens (words, operators, redirections) past this many are not read. No command an agent runs comes near it,
 * and the script costs some hundred bytes a token: a hostile line of 1 MB of `(a);` would take 200 MB.
 */
export const MAX_TOKENS = 10_000;

export function readShell(line: string): Script {
  const found: Found = {
    substitutions: [],
    constructs: new Set(),
    malformed: false,
    truncated: false,
    tokens: 0,
  };
  const pipelines = reader(line, 0, found)();
  const { substitutions, constructs, malformed, truncated } = found;
  return { pipelines, substitutions, constructs, malformed, truncated };
}

/** Every simple command of a script: those of its pipelines, of its subshells and groups, and of its substitutions. */
export function* simpleCommands(script: Script): Generator<SimpleCommand> {
  yield* commandsIn(script.pipelines);
  for (const body of script.substitutions) yield* commandsIn(body);
}

function* commandsIn(pipelines: readonly Pipeline[]): Generator<SimpleCommand> {
  for (const { commands } of pipelines) {
    for (const command of commands) {
      if (command.kind === "simple") yield command;
      else yield* commandsIn(command.body);
    }
  }
}

export const isDigits = (text: string): boolean => {
  if (text === "") return false;
  for (const c of text) if (c < "0" || c > "9") return false;
  return true;
};

interface Found {
  substitutions: Pipeline[][];
  constructs: Set<Construct>;
  malformed: boolean;
  truncated: boolean;
  /** Read so far, backquoted commands' included. */
  tokens: number;
}

type Operator = "|" | "|&" | "&&" | "||" | ";" | "&" | ";;" | "(" | ")" | "\n" | "end";

type Token =
  | { kind: "word"; word: Word }
  | { kind: "op"; op: Operator }
  | { kind: "redirect"; fd: number; op: RedirectOp; both: boolean };

const OPERATORS = new Map<Operator, Token>(
  (["|", "|&", "&&", "||", ";", "&", ";;", "(", ")", "\n", "end"] as const).map((
    op,
  ) => [op, { kind: "op", op }]),
);
const operator = (op: Operator) => OPERATORS.get(op)!;

const isBlank = (c: string | undefined) => c === " " || c === "\t" || c === "\r";
/** What ends an unquoted word. (`\r` is a blank here, as in a line written on Windows, where Bash keeps it.) */
const ENDS_WORD = " \t\r\n;&|()<>";
/** What a run of plain characters stops at, in a word and in double quotes. */
const STOPS_WORD = ENDS_WORD + "\\'\"$`";
const STOPS_DOUBLE_QUOTED = '\\"$`';
const isNameStart = (c: string | undefined) =>
  c !== undefined && (c === "_" || (c >= "a" && c <= "z") || (c >= "A" && c <= "Z"));
const isNameChar = (c: string | undefined) => isNameStart(c) || (c !== undefined && c >= "0" && c <= "9");
/** `$1`, `$@`, `$?` …: a parameter named by one character. */
const SPECIAL_PARAMETERS = "0123456789@*#?-$!";

/** A word of exactly this text, unquoted: a reserved word (`{`, `}`) where a command starts. */
const isBare = (token: Token, text: string) =>
  token.kind === "word" && token.word.text === text && !token.word.quoted && !token.word.opaque;

const startsCommand = (token: Token) =>
  token.kind === "word" || token.kind === "redirect" || (token.kind === "op" && token.op === "(");

/**
 * A recursive-descent reader over `s` (a line, or the body of a backquoted command): the function that reads its
 * pipelines. Functions over local state rather than a class: the hook loads this on every event, and minified, a
 * local is a letter where a property keeps its name.
 */
function reader(s: string, depth: number, found: Found): () => Pipeline[] {
  let pos = 0;
  let peeked: Token | undefined;
  /** Here-documents whose bodies start after the next newline. */
  let heredocs: { delimiter: string; stripTabs: boolean }[] = [];
  /** See backslashFrom: -1 when there is none further. */
  let backslash = -2;

  // ------------------------------------------------------------------ the grammar

  /** Pipelines up to the end of the text, or to `closer` (`)` of a subshell or substitution, `}` of a group). */
  function list(closer?: ")" | "}"): Pipeline[] {
    const pipelines: Pipeline[] = [];
    for (;;) {
      const token = peek();
      if (closer === "}" && isBare(token, "}")) {
        next();
        return pipelines;
      }
      if (token.kind === "op" && token.op !== "(") {
        next();
        const { op } = token;
        if (op === "end") {
          if (closer !== undefined || heredocs.length > 0) fault();
          return pipelines;
        }
        if (op === ")" && closer === ")") return pipelines;
        // A blank line is nothing; an operator with no command before it is a syntax error.
        if (op !== "\n") fault();
        continue;
      }
      const commands = pipeline();
      let end: ListOperator = ";";
      const after = peek();
      if (after.kind === "op") {
        const op = after.op;
        if (op === ";" || op === "&" || op === "&&" || op === "||" || op === "\n") {
          next();
          if (op !== "\n") end = op;
          if (op === "&&" || op === "||") commandFollows();
        } else if (op !== "end" && op !== ")") fault();
      } else fault();
      pipelines.push({ commands, end });
    }
  }

  function pipeline(): Command[] {
    const commands = [command()];
    for (;;) {
      const token = peek();
      if (token.kind !== "op" || (token.op !== "|" && token.op !== "|&")) return commands;
      next();
      if (!commandFollows()) return commands;
      commands.push(command());
    }
  }

  /** After `|`, `&&` or `||`, newlines are skipped, and a command must come: else the line is malformed. */
  function commandFollows(): boolean {
    while (peek() === operator("\n")) next();
    if (startsCommand(peek())) return true;
    fault();
    return false;
  }

  function command(): Command {
    const token = peek();
    if (token === operator("(")) return compound("subshell", ")");
    if (isBare(token, "{")) return compound("group", "}");
    const command: SimpleCommand = { kind: "simple", words: [], redirects: [] };
    for (;;) {
      const token = peek();
      if (token.kind === "word") {
        next();
        command.words.push(token.word);
      } else if (token.kind === "redirect") {
        next();
        redirect(token, command.redirects);
      } else return command;
    }
  }

  function compound(kind: CompoundCommand["kind"], closer: ")" | "}"): CompoundCommand {
    next();
    found.constructs.add(kind);
    const body = deeper(() => list(closer), []);
    if (body.length === 0) fault();
    const redirects: Redirect[] = [];
    for (let token = peek(); token.kind === "redirect"; token = peek()) {
      next();
      redirect(token, redirects);
    }
    return { kind, body, redirects };
  }

  function redirect(token: Token & { kind: "redirect" }, into: Redirect[]): void {
    const target = peek();
    if (target.kind !== "word") {
      fault();
      return;
    }
    next();
    const { fd, op, both } = token;
    if (op === "<<" || op === "<<-") {
      found.constructs.add("here-document");
      heredocs.push({ delimiter: target.word.text, stripTabs: op === "<<-" });
    } else if (op === "<<<") found.constructs.add("here-string");
    into.push({ fd, op, both, target: target.word });
  }

  /** Reads one level deeper, unless that is too deep: then the line is read no further. */
  function deeper<T>(read: () => T, tooDeep: T): T {
    if (depth >= MAX_DEPTH) {
      truncate();
      return tooDeep;
    }
    depth++;
    try {
      return read();
    } finally {
      depth--;
    }
  }

  /** A syntax error, or the end of the text inside a quote or construct. */
  function fault(): void {
    // What the end of a truncated reading leaves open is not the line's fault.
    if (!found.truncated) found.malformed = true;
  }

  /** Reads no further: the rest of the text is not in the script. */
  function truncate(): void {
    found.truncated = true;
    pos = s.length;
  }

  // ------------------------------------------------------------------ tokens

  function peek(): Token {
    return peeked ??= lex();
  }

  function next(): void {
    peek();
    peeked = undefined;
  }

  function lex(): Token {
    // Blanks, continuation lines, and a comment up to the end of its line.
    for (;;) {
      const c = s[pos];
      if (isBlank(c)) pos++;
      else if (c === "\\" && s[pos + 1] === "\n") pos += 2;
      else if (c === "#") {
        const end = s.indexOf("\n", pos);
        pos = end < 0 ? s.length : end;
      } else break;
    }
    // Truncation inside a backquoted command ends the reading of the line around it too.
    if (found.truncated || (pos < s.length && ++found.tokens > MAX_TOKENS)) truncate();
    const c = s[pos];
    const next = s[pos + 1];
    switch (c) {
      case undefined:
        return operator("end");
      case "\n":
        pos++;
        heredocBodies();
        return operator("\n");
      case ";":
        // `;;`, `;&` and `;;&` end a case item: outside a `case`, which this does not read, a syntax error.
        if (next === ";" || next === "&") {
          pos += next === ";" && s[pos + 2] === "&" ? 3 : 2;
          return operator(";;");
        }
        pos++;
        return operator(";");
      case "&":
        if (next === ">") {
          pos++;
          return { ...redirection(1), both: true };
        }
        pos += next === "&" ? 2 : 1;
        return operator(next === "&" ? "&&" : "&");
      case "|":
        pos += next === "|" || next === "&" ? 2 : 1;
        return operator(next === "|" ? "||" : next === "&" ? "|&" : "|");
      case "(":
      case ")":
        pos++;
        return operator(c);
      case "<":
      case ">":
        if (next !== "(") return redirection(c === "<" ? 0 : 1);
    }
    return word();
  }

  /** A redirection operator at `pos`, for descriptor `fd`. */
  function redirection(fd: number): Token & { kind: "redirect" } {
    const next = s[pos + 1];
    let op: RedirectOp;
    if (s[pos] === "<") {
      if (next === "<") op = s[pos + 2] === "<" ? "<<<" : s[pos + 2] === "-" ? "<<-" : "<<";
      else op = next === "&" ? "<&" : next === ">" ? "<>" : "<";
    } else op = next === ">" ? ">>" : next === "&" ? ">&" : next === "|" ? ">|" : ">";
    pos += op.length;
    return { kind: "redirect", fd, op, both: false };
  }

  /** After a newline: the bodies of the here-documents its line opened, which are text, not commands. */
  function heredocBodies(): void {
    for (const { delimiter, stripTabs } of heredocs) {
      for (;;) {
        if (pos >= s.length) {
          fault();
          break;
        }
        const newline = s.indexOf("\n", pos);
        const end = newline < 0 ? s.length : newline;
        let start = pos;
        if (stripTabs) { while (s[start] === "\t") start++; }
        // A line ending in \r\n ends a here-document too, as \r is a blank everywhere else here.
        const line = s.slice(start, s[end - 1] === "\r" && end - 1 >= start ? end - 1 : end);
        pos = end + 1;
        if (line === delimiter) break;
      }
    }
    pos = Math.min(pos, s.length);
    heredocs = [];
  }

  /** One word; digits just before a redirection (`2>`, `2>&1`) are its descriptor instead. */
  function word(): Token {
    // The word says `text`, then the line from `from` to `pos` as it stands: only quotes and escapes change
    // what a word says, so most words are one slice of the line.
    let text = "";
    let from = pos;
    let quoted = false;
    let opaque = false;
    while (pos < s.length) {
      const c = s[pos];
      const next = s[pos + 1];
      // A backslash that ends the line stands for itself (a plain character, below).
      if (c === "\\" && next !== undefined) {
        // An escaped character stands for itself; an escaped newline is nothing.
        text += s.slice(from, pos) + (next === "\n" ? "" : next);
        quoted ||= next !== "\n";
        pos += 2;
        from = pos;
      } else if (c === "'" || c === '"') {
        text += s.slice(from, pos);
        if (c === "'") text += singleQuoted();
        else {
          const part = doubleQuoted();
          text += part.text;
          opaque ||= part.opaque;
        }
        quoted = true;
        from = pos;
      } else if (c === "$" || c === "`" || ((c === "<" || c === ">") && next === "(")) {
        if (expansion(false)) opaque = true;
        else pos++;
      } else if (ENDS_WORD.includes(c)) break;
      else {
        do pos++; while (pos < s.length && !STOPS_WORD.includes(s[pos]));
      }
    }
    text += s.slice(from, pos);
    const after = s[pos];
    if (
      (after === "<" || after === ">") && s[pos + 1] !== "(" && !quoted && !opaque && isDigits(text)
    ) return redirection(Number(text));
    return { kind: "word", word: { text, quoted, opaque } };
  }

  /** `'…'` at `pos`: its text, as it stands. */
  function singleQuoted(): string {
    const end = s.indexOf("'", pos + 1);
    const text = s.slice(pos + 1, end < 0 ? s.length : end);
    if (end < 0) fault();
    pos = end < 0 ? s.length : end + 1;
    return text;
  }

  /** `"…"` at `pos`: a backslash escapes only `$`, `` ` ``, `"`, `\\` and a newline; expansions stay as written. */
  function doubleQuoted(): { text: string; opaque: boolean } {
    let text = "";
    let opaque = false;
    let from = ++pos;
    for (;;) {
      const c = s[pos];
      if (c === undefined || c === '"') {
        if (c === undefined) fault();
        text += s.slice(from, pos);
        if (c === '"') pos++;
        return { text, opaque };
      }
      const next = s[pos + 1];
      if (c === "\\" && (next === "$" || next === "`" || next === '"' || next === "\\" || next === "\n")) {
        text += s.slice(from, pos) + (next === "\n" ? "" : next);
        pos += 2;
        from = pos;
      } else if ((c === "$" || c === "`") && expansion(true)) opaque = true;
      else {
        do pos++; while (pos < s.length && !STOPS_DOUBLE_QUOTED.includes(s[pos]));
      }
    }
  }

  /**
   * An expansion at `pos` (`$…`, `` `…` ``, `<(…)`, `>(…)`), read to its end; false, and `pos` left alone, for a
   * `$` that stands for itself (`$/`, `$` before a blank).
   */
  function expansion(inDoubleQuotes: boolean): boolean {
    const c = s[pos];
    const next = s[pos + 1];
    if (c === "`") backquoted();
    else if (c !== "$") {
      pos += 2;
      substitution("process substitution");
    } else if (next === "(") {
      if (s[pos + 2] === "(") arithmetic();
      else {
        pos += 2;
        substitution("command substitution");
      }
    } else if (next === "{") {
      pos += 2;
      deeper(() => braced(), undefined);
    } else if (!inDoubleQuotes && next === "'") ansiQuoted();
    // `$"…"`, a string translated by the locale: the `$` makes it opaque, the quotes are read next.
    else if (!inDoubleQuotes && next === '"') pos++;
    else if (isNameStart(next)) {
      pos += 2;
      while (isNameChar(s[pos])) pos++;
    } else if (next !== undefined && SPECIAL_PARAMETERS.includes(next)) pos += 2;
    else return false;
    return true;
  }

  /** The commands of `$(…)`, `<(…)` or `>(…)`, with `pos` past the opening parenthesis. */
  function substitution(construct: Construct): void {
    substituted(construct, () => list(")"));
  }

  /** `` `…` ``: the text up to the closing backquote, its `\\`, `` \` `` and `\$` unescaped, read as commands. */
  function backquoted(): void {
    let body = "";
    let from = pos + 1;
    let end = s.indexOf("`", from);
    // A backslash escapes the next character only for the body's reading; before a backquote, it hides it.
    for (
      let slash = backslashFrom(from);
      slash >= 0 && (end < 0 || slash < end);
      slash = backslashFrom(slash + 2)
    ) {
      const next = s[slash + 1];
      if (next === "\\" || next === "`" || next === "$") {
        body += s.slice(from, slash);
        from = slash + 1;
      }
      if (end === slash + 1) end = s.indexOf("`", slash + 2);
    }
    if (end < 0) {
      fault();
      end = s.length;
    }
    body += s.slice(from, end);
    pos = Math.min(end + 1, s.length);
    substituted("command substitution", () => reader(body, depth, found)());
  }

  /**
   * The first backslash at or after `from`, remembered: backquotes read in turn all ask, and each asking the text
   * anew would make a line of many backquotes and no backslash quadratic.
   */
  function backslashFrom(from: number): number {
    if (backslash !== -1 && backslash < from) backslash = s.indexOf("\\", from);
    return backslash;
  }

  /** A substitution's commands, kept in the order substitutions start; each counts as a token. */
  function substituted(construct: Construct, read: () => Pipeline[]): void {
    found.constructs.add(construct);
    if (++found.tokens > MAX_TOKENS) return truncate();
    const at = found.substitutions.push([]) - 1;
    found.substitutions[at] = deeper(read, []);
  }

  /** `$((…))`: up to the parenthesis that closes the first. */
  function arithmetic(): void {
    found.constructs.add("arithmetic");
    let depth = 0;
    for (; pos < s.length; pos++) {
      if (s[pos] === "(") depth++;
      else if (s[pos] === ")" && --depth === 0) {
        pos++;
        return;
      }
    }
    fault();
  }

  /** `${…}`, with `pos` past the brace: up to its closing brace, past quotes and nested expansions. */
  function braced(): void {
    for (;;) {
      const c = s[pos];
      if (c === undefined) {
        fault();
        return;
      }
      if (c === "}") {
        pos++;
        return;
      }
      if (c === "\\") pos += 2;
      else if (c === "'") singleQuoted();
      else if (c === '"') doubleQuoted();
      else if ((c === "$" || c === "`") && expansion(true)) continue;
      else pos++;
    }
  }

  /** `$'…'`, whose backslash escapes (`\n`, `\'`) this does not decode: the word is opaque. */
  function ansiQuoted(): void {
    pos += 2;
    while (pos < s.length && s[pos] !== "'") pos += s[pos] === "\\" ? 2 : 1;
    if (pos >= s.length) {
      fault();
      pos = s.length;
    } else pos++;
  }

  return list;
}
