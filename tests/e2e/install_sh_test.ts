/**
 * install.sh end to end: a release in the GitHub layout served on 127.0.0.1 by the test, and `sh install.sh`
 * run under a temp HOME with nothing of the caller's environment. The released "binary" is a launcher script
 * that runs this checkout, because `deno compile` cannot run on every build machine; it carries this
 * machine's target name, so install.sh's own detection has to pick it.
 */
import { deepStrictEqual as assertEquals, match, ok } from "node:assert/strict";
import {
  CLAUDE_REGISTRATION,
  type CliResult,
  exists,
  group,
  listDir,
  ROOT,
  runProgram,
  type Sandbox,
  sandbox,
} from "../helpers.ts";

const INSTALL_SH = `${ROOT}install.sh`;
const VERSION: string = JSON.parse(Deno.readTextFileSync(`${ROOT}deno.json`)).version;
// Deno's own target triple is the release's naming scheme, so it names this machine's asset.
const ASSET = `docsearch-hook-${Deno.build.target}`;
const LATEST = "/releases/latest/download";
const PINNED = `/releases/download/v${VERSION}`;
// The commands install.sh runs besides a downloader and a checksum tool; the restricted-PATH cases link
// only these, so a new dependency of install.sh shows up here as a failing positive control.
const BASE_TOOLS = ["sh", "uname", "mktemp", "rm", "mkdir", "chmod", "mv", "cp", "awk", "dirname", "cat"];

// install.sh runs under Git Bash there, and a launcher script cannot stand in for an .exe.
const ignore = Deno.build.os === "windows";

const LAUNCHER = `#!/bin/sh
DOCSEARCH_HOOK_SELF="$0" exec '${Deno.execPath()}' run -A --quiet --config='${ROOT}deno.json' '${ROOT}main.ts' "$@"
`;

async function sha256(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, "0")).join("");
}

/** Every file under DIR with its size and mtime: equal snapshots mean nothing was written. */
async function snapshot(dir: string, skip: string[] = []): Promise<Record<string, string>> {
  const files: Record<string, string> = {};
  for await (const entry of Deno.readDir(dir)) {
    const path = `${dir}/${entry.name}`;
    if (skip.includes(path)) continue;
    if (entry.isDirectory) Object.assign(files, await snapshot(path, skip));
    else {
      const info = await Deno.lstat(path);
      files[path] = `${info.size} ${info.mtime?.getTime()}`;
    }
  }
  return files;
}

interface ReleaseOptions {
  /** Rewrites the SHA256SUMS the release would have. */
  sums?: (real: string) => string;
  /** false: SHA256SUMS lists the binary but the binary itself is missing (a 404). */
  binary?: boolean;
}

interface Setup extends AsyncDisposable {
  box: Sandbox;
  /** The release server's origin. */
  url: string;
  home: string;
  /** The default install dir and the binary's path in it. */
  bin: string;
  dest: string;
  /** install.sh's TMPDIR: empty after every run. */
  tmp: string;
  /** URL paths requested from the release server, in order. */
  requests: string[];
  env: Record<string, string>;
  /** `sh install.sh ARGS` (piped into `sh -s --` when STDIN is given); EXTRA is added to the environment. */
  install(args?: string[], extra?: Record<string, string>, stdin?: string): Promise<CliResult>;
  /** The installed launcher, as the user would run it. */
  cli(args: string[]): Promise<CliResult>;
}

/** A sandbox, and a release of the launcher in the GitHub layout (latest and v<VERSION>) served locally. */
async function setup(options: ReleaseOptions = {}): Promise<Setup> {
  const box = await sandbox();
  const home = box.home;
  const releaseDir = `${home}/release-server`;
  const tmp = `${home}/tmp`;
  await Deno.mkdir(tmp);
  // Commands run from a project of their own: from HOME, the project's .claude/ would be the user's.
  const project = `${home}/project`;
  await Deno.mkdir(project);
  const realSums = `${await sha256(LAUNCHER)}  ${ASSET}\n`;
  for (const dir of [LATEST, PINNED]) {
    await Deno.mkdir(`${releaseDir}${dir}`, { recursive: true });
    if (options.binary !== false) await Deno.writeTextFile(`${releaseDir}${dir}/${ASSET}`, LAUNCHER);
    await Deno.writeTextFile(`${releaseDir}${dir}/SHA256SUMS`, options.sums?.(realSums) ?? realSums);
  }

  const requests: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (request) => {
    const path = new URL(request.url).pathname;
    requests.push(path);
    if (path.includes("..") || !path.startsWith("/releases/")) {
      return new Response("not found", { status: 404 });
    }
    try {
      return new Response(await Deno.readFile(`${releaseDir}${path}`));
    } catch {
      return new Response("not found", { status: 404 });
    }
  });

  const url = `http://127.0.0.1:${server.addr.port}`;
  const env = {
    ...box.env,
    DOCSEARCH_HOOK_BASE_URL: `${url}/releases`,
    TMPDIR: tmp,
  };
  const bin = `${home}/.local/bin`;
  const dest = `${bin}/docsearch-hook`;
  return {
    box,
    url,
    home,
    bin,
    dest,
    tmp,
    requests,
    env,
    install: (args = [], extra = {}, stdin) =>
      runProgram("/bin/sh", stdin === undefined ? [INSTALL_SH, ...args] : ["-s", "--", ...args], {
        env: { ...env, ...extra },
        cwd: project,
        stdin,
      }),
    cli: (args) => runProgram(dest, args, { env, cwd: project }),
    async [Symbol.asyncDispose]() {
      await server.shutdown();
      await box[Symbol.asyncDispose]();
    },
  };
}

/** A PATH of symlinks to TOOLS only (each found on the caller's PATH). */
async function pathWith(dir: string, tools: string[]): Promise<string> {
  await Deno.mkdir(dir);
  const searchPath = (Deno.env.get("PATH") ?? "/usr/bin:/bin").split(":");
  for (const tool of tools) {
    let found: string | undefined;
    for (const entry of searchPath) {
      if (entry && await exists(`${entry}/${tool}`)) {
        found = `${entry}/${tool}`;
        break;
      }
    }
    if (!found) throw new Error(`${tool} is not on PATH; this test needs it`);
    await Deno.symlink(found, `${dir}/${tool}`);
  }
  return dir;
}

async function hasTool(tool: string): Promise<boolean> {
  for (const entry of (Deno.env.get("PATH") ?? "").split(":")) {
    if (entry && await exists(`${entry}/${tool}`)) return true;
  }
  return false;
}

async function firstTool(tools: string[]): Promise<string> {
  for (const tool of tools) if (await hasTool(tool)) return tool;
  throw new Error(`none of ${tools.join(", ")} is on PATH; this test needs one`);
}

/** No temp dir or staged file left behind, in TMPDIR or next to the binary. */
async function assertNoLeftovers(t: Setup, installDir = t.bin) {
  assertEquals(await listDir(t.tmp), [], "install.sh left something in TMPDIR");
  if (await exists(installDir)) {
    const stray = (await listDir(installDir)).filter((name) => name !== "docsearch-hook");
    assertEquals(stray, [], `install.sh left something in ${installDir}`);
  }
}

/** Asserts that TEXT contains FRAGMENT literally (paths hold regex metacharacters). */
function includes(text: string, fragment: string) {
  ok(text.includes(fragment), `expected ${JSON.stringify(fragment)} in:\n${text}`);
}

const installed = (dest: string) =>
  `docsearch-hook install: installed docsearch-hook ${VERSION} to ${dest}\n`;

interface HookGroup {
  matcher?: string;
  hooks: { type: string; command: string }[];
}

Deno.test({
  name: "install.sh installs and registers the hook, a second run changes nothing, uninstall restores",
  ignore,
  async fn() {
    await using t = await setup();
    const unrelated: HookGroup = { matcher: "Bash", hooks: [{ type: "command", command: "echo unrelated" }] };
    const original = { model: "opus", hooks: { PreToolUse: [unrelated] } };
    const settingsPath = `${t.home}/.claude/settings.json`;
    await Deno.mkdir(`${t.home}/.claude`);
    await Deno.writeTextFile(settingsPath, JSON.stringify(original, null, 2) + "\n");

    const first = await t.install();
    assertEquals([first.code, first.stderr], [0, ""], first.stdout);
    ok(
      first.stdout.startsWith(`docsearch-hook install: downloading ${t.url}${LATEST}/${ASSET}\n`),
      first.stdout,
    );
    includes(first.stdout, installed(t.dest));
    includes(first.stdout, `docsearch-hook install: registering the hook: ${t.dest} install\n`);
    // The first config sends nothing anywhere, and install says what to do next.
    const userConfig = `${t.home}/.claude/hooks/docsearch-config.json`;
    includes(first.stdout, `Created ${userConfig} with no databases yet: every web search passes`);
    includes(first.stdout, "\nNext: docsearch-hook index add <name> ");
    assertEquals(JSON.parse(await Deno.readTextFile(userConfig)), {
      escape_hatch_ttl_seconds: 300,
      databases: [],
    });
    // The temp HOME's bin is not on PATH, so the exact profile line is given.
    ok(first.stdout.includes(`not on your PATH. Add this line to ${t.home}/.profile`), first.stdout);
    ok(first.stdout.includes(`      export PATH="${t.bin}:$PATH"\n`), first.stdout);
    ok(first.stdout.includes(`check the setup: ${t.dest} doctor`), first.stdout);
    ok(first.stdout.includes(`to undo: ${t.dest} uninstall, then delete ${t.dest}`), first.stdout);
    assertEquals(t.requests, [`${LATEST}/SHA256SUMS`, `${LATEST}/${ASSET}`]);
    assertEquals(await Deno.readTextFile(t.dest), LAUNCHER);
    assertEquals((await Deno.stat(t.dest)).mode! & 0o777, 0o755);
    await assertNoLeftovers(t);

    const settings = JSON.parse(await Deno.readTextFile(settingsPath));
    assertEquals(settings.model, "opus");
    const command = `${t.dest} hook`;
    const isOurs = (group: HookGroup) => group.hooks.some((hook) => hook.command === command);
    // One entry of ours per event, but PreToolUse's two (the web tools', Bash's with a handler per fetcher).
    for (const event of new Set(CLAUDE_REGISTRATION.map((entry) => entry.event))) {
      const groups: HookGroup[] = settings.hooks[event] ?? [];
      assertEquals(
        groups.filter(isOurs),
        CLAUDE_REGISTRATION.filter((entry) => entry.event === event).map((entry) => group(entry, command)),
        `${event}: ${JSON.stringify(groups)}`,
      );
    }
    assertEquals(
      settings.hooks.PreToolUse.filter((group: HookGroup) => !isOurs(group)),
      [unrelated],
      "the unrelated PreToolUse hook must survive unchanged",
    );

    const before = await snapshot(t.home, [t.tmp]);
    const settingsBytes = await Deno.readFile(settingsPath);
    const second = await t.install();
    assertEquals([second.code, second.stderr], [0, ""], second.stdout);
    includes(second.stdout, `${t.dest} is already up to date (latest, ${Deno.build.target})\n`);
    ok(!second.stdout.includes("downloading"), second.stdout);
    assertEquals(await Deno.readFile(settingsPath), settingsBytes);
    assertEquals(
      await snapshot(t.home, [t.tmp]),
      before,
      "a second run must write nothing (no backup either)",
    );
    await assertNoLeftovers(t);

    // The installed binary's doctor on the machine as install.sh left it: everything in order but the
    // config with no databases yet, the expected warning, and the only one.
    const doctor = await t.cli(["doctor"]);
    assertEquals([doctor.code, doctor.stderr], [0, ""], doctor.stdout);
    const checks = doctor.stdout.split("\n").filter((line) => /^[✓!✗] /.test(line));
    includes(doctor.stdout, `✓ binary: docsearch-hook ${VERSION} (${t.dest})\n`);
    ok(checks.some((line) => /^✓ Claude Code, user scope: registered/.test(line)), doctor.stdout);
    ok(checks.some((line) => line.startsWith(`✓ config ${userConfig}: `)), doctor.stdout);
    ok(checks.some((line) => /^✓ self-test: a WebSearch passed/.test(line)), doctor.stdout);
    assertEquals(
      checks.filter((line) => !line.startsWith("✓ ")),
      ["! databases: no enabled database: every web search passes"],
      doctor.stdout,
    );

    const uninstall = await t.cli(["uninstall"]);
    assertEquals([uninstall.code, uninstall.stderr], [0, ""], uninstall.stdout);
    assertEquals(JSON.parse(await Deno.readTextFile(settingsPath)), original);
  },
});

Deno.test({
  name: "install.sh --version picks the release's download path; options win over the environment",
  ignore,
  async fn() {
    await using t = await setup();
    const dir = `${t.home}/opt/bin`;
    const result = await t.install(["--version", `v${VERSION}`], {
      DOCSEARCH_HOOK_VERSION: "9.9.9",
      DOCSEARCH_HOOK_INSTALL_DIR: dir,
      DOCSEARCH_HOOK_NO_REGISTER: "1",
    });
    assertEquals([result.code, result.stderr], [0, ""], result.stdout);
    assertEquals(t.requests, [`${PINNED}/SHA256SUMS`, `${PINNED}/${ASSET}`]);
    includes(result.stdout, installed(`${dir}/docsearch-hook`));
    assertEquals(await Deno.readTextFile(`${dir}/docsearch-hook`), LAUNCHER);
    assertEquals(await exists(t.dest), false);
    assertEquals(await exists(`${t.home}/.claude`), false, "DOCSEARCH_HOOK_NO_REGISTER=1 must not register");

    // Without the "v", to the same place: found up to date, nothing fetched but the checksums.
    t.requests.length = 0;
    const again = await t.install(["--version", VERSION, "--dir", dir, "--no-register"]);
    assertEquals([again.code, again.stderr], [0, ""], again.stdout);
    assertEquals(t.requests, [`${PINNED}/SHA256SUMS`]);
    includes(
      again.stdout,
      `${dir}/docsearch-hook is already up to date (v${VERSION}, ${Deno.build.target})\n`,
    );
    await assertNoLeftovers(t, dir);
  },
});

Deno.test({
  name:
    "install.sh into a folder with a space and a quote: the next steps' commands can be pasted as printed",
  ignore,
  async fn() {
    await using t = await setup();
    const dir = `${t.home}/my bin/it's here`;
    const result = await t.install(["--dir", dir, "--no-register"]);
    assertEquals([result.code, result.stderr], [0, ""], result.stdout);
    const quoted = `'${t.home}/my bin/it'\\''s here/docsearch-hook'`;
    includes(result.stdout, `  - register the hook with Claude Code: ${quoted} install\n`);
    includes(result.stdout, `  - check the setup: ${quoted} doctor\n`);
    includes(result.stdout, `  - to undo: ${quoted} uninstall, then delete ${quoted}\n`);
    // Pasted into a shell, the printed command runs the installed binary.
    const line = result.stdout.split("\n").find((l) => l.includes("check the setup: "))!;
    const command = line.slice(line.indexOf(": ") + 2).replace(/ doctor$/, " --version");
    const run = await new Deno.Command("sh", { args: ["-c", command], env: { HOME: t.home } }).output();
    assertEquals(run.success, true, new TextDecoder().decode(run.stderr));
  },
});

Deno.test({
  name: "install.sh refuses a binary whose checksum does not match, and changes nothing",
  ignore,
  async fn() {
    const wrong = await sha256("something else");
    await using t = await setup({ sums: (real) => real.replace(/^[0-9a-f]{64}/, wrong) });
    const old = "#!/bin/sh\necho old\n";
    await Deno.mkdir(t.bin, { recursive: true });
    await Deno.writeTextFile(t.dest, old, { mode: 0o755 });
    await Deno.chmod(t.dest, 0o755);
    const oldInfo = await Deno.stat(t.dest);

    const result = await t.install();
    assertEquals(result.code, 1);
    assertEquals(
      result.stdout,
      `docsearch-hook install: downloading ${t.url}${LATEST}/${ASSET}\n`,
    );
    includes(
      result.stderr,
      `error: checksum mismatch for ${ASSET}, so it was not installed (nothing was changed)`,
    );
    includes(result.stderr, `  expected (SHA256SUMS): ${wrong}\n`);
    includes(result.stderr, `  actual (downloaded):   ${await sha256(LAUNCHER)}\n`);
    assertEquals(await Deno.readTextFile(t.dest), old);
    const info = await Deno.stat(t.dest);
    assertEquals([info.mtime, info.mode], [oldInfo.mtime, oldInfo.mode]);
    assertEquals(await listDir(t.bin), ["docsearch-hook"]);
    assertEquals(await exists(`${t.home}/.claude`), false);
    await assertNoLeftovers(t);

    // An install dir that did not exist is not even created.
    const fresh = `${t.home}/fresh/bin`;
    const again = await t.install(["--dir", fresh]);
    assertEquals(again.code, 1);
    match(again.stderr, /checksum mismatch/);
    assertEquals(await exists(`${t.home}/fresh`), false);
    await assertNoLeftovers(t);
  },
});

Deno.test({
  name: "install.sh: a missing binary, a missing checksum line or a missing release is a clear error",
  ignore,
  async fn() {
    {
      await using t = await setup({ binary: false });
      const result = await t.install();
      assertEquals([result.code, result.stdout.includes("installed")], [1, false]);
      includes(
        result.stderr,
        `error: could not download ${t.url}${LATEST}/${ASSET}; release latest may have no binary for ${Deno.build.target}`,
      );
      assertEquals(await exists(t.bin), false);
      await assertNoLeftovers(t);
    }
    {
      await using t = await setup({ sums: () => `${"0".repeat(64)}  docsearch-hook-some-other-target\n` });
      const result = await t.install();
      assertEquals([result.code, result.stdout], [1, ""]);
      includes(result.stderr, `error: release latest lists no checksum for ${ASSET} in SHA256SUMS; refusing`);
      assertEquals(t.requests, [`${LATEST}/SHA256SUMS`], "the binary must not even be downloaded");
      assertEquals(await exists(t.bin), false);
      await assertNoLeftovers(t);
    }
    {
      await using t = await setup();
      const result = await t.install(["--version", "9.9.9"]);
      assertEquals([result.code, result.stdout], [1, ""]);
      includes(
        result.stderr,
        `error: could not download ${t.url}/releases/download/v9.9.9/SHA256SUMS; check that release v9.9.9 exists`,
      );
      assertEquals(await exists(t.bin), false);
      await assertNoLeftovers(t);
    }
  },
});

Deno.test({
  name: "install.sh --no-register, piped into `sh -s --`, installs the binary and leaves the agent alone",
  ignore,
  async fn() {
    await using t = await setup();
    const result = await t.install(["--no-register"], {}, await Deno.readTextFile(INSTALL_SH));
    assertEquals([result.code, result.stderr], [0, ""], result.stdout);
    includes(result.stdout, installed(t.dest));
    ok(!result.stdout.includes("registering"), result.stdout);
    ok(result.stdout.includes(`register the hook with Claude Code: ${t.dest} install\n`), result.stdout);
    assertEquals(await Deno.readTextFile(t.dest), LAUNCHER);
    assertEquals(await exists(`${t.home}/.claude`), false);
    await assertNoLeftovers(t);
  },
});

Deno.test({
  name: "install.sh reports a failed registration as a failure, and says the binary is installed",
  ignore,
  async fn() {
    await using t = await setup();
    const settingsPath = `${t.home}/.claude/settings.json`;
    await Deno.mkdir(`${t.home}/.claude`);
    // `docsearch-hook install` refuses to merge into a settings file it cannot parse.
    await Deno.writeTextFile(settingsPath, "{ not json\n");
    const result = await t.install();
    assertEquals(result.code, 1);
    includes(result.stdout, installed(t.dest));
    ok(!result.stdout.includes("Next steps"), result.stdout);
    includes(result.stderr, `${settingsPath}: invalid JSON`);
    includes(
      result.stderr,
      `docsearch-hook install: error: the binary is installed at ${t.dest}, but registering the hook failed (exit 1);\n` +
        `docsearch-hook install: error: fix the problem above, then run: ${t.dest} install\n`,
    );
    assertEquals(await Deno.readTextFile(settingsPath), "{ not json\n");
    assertEquals(await Deno.readTextFile(t.dest), LAUNCHER);
    await assertNoLeftovers(t);
  },
});

Deno.test({
  name: "install.sh beside the enabled Claude Code plugin installs the binary but registers nothing",
  ignore,
  async fn() {
    await using t = await setup();
    const settingsPath = `${t.home}/.claude/settings.json`;
    await Deno.mkdir(`${t.home}/.claude`);
    const settings = JSON.stringify({ enabledPlugins: { "docsearch@docsearch-hook": true } }, null, 2) + "\n";
    await Deno.writeTextFile(settingsPath, settings);
    const result = await t.install();
    assertEquals(result.code, 1);
    includes(result.stdout, installed(t.dest));
    includes(result.stderr, `the Claude Code plugin docsearch@docsearch-hook is enabled (${settingsPath})`);
    includes(result.stderr, "`install.sh --no-register` installs only the binary");
    assertEquals(await Deno.readTextFile(settingsPath), settings);
    assertEquals(await exists(`${t.home}/.claude/commands`), false);
    // As the refusal says: the binary alone, for the shell.
    const alone = await t.install(["--no-register"]);
    assertEquals([alone.code, alone.stderr], [0, ""], alone.stdout);
    await assertNoLeftovers(t);
  },
});

Deno.test({
  name: "install.sh refuses an install dir it cannot write, before downloading anything",
  ignore,
  async fn() {
    await using t = await setup();
    // A directory below a regular file cannot be created by anyone, root included.
    await Deno.writeTextFile(`${t.home}/afile`, "");
    const blocked = await t.install(["--dir", `${t.home}/afile/bin`]);
    assertEquals([blocked.code, blocked.stdout], [1, ""]);
    includes(blocked.stderr, `error: cannot create ${t.home}/afile/bin: ${t.home}/afile is not a directory`);
    includes(blocked.stderr, "--dir DIR (or DOCSEARCH_HOOK_INSTALL_DIR)");

    // A read-only directory stops everyone but root, which writes through it: then there is nothing to test.
    const readOnly = `${t.home}/read-only`;
    await Deno.mkdir(readOnly, { mode: 0o555 });
    await Deno.chmod(readOnly, 0o555);
    let rootLike = true;
    try {
      await Deno.writeTextFile(`${readOnly}/probe`, "");
      await Deno.remove(`${readOnly}/probe`);
    } catch (error) {
      if (!(error instanceof Deno.errors.PermissionDenied)) throw error;
      rootLike = false;
    }
    if (!rootLike) {
      const denied = await t.install([`--dir=${readOnly}`], { DOCSEARCH_HOOK_INSTALL_DIR: t.bin });
      assertEquals([denied.code, denied.stdout], [1, ""]);
      includes(denied.stderr, `error: cannot write to ${readOnly}; choose another place with --dir`);
      assertEquals(await listDir(readOnly), []);
    }
    await Deno.chmod(readOnly, 0o755);
    assertEquals(t.requests, []);
    await assertNoLeftovers(t);
  },
});

Deno.test({
  name: "install.sh without curl or wget says so; with only wget it works",
  ignore,
  async fn() {
    await using t = await setup();
    const hasher = await firstTool(["sha256sum", "shasum", "openssl"]);
    const PATH = await pathWith(`${t.home}/path-none`, [...BASE_TOOLS, hasher]);
    const none = await t.install(["--no-register"], { PATH });
    assertEquals([none.code, none.stdout], [1, ""]);
    assertEquals(
      none.stderr,
      "docsearch-hook install: error: neither curl nor wget is installed; install one of them and run this again\n",
    );
    assertEquals(t.requests, []);
    assertEquals(await exists(t.bin), false);
    await assertNoLeftovers(t);

    if (await hasTool("wget")) {
      const wgetPath = await pathWith(`${t.home}/path-wget`, [...BASE_TOOLS, hasher, "wget"]);
      const result = await t.install(["--no-register"], { PATH: wgetPath });
      assertEquals([result.code, result.stderr], [0, ""], result.stdout);
      includes(result.stdout, installed(t.dest));
      await assertNoLeftovers(t);
    }
  },
});

Deno.test({
  name: "install.sh without a SHA-256 tool refuses to install; shasum or openssl alone will do",
  ignore,
  async fn() {
    await using t = await setup();
    const PATH = await pathWith(`${t.home}/path-none`, [...BASE_TOOLS, "curl"]);
    const none = await t.install(["--no-register"], { PATH });
    assertEquals([none.code, none.stdout], [1, ""]);
    match(
      none.stderr,
      /^docsearch-hook install: error: no SHA-256 tool found \(sha256sum, shasum or openssl\), and docsearch-hook is never installed unverified/,
    );
    assertEquals(t.requests, []);
    assertEquals(await exists(t.bin), false);
    await assertNoLeftovers(t);

    for (const tool of ["shasum", "openssl"]) {
      if (!await hasTool(tool)) continue;
      await Deno.remove(t.bin, { recursive: true }).catch(() => {});
      const toolPath = await pathWith(`${t.home}/path-${tool}`, [...BASE_TOOLS, "curl", tool]);
      const result = await t.install(["--no-register"], { PATH: toolPath });
      assertEquals([result.code, result.stderr], [0, ""], `${tool}: ${result.stdout}`);
      includes(result.stdout, installed(t.dest));
      await assertNoLeftovers(t);
    }
  },
});

Deno.test({
  name: "install.sh --help, and a bad option is a usage error",
  ignore,
  async fn() {
    await using t = await setup();
    const help = await t.install(["--help"]);
    assertEquals([help.code, help.stderr], [0, ""]);
    match(help.stdout, /^Installs docsearch-hook/);
    match(help.stdout, /\n {2}--version X /);
    match(help.stdout, /\n {2}--dir DIR /);
    match(help.stdout, /\n {2}--no-register /);
    const bad = await t.install(["--frobnicate"]);
    assertEquals([bad.code, bad.stdout], [2, ""]);
    match(bad.stderr, /^docsearch-hook install: error: unknown option: --frobnicate\n/);
    assertEquals(t.requests, []);
  },
});
