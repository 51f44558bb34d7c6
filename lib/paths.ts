/**
 * Path logic by hand: `node:path` costs 15+ ms of start-up per hook event. Every function takes the
 * environment and OS as arguments so the Windows rules are tested on any machine.
 */

export type Env = (name: string) => string | undefined;
export type OS = typeof Deno.build.os;

export function separator(os: OS): string {
  return os === "windows" ? "\\" : "/";
}

export function isAbsolute(path: string, os: OS): boolean {
  if (os === "windows") return /^([a-zA-Z]:[\\/]|[\\/]{2})/.test(path);
  return path.startsWith("/");
}

const isSeparator = (char: string | undefined, os: OS) => char === "/" || (os === "windows" && char === "\\");

/**
 * Joins segments with the OS separator without doubling separators at the seams. By hand, like dirName: the
 * hook joins and splits paths on every event, and a regex's first use costs its compilation.
 */
export function join(os: OS, ...parts: string[]): string {
  const sep = separator(os);
  let out = "";
  for (const part of parts) {
    if (part === "") continue;
    if (out === "") {
      out = part;
      continue;
    }
    let start = 0;
    while (isSeparator(part[start], os)) start++;
    out += isSeparator(out[out.length - 1], os) ? part.slice(start) : sep + part.slice(start);
  }
  return out;
}

export function homeDir(env: Env, os: OS): string | undefined {
  return (os === "windows" ? env("USERPROFILE") : undefined) ?? env("HOME") ?? undefined;
}

/** The root a path starts with: `/`, `C:\\`, or a UNC share `\\\\server\\share\\`; "" for a relative path. */
function rootOf(path: string, os: OS): string {
  if (os !== "windows") return path.startsWith("/") ? "/" : "";
  return /^(?:[\\/]{2}[^\\/]+[\\/][^\\/]+[\\/]?|[a-zA-Z]:[\\/]|[\\/])/.exec(path)?.[0] ?? "";
}

/**
 * `relative` from `base`, with its "." and ".." segments resolved lexically (links are left as they are);
 * ".." never climbs above the root, and a Windows path from the root (`\\x`) stays on `base`'s drive.
 */
export function resolvePath(base: string, relative: string, os: OS): string {
  if (isAbsolute(relative, os)) return relative;
  const sep = separator(os);
  const fromRoot = rootOf(relative, os) !== "";
  const root = rootOf(base, os);
  const start = fromRoot ? root.replace(/[\\/]+$/, "") : base;
  const segments = start.slice(root.replace(/[\\/]+$/, "").length).split(/[\\/]/).filter(Boolean);
  for (const segment of relative.split(/[\\/]/)) {
    if (segment === "" || segment === ".") continue;
    if (segment === "..") segments.pop();
    else segments.push(segment);
  }
  const prefix = os === "windows" ? root.replaceAll("/", "\\").replace(/\\?$/, "\\") : root;
  return prefix + segments.join(sep);
}

/** Claude Code's user folder: `~/.claude`, or all of it elsewhere when CLAUDE_CONFIG_DIR is set. */
export function claudeUserDir(env: Env, os: OS): string | undefined {
  const home = homeDir(env, os);
  return env("CLAUDE_CONFIG_DIR") || (home === undefined ? undefined : join(os, home, ".claude"));
}

/** Where the state database and config cache live. */
export function stateDir(env: Env, os: OS): string | undefined {
  const override = env("DOCSEARCH_HOME");
  if (override) return override;
  if (os === "windows") {
    const local = env("LOCALAPPDATA");
    if (local) return join(os, local, "docsearch-hook");
  }
  const xdg = env("XDG_STATE_HOME");
  // The XDG spec says relative values are invalid and must be ignored.
  if (xdg && isAbsolute(xdg, os)) return join(os, xdg, "docsearch-hook");
  const home = homeDir(env, os);
  return home ? join(os, home, ".local", "state", "docsearch-hook") : undefined;
}

const lastSeparator = (path: string) => Math.max(path.lastIndexOf("/"), path.lastIndexOf("\\"));

/** The last path segment, for either separator (a Windows path can hold both). */
export const baseName = (path: string): string => path.slice(lastSeparator(path) + 1);

/** Everything before the last segment: "." for a bare name, the root itself for a file in the root. */
export function dirName(path: string): string {
  const at = lastSeparator(path);
  if (at < 0) return ".";
  // The root is a separator, after a drive letter (`C:`) if there is one.
  const letter = path.charCodeAt(0) | 0x20;
  const drive = letter >= 0x61 && letter <= 0x7a && path[1] === ":" ? 2 : 0;
  const root = isSeparator(path[drive], "windows") ? drive + 1 : 0;
  return at < root ? path.slice(0, root) : path.slice(0, at);
}

/** A `file:` URL as a path: percent-escapes decoded (a space is %20), no leading "/" before a Windows drive. */
export function fileUrlPath(url: URL, os: OS): string {
  const path = decodeURIComponent(url.pathname);
  return os === "windows" ? path.replace(/^\/([a-zA-Z]:)/, "$1").replaceAll("/", "\\") : path;
}
