/**
 * The shell reader the redirect and capture share: a command line read as Bash reads it. The expected words are
 * Bash's own (each case was checked with `bash -c 'printf "[%s]" …'`).
 */
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import {
  type Command,
  MAX_DEPTH,
  MAX_TOKENS,
  type Pipeline,
  readShell,
  type Script,
  type SimpleCommand,
  simpleCommands,
} from "../lib/shell/read.ts";

/** A command as its words, a subshell or group as what it holds: `["echo", "a"]`, `{ subshell: [...] }`. */
type Shape = string[] | { subshell: Shape[][] } | { group: Shape[][] };

const shapeOf = (command: Command): Shape =>
  command.kind === "simple"
    ? command.words.map((word) => word.text)
    : command.kind === "subshell"
    ? { subshell: command.body.map(pipelineShape) }
    : { group: command.body.map(pipelineShape) };
const pipelineShape = (pipeline: Pipeline) => pipeline.commands.map(shapeOf);

/** Each pipeline of a line, as its commands' shapes. */
const shapes = (line: string) => readShell(line).pipelines.map(pipelineShape);

/** The words of a line that holds one simple command. */
function wordsOf(line: string) {
  const script = readShell(line);
  assertEquals(script.pipelines.length, 1, line);
  const [command] = script.pipelines[0].commands;
  assertEquals(command.kind, "simple", line);
  return (command as SimpleCommand).words;
}

const texts = (line: string) => wordsOf(line).map((word) => word.text);

function assertWellFormed(line: string): Script {
  const script = readShell(line);
  assertEquals(script.malformed, false, line);
  return script;
}

Deno.test("shell reader: quotes make one word of what they hold, and are removed", () => {
  assertEquals(wordsOf(`echo 'a b' "c d" e\\ f plain`), [
    { text: "echo", quoted: false, opaque: false },
    { text: "a b", quoted: true, opaque: false },
    { text: "c d", quoted: true, opaque: false },
    { text: "e f", quoted: true, opaque: false },
    { text: "plain", quoted: false, opaque: false },
  ]);
  assertEquals(texts(`echo a'b'"c" '' x`), ["echo", "abc", "", "x"]);
  // Single quotes keep everything; double quotes let a backslash escape only $ ` " \ and a newline.
  assertEquals(texts(`echo '$HOME \\ "x" | y'`), ["echo", '$HOME \\ "x" | y']);
  assertEquals(texts(`echo "a\\$b \\"c\\" \\\\ \\x"`), ["echo", 'a$b "c" \\ \\x']);
  // Operators and comments inside quotes are text.
  assertEquals(texts(`echo "a | b; c && d # e" 'f > g'`), ["echo", "a | b; c && d # e", "f > g"]);
});

Deno.test("shell reader: a backslash escapes one character; a backslash and a newline vanish", () => {
  assertEquals(shapes("echo a\\;b \\| c\\#d \\&"), [[["echo", "a;b", "|", "c#d", "&"]]]);
  // Continuation lines: no word is made of them, one is joined across them; not in single quotes.
  assertEquals(shapes("curl \\\n  -s \\\n  https://x/ \\\n  | head"), [[["curl", "-s", "https://x/"], [
    "head",
  ]]]);
  assertEquals(texts('printf ab\\\ncd "a\\\nb"'), ["printf", "abcd", "ab"]);
  assertEquals(texts("printf 'a\\\nb'"), ["printf", "a\\\nb"]);
  // A backslash that ends the line stands for itself.
  assertEquals(texts("echo a\\"), ["echo", "a\\"]);
  assertEquals(readShell("echo a\\").malformed, false);
});

Deno.test("shell reader: an expansion makes its word opaque, and stays as written", () => {
  const opaque = (line: string) => wordsOf(line).map((word) => [word.text, word.opaque]);
  assertEquals(opaque('echo $HOME "$USER" ${V:-a b} $1 $? $@ x$y'), [
    ["echo", false],
    ["$HOME", true],
    ["$USER", true],
    ["${V:-a b}", true],
    ["$1", true],
    ["$?", true],
    ["$@", true],
    ["x$y", true],
  ]);
  // `$'…'` is opaque (its escapes are not decoded) and a quote escaped in it does not end it.
  assertEquals(opaque("echo $'it\\'s' b"), [["echo", false], ["$'it\\'s'", true], ["b", false]]);
  // A `$` that starts no expansion is a dollar sign.
  assertEquals(opaque('echo $/ a$ "$" "a $ b"'), [
    ["echo", false],
    ["$/", false],
    ["a$", false],
    ["$", false],
    ["a $ b", false],
  ]);
  // A brace inside a braced expansion's quotes does not end it.
  assertEquals(texts('echo ${V:-"}"} x'), ["echo", '${V:-"}"}', "x"]);
});

Deno.test("shell reader: command and process substitutions and backquotes are flagged, and their commands read", () => {
  const script = assertWellFormed('echo $(date -u) `id -u` "$(uname | tr a-z A-Z)" > out');
  assertEquals(pipelineShape(script.pipelines[0]), [
    ["echo", "$(date -u)", "`id -u`", "$(uname | tr a-z A-Z)"],
  ]);
  assertEquals([...script.constructs], ["command substitution"]);
  assertEquals(script.substitutions.map((body) => body.map(pipelineShape)), [
    [[["date", "-u"]]],
    [[["id", "-u"]]],
    [[["uname"], ["tr", "a-z", "A-Z"]]],
  ]);
  // A parenthesis in quotes or a comment inside does not close it; nested ones are read in the order they open.
  const nested = assertWellFormed('x=$(echo ")" $(id) # )\n)');
  assertEquals(shapes('x=$(echo ")" $(id) # )\n)'), [[['x=$(echo ")" $(id) # )\n)']]]);
  assertEquals(nested.substitutions.map((body) => body.map(pipelineShape)), [
    [[["echo", ")", "$(id)"]]],
    [[["id"]]],
  ]);
  // A backquote inside backquotes is escaped, and read in its turn.
  const quoted = assertWellFormed("echo `a \\`b\\``");
  assertEquals(quoted.substitutions.map((body) => body.map(pipelineShape)), [[[["a", "`b`"]]], [[["b"]]]]);
  const process = assertWellFormed("diff <(sort a) >(wc -l) x");
  assertEquals(shapes("diff <(sort a) >(wc -l) x"), [[["diff", "<(sort a)", ">(wc -l)", "x"]]]);
  assertEquals([...process.constructs], ["process substitution"]);
  assertEquals(process.substitutions.map((body) => body.map(pipelineShape)), [[[["sort", "a"]]], [[[
    "wc",
    "-l",
  ]]]]);
  // Arithmetic is no command: flagged, nothing read in it.
  const arithmetic = assertWellFormed("echo $((1 + (2 * 3))) x");
  assertEquals(shapes("echo $((1 + (2 * 3))) x"), [[["echo", "$((1 + (2 * 3)))", "x"]]]);
  assertEquals([...arithmetic.constructs], ["arithmetic"]);
  assertEquals(arithmetic.substitutions, []);
});

Deno.test("shell reader: subshells and groups hold pipelines, take redirections, and are flagged", () => {
  const script = assertWellFormed("(cd app && make) > log 2>&1; { a; b | c; } | d");
  assertEquals(script.pipelines.map(pipelineShape), [
    [{ subshell: [[["cd", "app"]], [["make"]]] }],
    [{ group: [[["a"]], [["b"], ["c"]]] }, ["d"]],
  ]);
  const subshell = script.pipelines[0].commands[0];
  assertEquals(subshell.redirects.map(({ fd, op, target }) => [fd, op, target.text]), [[1, ">", "log"], [
    2,
    ">&",
    "1",
  ]]);
  assertEquals([...script.constructs].toSorted(), ["group", "subshell"]);
  // A brace is a group only where a command starts, as a word of its own.
  assertEquals(shapes("echo { x } {a,b}"), [[["echo", "{", "x", "}", "{a,b}"]]]);
  assertEquals(readShell("echo { x }").constructs.size, 0);
  // A group's `}` must start a command: `{ a }` never closes.
  ok(readShell("{ a }").malformed);
  ok(readShell("( )").malformed);
});

Deno.test("shell reader: every simple command, wherever it stands", () => {
  const script = readShell("a | (b; { c; }) && echo $(d `e`) <(f)");
  assertEquals([...simpleCommands(script)].map((command) => command.words[0].text), [
    "a",
    "b",
    "c",
    "echo",
    "d",
    "e",
    "f",
  ]);
});

Deno.test("shell reader: a here-document's body is text, not commands", () => {
  const line = "cat <<EOF > notes.md\nrun make; rm -rf /\n$(not read)\nEOF\necho done";
  const script = assertWellFormed(line);
  assertEquals(shapes(line), [[["cat"]], [["echo", "done"]]]);
  assertEquals(
    (script.pipelines[0].commands[0] as SimpleCommand).redirects.map((
      { fd, op, target },
    ) => [fd, op, target.text]),
    [[0, "<<", "EOF"], [1, ">", "notes.md"]],
  );
  assertEquals([...script.constructs], ["here-document"]);
  assertEquals(script.substitutions, []);
  // A quoted delimiter; `<<-` strips leading tabs; two on one line are read in order; in a substitution.
  assertEquals(shapes("cat <<'E O F'\nx\nE O F\nls"), [[["cat"]], [["ls"]]]);
  assertEquals(shapes("cat <<-EOF\n\tx\n\tEOF\nls"), [[["cat"]], [["ls"]]]);
  assertEquals(shapes("cat <<A <<B | wc\na\nA\nb\nB\nls"), [[["cat"], ["wc"]], [["ls"]]]);
  const commit = assertWellFormed("git commit -m \"$(cat <<'EOF'\nfix: a ) paren\nEOF\n)\" && git push");
  assertEquals(commit.pipelines.map(pipelineShape), [
    [["git", "commit", "-m", "$(cat <<'EOF'\nfix: a ) paren\nEOF\n)"]],
    [["git", "push"]],
  ]);
  assertEquals(commit.substitutions.map((body) => body.map(pipelineShape)), [[[["cat"]]]]);
  // A body with no end line runs to the end of the line: the shell warns, this says malformed.
  ok(readShell("cat <<EOF\nx").malformed);
  ok(readShell("cat <<EOF").malformed);
  // A here-string is one word.
  const herestring = assertWellFormed('grep x <<< "a b" | wc');
  assertEquals(herestring.pipelines.map(pipelineShape), [[["grep", "x"], ["wc"]]]);
  assertEquals([...herestring.constructs], ["here-string"]);
});

Deno.test("shell reader: a comment runs to the end of its line, and starts only a word", () => {
  assertEquals(shapes("ls -la # | rm -rf / ; echo\necho next"), [[["ls", "-la"]], [["echo", "next"]]]);
  assertEquals(shapes("echo a#b;# c"), [[["echo", "a#b"]]]);
  assertEquals(shapes("# only a comment"), []);
});

Deno.test("shell reader: pipes and lists: |, |&, &&, ||, ;, & and newlines", () => {
  const script = assertWellFormed("a | b |& c && d || e ; f & g\nh");
  assertEquals(
    script.pipelines.map((pipeline) => [pipelineShape(pipeline), pipeline.end]),
    [
      [[["a"], ["b"], ["c"]], "&&"],
      [[["d"]], "||"],
      [[["e"]], ";"],
      [[["f"]], "&"],
      [[["g"]], ";"],
      [[["h"]], ";"],
    ],
  );
  // Operators need no blanks; a newline after |, && or || continues the line; blank lines and a final ; are nothing.
  assertEquals(shapes("a|b&&c;d&"), [[["a"], ["b"]], [["c"]], [["d"]]]);
  assertEquals(shapes("a |\n  b &&\n\n  c"), [[["a"], ["b"]], [["c"]]]);
  assertEquals(shapes("\n\na;\n\nb;"), [[["a"]], [["b"]]]);
  assertEquals(assertWellFormed("").pipelines, []);
});

Deno.test("shell reader: redirections, with their descriptors and targets", () => {
  const redirects = (line: string) =>
    (readShell(line).pipelines[0].commands[0] as SimpleCommand).redirects.map((
      r,
    ) => [r.fd, r.op, r.both, r.target.text]);
  assertEquals(redirects("cmd >out 2>>err <in 2>&1 &>all &>>more >|force 3<>rw 0<&3 >&-"), [
    [1, ">", false, "out"],
    [2, ">>", false, "err"],
    [0, "<", false, "in"],
    [2, ">&", false, "1"],
    [1, ">", true, "all"],
    [1, ">>", true, "more"],
    [1, ">|", false, "force"],
    [3, "<>", false, "rw"],
    [0, "<&", false, "3"],
    [1, ">&", false, "-"],
  ]);
  // Digits are a descriptor only right before the operator, unquoted.
  assertEquals(texts("echo 2 >x"), ["echo", "2"]);
  assertEquals(texts("echo \\2>x"), ["echo", "2"]);
  assertEquals(texts('echo "2">x'), ["echo", "2"]);
  assertEquals(redirects("echo \\2>x"), [[1, ">", false, "x"]]);
  // Redirections may come anywhere among the words.
  assertEquals(shapes("> out echo a 2>/dev/null b"), [[["echo", "a", "b"]]]);
});

Deno.test("shell reader: what the shell refuses or reads past the end of is malformed, and read as far as it goes", () => {
  for (
    const line of [
      "echo 'a",
      'echo "a',
      "echo `a",
      "echo $(a",
      "echo ${a",
      "echo $((1",
      "echo $'a",
      "(a",
      "{ a;",
      "a |",
      "| a",
      "a && ",
      "a ||",
      "; a",
      "a ; ; b",
      "a & ; b",
      "a;; b",
      "a >",
      "a > | b",
      "a ) b",
      "(a) b",
    ]
  ) ok(readShell(line).malformed, line);
  for (const line of ["a;", "a &", "a\n\n", "# c", "", "a # (", "echo ';;' \\( \\)"]) {
    assertWellFormed(line);
  }
  assertEquals(shapes("a ) b"), [[["a"]], [["b"]]]);
  assertEquals(shapes("echo 'a b"), [[["echo", "a b"]]]);
});

Deno.test("shell reader: a carriage return is a blank, as in a line written on Windows", () => {
  assertEquals(shapes("npm install\r\nnpm test\r\n"), [[["npm", "install"]], [["npm", "test"]]]);
  assertEquals(shapes("cat <<EOF\r\nx\r\nEOF\r\nls"), [[["cat"]], [["ls"]]]);
});

Deno.test("shell reader: nesting deeper than MAX_DEPTH is not read, at any depth", () => {
  const nest = (depth: number) => "echo " + "$(echo ".repeat(depth) + "x" + ")".repeat(depth);
  const deep = assertWellFormed(nest(MAX_DEPTH));
  assertEquals([deep.substitutions.length, deep.truncated], [MAX_DEPTH, false]);
  const deeper = readShell(nest(MAX_DEPTH + 1));
  // What the cut leaves open (MAX_DEPTH + 1 parentheses) is not the line's fault.
  assertEquals([deeper.truncated, deeper.malformed], [true, false]);
  for (const unit of ["$(", "(", "{ ", "${", "<(", '"$(', "x=$(echo "]) {
    ok(readShell(unit.repeat(200_000)).truncated, unit);
  }
});

Deno.test("shell reader: a line of more than MAX_TOKENS tokens is read up to there", () => {
  const words = (count: number) => Array.from({ length: count }, (_, i) => `w${i}`);
  const whole = assertWellFormed(words(MAX_TOKENS).join(" "));
  assertEquals([whole.truncated, (whole.pipelines[0].commands[0] as SimpleCommand).words.length], [
    false,
    MAX_TOKENS,
  ]);
  // Operators are tokens too; a quote left open past the cut is not the line's fault.
  const cut = readShell(`${words(MAX_TOKENS / 2 - 1).join(" ; ")} ; w | a 'open`);
  assertEquals([cut.truncated, cut.malformed], [true, false]);
  assertEquals(cut.pipelines.map(pipelineShape), [...words(MAX_TOKENS / 2 - 1), "w"].map((word) => [[word]]));
});

Deno.test("shell reader: a hostile 1 MB line is read in linear time (well under a second)", () => {
  const MB = 1 << 20;
  const fill = (unit: string) => unit.repeat(Math.ceil(MB / unit.length)).slice(0, MB);
  /** `depth` backquotes nested in one another, each escaping the next as Bash requires. */
  const backquotes = (depth: number, inner: string) => {
    let line = inner;
    for (let i = 0; i < depth; i++) line = "`" + line.replaceAll("\\", "\\\\").replaceAll("`", "\\`") + "`";
    return line;
  };
  const lines = [
    fill("curl -s https://docs.gitlab.com/ee/ci/ "),
    fill("a | "),
    fill("2>&1 "),
    fill("'a'\"b\"c\\ "),
    '"' + fill("$x "),
    fill("${a}"),
    fill("``"),
    fill("$(a)"),
    fill("(a);"),
    fill("<<a "),
    "cat <<EOF\n" + fill("line\n"),
    fill("<<a ").slice(0, MB / 2) + "\n" + fill("a\n").slice(0, MB / 2),
    fill("# comment\n"),
    fill("\\\n"),
    backquotes(MAX_DEPTH - 1, fill("a ").slice(0, MB * 0.8)),
  ];
  for (const line of lines) {
    const start = performance.now();
    readShell(line);
    const ms = performance.now() - start;
    ok(ms < 1000, `${JSON.stringify(line.slice(0, 40))}…: ${ms.toFixed(0)} ms`);
  }
});
