import type { Triple, TripleQuery } from './triple.js';

/**
 * Where KnowledgeGraphMemory keeps its relationships. A triple is identified by subject, relation
 * and object (cleaned, case-insensitive); adding a known one keeps the higher confidence. Reads
 * come highest confidence first. A namespace (checked as a store id) keeps the graphs of different
 * agents apart. Backends: MemoryTripleStore, SQLiteTripleStore; one conformance file tests both.
 */
export interface TripleStore {
  readonly namespace: string;
  /** Adds or confirms triples; returns how many were new. */
  add(triples: readonly Triple[]): Promise<number>;
  /** Triples matching every given field (all of them for `{}`). */
  query(query?: TripleQuery): Promise<Triple[]>;
  /**
   * Triples with at least one of `keywords` (lower-case words) as a whole word in a field, most
   * keywords matched first, then by confidence.
   */
  search(keywords: readonly string[], limit?: number): Promise<Triple[]>;
  /** Deletes the triples matching every given field (a query with no field is refused); returns how many. */
  delete(query: Omit<TripleQuery, 'limit'>): Promise<number>;
  /** Number of triples. */
  count(): Promise<number>;
  /** Deletes every triple of the namespace. */
  clear(): Promise<void>;
  /** Releases the connection; the store is unusable afterwards. */
  close(): Promise<void>;
}
