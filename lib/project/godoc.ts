/**
 * A Go package's documentation as `go doc` shows it, from its source: the package comment, then each
 * documented exported function, method, type, constant and variable with its one-line signature; a struct's
 * exported fields and an interface's methods listed under their type. Parsed with Lezer's Go grammar, so a
 * `//` or `/*` inside a string or raw string is never taken for a comment, and generics, grouped declarations
 * and methods of generic types are read as Go reads them. Pure.
 */
import type { SyntaxNode } from "@lezer/common";
import { parser } from "@lezer/go";
import { commentsAbove, lowerHeadings, oneLine } from "./doc_comments.ts";

/** Exported, as Go decides: the name starts with an upper-case letter. */
const isExported = (name: string) => /^\p{Lu}/u.test(name);

const isComment = (node: SyntaxNode) => node.name === "LineComment" || node.name === "BlockComment";

/** `//go:generate …`, `//nolint:…`, `//line f.go:1`, `//export f`: directives gofmt keeps out of the doc text. */
const DIRECTIVE = /^\/\/(line |extern |export |[a-z0-9]+:[a-z0-9])/;

/**
 * A file `go generate` wrote (its API is documented where it is generated from, and tables make it large), or
 * one no build includes (`//go:build ignore`, a generator's own source).
 */
const NOT_API = /^(\/\/ Code generated .* DO NOT EDIT\.|\/\/go:build ignore|\/\/ \+build ignore)$/m;

/**
 * A comment group's text as go/ast's CommentGroup.Text gives it: markers and a line comment's first space
 * removed, directives dropped, blank lines at the ends trimmed. Go's `# Heading` lines become Markdown headings
 * `depth` levels down; indented lines stay indented, which Markdown reads as code, as Go does.
 */
function commentText(source: string, comments: SyntaxNode[], depth: number): string {
  const lines: string[] = [];
  for (const comment of comments) {
    const text = source.slice(comment.from, comment.to);
    if (comment.name === "LineComment") {
      if (!DIRECTIVE.test(text)) lines.push(text.slice(2).replace(/^ /, ""));
    } else lines.push(...text.slice(2, -2).split(/\r?\n/));
  }
  const text = lines.map((line) => line.trimEnd()).join("\n").replace(/\n{3,}/g, "\n\n").trim();
  return lowerHeadings(codeBlocks(oldHeadings(text)), depth);
}

/** A heading as Go wrote them before `# Heading`: a capitalized line of words, no sentence punctuation. */
const OLD_HEADING = /^\p{Lu}[\p{L}\p{N} (),']*[\p{L}\p{N})]$/u;

/**
 * Go's old headings as `# Heading`: a one-line paragraph that `go doc` takes for one, between two paragraphs,
 * the next one not code.
 */
function oldHeadings(text: string): string {
  const lines = text.split("\n");
  return lines.map((line, i) =>
    i >= 2 && lines[i - 1] === "" && lines[i - 2] !== "" && lines[i + 1] === "" &&
      /^\S/.test(lines[i + 2] ?? "") && OLD_HEADING.test(line)
      ? `# ${line}`
      : line
  ).join("\n");
}

/** An indented line that starts a list item in a Go doc comment: a run of lines starting so is a list, not code. */
const LIST_ITEM = /^\s+([-*+•]|\d+[.)])\s/;

/**
 * Go's code blocks, a run of indented lines (blank lines inside it kept), as fenced Markdown code: Markdown
 * wants four spaces where Go takes one, and a fence keeps a `#` line of the example from reading as a heading.
 * Go's lists, indented too, go to the margin.
 */
export function codeBlocks(text: string): string {
  const lines = text.split("\n");
  const out: string[] = [];
  for (let i = 0; i < lines.length;) {
    if (!/^\s/.test(lines[i])) {
      out.push(lines[i++]);
      continue;
    }
    let end = i;
    for (let j = i; j < lines.length && (/^\s/.test(lines[j]) || lines[j] === ""); j++) {
      if (lines[j] !== "") end = j + 1;
    }
    const block = lines.slice(i, end);
    if (LIST_ITEM.test(block[0])) {
      // A list: its items at the margin, where Markdown reads them; an item's further lines under it.
      out.push(
        ...block.map((line) => LIST_ITEM.test(line) ? line.trim() : line === "" ? "" : `  ${line.trim()}`),
      );
      i = end;
      continue;
    }
    const indent = Math.min(
      ...block.filter((line) => line !== "").map((line) => /^\s*/.exec(line)![0].length),
    );
    if (out.length > 0 && out[out.length - 1] !== "") out.push("");
    out.push("```", ...block.map((line) => line.slice(indent)), "```");
    if (end < lines.length && lines[end] !== "") out.push("");
    i = end;
  }
  return out.join("\n");
}

/** The doc comment of `node`: the comment group right above it; undefined when there is none. */
function docOf(source: string, node: SyntaxNode, depth = 2): string | undefined {
  const text = commentText(source, commentsAbove(source, node, isComment), depth);
  return text === "" ? undefined : text;
}

const textOf = (source: string, node: SyntaxNode | null) =>
  node === null ? "" : source.slice(node.from, node.to);

interface Section {
  name: string;
  doc: string;
  code: string;
  /** Exported fields or interface methods, each with its doc. */
  members: string[];
}

/** `l *List[T]`, `*List`, `List[K, V]` → `List`: the receiver's type name. */
function receiverType(source: string, method: SyntaxNode): string | undefined {
  const receiver = method.getChild("Parameters")?.getChild("Parameter");
  if (!receiver) return undefined;
  const text = textOf(source, receiver).replace(/^[\p{L}_][\p{L}\p{N}_]*\s+(?=[*\p{L}_(])/u, "");
  return /^[(*\s]*([\p{L}_][\p{L}\p{N}_]*)/u.exec(text)?.[1];
}

/**
 * An embedded field is named by its type: `io.Reader` is the field Reader, `*Node` is Node, `List[T]` is List.
 * The name ends the field's last line, or comes right before a `[` when that line ends in `]`; only names
 * that start where a word starts are tried: tried at every letter, as `([\p{L}_][\p{L}\p{N}_]*)(\[.*\])?$`
 * did, a long identifier was scanned once for each of its letters (1.9 s at 40,000, quadratic).
 */
function embeddedName(text: string): string | undefined {
  const last = text.slice(
    Math.max(...["\n", "\r", "\u2028", "\u2029"].map((end) => text.lastIndexOf(end))) + 1,
  );
  const name = last.endsWith("]")
    ? /(?<![\p{L}\p{N}_])([\p{L}_][\p{L}\p{N}_]*)\[/u.exec(last)
    : /(?<![\p{L}\p{N}_])([\p{L}_][\p{L}\p{N}_]*)$/u.exec(last);
  return name?.[1];
}

/** The exported fields of a struct (embedded exported types too), or the methods and type sets of an interface. */
function members(source: string, body: SyntaxNode | null): string[] {
  const out: string[] = [];
  for (let node = body?.firstChild ?? null; node !== null; node = node.nextSibling) {
    if (node.name !== "FieldDecl" && node.name !== "MethodElem" && node.name !== "EmbedElem") continue;
    const names = node.getChildren("FieldName").map((name) => textOf(source, name));
    const embedded = names.length === 0 ? embeddedName(textOf(source, node)) : undefined;
    const exported = names.length > 0
      ? names.some(isExported)
      : embedded !== undefined && isExported(embedded);
    if (!exported) continue;
    const doc = docOf(source, node)?.replace(/\s+/g, " ");
    out.push(`- \`${oneLine(textOf(source, node))}\`${doc === undefined ? "" : `: ${doc}`}`);
  }
  return out;
}

/** A `type` spec's section: `type Name[T any] struct`, its members below. */
function typeSection(source: string, spec: SyntaxNode, pkg: string, doc: string): Section | undefined {
  const name = textOf(source, spec.getChild("DefName"));
  if (!isExported(name)) return undefined;
  const body = spec.getChild("StructType") ?? spec.getChild("InterfaceType");
  const head = body === null
    ? textOf(source, spec)
    : source.slice(spec.from, body.from) + (body.name === "StructType" ? "struct" : "interface");
  return {
    name: `${pkg}.${name}`,
    doc,
    code: `type ${oneLine(head)}`,
    members: body === null
      ? []
      : members(source, body.getChild("StructBody") ?? body.getChild("InterfaceBody")),
  };
}

/** The sections of one file's top-level declarations, in source order. */
function fileSections(source: string, file: SyntaxNode, pkg: string): Section[] {
  const out: Section[] = [];
  for (let decl = file.firstChild; decl !== null; decl = decl.nextSibling) {
    if (decl.name === "FunctionDecl" || decl.name === "MethodDecl") {
      const name = textOf(source, decl.getChild(decl.name === "FunctionDecl" ? "DefName" : "FieldName"));
      const receiver = decl.name === "MethodDecl" ? receiverType(source, decl) : undefined;
      const doc = docOf(source, decl);
      if (!isExported(name) || doc === undefined) continue;
      if (decl.name === "MethodDecl" && (receiver === undefined || !isExported(receiver))) continue;
      const body = decl.getChild("Block");
      out.push({
        name: `${pkg}.${receiver === undefined ? "" : `${receiver}.`}${name}`,
        doc,
        code: oneLine(source.slice(decl.from, body?.from ?? decl.to)),
        members: [],
      });
    } else if (decl.name === "TypeDecl") {
      const list = decl.getChild("SpecList");
      const specs = list === null ? decl.getChildren("TypeSpec") : list.getChildren("TypeSpec");
      // A group's comment documents its one type; a group of several documents each by its own comment.
      const groupDoc = specs.length === 1 ? docOf(source, decl) : undefined;
      for (const spec of specs) {
        const doc = (list === null ? undefined : docOf(source, spec)) ?? groupDoc;
        const section = doc === undefined ? undefined : typeSection(source, spec, pkg, doc);
        if (section !== undefined) out.push(section);
      }
    } else if (decl.name === "ConstDecl" || decl.name === "VarDecl") {
      out.push(...valueSections(source, decl, pkg));
    }
  }
  return out;
}

/**
 * A `const` or `var` declaration's sections: a documented group as one section named by its exported names,
 * with their lines as code (how `go doc` shows an iota block); a spec with a comment of its own as another.
 */
function valueSections(source: string, decl: SyntaxNode, pkg: string): Section[] {
  const keyword = decl.name === "ConstDecl" ? "const" : "var";
  const list = decl.getChild("SpecList");
  const specs = (list ?? decl).getChildren(decl.name === "ConstDecl" ? "ConstSpec" : "VarSpec");
  const namesOf = (spec: SyntaxNode) => spec.getChildren("DefName").map((name) => textOf(source, name));
  const exported = specs.filter((spec) => namesOf(spec).some(isExported));
  if (exported.length === 0) return [];
  const out: Section[] = [];
  const groupDoc = docOf(source, decl);
  if (groupDoc !== undefined) {
    const names = exported.flatMap(namesOf).filter(isExported);
    const lines = exported.map((spec) => oneLine(textOf(source, spec)));
    out.push({
      name: `${pkg}.${names.slice(0, 6).join(", ")}${names.length > 6 ? ", …" : ""}`,
      doc: groupDoc,
      code: list === null
        ? `${keyword} ${lines[0]}`
        : `${keyword} (\n${lines.map((line) => `\t${line}`).join("\n")}\n)`,
      members: [],
    });
  }
  if (list === null) return out;
  for (const spec of exported) {
    const doc = docOf(source, spec);
    if (doc === undefined) continue;
    out.push({
      name: `${pkg}.${namesOf(spec).filter(isExported).join(", ")}`,
      doc,
      code: `${keyword} ${oneLine(textOf(source, spec))}`,
      members: [],
    });
  }
  return out;
}

export interface GoFile {
  /** The file's name, which orders the files as `go doc` does and puts `doc.go` first for the package comment. */
  name: string;
  source: string;
}

/**
 * One package's documentation as Markdown: the package comment under `# title`, then a `## pkg.Name` section
 * per documented exported identifier, methods as `## pkg.Type.Method`. Empty for a command (`package main`),
 * for generated files and when nothing is documented. An identifier declared in several files (one per build
 * tag) is taken from the first.
 */
export function goPackageMarkdown(files: readonly GoFile[], title: string): string {
  const ordered = [...files].sort((a, b) =>
    (b.name === "doc.go" ? 1 : 0) - (a.name === "doc.go" ? 1 : 0) ||
    (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)
  );
  let intro: string | undefined;
  const sections = new Map<string, Section>();
  for (const { source } of ordered) {
    // Before parsing: a generated file can be megabytes of tables.
    if (NOT_API.test(source.slice(0, Math.max(0, source.search(/^package\s/m))))) continue;
    const file = parser.parse(source).topNode;
    const clause = file.getChild("PackageClause");
    const pkg = textOf(source, clause?.getChild("DefName") ?? null);
    if (clause === null || pkg === "main" || pkg.endsWith("_test")) continue;
    intro ??= docOf(source, clause, 1);
    for (const section of fileSections(source, file, pkg)) {
      if (!sections.has(section.name)) sections.set(section.name, section);
    }
  }
  if (sections.size === 0 && intro === undefined) return "";
  const parts = [`# ${title}`, ...intro === undefined ? [] : [intro]];
  for (const { name, doc, code, members } of sections.values()) {
    const list = members.length === 0 ? "" : `\n\n${members.join("\n")}`;
    parts.push(`## ${name}\n\n${doc}\n\n\`\`\`go\n${code}\n\`\`\`${list}`);
  }
  return `${parts.join("\n\n")}\n`;
}
