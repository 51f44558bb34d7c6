/**
 * The real Claude Code for tests and the benchmark: its native binary from npm, cached in .cache/claude-code/,
 * run with HOME in a sandbox and nothing reaching Anthropic (the Messages API is tests/claude/fake_api.ts).
 */
import { type CliResult, exists, ROOT, runProgram } from "../helpers.ts";

/**
 * The Claude Code release these tests run: the current one, which defers MCP tools and WebSearch behind
 * ToolSearch (the scripted model loads WebSearch first, as a real one must).
 */
export const CLAUDE_VERSION = "2.1.332";

/**
 * The native binary of the npm package for this machine, installed once into .cache/claude-code/<version>
 * (about 250 MB). npm does not run the package's postinstall without approval, so the platform package's own
 * binary is used.
 */
export async function claudeBinary(): Promise<string> {
  const prefix = `${ROOT}.cache/claude-code/${CLAUDE_VERSION}`;
  const os = { linux: "linux", darwin: "darwin" }[Deno.build.os as string];
  const arch = Deno.build.arch === "x86_64" ? "x64" : "arm64";
  const binary = `${prefix}/node_modules/@anthropic-ai/claude-code-${os}-${arch}/claude`;
  if (await exists(binary)) return binary;
  // Installed beside, then renamed into place: a run cut short leaves no half-installed cache.
  const staging = `${prefix}.${Deno.pid}.tmp`;
  // Not runProgram: a download this size may take longer than its hang guard.
  const npm = await new Deno.Command("npm", {
    args: [
      "install",
      "--no-save",
      "--no-audit",
      "--no-fund",
      "--loglevel=error",
      "--prefix",
      staging,
      `@anthropic-ai/claude-code@${CLAUDE_VERSION}`,
    ],
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (npm.code !== 0) throw new Error(`npm install failed: ${new TextDecoder().decode(npm.stderr)}`);
  try {
    await Deno.rename(staging, prefix);
  } catch (error) {
    // Another run installed it meanwhile.
    await Deno.remove(staging, { recursive: true });
    if (!await exists(binary)) throw error;
  }
  return binary;
}

/** Claude Code with HOME in the sandbox and nothing reaching Anthropic. */
export function claude(
  binary: string,
  args: string[],
  env: Record<string, string>,
  cwd?: string,
): Promise<CliResult> {
  return runProgram(binary, args, {
    env: { ...env, DISABLE_AUTOUPDATER: "1", CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1" },
    cwd,
  });
}
