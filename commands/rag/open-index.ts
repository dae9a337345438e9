import { UsageError } from '../../cli/usage-error.js';
import { FilterError } from '../../lib/core/errors/filter-error.js';
import { StorageUrlError } from '../../lib/storage/errors/index.js';
import type { CommandArguments } from '../command-module.js';
import { RecursiveTextSplitter } from '../../lib/rag/chunkers/recursive-text-splitter.js';
import { createEmbedder, DEFAULT_EMBEDDER } from '../../lib/rag/embedders/create-embedder.js';
import { KnowledgeBase } from '../../lib/rag/knowledge-base.js';
import { openVectorStore } from '../../lib/rag/stores/open-vector-store.js';

/** The default `--store`: the project's `.agentlib/agentlib.db`. */
export const DEFAULT_RAG_STORE = 'sqlite://';

function optionalNumber(args: CommandArguments, key: string, flag: string, min: number): number | undefined {
  const value = args[key];
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min) throw new UsageError(`--${flag} must be an integer ≥ ${min}, got ${JSON.stringify(value)}`);
  return value;
}

/** The knowledge base `--store`, `--table`, `--embedder` and the chunking flags describe. */
export async function openIndex(args: CommandArguments, cwd: string): Promise<{ kb: KnowledgeBase; url: string }> {
  const url = typeof args.store === 'string' && args.store !== '' ? args.store : DEFAULT_RAG_STORE;
  const table = typeof args.table === 'string' ? { table: args.table } : {};
  const chunkSize = optionalNumber(args, 'chunkSize', 'chunk-size', 1);
  const chunkOverlap = optionalNumber(args, 'chunkOverlap', 'chunk-overlap', 0);
  // LanceDB's native logger prints a warning when it creates a table; keep stderr for our progress.
  process.env['LANCEDB_LOG'] ??= 'error';
  let store;
  try {
    store = openVectorStore(url, { cwd, ...table });
  } catch (error) {
    if (StorageUrlError.isInstance(error)) throw new UsageError(`--store: ${error.message}`);
    throw error;
  }
  const embedder = await createEmbedder(typeof args.embedder === 'string' ? args.embedder : DEFAULT_EMBEDDER);
  const chunker = new RecursiveTextSplitter({ ...(chunkSize === undefined ? {} : { chunkSize }), ...(chunkOverlap === undefined ? {} : { chunkOverlap }) });
  return { kb: new KnowledgeBase({ store, embedder, chunker }), url };
}

/** `--filter` parsed (JSON); a bad one is a usage error. */
export function parseFilter(value: unknown): Record<string, unknown> | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw new UsageError('--filter takes one JSON object');
  try {
    const parsed = JSON.parse(value) as unknown;
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new FilterError('the filter must be a JSON object', { kind: 'invalid-value', at: 'filter' });
    return parsed as Record<string, unknown>;
  } catch (error) {
    throw new UsageError(`--filter: ${(error as Error).message}`);
  }
}

/** Rethrows a FilterError (from the store) as a usage error. */
export function usageOnFilterError(error: unknown): never {
  if (FilterError.isInstance(error)) throw new UsageError(`--filter: ${error.message}`);
  throw error;
}
