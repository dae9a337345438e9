import { SessionConflictError } from '../core/errors/session-conflict-error.js';
import { SessionNotFoundError } from '../core/errors/session-not-found-error.js';
import type { Message } from '../core/message.js';
import { checkStoreId } from '../storage/index.js';
import { appendedRecord, branchedRecord, byRecency, checkTtl, expiryAt, isExpired, savedRecord, sessionInfo } from './session-record.js';
import {
  DEFAULT_SESSION_NAMESPACE,
  type SessionHeader,
  type SessionAppendOptions,
  type SessionContent,
  type SessionInfo,
  type SessionRecord,
  type SessionSaveOptions,
  type SessionStore,
} from './types.js';

/** Options every session store takes. */
export interface SessionStoreOptions {
  /** Sessions of different namespaces never meet (one per agent, say). Default `default`. */
  namespace?: string;
  /** Seconds a session lives after its last write; default: forever. */
  defaultTtl?: number;
  /** Clock (tests). */
  now?: () => number;
}

/** Attempts of an append against concurrent writers before it gives up with a SessionConflictError. */
const APPEND_ATTEMPTS = 100;

/**
 * The protocol on top of three primitives a backend provides: read one record, compare-and-set
 * one record (write it only when the stored revision is the expected one, atomically), remove
 * one. `save` with `expectedRevision`, `append` (read, add, compare-and-set, again on a lost
 * race) and `branch` follow, identically for every backend.
 */
export abstract class BaseSessionStore implements SessionStore {
  readonly namespace: string;
  readonly defaultTtl: number | undefined;
  protected readonly now: () => number;

  constructor(options: SessionStoreOptions = {}) {
    this.namespace = checkStoreId(options.namespace ?? DEFAULT_SESSION_NAMESPACE, 'session namespace');
    this.defaultTtl = checkTtl(options.defaultTtl, 'defaultTtl');
    this.now = options.now ?? Date.now;
  }

  /** The stored record (expired or not), or undefined. `id` is checked. */
  protected abstract read(id: string): Promise<SessionRecord | undefined>;

  /**
   * The stored record's revision, creation time and expiry, without its messages (what `save`
   * needs). Default: `read`; backends that keep these apart override it (a save then never
   * parses the session it replaces).
   */
  protected async readHeader(id: string): Promise<SessionHeader | undefined> {
    return this.read(id);
  }
  /** Writes `record` when the stored revision is `expected` (0: absent or expired); returns false, writing nothing, otherwise. */
  protected abstract compareAndSet(record: SessionRecord, expected: number): Promise<boolean>;
  /** Removes a record; true when one was there. */
  protected abstract remove(id: string): Promise<boolean>;
  /** Every stored record of the namespace (expired ones included). */
  protected abstract readAll(): Promise<SessionRecord[]>;
  abstract close(): Promise<void>;

  /** Checks an id against REFERENCE.md §7; returns it. */
  protected checkId(id: string): string {
    return checkStoreId(id, 'session id');
  }

  async #live(id: string): Promise<{ record: SessionRecord | undefined; revision: number }> {
    const record = await this.read(this.checkId(id));
    if (record === undefined) return { record: undefined, revision: 0 };
    // An expired record is absent, but its revision still guards the write that replaces it.
    return isExpired(record, this.now()) ? { record: undefined, revision: record.revision } : { record, revision: record.revision };
  }

  async load(id: string): Promise<SessionRecord | undefined> {
    return (await this.#live(id)).record;
  }

  async save(id: string, content: SessionContent, options: SessionSaveOptions = {}): Promise<SessionRecord> {
    const now = this.now();
    const expiresAt = expiryAt(now, options.ttl, this.defaultTtl);
    const header = await this.readHeader(this.checkId(id));
    const revision = header?.revision ?? 0;
    const previous = header === undefined || isExpired(header, now) ? undefined : header;
    const current = previous === undefined ? 0 : revision;
    if (options.expectedRevision !== undefined && options.expectedRevision !== current) {
      throw new SessionConflictError(`Session "${id}" is at revision ${current}, not ${options.expectedRevision}: it changed since it was read`, { sessionId: id, expectedRevision: options.expectedRevision, actualRevision: current });
    }
    const record = savedRecord(previous, id, content, now, expiresAt);
    record.revision = revision + 1;
    if (!(await this.compareAndSet(record, revision))) {
      throw new SessionConflictError(`Session "${id}" changed while it was being saved`, { sessionId: id, expectedRevision: revision, actualRevision: -1 });
    }
    return record;
  }

  async append(id: string, messages: readonly Message[], options: SessionAppendOptions = {}): Promise<SessionRecord> {
    const copy = structuredClone([...messages]);
    checkTtl(options.ttl, 'ttl');
    return this.update(this.checkId(id), (stored) => {
      const now = this.now();
      const previous = stored === undefined || isExpired(stored, now) ? undefined : stored;
      const record = appendedRecord(previous, id, copy, options.summary, now, expiryAt(now, options.ttl, this.defaultTtl));
      record.revision = (stored?.revision ?? 0) + 1;
      return record;
    });
  }

  /**
   * Replaces the record of `id` by `change(stored)` atomically against every other writer. The
   * default reads, then compare-and-sets, and starts again when another writer came first; a
   * backend with transactions overrides it with one transaction.
   */
  protected async update(id: string, change: (stored: SessionRecord | undefined) => SessionRecord): Promise<SessionRecord> {
    for (let attempt = 0; attempt < APPEND_ATTEMPTS; attempt++) {
      const stored = await this.read(id);
      const record = change(stored);
      if (await this.compareAndSet(record, stored?.revision ?? 0)) return record;
    }
    throw new SessionConflictError(`Session "${id}": ${APPEND_ATTEMPTS} writes in a row lost the race to other writers`, { sessionId: id, actualRevision: -1 });
  }

  async list(): Promise<SessionInfo[]> {
    const now = this.now();
    return (await this.readAll()).filter((record) => !isExpired(record, now)).map(sessionInfo).sort(byRecency);
  }

  async delete(id: string): Promise<boolean> {
    const { record } = await this.#live(id);
    const removed = await this.remove(id);
    return removed && record !== undefined;
  }

  async branch(sourceId: string, newId: string): Promise<SessionRecord> {
    const { record: source } = await this.#live(sourceId);
    if (source === undefined) throw new SessionNotFoundError({ sessionId: sourceId });
    const { record: existing, revision } = await this.#live(newId);
    if (existing !== undefined) {
      throw new SessionConflictError(`Cannot branch "${sourceId}" to "${newId}": a session "${newId}" already exists`, { sessionId: newId, actualRevision: revision });
    }
    const now = this.now();
    const record = branchedRecord(source, newId, now);
    const expiresAt = expiryAt(now, undefined, this.defaultTtl);
    if (expiresAt === undefined) delete record.expiresAt;
    else record.expiresAt = expiresAt;
    record.revision = revision + 1;
    if (!(await this.compareAndSet(record, revision))) {
      throw new SessionConflictError(`Cannot branch "${sourceId}" to "${newId}": "${newId}" was written meanwhile`, { sessionId: newId, actualRevision: -1 });
    }
    return record;
  }
}
