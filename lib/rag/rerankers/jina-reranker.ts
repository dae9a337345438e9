import { ProviderConfigurationError } from '../../core/errors/provider-configuration-error.js';
import { providerHttpError, providerTransportError } from '../../providers/provider-errors.js';
import { DEFAULT_RETRY, withRetry, type RetryOptions } from '../../providers/retry.js';
import type { SearchResult } from '../document.js';
import type { Reranker, RerankOptions } from './reranker.js';

/** Options of {@link JinaReranker}. */
export interface JinaRerankerOptions {
  /** API key; default the JINA_API_KEY environment variable. */
  apiKey?: string;
  /** Default `jina-reranker-v2-base-multilingual`. */
  model?: string;
  /** Default `https://api.jina.ai/v1`. */
  baseUrl?: string;
  /** Retry policy (the agent's defaults: 2 retries, full-jitter backoff, Retry-After honoured). */
  retry?: RetryOptions;
  /** Time limit of one request. Default 30,000 ms. */
  timeoutMs?: number;
  /** Replaces global fetch (tests, proxies). */
  fetch?: typeof fetch;
}

interface JinaReply {
  results?: { index: number; relevance_score: number }[];
}

/**
 * Jina AI's rerank API over fetch (`POST /v1/rerank` with the query, the documents' texts and
 * `top_n`): returns the best `topK` results with Jina's relevance scores. Failures are
 * ProviderErrors (status, Retry-After) retried under the agent's retry policy.
 */
export class JinaReranker implements Reranker {
  readonly name = 'jina';
  readonly #options: JinaRerankerOptions;
  readonly #apiKey: string;

  constructor(options: JinaRerankerOptions = {}) {
    this.#options = options;
    const key = options.apiKey ?? process.env['JINA_API_KEY'];
    if (key === undefined || key === '') throw new ProviderConfigurationError('the Jina reranker needs an API key: pass apiKey or set JINA_API_KEY', { provider: 'jina', keyVariables: ['JINA_API_KEY'] });
    this.#apiKey = key;
  }

  async rerank(query: string, results: readonly SearchResult[], topK: number, options: RerankOptions = {}): Promise<SearchResult[]> {
    if (results.length === 0 || topK <= 0) return [];
    const model = this.#options.model ?? 'jina-reranker-v2-base-multilingual';
    const url = `${(this.#options.baseUrl ?? 'https://api.jina.ai/v1').replace(/\/$/, '')}/rerank`;
    const body = JSON.stringify({ model, query, documents: results.map((r) => r.document.text), top_n: Math.min(topK, results.length), return_documents: false });
    const fetchImpl = this.#options.fetch ?? fetch;
    const attempt = async (signal: AbortSignal | undefined): Promise<JinaReply> => {
      const timeout = AbortSignal.timeout(this.#options.timeoutMs ?? 30_000);
      let response: Response;
      try {
        response = await fetchImpl(url, {
          method: 'POST',
          headers: { authorization: `Bearer ${this.#apiKey}`, 'content-type': 'application/json', accept: 'application/json' },
          body,
          signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
        });
      } catch (error) {
        if (signal?.aborted) throw error;
        throw providerTransportError('jina', timeout.aborted ? 'timeout' : 'connection', `Jina rerank request failed: ${(error as Error).message}`, { model, cause: error });
      }
      const text = await response.text();
      if (!response.ok) {
        let message = text.slice(0, 500);
        try {
          const parsed = JSON.parse(text) as { detail?: unknown; error?: { message?: unknown } };
          const detail = parsed.detail ?? parsed.error?.message;
          if (typeof detail === 'string') message = detail;
          else if (detail !== undefined) message = JSON.stringify(detail);
        } catch {
          // not JSON: keep the text
        }
        throw providerHttpError({ provider: 'jina', status: response.status, message, model, headers: response.headers });
      }
      return JSON.parse(text) as JinaReply;
    };
    const reply = await withRetry((_n, { signal }) => attempt(signal ?? options.signal), { ...DEFAULT_RETRY, ...this.#options.retry }, options.signal ? { provider: 'jina', signal: options.signal } : { provider: 'jina' });
    const ranked = reply.results ?? [];
    if (ranked.some((r) => !Number.isInteger(r.index) || r.index < 0 || r.index >= results.length)) {
      throw providerTransportError('jina', 'stream', 'Jina rerank reply names a document index out of range', { model, retryable: false });
    }
    return ranked
      .sort((a, b) => b.relevance_score - a.relevance_score)
      .slice(0, topK)
      .map((r) => ({ document: (results[r.index] as SearchResult).document, score: r.relevance_score }));
  }
}
