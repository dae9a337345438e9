import { checkStoreId, toStrictJson } from '../storage/index.js';
import { acquireRedis } from '../storage/redis-pool.js';
import { CacheStatsCounter } from './cache-stats.js';
import { checkTtl, resolveCacheOptions, type ResolvedCacheOptions } from './cache-options.js';
import type { Cache, CacheOptions, CacheStats } from './types.js';

/** Options of a RedisCache. */
export interface RedisCacheOptions extends Omit<CacheOptions, 'now'> {
  /** Namespace within the key prefix; caches of other namespaces on the server are invisible. Default `default`. */
  namespace?: string;
  /** Prefix of every key this cache writes. Default `agentlib:cache:`. */
  keyPrefix?: string;
}

type RedisHandle = Awaited<ReturnType<typeof acquireRedis>>;

/** GET that also marks the key most recently used (a logical clock per namespace). */
const GET_SCRIPT = `
local value = redis.call('GET', KEYS[1])
if value then
  redis.call('ZADD', KEYS[2], redis.call('INCR', KEYS[3]), ARGV[1])
else
  redis.call('ZREM', KEYS[2], ARGV[1])
end
return value`;

/** SET with a server-side TTL, then evict least recently used keys past maxSize; returns how many live keys went. */
const SET_SCRIPT = `
redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
redis.call('ZADD', KEYS[2], redis.call('INCR', KEYS[3]), ARGV[1])
local evicted = 0
while redis.call('ZCARD', KEYS[2]) > tonumber(ARGV[4]) do
  local oldest = redis.call('ZPOPMIN', KEYS[2])
  if redis.call('DEL', ARGV[5] .. oldest[1]) == 1 then evicted = evicted + 1 end
end
return evicted`;

/**
 * A cache on a Redis server, shared by every process that uses the same URL, prefix and namespace:
 * values are strict JSON strings under `<keyPrefix><namespace>:<key>` with a server-side TTL
 * (`PX`), LRU order kept in a sorted set per namespace and evicted past `maxSize` atomically (Lua).
 * A failing server makes `get` and `set` reject; the agent loop reports that as an `error` event
 * (stage `cache`) and carries on as on a miss, so a Redis outage never fails a run.
 */
export class RedisCache implements Cache {
  readonly url: string;
  readonly namespace: string;
  readonly #prefix: string;
  readonly #options: ResolvedCacheOptions;
  readonly #stats = new CacheStatsCounter();
  #handle: Promise<RedisHandle> | undefined;

  constructor(url: string, options: RedisCacheOptions = {}) {
    this.url = url;
    this.#options = resolveCacheOptions('RedisCache', options, Date.now);
    this.namespace = checkStoreId(options.namespace ?? 'default', 'cache namespace');
    const prefix = options.keyPrefix ?? 'agentlib:cache:';
    this.#prefix = `${prefix}${this.namespace}:`;
  }

  /** The connection, made on first use (a failed attempt is retried at the next call). */
  async #client(): Promise<RedisHandle['client']> {
    this.#handle ??= acquireRedis(this.url);
    try {
      return (await this.#handle).client;
    } catch (error) {
      this.#handle = undefined;
      throw error;
    }
  }

  #keys(key: string): string[] {
    return [`${this.#prefix}k:${key}`, `${this.#prefix}lru`, `${this.#prefix}clock`];
  }

  async get(key: string): Promise<unknown> {
    const client = await this.#client();
    const value = (await client.eval(GET_SCRIPT, { keys: this.#keys(key), arguments: [key] })) as string | null;
    return this.#stats.record(value === null ? undefined : (JSON.parse(value) as unknown));
  }

  async set(key: string, value: unknown, ttlSeconds?: number): Promise<void> {
    const ttl = ttlSeconds === undefined ? this.#options.defaultTtl : checkTtl('RedisCache', ttlSeconds);
    const text = toStrictJson(value, 'value');
    const client = await this.#client();
    const evicted = (await client.eval(SET_SCRIPT, {
      keys: this.#keys(key),
      arguments: [key, text, String(Math.max(1, Math.round(ttl * 1000))), String(this.#options.maxSize), `${this.#prefix}k:`],
    })) as number;
    this.#stats.evictions += evicted;
  }

  async delete(key: string): Promise<boolean> {
    const client = await this.#client();
    const [dataKey, lru] = this.#keys(key) as [string, string];
    await client.zRem(lru, key);
    return (await client.del(dataKey)) > 0;
  }

  async clear(): Promise<void> {
    const client = await this.#client();
    const batch: string[] = [];
    for await (const keys of client.scanIterator({ MATCH: `${this.#prefix.replace(/[*?[\]\\]/g, '\\$&')}*`, COUNT: 500 })) batch.push(...(Array.isArray(keys) ? keys : [keys]));
    if (batch.length > 0) await client.del(batch);
  }

  stats(): CacheStats {
    return this.#stats.snapshot();
  }

  resetStats(): void {
    this.#stats.reset();
  }

  async close(): Promise<void> {
    const handle = this.#handle;
    this.#handle = undefined;
    if (handle !== undefined) await (await handle.catch(() => undefined))?.release();
  }
}
