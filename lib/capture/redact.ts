/**
 * The privacy filter (SPEC §4): secrets are replaced by `[REDACTED:category]` before anything is written.
 * The patterns lean on the shapes providers document (and gitleaks/detect-secrets use), with minimum lengths
 * and key-name rules that keep ordinary code, UUIDs and lock-file hashes intact.
 */
import type { RedactRule } from "../config/types.ts";
import { lazily } from "../lazy.ts";
import { baseName } from "../paths.ts";

interface Rule {
  category: string;
  /**
   * Strings one of which any match must contain. Most text holds none, and checking them costs nothing,
   * while a regex's first use costs its compilation: on the hook's start-up, that is most of the filter.
   */
  hints?: readonly string[];
  /** The hints are lower-case and compared with the lower-cased text. */
  anyCase?: boolean;
  /** Made when the rule first runs: most never do (see hints), and a regex costs its parsing when made. */
  regex: () => RegExp;
  /** Builds the replacement from the match, to keep harmless context (a URL's user and host, a key name). */
  replace?: (match: string, ...groups: (string | undefined)[]) => string;
}

const tag = (category: string) => `[REDACTED:${category}]`;

/** Key names whose value is a secret: the name must end in one of these (`max_tokens` is not one). */
const SECRET_NAME = String.raw`[A-Za-z0-9_.-]*?(?:${
  [
    "secret|token|passw(?:or)?d|passphrase|(?<=_)pass|pwd|credentials?",
    "api[_-]?key|apikey|access[_-]?key|secret[_-]?key(?:[_-]?base)?|private[_-]?key",
    "(?:encryption|signing|master)[_-]?key|client[_-]?secret|auth[_-]?token",
  ].join("|")
})`;

/**
 * Values that only refer to a secret, or are a type, placeholder or keyword in code: never redacted. Words
 * match whole, so a password that merely starts with one (`strongPassw0rd`, `xK9m…`) is still caught.
 */
const harmlessValue = lazily(() =>
  new RegExp(
    String.raw`^(?:\$|\{|<|%|process\.env|os\.environ|env\(|secrets\.|\[REDACTED:)|` +
      String.raw`^(?:string|number|boolean|str|int|bool|bytes|secretstr|null|none|nil|undefined|true|false|` +
      String.raw`optional|required|redacted|include|omit|same-origin|read|write|bearer|basic|\*+|x+|` +
      // A number or colour literal (`0x000C`, `#ffffff`); a 64-digit hex private key is no number.
      String.raw`0x[0-9a-f]{1,16}|#[0-9a-f]{3,8})$`,
    "i",
  )
);

/** A bare value that looks generated or typed as a password: a digit, and no call, member access or index. */
const LOOKS_GENERATED = /^(?=.*\d)[\w+/=!@#$%^~?:-]{6,}$/;

/** Replaces the value that follows a kept prefix (a flag, `user:`), unless it only refers to a secret. */
const valueAfter = (match: string, prefix = "", value = "") =>
  harmlessValue().test(value) ? match : `${prefix}${tag("secret")}`;

const BUILT_IN: readonly Rule[] = [
  {
    category: "private_key",
    hints: ["PRIVATE KEY"],
    // The end marker is optional: an excerpt cut inside a key must not leak the part it kept.
    regex: () =>
      /-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----[\s\S]*?(?:-----END [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----|$)/g,
  },
  {
    category: "anthropic_key",
    hints: ["sk-ant-"],
    regex: () => /\bsk-ant-[a-z]{2,10}\d{0,3}-[A-Za-z0-9_-]{20,}/g,
  },
  {
    category: "openai_key",
    hints: ["sk-"],
    regex: () => /\bsk-(?:proj-|svcacct-|admin-|None-)?[A-Za-z0-9_-]{20,}/g,
  },
  {
    category: "github_token",
    hints: ["ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"],
    regex: () => /\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{22,})/g,
  },
  {
    category: "gitlab_token",
    hints: ["glpat-", "gldt-", "glrt-", "glptt-"],
    regex: () => /\bgl(?:pat|dt|rt|ptt)-[A-Za-z0-9_-]{20,}/g,
  },
  { category: "npm_token", hints: ["npm_"], regex: () => /\bnpm_[A-Za-z0-9]{36}\b/g },
  {
    category: "aws_key",
    hints: ["AKIA", "ASIA", "ABIA", "ACCA"],
    regex: () => /\b(?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}\b/g,
  },
  {
    category: "slack_token",
    hints: ["xox", "xapp-", "hooks.slack.com"],
    regex: () =>
      /\b(?:xox[abposre]|xapp)-[A-Za-z0-9-]{10,}|https:\/\/hooks\.slack\.com\/services\/[A-Za-z0-9/_-]{20,}/g,
  },
  {
    category: "stripe_key",
    hints: ["_live_", "_test_", "whsec_"],
    regex: () => /\b(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}|\bwhsec_[A-Za-z0-9]{20,}/g,
  },
  {
    category: "google_key",
    hints: ["AIza", "GOCSPX-", "ya29."],
    regex: () => /\bAIza[0-9A-Za-z_-]{35}|\bGOCSPX-[A-Za-z0-9_-]{20,}|\bya29\.[0-9A-Za-z_-]{20,}/g,
  },
  {
    category: "jwt",
    hints: ["eyJ"],
    regex: () => /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g,
  },
  {
    category: "bearer_token",
    hints: ["Bearer", "Basic", "Token"],
    regex: () => /\b(Bearer|Basic|Token)\s+([A-Za-z0-9._~+/=-]{16,})/g,
    // A single word after the scheme is prose ("Basic internationalization"), dashes are ASCII art.
    replace: (match, scheme, token = "") =>
      /^(?:[A-Z]?[a-z-]+|[^A-Za-z0-9]+)$/.test(token) ? match : `${scheme} ${tag("bearer_token")}`,
  },
  {
    category: "connection_string",
    // Every match ends in `@`, which URLs (a fetch, a log line) seldom hold, unlike `://`.
    hints: ["@"],
    // scheme://user:password@host: the user and host help reading the log; the password never appears. The
    // password runs to the last `@` before the path, as people write `@` in it unencoded. A reference
    // (`${DB_PASSWORD}`, `$PGPASS`, `<password>`) stays, and so does a token that an earlier rule already
    // replaced (`https://[REDACTED:github_token]@…`), with its more telling tag.
    regex: () => /\b([a-z][a-z0-9+.-]{1,20}):\/\/([^\s:@/'"[]*):([^\s/'"]+)@/gi,
    replace: (match, scheme, user, password = "") =>
      /^(?:\[REDACTED:.*|\$\{[^}]*\}|\$[A-Z_][A-Z0-9_]*|<[^>]*>)$/.test(password)
        ? match
        : `${scheme}://${user}:${tag("connection_string")}@`,
  },
  // Credentials on a command line: `curl -u user:pw`, `mysql -ppw`. The look for the flag stops after 200
  // characters, so that a line of repeated `curl`s stays linear.
  {
    category: "secret",
    hints: ["curl"],
    regex: () => /(\bcurl\b[^\n|;&]{0,200}?\s(?:-u|--user)[ =]?['"]?[^\s:'"`]*:)([^\s'"`,;)\]}]+)/g,
    replace: valueAfter,
  },
  {
    category: "secret",
    hints: ["mysql", "mariadb"],
    regex: () => /(\b(?:mysql|mariadb)[\w-]*\b[^\n|;&]{0,200}?\s-p['"]?)([^\s'"`,;)\]}]+)/g,
    replace: valueAfter,
  },
  {
    category: "secret",
    hints: ["--pass", "--token", "--api", "--auth-token", "--access-token", "--client-secret"],
    regex: () =>
      /(\s--(?:password|passwd|token|api-key|apikey|auth-token|access-token|client-secret)(=|\s+)['"]?)([^\s'"`,;)\]}-][^\s'"`,;)\]}]*)/g,
    // "the --password option": a lone lowercase word after a space is prose about the flag.
    replace: (match, prefix, separator, value = "") =>
      separator !== "=" && /^[a-z]+[.:!?]?$/.test(value) ? match : valueAfter(match, prefix, value),
  },
  {
    category: "secret",
    // Every name SECRET_NAME allows contains one of these; "key" alone is too common (`session key`) to be one.
    hints: [
      "secret",
      "token",
      "pass",
      "pwd",
      "credential",
      ...["api", "access", "private", "encryption", "signing", "master"].flatMap((word) =>
        ["", "_", "-"].map((separator) => `${word}${separator}key`)
      ),
    ],
    anyCase: true,
    // `"password": "…"`, `api_key = '…'`, `DB_PASSWORD=…`, `?token=…`: the name stays, the value goes.
    regex: lazily(() =>
      new RegExp(
        String
          .raw`(["']?)\b(${SECRET_NAME})\1(\s*[:=]\s*|=)(?:"([^"\n]{4,})"|'([^'\n]{4,})'|([^\s"',;&)}\]]{4,}))` +
          // Captures the rest of the line when it is empty or a comment: `KEY: value` then ends a YAML line.
          String.raw`(?=([ \t]*(?:#.*)?$)|)`,
        "gim",
      )
    ),
    replace: (match, quote = "", name = "", separator = "", doubleQuoted, singleQuoted, bare, lineEnd) => {
      const value = doubleQuoted ?? singleQuoted ?? bare ?? "";
      if (harmlessValue().test(value)) return match;
      // `PWD`, `OLDPWD` and `GOOGLE_APPLICATION_CREDENTIALS` hold paths, which `env` prints.
      if (/(?:pwd|credentials)$/i.test(name) && /^(?:~|[A-Za-z]:)?[/\\]/.test(value)) return match;
      // Unquoted values in code are usually expressions (`token = getToken()`). They are taken literally
      // where code cannot be: env-style assignments (`DB_PASSWORD=…`, or a YAML `POSTGRES_PASSWORD: …` line),
      // hyphenated names (`X-Api-Key: …`) and dotted properties keys (`db.password=…`). Elsewhere only
      // values that look generated or typed as a password are secrets.
      const literal = quote === "" && (
        /^[A-Z0-9_]+$/.test(name) &&
          (separator === "=" || separator.includes(":") && lineEnd !== undefined) ||
        name.includes("-") ||
        name.includes(".") && separator === "="
      );
      if (bare !== undefined && !literal && !LOOKS_GENERATED.test(bare)) return match;
      const quoteMark = doubleQuoted !== undefined ? '"' : singleQuoted !== undefined ? "'" : "";
      return `${quote}${name}${quote}${separator}${quoteMark}${tag("secret")}${quoteMark}`;
    },
  },
];

/** Files whose content is never stored, whatever it looks like. Matched against the file's base name. */
const secretFiles = lazily(() =>
  /^(?:\.env.*|.*\.(?:pem|key|p12|pfx|jks|keystore|kdbx|ppk)|id_(?:rsa|dsa|ecdsa|ed25519).*|[._]netrc|\.npmrc|\.pypirc|\.pgpass|\.?htpasswd)$/i
);

/**
 * A base name saying "secret" or "credential" (`credentials.json`, `secrets.yaml`, `.git-credentials`) marks a
 * secret file, unless it is source or documentation: `auth/credentials.ts` is code about secrets, and its
 * content goes through the text filter like any other file's.
 */
const secretWord = lazily(() => /secret|credential/i);
const sourceFile = lazily(() =>
  /\.(?:[cm]?[jt]sx?|py|go|rs|java|kt|rb|php|cs|swift|c|cc|cpp|h|hpp|vue|svelte|md|mdx|rst|adoc)$/i
);

/** Files with a generic name that hold credentials where they live. Matched against the whole path. */
const secretPaths = lazily(() => /(?:^|\/)(?:\.kube\/config|\.docker\/config\.json)$/i);

/**
 * Strings one of which, in lower case, the path of every file that secretFiles, secretWord or secretPaths
 * matches holds: most paths hold none, and then none of those patterns is made.
 */
const SECRET_FILE_HINTS = [
  ...[".env", ".pem", ".key", ".p12", ".pfx", ".jks", ".kdbx", ".ppk", "id_", "netrc", ".npmrc", ".pypirc"],
  ...[".pgpass", "htpasswd", "secret", "credential", ".kube/config", ".docker/config.json"],
];

export const SECRET_FILE_TAG = tag("secret_file");

export interface Redactor {
  /** The text with every secret replaced. */
  redact(text: string): string;
  /** Whether a file's content must never be stored. */
  isSecretFile(path: string): boolean;
}

/** Tests a path against a glob: one with a slash is a path (matched at any depth), one without a base name. */
function globMatcher(glob: string): (path: string) => boolean {
  let source = "";
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (c === "*" && glob[i + 1] === "*") {
      source += ".*";
      i++;
      if (glob[i + 1] === "/") i++;
    } else if (c === "*") source += "[^/]*";
    else if (c === "?") source += "[^/]";
    else source += c.replace(/[.+^${}()|[\]\\]/g, "\\$&");
  }
  if (!glob.includes("/")) {
    const name = new RegExp(`^${source}$`, "i");
    return (path) => name.test(baseName(path));
  }
  const path = new RegExp(`(?:^|/)${source}$`, "i");
  return (candidate) => path.test(candidate);
}

/**
 * The built-in rules plus the user's. A user pattern that no longer compiles (the config cache was written
 * by another engine) is skipped, never thrown: the hook fails open.
 */
export function createRedactor(
  userPatterns: readonly RedactRule[],
  excludeFiles: readonly string[],
): Redactor {
  const rules: Rule[] = [...BUILT_IN];
  for (const user of userPatterns) {
    try {
      const regex = new RegExp(user.pattern, user.ignoreCase ? "gi" : "g");
      rules.push({ category: user.category, regex: () => regex });
    } catch { /* reported by `check` and `doctor`, which validate the config */ }
  }
  const excluded: ((path: string) => boolean)[] = [];
  for (const glob of excludeFiles) {
    try {
      excluded.push(globMatcher(glob.replace(/\\/g, "/")));
    } catch { /* as above */ }
  }
  return {
    redact(text) {
      let out = text;
      let lower: string | undefined;
      for (const rule of rules) {
        if (rule.hints !== undefined) {
          const haystack = rule.anyCase ? (lower ??= out.toLowerCase()) : out;
          if (!rule.hints.some((hint) => haystack.includes(hint))) continue;
        }
        const regex = rule.regex();
        regex.lastIndex = 0;
        if (!regex.test(out)) continue;
        regex.lastIndex = 0;
        const replace = rule.replace;
        out = replace
          ? out.replace(regex, (match, ...groups) => replace(match, ...groups))
          : out.replace(regex, tag(rule.category));
        lower = undefined;
      }
      return out;
    },
    isSecretFile(path) {
      const normalized = path.replaceAll("\\", "/");
      const name = baseName(normalized);
      const lower = normalized.toLowerCase();
      const builtIn = SECRET_FILE_HINTS.some((hint) => lower.includes(hint)) &&
        (secretFiles().test(name) || (secretWord().test(name) && !sourceFile().test(name)) ||
          secretPaths().test(normalized));
      return builtIn || excluded.some((matches) => matches(normalized));
    },
  };
}
