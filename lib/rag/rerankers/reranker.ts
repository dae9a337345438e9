import type { SearchResult } from '../document.js';

/** Options of one rerank call. */
export interface RerankOptions {
  signal?: AbortSignal;
}

/** Reorders search results by relevance to the query; returns the best `topK` with the reranker's scores. */
export interface Reranker {
  readonly name: string;
  rerank(query: string, results: readonly SearchResult[], topK: number, options?: RerankOptions): Promise<SearchResult[]>;
}
