/**
 * The API reference a package ships without knowing it: the doc comments of its TypeScript declarations
 * (`.d.ts`), for exactly the installed version. Each commented declaration becomes a Markdown section,
 * headed by the declared name, with the comment's text and the declaration's first line as code. Pure.
 */

/** `/** … *\/` then the declaration it documents, up to the end of its first line. */
const DOC_COMMENT = /\/\*\*([\s\S]*?)\*\/[ \t]*\r?\n?[ \t]*([^\r\n]*)/g;
/** The declared name: `export declare function name`, `interface Name`, `name(`, `name:`, `readonly name?:`. */
const DECLARED =
  /^(?:export\s+)?(?:default\s+)?(?:declare\s+)?(?:abstract\s+)?(?:(?:async\s+)?function\*?|const|let|var|class|interface|type|enum|namespace|module)\s+([\w$]+)|^(?:(?:public|private|protected|static|readonly|get|set)\s+)*([\w$]+)\s*[?!]?\s*[:(<]/;

/** A comment's text without its `*` margins, its `@tags` kept as lines ("@param name what it is"). */
function commentText(raw: string): string {
  return raw.split("\n").map((line) => line.replace(/^\s*\*? ?/, "")).join("\n").trim();
}

/**
 * The declarations of one `.d.ts` file that have doc comments, as Markdown: `## name` sections under the
 * file's title. A comment on nothing a name can be read from (a license header) is left out.
 */
export function declarationsMarkdown(source: string, title: string): string {
  const sections: string[] = [];
  for (const [, raw, declaration] of source.matchAll(DOC_COMMENT)) {
    const text = commentText(raw);
    const name = DECLARED.exec(declaration.trim());
    if (text === "" || name === null) continue;
    const code = declaration.trim().replace(/\s*\{\s*$/, "");
    sections.push(`## ${name[1] ?? name[2]}\n\n${text}\n\n\`\`\`ts\n${code}\n\`\`\``);
  }
  return sections.length === 0 ? "" : `# ${title}\n\n${sections.join("\n\n")}\n`;
}
