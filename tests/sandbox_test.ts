/** The test sandbox itself: a subprocess under it reaches the registries as the test process does. */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { networkEnv, runProgram, sandbox } from "./helpers.ts";

Deno.test("networkEnv: the TLS and proxy variables that are set, and only those", () => {
  const parent: Record<string, string> = {
    SSL_CERT_FILE: "/etc/corp-ca.pem",
    DENO_TLS_CA_STORE: "mozilla,system",
    HTTPS_PROXY: "http://proxy.internal:3128",
    NO_PROXY: "localhost,127.0.0.1",
    HOME: "/home/me",
    ANTHROPIC_API_KEY: "not passed",
  };
  assertEquals(networkEnv((name) => parent[name]), {
    SSL_CERT_FILE: "/etc/corp-ca.pem",
    DENO_TLS_CA_STORE: "mozilla,system",
    HTTPS_PROXY: "http://proxy.internal:3128",
    NO_PROXY: "localhost,127.0.0.1",
  });
});

Deno.test("a sandboxed subprocess sees the parent's TLS and proxy variables, nothing else of its environment", async () => {
  // A parent environment of the test's own, this process's with a proxy exception and a variable added: the
  // process's environment is left as it is, for the tests running beside this one.
  const value = "localhost,127.0.0.1,sandbox-test.invalid";
  const added: Record<string, string> = { NO_PROXY: value, DOCSEARCH_SANDBOX_TEST_LEAK: "1" };
  const parent = (name: string) => added[name] ?? Deno.env.get(name);
  await using box = await sandbox({}, parent);
  const result = await runProgram(
    Deno.execPath(),
    [
      "eval",
      "console.log(JSON.stringify([Deno.env.get('NO_PROXY'), Deno.env.get('DOCSEARCH_SANDBOX_TEST_LEAK') ?? null, Deno.env.get('SSL_CERT_FILE') ?? null]))",
    ],
    { env: box.env },
  );
  assertEquals(result.code, 0, result.stderr);
  assertEquals(JSON.parse(result.stdout), [value, null, Deno.env.get("SSL_CERT_FILE") ?? null]);
});
