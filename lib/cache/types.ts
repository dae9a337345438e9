import type { CacheHint, ResponseCache } from '../agent/types.js';

export type { CacheHint } from '../agent/types.js';

/** Counters of one cache object (this process's view; a shared backend's other clients count their own). */
export interface CacheStats {
  hits: number;
  misses: number;
  /** Entries dropped to stay within `maxSize` (expired entries are not evictions). */
  evictions: number;
  /** hits / (hits + misses), 0 before the first lookup. */
  hitRate: number;
}

/**
 * The cache protocol of the spec: get, set, delete, clear, stats. Values are JSON data (the loop
 * stores `{ message, reasoning, usage, finishReason }` replies and tool result strings); a
 * persistent backend stores them as JSON and refuses what JSON cannot carry. `ttlSeconds` falls back
 * to the cache's default TTL; 0 or a negative TTL is refused. Pass a Cache as `new Agent({ cache })`.
 */
export interface Cache extends ResponseCache {
  /** The live value, or undefined on a miss (an expired entry is a miss). */
  get(key: string, hint?: CacheHint): Promise<unknown>;
  /** Stores a value for `ttlSeconds` (default: the cache's default TTL). */
  set(key: string, value: unknown, ttlSeconds?: number, hint?: CacheHint): Promise<void>;
  /** Removes one entry; true when it was there. */
  delete(key: string): Promise<boolean>;
  /** Removes every entry of this cache (its namespace only, on a shared backend). */
  clear(): Promise<void>;
  /** Hits, misses and evictions counted by this object since it was made (or `resetStats()`). */
  stats(): CacheStats;
  /** Sets the counters back to zero. */
  resetStats(): void;
  /** Releases connections (a no-op for in-memory caches). */
  close(): Promise<void>;
}

/** Options shared by the cache backends. */
export interface CacheOptions {
  /** Maximum number of entries; the least recently used one is evicted past it. Default 1,000. */
  maxSize?: number;
  /** Default time to live, seconds. Default 300. */
  defaultTtl?: number;
  /**
   * The clock TTLs are measured on, in milliseconds. In-memory caches default to the monotonic
   * `performance.now()`; persistent ones to `Date.now()` (an expiry must survive a restart). Tests
   * pass a virtual clock.
   */
  now?: () => number;
}

/** REFERENCE.md §1: InMemoryCache max 1000 entries, TTL 300 s. */
export const CACHE_DEFAULTS = Object.freeze({ maxSize: 1_000, defaultTtl: 300 });
