import { CacheTimeoutError } from '../core/errors/cache-timeout-error.js';
import { ConfigurationError } from '../core/errors/configuration-error.js';
import { checkStoreId, toStrictJson } from '../storage/index.js';
import { acquireRedis } from '../storage/redis-pool.js';
import { CacheStatsCounter } from './cache-stats.js';
import { checkTtl, resolveCacheOptions, type ResolvedCacheOptions } from './cache-options.js';
import { PendingMarks } from './pending-marks.js';
import type { Cache, CacheOptions, CacheStats } from './types.js';

/** Options of a RedisCache. */
export interface RedisCacheOptions extends Omit<CacheOptions, 'now'> {
  /** Namespace within the key prefix; caches of other namespaces on the server are invisible. Default `default`. */
  namespace?: string;
  /** Prefix of every key this cache writes. Default `agentlib:cache:`. */
  keyPrefix?: string;
  /**
   * Longest a get, set, delete or clear may wait for the server once connected, in ms (connecting
   * is bounded by the storage module's connect timeout, 5 s: loading the driver and the first
   * connection take longer than an operation should). Past it the call
   * rejects with a CacheTimeoutError (the agent loop: an `error` event and a miss) and the command
   * is dropped from the client's queue. Default 1,000: a cache slower than that is worse than none.
   */
  operationTimeoutMs?: number;
  /**
   * A hit is a plain GET; its LRU mark (and a miss's clean-up of the sorted set) is kept in memory
   * and sent in one script call `touchFlushMs` after the first mark, always before this cache's own
   * `set` (which may evict) and `close`, and at once when this many keys are marked — a memory
   * bound, default twice `maxSize`. 1 sends every mark with its hit (the slow way).
   */
  touchBatch?: number;
  /** Longest a mark stays in memory, in ms (an unref'd timer). Default 1000. */
  touchFlushMs?: number;
}

/** Default of RedisCacheOptions.operationTimeoutMs. */
export const REDIS_CACHE_OPERATION_TIMEOUT_MS = 1_000;

type RedisHandle = Awaited<ReturnType<typeof acquireRedis>>;

/**
 * The deferred LRU marks, oldest use first (ARGV[2..]): a key whose value is still there becomes the
 * most recently used (a logical clock per namespace); one that is gone (expired) leaves the sorted set.
 */
const TOUCH_SCRIPT = `
for i = 2, #ARGV do
  if redis.call('EXISTS', ARGV[1] .. ARGV[i]) == 1 then
    redis.call('ZADD', KEYS[1], redis.call('INCR', KEYS[2]), ARGV[i])
  else
    redis.call('ZREM', KEYS[1], ARGV[i])
  end
end
return #ARGV - 1`;

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
 * A hit is one GET: its LRU mark is sent later with the others (see `touchBatch`), always before
 * this cache's own `set`, so its evictions follow exact LRU order; other processes see this one's
 * reads up to `touchFlushMs` late.
 * A failing server makes `get` and `set` reject, and so does a hung one after `operationTimeoutMs`
 * (CacheTimeoutError); the agent loop reports that as an `error` event (stage `cache`) and carries
 * on as on a miss, so a Redis outage never fails or stalls a run.
 */
export class RedisCache implements Cache {
  readonly url: string;
  readonly namespace: string;
  readonly #prefix: string;
  readonly #options: ResolvedCacheOptions;
  readonly #stats = new CacheStatsCounter();
  readonly #timeoutMs: number;
  readonly #touchBatch: number;
  readonly #touchFlushMs: number;
  /** Keys looked up since the last flush, with their order of use. */
  readonly #touched = new PendingMarks();
  #flushTimer: ReturnType<typeof setTimeout> | undefined;
  #handle: Promise<RedisHandle> | undefined;

  constructor(url: string, options: RedisCacheOptions = {}) {
    this.url = url;
    this.#options = resolveCacheOptions('RedisCache', options, Date.now);
    this.namespace = checkStoreId(options.namespace ?? 'default', 'cache namespace');
    const prefix = options.keyPrefix ?? 'agentlib:cache:';
    this.#prefix = `${prefix}${this.namespace}:`;
    this.#timeoutMs = options.operationTimeoutMs ?? REDIS_CACHE_OPERATION_TIMEOUT_MS;
    if (!(this.#timeoutMs > 0) || !Number.isFinite(this.#timeoutMs)) throw new ConfigurationError(`RedisCache: operationTimeoutMs must be a finite number > 0, got ${String(this.#timeoutMs)}`);
    this.#touchBatch = options.touchBatch ?? 2 * this.#options.maxSize;
    this.#touchFlushMs = options.touchFlushMs ?? 1_000;
    if (!Number.isInteger(this.#touchBatch) || this.#touchBatch < 1) throw new ConfigurationError(`RedisCache: touchBatch must be an integer ≥ 1, got ${String(this.#touchBatch)}`);
    if (!(this.#touchFlushMs >= 0) || !Number.isFinite(this.#touchFlushMs)) throw new ConfigurationError(`RedisCache: touchFlushMs must be a finite number ≥ 0, got ${String(this.#touchFlushMs)}`);
  }

  /**
   * Runs one operation within the timeout, once connected: the client's commands carry it too
   * (node-redis drops a timed-out command from its queue; a late reply is discarded), and the
   * whole operation (a SCAN loop for clear) is raced against it.
   */
  async #run<T>(operation: string, fn: (client: RedisHandle['client']) => Promise<T>): Promise<T> {
    const client = (await this.#client()).withCommandOptions({ timeout: this.#timeoutMs }) as RedisHandle['client'];
    let timer: ReturnType<typeof setTimeout> | undefined;
    const expired = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new CacheTimeoutError(`RedisCache ${operation} took longer than ${this.#timeoutMs} ms (${this.url})`, { operation, timeoutMs: this.#timeoutMs })), this.#timeoutMs);
    });
    const work = fn(client);
    try {
      return await Promise.race([work, expired]);
    } catch (error) {
      // node-redis's own timeout error, or ours: the same condition, one typed error.
      if (error instanceof Error && error.name === 'TimeoutError') throw new CacheTimeoutError(`RedisCache ${operation} took longer than ${this.#timeoutMs} ms (${this.url})`, { operation, timeoutMs: this.#timeoutMs, cause: error });
      throw error;
    } finally {
      clearTimeout(timer);
      work.catch(() => undefined);
    }
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
    const [dataKey] = this.#keys(key) as [string];
    const value = await this.#run('get', (client) => client.get(dataKey));
    this.#touched.mark(key);
    if (this.#touched.size >= this.#touchBatch) await this.flushMarks();
    else if (this.#flushTimer === undefined) {
      this.#flushTimer = setTimeout(() => {
        // The marks are LRU hints, not data: a failure here is not reported (the next set sends them again).
        this.flushMarks().catch(() => undefined);
      }, this.#touchFlushMs);
      this.#flushTimer.unref();
    }
    return this.#stats.record(value === null ? undefined : (JSON.parse(value) as unknown));
  }

  /**
   * Sends the pending LRU marks now, in the order of use (one script call). They are otherwise sent
   * within `touchFlushMs`, and always before this cache's own `set` and `close`; on failure they are
   * kept for the next attempt.
   */
  flushMarks(): Promise<void> {
    return this.#sendMarks('touch');
  }

  /** Sends the pending marks as part of `operation` (its name in a CacheTimeoutError). */
  async #sendMarks(operation: string): Promise<void> {
    if (this.#flushTimer !== undefined) clearTimeout(this.#flushTimer);
    this.#flushTimer = undefined;
    if (this.#touched.size === 0) return;
    const keys = this.#touched.take();
    const [, lru, clock] = this.#keys('') as [string, string, string];
    try {
      await this.#run(operation, (client) => client.eval(TOUCH_SCRIPT, { keys: [lru, clock], arguments: [`${this.#prefix}k:`, ...keys] }));
    } catch (error) {
      // Put them back before any mark made meanwhile (which is newer).
      this.#touched.restore(keys);
      throw error;
    }
  }

  async set(key: string, value: unknown, ttlSeconds?: number): Promise<void> {
    const ttl = ttlSeconds === undefined ? this.#options.defaultTtl : checkTtl('RedisCache', ttlSeconds);
    const text = toStrictJson(value, 'value');
    // Earlier lookups must count before this write takes the newest position and evicts.
    await this.#sendMarks('set');
    const evicted = (await this.#run('set', (client) =>
      client.eval(SET_SCRIPT, {
        keys: this.#keys(key),
        arguments: [key, text, String(Math.max(1, Math.round(ttl * 1000))), String(this.#options.maxSize), `${this.#prefix}k:`],
      }),
    )) as number;
    this.#stats.evictions += evicted;
  }

  async delete(key: string): Promise<boolean> {
    this.#touched.delete(key);
    const [dataKey, lru] = this.#keys(key) as [string, string];
    return this.#run('delete', async (client) => {
      await client.zRem(lru, key);
      return (await client.del(dataKey)) > 0;
    });
  }

  async clear(): Promise<void> {
    this.#touched.clear();
    if (this.#flushTimer !== undefined) clearTimeout(this.#flushTimer);
    this.#flushTimer = undefined;
    await this.#run('clear', async (client) => {
      const batch: string[] = [];
      for await (const keys of client.scanIterator({ MATCH: `${this.#prefix.replace(/[*?[\]\\]/g, '\\$&')}*`, COUNT: 500 })) batch.push(...(Array.isArray(keys) ? keys : [keys]));
      if (batch.length > 0) await client.del(batch);
    });
  }

  stats(): CacheStats {
    return this.#stats.snapshot();
  }

  resetStats(): void {
    this.#stats.reset();
  }

  async close(): Promise<void> {
    // A server that is down keeps its old LRU order: closing never fails for a hint.
    if (this.#handle !== undefined) await this.flushMarks().catch(() => undefined);
    const handle = this.#handle;
    this.#handle = undefined;
    if (handle !== undefined) await (await handle.catch(() => undefined))?.release();
  }
}
