import { acquireRedis, type RedisHandle } from '../storage/redis-pool.js';
import { BaseSessionStore, type SessionStoreOptions } from './base-session-store.js';
import { decodeSession } from './session-record.js';
import type { SessionHeader, SessionRecord } from './types.js';

/** Options of {@link RedisSessionStore}. */
export interface RedisSessionStoreOptions extends SessionStoreOptions {
  /** `redis://…` or `rediss://…`. */
  url: string;
  /** Prefix of every key. Default `agentlib:session`. */
  keyPrefix?: string;
}

/**
 * Compare-and-set in one server-side step: writes revision ARGV[2], data ARGV[3], creation time
 * ARGV[5] and expiry time ARGV[6] ('' when none) only when the stored header is the expected one
 * — revision ARGV[1] ('0': no key at all), creation time ARGV[7] and expiry ARGV[8] ('' when none)
 * — then sets the key's expiry (ARGV[4] ms, 0: none). Returns 1 when written, 0 when another
 * writer came first.
 */
const COMPARE_AND_SET = `
local current = redis.call('HMGET', KEYS[1], 'rev', 'created', 'expires')
if (current[1] or '0') ~= ARGV[1] then return 0 end
if current[1] and ((current[2] or '0') ~= ARGV[7] or (current[3] or '') ~= ARGV[8]) then return 0 end
redis.call('HSET', KEYS[1], 'rev', ARGV[2], 'data', ARGV[3], 'created', ARGV[5], 'expires', ARGV[6])
if tonumber(ARGV[4]) > 0 then redis.call('PEXPIRE', KEYS[1], ARGV[4]) else redis.call('PERSIST', KEYS[1]) end
return 1
`;

/**
 * Sessions in Redis, for several processes or machines: one hash per session
 * (`<prefix>:<namespace>:<id>` with fields `rev` and `data`), expiry by the server (PEXPIRE), and
 * optimistic concurrency: every write is a compare-and-set on the revision (a Lua script), and an
 * append that lost the race reads again and retries, so two writers never lose a message.
 */
export class RedisSessionStore extends BaseSessionStore {
  readonly url: string;
  readonly #prefix: string;
  readonly #handle: Promise<RedisHandle>;
  #closed = false;

  constructor(options: RedisSessionStoreOptions) {
    super(options);
    this.url = options.url;
    this.#prefix = `${options.keyPrefix ?? 'agentlib:session'}:${this.namespace}:`;
    this.#handle = acquireRedis(options.url);
    // Reported by the first command; never an unhandled rejection.
    this.#handle.catch(() => undefined);
  }

  async #send<T>(args: string[]): Promise<T> {
    const { client } = await this.#handle;
    return (await client.sendCommand(args));
  }

  #key(id: string): string {
    return `${this.#prefix}${id}`;
  }

  protected async read(id: string): Promise<SessionRecord | undefined> {
    const data = await this.#send<string | null>(['HGET', this.#key(id), 'data']);
    return data === null ? undefined : decodeSession(data, `${this.url} ${this.#key(id)}`);
  }

  protected override async readHeader(id: string): Promise<SessionHeader | undefined> {
    const [rev, created, expires] = await this.#send<(string | null)[]>(['HMGET', this.#key(id), 'rev', 'created', 'expires']);
    if (rev === null || rev === undefined) return undefined;
    const header: SessionHeader = { revision: Number(rev), createdAt: Number(created ?? 0) };
    if (expires !== null && expires !== undefined && expires !== '') header.expiresAt = Number(expires);
    return header;
  }

  protected async compareAndSet(record: SessionRecord, expected: SessionHeader | undefined, data: string): Promise<boolean> {
    const ttlMs = record.expiresAt === undefined ? 0 : Math.max(1, record.expiresAt - this.now());
    const written = await this.#send<number>([
      'EVAL', COMPARE_AND_SET, '1', this.#key(record.id),
      String(expected?.revision ?? 0), String(record.revision), data, String(ttlMs), String(record.createdAt), record.expiresAt === undefined ? '' : String(record.expiresAt),
      String(expected?.createdAt ?? 0), expected?.expiresAt === undefined ? '' : String(expected.expiresAt),
    ]);
    return written === 1;
  }

  protected async remove(id: string): Promise<boolean> {
    return (await this.#send<number>(['DEL', this.#key(id)])) > 0;
  }

  protected async readAll(): Promise<SessionRecord[]> {
    const records: SessionRecord[] = [];
    let cursor = '0';
    do {
      // Ids and namespaces are [A-Za-z0-9_.-]: no glob characters to escape.
      const [next, keys] = await this.#send<[string, string[]]>(['SCAN', cursor, 'MATCH', `${this.#prefix}*`, 'COUNT', '200']);
      cursor = next;
      for (const key of keys) {
        const data = await this.#send<string | null>(['HGET', key, 'data']);
        if (data !== null) records.push(decodeSession(data, `${this.url} ${key}`));
      }
    } while (cursor !== '0');
    return records;
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
