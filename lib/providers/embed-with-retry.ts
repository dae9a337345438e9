import { ConfigurationError } from '../core/errors/configuration-error.js';
import { DEFAULT_RETRY, withRetry, type ResolvedRetryOptions, type RetryHooks, type RetryOptions } from './retry.js';
import type { EmbedRequest, EmbedResponse, Provider } from './spec.js';

/** Options of embedWithRetry: the retry policy (the agent's defaults) and, for tests, the clock, sleep and jitter. */
export interface EmbedRetryOptions extends RetryOptions, Pick<RetryHooks, 'sleep' | 'random' | 'now'> {}

/**
 * `provider.embed(request)` under the same retry policy as the agent's chat calls
 * (`lib/providers/retry.ts`, defaults 2 retries, full-jitter backoff from 0.5 s capped at 8 s,
 * Retry-After honoured up to 60 s): retryable failures (408, 409, 429 rate limits, 5xx, timeouts,
 * dropped connections) are retried, others (400, 401, 404, a `quota` refusal) and a caller abort
 * are thrown at once. Before each sleep, `request.onNotice` gets an `llm-retry` notice. With
 * `deadlineMs`, each attempt runs on a signal that aborts when the time left runs out.
 *
 * Adapters make one attempt per call (SDK retries off) and a FallbackProvider fails over within one
 * attempt, so this is the single retry layer for embeddings, wrapped around the whole provider as
 * the agent loop is around `complete` / `stream`: call it from memory, RAG or your own code.
 *
 * @example
 * const { embeddings } = await embedWithRetry(provider, { texts: ['hello'] }, { maxRetries: 3 });
 */
export async function embedWithRetry(provider: Pick<Provider, 'name' | 'embed'>, request: EmbedRequest, options: EmbedRetryOptions = {}): Promise<EmbedResponse> {
  if (typeof provider.embed !== 'function') {
    throw new ConfigurationError(`provider ${provider.name} does not support embeddings`, { key: 'provider' });
  }
  const embed = provider.embed.bind(provider);
  const { sleep, random, now, ...policy } = options;
  const resolved: ResolvedRetryOptions = { ...DEFAULT_RETRY, ...policy };
  const hooks: RetryHooks = {
    provider: provider.name,
    onRetry: ({ attempt, delayMs, error }) => request.onNotice?.({ type: 'llm-retry', provider: provider.name, attempt, delayMs, error }),
  };
  if (request.signal) hooks.signal = request.signal;
  if (sleep) hooks.sleep = sleep;
  if (random) hooks.random = random;
  if (now) hooks.now = now;
  return withRetry(
    // With a total deadline the attempt gets its own signal (the caller's plus the time left).
    (_attempt, { signal }) => embed(signal !== undefined && signal !== request.signal ? { ...request, signal } : request),
    resolved,
    hooks,
  );
}
