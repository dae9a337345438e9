/**
 * The LRU marks a cache keeps in memory until it writes them: which keys were used, and in which
 * order. A mark updates its key's sequence number in place — no delete and re-add, which V8's Map
 * and Set make cost time proportional to their size when one key is re-added over and over (a hot
 * entry among many pending marks) — and the order is recovered by sorting when the marks are taken.
 */
export class PendingMarks {
  readonly #marks = new Map<string, number>();
  #seq = 0;

  /** Number of keys marked. */
  get size(): number {
    return this.#marks.size;
  }

  /** Marks `key` as the most recently used. */
  mark(key: string): void {
    this.#marks.set(key, ++this.#seq);
  }

  /** Forgets the mark of `key`. */
  delete(key: string): void {
    this.#marks.delete(key);
  }

  clear(): void {
    this.#marks.clear();
  }

  /** Removes and returns up to `limit` keys, least recently used first. */
  take(limit = Number.POSITIVE_INFINITY): string[] {
    const ordered = [...this.#marks].sort((a, b) => a[1] - b[1]);
    const keys = (ordered.length > limit ? ordered.slice(0, limit) : ordered).map(([key]) => key);
    for (const key of keys) this.#marks.delete(key);
    return keys;
  }

  /** Puts back `keys` (least recently used first) as older than every current mark: a write of them failed. */
  restore(keys: readonly string[]): void {
    let oldest = 0;
    for (const seq of this.#marks.values()) oldest = Math.min(oldest, seq);
    keys.forEach((key, i) => {
      // A key marked again meanwhile keeps its newer mark.
      if (!this.#marks.has(key)) this.#marks.set(key, oldest - keys.length + i);
    });
  }
}
