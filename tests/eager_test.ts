/** The build's rewrite of the bundle into functions V8 compiles with it (lib/build/eager.ts). */
import { deepStrictEqual as assertEquals, ok, throws } from "node:assert/strict";
import { eagerFunctions, EagerTransformError } from "../lib/build/eager.ts";
import { withDir } from "./helpers.ts";

/**
 * Code as esbuild prints it, using what the rewrite must get right; it leaves its result in globalThis.__eager
 * and writes no other global, so that a run cannot read what an earlier one left.
 */
const SAMPLE = [
  "#!/usr/bin/env -S deno run -A",
  // Called before its declaration, and a declaration in a function body called before its own.
  "var early=later(2);",
  "function later(e){return inner(e)*2;function inner(t){return t+1}}",
  "async function fetchIt(e){return e}",
  "function*gen(){yield 1;yield 2}",
  // Arrow bodies ending at `,`, at a ternary's `:`, inside a template and a call; regexes and division.
  "var f=e=>e?1:2,g=(e,t)=>({a:e,b:t}),h=async e=>await e,r=/[}/]+/g,q=e=>`${e.map(t=>t*2).join(`${1/2}`)}`;",
  "var pick=e=>e>1?(t=>t+1):t=>t-1;",
  "var obj={m(e){return e+1},k:function(e){return e*3},n:(e)=>e};",
  "var block;if(early){function blockScoped(){return 7}block=blockScoped()}",
  "var cls=class extends Error{name='X';m(){return(e=>e+1)(1)}};",
  "var s=`a${`b${'c'}`}d`;",
  "globalThis.__eager={early,f:[f(0),f(1)],g:g(1,2),r:'a}}/b'.replace(r,'-'),q:q([1,2]),pick:[pick(2)(1),pick(0)(1)],",
  "obj:[obj.m(1),obj.k(2),obj.n(3)],block,cls:new cls().m(),s,gen:[...gen()],names:[later.name,fetchIt.name,f.name],",
  "h:await h(5),fetched:await fetchIt(6),div:4/2/1};",
].join("\n");

/** What `code` leaves in globalThis.__eager, run as a module; cleared first, so it is this run's or none. */
async function run(code: string, dir: string, name: string): Promise<unknown> {
  const file = `${dir}/${name}.js`;
  await Deno.writeTextFile(file, code);
  const global = globalThis as { __eager?: unknown };
  delete global.__eager;
  await import(`file://${file}`);
  ok("__eager" in global, `${name}.js did not set globalThis.__eager`);
  return global.__eager;
}

Deno.test("eagerFunctions: the rewritten code does what the original does", async () => {
  const rewritten = eagerFunctions(SAMPLE);
  await withDir(async (dir) => {
    const before = await run(SAMPLE, dir, "original");
    const after = await run(rewritten, dir, "rewritten");
    assertEquals(after, before);
  });
});

Deno.test("eagerFunctions: functions are parenthesized, declarations hoisted to their scope's start", () => {
  const rewritten = eagerFunctions(SAMPLE);
  ok(rewritten.startsWith("#!/usr/bin/env -S deno run -A\nvar later=(function (e){var inner=(function (t){"));
  ok(rewritten.includes("var f=(e=>e?1:2),g=((e,t)=>({a:e,b:t})),h=(async e=>await e)"));
  // One already in parentheses is not wrapped again.
  ok(rewritten.includes("var pick=(e=>e>1?(t=>t+1):(t=>t-1));"));
  ok(rewritten.includes("k:(function(e){return e*3})"));
  // A declaration in a block, methods and class members stay as they were.
  ok(rewritten.includes("if(early){function blockScoped(){return 7}"));
  ok(rewritten.includes("var obj={m(e){return e+1}"));
  ok(rewritten.includes("m(){return(e=>e+1)(1)}"));
});

Deno.test("eagerFunctions: what it cannot read fails the build", () => {
  throws(() => eagerFunctions("var a=`x${1"), EagerTransformError);
  throws(() => eagerFunctions("var a=(1;"), EagerTransformError);
});

Deno.test("eagerFunctions: a declaration taken out leaves its statements apart (no semicolon insertion across it)", async () => {
  const code = "var a=1\nfunction f(){return 2}\n(globalThis.__eager={a,f:f()})";
  const rewritten = eagerFunctions(code);
  await withDir(async (dir) => {
    assertEquals(await run(rewritten, dir, "asi"), { a: 1, f: 2 });
  });
});
