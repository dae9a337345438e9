import { readEmbedderName } from './embedder-field.js';
import { deref, report, type ReadContext } from './read-context.js';
import { readMapping } from './read-mapping.js';
import { num, oneOf, str, type FieldTable, type Reader } from './readers.js';

/** `retrieval:` (also written `rag:` or `knowledge:`) in an agent YAML file, validated. */
export interface RetrievalSettings {
  /** The index's vector store URL: `sqlite://[file.db]`, `postgres://…`, `lancedb://dir`. */
  store: string;
  /** Table (index) in the store. Default `agentlib_rag_vectors`. */
  table?: string;
  /** The embedder the index was built with (`agentlib rag index --embedder`). Default `hashing`. */
  embedder?: string;
  mode?: 'vector' | 'bm25' | 'hybrid';
  topK?: number;
  scoreThreshold?: number;
  toolName?: string;
  description?: string;
}

/** Store schemes an agent's index may live in (memory:// would hold nothing indexed by `agentlib rag index`). */
const SCHEMES = ['sqlite', 'postgres', 'postgresql', 'lancedb'];

const readStore: Reader<string> = (ctx, node, path) => {
  const url = str({ nonEmpty: true })(ctx, node, path);
  if (url === undefined) return undefined;
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(url)?.[1]?.toLowerCase();
  if (scheme !== undefined && SCHEMES.includes(scheme)) return url;
  const memory = scheme === 'memory' ? ': a memory:// store is empty in every new process, so nothing would be retrieved' : '';
  report(ctx, node, path, `"${path}" must be the URL of an index (sqlite://, postgres://, lancedb://); got ${JSON.stringify(url)}${memory}`, {
    hint: 'build it with agentlib rag index <docs> --store sqlite://kb.db, then write store: sqlite://kb.db',
  });
  return undefined;
};


/** Keys of the `retrieval:` mapping. */
export const RETRIEVAL_FIELDS: FieldTable = {
  store: { read: readStore, type: 'store URL', required: true, description: 'The index: sqlite://[file.db], postgres://…, lancedb://dir (built with `agentlib rag index`).' },
  table: { read: str({ nonEmpty: true }), type: 'string', default: 'agentlib_rag_vectors', description: 'Table (index) in the store (`agentlib rag index --table`).' },
  embedder: { read: readEmbedderName, type: 'string', default: 'hashing', description: 'The embedder the index was built with: hashing[:dims], openai[:model], gemini[:model], ollama[:model], cohere[:model].' },
  mode: { read: oneOf(['vector', 'bm25', 'hybrid'] as const), type: 'vector | bm25 | hybrid', default: 'vector', description: 'How the tool searches.' },
  top_k: { read: num({ integer: true, min: 1, max: 50 }), type: 'integer 1–50', default: '3', description: 'Passages per search when the model asks for no number.' },
  score_threshold: { read: num({ min: 0 }), type: 'number ≥ 0', default: '0', description: 'Passages scoring below this are dropped.' },
  tool_name: { read: str({ nonEmpty: true }), type: 'string', default: 'search_knowledge_base', description: 'Name of the retrieval tool the agent gets.' },
  description: { read: str({ nonEmpty: true }), type: 'string', description: 'Description of the retrieval tool (10–1024 characters).' },
};

/**
 * `retrieval:` — an index URL (`retrieval: sqlite://kb.db`) or a mapping
 * `{ store, table, embedder, mode, top_k, score_threshold, tool_name, description }`: the agent
 * gets a RAGTool over that index, citing sources.
 */
export function readRetrieval(ctx: ReadContext, node: unknown, path: string): RetrievalSettings | undefined {
  const target = deref(ctx, node);
  if (ctx.yaml.isScalar(target)) {
    const store = readStore(ctx, node, path);
    return store === undefined ? undefined : { store };
  }
  const settings = readMapping(ctx, node, path, RETRIEVAL_FIELDS);
  if (settings === undefined || typeof settings['store'] !== 'string') return undefined;
  return settings as unknown as RetrievalSettings;
}

const retrievalKeyOf = new WeakMap<ReadContext, string>();

/**
 * The reader of `retrieval:` and of its spec names `rag:` and `knowledge:` (one index per agent:
 * a second of these keys in one file is reported at its position).
 */
export function retrievalKey(key: string): Reader<RetrievalSettings> {
  return (ctx, node, path) => {
    const first = retrievalKeyOf.get(ctx);
    if (first !== undefined) {
      report(ctx, node, path, `"${key}" and "${first}" both configure retrieval; write one of them`, { hint: 'retrieval:, rag: and knowledge: are the same key' });
      return undefined;
    }
    retrievalKeyOf.set(ctx, key);
    return readRetrieval(ctx, node, path);
  };
}
