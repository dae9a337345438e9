import { readEmbedderName } from './embedder-field.js';
import { deref, report, type ReadContext } from './read-context.js';
import { readMapping } from './read-mapping.js';
import { bool, num, str, type FieldTable } from './readers.js';

/** `cache:` in an agent YAML file, validated. */
export interface CacheSettings {
  /** Where: `memory://`, `sqlite://` (default `.agentlib/agentlib.db`), `sqlite://path.db`, `redis://host:port`. */
  url: string;
  namespace?: string;
  maxSize?: number;
  /** Default TTL, seconds. */
  ttl?: number;
  /**
   * Serve paraphrases too (SemanticCache): over the agent provider's embeddings (`embedding_model`
   * picks its model), or over an embedder of its own (`embedder`, as in `retrieval:`).
   */
  semantic?: { threshold?: number; embeddingModel?: string; embedder?: string };
}

/** The schemes a cache URL may have (the storage module parses the rest when the cache is opened). */
const CACHE_SCHEMES = ['memory', 'sqlite', 'redis', 'rediss'];

/** A cache URL: one of CACHE_SCHEMES, reported at its position otherwise. */
function readCacheUrl(ctx: ReadContext, node: unknown, path: string): string | undefined {
  const url = str({ nonEmpty: true })(ctx, node, path);
  if (url === undefined) return undefined;
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(url)?.[1]?.toLowerCase();
  if (scheme !== undefined && CACHE_SCHEMES.includes(scheme)) return url;
  report(ctx, node, path, `"${path}" must be a cache store URL (${CACHE_SCHEMES.map((s) => `${s}://`).join(', ')}); got ${JSON.stringify(url)}`, { hint: 'e.g. sqlite://cache.db or redis://localhost:6379' });
  return undefined;
}

/** The cache URL `cache: true` means: the embedded SQLite default. */
export const DEFAULT_CACHE_URL = 'sqlite://';


const SEMANTIC_FIELDS: FieldTable = {
  threshold: { read: num({ min: 0, max: 1 }), type: 'number 0–1', default: '0.92', description: 'Cosine similarity a paraphrase needs.' },
  embedding_model: { read: str({ nonEmpty: true }), type: 'string', description: "Embedding model of the agent's provider (not with embedder)." },
  embedder: {
    read: readEmbedderName,
    type: 'string',
    description: "An embedder of the cache's own instead of the agent's provider: hashing[:dims], openai[:model], gemini[:model], ollama[:model], cohere[:model].",
  },
};

/** Keys of the `cache:` mapping form. */
export const CACHE_FIELDS: FieldTable = {
  url: { read: readCacheUrl, type: 'store URL', default: DEFAULT_CACHE_URL, description: 'memory://, sqlite:// (.agentlib/agentlib.db), sqlite://file.db, redis://host:port.' },
  namespace: { read: str({ nonEmpty: true }), type: 'string', default: 'default', description: 'Keeps agents sharing one store apart.' },
  max_size: { read: num({ integer: true, min: 1 }), type: 'integer ≥ 1', default: '1000', description: 'Entries kept (least recently used evicted).' },
  ttl: { read: num({ min: Number.MIN_VALUE }), type: 'number > 0 (seconds)', default: '300', description: 'Default time to live of an entry.' },
  semantic: { read: (ctx, node, path) => readSemantic(ctx, node, path), type: 'boolean | mapping', description: 'Also answer paraphrases (SemanticCache).', fields: SEMANTIC_FIELDS },
};

function readSemantic(ctx: ReadContext, node: unknown, path: string): CacheSettings['semantic'] | undefined {
  const target = deref(ctx, node);
  if (ctx.yaml.isScalar(target)) {
    const on = bool()(ctx, node, path);
    if (on === undefined) return undefined;
    if (!on) {
      report(ctx, node, path, `"${path}: false" is the default; remove the key`, { hint: 'write semantic: true or a mapping with threshold / embedding_model' });
      return undefined;
    }
    return {};
  }
  const settings = readMapping(ctx, node, path, SEMANTIC_FIELDS) as CacheSettings['semantic'];
  if (settings?.embedder !== undefined && settings.embeddingModel !== undefined) {
    report(ctx, node, path, `"${path}" takes embedding_model (the agent provider's model) or embedder (an embedder of its own), not both`, {
      hint: `name the model in the embedder: ${settings.embedder.split(':', 1)[0] ?? 'openai'}:${settings.embeddingModel}`,
    });
    return undefined;
  }
  return settings;
}

/**
 * `cache:` — a store URL (`cache: redis://localhost:6379`), `true` for the embedded SQLite default,
 * or a mapping `{ url, namespace, max_size, ttl, semantic }`. `cache: false` is refused (leave the
 * key out), so no value silently means "no cache".
 */
export function readCache(ctx: ReadContext, node: unknown, path: string): CacheSettings | undefined {
  const target = deref(ctx, node);
  if (ctx.yaml.isScalar(target)) {
    if (typeof target.value === 'boolean') {
      if (target.value) return { url: DEFAULT_CACHE_URL };
      report(ctx, node, path, '"cache: false" has no effect: an agent has no cache unless the key is there', { hint: 'remove the key' });
      return undefined;
    }
    const url = readCacheUrl(ctx, node, path);
    return url === undefined ? undefined : { url };
  }
  const settings = readMapping(ctx, node, path, CACHE_FIELDS);
  if (settings === undefined) return undefined;
  return { url: DEFAULT_CACHE_URL, ...settings };
}
