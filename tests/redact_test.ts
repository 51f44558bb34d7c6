/**
 * The privacy filter (SPEC §4) on a corpus of realistic text: what agents' tools print and write. Every secret
 * here is fake (made-up bodies, often spelled with EXAMPLE or FAKE); the shapes are the providers' own.
 */
import { deepStrictEqual as assertEquals, match, ok } from "node:assert/strict";
import { backtrackingRisk } from "../lib/capture/backtracking.ts";
import { eventRecord } from "../lib/capture/record.ts";
import { builtInPatterns, createRedactor, KEPT_REQUEST_CHARS, redactHead } from "../lib/capture/redact.ts";
import { resolveConfig } from "../lib/config/resolve.ts";
import { parseHookEvent } from "../lib/protocol/event.ts";
import { decideRedirect, type RedirectState } from "../lib/redirect/decide.ts";
import type { WebRequest } from "../lib/redirect/request.ts";
import type { DenialRecord } from "../lib/state/store.ts";
import { config, database } from "./helpers.ts";

const { redact, isSecretFile } = createRedactor([], []);

/** [what, input, exact expected output] */
type Case = readonly [string, string, string];

function checkAll(cases: readonly Case[]) {
  for (const [what, input, expected] of cases) {
    assertEquals(redact(input), expected, what);
    assertEquals(redact(expected), expected, `${what}: redacting again changes nothing`);
  }
}

const JWT = "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9" +
  ".eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ" +
  ".SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c";
const ANTHROPIC = "sk-ant-api03-FAKEexampleKey0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMN-EXAMPLEAA";
const OPENAI_PROJECT = "sk-proj-FAKEexample0123456789abcdefghijklmnopqrstuvwxyzABCDEFGH_ijklmnopEXAMPLE";
const OPENAI_LEGACY = "sk-FAKEexample0123456789abcdefghijklmnopqrstuvwxEXAM";
const GITHUB_CLASSIC = "ghp_FAKEexample0123456789abcdefghijEXAMPL";
const GITHUB_FINE = "github_pat_11FAKEEXA0123456789_abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123";
const AWS_ID = "AKIAIOSFODNN7EXAMPLE";
const AWS_SECRET = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY";
const SLACK_BOT = "xoxb-1234567890-1234567890123-FAKEexampleTokenAbCdEfGh";
const SLACK_HOOK = "https://hooks.slack.com/services/T00000000/B00000000/FAKEexampleXXXXXXXXXXXXX";
const STRIPE_LIVE = "sk_live_51FAKEexample0123456789abcdefghijklmnopqrstuvwxyzEXAMPLE";
const STRIPE_RESTRICTED = "rk_live_51FAKEexample0123456789abcdefghijklmnopEXAMPLE";
const STRIPE_WEBHOOK = "whsec_FAKEexample0123456789abcdefghijkl";
const GOOGLE_API = "AIzaSyFAKEexample0123456789abcdefghijkl";
const GOOGLE_CLIENT_SECRET = "GOCSPX-FAKEexample0123456789abcd";
const GOOGLE_ACCESS = "ya29.a0FAKEexample0123456789abcdefghijklmnopqrstuvwxyz";
const GITLAB = "glpat-FAKEexample0123456789";
const NPM = "npm_FAKEexample0123456789abcdefghijklmno";

Deno.test("provider keys are redacted wherever they appear", () => {
  checkAll([
    [
      "Anthropic key exported in a shell",
      `export ANTHROPIC_API_KEY=${ANTHROPIC}`,
      "export ANTHROPIC_API_KEY=[REDACTED:anthropic_key]",
    ],
    [
      "OpenAI project key in a Python client",
      `client = OpenAI(api_key="${OPENAI_PROJECT}")`,
      `client = OpenAI(api_key="[REDACTED:openai_key]")`,
    ],
    [
      "OpenAI legacy key in an error message",
      `openai.AuthenticationError: Incorrect API key provided: ${OPENAI_LEGACY}. You can find your API key at https://platform.openai.com/account/api-keys.`,
      "openai.AuthenticationError: Incorrect API key provided: [REDACTED:openai_key]. You can find your API key at https://platform.openai.com/account/api-keys.",
    ],
    [
      "GitHub classic token in a git remote",
      `origin\thttps://${GITHUB_CLASSIC}@github.com/acme/widgets.git (fetch)`,
      "origin\thttps://[REDACTED:github_token]@github.com/acme/widgets.git (fetch)",
    ],
    [
      "GitHub fine-grained token in gh output",
      `  - Token: ${GITHUB_FINE}`,
      "  - Token: [REDACTED:github_token]",
    ],
    [
      "AWS access key id and secret in ~/.aws/credentials text",
      `[default]\naws_access_key_id = ${AWS_ID}\naws_secret_access_key = ${AWS_SECRET}\nregion = eu-west-1`,
      "[default]\naws_access_key_id = [REDACTED:aws_key]\naws_secret_access_key = [REDACTED:secret]\nregion = eu-west-1",
    ],
    [
      "AWS keys from `aws sts` JSON",
      `{\n  "AccessKeyId": "${AWS_ID}",\n  "SecretAccessKey": "${AWS_SECRET}",\n  "Expiration": "2025-01-01T00:00:00Z"\n}`,
      '{\n  "AccessKeyId": "[REDACTED:aws_key]",\n  "SecretAccessKey": "[REDACTED:secret]",\n  "Expiration": "2025-01-01T00:00:00Z"\n}',
    ],
    [
      "Slack bot token in a curl command",
      `curl -X POST -d "token=${SLACK_BOT}&channel=C024BE91L" https://slack.com/api/chat.postMessage`,
      'curl -X POST -d "token=[REDACTED:slack_token]&channel=C024BE91L" https://slack.com/api/chat.postMessage',
    ],
    [
      "Slack webhook URL in JavaScript",
      `const webhook = "${SLACK_HOOK}";`,
      'const webhook = "[REDACTED:slack_token]";',
    ],
    [
      "Stripe live, restricted and webhook keys in a .env text",
      `STRIPE_KEY=${STRIPE_LIVE}\nSTRIPE_RESTRICTED=${STRIPE_RESTRICTED}\nSTRIPE_WEBHOOK_SIGNING=${STRIPE_WEBHOOK}`,
      "STRIPE_KEY=[REDACTED:stripe_key]\nSTRIPE_RESTRICTED=[REDACTED:stripe_key]\nSTRIPE_WEBHOOK_SIGNING=[REDACTED:stripe_key]",
    ],
    [
      "Stripe key in a Ruby initializer",
      `Stripe.api_key = '${STRIPE_LIVE}'`,
      "Stripe.api_key = '[REDACTED:stripe_key]'",
    ],
    [
      "Google API key in a Maps URL",
      `<script src="https://maps.googleapis.com/maps/api/js?key=${GOOGLE_API}&callback=initMap"></script>`,
      '<script src="https://maps.googleapis.com/maps/api/js?key=[REDACTED:google_key]&callback=initMap"></script>',
    ],
    [
      "Google OAuth client secret and access token in JSON",
      `{"client_id":"1234567890-abc.apps.googleusercontent.com","client_secret":"${GOOGLE_CLIENT_SECRET}","access_token":"${GOOGLE_ACCESS}"}`,
      '{"client_id":"1234567890-abc.apps.googleusercontent.com","client_secret":"[REDACTED:google_key]","access_token":"[REDACTED:google_key]"}',
    ],
    [
      "GitLab token in a clone URL",
      `git clone https://oauth2:${GITLAB}@gitlab.example.com/group/project.git`,
      "git clone https://oauth2:[REDACTED:gitlab_token]@gitlab.example.com/group/project.git",
    ],
    [
      "GitLab token in a PRIVATE-TOKEN header",
      `curl --header "PRIVATE-TOKEN: ${GITLAB}" https://gitlab.example.com/api/v4/projects`,
      'curl --header "PRIVATE-TOKEN: [REDACTED:gitlab_token]" https://gitlab.example.com/api/v4/projects',
    ],
    [
      "npm token in .npmrc text",
      `//registry.npmjs.org/:_authToken=${NPM}`,
      "//registry.npmjs.org/:_authToken=[REDACTED:npm_token]",
    ],
  ]);
});

Deno.test("authorization headers, bearer tokens and JWTs are redacted", () => {
  checkAll([
    [
      "curl with a bearer token",
      "curl -s -H 'Authorization: Bearer FAKEb3ar3rT0kenEXAMPLE123' https://api.example.com/v1/me",
      "curl -s -H 'Authorization: Bearer [REDACTED:bearer_token]' https://api.example.com/v1/me",
    ],
    [
      "HTTP request dump with Basic auth",
      "GET /api/v1/status HTTP/1.1\nHost: internal.example.com\nAuthorization: Basic YWRtaW46RkFLRXBhc3N3b3JkMTIz\nAccept: */*",
      "GET /api/v1/status HTTP/1.1\nHost: internal.example.com\nAuthorization: Basic [REDACTED:bearer_token]\nAccept: */*",
    ],
    [
      "Django REST framework token header",
      "Authorization: Token 9944b09199c62bcf9418ad846dd0e4bbdfc6ee4b",
      "Authorization: Token [REDACTED:bearer_token]",
    ],
    [
      "API key header in a curl command",
      "curl -H 'X-API-Key: 4f9d2c1e8b7a6f5e4d3c2b1a0f9e8d7c' https://api.example.com/v2/items",
      "curl -H 'X-API-Key: [REDACTED:secret]' https://api.example.com/v2/items",
    ],
    [
      "a header whose token has no digits",
      "X-Auth-Token: FAKEexampleTokenWithoutAnyDigits",
      "X-Auth-Token: [REDACTED:secret]",
    ],
    [
      "a JWT in a log line",
      `2025-03-02T10:15:00Z INFO issued session jwt ${JWT} for user 42`,
      "2025-03-02T10:15:00Z INFO issued session jwt [REDACTED:jwt] for user 42",
    ],
    [
      "a JWT in a JSON response",
      `{"access_token":"${JWT}","token_type":"Bearer","expires_in":3600}`,
      '{"access_token":"[REDACTED:jwt]","token_type":"Bearer","expires_in":3600}',
    ],
    [
      "a JWT in a cookie",
      `Set-Cookie: session=${JWT}; Path=/; HttpOnly; Secure`,
      "Set-Cookie: session=[REDACTED:jwt]; Path=/; HttpOnly; Secure",
    ],
  ]);
});

Deno.test("private keys are redacted whole, also when the excerpt cuts them off", () => {
  const body = "MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQDFAKEEXAMPLEKEY\n" +
    "c2VjcmV0IGJ1dCBmYWtlIGtleSBtYXRlcmlhbCBmb3IgdGVzdHMgb25seQ==\n";
  checkAll([
    [
      "an RSA key printed by cat",
      `$ cat deploy.pem\n-----BEGIN RSA PRIVATE KEY-----\n${body}-----END RSA PRIVATE KEY-----\n$ ls`,
      "$ cat deploy.pem\n[REDACTED:private_key]\n$ ls",
    ],
    [
      "an OpenSSH key",
      `-----BEGIN OPENSSH PRIVATE KEY-----\n${body}-----END OPENSSH PRIVATE KEY-----`,
      "[REDACTED:private_key]",
    ],
    [
      "a PGP key block",
      `-----BEGIN PGP PRIVATE KEY BLOCK-----\n\n${body}-----END PGP PRIVATE KEY BLOCK-----`,
      "[REDACTED:private_key]",
    ],
    [
      "a key cut off before its END line",
      `key material follows:\n-----BEGIN PRIVATE KEY-----\n${body}MIIEvQIB`,
      "key material follows:\n[REDACTED:private_key]",
    ],
    [
      "a key inside a service-account JSON",
      `{"type": "service_account", "private_key_id": "abc123", "private_key": "-----BEGIN PRIVATE KEY-----\\nMIIEvQIBADANBgkqhkiG9w0BAQEFAKE\\n-----END PRIVATE KEY-----\\n", "client_email": "ci@proj.iam.gserviceaccount.com"}`,
      '{"type": "service_account", "private_key_id": "abc123", "private_key": "[REDACTED:private_key]\\n", "client_email": "ci@proj.iam.gserviceaccount.com"}',
    ],
    [
      "two keys in one text",
      `-----BEGIN EC PRIVATE KEY-----\nMHcCAQEEIFAKE\n-----END EC PRIVATE KEY-----\nbetween\n-----BEGIN ENCRYPTED PRIVATE KEY-----\nMIIFAKE\n-----END ENCRYPTED PRIVATE KEY-----`,
      "[REDACTED:private_key]\nbetween\n[REDACTED:private_key]",
    ],
  ]);
});

Deno.test("connection strings lose their password and keep user and host", () => {
  checkAll([
    [
      "postgres URL in a .env text",
      "DATABASE_URL=postgres://app_user:Xk9mP2vQ7wLsFAKE@db.internal.example.com:5432/app_production",
      "DATABASE_URL=postgres://app_user:[REDACTED:connection_string]@db.internal.example.com:5432/app_production",
    ],
    [
      "postgresql URL with query options in psql",
      "psql 'postgresql://reporting:FAKEpass2024@10.0.3.17:5432/analytics?sslmode=require'",
      "psql 'postgresql://reporting:[REDACTED:connection_string]@10.0.3.17:5432/analytics?sslmode=require'",
    ],
    [
      "mysql URL in a Rails database.yml",
      "production:\n  url: mysql2://rails:FAKE-s3cret@mysql.example.com:3306/shop",
      "production:\n  url: mysql2://rails:[REDACTED:connection_string]@mysql.example.com:3306/shop",
    ],
    [
      "mongodb+srv URL in a Node config",
      'const uri = "mongodb+srv://admin:Zx8Wq3Lp9RtFAKE@cluster0.ab1cd.mongodb.net/test?retryWrites=true&w=majority";',
      'const uri = "mongodb+srv://admin:[REDACTED:connection_string]@cluster0.ab1cd.mongodb.net/test?retryWrites=true&w=majority";',
    ],
    [
      "redis URL with only a password",
      "REDIS_URL=redis://:R3disFAKEpassw0rd@cache.example.com:6379/0",
      "REDIS_URL=redis://:[REDACTED:connection_string]@cache.example.com:6379/0",
    ],
    [
      "amqp URL in a docker-compose environment",
      "      - CELERY_BROKER_URL=amqp://guest:guestFAKE@rabbitmq:5672//",
      "      - CELERY_BROKER_URL=amqp://guest:[REDACTED:connection_string]@rabbitmq:5672//",
    ],
    [
      "a password with an unencoded @",
      "postgres://deploy:p@ss:w0rd@db.example.com/app",
      "postgres://deploy:[REDACTED:connection_string]@db.example.com/app",
    ],
    [
      "JDBC URL with the password as a parameter",
      "spring.datasource.url=jdbc:postgresql://db.example.com:5432/app?user=app&password=Tr0ub4dor3FAKE",
      "spring.datasource.url=jdbc:postgresql://db.example.com:5432/app?user=app&password=[REDACTED:secret]",
    ],
    [
      "ADO.NET connection string in appsettings.json",
      '"DefaultConnection": "Server=tcp:sql.example.net,1433;Database=shop;User ID=shop;Password=MyP@ssw0rdFAKE;Encrypt=true;"',
      '"DefaultConnection": "Server=tcp:sql.example.net,1433;Database=shop;User ID=shop;Password=[REDACTED:secret];Encrypt=true;"',
    ],
  ]);
});

Deno.test("named secrets lose their value and keep their name", () => {
  checkAll([
    ["env assignment", "DB_PASSWORD=hunter2-correct-horse", "DB_PASSWORD=[REDACTED:secret]"],
    [
      "env assignment without digits",
      "SESSION_SECRET=correcthorsebatterystaple",
      "SESSION_SECRET=[REDACTED:secret]",
    ],
    [
      "export with quotes",
      'export JWT_SECRET="FAKE local dev secret"',
      'export JWT_SECRET="[REDACTED:secret]"',
    ],
    ["_PASS suffix", "SMTP_PASS=mailFAKEpass", "SMTP_PASS=[REDACTED:secret]"],
    [
      "an Ethereum private key is no hex number",
      "PRIVATE_KEY=0x4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318",
      "PRIVATE_KEY=[REDACTED:secret]",
    ],
    [
      "Rails secret_key_base",
      "SECRET_KEY_BASE=3f9a1c7e5b2d8f4a6c0e9b1d7f3a5c8e2b4d6f0aFAKE",
      "SECRET_KEY_BASE=[REDACTED:secret]",
    ],
    [
      "JSON password",
      '{ "username": "admin", "password": "Sup3r-FAKE-pass" }',
      '{ "username": "admin", "password": "[REDACTED:secret]" }',
    ],
    ["Python api_key", "api_key = 'a1b2c3d4e5f6FAKE'", "api_key = '[REDACTED:secret]'"],
    ["TOML token", 'token = "FAKE-token-value"', 'token = "[REDACTED:secret]"'],
    [
      "YAML token with a generated value",
      "  token: 8f14e45fceea167a5a36dedd4bea2543",
      "  token: [REDACTED:secret]",
    ],
    ["YAML password with punctuation", "  password: Sup3rS3cret!", "  password: [REDACTED:secret]"],
    ["YAML password starting like a keyword", "password: strongPassw0rd", "password: [REDACTED:secret]"],
    ["YAML password starting with x", "password: xK9mP2vQ7", "password: [REDACTED:secret]"],
    [
      "docker-compose env in YAML map form",
      "      POSTGRES_PASSWORD: example",
      "      POSTGRES_PASSWORD: [REDACTED:secret]",
    ],
    [
      "docker-compose env with a comment",
      "      MYSQL_ROOT_PASSWORD: rootpw # dev only",
      "      MYSQL_ROOT_PASSWORD: [REDACTED:secret] # dev only",
    ],
    [
      "docker-compose env in list form",
      "      - POSTGRES_PASSWORD=example",
      "      - POSTGRES_PASSWORD=[REDACTED:secret]",
    ],
    [
      "Spring YAML with a kebab-case key",
      "    client-secret: springFAKEsecret",
      "    client-secret: [REDACTED:secret]",
    ],
    [
      "Java properties",
      "spring.datasource.password=changeme",
      "spring.datasource.password=[REDACTED:secret]",
    ],
    ["INI with digits", "password = s3cr3tFAKE", "password = [REDACTED:secret]"],
    [
      "query parameter",
      "GET /callback?code=abc&access_token=FAKE0a1b2c3d4e5f HTTP/1.1",
      "GET /callback?code=abc&access_token=[REDACTED:secret] HTTP/1.1",
    ],
    [
      "logfmt log line",
      'level=debug msg="login" user=bob password=hunter2 ip=10.0.0.7',
      'level=debug msg="login" user=bob password=[REDACTED:secret] ip=10.0.0.7',
    ],
    [
      "curl -u user:password",
      "curl -u admin:s3cr3tP4ssFAKE https://registry.example.com/v2/_catalog",
      "curl -u admin:[REDACTED:secret] https://registry.example.com/v2/_catalog",
    ],
    [
      "curl --user without digits",
      "curl --user deploy:letmein https://ci.example.com/job/build",
      "curl --user deploy:[REDACTED:secret] https://ci.example.com/job/build",
    ],
    [
      "mysql -p",
      "docker exec -it db mysql -uroot -pFAKEroot123 shop -e 'SELECT 1'",
      "docker exec -it db mysql -uroot -p[REDACTED:secret] shop -e 'SELECT 1'",
    ],
    [
      "--password flag",
      "docker login --username ci --password 'Fake-Pa55' registry.example.com",
      "docker login --username ci --password '[REDACTED:secret]' registry.example.com",
    ],
    ["--token flag", "vercel deploy --token FAKEvercelToken", "vercel deploy --token [REDACTED:secret]"],
    [
      "--token= flag",
      "vercel deploy --prod --token=letmein",
      "vercel deploy --prod --token=[REDACTED:secret]",
    ],
  ]);
});

Deno.test("every secret flag is found on its own (the filter's hints miss none)", () => {
  for (
    const flag of [
      "--password",
      "--passwd",
      "--token",
      "--api-key",
      "--apikey",
      "--auth-token",
      "--access-token",
      "--client-secret",
    ]
  ) {
    assertEquals(redact(`x ${flag} k3yFAKE1`), `x ${flag} [REDACTED:secret]`, flag);
  }
});

Deno.test("every key name that ends in a secret's word is found, in any case and spelling", () => {
  // The filter looks for these words before it runs its pattern: each must still be looked for.
  const names = ["api", "access", "private", "encryption", "signing", "master"].flatMap((word) =>
    ["key", "_key", "-key", "Key", "_KEY"].map((suffix) => `${word}${suffix}`)
  );
  for (const name of [...names, ...names.map((n) => n.toUpperCase())]) {
    assertEquals(redact(`${name}=Fake4Value9x`), `${name}=[REDACTED:secret]`, name);
  }
});

Deno.test("realistic documents come out with only the secrets gone", () => {
  checkAll([
    [
      "a .env file",
      [
        "# Local development",
        "NODE_ENV=development",
        "PORT=3000",
        "DATABASE_URL=postgresql://dev:devFAKEpw@localhost:5432/app_dev",
        `OPENAI_API_KEY=${OPENAI_PROJECT}`,
        "NEXTAUTH_SECRET=Zm9vYmFyRkFLRQ==",
        "NEXTAUTH_URL=http://localhost:3000",
        "LOG_LEVEL=debug",
      ].join("\n"),
      [
        "# Local development",
        "NODE_ENV=development",
        "PORT=3000",
        "DATABASE_URL=postgresql://dev:[REDACTED:connection_string]@localhost:5432/app_dev",
        "OPENAI_API_KEY=[REDACTED:openai_key]",
        "NEXTAUTH_SECRET=[REDACTED:secret]",
        "NEXTAUTH_URL=http://localhost:3000",
        "LOG_LEVEL=debug",
      ].join("\n"),
    ],
    [
      "a Kubernetes Secret",
      [
        "apiVersion: v1",
        "kind: Secret",
        "metadata:",
        "  name: app-secrets",
        "type: Opaque",
        "stringData:",
        "  API_TOKEN: FAKEk8sTokenValue",
        "  password: Pa55FAKEword",
      ].join("\n"),
      [
        "apiVersion: v1",
        "kind: Secret",
        "metadata:",
        "  name: app-secrets",
        "type: Opaque",
        "stringData:",
        "  API_TOKEN: [REDACTED:secret]",
        "  password: [REDACTED:secret]",
      ].join("\n"),
    ],
    [
      "a GitHub Actions log",
      [
        "Run actions/checkout@v4",
        "  with:",
        "    token: ***",
        "  env:",
        "    NPM_TOKEN: ***",
        "Run npm publish",
        `npm notice Publishing to https://registry.npmjs.org/ with tag latest and token ${NPM}`,
        "+ @acme/widgets@1.4.2",
      ].join("\n"),
      [
        "Run actions/checkout@v4",
        "  with:",
        "    token: ***",
        "  env:",
        "    NPM_TOKEN: ***",
        "Run npm publish",
        "npm notice Publishing to https://registry.npmjs.org/ with tag latest and token [REDACTED:npm_token]",
        "+ @acme/widgets@1.4.2",
      ].join("\n"),
    ],
    [
      "`env` output",
      [
        "HOME=/home/runner",
        "PWD=/home/runner/work/app/app",
        "OLDPWD=/home/runner",
        "GOOGLE_APPLICATION_CREDENTIALS=/tmp/gcp-key.json",
        `GITHUB_TOKEN=${GITHUB_CLASSIC}`,
        "CI=true",
      ].join("\n"),
      [
        "HOME=/home/runner",
        "PWD=/home/runner/work/app/app",
        "OLDPWD=/home/runner",
        "GOOGLE_APPLICATION_CREDENTIALS=/tmp/gcp-key.json",
        "GITHUB_TOKEN=[REDACTED:github_token]",
        "CI=true",
      ].join("\n"),
    ],
  ]);
});

/** Ordinary code, output and prose: nothing in here is a secret, so nothing may change. */
const ORDINARY: readonly string[] = [
  // TypeScript / JavaScript
  "const token = getToken();",
  "password: string;",
  "  private readonly apiKey?: string;",
  "if (!apiKey) throw new Error('OPENAI_API_KEY is not set');",
  "const tokens = tokenizer.encode(text);",
  "const key = process.env.API_KEY;",
  "const password = await bcrypt.hash(input, 10);",
  "headers: { Authorization: `Bearer ${token}` },",
  '  "Authorization": "Bearer " + accessToken,',
  "const res = await fetch(url, { credentials: 'include' });",
  "export function setPassword(user: User, password: string): Promise<void> {",
  "const { data: { session } } = await supabase.auth.getSession();",
  "localStorage.setItem('token', token);",
  "type Credentials = { username: string; password: string };",
  "const secret = new TextEncoder().encode(env.JWT_SECRET);",
  // Python
  "def authenticate(password):",
  "    api_key = os.environ['OPENAI_API_KEY']",
  "    token = self._token",
  "password_hash = bcrypt.hashpw(password.encode(), bcrypt.gensalt())",
  "    api_key: Optional[str] = None",
  "    OPENAI_API_KEY: SecretStr",
  "response = client.messages.create(model=model, max_tokens=1024, messages=messages)",
  "tokens = tokenize(text, max_len=512)",
  "client_secret=None",
  "print(f'token={token}')",
  // Go
  "func Login(username, password string) error {",
  '\tPassword string `json:"password"`',
  '\tsecret := os.Getenv("JWT_SECRET")',
  "\ttoken, err := jwt.Parse(tokenString, keyFunc)",
  // Config that refers to secrets without holding them
  "max_tokens: 1024",
  "token: ${{ secrets.GITHUB_TOKEN }}",
  "      GITHUB_TOKEN: ${{ secrets.GITHUB_TOKEN }}",
  "password: ${DB_PASSWORD}",
  "api_key: <your-api-key>",
  "password: {{ .Values.db.password }}",
  "secretName: tls-cert",
  "secrets: inherit",
  "permissions:\n  contents: read\n  id-token: write",
  "ERRORTOKEN = token.ERRORTOKEN",
  "    IMAGE_REL_AMD64_TOKEN = 0x000D,",
  "U_UNEXPECTED_TOKEN=0x10100,",
  "    Token:              '#f8f8f2',",
  "ResourceEndpoint.__init__(self, default_token='Bearer')",
  "API_TOKEN = settings.API_TOKEN",
  "token_type = 'bearer'",
  "password_min_length = 12",
  "PASSWORD=",
  // Identifiers, hashes and encoded data
  "id: 123e4567-e89b-12d3-a456-426614174000",
  "commit 9fceb02d0ae598e95dc970b74767f19372d61af8",
  '      "integrity": "sha512-v2kDEe57lecTulaDIuNTPy3Ry4gLGJ6Z1O3vE1krgXZNrsQ+LFTGHVxVjcXPs17LhbZVGedAJv8XZ1tvj5FvSg==",',
  '      "resolved": "https://registry.npmjs.org/lodash/-/lodash-4.17.21.tgz",',
  '    "npm:zod@4.1.12": "3a1b2c4d5e6f7a8b9c0d1e2f3a4b5c6d7e8f9a0b1c2d3e4f5a6b7c8d9e0f1a2b",',
  "  integrity sha512-v2kDEe57lecTulaDIuNTPy3Ry4gLGJ6Z1O3vE1krgXZNrsQ+LFTGHVxVjcXPs17LhbZVGedAJv8XZ1tvj5FvSg==",
  "  checksum: 10c0/d8cbea072bb08655bb4c989da418994b073a608dffa608b09ac04b43a791b12aeae7cd7ad919aa4c925f33b48490",
  "SGVsbG8sIFdvcmxkISBUaGlzIGlzIGp1c3Qgc29tZSBvcmRpbmFyeSBkYXRhLg==",
  "background: url(data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==);",
  // URLs without credentials
  "See https://docs.gitlab.com/ee/ci/variables/ for masked variables.",
  "postgres://localhost:5432/db",
  "redis://cache:6379/0",
  "git@github.com:acme/widgets.git",
  "ssh://git@gitlab.example.com:2222/group/project.git",
  "      DATABASE_URL: postgres://app:${POSTGRES_PASSWORD}@db:5432/app",
  'proxy_url="socks5h://<username>:<password>@proxy-host"',
  "docker run -p 8080:80 -u 1000:1000 nginx:1.27",
  "npm install --save-dev @types/node@20.11.5",
  // Tool output
  "added 142 packages, and audited 143 packages in 3s\n\nfound 0 vulnerabilities",
  "npm WARN deprecated inflight@1.0.6: This module is not supported, and leaks memory.",
  "ok | 12 passed | 0 failed (1s)",
  "[main 4e8f2a1] Rotate secrets and tokens\n 3 files changed, 12 insertions(+), 4 deletions(-)",
  "mysql -h db.example.com -u root -p shop",
  'docker compose exec db mysql -uroot -p"$MYSQL_ROOT_PASSWORD" shop',
  "# token          = 1*tchar",
  "docker login --password-stdin registry.example.com",
  "Credentials can be given with the --username and --password options, or the --token flag.",
  "PWD=/home/runner/work/app",
  // Prose
  "The password must be at least 12 characters; the token expires after 3600 seconds.",
  "Bearer tokens are described in RFC 6750. Basic internationalization is covered in chapter 3.",
  "|  Client  |--(C)-- Access Token ------------------->|  Resource  |",
  "## Tokens and passwords\n\nNever commit a token or a password: use `secrets.GITHUB_TOKEN` instead.",
  "- password: the user's password (required)",
];

Deno.test("ordinary code, output and prose come out unchanged", () => {
  for (const text of ORDINARY) assertEquals(redact(text), text);
});

/** Whole files as an agent writes or reads them: code about secrets, and config that only refers to them. */
const ORDINARY_FILES: readonly (readonly [string, string])[] = [
  [
    "TypeScript",
    `import { z } from "zod";

export const Settings = z.object({
  apiKey: z.string().min(1),
  maxTokens: z.number().default(1024),
  password: z.string().optional(),
});

export async function login(client: Client, username: string, password: string) {
  const token = await client.auth.signIn({ username, password });
  if (!token) throw new Error("Invalid password");
  const secret = process.env.SESSION_SECRET ?? "";
  return { token, expiresIn: 3600, secret: secret.length > 0 };
}
`,
  ],
  [
    "Python",
    `import os
from dataclasses import dataclass

import anthropic


@dataclass
class Settings:
    api_key: str
    max_tokens: int = 1024
    password: str | None = None


def load_settings() -> Settings:
    api_key = os.environ.get("ANTHROPIC_API_KEY")
    if not api_key:
        raise RuntimeError("ANTHROPIC_API_KEY is not set")
    return Settings(api_key=api_key, password=os.getenv("DB_PASSWORD"))


def count_tokens(client: anthropic.Anthropic, text: str) -> int:
    token_count = client.messages.count_tokens(model="claude-sonnet-4-5", messages=[{"role": "user", "content": text}])
    return token_count.input_tokens
`,
  ],
  [
    "Go",
    `package auth

import (
	"errors"
	"os"

	"github.com/golang-jwt/jwt/v5"
)

type Credentials struct {
	Username string \`json:"username"\`
	Password string \`json:"password"\`
}

func Verify(tokenString string) (*jwt.Token, error) {
	secret := []byte(os.Getenv("JWT_SECRET"))
	if len(secret) == 0 {
		return nil, errors.New("JWT_SECRET is empty")
	}
	token, err := jwt.Parse(tokenString, func(t *jwt.Token) (any, error) { return secret, nil })
	return token, err
}
`,
  ],
  [
    "a README",
    `## Authentication

Create a personal access token with the \`read_api\` scope and export it as \`GITLAB_TOKEN\`. The token is
never written to disk; the password prompt only appears when no token is set.

| Variable | Meaning |
| --- | --- |
| \`GITLAB_TOKEN\` | your access token |
| \`DB_PASSWORD\` | the database password |
`,
  ],
  [
    "a GitHub Actions workflow",
    `name: release
on:
  push:
    tags: ["v*"]
permissions:
  contents: write
  id-token: write
jobs:
  publish:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - uses: actions/setup-node@v4
        with:
          node-version: 22
          registry-url: https://registry.npmjs.org
      - run: npm ci && npm publish --provenance
        env:
          NODE_AUTH_TOKEN: \${{ secrets.NPM_TOKEN }}
          GITHUB_TOKEN: \${{ secrets.GITHUB_TOKEN }}
`,
  ],
  [
    "a docker-compose file with references only",
    `services:
  db:
    image: postgres:16
    environment:
      POSTGRES_USER: app
      POSTGRES_PASSWORD: \${POSTGRES_PASSWORD:?set it in .env}
    secrets:
      - db_password
  app:
    build: .
    environment:
      - DATABASE_URL=postgres://app:\${POSTGRES_PASSWORD}@db:5432/app
      - API_KEY_FILE=/run/secrets/api_key
secrets:
  db_password:
    file: ./secrets/db_password.txt
`,
  ],
];

Deno.test("typical source and config files come out unchanged", () => {
  for (const [what, text] of ORDINARY_FILES) assertEquals(redact(text), text, what);
});

Deno.test("redacting already-redacted text changes nothing", () => {
  const once = redact(
    [
      `OPENAI_API_KEY=${OPENAI_PROJECT}`,
      `aws_secret_access_key = ${AWS_SECRET}`,
      `Authorization: Bearer ${JWT}`,
      "DB_PASSWORD=hunter2-correct-horse",
      "mongodb://root:FAKEexample@mongo:27017",
    ].join("\n"),
  );
  assertEquals(
    once,
    [
      "OPENAI_API_KEY=[REDACTED:openai_key]",
      "aws_secret_access_key = [REDACTED:secret]",
      "Authorization: Bearer [REDACTED:jwt]",
      "DB_PASSWORD=[REDACTED:secret]",
      "mongodb://root:[REDACTED:connection_string]@mongo:27017",
    ].join("\n"),
  );
  assertEquals(redact(once), once);
  for (const text of ["[REDACTED:secret]", "token: [REDACTED:secret]", 'API_KEY="[REDACTED:openai_key]"']) {
    assertEquals(redact(text), text);
  }
});

Deno.test("secret files are recognised by name, with / or \\ paths", () => {
  const secret = [
    ".env",
    ".env.local",
    ".env.production",
    ".envrc",
    "/srv/app/.env",
    "C:\\Users\\dev\\project\\.env.local",
    "certs/server.pem",
    "tls/private.key",
    "C:\\certs\\client.p12",
    "/home/dev/.ssh/id_rsa",
    "/home/dev/.ssh/id_rsa.pub",
    "/home/dev/.ssh/id_ed25519",
    "~/.ssh/id_ed25519_github",
    "credentials.json",
    "/home/dev/.aws/credentials",
    "C:\\Users\\dev\\.aws\\credentials",
    "client_secret_1234-abc.apps.googleusercontent.com.json",
    "k8s/secrets.yaml",
    ".streamlit/secrets.toml",
    "/home/dev/.npmrc",
    "/home/dev/.netrc",
    "C:\\Users\\dev\\_netrc",
    "/home/dev/.git-credentials",
    "/home/dev/.pgpass",
    "/home/dev/.kube/config",
    "C:\\Users\\dev\\.docker\\config.json",
  ];
  for (const path of secret) ok(isSecretFile(path), path);
  const ordinary = [
    "src/main.ts",
    "README.md",
    "environment.ts",
    "src/environments/environment.prod.ts",
    "keyboard.ts",
    "package.json",
    "deno.json",
    "docs/tokens.md",
    "src/auth/credentials.ts",
    "lib/secrets_manager.py",
    "docs/secrets.md",
    "secretary.go",
    "config.json",
    "/home/dev/project/config",
    "id_card.png",
    "src/keys.ts",
  ];
  for (const path of ordinary) ok(!isSecretFile(path), path);
});

Deno.test("every secret-file shape is found, in any case (the filter's hints miss none)", () => {
  const shapes = [
    ...["a.pem", "a.key", "a.p12", "a.pfx", "a.jks", "a.keystore", "a.kdbx", "a.ppk", ".env", ".envrc"],
    ...["id_rsa", "id_dsa", "id_ecdsa", "id_ed25519", ".netrc", "_netrc", ".npmrc", ".pypirc", ".pgpass"],
    ...[
      "htpasswd",
      ".htpasswd",
      "secrets.yaml",
      "my-credentials",
      "x/.kube/config",
      "x\\.docker\\config.json",
    ],
  ];
  for (const path of [...shapes, ...shapes.map((shape) => shape.toUpperCase())]) {
    ok(isSecretFile(`/home/dev/${path}`), path);
  }
});

Deno.test("user patterns redact with their category; a broken one is skipped", () => {
  const rules = [
    { pattern: String.raw`\bACME-[0-9]{6}\b`, category: "acme_ticket", ignoreCase: false },
    { pattern: String.raw`\bcorp_[a-z0-9]{12}\b`, category: "corp_key", ignoreCase: true },
    { pattern: "([unclosed", category: "broken", ignoreCase: false },
    { pattern: "(?<=x", category: "broken", ignoreCase: false },
  ];
  const user = createRedactor(rules, []);
  assertEquals(
    user.redact("Fixes ACME-123456 (not acme-123456); key CORP_ab12cd34ef56 and corp_ab12cd34ef56."),
    "Fixes [REDACTED:acme_ticket] (not acme-123456); key [REDACTED:corp_key] and [REDACTED:corp_key].",
  );
  assertEquals(user.redact(`OPENAI_API_KEY=${OPENAI_PROJECT}`), "OPENAI_API_KEY=[REDACTED:openai_key]");
  assertEquals(user.redact("const ticket = 'ACME-12345';"), "const ticket = 'ACME-12345';");
  assertEquals(user.redact(user.redact("ACME-654321")), "[REDACTED:acme_ticket]");
});

Deno.test("user excludeFiles globs match base names and paths at any depth", () => {
  const { isSecretFile: excluded } = createRedactor([], [
    "*.tfvars",
    "deploy/secrets/**",
    "config/*.ini",
    "backup\\*.sql",
  ]);
  for (
    const path of [
      "prod.tfvars",
      "infra/envs/prod.tfvars",
      "C:\\infra\\prod.tfvars",
      "deploy/secrets/db.yaml",
      "/repo/deploy/secrets/nested/api.json",
      "deploy\\secrets\\db.yaml",
      "config/app.ini",
      "/repo/config/app.ini",
      "config\\app.ini",
      "backup/2025-01-01.sql",
    ]
  ) ok(excluded(path), path);
  for (
    const path of [
      "prod.tfvars.example",
      "infra/main.tf",
      "deploy/README.md",
      "deploy/secretsauce.ts",
      "config/nested/app.ini",
      "myconfig/app.ini",
      "src/main.ts",
    ]
  ) ok(!excluded(path), path);
});

Deno.test("secret shapes the filter let through: webhooks, unsigned JWTs, prod keys, code assignments, curl", () => {
  const STORAGE_KEY =
    "FAKEexampleAzureStorageAccountKey0123456789+/FAKEexampleAzureStorageAccountKey01234567==";
  checkAll([
    [
      "Slack webhook over http",
      "curl -X POST -d @msg.json http://hooks.slack.com/services/T024TTTTT/BBB72BBL/AZAAA9u0pA4ad666eMgbi555",
      "curl -X POST -d @msg.json [REDACTED:slack_token]",
    ],
    [
      "Slack workflow webhook",
      "SLACK_WORKFLOW=https://hooks.slack.com/workflows/T016M3G1GHZ/A04J3BAF7AA/442660231806210747/FAKEexampleWorkflow00000",
      "SLACK_WORKFLOW=[REDACTED:slack_token]",
    ],
    [
      "Slack webhook without its scheme",
      "webhook: hooks.slack.com/services/T0FAKE00000/B0FAKE00000/FAKEexampleWebhook000000",
      "webhook: [REDACTED:slack_token]",
    ],
    [
      "Slack configuration token",
      "SLACK_CONFIG_TOKEN=xoxe.xoxp-1-FAKEexampleSlackConfigAccessToken0123456789FAKEexampleSlackConfigAccessToken",
      "SLACK_CONFIG_TOKEN=[REDACTED:slack_token]",
    ],
    [
      "unsigned JWT (alg none) in a cookie",
      "Set-Cookie: session=eyJhbGciOiJub25lIiwidHlwIjoiSldUIn0.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkZBS0UgRXhhbXBsZSBVc2VyIiwiYWRtaW4iOnRydWV9.; Path=/",
      "Set-Cookie: session=[REDACTED:jwt]; Path=/",
    ],
    [
      "JWT without its signature in a log",
      "decoded eyJ0eXAiOiJKV1QiLA0KImFsZyI6IkhTMjU2In0.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ for user 42",
      "decoded [REDACTED:jwt] for user 42",
    ],
    [
      "Stripe restricted production key",
      "STRIPE_RESTRICTED_KEY=rk_prod_FAKEexample0Restricted0Prod0000000",
      "STRIPE_RESTRICTED_KEY=[REDACTED:stripe_key]",
    ],
    [
      "Stripe secret production key",
      'stripe.api_key = "sk_prod_FAKEexample0Secret0Prod00000000000"',
      'stripe.api_key = "[REDACTED:stripe_key]"',
    ],
    ["Go short assignment", '\ttoken := "FAKEgoShortAssign0123456789abc"', '\ttoken := "[REDACTED:secret]"'],
    [
      "Go typed declaration",
      'var webhookToken string = "FAKEgoTyped0123456789abcd"',
      'var webhookToken string = "[REDACTED:secret]"',
    ],
    [
      "Azure client secret in INI",
      "client_secret=bP88Q~FAKEexample0000000000000.FAKE000",
      "client_secret=[REDACTED:azure_secret]",
    ],
    [
      "Azure client secret in YAML",
      "AZURE_CLIENT_SECRET: .IQ8Q~FAKEexample-00000000000000FAKE00",
      "AZURE_CLIENT_SECRET: [REDACTED:azure_secret]",
    ],
    [
      "a key word before the end of the name, with a random value",
      'some_api_token_123 = "FAKEexample0123456789abcdefghijklmnopqrstuvwxyz"',
      'some_api_token_123 = "[REDACTED:secret]"',
    ],
    [
      "a name ending in key, with a random value",
      "ibm-cloud-key:ukYEEX38RiGgq1BPf2m-nIeTM_lEGizKKn49RRoC_6fn",
      "ibm-cloud-key:[REDACTED:secret]",
    ],
    ["XML element", "<apiToken>FAKEexample0123456789</apiToken>", "<apiToken>[REDACTED:secret]</apiToken>"],
    ["YAML block scalar", "api_token: |\n  FAKEexample0123456789abcdef", "api_token: |\n  [REDACTED:secret]"],
    [
      "a call given the name and the value",
      'os.environ.setdefault("API_TOKEN", "dafa7817-e246-48f3-91a7-e87653d587b8")',
      'os.environ.setdefault("API_TOKEN", "[REDACTED:secret]")',
    ],
    [
      ".npmrc _auth",
      "//registry.npmjs.org/:_auth=dGVzdDp0ZXN0",
      "//registry.npmjs.org/:_auth=[REDACTED:npm_token]",
    ],
    [
      "curl -u on a continuation line",
      "curl https://registry.example.com/v2/_catalog \\\n  -u deploy:Xk9mP2vQ7wLsFAKE",
      "curl https://registry.example.com/v2/_catalog \\\n  -u deploy:[REDACTED:secret]",
    ],
    [
      "curl --user with quoted parts",
      'curl -X POST --user "{acd3c08b-74e8-4f44-a2d0-80694le24f46}":"{ZqL5kVrX1n8tA2}" https://gateway.example.com/api',
      'curl -X POST --user "{acd3c08b-74e8-4f44-a2d0-80694le24f46}":"{[REDACTED:secret]}" https://gateway.example.com/api',
    ],
    [
      "curl -u with a key as the user and no password",
      'curl -u "d2LkV78zLx!t:" https://localhost:9200',
      'curl -u "[REDACTED:secret]:" https://localhost:9200',
    ],
    [
      "short Basic credentials",
      "curl -H 'Authorization: Basic YnJvd3Nlcjo=' https://api.example.com",
      "curl -H 'Authorization: Basic [REDACTED:bearer_token]' https://api.example.com",
    ],
    [
      "an Authorization header without a scheme",
      "curl --header 'Authorization:  5eb4223e-5008-46e5-be67-c7b8f2732305' https://api.example.com",
      "curl --header 'Authorization:  [REDACTED:bearer_token]' https://api.example.com",
    ],
    [
      "PyPI token",
      "twine upload -p pypi-AgENdGVzdC5weXBpLm9yZwIkN2YxOWZhOWEtY2FjYS00MGZhLTj2MGEtODFjMnE2MjdmMzY0 dist/*",
      "twine upload -p [REDACTED:pypi_token] dist/*",
    ],
    [
      "SendGrid key",
      "sg = SendGridAPIClient('SG.FAKEexample0SendGrid00.FAKEexample0SendGridSecret0123456789-_abcde')",
      "sg = SendGridAPIClient('[REDACTED:sendgrid_key]')",
    ],
    [
      "Twilio key",
      "Using API key SKdeadbeefdeadbeefdeadbeefdeadbeef for the call",
      "Using API key [REDACTED:twilio_key] for the call",
    ],
    [
      "Telegram bot token",
      "GET https://api.telegram.org/bot110201543:AAHdqTcvCH1vGWJxfSe1ofSAs0K5PALDsaw/getMe",
      "GET https://api.telegram.org/bot[REDACTED:telegram_token]/getMe",
    ],
    ["Mailchimp key", "// key: deadbeefdeadbeefdeadbeefdeadbeef-us30", "// key: [REDACTED:mailchimp_key]"],
    [
      "Square token",
      "square_oauth = sq0csp-ABCDEFGHIJK_LMNOPQRSTUVWXYZ-0123456789\\abcd",
      "square_oauth = [REDACTED:square_token]",
    ],
    ["Artifactory key", "X-JFrog-Art-Api: AKCxxxxxxxxxx", "X-JFrog-Art-Api: [REDACTED:artifactory_token]"],
    [
      "Azure storage connection string",
      `AccountName=fakeaccount;AccountKey=${STORAGE_KEY};EndpointSuffix=core.windows.net`,
      "AccountName=fakeaccount;AccountKey=[REDACTED:azure_secret];EndpointSuffix=core.windows.net",
    ],
    [
      "Hugging Face token",
      "huggingface-cli login --token hf_FAKEexampleHuggingFaceTokenABCDEFG",
      "huggingface-cli login --token [REDACTED:huggingface_token]",
    ],
    [
      "GitLab CI job token",
      "201 Created token=glcbt-64_FAKEexample0123456789",
      "201 Created token=[REDACTED:gitlab_token]",
    ],
    [
      "AWS key id with A3T",
      "aws_access_key_id = A3TXFAKEEXAMPLE00001",
      "aws_access_key_id = [REDACTED:aws_key]",
    ],
    [
      "PuTTY private key",
      "PuTTY-User-Key-File-2: ssh-rsa\nEncryption: none\nPrivate-Lines: 1\nAAABAFAKEexamplePrivateLines0123\nPrivate-MAC: deadbeefdeadbeef",
      "[REDACTED:private_key]",
    ],
  ]);
});

Deno.test("user patterns that could backtrack for minutes are refused, naming the part; ordinary ones pass", () => {
  const refused = [
    ["(a+)+$", "(a+)+"],
    ["(a*)*", "(a*)*"],
    ["(a|aa)+", "(a|aa)+"],
    [String.raw`(\w+\s?)*$`, String.raw`(\w+\s?)*`],
    ["(.*a){20}", "(.*a){20}"],
    [String.raw`\d+\d+$`, String.raw`\d+\d+`],
    ["^(([a-z])+.)+[A-Z]([a-z])+$", "(([a-z])+.)+"],
    ["(a+ba+)+", "(a+ba+)+"],
    ["(?=(a+)+$)x", "(a+)+"],
    ["(?:(?=a+)a)+", "(?=a+)"],
    [String.raw`(\w+)\1:`, String.raw`(\w+)\1`],
    [String.raw`\s*.*\s*=`, String.raw`\s*.*`],
    // Short repetitions side by side add up: four of 16 choices each are as slow as one long one.
    [String.raw`\w{0,16}\w{0,16}\w{0,16}\w{0,16}!`, String.raw`\w{0,16}\w{0,16}\w{0,16}`],
    ["a{0,16}a{0,16}a{0,16}a{0,16}a{0,16}a{0,16}b", "a{0,16}a{0,16}a{0,16}"],
  ];
  for (const [pattern, part] of refused) {
    const risk = backtrackingRisk({ pattern, ignoreCase: false }) ?? "";
    ok(risk.startsWith(`"${part}"`), `${pattern}: ${risk}`);
  }
  ok(backtrackingRisk({ pattern: "(?i:(A+)+)", ignoreCase: true }), "with the i flag");
  const accepted = [
    String.raw`TICKET-\d+`,
    String.raw`(?:foo|bar)-\d{4}`,
    String.raw`\bACME-[0-9]{6}\b`,
    String.raw`(?:\d{1,3}\.){3}\d{1,3}`,
    String.raw`[\w.-]+@corp\.com`,
    "(?:a+b)+",
    String.raw`(?:\\.|[^"\\])*`,
    ".*secret.*",
    String.raw`(['"])x+\1`,
    String.raw`-----BEGIN CORP KEY-----[\s\S]*?-----END CORP KEY-----`,
    String.raw`\d{1,3}\d{1,3}x`,
  ];
  for (const pattern of accepted) {
    assertEquals(backtrackingRisk({ pattern, ignoreCase: true }), undefined, pattern);
  }
});

Deno.test("the config check names a pattern that could backtrack with its JSON path and skips it", () => {
  const file = "/home/dev/.claude/hooks/docsearch-config.json";
  const config = resolveConfig([{
    path: file,
    text: JSON.stringify({
      capture: { redact_patterns: [String.raw`TICKET-\d+`, { pattern: String.raw`(\w+\s?)*$` }] },
    }),
  }], false);
  assertEquals(config.capture.redactPatterns.map((rule) => rule.pattern), [String.raw`TICKET-\d+`]);
  assertEquals(config.problems.length, 1);
  match(
    config.problems[0],
    /^\/home\/dev\/\.claude\/hooks\/docsearch-config\.json: capture\.redact_patterns\[1\]: "\(\\w\+\\s\?\)\*" .*; pattern skipped \(fix: .+\)$/,
  );
});

/** Ordinary text that a family's pattern must leave as it is; `what` names the family in a failure. */
function checkUnchanged(what: string, texts: readonly string[]) {
  for (const text of texts) assertEquals(redact(text), text, `${what}: ${text}`);
}

Deno.test("a private key block of any label, case and body goes whole; public keys and certificates stay", () => {
  checkAll([
    [
      "an OpenSSH key whose body is not base64",
      "-----BEGIN OPENSSH PRIVATE KEY-----\nopenssh-key-v1 FAKE: ~!@#$%^&*() -- ssh-ed25519\n\n" +
      "-----END OPENSSH PRIVATE KEY-----\n$ ls",
      "[REDACTED:private_key]\n$ ls",
    ],
    [
      "a label in lower case",
      "key:\n-----begin rsa private key-----\nMIIEFAKEexampleLowercase\n-----end rsa private key-----",
      "key:\n[REDACTED:private_key]",
    ],
    [
      "an SSH2 (ssh.com) key, four dashes and spaces",
      '---- BEGIN SSH2 ENCRYPTED PRIVATE KEY ----\nComment: "fake"\nP2/56wAAAi4FAKEexample\n' +
      "---- END SSH2 ENCRYPTED PRIVATE KEY ----",
      "[REDACTED:private_key]",
    ],
    [
      "words of the label joined by underscores",
      "-----BEGIN OPENSSH_PRIVATE_KEY-----\nFAKEexampleBody\n-----END OPENSSH_PRIVATE_KEY-----",
      "[REDACTED:private_key]",
    ],
    [
      "a label with a dot, in a YAML block",
      "dh: |\n  -----BEGIN X9.42 DH PRIVATE KEY-----\n  MIICJgFAKEexample\n  -----END X9.42 DH PRIVATE KEY-----\nnext: 1",
      "dh: |\n  [REDACTED:private_key]\nnext: 1",
    ],
    [
      "a key and the certificate after it: the certificate stays",
      "-----BEGIN EC PRIVATE KEY-----\nMHcFAKE\n-----END EC PRIVATE KEY-----\n" +
      "-----BEGIN CERTIFICATE-----\nMIIBFAKEcert\n-----END CERTIFICATE-----",
      "[REDACTED:private_key]\n-----BEGIN CERTIFICATE-----\nMIIBFAKEcert\n-----END CERTIFICATE-----",
    ],
  ]);
  checkUnchanged("public material", [
    "-----BEGIN PUBLIC KEY-----\nMIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAFAKE\n-----END PUBLIC KEY-----",
    "-----BEGIN CERTIFICATE-----\nMIIDdzCCAl+gAwIBAgIEAgAAuTANBgkqhkiG9w0BAQUFADBaFAKE\n-----END CERTIFICATE-----",
    "-----BEGIN PGP PUBLIC KEY BLOCK-----\n\nmQENBFAKEexample\n-----END PGP PUBLIC KEY BLOCK-----",
    "---- BEGIN SSH2 PUBLIC KEY ----\nAAAAB3NzaC1yc2EFAKE\n---- END SSH2 PUBLIC KEY ----",
    "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIFAKEexample dev@laptop",
    "Write the key between the BEGIN and END lines; a private key never leaves the machine.",
  ]);
});

Deno.test("a URL of any scheme loses the password of its user: unencoded `/`, escaped slashes, in a command", () => {
  checkAll([
    [
      "postgresql in a psql command, a `/` in the password",
      "psql postgresql://app:FAKE/pass+2024@db.internal:5432/shop -c 'select 1'",
      "psql postgresql://app:[REDACTED:connection_string]@db.internal:5432/shop -c 'select 1'",
    ],
    [
      "JSON with escaped slashes",
      '{"database_url":"postgresql:\\/\\/app:FAKEdbPassw0rd@db.internal:5432\\/shop"}',
      '{"database_url":"postgresql:\\/\\/app:[REDACTED:connection_string]@db.internal:5432\\/shop"}',
    ],
    [
      "an environment variable of a docker run",
      "docker run -e DATABASE_URL=postgres://app:FAKE/x@db:5432/shop api",
      "docker run -e DATABASE_URL=postgres://app:[REDACTED:connection_string]@db:5432/shop api",
    ],
    [
      "an unusual scheme",
      "clickhouse+native://default:FAKE/chPass@ch.internal:9000/default",
      "clickhouse+native://default:[REDACTED:connection_string]@ch.internal:9000/default",
    ],
  ]);
  checkUnchanged("a user without a password, or a port and a path before an `@`", [
    "git clone ssh://git@github.com/acme/widgets.git",
    "open https://alice@example.com/profile",
    "GET http://localhost:3000/users/@alice 200",
    "docker pull registry.internal:5000/api@sha256:4e07408562bedb8b60ce05c1decfe3ad16b72230967de01f640b7e4729b49fce",
    "https://example.com:443/blog/@scope/post",
  ]);
});

/** `v1.0-`, 24 hex digits, `-`, 146 more. */
const CLOUDFLARE_ORIGIN_CA = `v1.0-${"deadbeef".repeat(3)}-${"0123456789abcdef".repeat(10).slice(0, 146)}`;
const FACEBOOK_APP_TOKEN = "1308742762612587|FAKEexampleFacebookToken000";

Deno.test("Cloudflare origin CA keys and Facebook app tokens go, bare and assigned; versions and numbers stay", () => {
  const tokens = [[CLOUDFLARE_ORIGIN_CA, "cloudflare_key"], [FACEBOOK_APP_TOKEN, "facebook_token"]];
  for (const [secret, category] of tokens) {
    const tagged = `[REDACTED:${category}]`;
    checkAll([
      ["INI", `[api]\norigin = ${secret}`, `[api]\norigin = ${tagged}`],
      ["YAML", `cloudflare:\n  token: ${secret}\n`, `cloudflare:\n  token: ${tagged}\n`],
      [".env", `CLOUDFLARE_ORIGIN_CA=${secret}`, `CLOUDFLARE_ORIGIN_CA=${tagged}`],
      ["JSON", `{"token": "${secret}"}`, `{"token": "${tagged}"}`],
      ["code, unquoted", `facebookToken = ${secret}`, `facebookToken = ${tagged}`],
      ["a log line", `WARN rejected ${secret} for app 42`, `WARN rejected ${tagged} for app 42`],
    ]);
  }
  checkAll([[
    "a token URL-encoded in a query",
    "GET /me?access_token=1308742762612587%7CFAKEexampleFacebookToken000&fields=id",
    "GET /me?access_token=[REDACTED:facebook_token]&fields=id",
  ], [
    "a key named like a token that starts like a version",
    "deploy_token: v2.1-9f8e7d6c5b4a39281706f5e4d3c2b1a09f8e7d6c5b4a3928",
    "deploy_token: [REDACTED:secret]",
  ]]);
  checkUnchanged("versions and numbers", [
    "Released v1.0.3-beta; v1.0-rc1 and 2.0.0-alpha.1+build.5114f85 follow.",
    "version: v1.0-deadbeef",
    "require golang.org/x/net v0.0.0-20240102150405-abcdef012345 // indirect",
    "api_token_version = v1.0.3-beta",
    "| 123456789012345 | 42 |\n123456789012345|123456789012345678901234567|9",
    "1308742762612587|100000000000000000000000000000",
    "ids: 1308742762612587|1477036645700765",
  ]);
});

Deno.test("a field that names a secret gives away the value field after it: XML, JSON, YAML", () => {
  checkAll([
    [
      "NuGet.Config credentials",
      '<add key="Username" value="deploy" />\n<add key="ClearTextPassword" value="FAKEnugetPassw0rd" />',
      '<add key="Username" value="deploy" />\n<add key="ClearTextPassword" value="[REDACTED:secret]" />',
    ],
    [
      ".NET appSettings, a plain word as the password",
      "<add key='SmtpPassword' value='correcthorse' />",
      "<add key='SmtpPassword' value='[REDACTED:secret]' />",
    ],
    [
      "an Ant property",
      '<property name="db.password" value="Tr0ub4dorFAKE"/>',
      '<property name="db.password" value="[REDACTED:secret]"/>',
    ],
    [
      "a Kubernetes container's environment",
      "env:\n  - name: DB_PASSWORD\n    value: Tr0ub4dorFAKE\n  - name: LOG_LEVEL\n    value: info",
      "env:\n  - name: DB_PASSWORD\n    value: [REDACTED:secret]\n  - name: LOG_LEVEL\n    value: info",
    ],
    [
      "an ECS task definition",
      '[{"name":"API_TOKEN","value":"FAKEecsTaskToken0123"}]',
      '[{"name":"API_TOKEN","value":"[REDACTED:secret]"}]',
    ],
    [
      "a Postman environment",
      '{\n  "key": "client_secret",\n  "value": "FAKEpostmanSecret01",\n  "enabled": true\n}',
      '{\n  "key": "client_secret",\n  "value": "[REDACTED:secret]",\n  "enabled": true\n}',
    ],
  ]);
  checkUnchanged("pairs that hold no secret", [
    '<add key="Version" value="1.2" />',
    '<add key="PasswordMinLength" value="12" />',
    '<param name="secretName" value="tls-cert"/>',
    "- name: API_TOKEN\n  valueFrom:\n    secretKeyRef:\n      name: api\n      key: token",
    "- name: TOKEN_URL\n  value: https://auth.example.com/token",
    "- name: GITHUB_TOKEN\n  value: ${{ secrets.GITHUB_TOKEN }}",
    '{"name": "password", "value": "string"}',
    '<input type="password" name="password" value="">',
  ]);
});

Deno.test("the password flags of common CLIs go, past quoted arguments and line continuations", () => {
  checkAll([
    [
      "curl -u after a -d and a -H holding `&` and `;`, each on its own line",
      "curl -k -X POST https://api.example.com/token \\\n" +
      "  -H 'Content-Type: application/x-www-form-urlencoded; charset=utf-8' \\\n" +
      "  -d 'grant_type=client_credentials&scope=read' \\\n  -u developer:yqFAKEcriaLRi",
      "curl -k -X POST https://api.example.com/token \\\n" +
      "  -H 'Content-Type: application/x-www-form-urlencoded; charset=utf-8' \\\n" +
      "  -d 'grant_type=client_credentials&scope=read' \\\n  -u developer:[REDACTED:secret]",
    ],
    [
      "curl --user, its value on the next line",
      'curl -s --url "imaps://imap.example.com" --user\\\n"me:myFAKEpassw0rd" --request "STATUS INBOX"',
      'curl -s --url "imaps://imap.example.com" --user\\\n"me:[REDACTED:secret]" --request "STATUS INBOX"',
    ],
    [
      "curl -u after a body of several lines",
      'curl -X POST https://api.example.com/items -d \'{\n  "name": "widget"\n}\' \\\n  --user admin:FAKEadmin42',
      'curl -X POST https://api.example.com/items -d \'{\n  "name": "widget"\n}\' \\\n  --user admin:[REDACTED:secret]',
    ],
    [
      "docker login -p",
      "docker login -u deploy -p FAKEregistryPass9 registry.example.com",
      "docker login -u deploy -p [REDACTED:secret] registry.example.com",
    ],
    [
      "mysql -p on a continuation line",
      "mysql -h db -u root \\\n  -pFAKEmysqlPass2024 shop",
      "mysql -h db -u root \\\n  -p[REDACTED:secret] shop",
    ],
    [
      "sshpass, redis-cli, sqlcmd, ldapsearch",
      "sshpass -p 'FAKEsshPass1' ssh deploy@10.0.0.7 uptime; redis-cli -a FAKEredisPass1 ping\n" +
      "sqlcmd -S sql -U sa -P FAKEsqlPass1 -Q 'SELECT 1'; ldapsearch -x -w FAKEldapPass1 -b dc=example",
      "sshpass -p '[REDACTED:secret]' ssh deploy@10.0.0.7 uptime; redis-cli -a [REDACTED:secret] ping\n" +
      "sqlcmd -S sql -U sa -P [REDACTED:secret] -Q 'SELECT 1'; ldapsearch -x -w [REDACTED:secret] -b dc=example",
    ],
    [
      "mongosh and openssl",
      "mongosh mongodb://db/shop -u admin -p FAKEmongoPass1 && openssl pkcs12 -export -passout pass:FAKEp12Pass1",
      "mongosh mongodb://db/shop -u admin -p [REDACTED:secret] && openssl pkcs12 -export -passout pass:[REDACTED:secret]",
    ],
    [
      "wget --http-password, and a --password whose value is on the next line",
      "wget --http-password=FAKEwgetPass1 https://x.example.com/a && deploy --password \\\n  FAKEcliPass1 --now",
      "wget --http-password=[REDACTED:secret] https://x.example.com/a && deploy --password \\\n  [REDACTED:secret] --now",
    ],
  ]);
  checkUnchanged("commands whose flags hold no password", [
    "curl -X POST https://api.example.com/items -H 'Content-Type: application/json; charset=utf-8' -d 'a=1&b=2'",
    "curl -u \"$API_USER:$API_PASS\" -d 'a=1&b=2' https://api.example.com",
    "curl -s https://api.example.com/items | sort -u",
    "docker login -u deploy --password-stdin < token.txt && docker run -d -p 8080:80 nginx",
    "docker run -p 8080:80 nginx",
    "mysql -u root -p shop < schema.sql",
    "redis-cli -a $REDIS_PASSWORD ping",
    "openssl pkcs12 -export -passout env:P12_PASSWORD -out bundle.p12",
    "ssh -p 2222 deploy@10.0.0.7",
  ]);
});

Deno.test("no built-in pattern can backtrack for long, and 1 MB of text made to trip one takes under a second", () => {
  // The key=value rules' key names are the one exception: their repetitions are bounded (KEY_NAME).
  for (const pattern of builtInPatterns()) {
    const risk = backtrackingRisk({ pattern: pattern.source, ignoreCase: pattern.flags.includes("i") });
    ok(
      risk === undefined || risk.startsWith(String.raw`"[A-Za-z0-9_.-]{0,64}?(?:secret|`) ||
        risk.startsWith(String.raw`"(\\?["'${"`"}]?)\b([A-Za-z0-9_.-]{0,64}?(?:secret|`),
      `${pattern.source}: ${risk}`,
    );
  }
  const MB = 1 << 20;
  const hostile = (unit: string, prefix = "") => prefix + unit.repeat(Math.ceil(MB / unit.length));
  const texts = {
    "BEGIN lines": hostile("-----BEGIN RSA PRIVATE KEY-----\n"),
    "END lines of no key": hostile("-----END ", "-----BEGIN RSA PRIVATE KEY-----\n"),
    "long labels": hostile(`-----BEGIN ${"A ".repeat(30)}`),
    "curl words": hostile("curl "),
    "curl -u": hostile("curl -u "),
    "unclosed quotes": hostile("curl '"),
    "continuations": hostile(" \\\n", "curl"),
    "login -p": hostile("docker login -p "),
    "mysql -p": hostile("mysql -p"),
    "URL users": hostile("postgresql://a:b"),
    "URL slashes": hostile("/", "x://a:"),
    "URL at signs": hostile("@", "x://a:"),
    "digits and pipes": hostile("1234567890123456|"),
    "version-like keys": hostile(`v1.0-${"a".repeat(24)}-`),
    "pairs": hostile('<add key="password" value='),
    "pair gaps": hostile(" ", "name: api_token"),
    "flags": hostile("--password \\\n"),
  };
  redact(Object.values(texts).map((text) => text.slice(0, 4096)).join("\n"));
  for (const [what, text] of Object.entries(texts)) {
    const started = performance.now();
    redact(text);
    const elapsed = performance.now() - started;
    ok(elapsed < 1000, `${what}: ${Math.round(elapsed)} ms`);
  }
});

/** The filter, noting the length of every text it is given: what its work grows with. */
function counted() {
  const reads: number[] = [];
  return { reads, redact: (text: string) => (reads.push(text.length), redact(text)) };
}

/** A value of 200k closing brackets: before the window, the filter took minutes over it. */
const BRACKETS_QUERY = `gitlab ci token=${")".repeat(200_000)}`;

Deno.test("a long request is redacted through a window a little longer than what is kept", () => {
  assertEquals(KEPT_REQUEST_CHARS, 2000);
  const brackets = counted();
  assertEquals(
    redactHead(brackets.redact, BRACKETS_QUERY, 2000),
    `gitlab ci token=${")".repeat(1984)}`,
  );
  assertEquals(brackets.reads, [2512]);

  // A secret across the cut is read whole, so that the part kept holds none of it.
  const across = counted();
  assertEquals(
    redactHead(across.redact, `${"x".repeat(1990)} ${GITHUB_CLASSIC} ${"y ".repeat(100_000)}`, 2000),
    `${"x".repeat(1990)} [REDACTED`,
  );
  // It shortens the window below 2512, which doubles.
  assertEquals(across.reads, [2512, 5024]);

  // One across the window's end is not recognised there: what is kept stops well before it.
  const windowEnd = counted();
  assertEquals(
    redactHead(windowEnd.redact, `${"a ".repeat(1240)}${GITHUB_CLASSIC} ${"y ".repeat(100_000)}`, 2000),
    "a ".repeat(1000),
  );
  assertEquals(windowEnd.reads, [2512]);

  // Redaction shortens a window of tokens: it doubles until what is left reaches past the part kept.
  const tokens = counted();
  assertEquals(
    redactHead(tokens.redact, `${JWT} `.repeat(2000), 2000),
    "[REDACTED:jwt] ".repeat(134).slice(0, 2000),
  );
  assertEquals(tokens.reads, [2512, 5024, 10048, 20096, 40192]);

  // A private key block runs to the end of any window: the window stops growing, and nothing is kept.
  const key = counted();
  assertEquals(
    redactHead(
      key.redact,
      `cat id_rsa\n-----BEGIN RSA PRIVATE KEY-----\n${"MIIEowIBAAKCAQEA\n".repeat(20_000)}`,
      2000,
    ),
    "",
  );
  assertEquals(key.reads, [2512, 5024, 10048, 20096, 40192]);

  // A short request is read once, whole.
  const short = counted();
  assertEquals(
    redactHead(short.redact, `gitlab ci ${GITHUB_CLASSIC}`, 2000),
    "gitlab ci [REDACTED:github_token]",
  );
  assertEquals(short.reads, [51]);
});

Deno.test("a denied request of 200k characters is filtered through the window, in the decision and the record", () => {
  const gitlab = database({ name: "gitlab" });
  const request: WebRequest = {
    tool: "WebSearch",
    query: BRACKETS_QUERY,
    allowedDomains: [],
    blockedDomains: [],
  };
  const records: DenialRecord[] = [];
  const state: RedirectState = { retryOrRecord: (denial) => (records.push(denial), "recorded") };
  const decided = counted();
  const decision = decideRedirect(request, "s", config([gitlab]), { state }, 0, decided.redact);
  assertEquals([decision.action, records.map((record) => record.request)], [
    "deny",
    [`gitlab ci token=${")".repeat(1984)}`],
  ]);
  assertEquals(decided.reads, [2512]);

  const parsed = parseHookEvent(JSON.stringify({
    session_id: "s",
    cwd: "/home/u/project",
    hook_event_name: "PreToolUse",
    tool_name: "WebSearch",
    tool_input: { query: BRACKETS_QUERY },
  }));
  if (!parsed.ok) throw new Error(parsed.problem);
  const recorded = counted();
  const event = eventRecord({
    event: parsed.event,
    config: config([gitlab]),
    redactor: { redact: recorded.redact, isSecretFile: () => false },
    env: () => undefined,
    now: 0,
    hookMs: 1,
    redirect: { request, decision },
  });
  assertEquals(event.denied?.request, `gitlab ci token=${")".repeat(1984)}`);
  // The record's summary of the observation reads a window of its own (capture/summary.ts's excerpt).
  ok(Math.max(...recorded.reads) <= 2512, `the filter read ${recorded.reads.join(", ")} characters`);
});

Deno.test("schemes in any case, HTTPie and xh credentials, Slack session tokens, cookies, signed URLs, SSHPASS", () => {
  checkAll([
    [
      "a lower-case bearer token in a curl header",
      'curl -H "Authorization: bearer 8f3kd93jf83jd93kf83jd9x" https://api.example.com',
      'curl -H "Authorization: bearer [REDACTED:bearer_token]" https://api.example.com',
    ],
    [
      "a lower-case scheme in JSON",
      '{"authorization":"bearer abcdFAKE1234efgh5678ijkl"}',
      '{"authorization":"bearer [REDACTED:bearer_token]"}',
    ],
    [
      "GitHub's lower-case token scheme",
      "curl -H 'authorization: token FAKEgithubStyleTok3n0123456789' https://api.github.com/user",
      "curl -H 'authorization: token [REDACTED:bearer_token]' https://api.github.com/user",
    ],
    [
      "HTTPie -a and --auth, the user kept",
      "http -a admin:Sup3rS3cret https://api.example.com/ && http --auth admin:Sup3rS3cret POST api.example.com",
      "http -a admin:[REDACTED:secret] https://api.example.com/ && http --auth admin:[REDACTED:secret] POST api.example.com",
    ],
    [
      "xh -a, xhs --auth=, quoted",
      "xh -a admin:Sup3rS3cret api.example.com; xhs --auth='ci:FAKExhPass42' api.example.com",
      "xh -a admin:[REDACTED:secret] api.example.com; xhs --auth='ci:[REDACTED:secret]' api.example.com",
    ],
    [
      "an HTTPie bearer token, given alone",
      "http -A bearer -a FAKEbearerTok3n0123456789abcdef pie.dev/bearer",
      "http -A bearer -a [REDACTED:secret] pie.dev/bearer",
    ],
    [
      "Slack browser session tokens",
      "xoxc-1234567890123-1234567890123-FAKEexample0123 d=xoxd-FAKEexample%2Fabc0123%3D",
      "[REDACTED:slack_token] d=[REDACTED:slack_token]",
    ],
    [
      "Cookie and Set-Cookie headers: names and attributes stay",
      'curl -H "Cookie: session=FAKEsess10n0123; theme=dark" https://app.example.com\n' +
      "Set-Cookie: sid=FAKE31d4d96e407aad42; Path=/; Secure",
      'curl -H "Cookie: session=[REDACTED:cookie]; theme=[REDACTED:cookie]" https://app.example.com\n' +
      "Set-Cookie: sid=[REDACTED:cookie]; Path=/; Secure",
    ],
    [
      "an Azure SAS and an S3 pre-signed URL keep what they grant",
      "https://a.blob.core.windows.net/c/b.pdf?sv=2022-11-02&sp=r&sig=FAKEsas0123%2Babc%3D\n" +
      "https://b.s3.amazonaws.com/k?X-Amz-Expires=3600&X-Amz-Signature=fe5f80f77d5fa3be&X-Amz-Security-Token=FAKEsess",
      "https://a.blob.core.windows.net/c/b.pdf?sv=2022-11-02&sp=r&sig=[REDACTED:signed_url]\n" +
      "https://b.s3.amazonaws.com/k?X-Amz-Expires=3600&X-Amz-Signature=[REDACTED:signed_url]&X-Amz-Security-Token=[REDACTED:signed_url]",
    ],
    [
      "SSHPASS for sshpass -e",
      "SSHPASS=FAKEsshPassw0rd sshpass -e ssh deploy@10.0.0.7 uptime",
      "SSHPASS=[REDACTED:secret] sshpass -e ssh deploy@10.0.0.7 uptime",
    ],
  ]);
  checkUnchanged("words and commands that hold none", [
    "AUTH_TOKEN=$(vault kv get -field=token secret/ci) ./deploy.sh",
    "http -a admin pie.dev/basic-auth/admin/x",
    "curl https://example.com/a -a b:c",
    "The server answers with a Set-Cookie: header.",
    "const url = `${base}?sig=${signature}`;",
    "Bearer tokens are sent as `Authorization: Bearer <token>`.",
  ]);
});
