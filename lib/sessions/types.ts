import type { Message } from '../core/message.js';

/** A stored conversation. */
export interface SessionRecord {
  /** The session id (`[A-Za-z0-9_.-]{1,128}`, no `..`). */
  id: string;
  /** Every message of the conversation, in order (an append-only log: memory windows it on load). */
  messages: Message[];
  /** The conversation memory's running summary ('' when none). */
  summary: string;
  /** Free JSON the application keeps with the session. */
  metadata: Record<string, unknown>;
  /** Epoch milliseconds. */
  createdAt: number;
  updatedAt: number;
  /** Bumped by every write: the token of optimistic concurrency (`expectedRevision`). */
  revision: number;
  /** Epoch milliseconds after which the session is gone; absent when it never expires. */
  expiresAt?: number;
}

/** What a store knows of a session without reading its messages. */
export interface SessionHeader {
  revision: number;
  createdAt: number;
  expiresAt?: number;
}

/** A session as `list()` describes it (without its messages). */
export interface SessionInfo {
  id: string;
  messageCount: number;
  createdAt: number;
  updatedAt: number;
  revision: number;
  expiresAt?: number;
}

/** What `save` writes: the whole session (`metadata` and `summary` are replaced too; default `{}` and `''`). */
export interface SessionContent {
  messages: readonly Message[];
  summary?: string;
  metadata?: Record<string, unknown>;
}

/** Options of a write. */
export interface SessionWriteOptions {
  /** Seconds until the session expires, from this write; 0 never expires. Default: the store's `defaultTtl`. */
  ttl?: number;
}

/** Options of `save`. */
export interface SessionSaveOptions extends SessionWriteOptions {
  /**
   * Write only when the stored session is at this revision (0: only when it does not exist);
   * otherwise a SessionConflictError, and nothing is written.
   */
  expectedRevision?: number;
}

/** Options of `append`. */
export interface SessionAppendOptions extends SessionWriteOptions {
  /** Replaces the stored summary in the same write. */
  summary?: string;
}

/**
 * Where conversations persist: the SessionStore protocol every backend (JSON files, SQLite,
 * Redis, memory) implements and `test/lib/sessions/session-store-conformance.test.ts` checks.
 * Every id is checked (REFERENCE.md §7) before anything is read or written; sessions live in the
 * store's `namespace`, so agents sharing a database never see each other's sessions.
 */
export interface SessionStore {
  /** The namespace of this store's sessions. */
  readonly namespace: string;
  /** Seconds a session lives after its last write, unless a write says otherwise; undefined: forever. */
  readonly defaultTtl: number | undefined;
  /** The session, or undefined when it does not exist or has expired. */
  load(id: string): Promise<SessionRecord | undefined>;
  /** Replaces the whole session (creating it when new). */
  save(id: string, content: SessionContent, options?: SessionSaveOptions): Promise<SessionRecord>;
  /** Adds messages at the end, atomically: concurrent appends (other processes too) never lose or duplicate one. */
  append(id: string, messages: readonly Message[], options?: SessionAppendOptions): Promise<SessionRecord>;
  /** Live sessions of the namespace, most recently updated first. */
  list(): Promise<SessionInfo[]>;
  /** Forgets a session; false when there was none. */
  delete(id: string): Promise<boolean>;
  /** Copies `sourceId` to `newId` (a new, independent session). Unknown source → SessionNotFoundError; existing target → SessionConflictError. */
  branch(sourceId: string, newId: string): Promise<SessionRecord>;
  /** Releases the store's connection (its share of it). */
  close(): Promise<void>;
}

/** The default namespace of session stores. */
export const DEFAULT_SESSION_NAMESPACE = 'default';

/** Which stored session an agent continues (`new Agent({ session })`). */
export interface SessionBinding {
  store: SessionStore;
  /** The session id (`[A-Za-z0-9_.-]{1,128}`, no `..`). */
  id: string;
  /** Seconds the session lives after each save; default: the store's `defaultTtl`. */
  ttl?: number;
}
