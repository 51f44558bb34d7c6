import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { containsKeyword, normalizeText } from "../lib/match/keywords.ts";
import { type Ecosystem, packageKeywords } from "../lib/project/keywords.ts";
import { ROOT } from "./helpers.ts";

const packages = (ecosystem: Ecosystem, names: string) =>
  names.trim().split(/\s+/).map((name): [Ecosystem, string] => [ecosystem, name]);

/** A realistic project's dependencies: names that are everyday words, distinctive and scoped ones. */
const PACKAGES = [
  ...packages(
    "npm",
    `debug glob ms commander chalk express react request colors mime once through semver uuid dotenv yargs
    lodash zod acorn htmlparser2 @modelcontextprotocol/sdk node-fetch typescript eslint prettier jest vitest
    axios cors next @tanstack/react-query @types/node`,
  ),
  ...packages(
    "python",
    "requests click rich attrs six pytest numpy pandas flask django PyYAML typing_extensions",
  ),
];

const DATABASES = PACKAGES.map(([ecosystem, name]) => ({
  name,
  keywords: packageKeywords(ecosystem, name).map(normalizeText),
}));

/** The packages whose keywords a search mentions, as the hook matches them. */
function matched(search: string): string[] {
  const text = normalizeText(search);
  return DATABASES.filter((database) => database.keywords.some((keyword) => containsKeyword(text, keyword)))
    .map((database) => database.name);
}

/**
 * What developers and agents type when they are not asking about any of these packages, many of them using a
 * package's name as an ordinary word beside "npm", "js" or "python".
 */
const ORDINARY_SEARCHES = [
  "how to debug a memory leak in node",
  "debug npm install errors on windows",
  "how to debug npm scripts in vscode",
  "debug node.js app in chrome devtools",
  "npm debug log location",
  "debug js in chrome breakpoints not hit",
  "glob pattern syntax in bash",
  "python glob module recursive",
  "golang filepath glob example",
  "convert ms to seconds",
  "setTimeout 500 ms js delay",
  "ms sql server connection string",
  "ms teams webhook api",
  "git commander tutorial",
  "star wars commander rank",
  "chalk paint for furniture",
  "chalk outline svg animation",
  "express delivery tracking",
  "sql server express docker image",
  "stripe express checkout element",
  "express entry canada draw",
  "how to express a fraction in latex",
  "http request timeout best practices",
  "http request js fetch example",
  "pull request template github",
  "css colors list",
  "random colors js generator",
  "terminal colors not showing in tmux",
  "change background color js on click",
  "mime type for docx files",
  "how to send mime multipart email python",
  "run function only once js",
  "useEffect runs twice instead of once",
  "once upon a time story generator",
  "loop through js object keys",
  "iterate through array python",
  "walk through kubernetes deployment yaml",
  "semantic versioning explained for beginners",
  "rich text editor library comparison",
  "python rich comparison methods",
  "rich snippets schema markup",
  "click event handler javascript",
  "selenium python click element by xpath",
  "right click python file open with idle",
  "double click event jquery",
  "six months of experience software engineer resume",
  "attrs vs props vue 3",
  "html attrs to json",
  "html request smuggling explained",
  "how many requests per second can nginx handle",
  "rate limit api requests",
  "file path js get directory name",
  "python path environment variable windows",
  "npm path not recognized windows",
  "node events emitter memory leak warning",
  "keyboard events js keydown vs keypress",
  "send email with gmail smtp",
  "send json in post body",
  "pip install error externally managed environment",
  "how to build a python package with pyproject.toml",
  "test npm package locally before publishing",
  "how to test python code with coverage",
  "npm test exit code 1",
  "debug python in vscode launch.json",
  "how to update npm to latest version",
  "glob vs regex difference",
  "stream buffer size linux pipe",
  "once a week cron expression",
  "rsync through ssh tunnel",
  "postgres generate uuid v4",
  "uuid vs ulid database primary key",
  "through the looking glass",
  "ms access vba recordset",
  "commander in chief powers",
  "express yourself song lyrics",
  "npm scripts run in parallel",
  "color blind friendly palette",
  "mime artist street performance",
  "convert string to date js",
  "chalkboard font css",
  "express vpn linux cli",
  "python request headers user agent",
  "mime sniffing x-content-type-options",
  "ms learn azure certification",
  "rich presence discord api",
  "six degrees of separation graph algorithm",
  "attrs spread in jsx component",
  "npm ci vs npm install",
  "uuid js crypto randomUUID browser support",
  "how to glob files in python pathlib",
  "request body too large nginx 413",
  "colors in python terminal output",
  "once npm install finishes run a script",
  "commander of the faithful meaning",
  "through npm or yarn which is faster",
  "path traversal vulnerability example",
  "color picker input html",
  "fix cors error in fetch",
  "cors preflight options request",
  "next steps after a code review",
  "next page token pagination api",
  "npm run build fails out of memory",
  "npm audit fix breaking changes",
  "how to publish a scoped package to npm",
  "python virtual environment activate windows",
  "python relative import error",
  "javascript once event listener option",
  "types of node in a linked list",
];

/** Searches about one of the packages, as developers and agents type them: [package, search]. */
const PACKAGE_SEARCHES: [string, string][] = [
  ["zod", "zod refine custom error message"],
  ["zod", "zod 4 discriminated union"],
  ["debug", "npm install debug --save"],
  ["glob", "glob npm ignore pattern"],
  ["glob", "npm glob sync vs async"],
  ["chalk", "chalk npm hex colors"],
  ["chalk", "chalk.js esm import error"],
  ["commander", "commander js subcommands"],
  ["commander", "commander npm required option"],
  ["express", "express npm middleware order"],
  ["express", "express.js error handling middleware"],
  ["express", "expressjs router params"],
  ["express", "express js 5 migration guide"],
  ["ms", "ms npm parse duration string"],
  ["mime", "mime npm getType extension"],
  ["colors", "npm install colors"],
  ["semver", "semver satisfies prerelease range"],
  ["dotenv", "dotenv override existing env vars"],
  ["yargs", "yargs positional arguments"],
  ["lodash", "lodash debounce leading trailing"],
  ["acorn", "acorn ecmaVersion latest"],
  ["htmlparser2", "htmlparser2 decodeEntities option"],
  ["@modelcontextprotocol/sdk", "@modelcontextprotocol/sdk stdio transport"],
  ["@modelcontextprotocol/sdk", "modelcontextprotocol/sdk McpServer registerTool"],
  ["node-fetch", "node-fetch abort controller timeout"],
  ["react", "react useEffect cleanup function"],
  ["typescript", "typescript satisfies operator"],
  ["eslint", "eslint flat config ignores"],
  ["prettier", "prettier ignore file"],
  ["jest", "jest mock es module"],
  ["vitest", "vitest in-source testing"],
  ["requests", "python requests timeout"],
  ["requests", "pip install requests proxies"],
  ["requests", "requests python session retry"],
  ["click", "import click option default"],
  ["click", "pip install click"],
  ["rich", "from rich import print"],
  ["six", "python six moves urllib"],
  ["pytest", "pytest fixture scope session"],
  ["numpy", "numpy broadcasting rules"],
  ["pandas", "pandas groupby multiple columns"],
  ["flask", "flask blueprint url_prefix"],
  ["django", "django queryset annotate"],
  ["PyYAML", "pyyaml safe_load vs load"],
  ["typing_extensions", "typing_extensions Self backport"],
  ["uuid", "uuid npm v7 generate"],
  ["axios", "axios interceptors refresh token"],
  ["cors", "cors npm credentials origin function"],
  ["@tanstack/react-query", "react-query invalidateQueries after mutation"],
  ["@types/node", "@types/node Buffer type mismatch"],
  ["next", "next.js app router middleware"],
  ["next", "nextjs image optimization"],
  ["attrs", "from attrs import define, field"],
  ["requests", "import requests ssl verify false"],
  ["six", "six python moves"],
  ["typing_extensions", "typing-extensions version"],
];

Deno.test(`${ORDINARY_SEARCHES.length} ordinary searches match none of ${PACKAGES.length} packages`, () => {
  const caught = ORDINARY_SEARCHES.map((search) => ({ search, packages: matched(search) }));
  assertEquals(caught.filter((found) => found.packages.length > 0), []);
});

Deno.test(`${PACKAGE_SEARCHES.length} searches about a package match that package`, () => {
  const missed = PACKAGE_SEARCHES.filter(([name, search]) => !matched(search).includes(name));
  assertEquals(missed, []);
});

Deno.test("the trade-offs go the way the rules chose", () => {
  const cases: [string, string[], string][] = [
    ["debug npm enable namespaces", [], '"debug npm" is just as often "debug npm install errors"'],
    ["python click subcommands", [], '"python click" is also "selenium python click element"'],
    ["python rich progress bar", [], '"python rich" is also "python rich comparison methods"'],
    ["python attrs frozen slots", [], '"python X" reads as "X in Python" for a programming term'],
    ["colors.js zalgo incident", [], '"colors" is a phrase word: "random colors js"'],
    ["how to react to a code review comment", ["react"], '"react" alone is kept for "react useEffect"'],
    ["make my python logs prettier", ["prettier"], "a tool's name stays distinctive"],
  ];
  for (const [search, expected, why] of cases) assertEquals(matched(search), expected, `${search}: ${why}`);
});

Deno.test("a distinctive name is its own keyword", () => {
  const rare = ["zod", "acorn", "lodash", "yargs", "semver", "dotenv", "axios", "vitest", "react", "vue"];
  // A digit or punctuation makes a name distinctive, even a two-letter one.
  const marked = ["htmlparser2", "node-fetch", "lodash.merge", "socket.io", "d3"];
  for (const name of [...rare, ...marked]) assertEquals(packageKeywords("npm", name), [name]);
});

Deno.test("an English word needs its ecosystem beside it", () => {
  assertEquals(packageKeywords("npm", "chalk"), [
    "chalk npm",
    "npm chalk",
    "chalk js",
    "chalk.js",
    "chalkjs",
    "npm install chalk",
    "npm i chalk",
  ]);
  assertEquals(packageKeywords("python", "requests"), [
    "python requests",
    "requests python",
    "pip install requests",
    "import requests",
    "from requests import",
  ]);
});

Deno.test("a programming term or a two-letter name takes no language qualifier", () => {
  assertEquals(packageKeywords("npm", "glob"), ["glob npm", "npm glob", "npm install glob", "npm i glob"]);
  assertEquals(packageKeywords("npm", "ms"), ["ms npm", "npm ms", "npm install ms", "npm i ms"]);
  // "is" is an English word, but "is js" is in "what is js".
  assertEquals(packageKeywords("npm", "is"), ["is npm", "npm is", "npm install is", "npm i is"]);
  assertEquals(packageKeywords("python", "attrs"), [
    "pip install attrs",
    "import attrs",
    "from attrs import",
  ]);
});

Deno.test("a phrase word is a keyword only in a command", () => {
  assertEquals(packageKeywords("npm", "debug"), ["npm install debug", "npm i debug"]);
  // Through its stem: "colors" is "color", "entities" is "entity" (a term).
  assertEquals(packageKeywords("npm", "colors"), ["npm install colors", "npm i colors"]);
  assertEquals(packageKeywords("npm", "entities").slice(0, 2), ["entities npm", "npm entities"]);
  assertEquals(packageKeywords("python", "click"), [
    "pip install click",
    "import click",
    "from click import",
  ]);
  // The module is imported with underscores.
  assertEquals(packageKeywords("python", "user-agent"), [
    "pip install user-agent",
    "import user_agent",
    "from user_agent import",
  ]);
});

Deno.test("names are normalized: npm lower-case, Python per PEP 503 with the typed spelling kept", () => {
  assertEquals(packageKeywords("npm", " Chalk "), packageKeywords("npm", "chalk"));
  assertEquals(packageKeywords("npm", ""), []);
  assertEquals(packageKeywords("python", "PyYAML"), ["pyyaml"]);
  assertEquals(packageKeywords("python", "typing_extensions"), ["typing-extensions", "typing_extensions"]);
  assertEquals(packageKeywords("python", "typing-extensions"), ["typing-extensions"]);
  assertEquals(packageKeywords("python", "Zope.Interface"), ["zope-interface", "zope.interface"]);
  assertEquals(packageKeywords("python", "ruamel__.yaml"), ["ruamel-yaml", "ruamel__.yaml"]);
  // A "python-" prefix or "-python" suffix is dropped where the rest is distinctive.
  assertEquals(packageKeywords("python", "python-dateutil"), ["python-dateutil", "dateutil"]);
  assertEquals(packageKeywords("python", "opencv-python"), ["opencv-python", "opencv"]);
  assertEquals(packageKeywords("python", "python-multipart"), ["python-multipart"]);
});

Deno.test("a scoped name is kept whole, with its last part only where that is distinctive", () => {
  assertEquals(packageKeywords("npm", "@modelcontextprotocol/sdk"), [
    "@modelcontextprotocol/sdk",
    "modelcontextprotocol/sdk",
  ]);
  assertEquals(packageKeywords("npm", "@TanStack/React-Query"), [
    "@tanstack/react-query",
    "tanstack/react-query",
    "react-query",
  ]);
  assertEquals(packageKeywords("npm", "@babel/core"), ["@babel/core", "babel/core"]);
  // "@types/react" is not React.
  assertEquals(packageKeywords("npm", "@types/react"), ["@types/react", "types/react"]);
  assertEquals(matched("mcp typescript sdk docs"), ["typescript"]);
});

Deno.test("the word lists are lower-case, sorted, and each word is in one list once", () => {
  const source = Deno.readTextFileSync(`${ROOT}lib/project/keywords.ts`);
  const lists = [...source.matchAll(/const (\w+) = words\(`([^`]*)`\)/g)].map(([, name, text]) => ({
    name,
    words: text.split(/\s+/).filter((word) => word !== ""),
  }));
  assertEquals(lists.map((list) => list.name), ["ENGLISH_WORDS", "PROGRAMMING_WORDS", "PHRASE_WORDS"]);
  const seen = new Map<string, string>();
  for (const { name, words } of lists) {
    assertEquals(words, [...words].sort(), `${name} is sorted`);
    for (const word of words) {
      ok(/^[a-z0-9]+(-[a-z0-9]+)*$/.test(word), `${name}: ${word}`);
      ok(!seen.has(word), `${word} is in ${seen.get(word)} and ${name}`);
      seen.set(word, name);
    }
  }
  ok(seen.size >= 2000, `${seen.size} words`);
});
