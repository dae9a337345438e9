import { performance } from 'node:perf_hooks';
import { ConfigurationError } from '../core/errors/configuration-error.js';
import type { EmbedRequest, EmbedResponse } from '../providers/spec.js';
import { CacheStatsCounter } from './cache-stats.js';
import { checkTtl, resolveCacheOptions, type ResolvedCacheOptions } from './cache-options.js';
import { cosineSimilarity } from './cosine.js';
import { InMemoryCache } from './in-memory-cache.js';
import { sameSalientTokens, salientTokens } from './salient-tokens.js';
import type { Cache, CacheHint, CacheOptions, CacheStats } from './types.js';
import { negationCount } from './negation.js';
import { roleTokens, swapsRoles } from './role-order.js';
import { contentWords, swapsWords } from './word-swaps.js';

/** Anything that embeds texts: a Provider with `embed` (OpenAI, Gemini, Ollama, ScriptedProvider…). */
export interface EmbeddingProvider {
  embed?(request: EmbedRequest): Promise<EmbedResponse>;
}

/** Options of a SemanticCache. */
export interface SemanticCacheOptions extends CacheOptions {
  /** Cosine similarity at or above which a stored question answers a new one. Default 0.92. */
  similarityThreshold?: number;
  /** Embedding model passed to the provider (its default when unset). */
  embeddingModel?: string;
  /**
   * Where values live and exact keys are looked up first. Default: an InMemoryCache with the same
   * `maxSize`, `defaultTtl` and clock. A persistent cache here keeps exact hits across restarts
   * (the similarity index itself is in memory).
   */
  exact?: Cache;
  /**
   * Refuse a similar question whose numbers, quoted strings or names differ (see salientTokens).
   * Default true: a wrong cached answer is worse than a miss.
   */
  matchSalientTokens?: boolean;
  /**
   * Refuse a similar question that swaps a content word of the stored one for another ("enable" /
   * "disable", "gold" / "silver", "password" / "username"; see swapsWords): sentence embeddings
   * score such minimal pairs close together. Default true. Costs the paraphrases that use a
   * synonym ("built" / "constructed"), which then miss.
   */
  refuseWordSwaps?: boolean;
  /**
   * Refuse a similar question that gives the same words other roles: "from London to Paris" /
   * "from Paris to London", "did Brazil beat Germany" / "did Germany beat Brazil" (see swapsRoles).
   * Default true. Costs the paraphrases that reorder words without moving a whole phrase
   * ("the tallest mountain" / "which mountain is the tallest").
   */
  refuseRoleSwaps?: boolean;
  /**
   * Refuse a similar question with a different number of negations ("which plans include support"
   * / "which plans do not include support"; see negationCount). Default true.
   */
  matchNegations?: boolean;
}

/** CacheStats (evictions: those of the exact cache, where the values live) plus how many hits came from similarity. */
export interface SemanticCacheStats extends CacheStats {
  semanticHits: number;
}

/** The best stored question for a lookup, as `nearest` reports it. */
export interface SemanticMatch {
  key: string;
  text: string;
  similarity: number;
  /** False when the salient-token check refused it (always true with the check off). */
  salientMatch: boolean;
  /** True when the word-swap check refused it (always false with the check off). */
  wordSwap: boolean;
  /** True when the role-order check refused it (always false with the check off). */
  roleSwap: boolean;
  /** True when the negation check refused it (always false with the check off). */
  negationMismatch: boolean;
}

interface IndexEntry {
  key: string;
  scope: string;
  text: string;
  vector: number[];
  salient: string[];
  words: string[];
  roles: string[];
  negations: number;
  expiresAt: number;
}

/** REFERENCE.md §1 / the spec's Limits: SemanticCache threshold 0.92. */
export const DEFAULT_SIMILARITY_THRESHOLD = 0.92;

/**
 * A response cache that also answers paraphrases. The exact key is checked first; on a miss, the
 * last user message (the hint's `text`) is embedded and compared by cosine similarity with the
 * questions stored under the same scope: same model, system prompt, tools, sampling settings and
 * earlier messages. A stored question at or above the threshold whose numbers and names match
 * serves its reply, unless it swaps a content word for another (see `refuseWordSwaps`), gives the
 * same words other roles (`refuseRoleSwaps`) or negates it (`matchNegations`). Tool
 * results and lookups without a hint are exact only.
 */
export class SemanticCache implements Cache {
  readonly threshold: number;
  readonly #provider: EmbeddingProvider;
  readonly #options: ResolvedCacheOptions;
  readonly #exact: Cache;
  readonly #model: string | undefined;
  readonly #checkSalient: boolean;
  readonly #checkSwaps: boolean;
  readonly #checkRoles: boolean;
  readonly #checkNegations: boolean;
  readonly #index = new Map<string, IndexEntry>();
  readonly #stats = new CacheStatsCounter();
  #semanticHits = 0;
  /** The last text embedded on a miss: the `set` after the LLM call reuses its vector. */
  #lastEmbedded: { text: string; vector: number[] } | undefined;

  constructor(embeddingProvider: EmbeddingProvider, options: SemanticCacheOptions = {}) {
    if (typeof embeddingProvider.embed !== 'function') throw new ConfigurationError('SemanticCache needs a provider with embed() (an embeddings-capable provider)');
    const threshold = options.similarityThreshold ?? DEFAULT_SIMILARITY_THRESHOLD;
    if (!(threshold > 0 && threshold <= 1)) throw new ConfigurationError(`SemanticCache: similarityThreshold must be in (0, 1], got ${String(threshold)}`);
    this.threshold = threshold;
    this.#provider = embeddingProvider;
    this.#options = resolveCacheOptions('SemanticCache', options, () => performance.now());
    this.#exact = options.exact ?? new InMemoryCache({ maxSize: this.#options.maxSize, defaultTtl: this.#options.defaultTtl, now: this.#options.now });
    this.#model = options.embeddingModel;
    this.#checkSalient = options.matchSalientTokens ?? true;
    this.#checkSwaps = options.refuseWordSwaps ?? true;
    this.#checkRoles = options.refuseRoleSwaps ?? true;
    this.#checkNegations = options.matchNegations ?? true;
  }

  async get(key: string, hint?: CacheHint): Promise<unknown> {
    const exact = await this.#exact.get(key, hint);
    if (exact !== undefined) return this.#stats.record(exact);
    if (hint?.kind !== 'response' || hint.text === undefined || hint.scope === undefined) return this.#stats.record(undefined);
    const match = await this.nearest(hint.text, hint.scope);
    if (match === undefined || match.similarity < this.threshold || !match.salientMatch || match.wordSwap || match.roleSwap || match.negationMismatch) {
      return this.#stats.record(undefined);
    }
    const value = await this.#exact.get(match.key);
    if (value === undefined) {
      this.#index.delete(match.key);
      return this.#stats.record(undefined);
    }
    this.#semanticHits += 1;
    return this.#stats.record(value);
  }

  /**
   * The most similar live question stored under `scope` (whatever the threshold), or undefined
   * when there is none. Embeds `text` once.
   */
  async nearest(text: string, scope: string): Promise<SemanticMatch | undefined> {
    const now = this.#options.now();
    const candidates = [...this.#index.values()].filter((entry) => entry.scope === scope && entry.expiresAt > now);
    if (candidates.length === 0) return undefined;
    const vector = await this.#embed(text);
    const salient = salientTokens(text);
    const words = contentWords(text);
    const roles = roleTokens(text);
    const negations = negationCount(text);
    let best: SemanticMatch | undefined;
    for (const entry of candidates) {
      const similarity = cosineSimilarity(vector, entry.vector);
      if (best === undefined || similarity > best.similarity) {
        best = {
          key: entry.key,
          text: entry.text,
          similarity,
          salientMatch: !this.#checkSalient || sameSalientTokens(salient, entry.salient),
          wordSwap: this.#checkSwaps && swapsWords(words, entry.words),
          roleSwap: this.#checkRoles && swapsRoles(roles, entry.roles),
          negationMismatch: this.#checkNegations && negations !== entry.negations,
        };
      }
    }
    return best;
  }

  async set(key: string, value: unknown, ttlSeconds?: number, hint?: CacheHint): Promise<void> {
    const ttl = ttlSeconds === undefined ? this.#options.defaultTtl : checkTtl('SemanticCache', ttlSeconds);
    await this.#exact.set(key, value, ttl, hint);
    if (hint?.kind !== 'response' || hint.text === undefined || hint.scope === undefined) return;
    const vector = await this.#embed(hint.text);
    this.#index.delete(key);
    const text = hint.text;
    this.#index.set(key, {
      key,
      scope: hint.scope,
      text,
      vector,
      salient: salientTokens(text),
      words: contentWords(text),
      roles: roleTokens(text),
      negations: negationCount(text),
      expiresAt: this.#options.now() + ttl * 1000,
    });
    // The index mirrors the stored values; an entry dropped here is counted where its value goes (the exact cache).
    for (const oldest of this.#index.keys()) {
      if (this.#index.size <= this.#options.maxSize) break;
      this.#index.delete(oldest);
    }
  }

  async #embed(text: string): Promise<number[]> {
    if (this.#lastEmbedded?.text === text) return this.#lastEmbedded.vector;
    const request: EmbedRequest = this.#model === undefined ? { texts: [text] } : { texts: [text], model: this.#model };
    if (this.#provider.embed === undefined) throw new ConfigurationError('SemanticCache needs a provider with embed()');
    const response = await this.#provider.embed(request);
    const vector = response.embeddings[0];
    if (vector === undefined) throw new ConfigurationError('SemanticCache: the embedding provider returned no vector');
    this.#lastEmbedded = { text, vector };
    return vector;
  }

  async delete(key: string): Promise<boolean> {
    this.#index.delete(key);
    return this.#exact.delete(key);
  }

  async clear(): Promise<void> {
    this.#index.clear();
    this.#lastEmbedded = undefined;
    await this.#exact.clear();
  }

  stats(): SemanticCacheStats {
    return { ...this.#stats.snapshot(), evictions: this.#exact.stats().evictions, semanticHits: this.#semanticHits };
  }

  resetStats(): void {
    this.#stats.reset();
    this.#exact.resetStats();
    this.#semanticHits = 0;
  }

  close(): Promise<void> {
    return this.#exact.close();
  }
}
