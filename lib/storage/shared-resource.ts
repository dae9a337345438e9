import { registerConnection } from './connection-registry.js';

interface Entry<T> {
  value: Promise<T>;
  users: number;
  unregister: () => void;
}

/** A use of a shared resource; `release()` gives it back (the last release closes it; a second call does nothing). */
export interface SharedUse<T> {
  readonly value: T;
  release(): Promise<void>;
}

/**
 * Shared, reference-counted resources by key (one Redis client or one pg Pool per URL per
 * process): the first `acquire` opens it, later ones share it, the last `release` closes it, and
 * `closeAllStorage()` closes whatever is still held. A failed open is forgotten, so the next
 * `acquire` tries again.
 */
export class SharedResources<T> {
  readonly #entries = new Map<string, Entry<T>>();
  readonly #close: (value: T) => Promise<void>;

  constructor(close: (value: T) => Promise<void>) {
    this.#close = close;
  }

  /** The resource of `key`, opened with `open` when nobody holds it. */
  async acquire(key: string, open: () => Promise<T>): Promise<SharedUse<T>> {
    let entry = this.#entries.get(key);
    if (entry === undefined) {
      const created: Entry<T> = { value: open(), users: 0, unregister: () => undefined };
      created.unregister = registerConnection(async () => {
        this.#forget(key, created);
        await this.#close(await created.value);
      });
      this.#entries.set(key, created);
      created.value.catch(() => this.#forget(key, created));
      entry = created;
    }
    const current = entry;
    const value = await current.value;
    current.users += 1;
    let released = false;
    return {
      value,
      release: async () => {
        if (released) return;
        released = true;
        current.users -= 1;
        if (current.users > 0) return;
        this.#forget(key, current);
        await this.#close(value);
      },
    };
  }

  #forget(key: string, entry: Entry<T>): void {
    entry.unregister();
    if (this.#entries.get(key) === entry) this.#entries.delete(key);
  }
}
