/**
 * Caches (`agentlib/cache`): the Cache protocol, InMemoryCache, SemanticCache and CacheKeyBuilder.
 * Pass a cache as `new Agent({ cache })`: LLM replies (not streams) and `cacheable` tools' results.
 */
export { CacheKeyBuilder, type CacheKeyInput } from './cache-key-builder.js';
export { CacheStatsCounter } from './cache-stats.js';
export { cosineSimilarity } from './cosine.js';
export { InMemoryCache } from './in-memory-cache.js';
export { CACHE_URL_SCHEMES, openCache, type OpenCacheOptions } from './open-cache.js';
export { REDIS_CACHE_OPERATION_TIMEOUT_MS, RedisCache, type RedisCacheOptions } from './redis-cache.js';
export { SQLITE_TOUCH_DEFAULTS, SQLiteCache, type SQLiteCacheOptions } from './sqlite-cache.js';
export { salientTokens } from './salient-tokens.js';
export {
  DEFAULT_SIMILARITY_THRESHOLD,
  SemanticCache,
  type EmbeddingProvider,
  type SemanticCacheOptions,
  type SemanticCacheStats,
  type SemanticMatch,
} from './semantic-cache.js';
export { contentWords, swapsWords } from './word-swaps.js';
export { negationCount } from './negation.js';
export { roleTokens, swapsRoles } from './role-order.js';
export { CACHE_DEFAULTS, type Cache, type CacheHint, type CacheOptions, type CacheStats } from './types.js';
