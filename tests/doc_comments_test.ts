/**
 * Go's and Rust's doc comments read from source: what is a doc comment and what is only text that looks like
 * one (inside a string, a raw string, after code on its line, behind a blank line in Go), which item it
 * documents, which items are public, and the Markdown they become.
 */
import { deepStrictEqual as assertEquals, match, ok } from "node:assert/strict";
import { codeBlocks, goPackageMarkdown } from "../lib/project/godoc.ts";
import { cleanRustDoc, rustFileApi, rustString } from "../lib/project/rustdoc.ts";
import { lowerHeadings, oneLine } from "../lib/project/doc_comments.ts";

const go = (source: string, name = "a.go") =>
  goPackageMarkdown([{ name, source }], "mod v1.0.0: example.com/mod");

Deno.test("Go: the package comment and exported declarations' comments, with their signatures", () => {
  const markdown = go(`// Copyright 2024 The Authors. A license header, not the package comment.

// Package shapes measures shapes.
//
// # Units
//
// All lengths are in metres.
package shapes

// Area returns the area of s.
func Area(s Shape) float64 { return s.area() }

// area is unexported: not documented outside.
func area() {}

// Shape is anything with an area.
type Shape interface {
	// Perimeter is the length around it.
	Perimeter() float64
	area() float64
}
`);
  assertEquals(
    markdown,
    [
      "# mod v1.0.0: example.com/mod",
      "",
      "Package shapes measures shapes.",
      "",
      "## Units",
      "",
      "All lengths are in metres.",
      "",
      "## shapes.Area",
      "",
      "Area returns the area of s.",
      "",
      "```go",
      "func Area(s Shape) float64",
      "```",
      "",
      "## shapes.Shape",
      "",
      "Shape is anything with an area.",
      "",
      "```go",
      "type Shape interface",
      "```",
      "",
      "- `Perimeter() float64`: Perimeter is the length around it.",
      "",
    ].join("\n"),
  );
});

Deno.test("Go: a comment inside a string or a raw string is text, never a doc comment", () => {
  const markdown = go(`package p

var pattern = \`
// Fake documents Fake.
func Fake() {}
\`

const quoted = "/* Hidden is hidden. */"

func Real() string { return "// Real returns nothing." }
`);
  assertEquals(markdown, "");
  const raw = go(`package p

// Sep separates fields: a backquote string may hold "//" and "/*".
const Sep = \`// /* \`
`);
  match(raw, /## p\.Sep\n\nSep separates fields: a backquote string may hold "\/\/" and "\/\*"\./);
  match(raw, /```go\nconst Sep = `\/\/ \/\* `\n```/);
});

Deno.test("Go: a comment documents the declaration right below it; a blank line or code on its line detaches it", () => {
  const markdown = go(`package p

// Detached is about nothing below: a blank line follows.

func Detached() {}

// Attached documents Attached.
//go:noinline
func Attached() {}

// T holds fields.
type T struct {
	A int // trailing: A's, not B's
	B int
	// C is documented.
	C string
	d bool
}
`);
  ok(!markdown.includes("## p.Detached"), markdown);
  // The directive is not part of the text.
  match(markdown, /## p\.Attached\n\nAttached documents Attached\.\n\n```go\nfunc Attached\(\)\n```/);
  // A comment after code on its line is that code's: B's doc is not A's trailing comment.
  match(markdown, /type T struct\n```\n\n- `A int`\n- `B int`\n- `C string`: C is documented\.\n/);
});

Deno.test("Go: generics, methods of generic types, grouped types and constants; unexported receivers and fields left out", () => {
  const markdown = go(`package list

type (
	// List is a linked list of T.
	List[T any] struct {
		// Len is the number of elements.
		Len int
		head *node[T]
		sync.Mutex
	}
	// node is an element.
	node[T any] struct{ next *node[T] }
)

// Push adds v
// at the front.
func (l *List[T]) Push(v T) {}

// Walk is exported, but its receiver is not.
func (n *node[T]) Walk() {}

// Map applies f to each element.
func Map[T, U any](
	l *List[T],
	f func(T) U,
) *List[U] {
	return nil
}

// Direction of a walk.
const (
	Forward Direction = iota // from the front
	Backward
	sideways
)
`);
  match(
    markdown,
    /## list\.List\n\nList is a linked list of T\.\n\n```go\ntype List\[T any\] struct\n```\n\n/,
  );
  match(markdown, /- `Len int`: Len is the number of elements\.\n- `sync\.Mutex`\n/);
  ok(!markdown.includes("head"), markdown);
  match(
    markdown,
    /## list\.List\.Push\n\nPush adds v\nat the front\.\n\n```go\nfunc \(l \*List\[T\]\) Push\(v T\)\n```/,
  );
  ok(!markdown.includes("Walk") && !markdown.includes("node is an element"), markdown);
  match(markdown, /```go\nfunc Map\[T, U any\]\(l \*List\[T\], f func\(T\) U\) \*List\[U\]\n```/);
  match(
    markdown,
    /## list\.Forward, Backward\n\nDirection of a walk\.\n\n```go\nconst \(\n\tForward Direction = iota\n\tBackward\n\)\n```/,
  );
});

Deno.test("Go: commands, generated files and test packages are no API; a name in several files is taken once", () => {
  assertEquals(go("// Command tool does things.\npackage main\n\n// Run runs.\nfunc Run() {}\n"), "");
  assertEquals(
    go("// Code generated by stringer. DO NOT EDIT.\n\npackage p\n\n// String names it.\nfunc String() {}\n"),
    "",
  );
  assertEquals(
    go(
      "//go:build ignore\n\n// Package p generates tables.\npackage p\n\n// Gen generates.\nfunc Gen() {}\n",
    ),
    "",
  );
  const markdown = goPackageMarkdown([
    { name: "open_unix.go", source: "package p\n\n// Open opens, on Unix.\nfunc Open() {}\n" },
    { name: "open_windows.go", source: "package p\n\n// Open opens, on Windows.\nfunc Open() {}\n" },
    { name: "doc.go", source: "// Package p opens files.\npackage p\n" },
  ], "t");
  assertEquals(markdown.match(/## p\.Open/g)?.length, 1);
  match(markdown, /^# t\n\nPackage p opens files\./);
});

Deno.test("Go: indented lines are code, indented list items a list, old-style headings headings", () => {
  assertEquals(
    codeBlocks("Use it so:\n\n\tx := New()\n\n\tx.Run()\nThen:\n  - one\n    more\n  - two"),
    "Use it so:\n\n```\nx := New()\n\nx.Run()\n```\n\nThen:\n- one\n  more\n- two",
  );
  const markdown = go(`// Package p does it.
//
// Retrieving the cause of an error
//
// Cause returns it.
package p
`);
  match(markdown, /\n## Retrieving the cause of an error\n\nCause returns it\./);
});

Deno.test("Go: embedded fields named by their type, exported ones listed; a 2 MB name is read in linear time", () => {
  const struct = (fields: string) =>
    go(`// Package p does things.\npackage p\n\n// T holds.\ntype T struct {\n${fields}}\n`);
  const markdown = struct(
    "\tio.Reader\n\t*Node\n\tList[int]\n\tpkg.Map[a.K, V]\n\t*node\n\tsync.Mutex\n\tplain\n",
  );
  assertEquals(
    markdown.split("\n").filter((line) => line.startsWith("- ")),
    ["- `io.Reader`", "- `*Node`", "- `List[int]`", "- `pkg.Map[a.K, V]`", "- `sync.Mutex`"],
  );
  // As ([\p{L}_][\p{L}\p{N}_]*)(\[.*\])?$ tried at every letter, this field took minutes (1.9 s at 40,000
  // letters, quadratic); a test run of the old code hangs here, which counts as failing. No duration is asserted.
  const long = "A".repeat(2_000_000);
  assertEquals(struct(`\t${long} "tag"\n\t*Node\n`).split("\n").filter((line) => line.startsWith("- ")), [
    "- `*Node`",
  ]);
  // Listed (its line is cut short, so only its start is compared).
  const listed = struct(`\tpkg.${long}\n`).split("\n").filter((line) => line.startsWith("- "));
  assertEquals(listed.map((line) => line.slice(0, 12)), ["- `pkg.AAAAA"]);
});

Deno.test("Rust: a fence's words decide whether it is Rust; a backtick after it makes it no fence, in linear time", () => {
  assertEquals(
    cleanRustDoc(["```ignore, no_run", "# hidden", "shown", "```"], 2),
    "```ignore, no_run\nshown\n```",
  );
  assertEquals(cleanRustDoc(["~~~ toml", "# kept", "~~~"], 2), "~~~ toml\n# kept\n~~~");
  // A backtick after the marker: not a fence, so "# x" is no hidden example line.
  assertEquals(cleanRustDoc(["``` a`", "# x"], 2), "``` a`\n# x");
  // As ^\s*(```+|~~~+)\s*([^`]*)$ this line took minutes (1 s at 40,000 spaces, quadratic); a test run of the
  // old code hangs here, which counts as failing. No duration is asserted.
  const spaces = " ".repeat(2_000_000);
  ok(cleanRustDoc([`\`\`\`${spaces}x\``, "# x"], 2) === `\`\`\`${spaces}x\`\n# x`);
});

Deno.test("Rust: string literals as rustc reads them, raw strings as written", () => {
  assertEquals(rustString('"a \\"b\\"\\n\\u{1F600}\\\n    c"'), 'a "b"\n😀c');
  assertEquals(rustString('r#"raw "doc" \\n"#'), 'raw "doc" \\n');
  assertEquals(rustString('include_str!("x")'), undefined);
});

Deno.test("Rust: rustdoc's hidden example lines dropped in Rust fences only; headings under the item's", () => {
  const doc = cleanRustDoc(
    [
      " Parses it.",
      "",
      " # Examples",
      "",
      " ```",
      " # use demo::parse;",
      " ## not hidden",
      " let x = parse();",
      " ```",
      "",
      " ```text",
      " # kept in text",
      " ```",
    ],
    2,
  );
  assertEquals(
    doc,
    "Parses it.\n\n### Examples\n\n```\n# not hidden\nlet x = parse();\n```\n\n```text\n# kept in text\n```",
  );
  assertEquals(lowerHeadings("# A\n```\n# code\n```\n###### F", 2), "### A\n```\n# code\n```\n###### F");
  assertEquals(oneLine("fn f(\n    a: u8,\n    b: u8,\n) -> u8"), "fn f(a: u8, b: u8) -> u8");
  assertEquals(oneLine('const S: &str = "a  (  b";'), 'const S: &str = "a  (  b";');
});

Deno.test("Rust: pub items' outer docs, not pub(crate), pub(super), pub(in …), #[doc(hidden)] or a //// comment", () => {
  const api = rustFileApi(`//! The crate.
#![doc = "More about the crate."]

/// Public.
#[inline]
pub fn public() {}
/// Crate-visible only.
pub(crate) fn krate() {}
/// Parent-visible only.
pub(super) fn parent() {}
/// Path-visible only.
pub(in crate::a) fn scoped() {}
/// Private.
fn private() {}
#[derive(Debug)]
/// Hidden.
#[doc(hidden)]
pub struct Hidden;
//// Four slashes: a plain comment.
pub fn plain() {}
/**
 * Block doc,
 * with a margin.
 */
pub fn block() {}
/*** Three stars: plain. */
pub fn stars() {}
#[doc = "From an attribute."]
#[doc = include_str!("../README.md")]
pub fn attribute() {}
/// Spaced from its item by a blank line, still its doc (rustdoc attaches it).

pub static SPACED: u8 = 1;
`);
  assertEquals(api.doc, "The crate.\nMore about the crate.");
  assertEquals(api.items.map((item) => [item.name, item.doc, item.code]), [
    ["public", "Public.", "pub fn public()"],
    ["block", "Block doc,\nwith a margin.", "pub fn block()"],
    ["attribute", "From an attribute.", "pub fn attribute()"],
    [
      "SPACED",
      "Spaced from its item by a blank line, still its doc (rustdoc attaches it).",
      "pub static SPACED: u8 = 1",
    ],
  ]);
});

Deno.test("Rust: a /// inside a string or raw string is text; generics and where clauses in the signature", () => {
  const api = rustFileApi(`
pub const FAKE: &str = "
/// Fake documents nothing.
";
pub const RAW: &str = r#"
/// Raw is not a doc.
pub fn raw() {}
"#;
/// Maps each element.
pub fn map<T, U, F>(items: Vec<T>, f: F) -> Vec<U>
where
    F: Fn(T) -> U,
{
    let _ = "/// nor this";
    items.into_iter().map(f).collect()
}
`);
  assertEquals(api.items.map((item) => [item.name, item.code]), [
    ["map", "pub fn map<T, U, F>(items: Vec<T>, f: F) -> Vec<U> where F: Fn(T) -> U"],
  ]);
});

Deno.test("Rust: inherent methods under their type, trait items under the trait, variants and pub fields listed; trait impls left out", () => {
  const api = rustFileApi(`
/// A version.
pub struct Version {
    /// The major number.
    pub major: u64,
    /// Internal.
    build: String,
}

impl Version {
    /// Parses a version.
    pub fn parse(text: &str) -> Result<Self, Error> { todo!() }
    /// Not public.
    fn check(&self) {}
    /// Crate only.
    pub(crate) fn raw(&self) {}
}

impl std::fmt::Display for Version {
    /// Formats it (the trait's method, documented by the trait).
    fn fmt(&self, f: &mut Formatter) -> Result { todo!() }
}

/// An operator.
#[non_exhaustive]
pub enum Op {
    /// Equal to.
    Exact,
    #[doc(hidden)]
    Internal,
    Greater(u8),
}

/// Something to match.
pub trait Matcher<T>: Sized {
    /// What it returns.
    type Output;
    /// Whether it matches.
    fn matches(&self, value: &T) -> bool;
}

/// Builds a version.
#[macro_export]
macro_rules! version { ($($t:tt)*) => {} }

/// Not exported.
macro_rules! local { () => {} }
`);
  assertEquals(api.items.map((item) => item.name), [
    "Version",
    "Version::parse",
    "Op",
    "Matcher",
    "Matcher::Output",
    "Matcher::matches",
    "version",
  ]);
  const byName = new Map(api.items.map((item) => [item.name, item]));
  assertEquals(byName.get("Version")!.members, ["- `pub major: u64`: The major number."]);
  assertEquals(byName.get("Op")!.members, ["- `Exact`: Equal to.", "- `Greater(u8)`"]);
  assertEquals(byName.get("Matcher::matches")!.code, "fn matches(&self, value: &T) -> bool");
  assertEquals(byName.get("Matcher")!.code, "pub trait Matcher<T>: Sized");
  assertEquals(byName.get("version")!.code, "macro_rules! version");
});

Deno.test("Rust: modules declared, public or not, with their docs and #[path]; what pub use re-exports", () => {
  const api = rustFileApi(`
/// Parsing.
pub mod parse;
mod imp;
#[path = "sys/unix.rs"]
mod sys;
pub mod inline {
    //! Inline module.
    /// Inside.
    pub fn inside() {}
}
pub use crate::imp::{Thing, Other as Renamed, nested::{self, Deep}};
pub use sys::*;
use private::Hidden;
`);
  assertEquals(api.modules.map((m) => [m.name, m.public, m.external, m.path ?? null, m.doc ?? null]), [
    ["parse", true, true, null, "Parsing."],
    ["imp", false, true, null, null],
    ["sys", false, true, "sys/unix.rs", null],
    ["inline", true, false, null, "Inline module."],
  ]);
  assertEquals(api.items.map((item) => [item.within, item.name]), [[["inline"], "inside"]]);
  assertEquals(api.reexports.names.sort(), ["Deep", "Other", "Thing", "nested"]);
  assertEquals(api.reexports.globs, ["sys"]);
});
