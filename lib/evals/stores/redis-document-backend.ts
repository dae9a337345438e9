import { acquireRedis, type RedisHandle } from '../../storage/redis-pool.js';
import { checkStoreId } from '../../storage/store-id.js';
import { redactStoreUrl } from '../../storage/store-url.js';
import { checkKind, type DocumentBackend } from './document-backend.js';

/** Documents in Redis: one hash per collection, `<prefix>:<kind>`, a field per id. */
export class RedisDocumentBackend implements DocumentBackend {
  readonly where: string;
  readonly #handle: Promise<RedisHandle>;
  readonly #key: string;
  readonly #what: string;
  #closed = false;

  /** `keyPrefix` defaults to `agentlib:eval`. */
  constructor(url: string, kind: string, options: { keyPrefix?: string; what?: string } = {}) {
    this.where = redactStoreUrl(url);
    this.#key = `${options.keyPrefix ?? 'agentlib:eval'}:${checkKind(kind)}`;
    this.#what = options.what ?? 'id';
    this.#handle = acquireRedis(url);
    // Reported by the first command; never an unhandled rejection.
    this.#handle.catch(() => undefined);
  }

  async #send<T>(args: string[]): Promise<T> {
    const { client } = await this.#handle;
    return (await client.sendCommand(args));
  }

  async get(id: string): Promise<string | undefined> {
    const body = await this.#send<string | null>(['HGET', this.#key, checkStoreId(id, this.#what)]);
    return body ?? undefined;
  }

  async put(id: string, body: string): Promise<void> {
    await this.#send<number>(['HSET', this.#key, checkStoreId(id, this.#what), body]);
  }

  async delete(id: string): Promise<boolean> {
    return (await this.#send<number>(['HDEL', this.#key, checkStoreId(id, this.#what)])) > 0;
  }

  async list(): Promise<string[]> {
    return (await this.#send<string[]>(['HKEYS', this.#key])).sort();
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    try {
      await (await this.#handle).release();
    } catch {
      // never connected: nothing to release
    }
  }
}
