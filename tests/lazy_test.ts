import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { lazily } from "../lib/lazy.ts";

Deno.test("lazily: nothing is made before the first use, and it is made once", () => {
  let made = 0;
  const value = lazily(() => ({ made: ++made }));
  assertEquals(made, 0);
  const first = value();
  assertEquals([made, value() === first], [1, true]);
});

Deno.test("lazily: a value that is undefined is still made only once", () => {
  let made = 0;
  const value = lazily(() => void made++);
  value();
  value();
  assertEquals(made, 1);
});
