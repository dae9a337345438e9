import { ConfigurationError } from '../../core/errors/configuration-error.js';
import { VectorStoreError } from '../../core/errors/vector-store-error.js';
import { SchemaVersionError } from '../../storage/errors/schema-version-error.js';
import { loadOptional } from '../../storage/optional-module.js';
import type { Document, Metadata, SearchResult } from '../document.js';
import { filterToLance, sqlString } from '../filter/lance-filter.js';
import { compileFilter, type MetadataFilter } from '../filter/metadata-filter.js';
import { lanceArrow, type ArrowModule, type ArrowSchema } from './lance-arrow.js';
import { checkQuery, prepareAdd, type VectorStore } from './vector-store.js';

/** Options of {@link LanceDBVectorStore}. */
export interface LanceDBVectorStoreOptions {
  /** The database directory (created when missing). */
  path: string;
  /** Table name: lowercase letters, digits, `_`. Default `agentlib_rag_vectors`. */
  table?: string;
  /** Rows per merge-insert when adding. Default 10,000. */
  batchSize?: number;
}

/** What the store uses of a LanceDB query. */
interface LanceQuery {
  select(columns: string[]): LanceQuery;
  where(predicate: string): LanceQuery;
  limit(limit: number): LanceQuery;
  distanceType(type: 'cosine'): LanceQuery;
  toArray(): Promise<Record<string, unknown>[]>;
}

/** What the store uses of a LanceDB table. */
interface LanceTable {
  schema(): Promise<ArrowSchema>;
  countRows(): Promise<number>;
  delete(predicate: string): Promise<unknown>;
  query(): LanceQuery;
  vectorSearch(vector: number[]): LanceQuery;
  mergeInsert(on: string): { whenMatchedUpdateAll(): { whenNotMatchedInsertAll(): { execute(data: unknown): Promise<unknown> } } };
  close(): void;
}

/** What the store uses of a LanceDB connection. */
interface LanceConnection {
  tableNames(): Promise<string[]>;
  openTable(name: string): Promise<LanceTable>;
  createEmptyTable(name: string, schema: unknown, options: { mode: 'create' | 'overwrite'; existOk?: boolean }): Promise<LanceTable>;
  dropTable(name: string): Promise<void>;
  close(): void;
}

interface LanceModule {
  connect(uri: string): Promise<LanceConnection>;
}

const TABLE_PATTERN = /^[a-z_][a-z0-9_]{0,62}$/;
/** Schema metadata key holding the table layout's version (what marks a table as agentlib's). */
export const LANCEDB_VERSION_KEY = 'agentlib.rag.version';
const VERSION_KEY = LANCEDB_VERSION_KEY;
const VERSION = 1;
/** The JSON column the filters run on (Lance's JSON type); `metadata` keeps the exact text. */
const FILTER_COLUMN = 'meta';

/**
 * A vector store in LanceDB (`@lancedb/lancedb`, loaded on first use): an embedded, columnar store
 * on disk (a directory of Lance files) that scales past memory. One table of id, text, metadata
 * (the JSON text, returned as written), `meta` (the same metadata as Lance's JSON type, which the
 * filters query) and `vector` (float32 × n); exact cosine search, score = 1 − distance; upserts as
 * batched merge-inserts on `id`. Filters become a DataFusion predicate over the JSON column,
 * applied before the top-k cut.
 */
export class LanceDBVectorStore implements VectorStore {
  readonly backend = 'lancedb';
  readonly #path: string;
  readonly #table: string;
  readonly #batch: number;
  #connection: Promise<LanceConnection> | undefined;
  #handle: LanceTable | undefined;
  #opening: Promise<LanceTable | undefined> | undefined;
  #dim: number | undefined;
  #arrow: ArrowModule | undefined;

  constructor(options: LanceDBVectorStoreOptions) {
    this.#path = options.path;
    this.#table = options.table ?? 'agentlib_rag_vectors';
    this.#batch = Math.max(1, options.batchSize ?? 10_000);
    if (!TABLE_PATTERN.test(this.#table)) throw new ConfigurationError(`table must match ${TABLE_PATTERN}, got ${JSON.stringify(this.#table)}`, { key: 'table' });
  }

  #connect(): Promise<LanceConnection> {
    this.#connection ??= (async () => {
      const lancedb = await loadOptional<LanceModule>('@lancedb/lancedb', 'the LanceDB vector store');
      this.#arrow = lanceArrow();
      return lancedb.connect(this.#path);
    })().catch((error: unknown) => {
      this.#connection = undefined;
      throw error;
    });
    return this.#connection;
  }

  /** The table when it exists (its dimensions read from its schema), else undefined; one open at a time. */
  #existing(): Promise<LanceTable | undefined> {
    if (this.#handle) return Promise.resolve(this.#handle);
    this.#opening ??= this.#open().finally(() => {
      this.#opening = undefined;
    });
    return this.#opening;
  }

  async #open(): Promise<LanceTable | undefined> {
    const db = await this.#connect();
    if (!(await db.tableNames()).includes(this.#table)) return undefined;
    const table = await db.openTable(this.#table);
    const schema = await table.schema();
    const version = Number(schema.metadata.get(VERSION_KEY));
    const vector = schema.fields.find((field) => field.name === 'vector');
    if (!Number.isInteger(version) || vector?.type.listSize === undefined) {
      table.close();
      throw new VectorStoreError(`table ${this.#table} in ${this.#path} is not an agentlib vector table`, { store: this.backend });
    }
    if (version > VERSION) {
      table.close();
      throw new SchemaVersionError({ subsystem: `rag:${this.#table}`, found: version, supported: VERSION, where: this.#path });
    }
    this.#dim = vector.type.listSize;
    this.#handle = table;
    return table;
  }

  #schema(dimensions: number): ArrowSchema {
    const arrow = this.#arrow as ArrowModule;
    return new arrow.Schema(
      [
        new arrow.Field('id', new arrow.Utf8(), false),
        new arrow.Field('text', new arrow.Utf8(), false),
        new arrow.Field('metadata', new arrow.Utf8(), false),
        new arrow.Field(FILTER_COLUMN, new arrow.Utf8(), false, new Map([['ARROW:extension:name', 'arrow.json']])),
        new arrow.Field('vector', new arrow.FixedSizeList(dimensions, new arrow.Field('item', new arrow.Float32(), true)), false),
      ],
      new Map([[VERSION_KEY, String(VERSION)]]),
    );
  }

  /** Rows `start` … `end` as an Arrow table of the store's schema. */
  #rows(schema: ArrowSchema, ids: string[], documents: readonly Document[], embeddings: readonly (readonly number[])[], start: number, end: number): unknown {
    const arrow = this.#arrow as ArrowModule;
    const dim = this.#dim as number;
    const n = end - start;
    const utf8 = (values: string[]): unknown => arrow.vectorFromArray(values, new arrow.Utf8()).data[0];
    const metadata = documents.slice(start, end).map((document) => JSON.stringify(document.metadata));
    const flat = new Float32Array(n * dim);
    for (let i = 0; i < n; i++) flat.set(embeddings[start + i] as readonly number[], i * dim);
    const vectorType = (schema.fields[4] as { type: unknown }).type;
    const vectors = arrow.makeData({ type: vectorType, length: n, nullCount: 0, child: arrow.makeData({ type: new arrow.Float32(), length: flat.length, data: flat }) });
    const children = [utf8(ids.slice(start, end)), utf8(documents.slice(start, end).map((document) => document.text)), utf8(metadata), utf8(metadata), vectors];
    const data = arrow.makeData({ type: new arrow.Struct(schema.fields), length: n, nullCount: 0, children });
    return new arrow.Table(schema, [new arrow.RecordBatch(schema, data)]);
  }

  async addDocuments(documents: readonly Document[], embeddings: readonly (readonly number[])[]): Promise<string[]> {
    let table = await this.#existing();
    const { ids, dimensions } = prepareAdd(this.backend, documents, embeddings, this.#dim);
    if (ids.length === 0 || dimensions === undefined) return ids;
    try {
      if (table === undefined) {
        table = await (await this.#connect()).createEmptyTable(this.#table, this.#schema(dimensions), { mode: 'create', existOk: true });
        this.#handle = table;
      }
      this.#dim = dimensions;
      const schema = this.#schema(dimensions);
      for (let start = 0; start < ids.length; start += this.#batch) {
        const rows = this.#rows(schema, ids, documents, embeddings, start, Math.min(ids.length, start + this.#batch));
        await table.mergeInsert('id').whenMatchedUpdateAll().whenNotMatchedInsertAll().execute(rows);
      }
    } catch (error) {
      throw new VectorStoreError(`writing to LanceDB table ${this.#table} failed: ${(error as Error).message}`, { store: this.backend, cause: error });
    }
    return ids;
  }

  async search(queryEmbedding: readonly number[], topK: number, filter?: MetadataFilter): Promise<SearchResult[]> {
    const node = compileFilter(filter);
    const table = await this.#existing();
    checkQuery(this.backend, queryEmbedding, this.#dim);
    if (table === undefined || topK <= 0) return [];
    let query = table.vectorSearch([...queryEmbedding]).distanceType('cosine').select(['id', 'text', 'metadata', '_distance']);
    if (node !== undefined) query = query.where(filterToLance(node, FILTER_COLUMN));
    const rows = await query.limit(Math.floor(topK)).toArray();
    const results = rows.map((row) => ({ id: row['id'] as string, distance: Number(row['_distance']), row }));
    // Equal distances in id order, like the SQL stores.
    results.sort((a, b) => a.distance - b.distance || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    return results.map(({ id, distance, row }) => ({
      document: { id, text: row['text'] as string, metadata: JSON.parse(row['metadata'] as string) as Metadata },
      score: 1 - distance,
    }));
  }

  async delete(ids: readonly string[]): Promise<void> {
    const table = await this.#existing();
    if (table === undefined || ids.length === 0) return;
    for (let start = 0; start < ids.length; start += 1000) {
      await table.delete(`id IN (${ids.slice(start, start + 1000).map(sqlString).join(', ')})`);
    }
  }

  /** Drops the table: the next add creates it again, with the dimensions of its embeddings. */
  async clear(): Promise<void> {
    const table = await this.#existing();
    if (table === undefined) return;
    table.close();
    this.#handle = undefined;
    this.#dim = undefined;
    await (await this.#connect()).dropTable(this.#table);
  }

  async count(): Promise<number> {
    const table = await this.#existing();
    return table === undefined ? 0 : table.countRows();
  }

  async list(): Promise<Document[]> {
    const table = await this.#existing();
    if (table === undefined) return [];
    const rows = await table.query().select(['id', 'text', 'metadata']).toArray();
    const documents = rows.map((row) => ({ id: row['id'] as string, text: row['text'] as string, metadata: JSON.parse(row['metadata'] as string) as Metadata }));
    return documents.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  }

  async close(): Promise<void> {
    this.#handle?.close();
    this.#handle = undefined;
    const connection = this.#connection;
    this.#connection = undefined;
    if (connection) await connection.then((db) => db.close(), () => undefined);
  }
}
