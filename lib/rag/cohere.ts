import { ProviderConfigurationError } from '../core/errors/provider-configuration-error.js';
import { ProviderError } from '../core/errors/provider-error.js';
import { makeUsage } from '../core/usage.js';
import { priceEmbedding } from '../providers/models/pricing.js';
import { providerHttpError, providerTransportError } from '../providers/provider-errors.js';
import { DEFAULT_RETRY, withRetry, type RetryOptions } from '../providers/retry.js';
import { loadOptional } from '../storage/optional-module.js';
import type { SearchResult } from './document.js';
import type { EmbedOptions, EmbeddingProvider } from './embedders/embedding-provider.js';
import type { Reranker, RerankOptions } from './rerankers/reranker.js';

/** Options shared by the Cohere embedder and reranker. */
export interface CohereOptions {
  /** API key; default the CO_API_KEY (or COHERE_API_KEY) environment variable. */
  apiKey?: string;
  /** Model. Defaults: `embed-v4.0` (embedder), `rerank-v3.5` (reranker). */
  model?: string;
  /** API origin (tests, proxies). Default Cohere's. */
  baseUrl?: string;
  /** Retry policy (the agent's defaults); the SDK's own retries are off, so they never stack. */
  retry?: RetryOptions;
  /** Time limit of one request in seconds. Default 60. */
  timeoutSeconds?: number;
}

/** Texts per embed request (the API's limit). */
export const COHERE_EMBED_BATCH = 96;

interface CohereClient {
  embed(request: Record<string, unknown>, options?: Record<string, unknown>): Promise<{ embeddings: { float?: number[][] }; meta?: { billedUnits?: { inputTokens?: number } } }>;
  rerank(request: Record<string, unknown>, options?: Record<string, unknown>): Promise<{ results: { index: number; relevanceScore: number }[] }>;
}
interface CohereModule {
  CohereClientV2: new (options: Record<string, unknown>) => CohereClient;
  CohereError: new (...args: never[]) => Error & { statusCode?: number; body?: unknown; rawResponse?: { headers?: Headers } };
  CohereTimeoutError: new (...args: never[]) => Error;
}

function apiKey(options: CohereOptions): string {
  const key = options.apiKey ?? process.env['CO_API_KEY'] ?? process.env['COHERE_API_KEY'];
  if (key === undefined || key === '') throw new ProviderConfigurationError('Cohere needs an API key: pass apiKey or set CO_API_KEY', { provider: 'cohere', keyVariables: ['CO_API_KEY', 'COHERE_API_KEY'] });
  return key;
}

/** Cohere's SDK client (cohere-ai, an optional dependency loaded on first use). */
class CohereCall {
  readonly #options: CohereOptions;
  readonly #key: string;
  #client: Promise<{ client: CohereClient; sdk: CohereModule }> | undefined;

  constructor(options: CohereOptions) {
    this.#options = options;
    this.#key = apiKey(options);
  }

  /** Runs one SDK call under the agent's retry policy, mapping SDK errors to ProviderErrors. */
  async run<T>(model: string, fn: (client: CohereClient, requestOptions: Record<string, unknown>) => Promise<T>, signal: AbortSignal | undefined): Promise<T> {
    this.#client ??= loadOptional<CohereModule>('cohere-ai', 'the Cohere embedder and reranker').then((sdk) => ({
      sdk,
      client: new sdk.CohereClientV2({ token: this.#key, maxRetries: 0, ...(this.#options.baseUrl ? { baseUrl: this.#options.baseUrl } : {}) }),
    }));
    const { client, sdk } = await this.#client;
    return withRetry(
      async (_n, context) => {
        const attemptSignal = context.signal ?? signal;
        try {
          return await fn(client, { maxRetries: 0, timeoutInSeconds: this.#options.timeoutSeconds ?? 60, ...(attemptSignal ? { abortSignal: attemptSignal } : {}) });
        } catch (error) {
          if (ProviderError.isInstance(error) || attemptSignal?.aborted) throw error;
          if (error instanceof sdk.CohereTimeoutError) throw providerTransportError('cohere', 'timeout', error.message, { model, cause: error });
          if (error instanceof sdk.CohereError && error.statusCode !== undefined) {
            const body = error.body as { message?: unknown } | undefined;
            const message = typeof body?.message === 'string' ? body.message : error.message;
            throw providerHttpError({ provider: 'cohere', status: error.statusCode, message, model, ...(error.rawResponse?.headers ? { headers: error.rawResponse.headers } : {}), cause: error });
          }
          throw providerTransportError('cohere', 'connection', error instanceof Error ? error.message : String(error), { model, cause: error });
        }
      },
      { ...DEFAULT_RETRY, ...this.#options.retry },
      signal ? { provider: 'cohere', signal } : { provider: 'cohere' },
    );
  }
}

/**
 * Cohere embeddings on its official SDK (`cohere-ai`, v2 API): 96 texts per request, input type
 * `search_document` or `search_query` by purpose, float vectors; billed tokens into the usage.
 */
export class CohereEmbedder implements EmbeddingProvider {
  readonly name: string;
  readonly #call: CohereCall;
  readonly #model: string;
  #dimensions: number | undefined;

  constructor(options: CohereOptions & { dimensions?: number } = {}) {
    this.#call = new CohereCall(options);
    this.#model = options.model ?? 'embed-v4.0';
    this.#dimensions = options.dimensions;
    this.name = `cohere:${this.#model}`;
  }

  get dimensions(): number | undefined {
    return this.#dimensions;
  }

  async embed(texts: readonly string[], options: EmbedOptions = {}): Promise<number[][]> {
    const out: number[][] = [];
    let tokens = 0;
    for (let start = 0; start < texts.length; start += COHERE_EMBED_BATCH) {
      const batch = texts.slice(start, start + COHERE_EMBED_BATCH);
      const request: Record<string, unknown> = {
        model: this.#model,
        texts: batch,
        inputType: options.purpose === 'query' ? 'search_query' : 'search_document',
        embeddingTypes: ['float'],
        ...(this.#dimensions !== undefined ? { outputDimension: this.#dimensions } : {}),
      };
      const reply = await this.#call.run(this.#model, (client, requestOptions) => client.embed(request, requestOptions), options.signal);
      const vectors = reply.embeddings.float ?? [];
      if (vectors.length !== batch.length) throw providerTransportError('cohere', 'stream', `embed reply has ${vectors.length} vectors for ${batch.length} texts`, { model: this.#model, retryable: false });
      out.push(...vectors);
      tokens += reply.meta?.billedUnits?.inputTokens ?? 0;
    }
    this.#dimensions ??= out[0]?.length;
    options.usage?.addUsage(makeUsage({ embeddingTokens: tokens, embeddingCostUsd: priceEmbedding(this.#model, tokens) }));
    return out;
  }
}

/** Cohere's rerank API on its official SDK: the best `topK` results with Cohere's relevance scores. */
export class CohereReranker implements Reranker {
  readonly name = 'cohere';
  readonly #call: CohereCall;
  readonly #model: string;

  constructor(options: CohereOptions = {}) {
    this.#call = new CohereCall(options);
    this.#model = options.model ?? 'rerank-v3.5';
  }

  async rerank(query: string, results: readonly SearchResult[], topK: number, options: RerankOptions = {}): Promise<SearchResult[]> {
    if (results.length === 0 || topK <= 0) return [];
    const request = { model: this.#model, query, documents: results.map((r) => r.document.text), topN: Math.min(topK, results.length) };
    const reply = await this.#call.run(this.#model, (client, requestOptions) => client.rerank(request, requestOptions), options.signal);
    if (reply.results.some((r) => !Number.isInteger(r.index) || r.index < 0 || r.index >= results.length)) {
      throw providerTransportError('cohere', 'stream', 'rerank reply names a document index out of range', { model: this.#model, retryable: false });
    }
    return [...reply.results]
      .sort((a, b) => b.relevanceScore - a.relevanceScore)
      .slice(0, topK)
      .map((r) => ({ document: (results[r.index] as SearchResult).document, score: r.relevanceScore }));
  }
}
