import { ConfigurationError } from '../../core/errors/configuration-error.js';
import { VectorStoreError } from '../../core/errors/vector-store-error.js';
import { migrateSqlite } from '../../storage/migrate-sqlite.js';
import { loadOptional } from '../../storage/optional-module.js';
import type { SqliteDatabase } from '../../storage/sqlite.js';
import { acquireSqlite, type SqliteHandle } from '../../storage/sqlite-pool.js';
import type { Document, Metadata, SearchResult } from '../document.js';
import { compileFilter, type MetadataFilter } from '../filter/metadata-filter.js';
import { filterToSql, type SqlDialect } from '../filter/sql-filter.js';
import { checkQuery, prepareAdd, type VectorStore } from './vector-store.js';

/** Options of {@link SqliteVectorStore}. */
export interface SqliteVectorStoreOptions {
  /** The SQLite file (`:memory:` for a private in-memory database). Default `.agentlib/agentlib.db`. */
  path?: string;
  /** Table name: lowercase letters, digits, `_`. Default `agentlib_rag_vectors`. */
  table?: string;
  /** Rows per transaction when adding. Default 1,000. */
  batchSize?: number;
}

const TABLE_PATTERN = /^[a-z_][a-z0-9_]{0,62}$/;
const withVec = new WeakSet<SqliteDatabase>();

/** A JSON path for a (checked) metadata key held in a named parameter. */
const path = (key: string): string => `('$."' || ${key} || '"')`;

const SQLITE_DIALECT: SqlDialect = {
  field: (key) => `COALESCE(metadata -> ${path(key)}, 'null')`,
  json: (param) => param,
  number: (key) => `(CASE WHEN json_type(metadata, ${path(key)}) IN ('integer', 'real') THEN json_extract(metadata, ${path(key)}) END)`,
  string: (key) => `(CASE WHEN json_type(metadata, ${path(key)}) = 'text' THEN json_extract(metadata, ${path(key)}) END)`,
  inList: (expr, params) => `${expr} IN (${params.join(', ')})`,
};

function toBlob(vector: readonly number[]): Buffer {
  const floats = Float32Array.from(vector);
  return Buffer.from(floats.buffer, floats.byteOffset, floats.byteLength);
}

/**
 * A vector store in SQLite: a table of id, text, metadata (JSON) and embedding (float32 BLOB) in
 * the shared connection of the storage module (the project's `.agentlib/agentlib.db` by default, or
 * its own file), exact cosine search with sqlite-vec's `vec_distance_cosine` (SIMD, loaded on first
 * use), score = 1 − distance; metadata filters as SQL over `json_extract` with keys and values
 * bound as parameters; upserts batched in transactions.
 */
export class SqliteVectorStore implements VectorStore {
  readonly backend = 'sqlite';
  readonly #path: string;
  readonly #table: string;
  readonly #batch: number;
  #handle: SqliteHandle | undefined;
  #dim: number | undefined;

  constructor(options: SqliteVectorStoreOptions = {}) {
    this.#path = options.path ?? '.agentlib/agentlib.db';
    this.#table = options.table ?? 'agentlib_rag_vectors';
    this.#batch = Math.max(1, options.batchSize ?? 1000);
    if (!TABLE_PATTERN.test(this.#table)) throw new ConfigurationError(`table must match ${TABLE_PATTERN}, got ${JSON.stringify(this.#table)}`, { key: 'table' });
  }

  async #db(): Promise<SqliteDatabase> {
    if (this.#handle) return this.#handle.db;
    const sqliteVec = await loadOptional<{ load(db: unknown): void }>('sqlite-vec', 'the SQLite vector store');
    const handle = acquireSqlite(this.#path);
    try {
      if (!withVec.has(handle.db)) {
        sqliteVec.load(handle.db);
        withVec.add(handle.db);
      }
      migrateSqlite(handle.db, `rag:${this.#table}`, [`CREATE TABLE IF NOT EXISTS ${this.#table} (id TEXT PRIMARY KEY, text TEXT NOT NULL, metadata TEXT NOT NULL, embedding BLOB NOT NULL)`]);
      const row = handle.db.prepare(`SELECT length(embedding) / 4 AS dim FROM ${this.#table} LIMIT 1`).get() as { dim: number } | undefined;
      this.#dim = row?.dim;
    } catch (error) {
      handle.release();
      throw error;
    }
    this.#handle = handle;
    return handle.db;
  }

  async addDocuments(documents: readonly Document[], embeddings: readonly (readonly number[])[]): Promise<string[]> {
    const db = await this.#db();
    const { ids, dimensions } = prepareAdd(this.backend, documents, embeddings, this.#dim);
    if (ids.length === 0) return ids;
    const insert = db.prepare(
      `INSERT INTO ${this.#table} (id, text, metadata, embedding) VALUES (?, ?, ?, ?) ON CONFLICT(id) DO UPDATE SET text = excluded.text, metadata = excluded.metadata, embedding = excluded.embedding`,
    );
    const write = db.transaction((start: number, end: number) => {
      for (let i = start; i < end; i++) insert.run(ids[i], (documents[i] as Document).text, JSON.stringify((documents[i] as Document).metadata), toBlob(embeddings[i] as readonly number[]));
    });
    try {
      for (let start = 0; start < ids.length; start += this.#batch) write(start, Math.min(ids.length, start + this.#batch));
    } catch (error) {
      throw new VectorStoreError(`writing to ${this.#table} failed: ${(error as Error).message}`, { store: this.backend, cause: error });
    }
    this.#dim = dimensions;
    return ids;
  }

  async search(queryEmbedding: readonly number[], topK: number, filter?: MetadataFilter): Promise<SearchResult[]> {
    const node = compileFilter(filter);
    const db = await this.#db();
    checkQuery(this.backend, queryEmbedding, this.#dim);
    if (this.#dim === undefined || topK <= 0) return [];
    const params: Record<string, unknown> = { query: toBlob(queryEmbedding), k: Math.floor(topK) };
    let n = 0;
    const param = (value: unknown): string => {
      const name = `p${++n}`;
      params[name] = typeof value === 'boolean' ? Number(value) : value;
      return `@${name}`;
    };
    const where = node === undefined ? '' : `WHERE ${filterToSql(node, SQLITE_DIALECT, param)}`;
    const rows = db
      .prepare(`SELECT id, text, metadata, vec_distance_cosine(embedding, @query) AS distance FROM ${this.#table} ${where} ORDER BY distance, id LIMIT @k`)
      .all(params) as { id: string; text: string; metadata: string; distance: number }[];
    return rows.map((row) => ({ document: { id: row.id, text: row.text, metadata: JSON.parse(row.metadata) as Metadata }, score: 1 - row.distance }));
  }

  async delete(ids: readonly string[]): Promise<void> {
    const db = await this.#db();
    const remove = db.prepare(`DELETE FROM ${this.#table} WHERE id = ?`);
    db.transaction(() => {
      for (const id of ids) remove.run(id);
    })();
  }

  async clear(): Promise<void> {
    const db = await this.#db();
    db.prepare(`DELETE FROM ${this.#table}`).run();
    this.#dim = undefined;
  }

  async count(): Promise<number> {
    const db = await this.#db();
    return (db.prepare(`SELECT count(*) AS n FROM ${this.#table}`).get() as { n: number }).n;
  }

  async list(): Promise<Document[]> {
    const db = await this.#db();
    const rows = db.prepare(`SELECT id, text, metadata FROM ${this.#table} ORDER BY id`).all() as { id: string; text: string; metadata: string }[];
    return rows.map((row) => ({ id: row.id, text: row.text, metadata: JSON.parse(row.metadata) as Metadata }));
  }

  close(): Promise<void> {
    this.#handle?.release();
    this.#handle = undefined;
    return Promise.resolve();
  }
}
