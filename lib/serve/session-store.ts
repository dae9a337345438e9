import type { Message } from '../core/message.js';

/**
 * Where `agentlib serve` keeps conversations between requests, keyed by `session_id`. The
 * in-memory store is the default; persistent stores (SQLite, Redis) implement the same two
 * methods. Stored values are plain JSON messages; a store must return copies it will not change.
 */
export interface SessionStore {
  /** The conversation so far, or undefined for a session never saved (or expired). */
  load(sessionId: string): Promise<readonly Message[] | undefined>;
  /** Replaces the conversation. */
  save(sessionId: string, messages: readonly Message[]): Promise<void>;
  /** Forgets a session. */
  delete(sessionId: string): Promise<void>;
}

/** A session the in-memory store dropped to stay within its bounds (not an idle expiry). */
export interface SessionEviction {
  sessionId: string;
  /** Its size: its messages as JSON, in UTF-8 bytes. */
  bytes: number;
  /** Which bound it made room for: `maxBytes`, or `maxSessions`. */
  reason: 'bytes' | 'count';
}

/** Options of {@link InMemorySessionStore}. */
export interface InMemorySessionStoreOptions {
  /** Sessions kept; the least recently used are dropped past it. Default 10,000. */
  maxSessions?: number;
  /**
   * Bytes kept, all sessions together (each session's messages as JSON, in UTF-8); the least
   * recently used sessions are dropped past it. Default 256 MiB.
   */
  maxBytes?: number;
  /** A session unused this long is forgotten. Default one hour. */
  ttlMs?: number;
  /** Told about every session dropped to stay within `maxSessions` or `maxBytes`. */
  onEvict?: (eviction: SessionEviction) => void;
  /** Clock (tests). */
  now?: () => number;
}

/** Defaults of {@link InMemorySessionStore}. */
export const SESSION_STORE_DEFAULTS = {
  maxSessions: 10_000,
  maxBytes: 256 * 1024 * 1024,
  ttlMs: 3_600_000,
} as const;

interface Entry {
  /** The messages as JSON: a copy nobody else holds, whose size is known. */
  json: string;
  bytes: number;
  touched: number;
}

/** The size of `messages` as a session holds them: their JSON, in UTF-8 bytes. */
export function sessionBytes(messages: readonly Message[]): number {
  return Buffer.byteLength(JSON.stringify(messages), 'utf8');
}

/**
 * A bounded, process-local SessionStore: at most `maxSessions` sessions and `maxBytes` bytes
 * (least recently used dropped first, each drop reported to `onEvict`); idle sessions expire
 * after `ttlMs`. Sessions are held as JSON text, so their size is exact and every load is a copy.
 */
export class InMemorySessionStore implements SessionStore {
  /** Map order is the LRU order: a session is re-inserted whenever it is used. */
  readonly #sessions = new Map<string, Entry>();
  readonly #max: number;
  readonly #maxBytes: number;
  readonly #ttlMs: number;
  readonly #now: () => number;
  readonly #onEvict: ((eviction: SessionEviction) => void) | undefined;
  #bytes = 0;

  constructor(options: InMemorySessionStoreOptions = {}) {
    this.#max = options.maxSessions ?? SESSION_STORE_DEFAULTS.maxSessions;
    this.#maxBytes = options.maxBytes ?? SESSION_STORE_DEFAULTS.maxBytes;
    this.#ttlMs = options.ttlMs ?? SESSION_STORE_DEFAULTS.ttlMs;
    this.#now = options.now ?? Date.now;
    this.#onEvict = options.onEvict;
  }

  /** Sessions currently held (idle-expired ones are not). */
  get size(): number {
    this.#dropExpired();
    return this.#sessions.size;
  }

  /** Bytes currently held (the sessions' JSON, UTF-8; idle-expired sessions count for nothing). */
  get bytes(): number {
    this.#dropExpired();
    return this.#bytes;
  }

  load(sessionId: string): Promise<readonly Message[] | undefined> {
    const entry = this.#sessions.get(sessionId);
    if (entry === undefined) return Promise.resolve(undefined);
    this.#remove(sessionId, entry);
    if (this.#now() - entry.touched > this.#ttlMs) return Promise.resolve(undefined);
    this.#insert(sessionId, entry); // most recently used now
    return Promise.resolve(JSON.parse(entry.json) as Message[]);
  }

  save(sessionId: string, messages: readonly Message[]): Promise<void> {
    const json = JSON.stringify(messages);
    const entry: Entry = { json, bytes: Buffer.byteLength(json, 'utf8'), touched: this.#now() };
    const previous = this.#sessions.get(sessionId);
    if (previous !== undefined) this.#remove(sessionId, previous);
    // Expired sessions go first, silently: they are not evictions, and never make a live session go.
    this.#dropExpired();
    if (entry.bytes > this.#maxBytes) {
      // It could only be kept by dropping everything else, and still not fit.
      this.#onEvict?.({ sessionId, bytes: entry.bytes, reason: 'bytes' });
      return Promise.resolve();
    }
    this.#insert(sessionId, entry);
    while (this.#sessions.size > this.#max || this.#bytes > this.#maxBytes) {
      const reason = this.#sessions.size > this.#max ? 'count' : 'bytes';
      const [oldestId, oldest] = this.#sessions.entries().next().value as [string, Entry];
      this.#remove(oldestId, oldest);
      this.#onEvict?.({ sessionId: oldestId, bytes: oldest.bytes, reason });
    }
    return Promise.resolve();
  }

  delete(sessionId: string): Promise<void> {
    const entry = this.#sessions.get(sessionId);
    if (entry !== undefined) this.#remove(sessionId, entry);
    return Promise.resolve();
  }

  /** Forgets idle-expired sessions. Map order is least recently used first, so they are at the front. */
  #dropExpired(): void {
    const now = this.#now();
    for (const [id, entry] of this.#sessions) {
      if (now - entry.touched <= this.#ttlMs) break;
      this.#remove(id, entry);
    }
  }

  #insert(sessionId: string, entry: Entry): void {
    this.#sessions.set(sessionId, entry);
    this.#bytes += entry.bytes;
  }

  #remove(sessionId: string, entry: Entry): void {
    this.#sessions.delete(sessionId);
    this.#bytes -= entry.bytes;
  }
}
