/** Edit cost a middle-snake search may reach before it settles for the furthest point found (see `longestCommonSubsequence`). */
export const DEFAULT_MAX_EDIT_COST = 2048;

/**
 * A longest common subsequence of two sequences of integer codes, as the matched index pairs in
 * order: `[[i, j], …]` with `a[i] === b[j]` and both indexes increasing. Myers' O((N+M)·D) diff
 * with the linear-space refinement (find the middle snake of the shortest edit script, recurse on
 * both halves), after stripping the common prefix and suffix of each part: memory is O(N+M) however
 * long the sequences (two 20,000-call traces need two arrays of ~40,000 integers, not a
 * 400-million-cell table), and time is near linear when the sequences are alike.
 *
 * Cost cap: when one search reaches `maxEditCost` edits without its two ends meeting (sequences that
 * differ in thousands of places), it splits at the point the search got furthest to instead (GNU
 * diff's "too expensive" heuristic) and carries on with both halves. The result is then still a
 * common subsequence, in order, but may be shorter than the longest; time stays bounded. Below the
 * cap (every part of the inputs differs in fewer than `maxEditCost` places) the result is exact.
 */
export function longestCommonSubsequence(a: ArrayLike<number>, b: ArrayLike<number>, maxEditCost = DEFAULT_MAX_EDIT_COST): Array<[number, number]> {
  const pairs: Array<[number, number]> = [];
  const size = a.length + b.length + 2;
  const forward = new Int32Array(2 * size + 2);
  const backward = new Int32Array(2 * size + 2);
  const solve = (aLo: number, aHi: number, bLo: number, bHi: number): void => {
    while (aLo < aHi && bLo < bHi && a[aLo] === b[bLo]) pairs.push([aLo++, bLo++]);
    let suffix = 0;
    while (aLo < aHi - suffix && bLo < bHi - suffix && a[aHi - 1 - suffix] === b[bHi - 1 - suffix]) suffix++;
    aHi -= suffix;
    bHi -= suffix;
    if (aLo < aHi && bLo < bHi) {
      const [x, y] = middleSnake(a, b, aLo, aHi, bLo, bHi, forward, backward, maxEditCost);
      // The split is strictly inside (see middleSnake); the guard only rules out endless recursion.
      if ((x > aLo || y > bLo) && (x < aHi || y < bHi)) {
        solve(aLo, x, bLo, y);
        solve(x, aHi, y, bHi);
      }
    }
    for (let k = 0; k < suffix; k++) pairs.push([aHi + k, bHi + k]);
  };
  solve(0, a.length, 0, b.length);
  return pairs;
}

/**
 * The point where a shortest edit script of `a[aLo, aHi)` → `b[bLo, bHi)` crosses its middle:
 * searches from both corners at once (`forward[k]` / `backward[k]`: the furthest `x` reached on
 * diagonal `k` with `d` edits) until the paths overlap. Both parts are non-empty and differ in their
 * first and last items, so the point is strictly inside and both halves are smaller problems.
 * Past `maxCost` edits: the furthest point either search reached (see `longestCommonSubsequence`).
 */
function middleSnake(a: ArrayLike<number>, b: ArrayLike<number>, aLo: number, aHi: number, bLo: number, bHi: number, forward: Int32Array, backward: Int32Array, maxCost: number): [number, number] {
  const n = aHi - aLo;
  const m = bHi - bLo;
  const delta = n - m;
  const odd = (delta & 1) !== 0;
  const maxD = Math.ceil((n + m) / 2);
  const offset = maxD + 1; // diagonal k is stored at offset + k
  forward.fill(-1, 0, 2 * offset + 1);
  backward.fill(-1, 0, 2 * offset + 1);
  forward[offset + 1] = 0;
  backward[offset + 1] = 0;
  // Diagonals that ran off the grid are skipped from then on (they can no longer overlap).
  let fStart = 0;
  let fEnd = 0;
  let bStart = 0;
  let bEnd = 0;
  for (let d = 0; d <= maxD; d++) {
    for (let k = -d + fStart; k <= d - fEnd; k += 2) {
      const at = offset + k;
      let x = k === -d || (k !== d && (forward[at - 1] as number) < (forward[at + 1] as number)) ? (forward[at + 1] as number) : (forward[at - 1] as number) + 1;
      let y = x - k;
      while (x < n && y < m && a[aLo + x] === b[bLo + y]) {
        x++;
        y++;
      }
      forward[at] = x;
      if (x > n) fEnd += 2;
      else if (y > m) fStart += 2;
      else if (odd) {
        const other = offset + delta - k;
        if (other >= 0 && other < 2 * offset + 1 && backward[other] !== -1 && x >= n - (backward[other] as number)) return [aLo + x, bLo + y];
      }
    }
    for (let k = -d + bStart; k <= d - bEnd; k += 2) {
      const at = offset + k;
      let x = k === -d || (k !== d && (backward[at - 1] as number) < (backward[at + 1] as number)) ? (backward[at + 1] as number) : (backward[at - 1] as number) + 1;
      let y = x - k;
      while (x < n && y < m && a[aHi - 1 - x] === b[bHi - 1 - y]) {
        x++;
        y++;
      }
      backward[at] = x;
      if (x > n) bEnd += 2;
      else if (y > m) bStart += 2;
      else if (!odd) {
        const other = offset + delta - k;
        if (other >= 0 && other < 2 * offset + 1 && forward[other] !== -1) {
          const fx = forward[other] as number;
          const fy = fx - (other - offset);
          if (fx >= n - x) return [aLo + fx, bLo + fy];
        }
      }
    }
    if (d >= maxCost) return furthestPoint(forward, backward, offset, d, n, m, aLo, bLo);
  }
  // Unreachable for non-empty parts (the paths always meet by d = ceil((n + m) / 2)).
  return [aLo + n, bLo];
}

/**
 * The point furthest from its corner that the forward or the backward search reached after `d`
 * edits (`x + y` largest from the start, or from the end), in `a` / `b` indexes.
 */
function furthestPoint(forward: Int32Array, backward: Int32Array, offset: number, d: number, n: number, m: number, aLo: number, bLo: number): [number, number] {
  let fx = 0;
  let fy = 0;
  let bx = 0;
  let by = 0;
  for (let k = -d; k <= d; k += 2) {
    const f = clampToGrid(forward[offset + k] as number, k, n, m);
    if (f !== undefined && f[0] + f[1] > fx + fy) [fx, fy] = f;
    const b = clampToGrid(backward[offset + k] as number, k, n, m);
    if (b !== undefined && b[0] + b[1] > bx + by) [bx, by] = b;
  }
  return fx + fy >= bx + by ? [aLo + fx, bLo + fy] : [aLo + n - bx, bLo + m - by];
}

/** The point `x` on diagonal `k` (`y = x - k`), moved back along the diagonal into the n × m grid; undefined when unset or off the grid. */
function clampToGrid(x: number, k: number, n: number, m: number): [number, number] | undefined {
  if (x < 0) return undefined;
  let cx = Math.min(x, n);
  let cy = cx - k;
  if (cy > m) {
    cy = m;
    cx = m + k;
  }
  return cx < 0 || cy < 0 ? undefined : [cx, cy];
}
