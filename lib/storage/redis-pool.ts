import type { RedisClientType } from 'redis';
import { registerConnection } from './connection-registry.js';
import { loadOptional } from './optional-module.js';

/** A use of the shared Redis client for one URL; call `release()` when done with it. */
export interface RedisHandle {
  /** The connected node-redis client (shared with every other user of the same URL). */
  readonly client: RedisClientType;
  /** The last connection error the client reported, if any (for "degraded" reports). */
  lastError(): Error | undefined;
  /** Gives the client back; the last release closes it. Calling it twice does nothing. */
  release(): Promise<void>;
}

interface Shared {
  client: Promise<RedisClientType>;
  users: number;
  lastError: Error | undefined;
  unregister: () => void;
}

const shared = new Map<string, Shared>();

interface RedisModule {
  createClient(options: { url: string; socket?: { reconnectStrategy?: (retries: number, cause: Error) => number | false | Error; connectTimeout?: number } }): RedisClientType;
}

/** Options of {@link acquireRedis}. */
export interface AcquireRedisOptions {
  /** Give up connecting after this long (ms). Default 5,000. */
  connectTimeoutMs?: number;
}

async function closeClient(client: RedisClientType): Promise<void> {
  if (client.isOpen) await client.close().catch(() => client.destroy());
}

/**
 * The one node-redis client of this process for `url` (`redis://host:port/db`), connected, loaded
 * lazily (`redis` is an optional dependency). It reconnects with capped backoff after a dropped
 * connection; its errors are recorded (see `lastError()`), never thrown at the process.
 * Reference-counted: the last `release()` closes it.
 */
export async function acquireRedis(url: string, options: AcquireRedisOptions = {}): Promise<RedisHandle> {
  let entry = shared.get(url);
  if (entry === undefined) {
    const created: Shared = { client: Promise.resolve(undefined as never), users: 0, lastError: undefined, unregister: () => undefined };
    created.client = loadOptional<RedisModule>('redis', 'Redis stores').then(async (redis) => {
      let connected = false;
      const client = redis.createClient({
        url,
        socket: {
          connectTimeout: options.connectTimeoutMs ?? 5_000,
          // The first connection fails at once (the caller sees why); after that, reconnect with capped backoff.
          reconnectStrategy: (retries, cause) => (connected ? Math.min(50 * 2 ** retries, 2_000) : cause),
        },
      });
      client.on('error', (error: unknown) => {
        created.lastError = error instanceof Error ? error : new Error(String(error));
      });
      try {
        await client.connect();
        connected = true;
      } catch (error) {
        client.destroy();
        throw error;
      }
      return client;
    });
    created.unregister = registerConnection(async () => {
      shared.delete(url);
      await closeClient(await created.client);
    });
    shared.set(url, created);
    entry = created;
    created.client.catch(() => {
      if (shared.get(url) === created) {
        shared.delete(url);
        created.unregister();
      }
    });
  }
  const current = entry;
  const client = await current.client;
  current.users += 1;
  let released = false;
  return {
    client,
    lastError: () => current.lastError,
    async release() {
      if (released) return;
      released = true;
      current.users -= 1;
      if (current.users > 0) return;
      current.unregister();
      if (shared.get(url) === current) shared.delete(url);
      await closeClient(client);
    },
  };
}
