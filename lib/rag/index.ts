/**
 * agentlib/rag: retrieval-augmented generation. Documents and search results, metadata filters,
 * BM25 keyword search, and the web helpers the loaders use (SSRF-safe fetch, HTML to text).
 * Optional drivers (pdfjs-dist, sqlite-vec, pg, pgvector, @lancedb/lancedb) load lazily, only when
 * the loader or store that needs them is used.
 */
export { documentSource, makeDocument, type Document, type Metadata, type MetadataScalar, type SearchResult } from './document.js';
export {
  compileFilter,
  FILTER_KEY_PATTERN,
  matchesFilter,
  requireOperators,
  type ComparisonOperator,
  type FieldCondition,
  type FilterNode,
  type MetadataFilter,
} from './filter/metadata-filter.js';
export { TopK } from './top-k.js';
export { BM25, type BM25Options } from './keyword/bm25.js';
export { bm25Idf, bm25TermScore, DEFAULT_BM25, type BM25Parameters } from './keyword/bm25-score.js';
export { bm25Tokens, ENGLISH_STOP_WORDS, type TokenizeOptions } from './keyword/tokenize.js';
export { bestSnippet, KeywordIndex, keywordTerms, stem, type ScoredItem, type WeightedField } from './keyword/keyword-index.js';
export { decodeEntities, htmlTitle, htmlToText } from './web/html-to-text.js';
export { isPrivateAddress, nonPublicReason, parseIpv4, parseIpv6 } from './web/ip-address.js';
export { safeFetch, UrlRefusedError, type SafeFetchOptions, type SafeFetchResult } from './web/safe-fetch.js';
export { FilterError } from '../core/errors/filter-error.js';
export { VectorStoreError } from '../core/errors/vector-store-error.js';
export { globToRegExp } from './loaders/path-glob.js';
export { IgnoreRules } from './loaders/ignore-file.js';
export { htmlDocument, loadHtml, loadMarkdown, loadText, splitFrontMatter, type FileLoadOptions } from './loaders/text-loaders.js';
export { loadCsv, parseCsv, type CsvLoadOptions } from './loaders/csv-loader.js';
export { loadJson, loadJsonl, valueAt, type JsonLoadOptions } from './loaders/json-loader.js';
export { loadPdf, pdfPages } from './loaders/pdf-loader.js';
export { loadUrl, type UrlLoadOptions } from './loaders/url-loader.js';
export { loadFile, LOADERS, type LoadFileOptions } from './loaders/load-file.js';
export { DEFAULT_INCLUDE, listDirectory, loadDirectory, type DirectoryLoadOptions } from './loaders/directory-loader.js';
export { chunkOf, type Chunker } from './chunkers/chunker.js';
export { TextSplitter, type TextSplitterOptions } from './chunkers/text-splitter.js';
export { RecursiveTextSplitter, type RecursiveTextSplitterOptions } from './chunkers/recursive-text-splitter.js';
export { SemanticChunker, type SemanticChunkerOptions } from './chunkers/semantic-chunker.js';
export { CONTEXT_PREFIX, ContextualChunker, type ContextualChunkerOptions } from './chunkers/contextual-chunker.js';
export { sentenceSpans } from './chunkers/sentences.js';
export { cosineSimilarity, type EmbedOptions, type EmbeddingProvider } from './embedders/embedding-provider.js';
export { HashingEmbedder, type HashingEmbedderOptions } from './embedders/hashing-embedder.js';
export { ProviderEmbedder, type ProviderEmbedderOptions } from './embedders/provider-embedder.js';
export type { VectorStore } from './stores/vector-store.js';
export { InMemoryVectorStore, type InMemoryVectorStoreOptions } from './stores/memory-vector-store.js';
export type { Reranker, RerankOptions } from './rerankers/reranker.js';
export { FusionMethod, HybridSearcher, type HybridSearcherOptions, type HybridSearchOptions } from './search/hybrid-searcher.js';
export { filterToSql, type SqlDialect } from './filter/sql-filter.js';
export { PostgresVectorStore, type PostgresQueryable, type PostgresVectorStoreOptions } from './stores/postgres-vector-store.js';
export { KnowledgeBase, type AddOptions, type IndexProgress, type KnowledgeBaseOptions, type KnowledgeSearchOptions, type SearchMode } from './knowledge-base.js';
export { citation, HybridSearchTool, RAGTool, SemanticSearchTool, type CitedPassage, type RagToolOptions } from './tools/rag-tools.js';
export { RunUsageLink } from './tools/run-usage.js';
export { RAGAgent, type RAGAgentOptions } from './rag-agent.js';
export { SqliteVectorStore, type SqliteVectorStoreOptions } from './stores/sqlite-vector-store.js';
export { JinaReranker, type JinaRerankerOptions } from './rerankers/jina-reranker.js';
export { COHERE_EMBED_BATCH, CohereEmbedder, CohereReranker, type CohereOptions } from './cohere.js';
export { openVectorStore, type OpenVectorStoreOptions } from './stores/open-vector-store.js';
export { LanceDBVectorStore, type LanceDBVectorStoreOptions } from './stores/lancedb-vector-store.js';
export { indexSources, type IndexSourcesOptions, type IndexSourcesProgress, type IndexSourcesReport } from './indexer.js';
export { listIndexes, type IndexInfo, type ListIndexesOptions } from './stores/list-indexes.js';
export { createEmbedder, DEFAULT_EMBEDDER, EMBEDDER_KINDS, type CreateEmbedderOptions } from './embedders/create-embedder.js';
