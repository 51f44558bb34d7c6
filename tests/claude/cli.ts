/**
 * The real Claude Code for tests and the benchmark: its native binary from npm, cached in .cache/claude-code/,
 * run with HOME in a sandbox and nothing reaching Anthropic (the Messages API is tests/claude/fake_api.ts).
 */
import { type CliResult, npmCached, runProgram } from "../helpers.ts";

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
export function claudeBinary(version = CLAUDE_VERSION): Promise<string> {
  const os = { linux: "linux", darwin: "darwin", windows: "win32" }[Deno.build.os as string];
  const arch = Deno.build.arch === "x86_64" ? "x64" : "arm64";
  const exe = Deno.build.os === "windows" ? ".exe" : "";
  return npmCached(
    "claude-code",
    "@anthropic-ai/claude-code",
    version,
    `node_modules/@anthropic-ai/claude-code-${os}-${arch}/claude${exe}`,
  );
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
