/** FNV-1a 32-bit hash of a string (UTF-16 code units), as an unsigned integer; `seed` chains hashes. */
export function fnv1a(text: string, seed = 0x811c9dc5): number {
  let hash = seed;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}
