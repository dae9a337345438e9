import { ConfigurationError } from '../../core/errors/configuration-error.js';
import type { AgentUsage } from '../../core/usage.js';
import { documentSource, type SearchResult } from '../document.js';
import type { EmbeddingProvider } from '../embedders/embedding-provider.js';
import type { MetadataFilter } from '../filter/metadata-filter.js';
import type { BM25 } from '../keyword/bm25.js';
import type { Reranker } from '../rerankers/reranker.js';
import type { VectorStore } from '../stores/vector-store.js';

/** How the vector and keyword lists are combined. */
export const FusionMethod = {
  /** Reciprocal rank fusion: Σ weight / (k + rank), k = 60. Scores of the two sides are never compared. */
  RRF: 'rrf',
  /** Min-max normalise each side's scores to [0, 1], then a weighted sum. */
  WEIGHTED: 'weighted',
} as const;
/** A fusion method. */
export type FusionMethod = (typeof FusionMethod)[keyof typeof FusionMethod];

/** Options of {@link HybridSearcher}. */
export interface HybridSearcherOptions {
  store: VectorStore;
  embedder: EmbeddingProvider;
  bm25: BM25;
  /** Default RRF. */
  fusion?: FusionMethod;
  /** RRF's k. Default 60. */
  rrfK?: number;
  /** Weight of the vector side. Default 1 for RRF, 0.5 for WEIGHTED. */
  vectorWeight?: number;
  /** Weight of the keyword side. Default 1 for RRF, 0.5 for WEIGHTED. */
  keywordWeight?: number;
  /** Reorders the whole fused pool before the final top-k cut. */
  reranker?: Reranker;
}

/** Options of one hybrid search. */
export interface HybridSearchOptions {
  filter?: MetadataFilter;
  /** Candidates fetched from the vector store. Default 2 × topK. */
  vectorTopK?: number;
  /** Candidates fetched from BM25. Default 2 × topK. */
  keywordTopK?: number;
  signal?: AbortSignal;
  /** Receives the query embedding's tokens and cost. */
  usage?: AgentUsage;
}

/** The identity of a result for de-duplication: its text and source. */
function dedupKey(result: SearchResult): string {
  return `${documentSource(result.document) ?? ''}\u0000${result.document.text}`;
}

function positiveInt(value: number, key: string): number {
  if (!Number.isInteger(value) || value < 1) throw new ConfigurationError(`${key} must be a positive integer, got ${value}`, { key });
  return value;
}

/**
 * Vector search and BM25 together: each side fetches its own candidate pool (`vectorTopK`,
 * `keywordTopK`, 2 × topK by default), the lists are fused (RRF with k = 60, or WEIGHTED with
 * min-max normalisation), duplicates (same text and source) merged, the reranker (if any) reorders
 * the whole fused pool, and only then is the list cut to `topK`.
 */
export class HybridSearcher {
  readonly #options: HybridSearcherOptions;
  readonly #fusion: FusionMethod;
  readonly #k: number;
  readonly #wv: number;
  readonly #wk: number;

  constructor(options: HybridSearcherOptions) {
    this.#options = options;
    this.#fusion = options.fusion ?? FusionMethod.RRF;
    if (this.#fusion !== 'rrf' && this.#fusion !== 'weighted') throw new ConfigurationError(`fusion must be 'rrf' or 'weighted', got ${String(this.#fusion)}`, { key: 'fusion' });
    this.#k = options.rrfK ?? 60;
    const fallback = this.#fusion === 'rrf' ? 1 : 0.5;
    this.#wv = options.vectorWeight ?? fallback;
    this.#wk = options.keywordWeight ?? fallback;
    if (!(this.#k >= 0) || !(this.#wv >= 0) || !(this.#wk >= 0)) throw new ConfigurationError('rrfK and the weights must be numbers ≥ 0', { key: 'rrfK' });
  }

  async search(query: string, topK: number, options: HybridSearchOptions = {}): Promise<SearchResult[]> {
    positiveInt(topK, 'topK');
    const vectorTopK = positiveInt(options.vectorTopK ?? 2 * topK, 'vectorTopK');
    const keywordTopK = positiveInt(options.keywordTopK ?? 2 * topK, 'keywordTopK');
    const embedOptions = { purpose: 'query' as const, ...(options.signal ? { signal: options.signal } : {}), ...(options.usage ? { usage: options.usage } : {}) };
    const [embedding] = await this.#options.embedder.embed([query], embedOptions);
    const vector = await this.#options.store.search(embedding as number[], vectorTopK, options.filter);
    const keyword = this.#options.bm25.search(query, keywordTopK, options.filter);
    const fused = this.fuse(vector, keyword);
    const reranker = this.#options.reranker;
    if (reranker) return (await reranker.rerank(query, fused, topK, options.signal ? { signal: options.signal } : {})).slice(0, topK);
    return fused.slice(0, topK);
  }

  /** Fuses a vector and a keyword result list (each best first) into one de-duplicated list, best first. */
  fuse(vector: readonly SearchResult[], keyword: readonly SearchResult[]): SearchResult[] {
    const merged = new Map<string, { result: SearchResult; score: number; order: number }>();
    let order = 0;
    const addList = (list: readonly SearchResult[], weight: number): void => {
      const seen = new Set<string>();
      const scores = this.#fusion === 'rrf' ? list.map((_, rank) => weight / (this.#k + rank + 1)) : normalised(list).map((s) => weight * s);
      list.forEach((result, rank) => {
        const key = dedupKey(result);
        if (seen.has(key)) return; // a duplicate within one list counts once, at its best rank
        seen.add(key);
        const entry = merged.get(key);
        if (entry) entry.score += scores[rank] as number;
        else merged.set(key, { result, score: scores[rank] as number, order: order++ });
      });
    };
    addList(vector, this.#wv);
    addList(keyword, this.#wk);
    return [...merged.values()].sort((a, b) => b.score - a.score || a.order - b.order).map(({ result, score }) => ({ document: result.document, score }));
  }
}

/** Min-max normalised scores (all 1 when every score is equal). */
function normalised(list: readonly SearchResult[]): number[] {
  if (list.length === 0) return [];
  let min = Infinity;
  let max = -Infinity;
  for (const { score } of list) {
    min = Math.min(min, score);
    max = Math.max(max, score);
  }
  return list.map(({ score }) => (max === min ? 1 : (score - min) / (max - min)));
}
