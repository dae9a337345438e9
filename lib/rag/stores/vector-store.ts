import { randomUUID } from 'node:crypto';
import { VectorStoreError } from '../../core/errors/vector-store-error.js';
import type { Document, SearchResult } from '../document.js';
import type { MetadataFilter } from '../filter/metadata-filter.js';

/**
 * Where chunks and their embeddings live. Scores are cosine similarities (1 = same direction).
 * Every backend passes test/lib/rag/vector-store-conformance.test.ts.
 */
export interface VectorStore {
  /** The backend: `memory`, `sqlite`, `postgres`, `lancedb`. */
  readonly backend: string;
  /**
   * Adds (or replaces, by `document.id`) documents with one embedding each; returns their ids
   * (the document's own, else a new UUID). Written in batches, never one statement per row.
   */
  addDocuments(documents: readonly Document[], embeddings: readonly (readonly number[])[]): Promise<string[]>;
  /** The `topK` documents most similar to `queryEmbedding` that pass `filter`, best first. */
  search(queryEmbedding: readonly number[], topK: number, filter?: MetadataFilter): Promise<SearchResult[]>;
  /** Removes documents by id (unknown ids are ignored). */
  delete(ids: readonly string[]): Promise<void>;
  /** Removes every document. */
  clear(): Promise<void>;
  /** Documents stored. */
  count(): Promise<number>;
  /** Every stored document (for rebuilding a BM25 index over a persisted store), in id order. */
  list(): Promise<Document[]>;
  /** Releases connections (a no-op for the in-memory store). */
  close(): Promise<void>;
}

/** Checks an addDocuments call and gives each document its id; throws VectorStoreError. */
export function prepareAdd(
  backend: string,
  documents: readonly Document[],
  embeddings: readonly (readonly number[])[],
  dimensions: number | undefined,
): { ids: string[]; dimensions: number | undefined } {
  if (documents.length !== embeddings.length) {
    throw new VectorStoreError(`addDocuments got ${documents.length} documents and ${embeddings.length} embeddings`, { store: backend });
  }
  let dim = dimensions;
  const ids: string[] = [];
  const seen = new Set<string>();
  embeddings.forEach((embedding, i) => {
    dim ??= embedding.length;
    if (embedding.length !== dim || dim === 0) {
      throw new VectorStoreError(`embedding ${i} has ${embedding.length} dimensions; this store holds ${dim}`, { store: backend });
    }
    for (const value of embedding) if (!Number.isFinite(value)) throw new VectorStoreError(`embedding ${i} holds a non-finite number`, { store: backend });
    const id = documents[i]?.id ?? randomUUID();
    if (seen.has(id)) throw new VectorStoreError(`id ${id} appears twice in one addDocuments call`, { store: backend });
    seen.add(id);
    ids.push(id);
  });
  return { ids, dimensions: dim };
}

/** Checks a query vector against the store's dimensions. */
export function checkQuery(backend: string, query: readonly number[], dimensions: number | undefined): void {
  if (dimensions !== undefined && query.length !== dimensions) {
    throw new VectorStoreError(`query embedding has ${query.length} dimensions; this store holds ${dimensions}`, { store: backend });
  }
}
