/**
 * Serialises work per key: `run(key, fn)` starts `fn` once every earlier `run` with the same key
 * has settled. Two requests of one session never load and save its history at the same time
 * (no lost turns); different keys run in parallel. Idle keys hold no memory.
 */
export class KeyedLock {
  readonly #tails = new Map<string, Promise<unknown>>();

  async run<T>(key: string, fn: () => Promise<T>): Promise<T> {
    const previous = this.#tails.get(key);
    const result = previous === undefined ? fn() : previous.then(fn, fn);
    const tail = result.then(
      () => undefined,
      () => undefined,
    );
    this.#tails.set(key, tail);
    try {
      return await result;
    } finally {
      if (this.#tails.get(key) === tail) this.#tails.delete(key);
    }
  }

  /** Keys with work queued or running. */
  get size(): number {
    return this.#tails.size;
  }
}
