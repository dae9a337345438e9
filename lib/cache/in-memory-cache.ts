import { performance } from 'node:perf_hooks';
import { assertStrictJson } from '../storage/index.js';
import { CacheStatsCounter } from './cache-stats.js';
import { checkTtl, resolveCacheOptions, type ResolvedCacheOptions } from './cache-options.js';
import { deepFreeze } from './deep-freeze.js';
import type { Cache, CacheOptions, CacheStats } from './types.js';

interface Entry {
  value: unknown;
  expiresAt: number;
}

/**
 * A process-local cache: at most `maxSize` entries (default 1,000), least recently used evicted
 * first, each entry with its own TTL (default 300 s) measured on a monotonic clock, so a wall-clock
 * jump never expires or revives entries. Values must be strict JSON, like the persistent caches'
 * (a function, class instance, cycle or NaN is refused with its path); they are copied when stored
 * and handed out frozen, so no caller can change what another one reads.
 */
export class InMemoryCache implements Cache {
  readonly #options: ResolvedCacheOptions;
  readonly #entries = new Map<string, Entry>();
  readonly #stats = new CacheStatsCounter();

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
      this.#entries.delete(key);
      return undefined;
    }
    if (touch) {
      this.#entries.delete(key);
      this.#entries.set(key, entry);
    }
    return entry.value;
  }

  async set(key: string, value: unknown, ttlSeconds?: number): Promise<void> {
    const ttl = ttlSeconds === undefined ? this.#options.defaultTtl : checkTtl('InMemoryCache', ttlSeconds);
    assertStrictJson(value, 'value');
    const stored = deepFreeze(structuredClone(value));
    this.#entries.delete(key);
    this.#entries.set(key, { value: stored, expiresAt: this.#options.now() + ttl * 1000 });
    this.#evict();
  }

  #evict(): void {
    const now = this.#options.now();
    for (const [key, entry] of this.#entries) {
      if (this.#entries.size <= this.#options.maxSize) return;
      this.#entries.delete(key);
      // Dropping an entry that had expired anyway is no eviction.
      if (entry.expiresAt > now) this.#stats.evictions += 1;
    }
  }

  delete(key: string): Promise<boolean> {
    const entry = this.#entries.get(key);
    this.#entries.delete(key);
    return Promise.resolve(entry !== undefined && entry.expiresAt > this.#options.now());
  }

  clear(): Promise<void> {
    this.#entries.clear();
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
