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

  test('a deadline stops retrying before a sleep would cross it', async () => {
    let calls = 0;
    await assert.rejects(
      withRetry(
        async () => {
          calls += 1;
          throw new ProviderError('x', { provider: 'p', status: 429, retryAfterSeconds: 5 });
        },
        { ...DEFAULT_RETRY, deadlineMs: 1000 },
        { sleep: noSleep, now: () => 0 },
      ),
    );
    assert.equal(calls, 1);
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
