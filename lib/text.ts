/** Cutting text for a line or a field, where a cut inside a character would leave half of it. */

/** Cuts at a code point boundary, marking the cut, so the result is at most `max` UTF-16 units. */
export function clipTo(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = max - 1;
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end--;
  return text.slice(0, end) + "…";
}
