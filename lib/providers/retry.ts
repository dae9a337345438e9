import { AgentlibError } from '../core/errors/agentlib-error.js';
import { ProviderError } from '../core/errors/provider-error.js';
import { sleep as realSleep, type Sleep } from '../core/sleep.js';

/** Retry settings (defaults per REFERENCE.md §1). */
export interface RetryOptions {
  /** Retries after the first attempt. Default 2. */
  maxRetries?: number;
  /** Base delay of the exponential backoff in ms. Default 500. */
  baseDelayMs?: number;
  /** Largest backoff delay in ms. Default 8000. */
  maxDelayMs?: number;
  /** Largest Retry-After the provider may ask for, in ms. Default 60000. */
  maxRetryAfterMs?: number;
  /** Give up once this many ms have passed since the first attempt (no sleep crosses it). */
  deadlineMs?: number;
}

/** Resolved retry settings. */
export type ResolvedRetryOptions = Required<Omit<RetryOptions, 'deadlineMs'>> & { deadlineMs?: number };

/** Defaults: 2 retries, 0.5 s base, 8 s cap, Retry-After capped at 60 s. */
export const DEFAULT_RETRY: ResolvedRetryOptions = {
  maxRetries: 2,
  baseDelayMs: 500,
  maxDelayMs: 8000,
  maxRetryAfterMs: 60_000,
};

/** Hooks of one retry loop. */
export interface RetryHooks {
  /** Called before each sleep (the `llm-retry` event). */
  onRetry?: (info: { attempt: number; delayMs: number; error: unknown }) => void;
  signal?: AbortSignal;
  /** Extra veto: return false to stop retrying (e.g. a stream already emitted output). */
  shouldRetry?: (error: unknown) => boolean;
  sleep?: Sleep;
  random?: () => number;
  now?: () => number;
}

/** Whether an error is worth retrying: ProviderError.retryable, or any error flagged `retryable: true`. */
export function isRetryableError(error: unknown): boolean {
  if (ProviderError.isInstance(error)) return error.retryable;
  if (AgentlibError.isInstance(error)) return false;
  return typeof error === 'object' && error !== null && (error as { retryable?: unknown }).retryable === true;
}

/** Exponential backoff with full jitter, or the provider's Retry-After (capped) when it sent one. */
export function retryDelayMs(attempt: number, error: unknown, options: ResolvedRetryOptions, random: () => number): number {
  if (ProviderError.isInstance(error) && error.retryAfterSeconds !== undefined) {
    return Math.min(Math.max(0, error.retryAfterSeconds * 1000), options.maxRetryAfterMs);
  }
  const ceiling = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** (attempt - 1));
  return Math.floor(random() * ceiling);
}

/**
 * Runs `fn`, retrying retryable failures. Never retries after the signal aborted, and never sleeps
 * past the deadline. The last error is rethrown unchanged.
 */
export async function withRetry<T>(fn: (attempt: number) => Promise<T>, options: ResolvedRetryOptions, hooks: RetryHooks = {}): Promise<T> {
  const sleep = hooks.sleep ?? realSleep;
  const random = hooks.random ?? Math.random;
  const now = hooks.now ?? Date.now;
  const started = now();
  for (let attempt = 0; ; attempt++) {
    try {
      return await fn(attempt);
    } catch (error) {
      if (attempt >= options.maxRetries || hooks.signal?.aborted || !isRetryableError(error)) throw error;
      if (hooks.shouldRetry && !hooks.shouldRetry(error)) throw error;
      const delayMs = retryDelayMs(attempt + 1, error, options, random);
      if (options.deadlineMs !== undefined && now() - started + delayMs > options.deadlineMs) throw error;
      hooks.onRetry?.({ attempt: attempt + 1, delayMs, error });
      await sleep(delayMs, hooks.signal);
    }
  }
}
