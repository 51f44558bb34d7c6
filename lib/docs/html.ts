/**
 * HTML pages as the Markdown-like text the chunker reads: headings stay headings (so the heading trail
 * survives), code stays fenced, and a site's navigation, sidebars, headers and footers are left out, since on
 * a docs site they repeat on every page and would match every query.
 *
 * The parser is htmlparser2 (npm): forgiving of the broken markup real sites serve, fast (it is what cheerio
 * parses with), small, with no dependencies beyond its own DOM helpers, and kept up (v12, 2026). A full
 * browser-grade parser (parse5, jsdom) would be slower and larger for no gain in text extraction.
 */
import { DomUtils, ElementType, parseDocument } from "htmlparser2";

type Node = ReturnType<typeof parseDocument>["children"][number];
type Element = Parameters<typeof DomUtils.getAttributeValue>[0];

/** Never text: code, media and controls. */
const SKIPPED_TAGS = new Set([
  "head",
  // Read apart as the page's title; without a <head> it would otherwise be body text.
  "title",
  "script",
  "style",
  "noscript",
  "template",
  "svg",
  "math",
  "canvas",
  "iframe",
  "object",
  "form",
  "button",
  "select",
  "input",
  "textarea",
  "nav",
  "aside",
  "dialog",
]);
/** Page furniture by ARIA role. */
const SKIPPED_ROLES = new Set(["navigation", "banner", "contentinfo", "complementary", "search", "menu"]);
/** Page furniture by class or id, as the common doc generators (Sphinx, DocBook, MkDocs, Docusaurus…) name it. */
const SKIPPED_NAMES = new Set([
  "nav",
  "navbar",
  "navheader",
  "navfooter",
  "navigation",
  "sidebar",
  "sphinxsidebar",
  "sidebar-drawer",
  "toc",
  "table-of-contents",
  "breadcrumb",
  "breadcrumbs",
  "related",
  "footer",
  "site-footer",
  "site-header",
  "skip-link",
  "edit-this-page",
  "pagination",
  "prev-next",
  "headerlink",
  "md-header",
  "md-footer",
  "md-sidebar",
  "theme-doc-sidebar-container",
  "theme-doc-toc-desktop",
  "theme-doc-footer",
  "cookie-banner",
]);
const BLOCKS = new Set([
  "p",
  "div",
  "section",
  "article",
  "main",
  "header",
  "footer",
  "blockquote",
  "dl",
  "dt",
  "dd",
  "ul",
  "ol",
  "table",
  "tr",
  "figure",
  "figcaption",
  "details",
  "summary",
  "hr",
  "body",
]);
const HEADING = /^h([1-6])$/;

export interface HtmlPage {
  /** The page's `<title>` without a trailing site name ("CREATE INDEX", not "CREATE INDEX | PostgreSQL"). */
  title: string | undefined;
  /** Markdown-like text: `#` headings, fenced code, paragraphs separated by blank lines. */
  text: string;
  /** Every link's `href` as written, for a crawler to follow. */
  links: string[];
  /** What the page says it is about: its `<meta name="description">` (or Open Graph's), when it has one. */
  description: string | undefined;
}

const words = (text: string) => text.replace(/\s+/g, " ").trim();

function isFurniture(element: Element, insideContent: boolean): boolean {
  const name = element.name.toLowerCase();
  if (SKIPPED_TAGS.has(name)) return true;
  // A header or footer inside the chosen content is the article's own (its title, its notes).
  if (!insideContent && (name === "header" || name === "footer")) return true;
  const attribs = element.attribs;
  if ("hidden" in attribs || attribs["aria-hidden"] === "true") return true;
  if (attribs.role !== undefined && SKIPPED_ROLES.has(attribs.role.toLowerCase())) return true;
  const names = `${attribs.class ?? ""} ${attribs.id ?? ""}`.toLowerCase().split(/\s+/);
  return names.some((token) => SKIPPED_NAMES.has(token));
}

/** The element holding the page's own content, when the page marks one. */
function contentRoot(nodes: Node[]): Element | undefined {
  const find = (test: (element: Element) => boolean) => DomUtils.findOne(test, nodes, true) ?? undefined;
  return find((element) => element.name === "main") ??
    find((element) => element.attribs.role === "main") ??
    find((element) => element.name === "article");
}

function cleanTitle(title: string): string | undefined {
  const text = words(title);
  // "Page — Site", "Page | Site", "Page · Site": the page is the part before the last separator.
  const cut = text.match(/^(.+?)\s+[|—–·]\s+[^|—–·]+$/);
  const page = cut ? cut[1] : text;
  return page === "" ? undefined : page;
}

/** Reads one HTML page: its title, its text as Markdown-like structure, and its links. */
export function readHtml(html: string): HtmlPage {
  const document = parseDocument(html, { decodeEntities: true });
  const titleElement = DomUtils.findOne((element) => element.name === "title", document.children, true);
  const links = DomUtils.findAll(
    (element) => element.name === "a" && "href" in element.attribs,
    document.children,
  )
    .map((element) => element.attribs.href);
  // Meta elements live in the head: searching the whole page for one it does not have costs a walk of it all.
  const head = DomUtils.findOne(
    (element) => element.name === "head" || element.name === "body",
    document.children,
  );
  const description = head?.name === "head"
    ? DomUtils.findOne(
      (element) =>
        element.name === "meta" &&
        /^(description|og:description)$/i.test(element.attribs.name ?? element.attribs.property ?? "") &&
        (element.attribs.content ?? "").trim() !== "",
      head.children,
      true,
    )?.attribs.content
    : undefined;
  const root = contentRoot(document.children);
  const out: string[] = [];
  const block = () => out.push("\n\n");

  const render = (node: Node, insideContent: boolean): void => {
    if (node.type === ElementType.Text) {
      out.push(node.data.replace(/\s+/g, " "));
      return;
    }
    if (node.type !== ElementType.Tag || isFurniture(node, insideContent)) return;
    const name = node.name.toLowerCase();
    const heading = HEADING.exec(name);
    if (heading !== null) {
      // Rendered, not textContent: a permalink's "¶" inside a heading is furniture too.
      const parts: string[] = [];
      const collect = (child: Node): void => {
        if (child.type === ElementType.Text) parts.push(child.data);
        else if (child.type === ElementType.Tag && !isFurniture(child, insideContent)) {
          child.children.forEach(collect);
        }
      };
      node.children.forEach(collect);
      const text = words(parts.join(""));
      if (text !== "") out.push(`\n\n${"#".repeat(Number(heading[1]))} ${text}\n\n`);
      return;
    }
    if (name === "pre") {
      // Not /^\n+|\s+$/g: that tried \s+$ at every space of a long run inside the code, quadratic.
      const code = DomUtils.textContent(node).replace(/^\n+/, "").trimEnd();
      if (code !== "") out.push(`\n\n\`\`\`\n${code.replace(/^(```|~~~)/gm, " $1")}\n\`\`\`\n\n`);
      return;
    }
    if (name === "br") {
      out.push("\n");
      return;
    }
    if (name === "li") out.push("\n\n- ");
    else if (name === "td" || name === "th") out.push(" | ");
    else if (BLOCKS.has(name)) block();
    for (const child of node.children) render(child, insideContent);
    if (BLOCKS.has(name)) block();
  };

  if (root !== undefined) render(root, true);
  else for (const node of document.children) render(node, false);

  return {
    title: titleElement ? cleanTitle(DomUtils.textContent(titleElement)) : undefined,
    text: tidy(out.join("")),
    links,
    description: description === undefined ? undefined : words(description),
  };
}

/** Blank-line runs closed up and lines trimmed, except inside code, whose indentation is meaning. */
function tidy(text: string): string {
  let fenced = false;
  return text.split("\n")
    .map((line) => {
      if (line.startsWith("```")) fenced = !fenced;
      return fenced ? line.trimEnd() : line.trim();
    })
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}

/**
 * The page's bytes as text, in the charset its HTTP header or its own `<meta>` names (UTF-8 when neither does
 * or the name is unknown); undecodable bytes become replacement characters, never an error.
 */
export function decodeHtml(bytes: Uint8Array, contentType?: string | null): string {
  const head = new TextDecoder("latin1").decode(bytes.subarray(0, 2048));
  const label = contentType?.match(/charset=["']?([\w-]+)/i)?.[1] ??
    head.match(/<meta[^>]+charset=["']?([\w-]+)/i)?.[1] ?? "utf-8";
  try {
    return new TextDecoder(label).decode(bytes);
  } catch {
    return new TextDecoder().decode(bytes);
  }
}
