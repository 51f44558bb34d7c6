/**
 * Real upstream Go modules and Rust crates for the Go and Rust project tests: Debian's packaged sources
 * (golang-*-dev under /usr/share/gocode/src, librust-*-dev under /usr/share/cargo/registry), installed with
 * apt-get when missing. .ci/run installs them before the tests; as root a test installs them itself. A
 * machine where they cannot be installed fails the test, saying what to install: never a silent skip.
 */
import { runProgram } from "./helpers.ts";

/** Small packages with no dependencies of their own: a few hundred kB in all. */
export const DEBIAN_SOURCES = [
  "golang-github-google-uuid-dev",
  "golang-github-pkg-errors-dev",
  "golang-github-burntsushi-toml-dev",
  "librust-itoa-dev",
  "librust-semver-dev",
] as const;

type Source = typeof DEBIAN_SOURCES[number];

const ENV = { PATH: "/usr/sbin:/usr/bin:/sbin:/bin", DEBIAN_FRONTEND: "noninteractive", LC_ALL: "C" };

/** The installed version of each package dpkg knows as installed. */
async function installed(): Promise<Map<string, string>> {
  const query = await runProgram(
    "dpkg-query",
    ["--show", "--showformat=${Package} ${Status} ${Version}\\n", ...DEBIAN_SOURCES],
    { env: ENV },
  );
  const versions = new Map<string, string>();
  for (const line of query.stdout.split("\n")) {
    const [name, , , status, version] = line.split(" ");
    if (status === "installed" && version) versions.set(name, version);
  }
  return versions;
}

async function aptGet(args: string[]): Promise<string> {
  const out = await runProgram("apt-get", ["-y", "-qq", ...args], { env: ENV });
  return out.code === 0 ? "" : `apt-get ${args.join(" ")} exited with ${out.code}: ${out.stderr.trim()}`;
}

/**
 * The Debian version of each package, installing the missing ones first (apt-get install, then once more
 * after apt-get update when the package lists are stale). Throws when they cannot be had.
 */
export async function debianSources(): Promise<Record<Source, string>> {
  const hint = `install them: sudo apt-get install -y ${DEBIAN_SOURCES.join(" ")}`;
  let versions: Map<string, string>;
  try {
    versions = await installed();
  } catch (error) {
    throw new Error(
      `the Go and Rust tests read Debian's packaged sources, and dpkg-query failed (${error}); ${hint}`,
    );
  }
  const missing = DEBIAN_SOURCES.filter((name) => !versions.has(name));
  if (missing.length > 0) {
    if (Deno.uid() !== 0) {
      throw new Error(`not installed: ${missing.join(", ")}; the Go and Rust tests read them: ${hint}`);
    }
    const failed = await aptGet(["install", ...missing]) &&
      (await aptGet(["update"]) || await aptGet(["install", ...missing]));
    versions = await installed();
    const still = DEBIAN_SOURCES.filter((name) => !versions.has(name));
    if (still.length > 0) throw new Error(`could not install ${still.join(", ")}: ${failed}; ${hint}`);
  }
  return Object.fromEntries(DEBIAN_SOURCES.map((name) => [name, versions.get(name)!])) as Record<
    Source,
    string
  >;
}

/** Debian's `1:1.3.0+ds-1` is the upstream release 1.3.0. */
export const upstreamVersion = (debian: string): string =>
  debian.replace(/^\d+:/, "").replace(/-[^-]*$/, "").replace(/[+~].*$/, "");
