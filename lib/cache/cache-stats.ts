import type { CacheStats } from './types.js';

/** The hit, miss and eviction counters a cache backend keeps. */
export class CacheStatsCounter {
  hits = 0;
  misses = 0;
  evictions = 0;

  /** Counts a lookup's outcome and passes the value through. */
  record<T>(value: T | undefined): T | undefined {
    if (value === undefined) this.misses += 1;
    else this.hits += 1;
    return value;
  }

  /** A snapshot with the hit rate. */
  snapshot(): CacheStats {
    const lookups = this.hits + this.misses;
    return { hits: this.hits, misses: this.misses, evictions: this.evictions, hitRate: lookups === 0 ? 0 : this.hits / lookups };
  }

  reset(): void {
    this.hits = this.misses = this.evictions = 0;
  }
}
