/**
 * What documentation an installed Python distribution holds, read into an index of its own: its long
 * description (the README its metadata carries) and the docstrings of its public modules (pydoc.ts), the API
 * reference of exactly that version. Installed distributions ship no README or docs folder of their own; the
 * metadata and the source are what there is. Bounded like an npm package: a number of modules, each up to a size.
 */
import { entriesOf, readRegularTextCapped } from "../files.ts";
import { MAX_FILE_BYTES } from "../docs/sources.ts";
import type { DocsIndex } from "../docs/store.ts";
import { baseName, dirName, join, type OS } from "../paths.ts";
import type { InstalledPackage } from "./npm.ts";
import { type PackageIndexed, packageWriter } from "./package_docs.ts";
import { docstringsMarkdown } from "./pydoc.ts";
import { metadataFile, readMetadata } from "./python.ts";

/** Modules read per distribution: the public API of the largest (setuptools, botocore's core) and not all of it. */
const MAX_MODULES = 400;
/** Folders of a distribution that are not its API (`django.test` and `numpy.testing` are, and stay). */
const SKIPPED = new Set(["__pycache__", "tests", "examples"]);

/**
 * A public module's path relative to site-packages: Python source, no private part (`pip/_internal/…`,
 * `requests/_types.py`; a package's `__init__.py` is its public face), no tests. A private top-level package
 * is a distribution's implementation behind a public name (`_pytest` behind `pytest`), so it is read.
 */
function isPublicModule(relative: string): boolean {
  if (!relative.endsWith(".py") || relative.startsWith("..") || relative.startsWith("/")) return false;
  const parts = relative.split("/");
  const file = parts.pop()!;
  return parts.every((part, i) =>
    (i === 0 || !part.startsWith("_")) && !part.startsWith(".") && !SKIPPED.has(part)
  ) && (file === "__init__.py" || !file.startsWith("_"));
}

/** The first field of a RECORD line, which is CSV: quoted when the path holds a comma. */
const recordPath = (line: string) => line.startsWith('"') ? line.slice(1).split('",')[0] : line.split(",")[0];

/**
 * The distribution's public modules, relative to site-packages, packages' faces and shallow modules first: the
 * files its RECORD lists (what the installer wrote), else those under the names in `top_level.txt`.
 */
function moduleFiles(metadata: string, site: string, os: OS): string[] {
  const read = (name: string) => readRegularTextCapped(join(os, metadata, name), MAX_FILE_BYTES);
  const record = read("RECORD");
  let files: string[];
  if (record !== undefined) {
    files = record.split(/\r?\n/).map(recordPath);
  } else {
    files = [];
    const walk = (relative: string) => {
      for (const entry of entriesOf(join(os, site, relative))) {
        if (files.length >= MAX_MODULES * 4) return;
        const path = `${relative}/${entry.name}`;
        if (entry.isDirectory && !SKIPPED.has(entry.name)) walk(path);
        else if (entry.isFile) files.push(path);
      }
    };
    for (const top of (read("top_level.txt") ?? "").split(/\r?\n/).map((line) => line.trim())) {
      if (!/^[A-Za-z]\w*$/.test(top)) continue;
      files.push(`${top}.py`);
      walk(top);
    }
  }
  const depth = (path: string) => path.split("/").length - (path.endsWith("/__init__.py") ? 1 : 0);
  return [...new Set(files.map((file) => file.replaceAll("\\", "/")))]
    .filter(isPublicModule)
    .sort((a, b) => depth(a) - depth(b) || (a < b ? -1 : a > b ? 1 : 0))
    .slice(0, MAX_MODULES);
}

/** `requests/adapters.py` → `requests.adapters`; `requests/__init__.py` → `requests`. */
const moduleName = (relative: string) => relative.replace(/(\/__init__)?\.py$/, "").replaceAll("/", ".");

/** The RST headings of a long description as Markdown ones, levels in the order their styles first appear. */
export function rstHeadings(text: string): string {
  const lines = text.split(/\r?\n/);
  const styles: string[] = [];
  const out: string[] = [];
  const underline = (line: string | undefined, length: number) =>
    line !== undefined && /^([=\-~^"'`#*+:.])\1+\s*$/.test(line) && line.trim().length >= length
      ? line[0]
      : undefined;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const title = line.trim();
    const under = title !== "" && !/^\s/.test(line) ? underline(lines[i + 1], title.length) : undefined;
    if (under === undefined || underline(line, 1) !== undefined) {
      out.push(line);
      continue;
    }
    // An overline of the same character is part of the heading's style, not text.
    const over = out.length > 0 && underline(out[out.length - 1], title.length) === under;
    if (over) out.pop();
    const style = `${over ? "over" : ""}${under}`;
    if (!styles.includes(style)) styles.push(style);
    out.push(`${"#".repeat(Math.min(styles.indexOf(style) + 1, 6))} ${title}`);
    i++;
  }
  return out.join("\n");
}

/** The long description as a document: Markdown as it is, reStructuredText (the format's default) converted. */
function descriptionDocument(
  pkg: InstalledPackage,
  contentType: string,
  description: string,
  summary: string | undefined,
): { text: string; kind: "markdown" | "text" } {
  const type = contentType.split(";")[0].trim().toLowerCase();
  if (type === "text/plain") return { text: description, kind: "text" };
  const body = type === "text/markdown" ? description : rstHeadings(description);
  // The distribution's one-line summary says what it is better than its README's first sentence.
  const front = summary === undefined || summary === "" || summary === "UNKNOWN"
    ? ""
    : `---\ndescription: ${summary.replace(/\s+/g, " ")}\n---\n`;
  return { text: `${front}# ${pkg.name} ${pkg.version}\n\n${body}`, kind: "markdown" };
}

/** Reads a distribution's documentation (`pkg.dir` is its metadata) into `index` (a fresh one). */
export function indexDistribution(pkg: InstalledPackage, index: DocsIndex, os: OS): PackageIndexed {
  const writer = packageWriter(index);
  const metadata = readMetadata(pkg.dir, os);
  if (metadata !== undefined && metadata.description !== "") {
    const { text, kind } = descriptionDocument(
      pkg,
      metadata.headers.get("description-content-type") ?? "",
      metadata.description,
      metadata.headers.get("summary"),
    );
    writer.generated(
      metadataFile(pkg.dir, os) ?? pkg.dir,
      new TextEncoder().encode(text),
      kind,
      `${pkg.name} ${pkg.version}`,
    );
  }
  const site = dirName(pkg.dir);
  for (const relative of moduleFiles(pkg.dir, site, os)) {
    const path = join(os, site, ...relative.split("/"));
    // A file its RECORD names may be anything (a FIFO would block the read): regular files only, capped.
    const source = readRegularTextCapped(path, MAX_FILE_BYTES);
    if (source === undefined) continue;
    try {
      const markdown = docstringsMarkdown(
        source,
        moduleName(relative),
        `${pkg.name} ${pkg.version}: ${moduleName(relative)}`,
      );
      if (markdown !== "") {
        writer.generated(path, new TextEncoder().encode(markdown), "markdown", baseName(path));
      }
    } catch {
      // Unreadable, or gone: one module less.
    }
  }
  return writer.done();
}
