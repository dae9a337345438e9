import { ConfigurationError } from '../../core/errors/configuration-error.js';
import { VectorStoreError } from '../../core/errors/vector-store-error.js';
import type { Document, Metadata, SearchResult } from '../document.js';
import { compileFilter, type MetadataFilter } from '../filter/metadata-filter.js';
import { filterToSql, type SqlDialect } from '../filter/sql-filter.js';
import type { Pool } from 'pg';
import { acquirePostgres, type PostgresHandle } from '../../storage/postgres-pool.js';
import { migratePostgres } from '../../storage/migrate-postgres.js';
import { checkQuery, prepareAdd, type VectorStore } from './vector-store.js';

/** What the store needs of a `pg` Pool. */
export type PostgresQueryable = Pool;

/** Options of {@link PostgresVectorStore}. */
export interface PostgresVectorStoreOptions {
  /** A `pg` Pool to use (the store does not end it). */
  pool?: Pool;
  /** A `postgres://` URL: the store uses the process's shared pool for it (storage module) and releases it on close(). */
  url?: string;
  /** Table name: lowercase letters, digits, `_`. Default `agentlib_rag_vectors`. */
  table?: string;
  /** Vector length; default the first added embedding's (fixed in the table's column type). */
  dimensions?: number;
  /**
   * Approximate index: `hnsw` (pgvector's HNSW, `vector_cosine_ops`), `ivfflat` (with `lists`), or
   * `none` (exact search by scanning). Default `none`. With an index, filtered searches can return
   * fewer than topK rows (pgvector filters after the index scan).
   */
  index?: 'none' | 'hnsw' | 'ivfflat';
  /** IVFFlat lists. Default 100. */
  lists?: number;
  /** Rows per INSERT statement. Default 500. */
  batchSize?: number;
}

const TABLE_PATTERN = /^[a-z_][a-z0-9_]{0,62}$/;

const POSTGRES_DIALECT: SqlDialect = {
  field: (key) => `COALESCE(metadata -> ${key}::text, 'null'::jsonb)`,
  json: (param) => `${param}::jsonb`,
  number: (key) => `(CASE WHEN jsonb_typeof(metadata -> ${key}::text) = 'number' THEN (metadata ->> ${key}::text)::float8 END)`,
  string: (key) => `(CASE WHEN jsonb_typeof(metadata -> ${key}::text) = 'string' THEN (metadata ->> ${key}::text) END) COLLATE "C"`,
  inList: (expr, params) => `${expr} IN (${params.join(', ')})`,
};

/**
 * A vector store in PostgreSQL with the pgvector extension (`pg` and `pgvector` packages, loaded on
 * first use): one table of id, text, metadata (jsonb) and embedding (vector(n)); cosine distance
 * (`<=>`), score = 1 − distance; upserts in multi-row INSERT … ON CONFLICT statements; metadata
 * filters translated to SQL with every key and value as a parameter.
 */
export class PostgresVectorStore implements VectorStore {
  readonly backend = 'postgres';
  readonly #options: PostgresVectorStoreOptions;
  readonly #table: string;
  #pool: Pool | undefined;
  #handle: PostgresHandle | undefined;
  #dim: number | undefined;
  #ready: Promise<void> | undefined;

  constructor(options: PostgresVectorStoreOptions) {
    this.#options = options;
    this.#table = options.table ?? 'agentlib_rag_vectors';
    if (!TABLE_PATTERN.test(this.#table)) throw new ConfigurationError(`table must match ${TABLE_PATTERN}, got ${JSON.stringify(this.#table)}`, { key: 'table' });
    if ((options.pool === undefined) === (options.url === undefined)) throw new ConfigurationError('PostgresVectorStore needs exactly one of pool and url', { key: 'url' });
    this.#pool = options.pool;
    this.#dim = options.dimensions;
  }

  async #db(): Promise<Pool> {
    if (this.#pool) return this.#pool;
    this.#handle = await acquirePostgres(this.#options.url as string);
    this.#pool = this.#handle.pool;
    return this.#pool;
  }

  /** Creates the extension, and the table and index once the dimensions are known. */
  async #ensure(dimensions: number | undefined): Promise<Pool> {
    const db = await this.#db();
    this.#ready ??= (async () => {
      const found = await db.query(
        `SELECT format_type(a.atttypid, a.atttypmod) AS type FROM pg_attribute a WHERE a.attrelid = to_regclass($1) AND a.attname = 'embedding'`,
        [this.#table],
      );
      const type = (found.rows[0] as Record<string, unknown> | undefined)?.['type'];
      if (typeof type === 'string') {
        const dim = Number(/\((\d+)\)/.exec(type)?.[1]);
        if (this.#dim !== undefined && this.#dim !== dim) throw new VectorStoreError(`table ${this.#table} holds ${dim} dimensions, not ${this.#dim}`, { store: this.backend });
        this.#dim = dim;
      }
    })();
    try {
      await this.#ready;
    } catch (error) {
      this.#ready = undefined;
      throw error;
    }
    if (this.#dim === undefined && dimensions !== undefined) {
      const index = this.#options.index ?? 'none';
      let create = `CREATE EXTENSION IF NOT EXISTS vector; CREATE TABLE IF NOT EXISTS ${this.#table} (id text PRIMARY KEY, text text NOT NULL, metadata jsonb NOT NULL, embedding vector(${dimensions}) NOT NULL);`;
      if (index === 'hnsw') create += ` CREATE INDEX IF NOT EXISTS ${this.#table}_hnsw ON ${this.#table} USING hnsw (embedding vector_cosine_ops);`;
      if (index === 'ivfflat') {
        create += ` CREATE INDEX IF NOT EXISTS ${this.#table}_ivfflat ON ${this.#table} USING ivfflat (embedding vector_cosine_ops) WITH (lists = ${Math.max(1, Math.floor(this.#options.lists ?? 100))});`;
      }
      // Versioned per table (subsystem `rag:<table>`): version 1 creates it with its dimensions.
      await migratePostgres(db, `rag:${this.#table}`, [create]);
      this.#dim = dimensions;
    }
    return db;
  }

  async addDocuments(documents: readonly Document[], embeddings: readonly (readonly number[])[]): Promise<string[]> {
    await this.#ensure(undefined);
    const { ids, dimensions } = prepareAdd(this.backend, documents, embeddings, this.#dim);
    if (ids.length === 0) return ids;
    const db = await this.#ensure(dimensions);
    const batch = Math.max(1, this.#options.batchSize ?? 500);
    for (let start = 0; start < ids.length; start += batch) {
      const values: unknown[] = [];
      const rows: string[] = [];
      for (let i = start; i < Math.min(ids.length, start + batch); i++) {
        const document = documents[i] as Document;
        const n = values.length;
        rows.push(`($${n + 1}, $${n + 2}, $${n + 3}::jsonb, $${n + 4}::vector)`);
        values.push(ids[i], document.text, JSON.stringify(document.metadata), `[${(embeddings[i] as readonly number[]).join(',')}]`);
      }
      await db.query(
        `INSERT INTO ${this.#table} (id, text, metadata, embedding) VALUES ${rows.join(', ')} ON CONFLICT (id) DO UPDATE SET text = EXCLUDED.text, metadata = EXCLUDED.metadata, embedding = EXCLUDED.embedding`,
        values,
      );
    }
    return ids;
  }

  async search(queryEmbedding: readonly number[], topK: number, filter?: MetadataFilter): Promise<SearchResult[]> {
    const node = compileFilter(filter);
    const db = await this.#ensure(undefined);
    checkQuery(this.backend, queryEmbedding, this.#dim);
    if (this.#dim === undefined || topK <= 0) return [];
    const values: unknown[] = [`[${queryEmbedding.join(',')}]`];
    const param = (value: unknown): string => {
      values.push(value);
      return `$${values.length}`;
    };
    const where = node === undefined ? '' : `WHERE ${filterToSql(node, POSTGRES_DIALECT, param)}`;
    const limit = param(Math.floor(topK));
    const result = await db.query(
      `SELECT id, text, metadata, 1 - (embedding <=> $1::vector) AS score FROM ${this.#table} ${where} ORDER BY embedding <=> $1::vector, id LIMIT ${limit}`,
      values,
    );
    return (result.rows as Record<string, unknown>[]).map((row) => ({
      document: { id: row['id'] as string, text: row['text'] as string, metadata: row['metadata'] as Metadata },
      score: Number(row['score']),
    }));
  }

  async delete(ids: readonly string[]): Promise<void> {
    if (ids.length === 0) return;
    const db = await this.#ensure(undefined);
    if (this.#dim === undefined) return;
    await db.query(`DELETE FROM ${this.#table} WHERE id = ANY($1::text[])`, [[...ids]]);
  }

  async clear(): Promise<void> {
    const db = await this.#ensure(undefined);
    if (this.#dim !== undefined) await db.query(`TRUNCATE ${this.#table}`);
  }

  async count(): Promise<number> {
    const db = await this.#ensure(undefined);
    if (this.#dim === undefined) return 0;
    return Number(((await db.query(`SELECT count(*)::int AS n FROM ${this.#table}`)).rows[0] as Record<string, unknown> | undefined)?.['n'] ?? 0);
  }

  async list(): Promise<Document[]> {
    const db = await this.#ensure(undefined);
    if (this.#dim === undefined) return [];
    const result = await db.query(`SELECT id, text, metadata FROM ${this.#table} ORDER BY id COLLATE "C"`);
    return (result.rows as Record<string, unknown>[]).map((row) => ({ id: row['id'] as string, text: row['text'] as string, metadata: row['metadata'] as Metadata }));
  }

  async close(): Promise<void> {
    if (this.#handle) {
      const handle = this.#handle;
      this.#handle = undefined;
      this.#pool = undefined;
      await handle.release();
    }
    this.#ready = undefined;
  }
}
