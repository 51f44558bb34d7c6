/**
 * A change to a JSON or JSONC file the user owns, made in place: the text is edited only where its meaning
 * changes, so comments, key order, formatting and the spelling of numbers (`1.0`, `1e3`, a 20-digit id)
 * stay as written everywhere else. The change is given as the whole new value (what a pure merge returns);
 * the edits are worked out by comparing it with the old one: a key added, removed or changed, an array
 * element inserted, removed or changed, each at the finest level at which they differ.
 *
 * jsonc-parser reads the text (its tree gives each value's place) and applies the edits; where the new text
 * goes and how it is laid out is decided here, from the file's own lines: a new member is indented like its
 * neighbours, a removed one takes its own lines (and the comment after it on its last line) with it, and the
 * comment lines above it stay.
 */
import { applyEdits, type Edit, type Node, parseTree, visit } from "jsonc-parser";
import type { Layout } from "./settings.ts";

type Path = (string | number)[];
type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** Equal as JSON values: objects whatever their key order, arrays in order. */
export function sameJson(a: unknown, b: unknown): boolean {
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((x, i) => sameJson(x, b[i]));
  }
  if (isObject(a) && isObject(b)) {
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length &&
      keys.every((key) => Object.hasOwn(b, key) && sameJson(a[key], b[key]));
  }
  return a === b;
}

/**
 * How alike two values are, from 0 (nothing in common) to 1 (equal): the share of keys whose values are
 * alike, or of elements alike in order. It decides which old array element a new one is a change of.
 */
function likeness(a: unknown, b: unknown): number {
  if (sameJson(a, b)) return 1;
  if (isObject(a) && isObject(b)) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    let shared = 0;
    for (const key of keys) {
      if (Object.hasOwn(a, key) && Object.hasOwn(b, key)) shared += likeness(a[key], b[key]);
    }
    return shared / keys.size;
  }
  if (Array.isArray(a) && Array.isArray(b)) {
    return align(a, b, likeness).weight / Math.max(a.length, b.length);
  }
  return 0;
}

/** One step of an alignment of two arrays: an old element kept or changed into a new one, removed, or inserted. */
interface Step {
  old?: number;
  new?: number;
}

/**
 * The alignment of `before` and `after` that pairs elements in order with the greatest total `weight`
 * (pairs of weight 0 are never made); unpaired ones are removed or inserted, an insertion before a removal
 * where both fall between the same pairs, so that a replaced element's successor takes its place.
 */
function align(
  before: unknown[],
  after: unknown[],
  weight: (a: unknown, b: unknown) => number,
): { steps: Step[]; weight: number } {
  const m = before.length, n = after.length;
  const best = Array.from({ length: m + 1 }, () => new Array<number>(n + 1).fill(0));
  const weights = before.map((a) => after.map((b) => weight(a, b)));
  for (let i = m - 1; i >= 0; i--) {
    for (let j = n - 1; j >= 0; j--) {
      const w = weights[i][j];
      best[i][j] = Math.max(best[i + 1][j], best[i][j + 1], w > 0 ? w + best[i + 1][j + 1] : 0);
    }
  }
  const steps: Step[] = [];
  let i = 0, j = 0;
  while (i < m || j < n) {
    if (i < m && j < n && weights[i][j] > 0 && best[i][j] === weights[i][j] + best[i + 1][j + 1]) {
      steps.push({ old: i++, new: j++ });
    } else if (j < n && (i === m || best[i][j] === best[i][j + 1])) {
      steps.push({ new: j++ });
    } else {
      steps.push({ old: i++ });
    }
  }
  return { steps, weight: best[0][0] };
}

/** Equal elements are kept first; between them, the most alike are changed into one another. */
function alignElements(before: unknown[], after: unknown[]): Step[] {
  const kept = align(before, after, (a, b) => sameJson(a, b) ? 1 : 0).steps;
  const steps: Step[] = [];
  let gap: Step[] = [];
  const closeGap = () => {
    const olds = gap.flatMap((step) => step.old ?? []), news = gap.flatMap((step) => step.new ?? []);
    for (const step of align(olds.map((i) => before[i]), news.map((j) => after[j]), likeness).steps) {
      steps.push({
        ...(step.old === undefined ? {} : { old: olds[step.old] }),
        ...(step.new === undefined ? {} : { new: news[step.new] }),
      });
    }
    gap = [];
  };
  for (const step of kept) {
    if (step.old !== undefined && step.new !== undefined) {
      closeGap();
      steps.push(step);
    } else {
      gap.push(step);
    }
  }
  closeGap();
  return steps;
}

// ---- the text around a value -------------------------------------------------------------------------

/** The text being edited, with what its lines look like around a value. */
class Lines {
  /** Where each comment starts, and its length. */
  private readonly comments = new Map<number, number>();

  constructor(readonly text: string) {
    visit(text, { onComment: (offset, length) => void this.comments.set(offset, length) });
  }

  lineStart(offset: number): number {
    return this.text.lastIndexOf("\n", offset - 1) + 1;
  }

  indentAt(offset: number): string {
    return /^[ \t]*/.exec(this.text.slice(this.lineStart(offset)))![0];
  }

  /** Only blanks before `offset` on its line. */
  beginsLine(offset: number): boolean {
    return /^[ \t]*$/.test(this.text.slice(this.lineStart(offset), offset));
  }

  /**
   * From `offset`, past blanks, comments that end on the line and (with `comma`, which must be there) one
   * comma, to the end of the line: where its line break starts and where the next line starts. Undefined when
   * anything else follows, or the comma is not on the line.
   */
  restOfLine(offset: number, comma: boolean): { lineEnd: number; next: number } | undefined {
    let at = offset;
    let wanted = comma;
    for (;;) {
      const char = this.text[at];
      const length = this.comments.get(at);
      if (char === " " || char === "\t") at++;
      else if (char === "," && wanted) {
        wanted = false;
        at++;
      } else if (length !== undefined) {
        if (/[\r\n]/.test(this.text.slice(at, at + length))) return undefined;
        at += length;
      } else if (wanted) return undefined;
      else if (at === this.text.length) return { lineEnd: at, next: at };
      else if (char === "\n") return { lineEnd: at, next: at + 1 };
      else if (char === "\r" && this.text[at + 1] === "\n") return { lineEnd: at, next: at + 2 };
      else return undefined;
    }
  }

  /** The comma after `offset`, past blanks, line breaks and comments. */
  commaAfter(offset: number): number {
    let at = offset;
    while (this.text[at] !== ",") at += this.comments.get(at) ?? 1;
    return at;
  }

  /** Only blanks between `from` and `to`, once `skip` is taken out. */
  blank(from: number, to: number, skip?: { offset: number; length: number }): boolean {
    const text = skip === undefined
      ? this.text.slice(from, to)
      : this.text.slice(from, skip.offset) + this.text.slice(skip.offset + skip.length, to);
    return text.trim() === "";
  }
}

const end = (node: Node) => node.offset + node.length;

/** The members of an object (its properties) or an array (its elements). */
const membersOf = (container: Node): Node[] => container.children ?? [];

/** The value at `path`; of a key written twice, the last, which is the one JSON readers keep. */
function nodeAt(root: Node, path: Path): Node {
  let node = root;
  for (const segment of path) {
    node = typeof segment === "number"
      ? membersOf(node)[segment]
      : membersOf(node).findLast((property) => property.children![0].value === segment)!.children![1];
  }
  return node;
}

// ---- the edits ------------------------------------------------------------------------------------------

/** Edits `text` into a text whose value is `after`; `before` is its value now. */
export function editInPlace(text: string, before: unknown, after: unknown, layout: Layout): string {
  let current = text;
  const edit = (make: (lines: Lines, root: Node) => Edit[]) => {
    const root = parseTree(current, [], { allowTrailingComma: false })!;
    current = applyEdits(current, make(new Lines(current), root));
  };

  /** `value` as JSON starting at a line indented by `indent`: in the file's style, or on one line. */
  const render = (value: unknown, indent: string, inline: boolean): string => {
    const text = JSON.stringify(value, null, inline ? " " : layout.indent);
    if (inline) return text.replace(/(?<=[[{])\n *|\n *(?=[\]}])/g, "").replace(/\n */g, " ");
    return text.replaceAll("\n", layout.newline + indent);
  };
  const member = (key: string | undefined, value: unknown, indent: string, inline: boolean) =>
    (key === undefined ? "" : `${JSON.stringify(key)}: `) + render(value, indent, inline);
  /** Written on one line: no line break in it. */
  const oneLine = (lines: Lines, node: Node) => !lines.text.slice(node.offset, end(node)).includes("\n");

  const replace = (path: Path, value: unknown) =>
    edit((lines, root) => {
      const node = nodeAt(root, path);
      const container = node.parent?.type === "property" ? node.parent.parent : node.parent;
      const inline = container !== undefined && oneLine(lines, container);
      return [{
        offset: node.offset,
        length: node.length,
        content: render(value, lines.indentAt(node.offset), inline),
      }];
    });

  const insert = (path: Path, index: number, key: string | undefined, value: unknown) =>
    edit((lines, root) => {
      const container = nodeAt(root, path);
      const members = membersOf(container);
      const nl = layout.newline;
      if (members.length === 0) {
        const outer = lines.indentAt(container.offset);
        const inner = outer + layout.indent;
        const content = nl + inner + member(key, value, inner, false);
        return lines.blank(container.offset + 1, end(container) - 1)
          ? [{ offset: container.offset + 1, length: container.length - 2, content: content + nl + outer }]
          : [{ offset: container.offset + 1, length: 0, content }];
      }
      if (oneLine(lines, container)) {
        return index < members.length
          ? [{ offset: members[index].offset, length: 0, content: `${member(key, value, "", true)}, ` }]
          : [{ offset: end(members[index - 1]), length: 0, content: `, ${member(key, value, "", true)}` }];
      }
      if (index < members.length) {
        const next = members[index];
        const indent = lines.indentAt(next.offset);
        // On a line of its own, above the member it goes before (and below that member's comments).
        return lines.beginsLine(next.offset)
          ? [{
            offset: lines.lineStart(next.offset),
            length: 0,
            content: `${indent}${member(key, value, indent, false)},${nl}`,
          }]
          : [{ offset: next.offset, length: 0, content: `${member(key, value, indent, true)}, ` }];
      }
      const last = members[index - 1];
      const indent = lines.beginsLine(last.offset)
        ? lines.indentAt(last.offset)
        : lines.indentAt(container.offset) + layout.indent;
      const text = member(key, value, indent, false);
      const rest = lines.restOfLine(end(last), false);
      // After the last member's line, comment and all; its comma goes right after it.
      return rest === undefined
        ? [{ offset: end(last), length: 0, content: `,${nl}${indent}${text}` }]
        : [{ offset: end(last), length: 0, content: "," }, {
          offset: rest.lineEnd,
          length: 0,
          content: nl + indent + text,
        }];
    });

  const remove = (path: Path, index: number) =>
    edit((lines, root) => {
      const container = nodeAt(root, path);
      const members = membersOf(container);
      const gone = members[index];
      const rest = lines.restOfLine(end(gone), index < members.length - 1);
      const ownLines = lines.beginsLine(gone.offset) && rest !== undefined;
      const from = ownLines ? lines.lineStart(gone.offset) : gone.offset;
      const to = ownLines ? rest.next : end(gone);
      if (members.length === 1) {
        // The last member: what is left between the brackets, when only blanks, goes too (`{}`).
        const inside = { offset: container.offset + 1, length: container.length - 2 };
        return lines.blank(inside.offset, end(container) - 1, { offset: from, length: to - from })
          ? [{ ...inside, content: "" }]
          : [{ offset: from, length: to - from, content: "" }];
      }
      if (ownLines) {
        // Its lines, and when it was the last member, the comma after the one before.
        const comma = index === members.length - 1
          ? [{ offset: lines.commaAfter(end(members[index - 1])), length: 1, content: "" }]
          : [];
        return [...comma, { offset: from, length: to - from, content: "" }];
      }
      return index < members.length - 1
        ? [{ offset: gone.offset, length: members[index + 1].offset - gone.offset, content: "" }]
        : [{ offset: end(members[index - 1]), length: end(gone) - end(members[index - 1]), content: "" }];
    });

  const change = (path: Path, old: unknown, value: unknown): void => {
    if (sameJson(old, value)) return;
    if (isObject(old) && isObject(value)) return changeObject(path, old, value);
    if (Array.isArray(old) && Array.isArray(value)) return changeArray(path, old, value);
    replace(path, value);
  };

  const changeObject = (path: Path, old: Json, value: Json) => {
    for (const key of Object.keys(old)) {
      if (Object.hasOwn(value, key)) change([...path, key], old[key], value[key]);
      // A key written twice goes entirely: a reader would otherwise find the earlier one.
      else while (propertyIndex(path, key) !== undefined) remove(path, propertyIndex(path, key)!);
    }
    const keys = Object.keys(value);
    keys.forEach((key, i) => {
      if (Object.hasOwn(old, key)) return;
      // After the key it follows in the new value (there by now), or first.
      insert(path, i === 0 ? 0 : propertyIndex(path, keys[i - 1])! + 1, key, value[key]);
    });
  };

  /** Where the (last) property `key` stands among its object's members now. */
  const propertyIndex = (path: Path, key: string): number | undefined => {
    const object = nodeAt(parseTree(current, [], { allowTrailingComma: false })!, path);
    const index = membersOf(object).findLastIndex((property) => property.children![0].value === key);
    return index === -1 ? undefined : index;
  };

  const changeArray = (path: Path, old: unknown[], value: unknown[]) => {
    const steps = alignElements(old, value);
    // From the end, so that the indices of the elements before each step are still the old ones.
    for (let s = steps.length - 1; s >= 0; s--) {
      const step = steps[s];
      if (step.old !== undefined && step.new !== undefined) {
        change([...path, step.old], old[step.old], value[step.new]);
      } else if (step.old !== undefined) remove(path, step.old);
      else {insert(
          path,
          steps.slice(0, s).filter((earlier) => earlier.old !== undefined).length,
          undefined,
          value[step.new!],
        );}
    }
  };

  change([], before, after);
  return current;
}
