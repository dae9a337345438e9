import { ConfigurationError } from '../core/errors/configuration-error.js';
import { CACHE_DEFAULTS, type CacheOptions } from './types.js';

/** Checked options of a cache backend. */
export interface ResolvedCacheOptions {
  maxSize: number;
  defaultTtl: number;
  now: () => number;
}

/** Checks `maxSize` (a positive integer) and `defaultTtl` (seconds > 0) and fills in the defaults. */
export function resolveCacheOptions(what: string, options: CacheOptions, defaultNow: () => number): ResolvedCacheOptions {
  const maxSize = options.maxSize ?? CACHE_DEFAULTS.maxSize;
  if (!Number.isInteger(maxSize) || maxSize < 1) throw new ConfigurationError(`${what}: maxSize must be a positive integer, got ${String(maxSize)}`);
  const defaultTtl = checkTtl(what, options.defaultTtl ?? CACHE_DEFAULTS.defaultTtl);
  return { maxSize, defaultTtl, now: options.now ?? defaultNow };
}

/** A TTL in seconds: a finite number > 0. */
export function checkTtl(what: string, ttlSeconds: number): number {
  if (typeof ttlSeconds !== 'number' || !Number.isFinite(ttlSeconds) || ttlSeconds <= 0) {
    throw new ConfigurationError(`${what}: a TTL must be a number of seconds > 0, got ${String(ttlSeconds)}`);
  }
  return ttlSeconds;
}
