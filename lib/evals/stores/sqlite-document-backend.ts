import { migrateSqlite } from '../../storage/migrate-sqlite.js';
import { acquireSqlite, type SqliteHandle } from '../../storage/sqlite-pool.js';
import { checkStoreId } from '../../storage/store-id.js';
import { checkKind, settle, type DocumentBackend } from './document-backend.js';

/** The schema subsystem of the eval documents (baselines, snapshots) in `agentlib_schema`. */
export const EVAL_DOCUMENTS_SUBSYSTEM = 'eval-documents';

/** migrations[i] takes the eval document table from version i to i + 1 (SQLite and PostgreSQL alike). */
export const EVAL_DOCUMENT_MIGRATIONS: readonly string[] = [
  `CREATE TABLE eval_documents (
     kind TEXT NOT NULL,
     id TEXT NOT NULL,
     body TEXT NOT NULL,
     PRIMARY KEY (kind, id)
   )`,
];

/** Documents in SQLite through the storage module: one shared connection per file, versioned schema. */
export class SqliteDocumentBackend implements DocumentBackend {
  readonly where: string;
  readonly #handle: SqliteHandle;
  readonly #kind: string;
  readonly #what: string;
  #closed = false;

  constructor(path: string, kind: string, what = 'id') {
    this.#kind = checkKind(kind);
    this.#what = what;
    this.where = `sqlite://${path}`;
    this.#handle = acquireSqlite(path);
    try {
      migrateSqlite(this.#handle.db, EVAL_DOCUMENTS_SUBSYSTEM, EVAL_DOCUMENT_MIGRATIONS, path);
    } catch (error) {
      this.#handle.release();
      throw error;
    }
  }

  get(id: string): Promise<string | undefined> {
    return settle(() => (this.#handle.db.prepare('SELECT body FROM eval_documents WHERE kind = ? AND id = ?').get(this.#kind, checkStoreId(id, this.#what)) as { body: string } | undefined)?.body);
  }

  put(id: string, body: string): Promise<void> {
    return settle(() => {
      this.#handle.db
        .prepare('INSERT INTO eval_documents (kind, id, body) VALUES (?, ?, ?) ON CONFLICT (kind, id) DO UPDATE SET body = excluded.body')
        .run(this.#kind, checkStoreId(id, this.#what), body);
    });
  }

  delete(id: string): Promise<boolean> {
    return settle(() => this.#handle.db.prepare('DELETE FROM eval_documents WHERE kind = ? AND id = ?').run(this.#kind, checkStoreId(id, this.#what)).changes > 0);
  }

  list(): Promise<string[]> {
    return settle(() => (this.#handle.db.prepare('SELECT id FROM eval_documents WHERE kind = ? ORDER BY id').all(this.#kind) as { id: string }[]).map((r) => r.id));
  }

  close(): Promise<void> {
    if (!this.#closed) {
      this.#closed = true;
      this.#handle.release();
    }
    return Promise.resolve();
  }
}
