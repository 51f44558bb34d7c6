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
  // NO_PROXY only narrows what a proxy would carry: setting it cannot change another test's traffic.
  const before = Deno.env.get("NO_PROXY");
  const value = `${before ? `${before},` : ""}localhost,127.0.0.1,sandbox-test.invalid`;
  Deno.env.set("NO_PROXY", value);
  Deno.env.set("DOCSEARCH_SANDBOX_TEST_LEAK", "1");
  try {
    await using box = await sandbox();
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
  } finally {
    if (before === undefined) Deno.env.delete("NO_PROXY");
    else Deno.env.set("NO_PROXY", before);
    Deno.env.delete("DOCSEARCH_SANDBOX_TEST_LEAK");
  }
});
