/** A line diff for `install --dry-run`: what the settings file would become, in the familiar -/+ form. */

type Line = { kind: " " | "-" | "+"; text: string };

/** Cells of the comparison table (4 bytes each): beyond this a dry run would take seconds and gigabytes. */
const MAX_TABLE = 4_000_000;

/** Longest common subsequence by table: settings files are small, and the result is the minimal diff. */
function diffLines(a: readonly string[], b: readonly string[]): Line[] {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const table = new Uint32Array(rows * cols);
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      table[i * cols + j] = a[i] === b[j]
        ? table[(i + 1) * cols + j + 1] + 1
        : Math.max(table[(i + 1) * cols + j], table[i * cols + j + 1]);
    }
  }
  const lines: Line[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      lines.push({ kind: " ", text: a[i++] });
      j++;
    } else if (i < a.length && (j === b.length || table[(i + 1) * cols + j] >= table[i * cols + j + 1])) {
      lines.push({ kind: "-", text: a[i++] });
    } else {
      lines.push({ kind: "+", text: b[j++] });
    }
  }
  return lines;
}

/**
 * `--- before` / `+++ after` and the changed lines with `context` unchanged lines around each change;
 * "" when the texts are equal.
 */
export function unifiedDiff(before: string, after: string, labels: [string, string], context = 3): string {
  if (before === after) return "";
  const split = (text: string) => text === "" ? [] : text.replace(/\n$/, "").split("\n");
  const a = split(before);
  const b = split(after);
  // Only the middle that differs goes through the quadratic table; the rest is common by construction.
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (
    tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]
  ) tail++;
  const middleA = a.slice(head, a.length - tail);
  const middleB = b.slice(head, b.length - tail);
  if (middleA.length * middleB.length > MAX_TABLE) {
    return `--- ${labels[0]}\n+++ ${
      labels[1]
    }\n(${middleA.length} lines would be replaced by ${middleB.length}: too large a change to show line by line)`;
  }
  const same = (line: string): Line => ({ kind: " ", text: line });
  const lines = [
    ...a.slice(0, head).map(same),
    ...diffLines(middleA, middleB),
    ...a.slice(a.length - tail).map(same),
  ];
  const near = lines.map(() => false);
  lines.forEach((line, index) => {
    if (line.kind === " ") return;
    for (let k = Math.max(0, index - context); k <= Math.min(lines.length - 1, index + context); k++) {
      near[k] = true;
    }
  });
  const out = [`--- ${labels[0]}`, `+++ ${labels[1]}`];
  lines.forEach((line, index) => {
    if (!near[index]) return;
    if (index > 0 && !near[index - 1] && out.length > 2) out.push("@@");
    out.push(`${line.kind}${line.text}`);
  });
  return out.join("\n");
}
