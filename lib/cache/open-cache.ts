import { parseStoreUrl } from '../storage/index.js';
import { InMemoryCache } from './in-memory-cache.js';
import { RedisCache } from './redis-cache.js';
import { SQLiteCache } from './sqlite-cache.js';
import type { Cache, CacheOptions } from './types.js';

/** Options of `openCache`. */
export interface OpenCacheOptions extends Omit<CacheOptions, 'now'> {
  /** Namespace on a shared backend (SQLite file, Redis server). Default `default`. */
  namespace?: string;
  /** Base of relative `sqlite://` paths (and of the default `.agentlib/agentlib.db`). Default `process.cwd()`. */
  cwd?: string;
}

/** The URL schemes a cache can be opened from. */
export const CACHE_URL_SCHEMES = ['memory', 'sqlite', 'redis'] as const;

/**
 * Opens a cache by URL: `memory://` (InMemoryCache, this process only), `sqlite://` (the default
 * `.agentlib/agentlib.db`), `sqlite://path.db`, `redis://host:port` / `rediss://…`. Another scheme
 * is a StorageUrlError naming these. Close it with `cache.close()`.
 */
export function openCache(url: string, options: OpenCacheOptions = {}): Cache {
  const location = parseStoreUrl(url, { allowed: [...CACHE_URL_SCHEMES], what: 'cache', ...(options.cwd === undefined ? {} : { cwd: options.cwd }) });
  const common = { ...(options.maxSize === undefined ? {} : { maxSize: options.maxSize }), ...(options.defaultTtl === undefined ? {} : { defaultTtl: options.defaultTtl }) };
  const namespaced = { ...common, ...(options.namespace === undefined ? {} : { namespace: options.namespace }) };
  switch (location.scheme) {
    case 'memory':
      return new InMemoryCache(common);
    case 'sqlite':
      return new SQLiteCache(location.path ?? url, namespaced);
    case 'redis':
      return new RedisCache(location.url, namespaced);
    default:
      throw new Error(`unreachable: ${location.scheme}`);
  }
}
