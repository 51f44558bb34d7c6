import { deepStrictEqual as assertEquals, match, ok } from "node:assert/strict";
import { configLocation, MAX_LAYER_BYTES, readLayer, readLayers } from "../lib/config/layers.ts";
import { loadConfig } from "../lib/config/load.ts";
import { VERSION } from "../lib/version.ts";
import { resolveConfig } from "../lib/config/resolve.ts";
import type { Env } from "../lib/paths.ts";
import { fixture, readFixture } from "./helpers.ts";

const layer = (path: string, value: unknown) => ({ path, text: JSON.stringify(value) });
const envOf = (vars: Record<string, string>): Env => (name) => vars[name];

Deno.test("a config written for the original Python hook works unchanged", () => {
  const config = resolveConfig([{ path: "seed.json", text: readFixture("config/seed.json") }], true);
  assertEquals(config.problems, []);
  assertEquals(config.databases.map((d) => [d.name, d.keywords, d.mcpToolName, d.path, d.enabled]), [
    [
      "gitlab",
      ["gitlab", "gl", "gitlab-ci"],
      "mcp__leann__search",
      "/Users/viktor/.leann/databases/gitlab",
      true,
    ],
    [
      "kubernetes",
      ["kubernetes", "k8s", "kubectl"],
      "mcp__leann__search",
      "/Users/viktor/.leann/databases/kubernetes",
      true,
    ],
  ]);
  assertEquals(config.escapeHatchTtlSeconds, 300);
});

Deno.test("extensions are read and normalised", () => {
  const config = resolveConfig([layer("c.json", {
    escape_hatch_ttl_seconds: 60,
    databases: [{
      name: "GitLab Docs",
      keywords: [" gitlab "],
      domains: ["https://Docs.GitLab.com/ee", "*.gitlab.io", "docs.gitlab.com"],
      index_name: "gitlab",
      tool_args: { top_k: 5 },
      mcp_tool_name: "mcp__leann__leann_search",
      enabled: false,
    }],
  })], true);
  assertEquals(config.problems, []);
  const [db] = config.databases;
  assertEquals(db.name, "GitLab Docs");
  assertEquals(db.keywords, ["gitlab"]);
  assertEquals(db.domains, ["docs.gitlab.com", "gitlab.io"]);
  assertEquals(db.indexName, "gitlab");
  assertEquals(db.toolArgs, { top_k: 5 });
  assertEquals(db.enabled, false);
  assertEquals(db.description, "GitLab Docs documentation");
  assertEquals(config.escapeHatchTtlSeconds, 60);
});

Deno.test("one bad database entry is skipped with its JSON path while the valid ones keep working", () => {
  const config = resolveConfig([{ path: "bad.json", text: readFixture("config/one-bad-entry.json") }], true);
  assertEquals(config.databases.map((d) => d.name), ["gitlab"]);
  assertEquals(config.problems.length, 1);
  match(
    config.problems[0],
    /^bad\.json: databases\[0\]\.keywords: .*; database skipped \(fix: use a non-empty list.*"keywords": \[/,
  );
});

Deno.test("invalid JSON is reported with line and column, and the file contributes nothing", () => {
  const text = readFixture("config/invalid-json.json");
  const config = resolveConfig([{ path: "x.json", text }], true);
  assertEquals(config.databases, []);
  assertEquals(config.problems.length, 1);
  match(config.problems[0], /^x\.json: invalid JSON.*line 3/);
  // The slips people make, in words: a comma left before a closing bracket, a name not in double quotes.
  assertEquals(
    resolveConfig([{ path: "y.json", text: '{\n  "databases": [\n    {"name": "a"},\n  ]\n}\n' }], true)
      .problems,
    ["y.json: invalid JSON at line 4, column 3: a comma before the closing bracket, which JSON does not allow"],
  );
  assertEquals(
    resolveConfig([{ path: "z.json", text: "{\n  databases: []\n}\n" }], true).problems,
    ["z.json: invalid JSON at line 2, column 3: a property name in double quotes was expected"],
  );
  // A bare word, placed where it starts (V8 names the token after it); a bad escape where V8 finds it.
  assertEquals(
    resolveConfig([{ path: "w.json", text: '{"enabled": tru}' }], true).problems,
    [
      "w.json: invalid JSON at line 1, column 13: unexpected tru: a value is true, false, null, a number, a " +
      "string in double quotes, an object or a list",
    ],
  );
  assertEquals(
    resolveConfig([{ path: "v.json", text: '{"a": "\\x" "b": 1}' }], true).problems,
    ["v.json: invalid JSON at line 1, column 9: Bad escaped character"],
  );
  // The file's own words "position 1", which V8 quotes in its message, are not the position.
  assertEquals(
    resolveConfig([{ path: "u.json", text: '["position 1", tru]' }], true).problems,
    [
      "u.json: invalid JSON at line 1, column 16: unexpected tru: a value is true, false, null, a number, a " +
      "string in double quotes, an object or a list",
    ],
  );
});

Deno.test("wrong shapes are reported, each with a fix hint", () => {
  const cases: [unknown, RegExp][] = [
    [[1, 2], /\(top level\): expected a JSON object/],
    [{ databases: {} }, /databases: not a list; file skipped \(fix: make it a list/],
    [
      { databases: [{ keywords: [] }] },
      /databases\[0\]\.keywords: .*database skipped \(fix: use a non-empty list/,
    ],
    [{ databases: [{ keywords: [""] }] }, /databases\[0\]\.keywords\[0\]: /],
    [
      { databases: [{ keywords: ["a"], domains: ["not a host"] }] },
      /domains\[0\]: "not a host" is not a hostname/,
    ],
    [{ databases: [{ keywords: ["a"], enabled: "no" }] }, /enabled: .*\(fix: use true or false\)/],
    [{ databases: [{ description: "x" }] }, /databases\[0\]\.name: a database needs a name or keywords/],
    [{ databases: [{ keywords: ["a"] }] }, /databases\[0\]\.mcp_tool_name: database "a" names no MCP tool/],
    [
      { escape_hatch_ttl_seconds: -5 },
      /escape_hatch_ttl_seconds: .*; using 300 seconds \(fix: use a whole number of seconds/,
    ],
    [
      { databases: [{ keywords: ["a"], mcp_tool_name: "t", keyword: ["b"] }] },
      /keyword: unknown field, ignored \(did you mean "keywords"\?\)/,
    ],
    [{ databse: [] }, /databse: unknown field/],
  ];
  for (const [value, expected] of cases) {
    const { problems } = resolveConfig([layer("f.json", value)], true);
    ok(problems.some((p) => expected.test(p)), `${JSON.stringify(value)} → ${JSON.stringify(problems)}`);
    ok(problems.every((p) => p.startsWith("f.json: ")));
  }
});

Deno.test("later layers override databases by name, field by field, and add new ones", () => {
  const config = resolveConfig([
    layer("user.json", {
      escape_hatch_ttl_seconds: 120,
      databases: [
        { keywords: ["gitlab"], mcp_tool_name: "mcp__leann__search", description: "user" },
        { keywords: ["kubernetes"], mcp_tool_name: "mcp__leann__search" },
      ],
    }),
    layer("project.json", {
      databases: [{ name: "GitLab", index_name: "gl-16" }, { keywords: ["vue"], mcp_tool_name: "t" }],
    }),
    layer("local.json", {
      escape_hatch_ttl_seconds: 30,
      databases: [{ name: "kubernetes", enabled: false }],
    }),
  ], false);
  assertEquals(config.problems, []);
  assertEquals(config.databases.map((d) => [d.name, d.indexName, d.description, d.enabled, d.source]), [
    ["GitLab", "gl-16", "user", true, "project.json"],
    ["kubernetes", undefined, "kubernetes documentation", false, "local.json"],
    ["vue", undefined, "vue documentation", true, "project.json"],
  ]);
  assertEquals(config.escapeHatchTtlSeconds, 30);
});

Deno.test("a bad TTL in a later layer keeps the earlier value and says so", () => {
  const config = resolveConfig([
    layer("user.json", { escape_hatch_ttl_seconds: 60 }),
    layer("project.json", { escape_hatch_ttl_seconds: "10" }),
  ], false);
  assertEquals(config.escapeHatchTtlSeconds, 60);
  match(config.problems[0], /^project\.json: escape_hatch_ttl_seconds: .*; using 60 seconds/);
});

Deno.test("within one file, a repeated name is a problem; repeated first keywords of unnamed entries are not", () => {
  const named = resolveConfig([layer("f.json", {
    databases: [
      { name: "docs", keywords: ["a"], mcp_tool_name: "t" },
      { name: "Docs", keywords: ["b"], mcp_tool_name: "u" },
    ],
  })], true);
  assertEquals(named.databases.map((d) => [d.name, d.mcpToolName]), [["docs", "t"]]);
  match(
    named.problems[0],
    /^f\.json: databases\[1\]\.name: duplicate name "Docs" in this file; database skipped/,
  );

  const seedStyle = resolveConfig([layer("seed.json", {
    databases: [
      { keywords: ["gitlab", "ci"], mcp_tool_name: "t" },
      { keywords: ["gitlab", "pages"], mcp_tool_name: "other" },
      { keywords: ["gitlab"], mcp_tool_name: "third" },
    ],
  })], true);
  assertEquals(seedStyle.problems, []);
  assertEquals(seedStyle.databases.map((d) => [d.name, d.mcpToolName]), [
    ["gitlab", "t"],
    ["gitlab-2", "other"],
    ["gitlab-3", "third"],
  ]);
});

Deno.test("an override for a name no earlier layer defines still needs keywords", () => {
  const config = resolveConfig([layer("p.json", { databases: [{ name: "ghost", enabled: false }] })], false);
  assertEquals(config.databases, []);
  match(config.problems[0], /p\.json: databases\[0\]\.keywords: database "ghost" has no keywords/);
});

Deno.test("missing implicit layers are silent; a missing or unreadable explicit file is a problem", () => {
  assertEquals(resolveConfig([{ path: "/nope/a.json" }], false).problems, []);
  match(
    resolveConfig([{ path: "/nope/a.json" }], true).problems[0],
    /\/nope\/a\.json: config file not found/,
  );
  match(
    resolveConfig([{ path: "d", readError: "Is a directory" }], false).problems[0],
    /d: cannot read the file: Is a directory/,
  );
  assertEquals(readLayer(fixture("config")), {
    path: fixture("config"),
    readError: "it is a directory, not a file",
  });
  assertEquals(readLayer("/definitely/not/here.json"), { path: "/definitely/not/here.json" });
});

Deno.test("a layer that is not a regular file, or is over the size cap, is a read error, never read", () => {
  const dir = Deno.makeTempDirSync();
  try {
    const fifo = `${dir}/fifo.json`;
    const mkfifo = new Deno.Command("mkfifo", { args: [fifo] }).outputSync();
    assertEquals(mkfifo.success, true);
    // Opening the FIFO would block this test until killed.
    assertEquals(readLayer(fifo), {
      path: fifo,
      readError: "it is not a regular file (a FIFO, a device or a socket; fix: make it a plain JSON file)",
    });
    Deno.symlinkSync("/dev/zero", `${dir}/zero.json`);
    assertEquals(readLayer(`${dir}/zero.json`).readError, readLayer(fifo).readError);
    const big = `${dir}/big.json`;
    Deno.writeTextFileSync(big, `{"databases": [], "pad": "${"x".repeat(MAX_LAYER_BYTES)}"}`);
    assertEquals(readLayer(big), {
      path: big,
      readError: `it is ${
        Deno.statSync(big).size
      } bytes, over the ${MAX_LAYER_BYTES} a config may hold (fix: trim it)`,
    });
    // A regular file whose size says 0 but whose reads go on for hundreds of GB.
    if (Deno.build.os === "linux") {
      Deno.symlinkSync("/proc/self/pagemap", `${dir}/pagemap.json`);
      // Refused one way or another (past the cap, or the kernel refusing a read of that length), never hung.
      assertEquals(typeof readLayer(`${dir}/pagemap.json`).readError, "string");
    }
    const atCap = `${dir}/at-cap.json`;
    Deno.writeTextFileSync(atCap, `{"pad": "${"x".repeat(MAX_LAYER_BYTES - 11)}"}`);
    assertEquals(readLayer(atCap).text?.length, MAX_LAYER_BYTES);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("lookup layers: a file its folder does not list is missing without an open; listed ones are read", () => {
  const home = Deno.makeTempDirSync();
  try {
    Deno.mkdirSync(`${home}/user/.claude/hooks`, { recursive: true });
    Deno.writeTextFileSync(`${home}/user/.claude/hooks/docsearch-config.json`, "{}");
    Deno.mkdirSync(`${home}/with/.claude/docsearch.local.json`, { recursive: true });
    Deno.writeTextFileSync(`${home}/with/.claude/DocSearch.json`, '{"a": 1}');
    Deno.mkdirSync(`${home}/without`);
    const user = `${home}/user/.claude/hooks/docsearch-config.json`;
    let opened: string[] = [];
    const lookup = (project: string) => {
      opened = [];
      return readLayers({
        explicit: false,
        paths: [user, `${project}/.claude/docsearch.json`, `${project}/.claude/docsearch.local.json`],
      }, (path) => (opened.push(path), readLayer(path)));
    };
    // A project without .claude, and one where a name differs in case (a case-insensitive file system opens
    // it; elsewhere the open decides) or a folder stands in a file's place.
    assertEquals(lookup(`${home}/without`), [
      { path: user, text: "{}" },
      { path: `${home}/without/.claude/docsearch.json` },
      { path: `${home}/without/.claude/docsearch.local.json` },
    ]);
    assertEquals(opened, [user]);
    const withClaude = lookup(`${home}/with`);
    assertEquals(withClaude[2], {
      path: `${home}/with/.claude/docsearch.local.json`,
      readError: "it is a directory, not a file",
    });
    const caseInsensitive = withClaude[1].text !== undefined;
    assertEquals(withClaude[1], {
      path: `${home}/with/.claude/docsearch.json`,
      ...(caseInsensitive ? { text: '{"a": 1}' } : {}),
    });
    assertEquals(opened, [
      user,
      `${home}/with/.claude/docsearch.json`,
      `${home}/with/.claude/docsearch.local.json`,
    ]);
    // A project folder that is not there at all lists nothing: nothing in it is opened.
    assertEquals(lookup(`${home}/gone`).slice(1), [
      { path: `${home}/gone/.claude/docsearch.json` },
      { path: `${home}/gone/.claude/docsearch.local.json` },
    ]);
    assertEquals(opened, [user]);
    // --config names one file, opened as given.
    assertEquals(readLayers({ explicit: true, paths: [`${home}/nope.json`] }), [{
      path: `${home}/nope.json`,
    }]);
  } finally {
    Deno.removeSync(home, { recursive: true });
  }
});

Deno.test("config lookup: --config, then DOCSEARCH_CONFIG, else user then project layers", () => {
  const env = envOf({ HOME: "/home/u", DOCSEARCH_CONFIG: "/etc/ds.json" });
  assertEquals(configLocation("/flag.json", env, "linux", "/p"), { paths: ["/flag.json"], explicit: true });
  assertEquals(configLocation(undefined, env, "linux", "/p"), { paths: ["/etc/ds.json"], explicit: true });
  assertEquals(configLocation(undefined, envOf({ HOME: "/home/u" }), "linux", "/work/p"), {
    paths: [
      "/home/u/.claude/hooks/docsearch-config.json",
      "/work/p/.claude/docsearch.json",
      "/work/p/.claude/docsearch.local.json",
    ],
    explicit: false,
    fromProject: ["/work/p/.claude/docsearch.json", "/work/p/.claude/docsearch.local.json"],
  });
  assertEquals(
    configLocation(undefined, envOf({ HOME: "/home/u", CLAUDE_PROJECT_DIR: "/proj" }), "linux", "/work/p")
      .paths[1],
    "/proj/.claude/docsearch.json",
  );
  assertEquals(configLocation(undefined, envOf({ USERPROFILE: "C:\\Users\\u" }), "windows", "D:\\p").paths, [
    "C:\\Users\\u\\.claude\\hooks\\docsearch-config.json",
    "D:\\p\\.claude\\docsearch.json",
    "D:\\p\\.claude\\docsearch.local.json",
  ]);
});

Deno.test("the validated config is cached and revalidated when a layer's text changes", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const file = `${dir}/c.json`;
    const state = `${dir}/state`;
    const location = { paths: [file], explicit: true };
    Deno.writeTextFileSync(file, JSON.stringify({ databases: [{ keywords: ["a"], mcp_tool_name: "t" }] }));
    const first = await loadConfig(location, state, "linux", 1);
    assertEquals(first.databases.map((d) => d.name), ["a"]);
    const cacheFile = `${state}/config-cache.json`;
    assertEquals(Object.keys(JSON.parse(Deno.readTextFileSync(cacheFile)).entries).length, 1);
    assertEquals(Deno.statSync(cacheFile).mode! & 0o777, 0o600);

    // A hit comes from the cache: doctor the cached copy and see it served.
    const cache = JSON.parse(Deno.readTextFileSync(cacheFile));
    const key = Object.keys(cache.entries)[0];
    cache.entries[key].config.databases[0].name = "from-cache";
    Deno.writeTextFileSync(cacheFile, JSON.stringify(cache));
    assertEquals((await loadConfig(location, state, "linux", 2)).databases[0].name, "from-cache");

    // Any edit misses the cache, and the new text is validated.
    Deno.writeTextFileSync(file, JSON.stringify({ databases: [{ keywords: ["b"], mcp_tool_name: "t" }] }));
    assertEquals((await loadConfig(location, state, "linux", 3)).databases.map((d) => d.name), ["b"]);
    Deno.removeSync(file);
    match((await loadConfig(location, state, "linux", 4)).problems[0], /config file not found/);

    // An entry of another shape (an older build, a hand edit) is a miss, never a crash.
    Deno.writeTextFileSync(file, JSON.stringify({ databases: [{ keywords: ["c"], mcp_tool_name: "t" }] }));
    await loadConfig(location, state, "linux", 5);
    const stale = JSON.parse(Deno.readTextFileSync(cacheFile));
    for (
      const entry of Object.values(stale.entries) as { config: { databases: { domains?: string[] }[] } }[]
    ) {
      for (const db of entry.config.databases) delete db.domains;
    }
    Deno.writeTextFileSync(cacheFile, JSON.stringify(stale));
    assertEquals((await loadConfig(location, state, "linux", 6)).databases[0].domains, []);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("the config cache stamps each layer instead of keeping its text, so a big layer stays out of it", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const file = `${dir}/c.json`;
    const state = `${dir}/state`;
    const location = { paths: [file], explicit: true };
    // A layer of 300,000 characters whose validated config is one small database.
    const padded = `{"databases": [{"keywords": ["a"], "mcp_tool_name": "t"}]${" ".repeat(300000)}}`;
    Deno.writeTextFileSync(file, padded);
    assertEquals((await loadConfig(location, state, "linux", 1)).databases.map((d) => d.name), ["a"]);
    const cacheFile = `${state}/config-cache.json`;
    const size = Deno.statSync(cacheFile).size;
    ok(size < 2000, `cache of ${size} bytes`);
    // Served from the cache while the text is the same (the cached copy doctored to tell), missed on an edit
    // of the same length.
    const cache = JSON.parse(Deno.readTextFileSync(cacheFile));
    const key = Object.keys(cache.entries)[0];
    cache.entries[key].config.databases[0].name = "from-cache";
    Deno.writeTextFileSync(cacheFile, JSON.stringify(cache));
    assertEquals((await loadConfig(location, state, "linux", 2)).databases[0].name, "from-cache");
    Deno.writeTextFileSync(file, padded.replace('"a"', '"b"'));
    assertEquals((await loadConfig(location, state, "linux", 3)).databases.map((d) => d.name), ["b"]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a cache written before validation refused backtracking patterns is a miss: the hook never gets one", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const file = `${dir}/c.json`;
    const state = `${dir}/state`;
    const location = { paths: [file], explicit: true };
    Deno.writeTextFileSync(file, JSON.stringify({ capture: { redact_patterns: ["(a+)+$", "TICKET-\\d+"] } }));
    const checked = await loadConfig(location, state, "linux", 1);
    assertEquals(checked.capture.redactPatterns.map((rule) => rule.pattern), ["TICKET-\\d+"]);
    // As this program's version wrote it before the check: the same text, the pattern kept.
    const cacheFile = `${state}/config-cache.json`;
    const cache = JSON.parse(Deno.readTextFileSync(cacheFile));
    const [entry] = Object.values(cache.entries) as { config: { capture: { redactPatterns: unknown[] } } }[];
    entry.config.capture.redactPatterns.unshift({ pattern: "(a+)+$", category: "custom", ignoreCase: false });
    Deno.writeTextFileSync(cacheFile, JSON.stringify({ ...cache, version: VERSION }));
    const again = await loadConfig(location, state, "linux", 2);
    assertEquals(again.capture.redactPatterns.map((rule) => rule.pattern), ["TICKET-\\d+"]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a corrupt or unwritable cache only costs a revalidation", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const file = `${dir}/c.json`;
    Deno.writeTextFileSync(file, JSON.stringify({ databases: [{ keywords: ["a"], mcp_tool_name: "t" }] }));
    Deno.mkdirSync(`${dir}/state`);
    Deno.writeTextFileSync(`${dir}/state/config-cache.json`, "{not json");
    const location = { paths: [file], explicit: true };
    assertEquals((await loadConfig(location, `${dir}/state`, "linux", 1)).databases.length, 1);
    // A file where the state directory should be: nothing can be cached, the config still loads.
    Deno.writeTextFileSync(`${dir}/blocker`, "");
    assertEquals((await loadConfig(location, `${dir}/blocker/state`, "linux", 1)).databases.length, 1);
    assertEquals((await loadConfig(location, undefined, "linux", 1)).databases.length, 1);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("capture: defaults, switches overridden by later layers, lists adding up", () => {
  assertEquals(resolveConfig([], false).capture, {
    enabled: true,
    retentionDays: 30,
    skipTools: [],
    redactPatterns: [],
    excludeFiles: [],
  });
  const config = resolveConfig([
    layer("user.json", {
      capture: { retention_days: 10, skip_tools: ["TodoWrite"], redact_patterns: ["corp-\\d{6}"] },
    }),
    layer("project.json", {
      capture: {
        enabled: false,
        skip_tools: ["mcp__github__*"],
        redact_patterns: [{ pattern: "acme", category: "customer", ignore_case: true }],
        exclude_files: ["*.tfvars"],
      },
    }),
  ], false);
  assertEquals(config.problems, []);
  assertEquals(config.capture, {
    enabled: false,
    retentionDays: 10,
    skipTools: ["TodoWrite", "mcp__github__*"],
    redactPatterns: [
      { pattern: "corp-\\d{6}", category: "custom", ignoreCase: false },
      { pattern: "acme", category: "customer", ignoreCase: true },
    ],
    excludeFiles: ["*.tfvars"],
  });
});

Deno.test("capture: an invalid pattern is reported with its JSON path and skipped; the others keep working", () => {
  const config = resolveConfig([layer("c.json", {
    capture: { redact_patterns: ["ok-\\d+", "broken(", { pattern: "x", category: "Bad Category" }], nope: 1 },
  })], true);
  assertEquals(config.capture.redactPatterns.map((r) => r.pattern), ["ok-\\d+"]);
  assertEquals(config.problems.length, 3);
  match(config.problems[0], /^c\.json: capture\.nope: unknown field, ignored/);
  match(
    config.problems[1],
    /^c\.json: capture\.redact_patterns\[1\]: not a valid regular expression: .*pattern skipped \(fix: /,
  );
  match(config.problems[2], /^c\.json: capture\.redact_patterns\[2\]\.category: .*pattern skipped/);
  const wrong = resolveConfig([layer("w.json", { capture: { retention_days: 0 } })], true);
  match(
    wrong.problems[0],
    /^w\.json: capture\.retention_days: .*capture section ignored \(fix: use a whole number of days/,
  );
  assertEquals(wrong.capture.retentionDays, 30);
});

Deno.test("capture: a layer adds at most 32 patterns; the rest is one problem at the first skipped, with a fix", () => {
  // A cloned project's layer with 20,000 harmless patterns: every event would compile and run them all.
  const many = Array.from({ length: 20000 }, (_, i) => `corp${i}[0-9]{6}`);
  const config = resolveConfig([
    layer("user.json", { capture: { redact_patterns: ["mine-\\d+"] } }),
    { ...layer("p.json", { capture: { redact_patterns: many } }), project: true },
  ], false);
  const patterns = config.capture.redactPatterns.map((rule) => rule.pattern);
  assertEquals(patterns.length, 33);
  assertEquals([patterns[0], patterns[1], patterns[32]], ["mine-\\d+", "corp0[0-9]{6}", "corp31[0-9]{6}"]);
  assertEquals(config.problems, [
    "p.json: capture.redact_patterns[32]: 20000 patterns, over the 32 a layer may add; the 19968 from here on " +
    'skipped (fix: keep the ones that matter, or join alternatives into one pattern, e.g. "(?:corp|acme)-[0-9]{6}")',
  ]);
  // The cap is per layer: another layer adds its own 32.
  const two = resolveConfig([
    layer("a.json", { capture: { redact_patterns: many } }),
    layer("b.json", { capture: { redact_patterns: many.slice(0, 32) } }),
  ], false);
  assertEquals(two.capture.redactPatterns.length, 64);
  assertEquals(two.problems.length, 1);
});

Deno.test("capture: a layer's patterns hold at most 2000 characters; the first past it and the rest are skipped", () => {
  // Seven patterns of 400 characters: five fit exactly, the sixth goes over.
  const long = Array.from({ length: 7 }, (_, i) => `${i}${"x".repeat(399)}`);
  const config = resolveConfig(
    [layer("c.json", { capture: { redact_patterns: ["broken(", ...long] } })],
    true,
  );
  assertEquals(config.capture.redactPatterns.map((rule) => rule.pattern[0]), ["0", "1", "2", "3", "4"]);
  assertEquals(config.problems.length, 2);
  match(config.problems[0], /^c\.json: capture\.redact_patterns\[0\]: not a valid regular expression/);
  assertEquals(
    config.problems[1],
    "c.json: capture.redact_patterns[6]: the patterns up to here hold 2400 characters, over the 2000 a layer's " +
      "may hold together; this one and the 1 after it skipped (fix: keep the ones that matter, or join " +
      'alternatives into one pattern, e.g. "(?:corp|acme)-[0-9]{6}")',
  );
});

Deno.test("context: defaults, each layer overriding what it sets, bad values reported with a fix", () => {
  assertEquals(resolveConfig([], false).context, {
    enabled: true,
    maxChars: 1500,
    sessionStart: true,
    userPrompt: true,
  });
  const config = resolveConfig([
    layer("user.json", { context: { max_chars: 800, user_prompt: false } }),
    layer("project.json", { context: { session_start: false } }),
  ], false);
  assertEquals(config.problems, []);
  assertEquals(config.context, { enabled: true, maxChars: 800, sessionStart: false, userPrompt: false });
  const wrong = resolveConfig([layer("w.json", { context: { max_chars: 50, enabeld: false } })], true);
  match(
    wrong.problems[0],
    /^w\.json: context\.max_chars: .*context section ignored \(fix: use a whole number of characters/,
  );
  assertEquals(wrong.context.maxChars, 1500);
  const typo = resolveConfig([layer("t.json", { context: { enabeld: false } })], true);
  match(typo.problems[0], /^t\.json: context\.enabeld: unknown field, ignored/);
});

Deno.test("dependency_docs.fetch: a project's layers turn it off, never on against the user's setting; an explicit config is the user's", () => {
  const project = (path: string, value: unknown) => ({ ...layer(path, value), project: true });
  const userOff = layer("user.json", { dependency_docs: { fetch: false } });
  const forced = resolveConfig([
    userOff,
    project("p/.claude/docsearch.json", { dependency_docs: { fetch: true } }),
  ], false);
  assertEquals(forced.dependencyDocs.fetch, false);
  match(
    forced.problems[0],
    /^p\/\.claude\/docsearch\.json: dependency_docs\.fetch: a project's config can turn fetching off, not on; ignored/,
  );
  // The local layer comes with a clone as well.
  assertEquals(
    resolveConfig(
      [userOff, project("p/.claude/docsearch.local.json", { dependency_docs: { fetch: true } })],
      false,
    )
      .dependencyDocs.fetch,
    false,
  );
  const projectOff = resolveConfig([
    layer("user.json", { dependency_docs: { fetch: true } }),
    project("p/.claude/docsearch.json", { dependency_docs: { fetch: false } }),
  ], false);
  assertEquals([projectOff.problems, projectOff.dependencyDocs.fetch], [[], false]);
  // With the user's default (on), a project saying on changes nothing and is no problem.
  const agrees = resolveConfig(
    [project("p/.claude/docsearch.json", { dependency_docs: { fetch: true } })],
    false,
  );
  assertEquals([agrees.problems, agrees.dependencyDocs.fetch], [[], true]);
  // The user's own layer may turn it back on over an earlier one of theirs, as --config may.
  assertEquals(
    resolveConfig([userOff, layer("flag.json", { dependency_docs: { fetch: true } })], true).dependencyDocs
      .fetch,
    true,
  );
});

Deno.test("readLayers marks the project's layers", () => {
  const location = configLocation(
    undefined,
    (name) => ({ HOME: "/home/u" } as Record<string, string>)[name],
    "linux",
    "/work/p",
  );
  const layers = readLayers(location, (path) => ({ path }));
  assertEquals(layers.map((l) => [l.path, l.project]), [
    ["/home/u/.claude/hooks/docsearch-config.json", undefined],
    ["/work/p/.claude/docsearch.json", true],
    ["/work/p/.claude/docsearch.local.json", true],
  ]);
});

Deno.test("dependency_docs: on by default, a project's layer turning it off, bad values reported with a fix", () => {
  assertEquals(resolveConfig([], false).dependencyDocs, { auto: true, fetch: true });
  const off = resolveConfig([
    layer("user.json", { dependency_docs: { auto: true } }),
    layer("project.json", { dependency_docs: { auto: false } }),
  ], false);
  assertEquals([off.problems, off.dependencyDocs], [[], { auto: false, fetch: true }]);
  // A layer that does not set it leaves the earlier one's.
  assertEquals(
    resolveConfig([layer("u.json", { dependency_docs: { auto: false } }), layer("p.json", {})], false)
      .dependencyDocs,
    { auto: false, fetch: true },
  );
  const wrong = resolveConfig([layer("w.json", { dependency_docs: { auto: "no" } })], true);
  match(
    wrong.problems[0],
    /^w\.json: dependency_docs\.auto: .*dependency_docs section ignored \(fix: use true or false/,
  );
  assertEquals(wrong.dependencyDocs, { auto: true, fetch: true });
  const notObject = resolveConfig([layer("n.json", { dependency_docs: false })], true);
  match(
    notObject.problems[0],
    /^n\.json: dependency_docs: .*\(fix: use an object, e\.g\. "dependency_docs": /,
  );
  const typo = resolveConfig([layer("t.json", { dependency_docs: { automatic: false } })], true);
  match(
    typo.problems[0],
    /^t\.json: dependency_docs\.automatic: unknown field, ignored \(did you mean "auto"\?\)/,
  );
});

Deno.test("fetch_tools: defaults, a later layer's list replacing the earlier one, bad entries skipped with a fix", () => {
  const defaults = resolveConfig([], false).fetchTools;
  ok(defaults.includes("Bash") && defaults.includes("mcp__*__fetch"), defaults.join());
  const config = resolveConfig([
    layer("user.json", { fetch_tools: ["Bash", "mcp__fetch__fetch"] }),
    layer("project.json", { fetch_tools: ["mcp__*__browser_navigate", "mcp__*__browser_navigate"] }),
  ], false);
  assertEquals(config.problems, []);
  assertEquals(config.fetchTools, ["mcp__*__browser_navigate"]);
  assertEquals(resolveConfig([layer("off.json", { fetch_tools: [] })], true).fetchTools, []);

  const wrong = resolveConfig([layer("w.json", { fetch_tools: ["Bash", 3, "mcp fetch", ""] })], true);
  assertEquals(wrong.fetchTools, ["Bash"]);
  assertEquals(wrong.problems.length, 3);
  match(
    wrong.problems[0],
    /^w\.json: fetch_tools\[1\]: .*; tool skipped \(fix: use a list of tool names, \* for any/,
  );
  match(wrong.problems[1], /^w\.json: fetch_tools\[2\]: not a tool name .*; tool skipped/);
  const notList = resolveConfig([
    layer("user.json", { fetch_tools: ["Bash"] }),
    layer("p.json", { fetch_tools: "Bash" }),
  ], true);
  assertEquals(notList.fetchTools, ["Bash"]);
  match(notList.problems[0], /^p\.json: fetch_tools: not a list; setting ignored \(fix: /);
  const typo = resolveConfig([layer("t.json", { fetch_tool: ["Bash"] })], true);
  match(typo.problems[0], /^t\.json: fetch_tool: unknown field, ignored \(did you mean "fetch_tools"\?\)/);
});

Deno.test("a cached config from a build without fetch_tools is a miss, so the hook always has the list", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const file = `${dir}/c.json`;
    const state = `${dir}/state`;
    const location = { paths: [file], explicit: true };
    Deno.writeTextFileSync(file, JSON.stringify({ fetch_tools: ["mcp__fetch__fetch"] }));
    assertEquals((await loadConfig(location, state, "linux", 1)).fetchTools, ["mcp__fetch__fetch"]);
    const cacheFile = `${state}/config-cache.json`;
    const cache = JSON.parse(Deno.readTextFileSync(cacheFile));
    const [entry] = Object.values(cache.entries) as { config: { fetchTools?: string[] } }[];
    delete entry.config.fetchTools;
    Deno.writeTextFileSync(cacheFile, JSON.stringify(cache));
    assertEquals((await loadConfig(location, state, "linux", 2)).fetchTools, ["mcp__fetch__fetch"]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
