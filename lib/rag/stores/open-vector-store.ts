import { parseStoreUrl } from '../../storage/store-url.js';
import { LanceDBVectorStore } from './lancedb-vector-store.js';
import { InMemoryVectorStore } from './memory-vector-store.js';
import { PostgresVectorStore } from './postgres-vector-store.js';
import { SqliteVectorStore } from './sqlite-vector-store.js';
import type { VectorStore } from './vector-store.js';

/** Options of {@link openVectorStore}. */
export interface OpenVectorStoreOptions {
  /** Table of the SQL and LanceDB stores. Default `agentlib_rag_vectors`. */
  table?: string;
  /** The directory relative `sqlite://` and `lancedb://` paths resolve against. Default the working directory. */
  cwd?: string;
}

/**
 * The vector store a URL names: `memory://`, `sqlite://` (the project's `.agentlib/agentlib.db`),
 * `sqlite://kb.db`, `sqlite:///abs/kb.db`, `postgres://user@host/db`, `lancedb://dir` (a LanceDB
 * database directory). Any other scheme is a StorageUrlError listing these.
 */
export function openVectorStore(url: string, options: OpenVectorStoreOptions = {}): VectorStore {
  const location = parseStoreUrl(url, { allowed: ['memory', 'sqlite', 'postgres', 'lancedb'], what: 'vector store', ...(options.cwd ? { cwd: options.cwd } : {}) });
  const table = options.table === undefined ? {} : { table: options.table };
  switch (location.scheme) {
    case 'sqlite':
      return new SqliteVectorStore({ path: location.path as string, ...table });
    case 'lancedb':
      return new LanceDBVectorStore({ path: location.path as string, ...table });
    case 'postgres':
      return new PostgresVectorStore({ url: location.url, ...table });
    default:
      return new InMemoryVectorStore();
  }
}
