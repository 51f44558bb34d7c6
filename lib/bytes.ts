/** Chunks read from a stream, as one array of `total` bytes (the sum of their lengths). */
export function concatBytes(chunks: readonly Uint8Array[], total: number): Uint8Array {
  if (chunks.length === 1) return chunks[0];
  const bytes = new Uint8Array(total);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.length;
  }
  return bytes;
}

/** The first `limit` bytes of a stream (all of it when shorter); the rest is never read. */
export async function readHead(
  stream: AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
  limit: number,
): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  let total = 0;
  for await (const part of stream) {
    parts.push(part.subarray(0, limit - total));
    total += parts[parts.length - 1].length;
    // Leaving the loop cancels the stream: the rest is never downloaded.
    if (total >= limit) break;
  }
  return concatBytes(parts, total);
}

/** A stream read whole, up to `limit` bytes; undefined (and the rest never read) when it is larger. */
export async function readUpTo(
  stream: AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
  limit: number,
): Promise<Uint8Array | undefined> {
  const parts: Uint8Array[] = [];
  let total = 0;
  for await (const part of stream) {
    total += part.length;
    // Leaving the loop cancels the stream: the rest is never downloaded.
    if (total > limit) return undefined;
    parts.push(part);
  }
  return concatBytes(parts, total);
}
