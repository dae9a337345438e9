import { migratePostgres } from '../../storage/migrate-postgres.js';
import { acquirePostgres, type PostgresHandle } from '../../storage/postgres-pool.js';
import { checkStoreId } from '../../storage/store-id.js';
import { redactStoreUrl } from '../../storage/store-url.js';
import { checkKind, type DocumentBackend } from './document-backend.js';
import { EVAL_DOCUMENT_MIGRATIONS, EVAL_DOCUMENTS_SUBSYSTEM } from './sqlite-document-backend.js';

/** Documents in PostgreSQL (`pg`, optional) through the storage module's pool per URL. Open with `PostgresDocumentBackend.open`. */
export class PostgresDocumentBackend implements DocumentBackend {
  readonly where: string;
  readonly #handle: PostgresHandle;
  readonly #kind: string;
  readonly #what: string;
  #closed = false;

  private constructor(handle: PostgresHandle, where: string, kind: string, what: string) {
    this.#handle = handle;
    this.where = where;
    this.#kind = kind;
    this.#what = what;
  }

  /** Connects to `url` and migrates the eval document table. */
  static async open(url: string, kind: string, what = 'id'): Promise<PostgresDocumentBackend> {
    checkKind(kind);
    const handle = await acquirePostgres(url);
    const where = redactStoreUrl(url);
    try {
      await migratePostgres(handle.pool, EVAL_DOCUMENTS_SUBSYSTEM, EVAL_DOCUMENT_MIGRATIONS, where);
    } catch (error) {
      await handle.release();
      throw error;
    }
    return new PostgresDocumentBackend(handle, where, kind, what);
  }

  async get(id: string): Promise<string | undefined> {
    const { rows } = await this.#handle.pool.query<{ body: string }>('SELECT body FROM eval_documents WHERE kind = $1 AND id = $2', [this.#kind, checkStoreId(id, this.#what)]);
    return rows[0]?.body;
  }

  async put(id: string, body: string): Promise<void> {
    await this.#handle.pool.query('INSERT INTO eval_documents (kind, id, body) VALUES ($1, $2, $3) ON CONFLICT (kind, id) DO UPDATE SET body = EXCLUDED.body', [this.#kind, checkStoreId(id, this.#what), body]);
  }

  async delete(id: string): Promise<boolean> {
    const result = await this.#handle.pool.query('DELETE FROM eval_documents WHERE kind = $1 AND id = $2', [this.#kind, checkStoreId(id, this.#what)]);
    return (result.rowCount ?? 0) > 0;
  }

  async list(): Promise<string[]> {
    const { rows } = await this.#handle.pool.query<{ id: string }>('SELECT id FROM eval_documents WHERE kind = $1 ORDER BY id', [this.#kind]);
    return rows.map((r) => r.id);
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#handle.release();
  }
}
