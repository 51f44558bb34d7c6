/** Creates the state directory owner-only (0700); an existing one is left as the user set it. */
export function ensurePrivateDir(dir: string): void {
  Deno.mkdirSync(dir, { recursive: true, mode: 0o700 });
}
