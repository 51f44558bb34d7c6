/**
 * The API reference a Python distribution ships in its source: the docstrings of its modules, and of the
 * public classes, functions and methods in them, for exactly the installed version. Each becomes a Markdown
 * section headed by its qualified name, with the docstring and the signature as code. Parsed with Lezer's
 * Python grammar, so strings, f-strings and multi-line signatures are read as Python reads them; what it cannot
 * parse it skips, rather than reading a string's inside as code. Pure.
 */
import type { SyntaxNode } from "@lezer/common";
import { parser } from "@lezer/python";

/** A signature longer than this (a long parameter list) is cut: the docstring says the rest. */
const MAX_SIGNATURE_CHARS = 400;

/** Public by Python's convention: no leading underscore. */
const isPublic = (name: string) => !name.startsWith("_");

/** `r"""…"""` → its text, or undefined for bytes (`b"…"`, not documentation). */
function stringValue(literal: string): string | undefined {
  const prefix = /^[rRuUbB]*/.exec(literal)![0];
  if (/b/i.test(prefix)) return undefined;
  const body = literal.slice(prefix.length);
  const quote = body.startsWith('"""') || body.startsWith("'''") ? body.slice(0, 3) : body.slice(0, 1);
  return body.endsWith(quote) && body.length >= 2 * quote.length
    ? body.slice(quote.length, body.length - quote.length)
    : undefined;
}

/** A line a Markdown reader takes for a code fence. */
const FENCE = /^(```|~~~)/;

/**
 * A docstring as `inspect.cleandoc` reads it: the first line unindented, the rest by their common indent,
 * blank lines at the ends dropped. What Markdown would misread is escaped: lines starting with `#` (comments
 * in its examples) would be headings, and an RST underline (`~~~~`) or an unpaired fence would open a code
 * block that swallows the sections after it.
 */
export function cleanDocstring(raw: string): string {
  const lines = raw.replaceAll("\t", "        ").split(/\r?\n/);
  const indents = lines.slice(1).filter((line) => line.trim() !== "")
    .map((line) => line.length - line.trimStart().length);
  const indent = indents.reduce((least, n) => Math.min(least, n), indents[0] ?? 0);
  const clean = [lines[0].trim(), ...lines.slice(1).map((line) => line.slice(indent).trimEnd())];
  const fences = clean.filter((line) => FENCE.test(line));
  const paired = fences.length % 2 === 0 && !fences.some((line) => /^~+$/.test(line));
  return clean.map((line) => /^#/.test(line) || (!paired && FENCE.test(line)) ? `\\${line}` : line)
    .join("\n").trim();
}

/** The docstring of a module or a definition's body: its first statement, when that is a plain string. */
function docstring(source: string, body: SyntaxNode | null): string | undefined {
  let statement = body?.firstChild ?? null;
  // A body starts with its `:`; a module may start with comments (a shebang, an encoding line).
  while (statement !== null && (statement.name === ":" || statement.name === "Comment")) {
    statement = statement.nextSibling;
  }
  if (statement?.name !== "ExpressionStatement") return undefined;
  const literal = statement.firstChild;
  if (literal?.name !== "String" || literal.nextSibling !== null) return undefined;
  const value = stringValue(source.slice(literal.from, literal.to));
  return value === undefined ? undefined : cleanDocstring(value);
}

/** `def name(params) -> T` / `class Name(Base)`, on one line, as written before the body. */
function signature(source: string, definition: SyntaxNode, body: SyntaxNode): string {
  // Multi-line parameter lists read as one line: `(\n    a,\n)` as `(a)`.
  const text = source.slice(definition.from, body.from).replace(/\s+/g, " ").replace(/\(\s+/g, "(")
    .replace(/,?\s+\)/g, ")").trim();
  return text.length <= MAX_SIGNATURE_CHARS ? text : `${text.slice(0, MAX_SIGNATURE_CHARS)}…`;
}

interface Section {
  name: string;
  doc: string;
  code: string;
}

/** Blocks whose bodies define a module's or a class's API by condition (`if sys.version_info …`, `try: … except ImportError`). */
const CONDITIONAL = new Set(["IfStatement", "TryStatement"]);

/**
 * The documented public definitions among `statements`, classes' methods under their class, and those inside
 * conditional blocks; a name defined in several branches is taken from the first.
 */
function definitions(
  source: string,
  statements: SyntaxNode | null,
  prefix: string,
  out: Map<string, Section>,
): void {
  for (let node = statements; node !== null; node = node.nextSibling) {
    if (CONDITIONAL.has(node.name)) {
      for (const body of node.getChildren("Body")) definitions(source, body.firstChild, prefix, out);
      continue;
    }
    const definition = node.name === "DecoratedStatement" ? node.lastChild : node;
    if (definition?.name !== "FunctionDefinition" && definition?.name !== "ClassDefinition") continue;
    const nameNode = definition.getChild("VariableName");
    const body = definition.getChild("Body");
    if (nameNode === null || body === null) continue;
    const name = source.slice(nameNode.from, nameNode.to);
    if (!isPublic(name)) continue;
    const qualified = `${prefix}${name}`;
    const doc = docstring(source, body);
    if (doc !== undefined && doc !== "" && !out.has(qualified)) {
      out.set(qualified, { name: qualified, doc, code: signature(source, definition, body) });
    }
    // Methods of a class; a function's inner functions are its own business.
    if (definition.name === "ClassDefinition") definitions(source, body.firstChild, `${qualified}.`, out);
  }
}

/**
 * One module's documentation as Markdown: the module docstring under `# title`, then a `## name` section per
 * documented public class, function and method. Empty when the module documents nothing.
 */
export function docstringsMarkdown(source: string, module: string, title: string): string {
  const script = parser.parse(source).topNode;
  const sections = new Map<string, Section>();
  definitions(source, script.firstChild, `${module}.`, sections);
  const intro = docstring(source, script);
  if (sections.size === 0 && intro === undefined) return "";
  const parts = [`# ${title}`, ...intro === undefined ? [] : [intro]];
  for (const { name, doc, code } of sections.values()) {
    parts.push(`## ${name}\n\n${doc}\n\n\`\`\`python\n${code}\n\`\`\``);
  }
  return `${parts.join("\n\n")}\n`;
}
