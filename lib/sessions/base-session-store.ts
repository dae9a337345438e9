import { SessionConflictError } from '../core/errors/session-conflict-error.js';
import { SessionNotFoundError } from '../core/errors/session-not-found-error.js';
import type { Message } from '../core/message.js';
import { checkStoreId } from '../storage/index.js';
import { appendedRecord, branchedRecord, byRecency, checkTtl, composeSession, encodeSession, encodeSessionContent, expiryAt, headerOf, isExpired, savedRecord, sessionInfo } from './session-record.js';
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

/** Headers a store remembers (the sessions it last wrote or read), least recently used dropped first. */
const KNOWN_HEADERS = 1024;

/**
 * The protocol on top of three primitives a backend provides: read one record, compare-and-set
 * one record (write it only when the stored header — revision, creation time, expiry — is the
 * expected one, atomically), remove one. `save` with `expectedRevision`, `append` (read, add,
 * compare-and-set, again on a lost race) and `branch` follow, identically for every backend.
 *
 * A save starts from the header this store last wrote or read for the session, when it has one,
 * so it needs no read first: its compare-and-set is the check (one write when nobody else wrote
 * the session meanwhile; otherwise the stored header is read and the save decided on it, as
 * without the remembered one).
 */
export abstract class BaseSessionStore implements SessionStore {
  readonly namespace: string;
  readonly defaultTtl: number | undefined;
  protected readonly now: () => number;
  /** The header of sessions this store last wrote or read (a hint: every write still compares). */
  readonly #headers = new Map<string, SessionHeader>();

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
  /**
   * Writes `record`, stored as `data` (its encoded text), when the stored header is `expected`
   * (undefined: no record at all; an expired record has its header), atomically — the revision,
   * creation time and expiry all equal (`sameHeader`); returns false, writing nothing, otherwise.
   */
  protected abstract compareAndSet(record: SessionRecord, expected: SessionHeader | undefined, data: string): Promise<boolean>;
  /** Removes a record; true when one was there. */
  protected abstract remove(id: string): Promise<boolean>;
  /** Every stored record of the namespace (expired ones included). */
  protected abstract readAll(): Promise<SessionRecord[]>;
  abstract close(): Promise<void>;

  /** Checks an id against REFERENCE.md §7; returns it. */
  protected checkId(id: string): string {
    return checkStoreId(id, 'session id');
  }

  /** Remembers the stored header of `id` (undefined: nothing stored). */
  #remember(id: string, stored: SessionHeader | undefined): void {
    this.#headers.delete(id);
    if (stored === undefined) return;
    this.#headers.set(id, headerOf(stored));
    if (this.#headers.size > KNOWN_HEADERS) this.#headers.delete(this.#headers.keys().next().value!);
  }

  async #live(id: string): Promise<{ record: SessionRecord | undefined; stored: SessionRecord | undefined }> {
    const stored = await this.read(this.checkId(id));
    this.#remember(id, stored);
    // An expired record is absent, but its header still guards the write that replaces it.
    return { record: stored === undefined || isExpired(stored, this.now()) ? undefined : stored, stored };
  }

  async load(id: string): Promise<SessionRecord | undefined> {
    return (await this.#live(id)).record;
  }

  async save(id: string, content: SessionContent, options: SessionSaveOptions = {}): Promise<SessionRecord> {
    const now = this.now();
    const expiresAt = expiryAt(now, options.ttl, this.defaultTtl);
    this.checkId(id);
    const record = savedRecord(undefined, id, content, now, expiresAt);
    // Strict JSON, once, before any I/O; whichever header the write gets is put around it.
    const encoded = encodeSessionContent(record);
    let header = this.#headers.get(id);
    let remembered = header !== undefined;
    if (!remembered) header = await this.readHeader(id);
    const expected = options.expectedRevision;
    for (;;) {
      const previous = header === undefined || isExpired(header, now) ? undefined : header;
      const current = previous === undefined ? 0 : previous.revision;
      const refused = expected !== undefined && expected !== current;
      if (!refused) {
        record.createdAt = previous?.createdAt ?? now;
        record.revision = (header?.revision ?? 0) + 1;
        if (await this.compareAndSet(record, header, composeSession(record, encoded))) {
          this.#remember(id, record);
          return record;
        }
      }
      if (remembered) {
        // The remembered header is out of date (another writer): decide on the stored one.
        remembered = false;
        header = await this.readHeader(id);
        continue;
      }
      this.#headers.delete(id);
      if (refused) {
        throw new SessionConflictError(`Session "${id}" is at revision ${current}, not ${expected}: it changed since it was read`, { sessionId: id, expectedRevision: expected, actualRevision: current });
      }
      throw new SessionConflictError(`Session "${id}" changed while it was being saved`, { sessionId: id, expectedRevision: header?.revision ?? 0, actualRevision: -1 });
    }
  }

  async append(id: string, messages: readonly Message[], options: SessionAppendOptions = {}): Promise<SessionRecord> {
    const copy = structuredClone([...messages]);
    checkTtl(options.ttl, 'ttl');
    const record = await this.update(this.checkId(id), (stored) => {
      const now = this.now();
      const previous = stored === undefined || isExpired(stored, now) ? undefined : stored;
      const next = appendedRecord(previous, id, copy, options.summary, now, expiryAt(now, options.ttl, this.defaultTtl));
      next.revision = (stored?.revision ?? 0) + 1;
      return next;
    });
    this.#remember(id, record);
    return record;
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
      if (await this.compareAndSet(record, stored, encodeSession(record))) return record;
    }
    throw new SessionConflictError(`Session "${id}": ${APPEND_ATTEMPTS} writes in a row lost the race to other writers`, { sessionId: id, actualRevision: -1 });
  }

  async list(): Promise<SessionInfo[]> {
    const now = this.now();
    return (await this.readAll()).filter((record) => !isExpired(record, now)).map(sessionInfo).sort(byRecency);
  }

  async delete(id: string): Promise<boolean> {
    const { record } = await this.#live(id);
    this.#headers.delete(id);
    const removed = await this.remove(id);
    return removed && record !== undefined;
  }

  async branch(sourceId: string, newId: string): Promise<SessionRecord> {
    const { record: source } = await this.#live(sourceId);
    if (source === undefined) throw new SessionNotFoundError({ sessionId: sourceId });
    const { record: existing, stored } = await this.#live(newId);
    if (existing !== undefined) {
      throw new SessionConflictError(`Cannot branch "${sourceId}" to "${newId}": a session "${newId}" already exists`, { sessionId: newId, actualRevision: existing.revision });
    }
    const now = this.now();
    const record = branchedRecord(source, newId, now);
    const expiresAt = expiryAt(now, undefined, this.defaultTtl);
    if (expiresAt === undefined) delete record.expiresAt;
    else record.expiresAt = expiresAt;
    record.revision = (stored?.revision ?? 0) + 1;
    if (!(await this.compareAndSet(record, stored, encodeSession(record)))) {
      this.#headers.delete(newId);
      throw new SessionConflictError(`Cannot branch "${sourceId}" to "${newId}": "${newId}" was written meanwhile`, { sessionId: newId, actualRevision: -1 });
    }
    this.#remember(newId, record);
    return record;
  }
}
