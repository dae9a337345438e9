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
