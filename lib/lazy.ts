/**
 * A value made on its first use, then kept. For regexes the hook may never run: making one parses it, which
 * every process pays again (V8 caches compiled code, not regexes).
 */
export function lazily<T>(make: () => T): () => T {
  let made: { value: T } | undefined;
  return () => (made ??= { value: make() }).value;
}
