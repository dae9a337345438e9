import { BaseSessionStore, type SessionStoreOptions } from './base-session-store.js';
import { decodeSession, sameHeader } from './session-record.js';
import type { SessionHeader, SessionRecord } from './types.js';

/**
 * Sessions in this process only (`memory://`): for tests and throwaway runs. Records are kept as
 * their stored JSON text, so what is loaded is always a fresh copy, exactly as a persistent store
 * would return it.
 */
export class MemorySessionStore extends BaseSessionStore {
  readonly #records = new Map<string, string>();

  constructor(options: SessionStoreOptions = {}) {
    super(options);
  }

  protected read(id: string): Promise<SessionRecord | undefined> {
    const text = this.#records.get(id);
    return Promise.resolve(text === undefined ? undefined : decodeSession(text, `memory session ${id}`));
  }

  protected compareAndSet(record: SessionRecord, expected: SessionHeader | undefined, data: string): Promise<boolean> {
    const text = this.#records.get(record.id);
    const current = text === undefined ? undefined : decodeSession(text, `memory session ${record.id}`);
    if (!sameHeader(current, expected)) return Promise.resolve(false);
    this.#records.set(record.id, data);
    return Promise.resolve(true);
  }

  protected remove(id: string): Promise<boolean> {
    return Promise.resolve(this.#records.delete(id));
  }

  protected readAll(): Promise<SessionRecord[]> {
    return Promise.resolve([...this.#records].map(([id, text]) => decodeSession(text, `memory session ${id}`)));
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}
