import type { RedisClientType } from 'redis';
import { loadOptional } from './optional-module.js';
import { SharedResources } from './shared-resource.js';

/** A use of the shared Redis client for one URL; call `release()` when done with it. */
export interface RedisHandle {
  /** The connected node-redis client (shared with every other user of the same URL). */
  readonly client: RedisClientType;
  /** The last connection error the client reported, if any (for "degraded" reports). */
  lastError(): Error | undefined;
  /** Gives the client back; the last release closes it. Calling it twice does nothing. */
  release(): Promise<void>;
}

interface RedisModule {
  createClient(options: { url: string; socket?: { reconnectStrategy?: (retries: number, cause: Error) => number | false | Error; connectTimeout?: number } }): RedisClientType;
}

/** Options of {@link acquireRedis}. */
export interface AcquireRedisOptions {
  /** Give up connecting after this long (ms). Default 5,000. */
  connectTimeoutMs?: number;
}

interface Connected {
  client: RedisClientType;
  lastError: Error | undefined;
}

/** How long closing waits for the server to answer what is pending before it drops the connection. */
export const REDIS_CLOSE_GRACE_MS = 1_000;

/**
 * Closes gracefully (pending replies first), but never waits on a hung server for more than
 * {@link REDIS_CLOSE_GRACE_MS}: then the connection is dropped, so shutting down cannot hang.
 */
async function closeClient(client: RedisClientType): Promise<void> {
  if (!client.isOpen) return;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const graceOver = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), REDIS_CLOSE_GRACE_MS);
  });
  const outcome = await Promise.race([client.close().then(() => 'closed' as const, () => 'failed' as const), graceOver]);
  clearTimeout(timer);
  // A closing client already reports itself not open: drop it whatever `isOpen` says.
  if (outcome !== 'closed') client.destroy();
}

const clients = new SharedResources<Connected>(({ client }) => closeClient(client));

async function connect(url: string, options: AcquireRedisOptions): Promise<Connected> {
  const redis = await loadOptional<RedisModule>('redis', 'Redis stores');
  let connected = false;
  const client = redis.createClient({
    url,
    socket: {
      connectTimeout: options.connectTimeoutMs ?? 5_000,
      // The first connection fails at once (the caller sees why); after that, reconnect with capped backoff.
      reconnectStrategy: (retries, cause) => (connected ? Math.min(50 * 2 ** retries, 2_000) : cause),
    },
  });
  const state: Connected = { client, lastError: undefined };
  client.on('error', (error: unknown) => {
    state.lastError = error instanceof Error ? error : new Error(String(error));
  });
  try {
    await client.connect();
    connected = true;
  } catch (error) {
    client.destroy();
    throw error;
  }
  return state;
}

/**
 * The one node-redis client of this process for `url` (`redis://host:port/db`), connected, loaded
 * lazily (`redis` is an optional dependency). It reconnects with capped backoff after a dropped
 * connection; its errors are recorded (see `lastError()`), never thrown at the process.
 * Reference-counted: the last `release()` closes it.
 */
export async function acquireRedis(url: string, options: AcquireRedisOptions = {}): Promise<RedisHandle> {
  const use = await clients.acquire(url, () => connect(url, options));
  return { client: use.value.client, lastError: () => use.value.lastError, release: () => use.release() };
}
