/**
 * Exact top-k selection with a binary min-heap of size k: O(n log k) instead of sorting all n.
 * Order: higher score first; equal scores by lower index first (insertion order), so results are
 * deterministic.
 */
export class TopK {
  readonly #k: number;
  readonly #scores: Float64Array;
  readonly #indexes: Int32Array;
  #size = 0;

  constructor(k: number) {
    this.#k = Math.max(0, Math.floor(k));
    this.#scores = new Float64Array(this.#k);
    this.#indexes = new Int32Array(this.#k);
  }

  /** True when (score, index) ranks below (otherScore, otherIndex). */
  static #worse(score: number, index: number, otherScore: number, otherIndex: number): boolean {
    return score < otherScore || (score === otherScore && index > otherIndex);
  }

  /** The score a candidate must beat to enter (−Infinity while the heap is not full). */
  get threshold(): number {
    return this.#size < this.#k ? -Infinity : (this.#scores[0] as number);
  }

  /** Offers a candidate. */
  push(index: number, score: number): void {
    if (this.#k === 0) return;
    const scores = this.#scores;
    const indexes = this.#indexes;
    if (this.#size < this.#k) {
      let i = this.#size++;
      while (i > 0) {
        const parent = (i - 1) >> 1;
        if (!TopK.#worse(score, index, scores[parent] as number, indexes[parent] as number)) break;
        scores[i] = scores[parent] as number;
        indexes[i] = indexes[parent] as number;
        i = parent;
      }
      scores[i] = score;
      indexes[i] = index;
      return;
    }
    if (!TopK.#worse(scores[0] as number, indexes[0] as number, score, index)) return;
    let i = 0;
    const n = this.#size;
    for (;;) {
      const left = 2 * i + 1;
      if (left >= n) break;
      const right = left + 1;
      let child = left;
      if (right < n && TopK.#worse(scores[right] as number, indexes[right] as number, scores[left] as number, indexes[left] as number)) child = right;
      if (!TopK.#worse(scores[child] as number, indexes[child] as number, score, index)) break;
      scores[i] = scores[child] as number;
      indexes[i] = indexes[child] as number;
      i = child;
    }
    scores[i] = score;
    indexes[i] = index;
  }

  /** The kept candidates, best first. */
  sorted(): { index: number; score: number }[] {
    const out: { index: number; score: number }[] = [];
    for (let i = 0; i < this.#size; i++) out.push({ index: this.#indexes[i] as number, score: this.#scores[i] as number });
    return out.sort((a, b) => b.score - a.score || a.index - b.index);
  }
}
