import { performance } from 'node:perf_hooks';
import { assertStrictJson } from '../storage/index.js';
import { CacheStatsCounter } from './cache-stats.js';
import { checkTtl, resolveCacheOptions, type ResolvedCacheOptions } from './cache-options.js';
import { deepFreeze } from './deep-freeze.js';
import type { Cache, CacheOptions, CacheStats } from './types.js';

/** An entry, linked into the LRU list (oldest use at the list's head, newest at its tail). */
interface Entry {
  key: string;
  value: unknown;
  expiresAt: number;
  older: Entry | undefined;
  newer: Entry | undefined;
}

/**
 * A process-local cache: at most `maxSize` entries (default 1,000), least recently used evicted
 * first, each entry with its own TTL (default 300 s) measured on a monotonic clock, so a wall-clock
 * jump never expires or revives entries. Values must be strict JSON, like the persistent caches'
 * (a function, class instance, cycle or NaN is refused with its path); they are copied when stored
 * and handed out frozen, so no caller can change what another one reads.
 *
 * LRU order is a doubly linked list through the entries: a hit relinks its entry (a few pointer
 * writes) instead of deleting and re-adding its Map key, which V8 makes cost time proportional to
 * the Map's size when one key is re-added over and over (a hot entry: 4 µs a hit at 1,000 entries,
 * 100 µs at 10,000).
 */
export class InMemoryCache implements Cache {
  readonly #options: ResolvedCacheOptions;
  readonly #entries = new Map<string, Entry>();
  readonly #stats = new CacheStatsCounter();
  /** Least recently used entry. */
  #oldest: Entry | undefined;
  /** Most recently used entry. */
  #newest: Entry | undefined;

  constructor(options: CacheOptions = {}) {
    this.#options = resolveCacheOptions('InMemoryCache', options, () => performance.now());
  }

  /** Number of entries held (expired ones not yet dropped included). */
  get size(): number {
    return this.#entries.size;
  }

  get(key: string): Promise<unknown> {
    return Promise.resolve(this.#stats.record(this.peek(key, true)));
  }

  /** The live value without counting a lookup; `touch` marks it most recently used. */
  peek(key: string, touch = false): unknown {
    const entry = this.#entries.get(key);
    if (entry === undefined) return undefined;
    if (entry.expiresAt <= this.#options.now()) {
      this.#remove(entry);
      return undefined;
    }
    if (touch && entry !== this.#newest) {
      this.#unlink(entry);
      this.#append(entry);
    }
    return entry.value;
  }

  #unlink(entry: Entry): void {
    if (entry.older === undefined) this.#oldest = entry.newer;
    else entry.older.newer = entry.newer;
    if (entry.newer === undefined) this.#newest = entry.older;
    else entry.newer.older = entry.older;
    entry.older = entry.newer = undefined;
  }

  #append(entry: Entry): void {
    entry.older = this.#newest;
    if (this.#newest === undefined) this.#oldest = entry;
    else this.#newest.newer = entry;
    this.#newest = entry;
  }

  #remove(entry: Entry): void {
    this.#entries.delete(entry.key);
    this.#unlink(entry);
  }

  async set(key: string, value: unknown, ttlSeconds?: number): Promise<void> {
    const ttl = ttlSeconds === undefined ? this.#options.defaultTtl : checkTtl('InMemoryCache', ttlSeconds);
    assertStrictJson(value, 'value');
    const stored = deepFreeze(structuredClone(value));
    const old = this.#entries.get(key);
    if (old !== undefined) this.#remove(old);
    const entry: Entry = { key, value: stored, expiresAt: this.#options.now() + ttl * 1000, older: undefined, newer: undefined };
    this.#entries.set(key, entry);
    this.#append(entry);
    this.#evict();
  }

  #evict(): void {
    const now = this.#options.now();
    while (this.#entries.size > this.#options.maxSize && this.#oldest !== undefined) {
      const entry = this.#oldest;
      this.#remove(entry);
      // Dropping an entry that had expired anyway is no eviction.
      if (entry.expiresAt > now) this.#stats.evictions += 1;
    }
  }

  delete(key: string): Promise<boolean> {
    const entry = this.#entries.get(key);
    if (entry !== undefined) this.#remove(entry);
    return Promise.resolve(entry !== undefined && entry.expiresAt > this.#options.now());
  }

  clear(): Promise<void> {
    this.#entries.clear();
    this.#oldest = this.#newest = undefined;
    return Promise.resolve();
  }

  stats(): CacheStats {
    return this.#stats.snapshot();
  }

  resetStats(): void {
    this.#stats.reset();
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}
