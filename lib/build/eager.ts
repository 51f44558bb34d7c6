/**
 * Makes V8 compile a bundle's functions when it compiles the bundle, so that they are in Deno's code cache.
 *
 * V8 compiles a function only on its first call (lazily), and Deno writes a module's code cache right after
 * compiling the module, before any of it runs: a lazily compiled function is compiled again in every process
 * that calls it. The hook is one process per event, and calls most of its bundle: compiling those functions
 * cost it about 3 ms per event (measured over whole `deno run` processes), more than anything else it does.
 * V8 compiles a function at once when it is the whole of a parenthesized expression (its heuristic for a
 * function about to be called), and so Deno caches it. This rewrites esbuild's output so that every function
 * is one:
 *
 * - function and arrow expressions are put in parentheses: `e=>e.x` becomes `(e=>e.x)`;
 * - function declarations in the module's scope or a function body become `var f=(function(…){…});` at the
 *   start of that scope, where the declaration was already bound (hoisting), so every use still finds it.
 *
 * Methods, and declarations in blocks, stay as they are (lazy). Only parentheses and a few `var`s change:
 * nothing is renamed, and nothing is evaluated differently. The code is read by acorn, a full JavaScript
 * parser, so a construct it does not know fails the build instead of producing wrong code.
 */
import { parse } from "acorn";

/** The fields of acorn's nodes this reads; everything else is walked generically. */
interface Node {
  type: string;
  start: number;
  end: number;
  [key: string]: unknown;
}

export class EagerTransformError extends Error {
  override name = "EagerTransformError";
}

const isNode = (value: unknown): value is Node =>
  typeof value === "object" && value !== null && typeof (value as Node).type === "string";

/**
 * A node's child nodes in source order, each once, the larger first where two start together (a shorthand
 * property's key is also, or is inside, its value).
 */
function children(node: Node): Node[] {
  const out = new Set<Node>();
  for (const [key, value] of Object.entries(node)) {
    if (key === "type" || key === "start" || key === "end") continue;
    for (const item of Array.isArray(value) ? value : [value]) if (isNode(item)) out.add(item);
  }
  return [...out].sort((a, b) => a.start - b.start || b.end - a.end);
}

const FUNCTION_EXPRESSIONS = new Set(["FunctionExpression", "ArrowFunctionExpression"]);
const FUNCTIONS = new Set([...FUNCTION_EXPRESSIONS, "FunctionDeclaration"]);

export function eagerFunctions(src: string): string {
  let program: Node;
  try {
    program = parse(src, {
      ecmaVersion: "latest",
      sourceType: "module",
      allowHashBang: true,
      preserveParens: true,
      allowAwaitOutsideFunction: true,
    }) as unknown as Node;
  } catch (error) {
    throw new EagerTransformError(`the bundle cannot be parsed: ${(error as Error).message}`);
  }

  /** A function, the declarations of its body hoisted; `omitted` (its name) left out. */
  const functionText = (fn: Node, omitted?: Node): string => {
    const body = fn.body as Node;
    const head = omitted === undefined
      ? render(fn, fn.start, body.start)
      : render(fn, fn.start, omitted.start) + render(fn, omitted.end, body.start);
    if (body.type !== "BlockStatement") return head + whole(body, fn);
    return `${head}{${scope(body.body as Node[], body.start + 1, body.end - 1)}}`;
  };

  /** A declaration that is hoisted: `var name=(function …);`, its name left out of the expression. */
  const hoisted = (declaration: Node): string => {
    const id = declaration.id as Node;
    return `var ${src.slice(id.start, id.end)}=(${functionText(declaration, id)});`;
  };

  /** The statements of a scope: its function declarations first, as vars, then the rest without them. */
  const scope = (statements: Node[], from: number, to: number): string => {
    const declarations = statements.filter((statement) => statement.type === "FunctionDeclaration");
    let out = declarations.map(hoisted).join("");
    let pos = from;
    for (const statement of statements) {
      out += src.slice(pos, statement.start);
      // An empty statement where a declaration was: the statements around it must not run together.
      out += statement.type === "FunctionDeclaration" ? ";" : whole(statement, undefined);
      pos = statement.end;
    }
    return out + src.slice(pos, to);
  };

  /** The source of `node` between `from` and `to`, its descendants rewritten. */
  const render = (node: Node, from: number, to: number): string => {
    let out = "";
    let pos = from;
    for (const child of children(node)) {
      if (child.end <= from || child.start >= to || child.start < pos) continue;
      out += src.slice(pos, child.start) + whole(child, node);
      pos = child.end;
    }
    return out + src.slice(pos, to);
  };

  /** A whole node rewritten: wrapped when it is a bare function expression, its body's declarations hoisted. */
  const whole = (node: Node, parent: Node | undefined): string => {
    const text = FUNCTIONS.has(node.type) ? functionText(node) : render(node, node.start, node.end);
    const method = parent !== undefined && (
      parent.type === "MethodDefinition" ||
      (parent.type === "Property" && (parent.method === true || parent.kind !== "init"))
    );
    const wrapped = parent?.type === "ParenthesizedExpression";
    return FUNCTION_EXPRESSIONS.has(node.type) && !method && !wrapped ? `(${text})` : text;
  };

  const statements = program.body as Node[];
  const first = statements[0]?.start ?? src.length;
  // A hashbang line stays first.
  return src.slice(0, Math.min(first, hashbangEnd(src))) +
    scope(statements, Math.min(first, hashbangEnd(src)), src.length);
}

/** Where a leading `#!` line ends (0 when there is none). */
function hashbangEnd(src: string): number {
  if (!src.startsWith("#!")) return 0;
  const newline = src.indexOf("\n");
  return newline === -1 ? src.length : newline + 1;
}
