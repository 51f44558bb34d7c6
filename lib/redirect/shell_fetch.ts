/**
 * Which web pages a shell command reads. Denied a WebFetch, agents often fetch the same page with `curl` or
 * `wget` in Bash; the redirect covers that too. Bash runs everything, so this is built for precision: it names
 * URLs only for a command that does nothing but read pages (a GET printed to the terminal, through text
 * filters such as `head` or `html2text`, or saved as a page), and nothing for anything else: an API call (a
 * request body, a method, credentials, output piped into `jq`), a download (a release file, a tarball, an
 * installer piped into `sh`), a link or header check, a mirror, or a command that also builds, installs or
 * commits. A URL that only appears in the command (`git clone`, `echo`, a comment) is not read.
 *
 * The command is read as the shell reads it (lib/shell/read.ts): quotes, escapes, comments, pipes, lists and
 * redirections. A line holding what this does not follow (a command or process substitution, a subshell or
 * group, a here-document or here-string, a variable in a URL), too long to read whole, or that the shell would
 * refuse names nothing.
 * It runs on every Bash command the agent runs, so it is plain string scanning: no regex to build or compile.
 */

import { lazily } from "../lazy.ts";
import { urlHost, urlPath } from "../match/domains.ts";
import { isDigits, readShell, type SimpleCommand, type Word } from "../shell/read.ts";

const basename = (path: string) => path.slice(path.lastIndexOf("/") + 1);

/**
 * Names separated by spaces, as a set made on first use: every hook process loads this module, and building
 * these tables costs about 0.2 ms, which a Bash command that names no web page never needs.
 */
const names = (...groups: string[]): () => ReadonlySet<string> =>
  lazily(() => new Set(groups.join(" ").split(" ")));

/**
 * Programs that only show or filter text: what a page read may be piped through. Not awk: an awk program can
 * run commands (`system()`, `| getline`) and write files, so it is a program, not a filter. `sed` is one only
 * without `-i` (see isReader).
 */
const READERS = names(
  "head tail less more cat grep egrep fgrep rg sed cut tr sort uniq wc fold fmt nl column",
  "html2text html2markdown markdownify pandoc lynx w3m htmlq pup xmllint",
);

/**
 * Commands that may stand beside a page read in a list without making the command more than a read ("": only
 * assignments or redirections).
 */
const NEUTRAL = lazily((): ReadonlySet<string> =>
  new Set([...READERS(), "", ..."cd echo printf true sleep pwd ls mkdir set".split(" ")])
);

/** Whether `sed` edits files in place (`-i`, `-i.bak`, `-ni`, `--in-place[=suffix]`): then it writes, not reads. */
function sedEditsInPlace(args: Word[]): boolean {
  for (let i = 0; i < args.length; i++) {
    const { text } = args[i];
    if (text === "--") return false;
    if (text.startsWith("--")) {
      if (text === "--in-place" || text.startsWith("--in-place=")) return true;
      if (text === "--expression" || text === "--file" || text === "--line-length") i++;
    } else if (text.startsWith("-")) {
      for (let j = 1; j < text.length; j++) {
        if (text[j] === "i") return true;
        // -e, -f and -l take a value: the rest of the word, or the next word.
        if (text[j] === "e" || text[j] === "f" || text[j] === "l") {
          if (j === text.length - 1) i++;
          break;
        }
      }
    }
  }
  return false;
}

/** Whether a command is one of `among` (READERS or NEUTRAL) and, if `sed`, leaves files alone. */
function isReader(command: SimpleCommand, among: () => ReadonlySet<string>): boolean {
  const found = program(command);
  if (found === undefined || !among().has(found.name)) return false;
  return found.name !== "sed" || !sedEditsInPlace(found.args);
}

/** The command's program and arguments after leading assignments and `env`/`command`/`time`/`timeout`. */
function program(command: SimpleCommand): { name: string; args: Word[] } | undefined {
  let words = command.words;
  for (;;) {
    const [first] = words;
    if (first === undefined) return { name: "", args: [] };
    if (first.opaque) return undefined;
    const eq = first.text.indexOf("=");
    if (eq > 0 && isName(first.text.slice(0, eq))) {
      words = words.slice(1);
      continue;
    }
    const name = basename(first.text);
    if (name === "env" || name === "command" || name === "time") {
      let i = 1;
      while (words[i]?.text.startsWith("-")) i++;
      words = words.slice(i);
    } else if (name === "timeout") {
      let i = 1;
      while (words[i]?.text.startsWith("-")) i += words[i].text === "-k" || words[i].text === "-s" ? 2 : 1;
      words = words.slice(i + 1);
    } else return { name, args: words.slice(1) };
  }
}

function isName(text: string): boolean {
  return [...text].every((c, i) =>
    c === "_" || (c >= "a" && c <= "z") || (c >= "A" && c <= "Z") || (i > 0 && c >= "0" && c <= "9")
  );
}

/** Where a fetcher writes the page: the terminal (its stdout) or a file. */
type Output = "stdout" | { file: string };

/** The pages a fetcher reads, and where each goes (the n-th output is the n-th page's). */
interface Read {
  urls: string[];
  outputs: Output[];
}

/** Reads a fetcher's arguments; undefined when it sends data or credentials, or does more than read pages. */
type Fetcher = (args: Word[], name: string) => Read | undefined;

/**
 * A header that carries credentials: a request with one is an API call, which local docs cannot answer. So is
 * one whose headers come from a file (`@file`), which this cannot see.
 */
function isCredentialHeader(header: string): boolean {
  if (header.startsWith("@")) return true;
  const colon = header.indexOf(":");
  const name = (colon < 0 ? header : header.slice(0, colon)).trim().toLowerCase();
  return name === "authorization" || name === "proxy-authorization" || name === "cookie" ||
    ["token", "auth", "api-key", "apikey", "secret", "session"].some((part) => name.includes(part));
}

/**
 * A header that asks for data rather than a page (`Accept: application/json`, `Content-Type: application/xml`,
 * `Accept: application/vnd.github+json`): the request is an API call. A browser's Accept names `xhtml+xml` and
 * `xml` beside `text/html`, so XML counts only without HTML; a browser never asks for JSON.
 */
function asksForData(header: string): boolean {
  const colon = header.indexOf(":");
  if (colon < 0) return false;
  const name = header.slice(0, colon).trim().toLowerCase();
  if (name !== "accept" && name !== "content-type") return false;
  const value = header.slice(colon + 1).toLowerCase();
  return value.includes("json") || (value.includes("xml") && !value.includes("html"));
}

/** A header a page read may send: no credentials, and no request for data. */
const isPageHeader = (header: string) => !isCredentialHeader(header) && !asksForData(header);

const isHttpUrl = (text: string) => {
  const lower = text.slice(0, 8).toLowerCase();
  return lower.startsWith("http://") || lower.startsWith("https://");
};

/** A host name with a dot, maybe a port, then the end or a path: what curl and wget read as `http://` + it. */
const SCHEMELESS = /^[a-z0-9][a-z0-9-]*(\.[a-z0-9-]+)*\.[a-z]{2,}(:\d+)?([/?#]|$)/i;

/** The page a curl or wget operand names: an http(s) URL, or a host and path they read over http. */
const operandUrl = (text: string): string | undefined =>
  isHttpUrl(text) ? text : SCHEMELESS.test(text) ? `http://${text}` : undefined;

/** Each operand's page, those that name none left out. */
const operandUrls = (operands: readonly string[]): string[] =>
  operands.flatMap((operand) => operandUrl(operand) ?? []);

/** The last path segment of an http(s) URL ("" for a folder or the site's root). */
const urlFileName = (url: string) => basename(urlPath(url) ?? "");

const extension = (name: string) => {
  const dot = name.lastIndexOf(".");
  return dot <= 0 ? "" : name.slice(dot + 1).toLowerCase();
};

/** What a docs page is saved as. */
const PAGE_FILES = names("html htm xhtml md markdown mdx txt text rst adoc");

/**
 * The endings of files that are downloaded rather than read: archives, packages, installers and scripts, data
 * an API returns, signatures, media, PDFs. A docs page's last segment may hold a dot of its own
 * (`system.string`, `v1.29`), so anything else counts as a page.
 */
const FILE_URLS = names(
  "tar gz tgz bz2 tbz xz txz zst zip 7z rar jar war whl egg gem nupkg crate",
  "deb rpm apk msi pkg dmg exe appimage snap iso img bin",
  "sh bash zsh ps1 bat py rb pl js mjs cjs ts wasm so dll dylib",
  "json jsonl ndjson yaml yml toml xml csv tsv proto ini conf env",
  "asc sig sha1 sha256 sha512 md5 gpg pem crt cer key pub",
  "png jpg jpeg gif svg webp ico bmp mp4 webm mov mp3 wav ogg pdf epub woff woff2 ttf otf eot css map",
);

/** `v4`, `2`: a version in a path. */
const isVersion = (segment: string) =>
  isDigits(segment) || (segment.length > 1 && segment[0] === "v" && isDigits(segment.slice(1)));

/**
 * A URL of an API rather than of pages: its host starts with `api.` (`api.github.com`), or its path does with an
 * `api` segment (`/api/v4/version`, `/api/search`) or has one followed by a version (`/rest/api/2/issue`). Only
 * those: docs about an API keep `api` further in (`/ee/api/rest/`, `/en-us/dotnet/api/system.string`) and are
 * pages.
 */
function isApiUrl(url: string): boolean {
  if (urlHost(url)?.startsWith("api.")) return true;
  const segments = (urlPath(url) ?? "").toLowerCase().split("/").filter((segment) => segment !== "");
  return segments[0] === "api" ||
    segments.some((segment, i) => segment === "api" && isVersion(segments[i + 1] ?? ""));
}

/** A URL of a page: not of a file to download, nor of an API. */
const isPageUrl = (url: string) => !FILE_URLS().has(extension(urlFileName(url))) && !isApiUrl(url);

const isPageFile = (name: string) => PAGE_FILES().has(extension(basename(name)));

/** A fetcher's option syntax: which options take a value, and which make a command more than a page read. */
interface Options {
  /** Short options (one letter each) that take a value. */
  shortWithArg: string;
  longWithArg: () => ReadonlySet<string>;
  /** Options after which the command is not a page read, whatever their value. */
  stop: () => ReadonlySet<string>;
}

/**
 * Splits arguments into options (with their values) and operands, for the option syntaxes curl, wget and
 * HTTPie share: `-abc`, `-ofile`, `-o file`, `--long value`, `--long=value`, `--` ending options.
 * Returns undefined when a `stop` option appears or a value is unknown.
 */
function options(
  args: Word[],
  spec: Options,
  onOption: (option: string, value: string | undefined) => boolean,
): string[] | undefined {
  const operands: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const { text, opaque } = args[i];
    if (opaque) return undefined;
    if (text === "--") {
      for (const rest of args.slice(i + 1)) {
        if (rest.opaque) return undefined;
        operands.push(rest.text);
      }
      break;
    }
    if (text.startsWith("--")) {
      const eq = text.indexOf("=");
      const option = eq < 0 ? text : text.slice(0, eq);
      if (spec.stop().has(option)) return undefined;
      let value: string | undefined;
      if (eq >= 0) value = text.slice(eq + 1);
      else if (spec.longWithArg().has(option)) {
        const arg = args[++i];
        if (arg === undefined || arg.opaque) return undefined;
        value = arg.text;
      }
      if (!onOption(option, value)) return undefined;
    } else if (text.startsWith("-") && text.length > 1) {
      for (let j = 1; j < text.length; j++) {
        const option = `-${text[j]}`;
        if (spec.stop().has(option)) return undefined;
        if (!spec.shortWithArg.includes(text[j])) {
          if (!onOption(option, undefined)) return undefined;
          continue;
        }
        let value = text.slice(j + 1);
        if (value === "") {
          const arg = args[++i];
          if (arg === undefined || arg.opaque) return undefined;
          value = arg.text;
        }
        if (!onOption(option, value)) return undefined;
        break;
      }
    } else operands.push(text);
  }
  return operands;
}

const CURL: Options = {
  shortWithArg: "AbcCdDeEFHKmoPQrtTuUwxXyYz",
  longWithArg: names(
    "--cacert --capath --cert --cert-type --ciphers --connect-timeout --connect-to --continue-at --dns-servers",
    "--doh-url --dump-header --expect100-timeout --header --interface --keepalive-time --key --key-type",
    "--limit-rate --local-port --max-filesize --max-redirs --max-time --noproxy --output --output-dir",
    "--parallel-max --pinnedpubkey --preproxy --proto --proto-default --proto-redir --proxy --proxy-header",
    "--range --rate --referer --request --resolve --retry --retry-delay --retry-max-time --speed-limit",
    "--speed-time --stderr --tls-max --trace --trace-ascii --unix-socket --url --url-query --user-agent",
    "--write-out --socks4 --socks4a --socks5 --socks5-hostname --proxy1.0",
  ),
  stop: names(
    // A request body or an upload.
    "-d -F -T --data --data-ascii --data-binary --data-raw --data-urlencode --form --form-string --json",
    "--upload-file",
    // Credentials and sessions.
    "-u -U -b -c -n -E --user --proxy-user --cookie --cookie-jar --netrc --netrc-file --netrc-optional",
    "--oauth2-bearer --aws-sigv4 --basic --digest --ntlm --negotiate --anyauth --cert",
    // Requests this reader cannot see (a config file, further transfers); headers only (a link check).
    "-K --config -: --next -I --head",
    // The transfer inspected, not the page read: headers and redirects shown (`-v … 2>&1 | grep -i location`),
    // a trace, or a status or timing written out.
    "-v --verbose --trace --trace-ascii --trace-time --trace-ids --trace-config -w --write-out",
  ),
};

const curl: Fetcher = (args) => {
  const urls: string[] = [];
  const outputs: Output[] = [];
  let remoteName = false;
  const operands = options(args, CURL, (option, value) => {
    if (option === "-X" || option === "--request") return value?.toUpperCase() === "GET";
    if (option === "-H" || option === "--header") return isPageHeader(value ?? "");
    if (option === "-o" || option === "--output") {
      outputs.push(value === "-" ? "stdout" : { file: value ?? "" });
    }
    if (option === "-O" || option === "--remote-name" || option === "--remote-name-all") remoteName = true;
    if (option === "--url") {
      const url = operandUrl(value ?? "");
      if (url === undefined) return false;
      urls.push(url);
    }
    return true;
  });
  if (operands === undefined) return undefined;
  urls.push(...operandUrls(operands));
  if (remoteName) outputs.push(...urls.map((url) => ({ file: urlFileName(url) })));
  // Each -o takes one URL, in order; the URLs left over print to stdout.
  while (outputs.length < urls.length) outputs.push("stdout");
  return { urls, outputs };
};

const WGET: Options = {
  // -n takes the letters after it (-nv, -nc, -nd, -nH, -np): one option each.
  shortWithArg: "OoaiPtTwQelARDIXUBn",
  longWithArg: names(
    "--output-document --output-file --append-output --directory-prefix --tries --timeout --wait --quota",
    "--execute --level --accept --reject --domains --include-directories --exclude-directories --user-agent",
    "--base --header --referer --limit-rate --max-redirect --ca-certificate --certificate --private-key",
    "--bind-address --dns-timeout --connect-timeout --read-timeout --waitretry --default-page --progress",
    "--method --compression",
  ),
  stop: names(
    // Recursion and mirroring fetch a site, not a page.
    "-r -m -p --recursive --mirror --page-requisites",
    // A link check, URLs from a file, resuming or backgrounding a download.
    "--spider -i --input-file -c --continue -b --background",
    // A request body, credentials.
    "--post-data --post-file --body-data --body-file --user --password --http-user --http-password",
    "--ask-password --load-cookies --certificate --private-key",
    // The transfer inspected: the server's headers, or a debug log (wget is verbose by default, so -v says
    // nothing).
    "-S --server-response -d --debug",
  ),
};

const wget: Fetcher = (args) => {
  let document: Output | undefined;
  const operands = options(args, WGET, (option, value) => {
    if (option === "--method") return value?.toUpperCase() === "GET";
    if (option === "--header") return isPageHeader(value ?? "");
    if (option === "-O" || option === "--output-document") {
      document = value === "-" ? "stdout" : { file: value ?? "" };
    }
    return true;
  });
  if (operands === undefined) return undefined;
  const urls = operandUrls(operands);
  // Without -O, wget saves each page under its URL's last segment, a folder's as index.html.
  const outputs = urls.map((url): Output => document ?? { file: urlFileName(url) || "index.html" });
  return { urls, outputs };
};

const HTTPIE: Options = {
  shortWithArg: "aAopPs",
  longWithArg: names(
    "--auth --auth-type --bearer --output --print --history-print --style --session --session-read-only",
    "--verify --cert --cert-key --cert-key-pass --proxy --timeout --max-redirects --max-headers --pretty",
    "--format-options --response-charset --response-mime --boundary --default-scheme --ssl --ciphers --raw",
    "--resolve --interface --http-version",
  ),
  stop: names(
    // Credentials and sessions.
    "-a -A --auth --auth-type --bearer --session --session-read-only --cert",
    // A request body: a form, a raw body; JSON asked for: an API.
    "-j --json -f --form --multipart --raw",
    // A download, headers only, a request not sent.
    "-d --download -c --continue -h --headers --offline",
    // The transfer inspected: request and response headers shown, or a debug log.
    "-v --verbose --debug",
  ),
};

const METHODS = names("GET HEAD POST PUT PATCH DELETE OPTIONS");

/**
 * HTTPie (`http`, `https`) and xh (`xh`, `xhs`): `[METHOD] URL [ITEM…]`, where a URL may leave out its scheme
 * and an item is a header (`Name:value`), a query parameter (`name==value`) or data (`name=value`, `name:=json`,
 * `field@file`), which makes the request a POST.
 */
const httpie: Fetcher = (args, name) => {
  let output: Output = "stdout";
  const operands = options(args, HTTPIE, (option, value) => {
    if (option === "-o" || option === "--output") output = { file: value ?? "" };
    return true;
  });
  if (operands === undefined) return undefined;
  let [first, ...items] = operands;
  if (first !== undefined && METHODS().has(first.toUpperCase())) {
    if (first.toUpperCase() !== "GET") return undefined;
    [first, ...items] = items;
  }
  if (first === undefined || first.startsWith(":")) return undefined;
  for (const item of items) {
    // An item is what its first separator says: `:` a header, `==` a query parameter, `=`, `:=` or `@` data.
    let at = 0;
    while (at < item.length && item[at] !== ":" && item[at] !== "=" && item[at] !== "@") at++;
    if (at === 0 || at === item.length) return undefined;
    const separator = item.slice(at, at + 2);
    if (separator === "==") continue;
    if (item[at] === ":" && separator !== ":=" && isPageHeader(item)) continue;
    return undefined;
  }
  const scheme = name.endsWith("s") ? "https://" : "http://";
  const url = isHttpUrl(first) ? first : first.includes("://") ? "" : scheme + first;
  return url === "" ? undefined : { urls: [url], outputs: [output] };
};

const FETCHERS: ReadonlyMap<string, Fetcher> = new Map([
  ["curl", curl],
  ["wget", wget],
  ["wget2", wget],
  ["http", httpie],
  ["https", httpie],
  ["xh", httpie],
  ["xhs", httpie],
]);

/** The programs whose page reads are redirected; install registers a Bash handler for each (events.ts). */
export const SHELL_FETCHERS: readonly string[] = [...FETCHERS.keys()];

/** The file a command's stdout is redirected to, if any. */
function stdoutFile(command: SimpleCommand): string | undefined {
  let file: string | undefined;
  for (const { op, fd, both, target } of command.redirects) {
    // `>|` overrides noclobber, `<>` opens for reading and writing: both write the file.
    const toFile = op === ">" || op === ">>" || op === ">|" || op === "<>" ||
      (op === ">&" && !isDigits(target.text) && target.text !== "-");
    if (toFile && (fd === 1 || both)) file = target.text;
  }
  return file;
}

/**
 * Whether a page ends up where it is read: on the terminal, or in a file named as a page. What a fetcher
 * prints flows through `pipeline` (its own command, then the filters after it) into the first file one of them
 * redirects its stdout to: `curl … | grep -o … > links.json` saves a download as `curl … > links.json` does,
 * and the filters after that file read nothing.
 */
function writesPage(output: Output, pipeline: readonly SimpleCommand[]): boolean {
  const file = output === "stdout" ? pipeline.map(stdoutFile).find((f) => f !== undefined) : output.file;
  return file === undefined || (file !== "/dev/null" && isPageFile(file));
}

/**
 * The http(s) URLs a command reads as pages, in order, each once; undefined when it reads none or does
 * anything more than reading pages. A command that reads pages with two programs (`curl … && wget …`) is
 * let through: the agent runs a handler per program for it (`if`), two processes that see one call, and
 * one of them would always deny the retry the other lets through.
 */
export function shellFetchUrls(command: string): string[] | undefined {
  // Every page a fetcher reads here is named by a URL with "http" (in any case) or by a fetcher that takes a
  // host without a scheme (curl, wget, HTTPie's http, xh): most commands hold none of these.
  if (!/http|curl|wget|xh/i.test(command)) return undefined;
  const script = readShell(command);
  if (script.malformed || script.truncated || script.constructs.size > 0) return undefined;
  const urls: string[] = [];
  const programs = new Set<string>();
  for (const { commands: pipeline } of script.pipelines) {
    // With no constructs, every command is a simple one.
    if (!pipeline.every((command): command is SimpleCommand => command.kind === "simple")) return undefined;
    const [first, ...rest] = pipeline;
    const head = program(first);
    if (head === undefined) return undefined;
    const fetcher = FETCHERS.get(head.name);
    if (fetcher === undefined) {
      if (!pipeline.every((command) => isReader(command, NEUTRAL))) return undefined;
      continue;
    }
    const read = fetcher(head.args, head.name);
    if (read === undefined || read.urls.length === 0) return undefined;
    if (!read.urls.every(isPageUrl) || !read.outputs.every((output) => writesPage(output, pipeline))) {
      return undefined;
    }
    if (!rest.every((command) => isReader(command, READERS))) return undefined;
    urls.push(...read.urls);
    programs.add(head.name);
  }
  return urls.length === 0 || programs.size > 1 ? undefined : [...new Set(urls)];
}
