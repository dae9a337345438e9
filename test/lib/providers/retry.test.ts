import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ProviderError } from '../../../lib/core/errors/provider-error.js';
import { DEFAULT_RETRY, retryDelayMs, withRetry } from '../../../lib/providers/retry.js';

const noSleep = async (): Promise<void> => undefined;

describe('withRetry', () => {
  test('retries retryable provider errors, notifying before each sleep', async () => {
    const notices: number[] = [];
    let calls = 0;
    const value = await withRetry(
      async () => {
        calls += 1;
        if (calls < 3) throw new ProviderError('busy', { provider: 'p', status: 503 });
        return 'ok';
      },
      DEFAULT_RETRY,
      { sleep: noSleep, onRetry: ({ attempt }) => notices.push(attempt), random: () => 1 },
    );
    assert.equal(value, 'ok');
    assert.deepEqual(notices, [1, 2]);
  });

  test('never retries 400/401/404', async () => {
    for (const status of [400, 401, 403, 404]) {
      let calls = 0;
      await assert.rejects(
        withRetry(async () => {
          calls += 1;
          throw new ProviderError('no', { provider: 'p', status });
        }, DEFAULT_RETRY, { sleep: noSleep }),
      );
      assert.equal(calls, 1, `status ${status}`);
    }
  });

  test('full jitter within the exponential ceiling; Retry-After honoured and capped', () => {
    const e = new ProviderError('x', { provider: 'p', status: 500 });
    assert.equal(retryDelayMs(1, e, DEFAULT_RETRY, () => 0.999), 499);
    assert.equal(retryDelayMs(3, e, DEFAULT_RETRY, () => 0.5), 1000);
    assert.equal(retryDelayMs(10, e, DEFAULT_RETRY, () => 0.999), 7992);
    const ra = new ProviderError('x', { provider: 'p', status: 429, retryAfterSeconds: 3 });
    assert.equal(retryDelayMs(1, ra, DEFAULT_RETRY, () => 0), 3000);
    const huge = new ProviderError('x', { provider: 'p', status: 429, retryAfterSeconds: 3600 });
    assert.equal(retryDelayMs(1, huge, DEFAULT_RETRY, () => 0), 60_000);
  });

  test('a deadline stops retrying before a sleep would cross it (advancing clock)', async () => {
    let t = 0;
    let calls = 0;
    const sleeps: number[] = [];
    await assert.rejects(
      withRetry(
        async () => {
          calls += 1;
          t += 100; // each attempt takes 100 ms of the clock
          throw new ProviderError('x', { provider: 'p', status: 429, retryAfterSeconds: 0.5 });
        },
        { ...DEFAULT_RETRY, maxRetries: 10, deadlineMs: 1000 },
        { sleep: async (ms) => void sleeps.push((t += ms)), now: () => t },
      ),
      (error: unknown) => ProviderError.isInstance(error) && error.status === 429,
    );
    // 0 → 100 (fail), sleep to 600, → 700 (fail); a third sleep would end at 1200 > 1000.
    assert.equal(calls, 2);
    assert.deepEqual(sleeps, [600]);
  });

  test('the deadline is checked before each attempt: an overlong sleep means no further attempt', async () => {
    let t = 0;
    let calls = 0;
    await assert.rejects(
      withRetry(
        async () => {
          calls += 1;
          t += 900;
          throw new ProviderError('busy', { provider: 'p', status: 503 });
        },
        { ...DEFAULT_RETRY, maxRetries: 5, deadlineMs: 1000 },
        // The backoff asks for 50 ms; the sleep overshoots (a busy event loop) to 150 ms: 1050 > 1000.
        { sleep: async (ms) => void (t += ms * 3), now: () => t, random: () => 0.1 },
      ),
      (error: unknown) => ProviderError.isInstance(error) && error.status === 503,
    );
    assert.equal(calls, 1);
  });

  test('each attempt gets a signal that aborts when the deadline runs out during it', async () => {
    let calls = 0;
    const signals: (AbortSignal | undefined)[] = [];
    const started = Date.now();
    await assert.rejects(
      withRetry(
        (_attempt, { signal }) => {
          calls += 1;
          signals.push(signal);
          if (calls === 1) return Promise.reject(new ProviderError('busy', { provider: 'p', status: 503 }));
          // A hanging request that honours its signal (as the adapters do with request.signal).
          return new Promise<never>((_, reject) => signal?.addEventListener('abort', () => reject(signal.reason as Error), { once: true }));
        },
        { ...DEFAULT_RETRY, baseDelayMs: 10, maxRetries: 2, deadlineMs: 250 },
        // Only the deadline timer is real: the backoff sleep returns at once and the clock withRetry reads
        // stands still, so attempt 2 always starts with the full 250 ms left (a stalled machine could
        // otherwise use them up before it, ending in the 503 instead of the deadline's timeout).
        { random: () => 0, provider: 'p', sleep: noSleep, now: () => 0 },
      ),
      (error: unknown) => ProviderError.isInstance(error) && error.kind === 'timeout' && error.retryable === false && /deadline of 250 ms/.test(error.message),
    );
    const elapsed = Date.now() - started;
    assert.equal(calls, 2, 'no attempt after the deadline');
    assert.ok(elapsed >= 200 && elapsed < 10_000, `the running attempt was stopped at the deadline (${elapsed} ms)`);
    assert.ok(signals[0] instanceof AbortSignal && signals[1] instanceof AbortSignal);
    assert.equal(signals[0]?.aborted, false, 'a finished attempt is not aborted afterwards');
  });

  test('the attempt signal follows the caller signal; without deadline or signal it is undefined', async () => {
    const controller = new AbortController();
    const reason = new Error('stop');
    setTimeout(() => controller.abort(reason), 20);
    await assert.rejects(
      withRetry((_attempt, { signal }) => new Promise<never>((_, reject) => signal?.addEventListener('abort', () => reject(signal.reason as Error), { once: true })), { ...DEFAULT_RETRY, deadlineMs: 60_000 }, { signal: controller.signal }),
      (error: unknown) => error === reason,
    );
    let seen: AbortSignal | undefined | null = null;
    await withRetry(async (_attempt, { signal }) => void (seen = signal), DEFAULT_RETRY);
    assert.equal(seen, undefined);
  });

  test('shouldRetry can veto (a stream that already produced output)', async () => {
    let calls = 0;
    await assert.rejects(
      withRetry(async () => {
        calls += 1;
        throw new ProviderError('x', { provider: 'p', status: 500 });
      }, DEFAULT_RETRY, { sleep: noSleep, shouldRetry: () => false }),
    );
    assert.equal(calls, 1);
  });
});
