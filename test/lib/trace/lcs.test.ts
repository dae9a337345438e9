import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { longestCommonSubsequence } from '../../../lib/trace/lcs.js';

/** The LCS length by the textbook O(n·m) table (small inputs only). */
function lcsLength(a: readonly number[], b: readonly number[]): number {
  let previous = new Array<number>(b.length + 1).fill(0);
  for (let i = 1; i <= a.length; i++) {
    const row = [0];
    for (let j = 1; j <= b.length; j++) row[j] = a[i - 1] === b[j - 1] ? (previous[j - 1] ?? 0) + 1 : Math.max(previous[j] ?? 0, row[j - 1] ?? 0);
    previous = row;
  }
  return previous[b.length] ?? 0;
}

/** A seeded generator (mulberry32), so failures reproduce. */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function assertCommonSubsequence(a: readonly number[], b: readonly number[], pairs: ReadonlyArray<readonly [number, number]>): void {
  pairs.forEach(([i, j], k) => {
    assert.equal(a[i], b[j], `pair ${k} matches equal items`);
    const before = pairs[k - 1];
    if (before !== undefined) assert.ok(i > before[0] && j > before[1], `pair ${k} comes after pair ${k - 1}`);
  });
}

describe('longestCommonSubsequence', () => {
  test('small cases: exact and in order', () => {
    assert.deepEqual(longestCommonSubsequence([], []), []);
    assert.deepEqual(longestCommonSubsequence([1, 2, 3], []), []);
    assert.deepEqual(longestCommonSubsequence([1, 2, 3], [1, 2, 3]), [[0, 0], [1, 1], [2, 2]]);
    assert.deepEqual(longestCommonSubsequence([1, 2, 3, 4], [1, 5, 3]), [[0, 0], [2, 2]]);
    assert.deepEqual(longestCommonSubsequence([1, 2], [3, 4]), []);
  });

  test('random small inputs: as long as the textbook table says, and a valid alignment', () => {
    const next = random(42);
    for (let round = 0; round < 3000; round++) {
      const alphabet = 1 + Math.floor(next() * 5);
      const a = Array.from({ length: Math.floor(next() * 16) }, () => Math.floor(next() * alphabet));
      const b = Array.from({ length: Math.floor(next() * 16) }, () => Math.floor(next() * alphabet));
      const pairs = longestCommonSubsequence(a, b);
      assertCommonSubsequence(a, b, pairs);
      assert.equal(pairs.length, lcsLength(a, b), `a=${a.join(',')} b=${b.join(',')}`);
    }
  });

  test('past the edit cost cap the result is still a valid common subsequence, nearly as long', () => {
    const next = random(7);
    for (const cap of [1, 2, 5]) {
      for (let round = 0; round < 500; round++) {
        const a = Array.from({ length: Math.floor(next() * 30) }, () => Math.floor(next() * 4));
        const b = Array.from({ length: Math.floor(next() * 30) }, () => Math.floor(next() * 4));
        assertCommonSubsequence(a, b, longestCommonSubsequence(a, b, cap));
      }
    }
    const a = Array.from({ length: 600 }, () => Math.floor(next() * 8));
    const b = Array.from({ length: 600 }, () => Math.floor(next() * 8));
    const capped = longestCommonSubsequence(a, b, 16);
    assertCommonSubsequence(a, b, capped);
    assert.ok(capped.length >= 0.8 * lcsLength(a, b), `${capped.length} of ${lcsLength(a, b)}`);
  });
});
