import { existsSync } from 'node:fs';
import { loadOptional } from '../../storage/optional-module.js';
import { acquirePostgres } from '../../storage/postgres-pool.js';
import { acquireSqlite } from '../../storage/sqlite-pool.js';
import { parseStoreUrl, type StoreLocation } from '../../storage/store-url.js';
import { documentSource } from '../document.js';
import { LANCEDB_VERSION_KEY } from './lancedb-vector-store.js';
import { openVectorStore } from './open-vector-store.js';

/** One index (a table of vectors) in a store, with its size. */
export interface IndexInfo {
  /** The table: what `--table` / `retrieval.table` name. */
  table: string;
  /** Chunks (rows) stored. */
  chunks: number;
  /** Distinct `metadata.source` values (files, URLs) among the chunks. */
  sources: number;
  /** Characters of chunk text. */
  characters: number;
  /** The embedder the chunks were made with (`metadata.embedder`), when recorded; several joined with ", ". */
  embedder?: string;
  /**
   * Bytes the table takes, as the backend tells: SQLite's dbstat pages of the table and its indexes,
   * PostgreSQL's pg_total_relation_size, LanceDB's table statistics. Absent when it cannot tell.
   */
  bytes?: number;
}

/** Options of {@link listIndexes}. */
export interface ListIndexesOptions {
  /** What relative `sqlite://` and `lancedb://` paths resolve against. Default the working directory. */
  cwd?: string;
}

/** A table found in a store, with its size in bytes when the backend can tell. */
interface FoundTable {
  table: string;
  bytes?: number;
}

const RAG_SUBSYSTEM = /^rag:([a-z_][a-z0-9_]{0,62})$/;

/** Tables recorded as RAG indexes (subsystem `rag:<table>` in agentlib_schema) of an SQLite file; a missing file holds none (and is not created). */
function sqliteTables(path: string): FoundTable[] {
  if (!existsSync(path)) return [];
  const handle = acquireSqlite(path);
  try {
    const { db } = handle;
    const exists = (name: string): boolean => db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(name) !== undefined;
    if (!exists('agentlib_schema')) return [];
    const rows = db.prepare("SELECT subsystem FROM agentlib_schema WHERE subsystem LIKE 'rag:%' ORDER BY subsystem").all() as { subsystem: string }[];
    const found: FoundTable[] = [];
    for (const { subsystem } of rows) {
      const table = RAG_SUBSYSTEM.exec(subsystem)?.[1];
      if (table === undefined || !exists(table)) continue;
      let bytes: number | undefined;
      try {
        const row = db
          .prepare('SELECT sum(pgsize) AS bytes FROM dbstat WHERE name IN (SELECT name FROM sqlite_master WHERE tbl_name = ?)')
          .get(table) as { bytes: number | null };
        bytes = row.bytes ?? 0;
      } catch {
        bytes = undefined; // SQLite built without the dbstat table
      }
      found.push(bytes === undefined ? { table } : { table, bytes });
    }
    return found;
  } finally {
    handle.release();
  }
}

/** Tables recorded as RAG indexes in a PostgreSQL database, with pg_total_relation_size. */
async function postgresTables(url: string): Promise<FoundTable[]> {
  const handle = await acquirePostgres(url);
  try {
    const { pool } = handle;
    const schema = await pool.query<{ exists: boolean }>("SELECT to_regclass('agentlib_schema') IS NOT NULL AS exists");
    if (schema.rows[0]?.exists !== true) return [];
    const rows = await pool.query<{ subsystem: string }>("SELECT subsystem FROM agentlib_schema WHERE subsystem LIKE 'rag:%' ORDER BY subsystem");
    const found: FoundTable[] = [];
    for (const { subsystem } of rows.rows) {
      const table = RAG_SUBSYSTEM.exec(subsystem)?.[1];
      if (table === undefined) continue;
      const size = await pool.query<{ bytes: string | null }>('SELECT pg_total_relation_size(to_regclass($1))::text AS bytes', [table]);
      const bytes = size.rows[0]?.bytes;
      if (bytes === null || bytes === undefined) continue; // recorded, then dropped
      found.push({ table, bytes: Number(bytes) });
    }
    return found;
  } finally {
    await handle.release();
  }
}

interface LanceListing {
  connect(uri: string): Promise<{
    tableNames(): Promise<string[]>;
    openTable(name: string): Promise<{ schema(): Promise<{ metadata: Map<string, string> }>; stats(): Promise<{ totalBytes: number }>; close(): void }>;
    close(): void;
  }>;
}

/** Tables of a LanceDB directory that agentlib wrote (their schema carries its layout version); a missing directory holds none. */
async function lanceTables(path: string): Promise<FoundTable[]> {
  if (!existsSync(path)) return [];
  const lancedb = await loadOptional<LanceListing>('@lancedb/lancedb', 'the LanceDB vector store');
  const db = await lancedb.connect(path);
  try {
    const found: FoundTable[] = [];
    for (const name of (await db.tableNames()).sort()) {
      const table = await db.openTable(name);
      try {
        if (!(await table.schema()).metadata.has(LANCEDB_VERSION_KEY)) continue;
        found.push({ table: name, bytes: (await table.stats()).totalBytes });
      } finally {
        table.close();
      }
    }
    return found;
  } finally {
    db.close();
  }
}

async function tablesOf(location: StoreLocation): Promise<FoundTable[]> {
  switch (location.scheme) {
    case 'sqlite':
      return sqliteTables(location.path as string);
    case 'postgres':
      return postgresTables(location.url);
    case 'lancedb':
      return lanceTables(location.path as string);
    default:
      return []; // memory:// holds nothing past its process
  }
}

/**
 * Every RAG index (vector table) in the store a URL names, with its size: chunks, distinct sources,
 * characters, the embedder, and bytes where the backend can tell. SQLite and PostgreSQL tables are
 * the ones recorded in `agentlib_schema` as `rag:<table>`; LanceDB tables are the ones whose schema
 * carries agentlib's layout version. A `memory://` store, a missing SQLite file or LanceDB directory
 * hold none (nothing is created). Reads every chunk's text and metadata to count sources.
 */
export async function listIndexes(url: string, options: ListIndexesOptions = {}): Promise<{ backend: string; indexes: IndexInfo[] }> {
  const cwd = options.cwd ?? process.cwd();
  const location = parseStoreUrl(url, { allowed: ['memory', 'sqlite', 'postgres', 'lancedb'], what: 'vector store', cwd });
  const indexes: IndexInfo[] = [];
  for (const found of await tablesOf(location)) {
    const store = openVectorStore(url, { cwd, table: found.table });
    try {
      const sources = new Set<string>();
      const embedders = new Set<string>();
      let characters = 0;
      const documents = await store.list();
      for (const document of documents) {
        const source = documentSource(document);
        if (source !== undefined) sources.add(source);
        const embedder = document.metadata['embedder'];
        if (typeof embedder === 'string') embedders.add(embedder);
        characters += document.text.length;
      }
      const info: IndexInfo = { table: found.table, chunks: documents.length, sources: sources.size, characters };
      if (embedders.size > 0) info.embedder = [...embedders].sort().join(', ');
      if (found.bytes !== undefined) info.bytes = found.bytes;
      indexes.push(info);
    } finally {
      await store.close();
    }
  }
  return { backend: location.scheme, indexes };
}

