import { acquireSqlite, migrateSqlite, type SqliteHandle, type SqliteStatement } from '../storage/index.js';
import { BaseSessionStore, type SessionStoreOptions } from './base-session-store.js';
import { decodeSession, encodeSession } from './session-record.js';
import type { SessionHeader, SessionRecord } from './types.js';

/** Options of {@link SQLiteSessionStore}. */
export interface SQLiteSessionStoreOptions extends SessionStoreOptions {
  /** The database file (shared with the project's other SQLite stores). Default `.agentlib/agentlib.db`. */
  path?: string;
}

/** The default database file of every embedded store. */
export const DEFAULT_SQLITE_PATH = '.agentlib/agentlib.db';

/** Schema of the `sessions` subsystem: migrations[i] takes version i to i + 1. */
export const SESSION_MIGRATIONS: readonly string[] = [
  `CREATE TABLE agentlib_sessions (
     namespace TEXT NOT NULL,
     id TEXT NOT NULL,
     revision INTEGER NOT NULL,
     created_at INTEGER NOT NULL,
     updated_at INTEGER NOT NULL,
     expires_at INTEGER,
     data TEXT NOT NULL,
     PRIMARY KEY (namespace, id)
   ) WITHOUT ROWID;
   CREATE INDEX agentlib_sessions_updated ON agentlib_sessions (namespace, updated_at);`,
  // Version 2: an ordinary (rowid) table. A session row is large (its whole conversation), and
  // WITHOUT ROWID keeps every row inside the primary-key b-tree, where a 30 kB row made each save
  // about twice as slow to write and each load to read (bench:sessions). The index on updated_at
  // goes: no query uses it (list() sorts in memory), and every save paid for it.
  `ALTER TABLE agentlib_sessions RENAME TO agentlib_sessions_v1;
   CREATE TABLE agentlib_sessions (
     namespace TEXT NOT NULL,
     id TEXT NOT NULL,
     revision INTEGER NOT NULL,
     created_at INTEGER NOT NULL,
     updated_at INTEGER NOT NULL,
     expires_at INTEGER,
     data TEXT NOT NULL,
     PRIMARY KEY (namespace, id)
   );
   INSERT INTO agentlib_sessions (namespace, id, revision, created_at, updated_at, expires_at, data)
     SELECT namespace, id, revision, created_at, updated_at, expires_at, data FROM agentlib_sessions_v1;
   DROP TABLE agentlib_sessions_v1;`,
];

interface Row {
  data: string;
}

/**
 * Sessions in a SQLite table (`agentlib_sessions`) of the shared database file, through the
 * storage module's one connection per file (WAL, busy timeout). A save is one statement that
 * writes only when the row's header is the expected one; an append is one transaction (BEGIN
 * IMMEDIATE): appends and saves from several processes on one file never lose a message.
 */
export class SQLiteSessionStore extends BaseSessionStore {
  readonly path: string;
  readonly #handle: SqliteHandle;
  /** Prepared once: compiling the SQL on every call cost as much as the query itself. */
  readonly #sql: Record<'row' | 'header' | 'write' | 'insertNew' | 'replaceIf', SqliteStatement>;
  #closed = false;

  constructor(options: SQLiteSessionStoreOptions = {}) {
    super(options);
    this.#handle = acquireSqlite(options.path ?? DEFAULT_SQLITE_PATH);
    this.path = this.#handle.path;
    try {
      migrateSqlite(this.#handle.db, 'sessions', [...SESSION_MIGRATIONS]);
      const db = this.#handle.db;
      this.#sql = {
        row: db.prepare('SELECT data FROM agentlib_sessions WHERE namespace = ? AND id = ?'),
        header: db.prepare('SELECT revision, created_at AS createdAt, expires_at AS expiresAt FROM agentlib_sessions WHERE namespace = ? AND id = ?'),
        write: db.prepare('INSERT INTO agentlib_sessions (namespace, id, revision, created_at, updated_at, expires_at, data) VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (namespace, id) DO UPDATE SET revision = excluded.revision, created_at = excluded.created_at, updated_at = excluded.updated_at, expires_at = excluded.expires_at, data = excluded.data'),
        // The two compare-and-sets, each one statement (atomic on its own, no transaction around it):
        // a new session only when there is no row, a replacement only when the row's header is the expected one.
        insertNew: db.prepare('INSERT INTO agentlib_sessions (namespace, id, revision, created_at, updated_at, expires_at, data) VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (namespace, id) DO NOTHING'),
        replaceIf: db.prepare('UPDATE agentlib_sessions SET revision = ?, created_at = ?, updated_at = ?, expires_at = ?, data = ? WHERE namespace = ? AND id = ? AND revision = ? AND created_at = ? AND expires_at IS ?'),
      };
    } catch (error) {
      this.#handle.release();
      throw error;
    }
  }

  #row(id: string): SessionRecord | undefined {
    const row = this.#sql.row.get(this.namespace, id) as Row | undefined;
    return row === undefined ? undefined : decodeSession(row.data, `${this.path} session ${this.namespace}/${id}`);
  }

  #write(record: SessionRecord, data = encodeSession(record)): void {
    this.#sql.write.run(this.namespace, record.id, record.revision, record.createdAt, record.updatedAt, record.expiresAt ?? null, data);
  }

  protected read(id: string): Promise<SessionRecord | undefined> {
    return Promise.resolve(this.#row(id));
  }

  protected override readHeader(id: string): Promise<SessionHeader | undefined> {
    const row = this.#sql.header.get(this.namespace, id) as
      | { revision: number; createdAt: number; expiresAt: number | null }
      | undefined;
    if (row === undefined) return Promise.resolve(undefined);
    return Promise.resolve(row.expiresAt === null ? { revision: row.revision, createdAt: row.createdAt } : { revision: row.revision, createdAt: row.createdAt, expiresAt: row.expiresAt });
  }

  protected compareAndSet(record: SessionRecord, expected: SessionHeader | undefined, data: string): Promise<boolean> {
    // `data` was encoded by the caller, before the write lock: other writers wait only for the write itself.
    const changes = expected === undefined
      ? this.#sql.insertNew.run(this.namespace, record.id, record.revision, record.createdAt, record.updatedAt, record.expiresAt ?? null, data).changes
      : this.#sql.replaceIf.run(record.revision, record.createdAt, record.updatedAt, record.expiresAt ?? null, data, this.namespace, record.id, expected.revision, expected.createdAt, expected.expiresAt ?? null).changes;
    return Promise.resolve(changes === 1);
  }

  protected override update(id: string, change: (stored: SessionRecord | undefined) => SessionRecord): Promise<SessionRecord> {
    const run = this.#handle.db.transaction(() => {
      const record = change(this.#row(id));
      this.#write(record);
      return record;
    });
    return Promise.resolve(run.immediate());
  }

  protected remove(id: string): Promise<boolean> {
    return Promise.resolve(this.#handle.db.prepare('DELETE FROM agentlib_sessions WHERE namespace = ? AND id = ?').run(this.namespace, id).changes > 0);
  }

  protected readAll(): Promise<SessionRecord[]> {
    // Expired sessions are dropped here (reads already treat them as absent).
    this.#handle.db.prepare('DELETE FROM agentlib_sessions WHERE namespace = ? AND expires_at <= ?').run(this.namespace, this.now());
    const rows = this.#handle.db.prepare('SELECT id, data FROM agentlib_sessions WHERE namespace = ?').all(this.namespace) as (Row & { id: string })[];
    return Promise.resolve(rows.map((row) => decodeSession(row.data, `${this.path} session ${this.namespace}/${row.id}`)));
  }

  close(): Promise<void> {
    if (!this.#closed) {
      this.#closed = true;
      this.#handle.release();
    }
    return Promise.resolve();
  }
}
