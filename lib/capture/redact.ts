/**
 * The privacy filter: secrets are replaced by `[REDACTED:category]` before anything is written.
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
  /**
   * A finer test than the hints, still without a regex, for rules whose regex costs milliseconds to compile
   * and whose hints are common words (`key`, `pass`): given the text the hints were looked for in.
   */
  worth?: (haystack: string) => boolean;
  /** Made when the rule first runs: most never do (see hints), and a regex costs its parsing when made. */
  regex: () => RegExp;
  /**
   * Builds the replacement from the match and its groups, to keep harmless context (a URL's user and host, a
   * key name). After the groups come the match's offset and the whole text, as String.replace passes them.
   */
  replace?: (match: string, ...groups: (string | undefined)[]) => string;
}

const tag = (category: string) => `[REDACTED:${category}]`;

/**
 * Words that make a key name hold a secret. The short ones count only as a word of their own in the name
 * (`ibm_key`, `SMTP_PASS`, `user_auth`), or `monkey`, `keyword`, `author` and `bypass` would.
 */
const KEY_WORD =
  String.raw`secret|token|passw(?:or)?d|passphrase|credentials?|api[_.-]?key|apikey|access[_.-]?key|` +
  String.raw`private[_.-]?key|pass|pwd|creds|auth|key`;
const SHORT_KEY_WORD = lazily(() => /^(?:pass|pwd|creds|auth|key)$/i);
const keyWords = lazily(() => new RegExp(KEY_WORD, "gi"));

/**
 * A name ending in one of these holds a secret whatever its value looks like (`max_tokens` does not end so).
 * `auth` and `key` end names of other things too (`SERVER_AUTH`, `cacheKey`): there only a random value is one.
 */
const SECRET_NAME_END = lazily(() =>
  /(?:secret|sshpass|token|passw(?:or)?d|passphrase|credentials?|api[_.-]?key|apikey|(?:access|private|encryption|signing|master)[_.-]?key|secret[_.-]?key(?:[_.-]?base)?)$/i
);
const SECRET_LAST_WORD = lazily(() => /^(?:pass|pwd|creds)$/i);

/** Names of keys that are not secrets: public keys and keys that index data. */
const NOT_SECRET_KEY = lazily(() => /(?:public|pub|primary|foreign|partition|sort)[_.-]?key$/i);

/**
 * What a name says after its key word when the value is about the secret rather than the secret itself
 * (`token_url`, `secretName`, `api_key_id`, `password_min_length`).
 */
const DESCRIPTOR = lazily(() =>
  /^(?:ids?|names?|url|uri|endpoint|path|file|dir|type|kind|len|length|size|count|min|max|version|header|field|prefix|suffix|format|expiry|expires|ttl|timeout|hash|label|env|var)$/i
);

/** The words of an identifier: split at `_`, `.`, `-`, digits and camelCase humps. */
const words = (name: string) => name.split(/[_.\-\d]+|(?<=[a-z])(?=[A-Z])/).filter(Boolean);

/**
 * How a key name holds a secret: `named` when it ends in a secret's word, `described` when only a random
 * value would be one (`some_api_token_123`, `mySecretString`, `ibm_key`, `user_auth`).
 */
function secretName(name: string): "named" | "described" | undefined {
  // The JSON Web Token libraries (npm `jsonwebtoken`, Maven `io.jsonwebtoken`) are named like a token.
  if (NOT_SECRET_KEY().test(name) || /jsonwebtoken$/i.test(name)) return undefined;
  const parts = words(name).map((part) => part.toLowerCase());
  if (SECRET_NAME_END().test(name) || SECRET_LAST_WORD().test(parts.at(-1) ?? "")) return "named";
  // `key` alone names anything (`key=value`, a React key, a cache key).
  if (parts.length === 1 && parts[0] === "key") return undefined;
  let after: string | undefined;
  for (const found of name.matchAll(keyWords())) {
    if (!SHORT_KEY_WORD().test(found[0]) || parts.includes(found[0].toLowerCase())) {
      after = name.slice(found.index + found[0].length);
    }
  }
  if (after === undefined || words(after).some((part) => DESCRIPTOR().test(part))) return undefined;
  return "described";
}

/**
 * Values that only refer to a secret, or are a type, placeholder, keyword, version or format string in code:
 * never redacted. Words match whole, so a password that merely starts with one (`strongPassw0rd`, `xK9m…`)
 * is still caught.
 */
const harmlessValue = lazily(() =>
  new RegExp(
    String.raw`^(?:\$|\{|<|%|process\.env|os\.environ|env\(|secrets\.|\[REDACTED:)|` +
      String.raw`^(?:string|number|boolean|str|int|bool|bytes|secretstr|null|none|nil|undefined|true|false|` +
      String.raw`optional|required|redacted|include|omit|same-origin|read|write|bearer|basic|\*+|x+|` +
      // A number or colour literal (`0x000C`, `#ffffff`); a 64-digit hex private key is no number.
      String.raw`0x[0-9a-f]{1,16}|#[0-9a-f]{3,8}|` +
      // A version, an OID or an address (`^9.0.2`, `1.3.6.1.5.5.7.3.1`, `v0.0.0-20240102150405-abcdef012345`);
      // a key that starts like a version (`v1.0-` and 170 hex digits) has a longer tail.
      String.raw`[~^v=<>]*\d+(?:\.\d+)+(?:[-+][\w.-]{1,40})?)$|` +
      // A template or format string (`key:${request}`, `--user=%s`, `{0}`).
      String.raw`\$\{[\w.\s]+\}|%[-+ #0-9.]*[sdifr]\b|\{\d*\}`,
    "i",
  )
);
const harmless = (value: string) => harmlessValue().test(value.trim());

/** The start of a call, index or generic type in code: `getToken(`, `os.environ[`, `z.ZodOptional<`. */
const CALL = lazily(() => /^[A-Za-z_$][\w$]*(?:(?:\.|::|->)[A-Za-z_$][\w$]*)*[([<]/);
/**
 * A member or path chain in code (`self._token`, `settings.API_TOKEN`, `std::env::var`), unless it is long
 * and full of digits: a Discord token has dots too.
 */
const isChain = (value: string) =>
  /^[A-Za-z_$][\w$]*(?:(?:\.|::|->)[A-Za-z_$][\w$]*)+$/.test(value) &&
  (value.length < 40 || (value.match(/\d/g)?.length ?? 0) < 6);

/** A file or URL that a name like `token` or `credentials` points to. */
const LOCATION = lazily(() => /^(?:(?:~|[A-Za-z]:)?[/\\][\w./\\-]*|[a-z][\w+.-]*:\/\/\S*)$/i);

/** Characters of tokens and passwords, a digit among them. */
const TYPED = lazily(() => /^(?=.*\d)[\w+/=!@#$%^~?:.-]+$/);
/** Braces where code would have a call or index: `m{{h}o)p${e]…`, not `[]byte(` or `f(x)`. */
const ODD_BRACES = lazily(() => /^\w[^([<]*[{}]/);

/** A bare value that reads as typed or generated rather than as code, a path or prose. */
const looksGenerated = (value: string) =>
  value.length >= 6 && !CALL().test(value) && !isChain(value) && !LOCATION().test(value) &&
  (TYPED().test(value) || ODD_BRACES().test(value));

/** Bits of information per character: a random token has many, a word or an identifier few. */
function entropy(value: string): number {
  const counts = new Map<string, number>();
  for (const char of value) counts.set(char, (counts.get(char) ?? 0) + 1);
  let bits = 0;
  for (const count of counts.values()) bits -= (count / value.length) * Math.log2(count / value.length);
  return bits;
}

/**
 * A value that looks like a generated token, where the name alone does not say it is a secret: letters and
 * digits mixed in a run (`dafa7817`, not `w32` or `symbol2label`'s single digit among words), or odd braces.
 */
const looksRandom = (value: string, minLength: number) =>
  value.length >= minLength && entropy(value) >= 3 && looksGenerated(value) &&
  (ODD_BRACES().test(value) ||
    (value.match(/[A-Za-z0-9]{6,}/g) ?? []).some((run) =>
      /[A-Za-z]\d|\d[A-Za-z]/.test(run) && /\d.*\d/.test(run)
    ));

/** Replaces the value that follows a kept prefix (a flag, `user:`), unless it only refers to a secret. */
const valueAfter = (match: string, prefix = "", value = "") =>
  harmless(value) ? match : `${prefix}${tag("secret")}`;

/**
 * A value's closing brackets that belong to the code around it (`{token: abc123}`), not to the value: from the
 * end, each closing bracket that has more of its kind than openings before it. The brackets are counted once,
 * so that a value of many closing brackets costs no more than its length.
 */
function unbalancedTail(value: string): number {
  const opened = [0, 0, 0];
  const closed = [0, 0, 0];
  for (const char of value) {
    if ("([{".indexOf(char) >= 0) opened["([{".indexOf(char)]++;
    if (")]}".indexOf(char) >= 0) closed[")]}".indexOf(char)]++;
  }
  let cut = value.length;
  for (let kind = ")]}".indexOf(value[cut - 1]); kind >= 0; kind = ")]}".indexOf(value[cut - 1])) {
    if (opened[kind] >= closed[kind]) break;
    closed[kind]--;
    cut--;
  }
  return cut;
}

/** A value up to its first bracket that closes nothing: `string` of `password: string): void`, `T` of `T>(`. */
function beforeUnbalanced(value: string): string {
  const depth = [0, 0, 0, 0];
  for (let i = 0; i < value.length; i++) {
    const open = "([{<".indexOf(value[i]);
    const close = ")]}>".indexOf(value[i]);
    if (open >= 0) depth[open]++;
    else if (close >= 0 && depth[close]-- === 0) return value.slice(0, i);
  }
  return value;
}

/**
 * Where a key's value stands: a typed declaration (`apiKey: string = …`, `var token string = …`), a YAML
 * block, `=`, `:`, `:=`, `::=`, `?=`, `+=`, `.=`, `=>`, the argument after a quoted name
 * (`getenv("api_token", "…")`) and `name "value";`.
 */
const ASSIGNMENT = [
  String.raw`(?:[ \t]*:[ \t]*|[ \t]+)[A-Za-z_][\w.]*(?:\[\])?[ \t]*=(?!=)[ \t]*`,
  String.raw`[ \t]*:[ \t]*[|>][-+]?[ \t]*\r?\n[ \t]+`,
  String.raw`[ \t]*(?::{1,3}=|=>|[+?.]?=(?!=)|:(?!:))[ \t]*`,
  String.raw`[ \t]*,[ \t]*`,
  String.raw`[ \t]*(?=@?["'][^"'\n]+["'];)`,
].join("|");

/**
 * A key name: up to 64 characters, the key word, and up to 30 more (`_123`, `String`). The bounds keep a long
 * run of name characters (`a-key-a-key-…`) linear: each start looks a bounded way ahead.
 */
const KEY_NAME = String.raw`[A-Za-z0-9_.-]{0,64}?(?:${KEY_WORD})[A-Za-z0-9_.-]{0,30}?`;

/** Every key word is or contains one of these. */
const KEY_HINTS = ["secret", "token", "pass", "pwd", "credential", "creds", "auth", "key"];

/** Lower-case letters, digits and `_` (`word`), with `.` and `-` (`name`): tested by hand, as below. */
const isWordChar = (c: string) => c >= "a" && c <= "z" || c >= "0" && c <= "9" || c === "_";
const isNameChar = (c: string) => isWordChar(c) || c === "." || c === "-";
const isBlank = (c: string) => c === " " || c === "\t";

/**
 * Whether some hint in `text` (lower-cased) is followed, past the rest of its name, a closing quote or
 * bracket and blanks, by what ASSIGNMENT can start with: `=`, `:`, `,`, `+`, `?`, `.`, `>`, `@`, an opening quote,
 * or a type and then `=` (`token string = …`). A superset of where the key=value rule can match, found with
 * no regex: most text that names a key word (`session key`, `tests passed`) assigns nothing, and then the
 * rule's regex, about 3 ms to compile, is never made.
 */
function assignedAfterHint(text: string): boolean {
  const at = (i: number) => text.charAt(i);
  for (const hint of KEY_HINTS) {
    // Each search goes on from where the last one's name ended: a run of name characters is scanned once.
    for (
      let found = text.indexOf(hint), i = 0;
      found >= 0;
      found = text.indexOf(hint, Math.max(i, found + 1))
    ) {
      i = found + hint.length;
      while (isNameChar(at(i))) i++;
      while (at(i) !== "" && `\\"'\`[]`.includes(at(i))) i++;
      const blanks = i;
      while (isBlank(at(i))) i++;
      if (at(i) !== "" && `:=,+?.>@"'`.includes(at(i))) return true;
      if (i > blanks && isWordChar(at(i))) {
        while (isWordChar(at(i)) || at(i) === "." || at(i) === "[" || at(i) === "]") i++;
        while (isBlank(at(i))) i++;
        if (at(i) === "=") return true;
      }
    }
  }
  return false;
}

/**
 * Whether a key's value is to be redacted: `literal` when the context cannot be code, `weak` when only a
 * comma stands between name and value (an argument list, a CSV line), which takes a longer random value.
 */
function secretValue(name: string, value: string, literal: boolean, weak: boolean): boolean {
  const kind = secretName(name);
  // `PWD`, `OLDPWD` and `GOOGLE_APPLICATION_CREDENTIALS` hold paths, which `env` prints.
  if (kind === undefined || harmless(value) || /(?:pwd|credentials)$/i.test(name) && LOCATION().test(value)) {
    return false;
  }
  // A constant that spells its own name (`XToken = "x-token"`, `PASSWORD = "password"`) names a field.
  const letters = (text: string) => text.toLowerCase().replace(/[^a-z0-9]/g, "");
  if (letters(value) === letters(name)) return false;
  if (kind === "described" || weak) return looksRandom(value, weak ? 16 : 10);
  return literal || looksGenerated(value);
}

/**
 * The rest of a command line after its program, to the line end or to a `&&` or `||` that starts another
 * command: through `\` line continuations and single-quoted arguments, which may hold line ends (a JSON body
 * of several lines). A `|`, `;` or `&` does not end it, as quoted arguments hold them (`-d 'a=1&b=2'`,
 * `-H "…; charset=utf-8"`), and double quotes cannot be followed here, a `\"` in them being no end: past a
 * pipe, a flag of the next program is at worst read as this one's.
 */
const COMMAND_REST = String.raw`(?:\\(?:\r\n|[^\r])|'[^']*'|&(?!&)|\|(?!\|)|[^\n\\'|&])*`;

/** Where a flag's value starts: `=`, blanks, or blanks around a `\` line continuation. */
const FLAG_SEPARATOR = String.raw`(?:=|[ \t]*\\\r?\n[ \t]*|[ \t]*)`;

/**
 * A password flag and its value, which is no other flag: the value follows the flag (`-p pw`, `-p=pw`, past
 * a line continuation, `-ppw`) or, `attached`, only sticks to it, where a word of its own would be another
 * argument (`mysql -p shop` asks for the password and opens `shop`).
 */
const passwordFlag = (flag: string, attached = false) =>
  new RegExp(
    String.raw`(\s${flag}${attached ? "" : FLAG_SEPARATOR}['"]?)` +
      String.raw`([^\s'"${"`"},;|&)\]}-][^\s'"${"`"},;|&)\]}]*)`,
    "g",
  );

/** A program whose command line can hold a credential, and how to find and replace it there. */
interface CommandCredential {
  /** Strings one of which any command of the program holds, as Rule.hints. */
  hints: readonly string[];
  /** The program, and its subcommand where only that takes the credential, as a pattern's source. */
  program: string;
  flag: () => RegExp;
  replace: (match: string, ...groups: string[]) => string;
}

const COMMAND_CREDENTIALS: readonly CommandCredential[] = [
  {
    hints: ["curl"],
    program: "curl",
    // `-u user:password` (`--user`, and `-U`/`--proxy-user` for a proxy), its parts quoted or not.
    flag: lazily(() =>
      new RegExp(
        String
          .raw`(\s(?:-u|--user|-U|--proxy-user)${FLAG_SEPARATOR}["'{]*)(?:([^\s:'"${"`"}{}[\]]+)(["'}]*))?` +
          String.raw`(:["'{]*)([^\s'"${"`"},;)\]}]*)`,
        "g",
      )
    ),
    // The user stays; `-u "KEY:"` (no password) sends an API key as the user.
    replace: (match, prefix, user = "", closing = "", colon, password = "") =>
      user.startsWith("<") || harmless(password)
        ? match
        : password === ""
        ? looksGenerated(user) ? `${prefix}${tag("secret")}${closing}${colon}` : match
        : `${prefix}${user}${closing}${colon}${tag("secret")}`,
  },
  {
    // HTTPie (`http`, `https`) and xh (`xh`, `xhs`): the program stands as a word of its own, not in a URL.
    hints: ["http", "xh"].flatMap((
      program,
    ) => [`${program} `, `${program}s `, `${program}\t`, `${program}s\t`]),
    program: String.raw`(?<![\w./:-])(?:https?|xhs?)(?=[ \t])`,
    // `-a user:password` (`--auth`): the user stays. A value without a colon is a user alone (the password is
    // asked for) or, when it looks generated, the token of `--auth-type bearer`. A placeholder (`<user>`) or a
    // tag (`[REDACTED:secret]`) starts no value.
    flag: lazily(() =>
      new RegExp(
        String
          .raw`(\s(?:-a|--auth)${FLAG_SEPARATOR}["']?)([^\s:'"${"`"},;|&)\]}<[-][^\s:'"${"`"},;|&)\]}]*)?` +
          String.raw`(?:(:)([^\s'"${"`"},;|&)\]}]*))?`,
        "g",
      )
    ),
    replace: (match, prefix, user = "", colon, password = "") =>
      colon === undefined
        ? looksGenerated(user) ? `${prefix}${tag("secret")}` : match
        : password === "" || harmless(password)
        ? match
        : `${prefix}${user}:${tag("secret")}`,
  },
  {
    hints: ["mysql", "mariadb"],
    program: String.raw`mysql[\w-]*|mariadb[\w-]*`,
    flag: lazily(() => passwordFlag("-p", true)),
    replace: valueAfter,
  },
  {
    hints: ["login"],
    program: String.raw`(?:docker|podman|nerdctl|buildah|skopeo|oras|helm[ \t]+registry)[ \t]+login`,
    flag: lazily(() => passwordFlag("-p")),
    replace: valueAfter,
  },
  { hints: ["sshpass"], program: "sshpass", flag: lazily(() => passwordFlag("-p")), replace: valueAfter },
  { hints: ["redis-cli"], program: "redis-cli", flag: lazily(() => passwordFlag("-a")), replace: valueAfter },
  {
    hints: ["mongo"],
    program: String.raw`mongo(?:sh|dump|restore|export|import|stat|top|files)?`,
    flag: lazily(() => passwordFlag("-p")),
    replace: valueAfter,
  },
  {
    hints: ["sqlcmd", "bcp"],
    program: "sqlcmd|bcp",
    flag: lazily(() => passwordFlag("-P")),
    replace: valueAfter,
  },
  {
    hints: ["ldap"],
    program: String.raw`ldap(?:search|add|modify|delete|whoami|passwd|compare|modrdn)`,
    flag: lazily(() => passwordFlag("-w")),
    replace: valueAfter,
  },
  // `-passin pass:…`, `-passout pass:…`: other sources (`env:`, `file:`) only name the password.
  {
    hints: ["openssl"],
    program: "openssl",
    flag: lazily(() => passwordFlag("pass:", true)),
    replace: valueAfter,
  },
];

/** Whether `separator` stands in `text` right after 15 digits: the start of a Facebook app token. */
function digitsBefore(text: string, separator: string): boolean {
  for (let at = text.indexOf(separator, 15); at >= 0; at = text.indexOf(separator, at + 1)) {
    let digits = 0;
    while (digits < 15 && text.charCodeAt(at - 1 - digits) >= 48 && text.charCodeAt(at - 1 - digits) <= 57) {
      digits++;
    }
    if (digits === 15) return true;
  }
  return false;
}

const BUILT_IN: readonly Rule[] = [
  {
    category: "private_key",
    hints: ["private key", "private_key", "putty-user-key-file"],
    anyCase: true,
    // A PEM-style block of any label (`OPENSSH`, `X9.42 DH`, `PGP … BLOCK`, the SSH2 `---- BEGIN … ----`), in
    // any case, whatever its body holds: the body runs to the first END line, or to the end of the text, as
    // an excerpt cut inside a key must not leak the part it kept. The END line is taken after the body, and
    // only if it closes a private key, so that no repetition follows the body's (backtracking.ts).
    regex: () =>
      /(?:-----BEGIN[ _]|---- BEGIN )[A-Z0-9 _.]{0,60}?PRIVATE[ _]KEY(?:-----|[ _]BLOCK-----| ----)[\s\S]*?(?=(?:-----|---- )END[ _]|$)(?:(?:-----|---- )END[ _][A-Z0-9 _.]{0,60}?PRIVATE[ _]KEY(?:-----|[ _]BLOCK-----| ----))?|PuTTY-User-Key-File-\d\b[\s\S]*?(?=Private-MAC: |$)(?:Private-MAC: [0-9a-f]+)?/gi,
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
    hints: [
      ...["glpat-", "gloas-", "gldt-", "glrt", "glcbt-", "glptt-", "glft-", "glimt-", "glagent-", "glwt-"],
      ...["glsoat-", "glffct-", "GR1348941"],
    ],
    regex: () =>
      /\b(?:gl(?:pat|oas|dt|rtr?|cbt|ptt|ft|imt|agent|wt|soat|ffct)-[A-Za-z0-9_-]{20,}|GR1348941[A-Za-z0-9_-]{20,})/g,
  },
  { category: "npm_token", hints: ["npm_"], regex: () => /\bnpm_[A-Za-z0-9]{36}\b/g },
  {
    category: "npm_token",
    hints: [":_auth"],
    // .npmrc: `//registry/:_authToken=…` holds a token of any shape, `:_auth=` a base64 user:password.
    regex: () => /(:_auth(?:Token)?[ \t]*=[ \t]*)([^\s'"]+)/g,
    replace: (match, prefix, value = "") => harmless(value) ? match : `${prefix}${tag("npm_token")}`,
  },
  {
    category: "aws_key",
    hints: ["AKIA", "ASIA", "ABIA", "ACCA", "A3T"],
    regex: () => /\b(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}\b/g,
  },
  {
    category: "slack_token",
    hints: ["xox", "xapp-", "hooks.slack.com"],
    // Configuration tokens are `xoxe.xoxp-…`; a browser session's are `xoxc-…` and its cookie `xoxd-…`,
    // URL-encoded (`%2F`). A webhook URL may come without its scheme or JSON-escaped.
    regex: () =>
      /\b(?:xox[abposrecd](?:\.xox[bp])?|xapp)-[A-Za-z0-9%-]{8,}|\b(?:https?:\\?\/\\?\/)?hooks\.slack\.com\\?\/(?:services|workflows|triggers)\\?\/[A-Za-z0-9+/\\_-]{20,}/g,
  },
  {
    category: "stripe_key",
    hints: ["_live_", "_test_", "_prod_", "whsec_"],
    regex: () => /\b(?:sk|rk)_(?:live|test|prod)_[A-Za-z0-9]{10,}|\bwhsec_[A-Za-z0-9]{20,}/g,
  },
  {
    category: "google_key",
    hints: ["AIza", "GOCSPX-", "ya29."],
    regex: () => /\bAIza[0-9A-Za-z_-]{35}|\bGOCSPX-[A-Za-z0-9_-]{20,}|\bya29\.[0-9A-Za-z_-]{20,}/g,
  },
  {
    category: "jwt",
    // A JSON object in base64url starts `ey` (`{"`, `{ "`) or `ew` (`{` and a line break); the payload is
    // one too, so `.ey` or `.ew` is in every token. An unsigned token ends in its dot, or at the payload.
    hints: [".ey", ".ew"],
    // A token starts where no run of its characters does: a start after each `-` of one run (`-ey-ey-ey…`)
    // would scan the rest of the run again, for a time that grows with the square of its length.
    regex: () =>
      /(?<![\w-])e[wy][A-Za-z0-9_-]{10,}={0,2}\.e[wy][A-Za-z0-9_-]{10,}={0,2}(?:\.[A-Za-z0-9_-]*={0,2})?/g,
  },
  {
    category: "azure_secret",
    hints: ["Q~"],
    // An Azure AD client secret: three characters, a digit, `Q~`, then 31 to 34 more.
    regex: () => /(?<![\w~.-])[A-Za-z0-9_~.]{3}\dQ~[A-Za-z0-9_~.-]{31,34}(?![\w~.-])/g,
  },
  {
    category: "azure_secret",
    hints: ["AccountKey"],
    regex: () => /(AccountKey[ \t]*=[ \t]*["']?)[A-Za-z0-9+/]{86}==/g,
    replace: (_match, prefix) => `${prefix}${tag("azure_secret")}`,
  },
  {
    category: "cloudflare_key",
    hints: ["v1.0-"],
    // An origin CA key: `v1.0-`, 24 hex digits, `-`, 146 more.
    regex: () => /(?<![\w.-])v1\.0-[0-9a-f]{24}-[0-9a-f]{146}(?![\w-])/g,
  },
  {
    category: "facebook_token",
    hints: ["|", "%7c"],
    anyCase: true,
    worth: (haystack) => digitsBefore(haystack, "|") || digitsBefore(haystack, "%7c"),
    // An app access token is the app's id, `|` (`%7C` in a URL) and its secret or client token. The id is 15
    // or 16 digits, the secret holds a letter: numbers with a `|` between them are a table or a list.
    regex: () => /(?<![\w|%])\d{15,16}(?:\||%7C)(?=[\d_-]*[A-Za-z])[\w-]{27,40}(?![\w-])/gi,
  },
  { category: "pypi_token", hints: ["pypi-Ag"], regex: () => /\bpypi-Ag[A-Za-z0-9_-]{50,}/g },
  {
    category: "sendgrid_key",
    hints: ["SG."],
    regex: () => /\bSG\.[A-Za-z0-9_-]{16,32}\.[A-Za-z0-9_-]{16,64}/g,
  },
  { category: "twilio_key", hints: ["SK", "AC"], regex: () => /\b(?:SK|AC)[0-9a-z]{32}\b/g },
  {
    category: "telegram_token",
    hints: [":A"],
    regex: () => /(?<![0-9])[0-9]{5,16}:A[A-Za-z0-9_-]{34}(?![A-Za-z0-9_-])/g,
  },
  { category: "mailchimp_key", hints: ["-us"], regex: () => /\b[0-9a-f]{32}-us[0-9]{1,2}\b/g },
  {
    category: "square_token",
    hints: ["sq0csp-", "sq0atp-"],
    regex: () => /\bsq0(?:csp|atp)-[A-Za-z0-9_\\-]{22,60}/g,
  },
  {
    category: "artifactory_token",
    hints: ["AKC", "AP"],
    // An `AP` token has a digit or no capital after its third character: `APActivationPayload` is a name.
    regex: () =>
      /(?<![A-Za-z0-9])(?:AKC[A-Za-z0-9]{10,}|AP[0-9A-F](?:(?=[A-Za-z]*[0-9])[A-Za-z0-9]{8,}|[a-z0-9]{8,}))(?![A-Za-z0-9])/g,
  },
  { category: "huggingface_token", hints: ["hf_"], regex: () => /\bhf_[A-Za-z]{34}\b/g },
  {
    category: "bearer_token",
    // Schemes are names in any case (RFC 9110 §11.1): `bearer …` and GitHub's `token …` are as common. A flag
    // (`--token …`, `--auth-token …`) is not one; `Api-Token …` is.
    hints: ["bearer", "basic", "token"],
    anyCase: true,
    regex: () => /\b(?<!--[\w-]{0,40})(Bearer|Basic|Token)\s+([A-Za-z0-9._~+/=-]{8,})/gi,
    // Words after the scheme are prose ("Basic internationalization.", "Basic Node-API", "Basic JavaScript"),
    // dashes ASCII art. A word's humps each start with a capital, so that it splits one way only.
    // `token` in another case is a word of code and commands too (`vault kv get -field=token secret/ci`): it is
    // a scheme only right after an Authorization header's name.
    replace: (match, scheme = "", token = "", offset, text) =>
      /^(?:[A-Za-z][a-z]*(?:[A-Z][a-z]*)*(?:-[A-Za-z][a-z]*(?:[A-Z][a-z]*)*)*[.,:;!?)]*|[^A-Za-z0-9]+)$/.test(
          token,
        ) ||
        /^token$/i.test(scheme) && scheme !== "Token" &&
          !/authorization["']?[ \t]*:[ \t]*["']?$/i.test(
            String(text).slice(Math.max(0, Number(offset) - 40), Number(offset)),
          )
        ? match
        : `${scheme} ${tag("bearer_token")}`,
  },
  {
    category: "bearer_token",
    hints: ["authorization"],
    anyCase: true,
    // An Authorization header without a scheme holds the credential itself.
    regex: () =>
      /\b((?:Proxy-)?Authorization[ \t]*:[ \t]*)(?!(?:Bearer|Basic|Token|Api-Token|Digest|Negotiate|NTLM|AWS4-HMAC-SHA256)\b)([A-Za-z0-9._~+/=@-]{8,})/gi,
    replace: (match, prefix, value = "") =>
      /^[a-z]+$/.test(value) ? match : `${prefix}${tag("bearer_token")}`,
  },
  {
    category: "cookie",
    hints: ["cookie:"],
    anyCase: true,
    // A `Cookie:` or `Set-Cookie:` header's value, to the line's or the quoted argument's end: its cookies
    // are sessions, whatever their names. Prose about the header (`Cookie: header`) names no pair. The pair's
    // name is bounded, so that each start looks a bounded way ahead for its `=`.
    regex: () => /\b((?:Set-)?Cookie[ \t]*:[ \t]*)([^\s=;'"\\]{1,128}=[^\r\n'"\\]*)/gi,
    // Each cookie's value goes and its name stays; a `Set-Cookie:` header's attributes (`Path=/`) follow its one
    // cookie. A value an earlier rule replaced keeps its more telling tag.
    replace: (_match, prefix = "", pairs = "") =>
      prefix + pairs.split(";").map((pair, i) => {
        const value = pair.slice(pair.indexOf("=") + 1).trim();
        return (i > 0 && /^set-/i.test(prefix)) || !pair.includes("=") || value === "" ||
            value.startsWith("[REDACTED:")
          ? pair
          : `${pair.slice(0, pair.indexOf("=") + 1)}${tag("cookie")}`;
      }).join(";"),
  },
  {
    category: "signed_url",
    hints: ["sig=", "x-amz-signature=", "x-amz-security-token="],
    anyCase: true,
    // A pre-signed URL's signature (Azure SAS `sig=`, S3 `X-Amz-Signature=`) lets anyone holding it in; an S3
    // one's session token is a credential of its own. The rest of the query says what it grants; a template
    // (`sig=${signature}`) holds none.
    regex: () =>
      /((?:[?&]|\\u0026)(?:sig|X-Amz-Signature|X-Amz-Security-Token)=)([^&\s'"#\\$<{][^&\s'"#\\]*)/gi,
    replace: (_match, prefix) => `${prefix}${tag("signed_url")}`,
  },
  {
    category: "connection_string",
    // Every match ends in `@`, which URLs (a fetch, a log line) seldom hold, unlike `://`.
    hints: ["@"],
    // scheme://user:password@host, of any scheme, its slashes JSON-escaped or not: the user and host help
    // reading the log; the password never appears. The password runs to the last `@` before the path, as
    // people write `@` in it unencoded, or, holding no `@`, past a `/` they did not encode either. A reference
    // (`${DB_PASSWORD}`, `$PGPASS`, `<password>`) stays, and so does a token that an earlier rule already
    // replaced (`https://[REDACTED:github_token]@…`), with its more telling tag. A port and a path
    // (`http://localhost:3000/users/@alice`) are no password.
    regex: () => /\b([a-z][a-z0-9+.-]{1,20}):(\\?\/\\?\/)([^\s:@/'"[]*):([^\s/'"]+|[^\s@'"]{1,256})@/gi,
    replace: (match, scheme, slashes, user, password = "") =>
      /^(?:\[REDACTED:.*|\$\{[^}]*\}|\$[A-Z_][A-Z0-9_]*|<[^>]*>|\d+\\?\/.*)$/.test(password)
        ? match
        : `${scheme}:${slashes}${user}:${tag("connection_string")}@`,
  },
  // Credentials on a command line (`curl -u user:pw`, `mysql -ppw`, `docker login -p pw`): the match is the
  // command, and the program's flags are read in it alone.
  ...COMMAND_CREDENTIALS.map(({ hints, program, flag, replace }): Rule => ({
    category: "secret",
    hints,
    regex: lazily(() => new RegExp(String.raw`\b(?:${program})\b${COMMAND_REST}`, "g")),
    replace: (command) => command.replace(flag(), replace),
  })),
  {
    category: "secret",
    hints: ["--pass", "-password", "--token", "--api", "--auth-token", "--access-token", "--client-secret"],
    // wget's `--http-password` and the like too, the value on the next line after a `\` continuation.
    regex: () =>
      /(\s--(?:(?:http-|ftp-|proxy-)?password|passwd|pass|token|api-key|apikey|auth-token|access-token|client-secret)(=|(?:\s|\\(?=\r?\n))+)['"]?)([^\s'"`,;)\]}-][^\s'"`,;)\]}]*)/g,
    // "the --password option": a lone lowercase word after a space is prose about the flag.
    replace: (match, prefix, separator, value = "") =>
      separator !== "=" && /^[a-z]+[.:!?]?$/.test(value) ? match : valueAfter(match, prefix, value),
  },
  {
    category: "secret",
    // Every key word is or contains one of these.
    hints: KEY_HINTS,
    anyCase: true,
    worth: assignedAfterHint,
    // `"password": "…"`, `api_key = '…'`, `DB_PASSWORD=…`, `?token=…`, `token := "…"`, `$secret = "…"`,
    // `some_dict["secret"] = …`, `apiKey: string = "…"`: the name stays, the value goes. The name may be
    // quoted, JSON-escaped included (`\"token\": \"…\"`).
    regex: lazily(() =>
      new RegExp(
        String.raw`(\\?["'${"`"}]?)\b(${KEY_NAME})\1((?<=["'])\]|\[\])?(${ASSIGNMENT})` +
          String
            .raw`(?:@?"([^"\n]{4,})"|'([^'\n]{4,})'|${"`"}([^${"`"}\n]{4,})${"`"}|\\"([^"\\\n]{4,})\\"|([^\s"'${"`"},;&]{4,}))` +
          // Captures the rest of the line when it is empty or a comment: `KEY: value` then ends a YAML line.
          String.raw`(?=([ \t]*(?:#.*)?$)|)(?=((?<=["'${"`"}])[ \t]*[+%][^+=])|)`,
        "gim",
      )
    ),
    replace: (match, quote = "", name = "", brackets = "", assignment = "", ...values) => {
      const [doubleQuoted, singleQuoted, backQuoted, escaped, bare, lineEnd, continued, offset, text] =
        values;
      const quoted = doubleQuoted ?? singleQuoted ?? backQuoted ?? escaped;
      const value = quoted ?? bare?.slice(0, unbalancedTail(bare)) ?? "";
      // A bare value's first bracket that closes nothing ends it, as code does (`tokens: OAuthTokens): void`).
      const judged = quoted ?? beforeUnbalanced(value);
      const operator = assignment.trim();
      // Unquoted values in code are usually expressions (`token = getToken()`). They are taken literally
      // where code cannot be: env-style assignments (`DB_PASSWORD=…`, or a YAML `POSTGRES_PASSWORD: …` line),
      // hyphenated names (`X-Api-Key: …`), dotted properties keys (`db.password=…`) and YAML blocks.
      const literal = quoted !== undefined || quote === "" && (
            /^[A-Z0-9_]+$/.test(name) && (assignment === "=" || operator === ":" && lineEnd !== undefined) ||
            name.includes("-") ||
            name.includes(".") && assignment === "=" ||
            /[|>][-+]?$/.test(operator)
          );
      // A comma makes an assignment of a call's first two arguments (`getenv("api_token", "…")`) or between
      // the fields of a CSV line (no space around it): `(token, tokenizer)` and `{'a_key', 'b_key'}` are lists.
      const weak = operator === ",";
      const firstArgument = quote !== "" && quoted !== undefined &&
        /\([ \t]*$/.test(String(text).slice(Math.max(0, Number(offset) - 20), Number(offset)));
      if (weak && assignment !== "," && !firstArgument) return match;
      // A quoted string that an expression goes on from (`"Basic " + …`, `"…%s" % …`) is a piece of one.
      if (continued !== undefined || !secretValue(name, judged, literal, weak)) return match;
      const head = `${quote}${name}${quote}${brackets}${assignment}`;
      return quoted === undefined
        ? `${head}${tag("secret")}${bare!.slice(value.length)}`
        : `${head}${match.slice(head.length).replace(quoted, tag("secret"))}`;
    },
  },
  {
    category: "secret",
    hints: KEY_HINTS,
    anyCase: true,
    worth: (haystack) => haystack.includes("</"),
    // `<apiToken>…</apiToken>`, the value on the same line or its own.
    regex: lazily(() =>
      new RegExp(String.raw`<(${KEY_NAME})([ \t][^<>]*)?>(\s*)([^<\s]{4,})(\s*<\/\1>)`, "gi")
    ),
    replace: (match, name = "", attributes = "", space = "", value = "", end = "") =>
      secretValue(name, value, true, false) ? `<${name}${attributes}>${space}${tag("secret")}${end}` : match,
  },
  {
    category: "secret",
    hints: ["value"],
    anyCase: true,
    worth: (haystack) =>
      (haystack.includes("key") || haystack.includes("name")) &&
      KEY_HINTS.some((hint) => haystack.includes(hint)),
    // A pair that names its secret in one field and holds it in the next: NuGet's and .NET's
    // `<add key="ClearTextPassword" value="…" />`, Ant's `<property name="db.password" value="…"/>`, a
    // Kubernetes `- name: DB_PASSWORD` / `value: …`, Postman's `{"key": "apiKey", "value": "…"}`.
    regex: () =>
      /\b(key|name)(["']?[ \t]*[=:][ \t]*["']?)([\w.:-]{1,100})(["']?[\s,]{1,80}["']?value["']?[ \t]*[=:][ \t]*)(?:"([^"\n]{4,})"|'([^'\n]{4,})'|([^\s"'<>,;}\]]{4,}))/gi,
    replace: (match, field, assignment, name = "", between, doubleQuoted, singleQuoted, bare) => {
      const value = doubleQuoted ?? singleQuoted ?? bare ?? "";
      if (!secretValue(name, value, true, false)) return match;
      const head = `${field}${assignment}${name}${between}`;
      return `${head}${match.slice(head.length).replace(value, tag("secret"))}`;
    },
  },
];

/**
 * Every pattern the built-in rules run on a text, the flags read in a command line included: for the test
 * that none of them can backtrack for long (backtracking.ts).
 */
export const builtInPatterns = (): RegExp[] => [
  ...BUILT_IN.map((rule) => rule.regex()),
  ...COMMAND_CREDENTIALS.map(({ flag }) => flag()),
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

/** How much of a denied request the state keeps (state/store.ts clips to it too). */
export const KEPT_REQUEST_CHARS = 2000;

/**
 * How far past the part kept the filter reads, so that a secret across the cut is caught whole: further than
 * any built-in shape is long but a private key, whose block runs to the end of the text it is cut in.
 */
const READ_PAST = 512;

/** The window grows to this many times its first size at most, however much redaction takes away. */
const MAX_GROWTH = 16;

/**
 * The first `keep` characters of `text` once redacted, for text of any length (a WebSearch query, a URL or a
 * Bash command can be hundreds of kilobytes) at the cost of a bounded window: the filter's work grows with
 * what it reads, and the hook decides inside the state's write transaction, which every other hook waits on.
 * The window starts `READ_PAST` beyond what is kept; if redaction shortens it below that, it doubles, up to
 * MAX_GROWTH times. What is kept never reaches into the last `READ_PAST` characters of a cut window, where the
 * start of a secret cut off (and so not recognised) may stand.
 */
export function redactHead(redact: (text: string) => string, text: string, keep: number): string {
  const first = keep + READ_PAST;
  for (let size = first;; size *= 2) {
    if (size >= text.length) return redact(text).slice(0, keep);
    const redacted = redact(text.slice(0, size));
    if (redacted.length - READ_PAST >= keep || size * 2 > MAX_GROWTH * first) {
      return redacted.slice(0, Math.max(0, Math.min(keep, redacted.length - READ_PAST)));
    }
  }
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
 * The built-in rules plus the user's. User patterns come from a validated config, which refused any that
 * could backtrack for minutes (backtracking.ts); one that no longer compiles (the config cache was written
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
          if (rule.worth !== undefined && !rule.worth(haystack)) continue;
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
