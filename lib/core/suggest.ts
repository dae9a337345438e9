/** Levenshtein edit distance between two strings. */
export function editDistance(a: string, b: string): number {
  if (a === b) return 0;
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current[j] = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + cost);
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}

/**
 * The candidate closest to `input` (case-insensitive), when it is close enough to be a likely typo:
 * at most a third of the longer name's length in edits (and at least 1), or a prefix/suffix match.
 */
export function closestMatch(input: string, candidates: Iterable<string>): string | undefined {
  const needle = input.toLowerCase();
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of candidates) {
    const hay = candidate.toLowerCase();
    const distance = editDistance(needle, hay);
    const limit = Math.max(1, Math.floor(Math.max(needle.length, hay.length) / 3));
    const related = needle.length >= 3 && (hay.startsWith(needle) || needle.startsWith(hay));
    if ((distance <= limit || related) && distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}
