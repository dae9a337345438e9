import { ConfigurationError } from '../core/errors/configuration-error.js';
import type { AgentUsage } from '../core/usage.js';
import type { Chunker } from './chunkers/chunker.js';
import { RecursiveTextSplitter } from './chunkers/recursive-text-splitter.js';
import { documentSource, type Document, type SearchResult } from './document.js';
import type { EmbeddingProvider } from './embedders/embedding-provider.js';
import type { MetadataFilter } from './filter/metadata-filter.js';
import { BM25 } from './keyword/bm25.js';
import type { Reranker } from './rerankers/reranker.js';
import { FusionMethod, HybridSearcher } from './search/hybrid-searcher.js';
import type { VectorStore } from './stores/vector-store.js';

/** How a search finds candidates. */
export type SearchMode = 'vector' | 'bm25' | 'hybrid';

/** Options of {@link KnowledgeBase}. */
export interface KnowledgeBaseOptions {
  store: VectorStore;
  embedder: EmbeddingProvider;
  /** Default a RecursiveTextSplitter (1,000 characters, 200 overlap). */
  chunker?: Chunker;
  /** Chunks per embedding call (the embedder batches further to its API's limit). Default 256. */
  embedBatchSize?: number;
  /** Fusion of hybrid searches. Default RRF. */
  fusion?: FusionMethod;
}

/** Progress of {@link KnowledgeBase.addDocuments}. */
export interface IndexProgress {
  chunks: number;
  embedded: number;
}

/** Options of {@link KnowledgeBase.addDocuments}. */
export interface AddOptions {
  signal?: AbortSignal;
  usage?: AgentUsage;
  onProgress?: (progress: IndexProgress) => void;
}

/** Options of {@link KnowledgeBase.search}. */
export interface KnowledgeSearchOptions {
  /** Results. Default 3. */
  topK?: number;
  /** Default 'vector'. */
  mode?: SearchMode;
  filter?: MetadataFilter;
  /** Results scoring below this are dropped (after reranking). Default 0. */
  scoreThreshold?: number;
  reranker?: Reranker;
  vectorTopK?: number;
  keywordTopK?: number;
  signal?: AbortSignal;
  usage?: AgentUsage;
}

/**
 * A searchable collection: documents are chunked, embedded in batches and written to a vector
 * store, and kept in a BM25 index for keyword and hybrid search. Chunk ids are `<source>#<n>`
 * (numbered across the documents of a source added together) when the documents have a source, so
 * indexing a file again replaces its chunks.
 */
export class KnowledgeBase {
  readonly store: VectorStore;
  readonly embedder: EmbeddingProvider;
  readonly chunker: Chunker;
  readonly #batch: number;
  readonly #fusion: FusionMethod;
  #bm25: BM25 | undefined;

  constructor(options: KnowledgeBaseOptions) {
    this.store = options.store;
    this.embedder = options.embedder;
    this.chunker = options.chunker ?? new RecursiveTextSplitter();
    this.#batch = options.embedBatchSize ?? 256;
    this.#fusion = options.fusion ?? FusionMethod.RRF;
    if (!Number.isInteger(this.#batch) || this.#batch < 1) throw new ConfigurationError(`embedBatchSize must be a positive integer, got ${this.#batch}`, { key: 'embedBatchSize' });
  }

  /** The BM25 index, built from the store's documents on first use. */
  async bm25(): Promise<BM25> {
    if (!this.#bm25) {
      const index = new BM25();
      index.add(await this.store.list());
      this.#bm25 = index;
    }
    return this.#bm25;
  }

  /** Chunks, embeds and stores documents; returns the chunk ids. */
  async addDocuments(documents: readonly Document[], options: AddOptions = {}): Promise<string[]> {
    // `<source>#<n>`, numbered across the documents of one source (the pages of a PDF, the rows of a CSV).
    const ordinal = new Map<string, number>();
    const chunks = (await this.chunker.split(documents)).map((chunk) => {
      const source = documentSource(chunk);
      if (source === undefined || chunk.id !== undefined || typeof chunk.metadata['chunk'] !== 'number') return chunk;
      const n = ordinal.get(source) ?? 0;
      ordinal.set(source, n + 1);
      return { ...chunk, id: `${source}#${n}` };
    });
    const ids: string[] = [];
    let embedded = 0;
    options.onProgress?.({ chunks: chunks.length, embedded });
    for (let start = 0; start < chunks.length; start += this.#batch) {
      options.signal?.throwIfAborted();
      const batch = chunks.slice(start, start + this.#batch);
      const embedOptions = { purpose: 'document' as const, ...(options.signal ? { signal: options.signal } : {}), ...(options.usage ? { usage: options.usage } : {}) };
      const vectors = await this.embedder.embed(
        batch.map((chunk) => chunk.text),
        embedOptions,
      );
      const added = await this.store.addDocuments(batch, vectors);
      ids.push(...added);
      this.#bm25?.add(batch.map((chunk, i) => ({ ...chunk, id: added[i] as string })));
      embedded += batch.length;
      options.onProgress?.({ chunks: chunks.length, embedded });
    }
    return ids;
  }

  /** Removes chunks by id. */
  async delete(ids: readonly string[]): Promise<void> {
    await this.store.delete(ids);
    this.#bm25?.delete(ids);
  }

  /** Searches by vector, keyword (BM25) or both (hybrid); reranks when a reranker is given; drops results under `scoreThreshold`. */
  async search(query: string, options: KnowledgeSearchOptions = {}): Promise<SearchResult[]> {
    const topK = options.topK ?? 3;
    const threshold = options.scoreThreshold ?? 0;
    const mode = options.mode ?? 'vector';
    let results: SearchResult[];
    if (mode === 'hybrid') {
      const searcher = new HybridSearcher({ store: this.store, embedder: this.embedder, bm25: await this.bm25(), fusion: this.#fusion, ...(options.reranker ? { reranker: options.reranker } : {}) });
      const hybridOptions = {
        ...(options.filter ? { filter: options.filter } : {}),
        ...(options.vectorTopK !== undefined ? { vectorTopK: options.vectorTopK } : {}),
        ...(options.keywordTopK !== undefined ? { keywordTopK: options.keywordTopK } : {}),
        ...(options.signal ? { signal: options.signal } : {}),
        ...(options.usage ? { usage: options.usage } : {}),
      };
      results = await searcher.search(query, topK, hybridOptions);
    } else {
      const pool = options.reranker ? Math.max(topK, mode === 'vector' ? (options.vectorTopK ?? 2 * topK) : (options.keywordTopK ?? 2 * topK)) : topK;
      if (mode === 'bm25') results = (await this.bm25()).search(query, pool, options.filter);
      else if (mode === 'vector') {
        const embedOptions = { purpose: 'query' as const, ...(options.signal ? { signal: options.signal } : {}), ...(options.usage ? { usage: options.usage } : {}) };
        const [vector] = await this.embedder.embed([query], embedOptions);
        results = await this.store.search(vector as number[], pool, options.filter);
      } else throw new ConfigurationError(`search mode must be vector, bm25 or hybrid, got ${String(mode)}`, { key: 'mode' });
      if (options.reranker) results = await options.reranker.rerank(query, results, topK, options.signal ? { signal: options.signal } : {});
      results = results.slice(0, topK);
    }
    return results.filter((result) => result.score >= threshold);
  }
}
