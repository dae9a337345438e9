/** Reads an async iterable to its end: the items it gave and the error it ended with (undefined: none). */
export async function drainStream<T>(stream: AsyncIterable<T>): Promise<{ parts: T[]; error: unknown }> {
  const parts: T[] = [];
  try {
    for await (const part of stream) parts.push(part);
  } catch (error) {
    return { parts, error };
  }
  return { parts, error: undefined };
}
