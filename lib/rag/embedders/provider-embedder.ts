import { makeUsage } from '../../core/usage.js';
import { embedWithRetry, type EmbedRetryOptions } from '../../providers/embed-with-retry.js';
import type { EmbedRequest, Provider } from '../../providers/spec.js';
import type { EmbedOptions, EmbeddingProvider } from './embedding-provider.js';

/** Options of {@link ProviderEmbedder}. */
export interface ProviderEmbedderOptions {
  /** Embedding model; default the adapter's (`text-embedding-3-small`, `gemini-embedding-001`, `nomic-embed-text`, …). */
  model?: string;
  /** Output dimensions, for models that can shorten their vectors. */
  dimensions?: number;
  /** Retry policy (the agent's defaults: 2 retries, full-jitter backoff from 0.5 s, Retry-After honoured). */
  retry?: EmbedRetryOptions;
}

/**
 * Embeddings through one of agentlib's provider adapters (OpenAI and OpenAI-compatible, Azure,
 * Gemini, Ollama): `provider.embed` under the agent's retry policy. The adapter batches to its
 * API's limit (OpenAI 2,048 texts and about 300k tokens per request, Gemini 100, Ollama one
 * request per call). Tokens and cost go to `options.usage` (`embeddingTokens`, `embeddingCostUsd`).
 * Gemini is told whether it embeds documents (`RETRIEVAL_DOCUMENT`) or a query (`RETRIEVAL_QUERY`).
 */
export class ProviderEmbedder implements EmbeddingProvider {
  readonly name: string;
  readonly #provider: Pick<Provider, 'name' | 'embed'>;
  readonly #options: ProviderEmbedderOptions;
  #dimensions: number | undefined;

  constructor(provider: Pick<Provider, 'name' | 'embed'>, options: ProviderEmbedderOptions = {}) {
    this.#provider = provider;
    this.#options = options;
    this.#dimensions = options.dimensions;
    this.name = `${provider.name}${options.model === undefined ? '' : `:${options.model}`}`;
  }

  /** Vector length: the configured one, else learned from the first reply. */
  get dimensions(): number | undefined {
    return this.#dimensions;
  }

  async embed(texts: readonly string[], options: EmbedOptions = {}): Promise<number[][]> {
    if (texts.length === 0) return [];
    const request: EmbedRequest = { texts };
    if (this.#options.model !== undefined) request.model = this.#options.model;
    if (this.#options.dimensions !== undefined) request.dimensions = this.#options.dimensions;
    if (options.signal) request.signal = options.signal;
    if (this.#provider.name === 'gemini') request.taskType = options.purpose === 'query' ? 'RETRIEVAL_QUERY' : 'RETRIEVAL_DOCUMENT';
    const reply = await embedWithRetry(this.#provider, request, this.#options.retry ?? {});
    options.usage?.addUsage(makeUsage({ embeddingTokens: reply.usage.tokens, embeddingCostUsd: reply.usage.costUsd ?? 0 }));
    this.#dimensions ??= reply.embeddings[0]?.length;
    return reply.embeddings;
  }
}
