/**
 * How a session id is stored. SQLite text must be valid UTF-8 and is read back only up to a NUL, so lone
 * UTF-16 surrogates (all replaced by U+FFFD) would make different ids collide, and NULs would not read
 * back. Escaping "%", NUL and lone surrogates as %XX / %uXXXX is injective and leaves ordinary ids as
 * they are.
 */
import { lazily } from "../lazy.ts";

const needsEscape = lazily(() =>
  // deno-lint-ignore no-control-regex -- NUL is exactly what must be escaped
  /%|\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g
);

/** No "%", NUL or surrogate: stored as it is (an agent's ids are UUIDs), without making needsEscape. */
function storedAsIs(sessionId: string): boolean {
  for (let i = 0; i < sessionId.length; i++) {
    const code = sessionId.charCodeAt(i);
    if (code === 0x25 || code === 0 || (code >= 0xd800 && code <= 0xdfff)) return false;
  }
  return true;
}

export function sessionKey(sessionId: string): string {
  if (storedAsIs(sessionId)) return sessionId;
  return sessionId.replace(needsEscape(), (char) => {
    const code = char.charCodeAt(0);
    return code < 0x100 ? `%${code.toString(16).padStart(2, "0")}` : `%u${code.toString(16).toUpperCase()}`;
  });
}
