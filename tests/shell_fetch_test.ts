/**
 * Web requests that go around the redirect: page reads in Bash (curl, wget, HTTPie, xh) and MCP fetch and browser
 * tools. Precision first: two lists of realistic commands that name a covered docs host, one that must be
 * denied and one that never may.
 */
import { deepStrictEqual as assertEquals, match, ok } from "node:assert/strict";
import { DEFAULT_FETCH_TOOLS } from "../lib/config/types.ts";
import { urlPath } from "../lib/match/domains.ts";
import { matchRequest } from "../lib/match/match.ts";
import { registrationsFor } from "../lib/protocol/events.ts";
import { buildDenial, takesRequest } from "../lib/redirect/decide.ts";
import { localQuery } from "../lib/redirect/guidance.ts";
import {
  requestIdentity,
  requestTarget,
  toolPatternMatches,
  type WebRequest,
  webRequestFrom,
} from "../lib/redirect/request.ts";
import { shellFetchUrls } from "../lib/redirect/shell_fetch.ts";
import { MAX_TOKENS } from "../lib/shell/read.ts";
import {
  BASH_CONDITIONS,
  config,
  database,
  PAGE_TOOLS_MATCHER,
  readFixture,
  WEB_TOOLS_MATCHER,
} from "./helpers.ts";

const gitlab = database({
  name: "gitlab",
  keywords: ["gitlab"],
  domains: ["docs.gitlab.com"],
  indexName: "gitlab",
  mcpToolName: "mcp__leann__leann_search",
  description: "GitLab documentation",
});
const kubernetes = database({ name: "kubernetes", keywords: ["k8s"], domains: ["kubernetes.io"] });
const dotnet = database({ name: "dotnet", keywords: [".net"], domains: ["learn.microsoft.com"] });
const github = database({ name: "github", domains: ["github.com"] });
const docs = config([gitlab, kubernetes, dotnet, github]);

const bash = (command: string) => webRequestFrom("Bash", { command, description: "read the docs" });

/** Each with the pages it reads, in order. */
const DENIED: [string, string[]][] = [
  ["curl -s https://docs.gitlab.com/ee/ci/runners/", ["https://docs.gitlab.com/ee/ci/runners/"]],
  // A scheme in capitals, or none: curl and wget read them over http(s) all the same.
  ["curl -s HTTPS://docs.gitlab.com/ee/ci/runners/", ["HTTPS://docs.gitlab.com/ee/ci/runners/"]],
  ["curl -sL docs.gitlab.com/ee/ci/runners/", ["http://docs.gitlab.com/ee/ci/runners/"]],
  ["wget -qO- docs.gitlab.com/ee/ci/yaml/", ["http://docs.gitlab.com/ee/ci/yaml/"]],
  ["curl -s --url docs.gitlab.com:443/ee/ci/", ["http://docs.gitlab.com:443/ee/ci/"]],
  // A proxy's host is an option's value, not a page.
  [
    "curl -s --socks5-hostname proxy.corp.com:1080 https://docs.gitlab.com/ee/ci/",
    ["https://docs.gitlab.com/ee/ci/"],
  ],
  ['curl -sL "https://docs.gitlab.com/ee/ci/yaml/#rules" | head -200', [
    "https://docs.gitlab.com/ee/ci/yaml/#rules",
  ]],
  [
    'curl -s https://kubernetes.io/docs/concepts/workloads/pods/ | html2text | grep -i -A5 "init container"',
    ["https://kubernetes.io/docs/concepts/workloads/pods/"],
  ],
  [
    "curl -s https://kubernetes.io/docs/reference/kubectl/ | sed 's/<[^>]*>//g' | grep -v '^\\s*$' | head -80",
    ["https://kubernetes.io/docs/reference/kubectl/"],
  ],
  [
    "wget -qO- https://learn.microsoft.com/en-us/dotnet/csharp/linq/ | pandoc -f html -t plain | less",
    ["https://learn.microsoft.com/en-us/dotnet/csharp/linq/"],
  ],
  [
    'wget -q -O - "https://docs.gitlab.com/runner/register/" 2>/dev/null | grep -o "gitlab-runner register[^<]*"',
    ["https://docs.gitlab.com/runner/register/"],
  ],
  [
    'cd /tmp && curl -sSL -o runners.html https://docs.gitlab.com/ee/ci/runners/ && grep -n "tags" runners.html',
    ["https://docs.gitlab.com/ee/ci/runners/"],
  ],
  ["curl -s https://docs.gitlab.com/ee/api/rest/ > /tmp/rest.md", ["https://docs.gitlab.com/ee/api/rest/"]],
  ["wget https://docs.gitlab.com/ee/ci/pipelines/index.html", [
    "https://docs.gitlab.com/ee/ci/pipelines/index.html",
  ]],
  ["http --follow docs.gitlab.com/ee/ci/variables/", ["http://docs.gitlab.com/ee/ci/variables/"]],
  ["https kubernetes.io/docs/tasks/ | head", ["https://kubernetes.io/docs/tasks/"]],
  [
    "xh get https://learn.microsoft.com/en-us/aspnet/core/fundamentals/ Accept:text/html | head -50",
    ["https://learn.microsoft.com/en-us/aspnet/core/fundamentals/"],
  ],
  [
    'timeout 20 curl --compressed -A "Mozilla/5.0" -s https://kubernetes.io/docs/home/',
    ["https://kubernetes.io/docs/home/"],
  ],
  [
    "LANG=C curl -s 'https://learn.microsoft.com/en-us/dotnet/api/system.string?view=net-8.0' | grep -o '<title>[^<]*'",
    ["https://learn.microsoft.com/en-us/dotnet/api/system.string?view=net-8.0"],
  ],
  [
    "curl -s https://docs.gitlab.com/ee/ci/ https://docs.gitlab.com/ee/ci/yaml/ | head",
    ["https://docs.gitlab.com/ee/ci/", "https://docs.gitlab.com/ee/ci/yaml/"],
  ],
  ["curl -s https://docs.gitlab.com/llms.txt  # the index of the docs", ["https://docs.gitlab.com/llms.txt"]],
  ["curl -s https://eu.docs.gitlab.com/ee/ci/ \\\n  | head -40", ["https://eu.docs.gitlab.com/ee/ci/"]],
  ["curl -X GET -H 'Accept: text/html' https://docs.gitlab.com/ee/ci/", ["https://docs.gitlab.com/ee/ci/"]],
  // A browser's Accept names XML beside HTML; sed without -i only filters.
  [
    "curl -s -H 'Accept: text/html,application/xhtml+xml,application/xml;q=0.9' https://docs.gitlab.com/ee/ci/ | sed -n -e '/<h1/,/h1>/p'",
    ["https://docs.gitlab.com/ee/ci/"],
  ],
  ["curl -s https://github.com/denoland/deno/releases | sed -E 's/<[^>]+>//g' | head", [
    "https://github.com/denoland/deno/releases",
  ]],
];

/** Each names a covered docs host, and none only reads a page of it. */
const NEVER_DENIED = [
  // The URL is only mentioned.
  'echo "See https://docs.gitlab.com/ee/ci/runners/ for details" >> NOTES.md',
  "sed -i 's#https://docs.gitlab.com/ee/#https://docs.gitlab.com/#g' README.md",
  "ls # curl -s https://kubernetes.io/docs/",
  'git commit -m "Link https://docs.gitlab.com/ee/ci/ in the README"',
  "git clone https://docs.gitlab.com/gitlab-org/gitlab-docs.git",
  "kubectl apply -f https://kubernetes.io/examples/application/deployment.yaml",
  "grep -rn 'https://kubernetes.io/docs' docs/",
  // An API call: JSON into jq or python, data, a method, credentials.
  "curl -s https://kubernetes.io/docs/reference/generated/kubernetes-api/v1.29/swagger.json | jq '.paths | keys'",
  'curl -s "https://learn.microsoft.com/api/search?search=linq&locale=en-us" | jq ".results[0]"',
  "curl -s https://docs.gitlab.com/ee/ci/ | python3 -c 'import sys; print(len(sys.stdin.read()))'",
  `curl -X POST https://learn.microsoft.com/api/feedback -H 'Content-Type: application/json' -d '{"helpful": true}'`,
  'curl --json \'{"q": "runner"}\' https://docs.gitlab.com/search',
  "curl -s -H 'PRIVATE-TOKEN: glpat-xxxxxxxxxxxxxxxxxxxx' https://docs.gitlab.com/api/v4/projects",
  'curl -s -H "Authorization: Bearer $TOKEN" https://docs.gitlab.com/ee/ci/',
  "curl -u admin:secret https://docs.gitlab.com/ee/",
  "curl -b session=abc https://docs.gitlab.com/ee/",
  "curl -X DELETE https://docs.gitlab.com/ee/ci/",
  "https POST learn.microsoft.com/api/feedback helpful:=true",
  "http docs.gitlab.com/search q=runner",
  "http -a user:pass docs.gitlab.com/ee/",
  "wget --post-data 'q=runner' https://docs.gitlab.com/search",
  "wget --header='Authorization: token abc' https://docs.gitlab.com/ee/",
  // An API by its host or path, or asked for JSON or XML.
  "curl -s https://api.github.com/repos/denoland/deno/releases/latest | grep tag_name",
  "curl -s -H 'Accept: application/json' https://docs.gitlab.com/api/v4/version",
  "curl -s https://docs.gitlab.com/api/v4/version",
  "curl -s https://docs.gitlab.com/search/api/v1/search | head",
  "curl -s -H 'Accept: application/json' https://docs.gitlab.com/ee/ci/",
  "curl -s --header 'Content-Type: application/xml' https://docs.gitlab.com/ee/ci/ | head",
  "wget -qO- --header='Accept: application/vnd.github+json' https://github.com/denoland/deno/releases",
  "http docs.gitlab.com/ee/ci/ Accept:application/json",
  "xh https://github.com/denoland/deno/releases accept:application/xml | head",
  // A download: a release file, a tarball, an image, a script, data, an installer run by a shell.
  "curl -s https://kubernetes.io/docs/reference/generated/kubernetes-api/v1.29/swagger.json",
  "curl -sL https://docs.gitlab.com/runner/install/linux-repository.sh | less",
  "wget -qO- https://docs.gitlab.com/ee/api/openapi/openapi.yaml | head -50",
  "curl -fsSL https://docs.gitlab.com/runner/install/linux-repository.sh | sudo bash",
  "curl -sSf https://kubernetes.io/install | sh",
  "curl -LO https://kubernetes.io/releases/kubectl-linux-amd64.tar.gz",
  'curl -L -o gitlab-runner.deb "https://docs.gitlab.com/runner/packages/gitlab-runner_amd64.deb"',
  "curl -s https://docs.gitlab.com/ee/ci/ -o page.out",
  "curl -s https://docs.gitlab.com/ee/ci/ > page.bin",
  "curl -s -o runner.pdf https://docs.gitlab.com/ee/runner.pdf",
  "wget https://kubernetes.io/images/kubernetes-horizontal-color.png",
  "wget -c https://docs.gitlab.com/ee/ci/",
  "curl -s https://kubernetes.io/docs/home/ | tar xz",
  // A link or header check, a mirror.
  "curl -sI https://docs.gitlab.com/ee/ci/ | head -1",
  'curl -s -o /dev/null -w "%{http_code}\\n" https://kubernetes.io/docs/home/',
  "curl -s https://kubernetes.io/docs/home/ &>/dev/null",
  "wget --spider https://docs.gitlab.com/ee/ci/",
  "wget -r -np -k https://docs.gitlab.com/ee/ci/",
  "http --headers docs.gitlab.com/ee/ci/",
  // The transfer inspected (headers, redirects, a trace, a status written out), not the page read.
  "curl -v https://docs.gitlab.com/runner/ 2>&1 | grep -i location",
  "curl -s --verbose https://docs.gitlab.com/runner/ 2>&1 | head -30",
  "curl -sL --trace-ascii - https://docs.gitlab.com/ee/ci/ | head",
  "curl -sL -w '%{url_effective}\\n' https://docs.gitlab.com/runner/",
  "wget -S -qO- https://docs.gitlab.com/runner/ 2>&1 | grep -i location",
  "http -v docs.gitlab.com/runner/",
  // More than a read: builds, installs, other programs, or syntax whose effect is not seen here.
  "curl -s https://docs.gitlab.com/ee/ci/ > page.html && npm run build",
  "npm install && curl -s https://docs.gitlab.com/ee/ci/",
  'DOCS=$(curl -s https://docs.gitlab.com/ee/ci/) && echo "$DOCS" | head',
  'for u in https://docs.gitlab.com/ee/ci/ https://docs.gitlab.com/ee/api/; do curl -s "$u"; done',
  "curl -s https://docs.gitlab.com/ee/ci/$SECTION/",
  "cat <<'EOF' > links.txt\nhttps://docs.gitlab.com/ee/ci/\nEOF",
  "docker run --rm curlimages/curl -s https://docs.gitlab.com/ee/ci/",
  'ssh build-host "curl -s https://docs.gitlab.com/ee/ci/"',
  "sudo curl -s https://docs.gitlab.com/ee/ci/",
  "(cd /tmp && curl -s https://docs.gitlab.com/ee/ci/)",
  "curl -K requests.cfg https://docs.gitlab.com/ee/ci/",
  "curl -s https://docs.gitlab.com/ee/ci/ | xargs -n1 echo",
  // sed that edits files, and awk, which can run commands (system()) and write files.
  "curl -s https://docs.gitlab.com/ee/ci/ > ci.html && sed -i 's/foo/bar/' ci.html",
  "curl -s -o ci.md https://docs.gitlab.com/ee/ci/; sed -ni.bak '1,20p' ci.md",
  "curl -s https://docs.gitlab.com/ee/ci/ > ci.html && sed --in-place=.orig -e 's/a/b/' ci.html",
  "curl -s https://docs.gitlab.com/ee/ci/ | awk '/runner/ {print $1}'",
  "curl -s https://docs.gitlab.com/ee/ci/ | gawk '{ system(\"true\") }'",
  "curl -s 'https://docs.gitlab.com/ee/ci/",
  "curl -s ftp://docs.gitlab.com/pub/",
];

Deno.test("shell page reads: every command of the deny list reads its pages, and a covered one is denied", () => {
  for (const [command, urls] of DENIED) {
    assertEquals(shellFetchUrls(command), urls, command);
    const request = bash(command)!;
    assertEquals(request, { tool: "Bash", command, urls }, command);
    ok(takesRequest(request, docs), command);
    ok(matchRequest(request, docs.databases).length > 0, command);
  }
});

Deno.test("shell page reads: no command of the never-deny list is denied", () => {
  for (const command of NEVER_DENIED) {
    ok(
      command.includes("docs.gitlab.com") || command.includes("kubernetes.io") ||
        command.includes("learn.m") ||
        command.includes("github.com"),
      command,
    );
    assertEquals(bash(command), undefined, command);
  }
});

Deno.test("shell page reads: a pipeline's output saved at its end is a download, as curl's own redirect", () => {
  const ci = "https://docs.gitlab.com/ee/ci/";
  // Saved under a name that is not a page's: let through, like `curl … > links.json`.
  assertEquals(shellFetchUrls(`curl -s ${ci} > links.json`), undefined);
  assertEquals(shellFetchUrls(`curl -s ${ci} | head > install.sh`), undefined);
  assertEquals(shellFetchUrls(`curl -s ${ci} | grep -o 'href="[^"]*"' > links.json`), undefined);
  assertEquals(shellFetchUrls(`curl -s ${ci} | sed 's/a/b/' | sort >> links.json`), undefined);
  assertEquals(shellFetchUrls(`wget -qO- ${ci} | head &> runner.out`), undefined);
  // A filter that saves what it prints leaves nothing to the ones after it: the file decides.
  assertEquals(shellFetchUrls(`curl -s ${ci} | grep runner > hits.json | head`), undefined);
  // To the terminal, or saved as a page (also by curl itself, before the pipe), it is read.
  assertEquals(shellFetchUrls(`curl -s ${ci} | head`), [ci]);
  assertEquals(shellFetchUrls(`curl -s ${ci} | grep -o 'href="[^"]*"'`), [ci]);
  assertEquals(shellFetchUrls(`curl -s ${ci} | head -50 > ci.md`), [ci]);
  assertEquals(shellFetchUrls(`curl -s ${ci} | html2text | head 2> errors.log`), [ci]);
  assertEquals(shellFetchUrls(`curl -s -o ci.html ${ci} | head > out.json`), [ci]);
});

Deno.test("shell page reads: commands without a web page pass before any parsing, whatever else they hold", () => {
  for (
    const command of [
      "ls -la",
      "npm test",
      "git log --oneline -5",
      "deno task check 2>&1 | tail -20",
      "cat README.md | grep docs.gitlab.com",
      "",
    ]
  ) assertEquals(bash(command), undefined, command);
  assertEquals(webRequestFrom("Bash", { command: 42 }), undefined);
  assertEquals(webRequestFrom("Bash", undefined), undefined);
});

Deno.test("shell page reads: the command is read as Bash reads it (lib/shell/read.ts)", () => {
  // Where the reader this replaced read otherwise. It named nothing here, where a newline after `|` continues
  // the pipeline.
  assertEquals(shellFetchUrls("curl -s https://docs.gitlab.com/ee/ci/ |\n  head -40"), [
    "https://docs.gitlab.com/ee/ci/",
  ]);
  // It named the page in each of these.
  for (
    const command of [
      // `1<>` writes stdout into the file, here not a page.
      "curl -s https://docs.gitlab.com/ee/ci/ 1<>page.bin",
      // The shell refuses these: nothing runs.
      "; curl -s https://docs.gitlab.com/ee/ci/",
      "curl -s https://docs.gitlab.com/ee/ci/ &&",
      // Too long to read whole.
      `curl -s https://docs.gitlab.com/ee/ci/${"; true".repeat(MAX_TOKENS)}`,
    ]
  ) assertEquals(shellFetchUrls(command), undefined, command);
  // As many `; true` as the cut leaves room for: read whole, and a page read.
  const longest = `curl -s https://docs.gitlab.com/ee/ci/${"; true".repeat(MAX_TOKENS / 2 - 2)}`;
  assertEquals(shellFetchUrls(longest), ["https://docs.gitlab.com/ee/ci/"]);
});

Deno.test("shell page reads: pages read by two programs name none, one program's several pages all", () => {
  // Claude Code runs a handler per program for these (each its own `if`): two hook processes see the one call,
  // and the retry one of them lets through the other would deny.
  const pairs: [string, string, string[], string[]][] = [
    ["curl -s https://docs.gitlab.com/ee/ci/", "wget -qO- https://docs.gitlab.com/ee/", [
      "https://docs.gitlab.com/ee/ci/",
    ], ["https://docs.gitlab.com/ee/"]],
    // HTTPie's two names are two programs to the agent, and xh's.
    ["http docs.gitlab.com/ee/ci/", "https docs.gitlab.com/ee/", ["http://docs.gitlab.com/ee/ci/"], [
      "https://docs.gitlab.com/ee/",
    ]],
    ["xh https://docs.gitlab.com/ee/ci/ | head", "xhs docs.gitlab.com/ee/", [
      "https://docs.gitlab.com/ee/ci/",
    ], [
      "https://docs.gitlab.com/ee/",
    ]],
  ];
  for (const [first, second, firstUrls, secondUrls] of pairs) {
    // Alone, each is a page read that is denied.
    assertEquals(shellFetchUrls(first), firstUrls, first);
    assertEquals(shellFetchUrls(second), secondUrls, second);
    for (const joined of [`${first} && ${second}`, `${second}; ${first}`]) {
      assertEquals(shellFetchUrls(joined), undefined, joined);
      assertEquals(bash(joined), undefined, joined);
    }
  }
  // One program twice: one handler runs, one process, which names both pages.
  const twice = "curl -s https://docs.gitlab.com/a | head; curl -s https://docs.gitlab.com/b";
  assertEquals(shellFetchUrls(twice), ["https://docs.gitlab.com/a", "https://docs.gitlab.com/b"]);
  ok(takesRequest(bash(twice)!, docs), twice);
});

Deno.test("shell page reads: a page of a host no database covers is read, and passes", () => {
  const request = bash("curl -s https://developer.mozilla.org/en-US/docs/Web/HTTP | head")!;
  assertEquals(request.tool, "Bash");
  assertEquals(matchRequest(request, docs.databases), []);
  assertEquals(takesRequest(request, docs), false);
});

Deno.test("fetch_tools: a tool pattern's * matches any run of characters, the rest itself", () => {
  const cases: [string, string, boolean][] = [
    ["Bash", "Bash", true],
    ["Bash", "BashOutput", false],
    ["mcp__*__fetch", "mcp__fetch__fetch", true],
    ["mcp__*__fetch", "mcp__plugin_web_fetch__fetch", true],
    ["mcp__*__fetch", "mcp__fetch__fetch_json", false],
    ["mcp__*__fetch", "mcp____fetch", true],
    ["mcp__*__fetch", "mcp__fetch", false],
    ["mcp__github__*", "mcp__github__get_issue", true],
    ["*", "anything", true],
    ["a*b*c", "abc", true],
    ["a*b*c", "acb", false],
    ["a*b*b", "ab", false],
  ];
  for (const [pattern, tool, expected] of cases) assertEquals(toolPatternMatches(pattern, tool), expected);
});

Deno.test("MCP fetch tools: a listed tool's url on a covered host is redirected; others pass", () => {
  const fetch = webRequestFrom("mcp__fetch__fetch", {
    url: "https://docs.gitlab.com/ee/ci/",
    max_length: 5000,
  })!;
  assertEquals(fetch, { tool: "MCP", name: "mcp__fetch__fetch", url: "https://docs.gitlab.com/ee/ci/" });
  ok(takesRequest(fetch, docs));
  const navigate = webRequestFrom("mcp__playwright__browser_navigate", {
    url: "https://kubernetes.io/docs/",
  })!;
  ok(takesRequest(navigate, docs));
  const plugin = webRequestFrom("mcp__plugin_chrome_chrome-devtools__new_page", {
    url: "https://kubernetes.io/",
  })!;
  ok(takesRequest(plugin, docs));
  // Not listed, not covered, or no page at all.
  ok(!takesRequest(webRequestFrom("mcp__github__get_file", { url: "https://docs.gitlab.com/ee/" })!, docs));
  ok(!takesRequest(webRequestFrom("mcp__fetch__fetch", { url: "https://example.com/" })!, docs));
  assertEquals(webRequestFrom("mcp__chrome-devtools__navigate_page", { type: "back" }), undefined);
  assertEquals(webRequestFrom("mcp__fetch__fetch", { url: "  " }), undefined);
  // fetch_tools narrows what is redirected, Bash included.
  const narrowed = { ...docs, fetchTools: ["mcp__fetch__fetch"] };
  ok(takesRequest(fetch, narrowed));
  ok(!takesRequest(navigate, narrowed));
  ok(!takesRequest(bash("curl -s https://docs.gitlab.com/ee/ci/")!, narrowed));
  // WebSearch and WebFetch are always the redirect's, whatever the list says.
  const webFetch = webRequestFrom("WebFetch", { url: "https://example.com/" })!;
  ok(takesRequest(webFetch, { ...docs, fetchTools: [] }));
});

Deno.test("the identity of a retry: the exact command for Bash, tool and URL for an MCP tool", () => {
  const id = (request: WebRequest | undefined) => requestIdentity(request!);
  const curl = "curl -s https://docs.gitlab.com/ee/ci/ | head";
  assertEquals(id(bash(curl)), id(bash(curl)));
  ok(id(bash(curl)) !== id(bash("curl -s https://docs.gitlab.com/ee/ci/ | head -50")));
  const url = "https://docs.gitlab.com/ee/ci/";
  ok(id(bash(`curl -s ${url}`)) !== id(webRequestFrom("WebFetch", { url })));
  assertEquals(
    id(webRequestFrom("mcp__fetch__fetch", { url, start_index: 0 })),
    id(webRequestFrom("mcp__fetch__fetch", { url, start_index: 5000 })),
  );
  ok(id(webRequestFrom("mcp__fetch__fetch", { url })) !== id(webRequestFrom("mcp__x__fetch", { url })));
  ok(id(webRequestFrom("mcp__fetch__fetch", { url })) !== id(webRequestFrom("WebFetch", { url })));
  assertEquals(requestTarget(bash(curl)!), curl);
});

Deno.test("the guidance for a page read in Bash or by an MCP tool: why, which tool, and the identical retry", () => {
  const request = bash("curl -s https://docs.gitlab.com/ee/ci/runners/configure_runners.html | head")!;
  assertEquals(localQuery(request), "ee ci runners configure runners");
  const reason = JSON.parse(
    buildDenial(request, matchRequest(request, docs.databases), { ttlSeconds: 300, retryWillPass: true }),
  ).hookSpecificOutput.permissionDecisionReason as string;
  match(
    reason,
    /^Local documentation covers https:\/\/docs\.gitlab\.com\/ee\/ci\/runners\/configure_runners\.html \(read by this Bash call\): domain docs\.gitlab\.com matches the "gitlab" docs/,
  );
  ok(
    reason.includes(
      'mcp__leann__leann_search {"index_name":"gitlab","query":"ee ci runners configure runners"}',
    ),
  );
  match(
    reason,
    /repeat this identical Bash command \(same command text\) within 5 minutes and it will be allowed/,
  );

  const mcp = webRequestFrom("mcp__fetch__fetch", { url: "https://kubernetes.io/docs/concepts/" })!;
  const mcpReason = JSON.parse(
    buildDenial(mcp, matchRequest(mcp, docs.databases), { ttlSeconds: 60, retryWillPass: true }),
  ).hookSpecificOutput.permissionDecisionReason as string;
  match(
    mcpReason,
    /covers https:\/\/kubernetes\.io\/docs\/concepts\/ \(read by this mcp__fetch__fetch call\)/,
  );
  match(mcpReason, /mcp__leann__search for "docs concepts"/);
  match(mcpReason, /repeat this identical mcp__fetch__fetch call \(same URL\) within 1 minute/);
});

Deno.test("install's PreToolUse matchers cover Bash, the web tools and every default fetch tool, and no other tool", () => {
  const pre = (agent: "claude" | "ripperdoc") =>
    registrationsFor(agent).flatMap(({ event, matcher, entry }) =>
      event === "PreToolUse" ? [[matcher, entry.conditions]] : []
    );
  // Claude Code runs a Bash handler only for a command its `if` matches: one per fetcher the redirect knows.
  assertEquals(pre("claude"), [[WEB_TOOLS_MATCHER, undefined], ["Bash", BASH_CONDITIONS]]);
  assertEquals(pre("ripperdoc"), [[PAGE_TOOLS_MATCHER, undefined]]);
  for (const matchers of [[WEB_TOOLS_MATCHER, "Bash"], [PAGE_TOOLS_MATCHER]]) {
    // As Claude Code tests a regex matcher (unanchored), and as doctor reads one (whole name).
    const agent = matchers.map((matcher) => new RegExp(matcher));
    const whole = matchers.map((matcher) => new RegExp(`^(?:${matcher})$`));
    const covered = (tool: string) =>
      agent.some((pattern) => pattern.test(tool)) && whole.some((pattern) => pattern.test(tool));
    const uncovered = (tool: string) =>
      !agent.some((pattern) => pattern.test(tool)) && !whole.some((pattern) => pattern.test(tool));
    const named = DEFAULT_FETCH_TOOLS.flatMap((
      pattern,
    ) => [pattern.replaceAll("*", "fetch"), pattern.replaceAll("*", "plugin_tools_web")]);
    for (const tool of ["WebSearch", "WebFetch", "Bash", ...named]) ok(covered(tool), tool);
    for (
      const tool of ["Read", "Write", "Edit", "Grep", "mcp__docsearch__search", "mcp__leann__leann_search"]
    ) ok(uncovered(tool), tool);
  }
  // The web tools' entry leaves Bash to its own.
  ok(!new RegExp(WEB_TOOLS_MATCHER).test("Bash"));
});

Deno.test("config.example.json shows fetch_tools as the defaults are", () => {
  const example = JSON.parse(readFixture("../config.example.json"));
  assertEquals(example.fetch_tools, DEFAULT_FETCH_TOOLS);
});

Deno.test("a URL's path, read by hand, and the words the guidance searches for", () => {
  const cases: [string, string | undefined][] = [
    ["https://docs.gitlab.com/ee/ci/runners/?tab=linux#install", "/ee/ci/runners/"],
    ["https://docs.gitlab.com", ""],
    ["https://docs.gitlab.com?q=/x", ""],
    ["http://user@host:8080/a/b.html", "/a/b.html"],
    ["docs.gitlab.com/ee/", undefined],
  ];
  for (const [url, path] of cases) assertEquals(urlPath(url), path, url);
  const read = (url: string) => localQuery({ tool: "MCP", name: "mcp__fetch__fetch", url });
  assertEquals(
    read("https://kubernetes.io/docs/concepts/workloads/pods/pod-lifecycle.html#probes"),
    "docs concepts workloads pods pod lifecycle",
  );
  assertEquals(read("https://kubernetes.io/"), "");
  assertEquals(read("not a url"), "not a url");
});
