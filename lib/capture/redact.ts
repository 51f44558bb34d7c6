/**
 * The privacy filter (SPEC §4): secrets are replaced by `[REDACTED:category]` before anything is written.
 * The patterns lean on the shapes providers document (and gitleaks/detect-secrets use), with minimum lengths
 * and key-name rules that keep ordinary code, UUIDs and lock-file hashes intact.
 */
import type { RedactRule } from "../config/types.ts";

interface Rule {
  category: string;
  regex: RegExp;
  /** Builds the replacement from the match, to keep harmless context (a URL's user and host, a key name). */
  replace?: (match: string, ...groups: (string | undefined)[]) => string;
}

const tag = (category: string) => `[REDACTED:${category}]`;

/** Key names whose value is a secret: the name must end in one of these (`max_tokens` is not one). */
const SECRET_NAME =
  String.raw`[A-Za-z0-9_.-]*?(?:secret|token|passw(?:or)?d|passphrase|pwd|api[_-]?key|apikey|` +
  String.raw`access[_-]?key|secret[_-]?key|private[_-]?key|client[_-]?secret|auth[_-]?token|credentials?)`;

/** Values that only refer to a secret, or are a type or placeholder in code: never redacted. */
const HARMLESS_VALUE =
  /^(?:\$|\{|<|%|process\.env|os\.environ|env\(|secrets\.|string|number|boolean|str|int|bool|bytes|null|none|nil|undefined|true|false|optional|required|redacted|\*+|x+)/i;

const BUILT_IN: readonly Rule[] = [
  {
    category: "private_key",
    // The end marker is optional: an excerpt cut inside a key must not leak the part it kept.
    regex:
      /-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----[\s\S]*?(?:-----END [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----|$)/g,
  },
  { category: "anthropic_key", regex: /\bsk-ant-[a-z]{2,10}\d{0,3}-[A-Za-z0-9_-]{20,}/g },
  { category: "openai_key", regex: /\bsk-(?:proj-|svcacct-|admin-|None-)?[A-Za-z0-9_-]{20,}/g },
  { category: "github_token", regex: /\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{22,})/g },
  { category: "aws_key", regex: /\b(?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}\b/g },
  {
    category: "slack_token",
    regex: /\bxox[abposre]-[A-Za-z0-9-]{10,}|https:\/\/hooks\.slack\.com\/services\/[A-Za-z0-9/_-]{20,}/g,
  },
  { category: "stripe_key", regex: /\b(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}|\bwhsec_[A-Za-z0-9]{20,}/g },
  {
    category: "google_key",
    regex: /\bAIza[0-9A-Za-z_-]{35}|\bGOCSPX-[A-Za-z0-9_-]{20,}|\bya29\.[0-9A-Za-z_-]{20,}/g,
  },
  { category: "jwt", regex: /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g },
  {
    category: "bearer_token",
    regex: /\b(Bearer|Basic|Token)\s+([A-Za-z0-9._~+/=-]{16,})/g,
    replace: (_match, scheme) => `${scheme} ${tag("bearer_token")}`,
  },
  {
    category: "connection_string",
    // scheme://user:password@host: the user and host help reading the log; the password never appears.
    regex: /\b([a-z][a-z0-9+.-]{1,20}):\/\/([^\s:@/'"]*):([^\s@/'"]+)@/gi,
    replace: (_match, scheme, user) => `${scheme}://${user}:${tag("connection_string")}@`,
  },
  {
    category: "secret",
    // `"password": "…"`, `api_key = '…'`, `DB_PASSWORD=…`, `?token=…`: the name stays, the value goes.
    regex: new RegExp(
      String
        .raw`(["']?)\b(${SECRET_NAME})\1(\s*[:=]\s*|=)(?:"([^"\n]{4,})"|'([^'\n]{4,})'|([^\s"',;&)}\]]{4,}))`,
      "gi",
    ),
    replace: (match, quote = "", name = "", separator = "", doubleQuoted, singleQuoted, bare) => {
      const value = doubleQuoted ?? singleQuoted ?? bare ?? "";
      if (HARMLESS_VALUE.test(value)) return match;
      // Unquoted values in code are usually expressions (`token = getToken()`); only env-style assignments
      // and values that look generated (long, with digits, no call or member access) are secrets.
      const envStyle = separator === "=" && /^[A-Z0-9_]+$/.test(name);
      if (bare !== undefined && !envStyle && !/^(?=.*\d)[A-Za-z0-9+/_=-]{6,}$/.test(bare)) return match;
      const quoteMark = doubleQuoted !== undefined ? '"' : singleQuoted !== undefined ? "'" : "";
      return `${quote}${name}${quote}${separator}${quoteMark}${tag("secret")}${quoteMark}`;
    },
  },
];

/** Files whose content is never stored, whatever it looks like. Matched against the file's base name. */
const SECRET_FILES =
  /^(?:\.env.*|.*\.(?:pem|key|p12|pfx|jks|keystore|kdbx|ppk)|id_(?:rsa|dsa|ecdsa|ed25519)(?:\..*)?|.*credential.*|.*secret.*|\.netrc|\.npmrc|\.pypirc|\.git-credentials|\.pgpass|htpasswd|\.htpasswd)$/i;

export const SECRET_FILE_TAG = tag("secret_file");

export interface Redactor {
  /** The text with every secret replaced. */
  redact(text: string): string;
  /** Whether a file's content must never be stored. */
  isSecretFile(path: string): boolean;
}

function globToRegExp(glob: string): RegExp {
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
  // A glob with a slash is a path (matched at any depth); without one it is a base name.
  return new RegExp(glob.includes("/") ? `(?:^|/)${source}$` : `^${source}$`, "i");
}

const baseName = (path: string) => path.slice(path.replace(/\\/g, "/").lastIndexOf("/") + 1);

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
      rules.push({ category: user.category, regex: new RegExp(user.pattern, user.ignoreCase ? "gi" : "g") });
    } catch { /* reported by `check` and `doctor`, which validate the config */ }
  }
  const excluded: RegExp[] = [];
  for (const glob of excludeFiles) {
    try {
      excluded.push(globToRegExp(glob.replace(/\\/g, "/")));
    } catch { /* as above */ }
  }
  return {
    redact(text) {
      let out = text;
      for (const rule of rules) {
        rule.regex.lastIndex = 0;
        if (!rule.regex.test(out)) continue;
        rule.regex.lastIndex = 0;
        const replace = rule.replace;
        out = replace
          ? out.replace(rule.regex, (match, ...groups) => replace(match, ...groups))
          : out.replace(rule.regex, tag(rule.category));
      }
      return out;
    },
    isSecretFile(path) {
      const normalized = path.replace(/\\/g, "/");
      return SECRET_FILES.test(baseName(normalized)) || excluded.some((glob) => glob.test(normalized));
    },
  };
}
