/**
 * A Rust source file's documented public API, as rustdoc would show it: the module's inner docs (`//!`,
 * `/*! … *\/`, `#![doc = "…"]`), and each `pub` item's outer docs (`///`, `/** … *\/`, `#[doc = "…"]`) with its
 * one-line signature; methods of inherent impls and items of traits under their type, enum variants and pub
 * fields listed under theirs. `pub(crate)`, `pub(super)` and `pub(in …)` are not public; `#[doc(hidden)]`
 * items are left out. Parsed with Lezer's Rust grammar, so a `///` inside a string or raw string is never
 * taken for a doc comment. Which modules are reachable, and what they re-export, is decided across files by
 * crate_docs.ts from what this returns. Pure.
 */
import type { SyntaxNode } from "@lezer/common";
import { parser } from "@lezer/rust";
import { lowerHeadings, oneLine } from "./doc_comments.ts";

const isComment = (node: SyntaxNode) => node.name === "LineComment" || node.name === "BlockComment";
const textOf = (source: string, node: SyntaxNode | null) =>
  node === null ? "" : source.slice(node.from, node.to);

/** `pub` alone: `pub(crate)`, `pub(super)`, `pub(self)` and `pub(in path)` keep the item inside the crate. */
const isPub = (source: string, item: SyntaxNode) => textOf(source, item.getChild("Vis")) === "pub";

/** A Rust string literal's value: `"…"` with its escapes, `r#"…"#` as written; undefined for anything else. */
export function rustString(literal: string): string | undefined {
  const raw = /^r(#*)"([\s\S]*)"\1$/.exec(literal);
  if (raw !== null) return raw[2];
  if (!/^"[\s\S]*"$/.test(literal)) return undefined;
  return literal.slice(1, -1).replace(
    /\\(?:\r?\n\s*|u\{([0-9a-fA-F]{1,6})\}|x([0-9a-fA-F]{2})|(.))/g,
    (_, unicode, hex, char) =>
      unicode !== undefined
        ? String.fromCodePoint(parseInt(unicode, 16))
        : hex !== undefined
        ? String.fromCharCode(parseInt(hex, 16))
        : char === undefined
        ? ""
        : ({ n: "\n", t: "\t", r: "\r", "0": "\0" } as Record<string, string>)[char] ?? char,
  );
}

/** The string of a `doc = "…"` attribute; undefined for `doc = include_str!(…)` and any other attribute. */
function docAttribute(source: string, attribute: SyntaxNode): string | undefined {
  const meta = attribute.getChild("MetaItem");
  if (meta === null || textOf(source, meta.getChild("Identifier")) !== "doc") return undefined;
  const value = meta.getChild("String") ?? meta.getChild("RawString");
  return value === null ? undefined : rustString(textOf(source, value));
}

const isHiddenAttribute = (source: string, node: SyntaxNode) =>
  node.name === "Attribute" && /^doc\s*\(\s*hidden\s*\)$/.test(textOf(source, node.getChild("MetaItem")));

/** The code fence attributes rustdoc compiles as Rust; a fence with any other word (`text`, `toml`) is not Rust. */
const RUST_FENCE = /^(rust|ignore|no_run|should_panic|compile_fail|test_harness|edition\d+|E\d+|)$/;

/**
 * Doc text as rustdoc renders it: the common indent removed, the hidden lines of Rust examples (`# use x;`)
 * dropped (`##` is a literal `#`), and headings `depth` levels down, under the item's own.
 */
export function cleanRustDoc(lines: string[], depth: number): string {
  const indents = lines.filter((line) => line.trim() !== "").map((line) => /^\s*/.exec(line)![0].length);
  const indent = indents.length === 0 ? 0 : Math.min(...indents);
  const out: string[] = [];
  let fence: { marker: string; rust: boolean } | undefined;
  for (const raw of lines) {
    const line = raw.slice(indent).trimEnd();
    // The info string after the marker is checked for a backtick apart: as `\s*([^`]*)$` in the same
    // expression, a long run of spaces before a backtick was rescanned from each of them (1 s at 40,000).
    const marker = /^\s*(```+|~~~+)/.exec(line);
    const opening = marker !== null && !line.includes("`", marker[0].length) ? marker : null;
    if (fence === undefined && opening !== null) {
      const words = line.slice(opening[0].length).split(/[,\s]+/).filter((word) => word !== "");
      fence = { marker: opening[1], rust: words.every((word) => RUST_FENCE.test(word)) };
    } else if (
      fence !== undefined && line.trim().startsWith(fence.marker) &&
      line.trim().length === fence.marker.length
    ) {
      fence = undefined;
    } else if (fence?.rust) {
      const trimmed = line.trimStart();
      if (trimmed === "#" || trimmed.startsWith("# ")) continue;
      if (trimmed.startsWith("##")) {
        out.push(line.replace("##", "#"));
        continue;
      }
    }
    out.push(line);
  }
  return lowerHeadings(out.join("\n").replace(/\n{3,}/g, "\n\n").trim(), depth);
}

/** The text of a doc comment node, outer (`///`, `/**`) or inner (`//!`, `/*!`); undefined for a plain comment. */
function docComment(text: string, inner: boolean): string[] | undefined {
  const line = inner ? "//!" : "///";
  if (text.startsWith(line)) return !inner && text.startsWith("////") ? undefined : [text.slice(3)];
  const block = inner ? "/*!" : "/**";
  // `/***` and `/**/` are plain comments.
  if (!text.startsWith(block) || text === "/**/" || (!inner && text.startsWith("/***"))) return undefined;
  const body = text.slice(3, -2).split(/\r?\n/);
  // A block's ` * ` margin, when every line after the first has one.
  return body.slice(1).every((l) => /^\s*\*/.test(l) || l.trim() === "")
    ? [body[0], ...body.slice(1).map((l) => l.replace(/^\s*\* ?/, "").replace(/^\s*\*$/, ""))]
    : body;
}

/** The comments and attributes written before an item, first to last: inside its `#[…]` wrapper, and above that. */
function leading(item: SyntaxNode): SyntaxNode[] {
  const before = (node: SyntaxNode) => {
    const out: SyntaxNode[] = [];
    for (
      let n = node.prevSibling;
      n !== null && (isComment(n) || n.name === "Attribute");
      n = n.prevSibling
    ) {
      out.unshift(n);
    }
    return out;
  };
  const own = before(item);
  return item.parent?.name === "AttributeItem" ? [...before(item.parent), ...own] : own;
}

/** An item's outer docs, or "hidden" for `#[doc(hidden)]`; undefined when it has none. */
function outerDocs(source: string, item: SyntaxNode, depth: number): string | "hidden" | undefined {
  const lines: string[] = [];
  for (const node of leading(item)) {
    if (isHiddenAttribute(source, node)) return "hidden";
    const text = node.name === "Attribute" ? docAttribute(source, node) : undefined;
    if (text !== undefined) lines.push(...text.split(/\r?\n/));
    else if (isComment(node)) lines.push(...docComment(textOf(source, node), false) ?? []);
  }
  const doc = cleanRustDoc(lines, depth);
  return doc === "" ? undefined : doc;
}

/** The inner docs among a module's children (a file's top level, or an inline module's braces). */
function innerDocs(source: string, children: SyntaxNode | null, depth: number): string | undefined {
  const lines: string[] = [];
  for (let node = children; node !== null; node = node.nextSibling) {
    if (isComment(node)) lines.push(...docComment(textOf(source, node), true) ?? []);
    else if (node.name === "InnerAttribute") {
      const text = docAttribute(source, node);
      if (text !== undefined) lines.push(...text.split(/\r?\n/));
    }
  }
  const doc = cleanRustDoc(lines, depth);
  return doc === "" ? undefined : doc;
}

export interface RustItem {
  /** The inline modules it is in, from the file's top (`mod a { mod b { … } }` → ["a", "b"]). */
  within: string[];
  /** `Version`, `Version::parse`, `Tr::Out`. */
  name: string;
  doc: string;
  code: string;
  /** Enum variants and pub fields, each with its doc. */
  members: string[];
}

export interface RustModuleDecl {
  within: string[];
  name: string;
  public: boolean;
  /** `mod name;`: in a file of its own; else inline, its items already among the file's. */
  external: boolean;
  /** A `#[path = "…"]` on it. */
  path?: string;
  /** Its outer docs (`/// …` on the declaration). */
  doc?: string;
}

export interface RustFile {
  /** The file's inner docs: its module's documentation. */
  doc?: string;
  items: RustItem[];
  modules: RustModuleDecl[];
  /** Names `pub use` re-exports (`Other as Renamed` is `Other`), and modules it re-exports whole (`m::*`). */
  reexports: { names: string[]; globs: string[] };
}

/** Where an item's signature ends: its body, field list or variant list. */
const BODY = new Set([
  "Block",
  "DeclarationList",
  "FieldDeclarationList",
  "EnumVariantList",
]);

function signature(source: string, item: SyntaxNode): string {
  if (item.name === "MacroDefinition") return `macro_rules! ${textOf(source, item.getChild("Identifier"))}`;
  let end = item.to;
  for (let child = item.firstChild; child !== null; child = child.nextSibling) {
    if (BODY.has(child.name)) {
      end = child.from;
      break;
    }
  }
  return oneLine(source.slice(item.from, end).replace(/;\s*$/, ""));
}

/** The name an item declares. */
function nameOf(source: string, item: SyntaxNode): string {
  const node = item.getChild("BoundIdentifier") ?? item.getChild("TypeIdentifier") ??
    item.getChild("Identifier");
  return textOf(source, node);
}

/** Enum variants (every one is as public as the enum) and `pub` fields, with their docs; hidden ones left out. */
function membersOf(source: string, list: SyntaxNode | null): string[] {
  const out: string[] = [];
  for (let node = list?.firstChild ?? null; node !== null; node = node.nextSibling) {
    if (node.name !== "EnumVariant" && !(node.name === "FieldDeclaration" && isPub(source, node))) continue;
    const doc = outerDocs(source, node, 3);
    if (doc === "hidden") continue;
    out.push(
      `- \`${oneLine(textOf(source, node))}\`${doc === undefined ? "" : `: ${doc.replace(/\s+/g, " ")}`}`,
    );
  }
  return out;
}

const ITEMS = new Set([
  "FunctionItem",
  "StructItem",
  "EnumItem",
  "UnionItem",
  "TraitItem",
  "TypeItem",
  "ConstItem",
  "StaticItem",
  "MacroDefinition",
]);

/** The type an inherent impl is for (`impl<T> Wrapper<T>` → `Wrapper`); undefined for a trait impl. */
function inherentType(source: string, impl: SyntaxNode): string | undefined {
  if (impl.getChild("for") !== null) return undefined;
  const type = impl.getChild("TypeIdentifier") ?? impl.getChild("GenericType")?.getChild("TypeIdentifier") ??
    null;
  return type === null ? undefined : textOf(source, type);
}

/** A `pub use` tree's leaves: `a::{B, c::D as E, f::*}` → names B, D; globs f. */
function useTree(source: string, node: SyntaxNode, names: string[], globs: string[]): void {
  if (node.name === "UseWildcard") {
    const scope = node.getChildren("ScopeIdentifier").pop() ?? node.getChildren("Identifier").pop();
    if (scope) globs.push(textOf(source, scope));
    return;
  }
  if (node.name === "UseAsClause") {
    const path = node.firstChild;
    if (path !== null) useTree(source, path, names, globs);
    return;
  }
  if (node.name === "Identifier" || node.name === "BoundIdentifier" || node.name === "TypeIdentifier") {
    names.push(textOf(source, node));
    return;
  }
  if (node.name === "ScopedIdentifier" || node.name === "ScopedTypeIdentifier") {
    const last = node.lastChild;
    if (last !== null) names.push(textOf(source, last));
    return;
  }
  // `a::{self, B}` re-exports the module `a` itself.
  const scope = node.getChildren("ScopeIdentifier").pop();
  if (node.name === "ScopedUseList" && scope && node.getChild("UseList")?.getChild("self")) {
    names.push(textOf(source, scope));
  }
  for (let child = node.firstChild; child !== null; child = child.nextSibling) {
    if (child.name !== "ScopeIdentifier") useTree(source, child, names, globs);
  }
}

/** Reads the public API of one Rust source file. */
export function rustFileApi(source: string): RustFile {
  const top = parser.parse(source).topNode;
  const file: RustFile = {
    doc: innerDocs(source, top.firstChild, 1),
    items: [],
    modules: [],
    reexports: { names: [], globs: [] },
  };
  const walk = (first: SyntaxNode | null, within: string[]) => {
    for (let node: SyntaxNode | null = first; node !== null; node = node.nextSibling) {
      const item = node.name === "AttributeItem" ? node.lastChild : node;
      if (item === null) continue;
      if (item.name === "UseDeclaration" && isPub(source, item)) {
        for (let child = item.firstChild; child !== null; child = child.nextSibling) {
          if (child.name !== "Vis" && child.name !== "use") {
            useTree(source, child, file.reexports.names, file.reexports.globs);
          }
        }
      } else if (item.name === "ModItem") {
        const docs = outerDocs(source, item, 1);
        if (docs === "hidden") continue;
        const name = nameOf(source, item);
        const body = item.getChild("DeclarationList");
        const path = leading(item).filter((n) => n.name === "Attribute")
          .map((n) => textOf(source, n.getChild("MetaItem")))
          .map((meta) => /^path\s*=\s*("[^"]*")$/.exec(meta)?.[1]).find((value) => value !== undefined);
        const inner = body === null ? undefined : innerDocs(source, body.firstChild, 1);
        const doc = [docs, inner].filter((text) => text !== undefined).join("\n\n");
        file.modules.push({
          within,
          name,
          public: isPub(source, item),
          external: body === null,
          ...path === undefined ? {} : { path: rustString(path) },
          ...doc === "" ? {} : { doc },
        });
        if (body !== null) walk(body.firstChild, [...within, name]);
      } else if (item.name === "ImplItem") {
        const type = inherentType(source, item);
        const body = item.getChild("DeclarationList");
        if (type === undefined || body === null) continue;
        for (let member = body.firstChild; member !== null; member = member.nextSibling) {
          const inner = member.name === "AttributeItem" ? member.lastChild : member;
          if (inner === null || !ITEMS.has(inner.name) || !isPub(source, inner)) continue;
          const doc = outerDocs(source, inner, 2);
          if (doc === undefined || doc === "hidden") continue;
          const name = `${type}::${nameOf(source, inner)}`;
          file.items.push({ within, name, doc, code: signature(source, inner), members: [] });
        }
      } else if (ITEMS.has(item.name)) {
        const exported = item.name === "MacroDefinition"
          ? leading(item).some((n) =>
            n.name === "Attribute" && /^macro_export\b/.test(textOf(source, n.getChild("MetaItem")))
          )
          : isPub(source, item);
        if (!exported) continue;
        const doc = outerDocs(source, item, 2);
        if (doc === "hidden") continue;
        const name = nameOf(source, item);
        const list = item.getChild("EnumVariantList") ?? item.getChild("FieldDeclarationList");
        if (doc !== undefined) {
          file.items.push({
            within,
            name,
            doc,
            code: signature(source, item),
            members: membersOf(source, list),
          });
        }
        // A trait's items are as public as the trait.
        const body = item.name === "TraitItem" ? item.getChild("DeclarationList") : null;
        for (let member = body?.firstChild ?? null; member !== null; member = member.nextSibling) {
          const inner = member.name === "AttributeItem" ? member.lastChild : member;
          if (inner === null || (!ITEMS.has(inner.name) && inner.name !== "AssociatedType")) continue;
          const memberDoc = outerDocs(source, inner, 2);
          if (memberDoc === undefined || memberDoc === "hidden") continue;
          file.items.push({
            within,
            name: `${name}::${nameOf(source, inner)}`,
            doc: memberDoc,
            code: signature(source, inner),
            members: [],
          });
        }
      }
    }
  };
  walk(top.firstChild, []);
  return file;
}
