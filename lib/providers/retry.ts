import { AgentlibError } from '../core/errors/agentlib-error.js';
import { ProviderError } from '../core/errors/provider-error.js';
import { linkSignals } from '../core/linked-signal.js';
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
  /**
   * Give up once this many ms have passed since the first attempt: no attempt starts and no sleep
   * crosses it, and the attempt signal (`AttemptContext.signal`) aborts a running attempt at it.
   */
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
  /** Provider name on the deadline error. */
  provider?: string;
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

/** What each attempt of `withRetry` gets besides its number. */
export interface AttemptContext {
  /**
   * Aborts when the caller's signal (`hooks.signal`) does, or when the total deadline
   * (`deadlineMs`) runs out during the attempt (reason: a non-retryable ProviderError of kind
   * `timeout`). Pass it as the request's signal so the deadline bounds the running attempt too.
   * Undefined when there is neither a caller signal nor a deadline.
   */
  signal: AbortSignal | undefined;
}

/** The error of an attempt stopped (or not started) because the total retry deadline ran out. */
export function retryDeadlineError(deadlineMs: number, provider = 'provider', cause?: unknown): ProviderError {
  return new ProviderError(`retry deadline of ${deadlineMs} ms reached`, {
    provider,
    kind: 'timeout',
    retryable: false,
    ...(cause === undefined ? {} : { cause }),
  });
}

/** The signal of one attempt: the caller's, plus a timer for the time left before the deadline. */
function attemptSignal(caller: AbortSignal | undefined, remainingMs: number | undefined, deadlineMs: number | undefined, provider: string | undefined): { signal: AbortSignal | undefined; dispose(): void } {
  if (remainingMs === undefined || deadlineMs === undefined) return { signal: caller, dispose: () => undefined };
  const linked = linkSignals([caller]);
  const timer = setTimeout(() => linked.abort(retryDeadlineError(deadlineMs, provider)), remainingMs);
  return {
    signal: linked.signal,
    dispose: () => {
      clearTimeout(timer);
      linked.dispose();
    },
  };
}

/**
 * Runs `fn`, retrying retryable failures. Never retries after the signal aborted. With a total
 * deadline (`deadlineMs`, counted from the first attempt): no attempt starts once it has passed,
 * no sleep crosses it, and each attempt gets (in its second argument) a signal that aborts when
 * the time left runs out. The last error is rethrown unchanged.
 */
export async function withRetry<T>(
  fn: (attempt: number, context: AttemptContext) => Promise<T>,
  options: ResolvedRetryOptions,
  hooks: RetryHooks = {},
): Promise<T> {
  const sleep = hooks.sleep ?? realSleep;
  const random = hooks.random ?? Math.random;
  const now = hooks.now ?? Date.now;
  const { deadlineMs } = options;
  const started = now();
  let lastError: unknown;
  for (let attempt = 0; ; attempt++) {
    let remainingMs: number | undefined;
    if (deadlineMs !== undefined) {
      remainingMs = deadlineMs - (now() - started);
      if (remainingMs <= 0) throw attempt === 0 ? retryDeadlineError(deadlineMs, hooks.provider) : lastError;
    }
    const scope = attemptSignal(hooks.signal, remainingMs, deadlineMs, hooks.provider);
    try {
      return await fn(attempt, { signal: scope.signal });
    } catch (error) {
      lastError = error;
      if (attempt >= options.maxRetries || hooks.signal?.aborted || scope.signal?.aborted || !isRetryableError(error)) throw error;
      if (hooks.shouldRetry && !hooks.shouldRetry(error)) throw error;
      const delayMs = retryDelayMs(attempt + 1, error, options, random);
      if (deadlineMs !== undefined && now() - started + delayMs >= deadlineMs) throw error;
      hooks.onRetry?.({ attempt: attempt + 1, delayMs, error });
      await sleep(delayMs, hooks.signal);
    } finally {
      scope.dispose();
    }
  }
}
