import { closestMatch } from '../core/suggest.js';

/**
 * Optimal-string-alignment distance: Levenshtein plus adjacent transpositions counted as one edit
 * (`qurey` → `query` is 1), the commonest typo in parameter names.
 */
export function transpositionDistance(a: string, b: string): number {
  const rows: number[][] = [];
  for (let i = 0; i <= a.length; i++) {
    const row: number[] = [i];
    for (let j = 1; j <= b.length; j++) {
      if (i === 0) {
        row.push(j);
        continue;
      }
      const above = rows[i - 1] ?? [];
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min((above[j] ?? 0) + 1, (row[j - 1] ?? 0) + 1, (above[j - 1] ?? 0) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, (rows[i - 2]?.[j - 2] ?? 0) + 1);
      row.push(best);
    }
    rows.push(row);
  }
  return rows[a.length]?.[b.length] ?? 0;
}

/**
 * The candidate a mistyped name most likely meant: `closestMatch` (edits, prefixes), else the
 * nearest candidate within a third of the length (at least 1) counting transpositions as one edit.
 */
export function suggestName(input: string, candidates: readonly string[]): string | undefined {
  const direct = closestMatch(input, candidates);
  if (direct !== undefined) return direct;
  const needle = input.toLowerCase();
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of candidates) {
    const distance = transpositionDistance(needle, candidate.toLowerCase());
    const limit = Math.max(1, Math.floor(Math.max(needle.length, candidate.length) / 3));
    if (distance <= limit && distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}
