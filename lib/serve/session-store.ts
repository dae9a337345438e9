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

/** Options of {@link InMemorySessionStore}. */
export interface InMemorySessionStoreOptions {
  /** Sessions kept; the least recently used is dropped past it. Default 10,000. */
  maxSessions?: number;
  /** A session unused this long is forgotten. Default one hour. */
  ttlMs?: number;
  /** Clock (tests). */
  now?: () => number;
}

interface Entry {
  messages: readonly Message[];
  touched: number;
}

/** A bounded, process-local SessionStore: LRU past `maxSessions`, idle sessions expire after `ttlMs`. */
export class InMemorySessionStore implements SessionStore {
  readonly #sessions = new Map<string, Entry>();
  readonly #max: number;
  readonly #ttlMs: number;
  readonly #now: () => number;

  constructor(options: InMemorySessionStoreOptions = {}) {
    this.#max = options.maxSessions ?? 10_000;
    this.#ttlMs = options.ttlMs ?? 3_600_000;
    this.#now = options.now ?? Date.now;
  }

  /** Sessions currently held. */
  get size(): number {
    return this.#sessions.size;
  }

  load(sessionId: string): Promise<readonly Message[] | undefined> {
    const entry = this.#sessions.get(sessionId);
    if (entry === undefined) return Promise.resolve(undefined);
    if (this.#now() - entry.touched > this.#ttlMs) {
      this.#sessions.delete(sessionId);
      return Promise.resolve(undefined);
    }
    return Promise.resolve(structuredClone(entry.messages));
  }

  save(sessionId: string, messages: readonly Message[]): Promise<void> {
    this.#sessions.delete(sessionId); // re-insert: Map order is the LRU order
    this.#sessions.set(sessionId, { messages: structuredClone(messages), touched: this.#now() });
    while (this.#sessions.size > this.#max) {
      const oldest = this.#sessions.keys().next().value as string;
      this.#sessions.delete(oldest);
    }
    return Promise.resolve();
  }

  delete(sessionId: string): Promise<void> {
    this.#sessions.delete(sessionId);
    return Promise.resolve();
  }
}
