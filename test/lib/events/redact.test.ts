import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { AgentUsage } from '../../../lib/core/usage.js';
import { REDACTED, isSecretKey, redactSecrets } from '../../../lib/events/redact.js';

describe('redactSecrets', () => {
  test('redacts secret keys at any depth, keeps token counts, copies without mutating', () => {
    const input = { apiKey: 'k', nested: { list: [{ password: 'p', promptTokens: 3 }, 2], accessToken: 't' }, text: 'ok' };
    const out = redactSecrets(input);
    assert.deepEqual(out, { apiKey: REDACTED, nested: { list: [{ password: REDACTED, promptTokens: 3 }, 2], accessToken: REDACTED }, text: 'ok' });
    assert.equal(input.apiKey, 'k');
    assert.notEqual(out, input);
  });

  test('a cycle becomes [Circular]; the same object twice side by side does not', () => {
    const shared = { a: 1 };
    const cyclic: Record<string, unknown> = { name: 'x', left: shared, right: shared };
    cyclic['self'] = cyclic;
    cyclic['list'] = [cyclic, shared];
    assert.deepEqual(redactSecrets(cyclic), { name: 'x', left: { a: 1 }, right: { a: 1 }, self: '[Circular]', list: ['[Circular]', { a: 1 }] });
  });

  test('objects with toJSON are converted first; primitives come back as they are', () => {
    const date = new Date(0);
    assert.deepEqual(redactSecrets({ at: date, secret: { toJSON: () => 'x' } }), { at: date.toJSON(), secret: REDACTED });
    assert.deepEqual(redactSecrets({ wrapped: { toJSON: () => ({ token: 'abc', keep: 1 }) } }), { wrapped: { token: REDACTED, keep: 1 } });
    for (const value of [1, 'a', null, undefined, true]) assert.equal(redactSecrets(value), value);
  });

  test('keys keep their order', () => {
    assert.deepEqual(Object.keys(redactSecrets({ b: 1, a: 2, 1: 3, secret: 4 }) as object), ['1', 'b', 'a', 'secret']);
  });
});

describe('redactSecrets: credential keys as whole names, never usage fields (issue 13 item 9)', () => {
  test('usage fields are kept, whatever their value: counts, maps of counts, a run-end usage', () => {
    const usage = new AgentUsage();
    usage.addLlmCall({ promptTokens: 10, completionTokens: 5, totalTokens: 15, costUsd: 0, embeddingTokens: 0, embeddingCostUsd: 0 });
    usage.addToolCall('multiply', 7);
    usage.addToolCall('reset_password', 3);
    const event = { type: 'run-end', usage, request: { maxTokens: 100, max_tokens: 100, tokenCount: 3, max_completion_tokens: 9 } };
    assert.deepEqual(redactSecrets(event), {
      type: 'run-end',
      usage: {
        promptTokens: 10,
        completionTokens: 5,
        totalTokens: 15,
        totalCostUsd: 0,
        embeddingTokens: 0,
        totalEmbeddingCostUsd: 0,
        llmCalls: 1,
        toolUsage: { multiply: 1, reset_password: 1 },
        toolTokens: { multiply: 7, reset_password: 3 },
      },
      request: { maxTokens: 100, max_tokens: 100, tokenCount: 3, max_completion_tokens: 9 },
    });
    for (const key of ['promptTokens', 'completionTokens', 'totalTokens', 'toolTokens', 'maxTokens', 'max_tokens', 'inputTokens', 'tokenCount', 'secretName', 'passwordHint']) {
      assert.equal(isSecretKey(key, { some: 'object' }), false, key);
    }
  });

  test('credential keys are redacted whatever their value', () => {
    const keys = ['apiKey', 'api_key', 'API_KEY', 'OPENAI_API_KEY', 'x-api-key', 'X-Goog-Api-Key', 'apikey', 'token', 'accessToken', 'access_token', 'authToken',
      'refresh_token', 'idToken', 'password', 'db_password', 'secret', 'clientSecret', 'client_secret', 'authorization', 'Authorization', 'Proxy-Authorization',
      'credentials', 'privateKey', 'secretAccessKey'];
    for (const key of keys) {
      assert.equal(isSecretKey(key, 'value'), true, key);
      assert.deepEqual(redactSecrets({ [key]: { nested: 'x' } }), { [key]: REDACTED }, key);
    }
    // a finite number under a token key is a count; under a password it is still a secret
    assert.deepEqual(redactSecrets({ token: 123, password: 1234 }), { token: 123, password: REDACTED });
  });

  test('strings shaped like credentials are scrubbed under any key', () => {
    const out = redactSecrets({
      note: 'use sk-proj-abcdefghijklmnop1234 here',
      header: 'Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.abc123',
      url: 'https://user:hunter2secret@example.com/path?api_key=abcd1234efgh',
      google: 'key AIzaSyA1234567890abcdefghijklmnopqrstu',
      list: ['ghp_abcdefghijklmnopqrstuvwx12'],
      prose: 'Bearer bonds and tokens are fine; the answer is 42.',
    });
    assert.deepEqual(out, {
      note: `use ${REDACTED} here`,
      header: `Authorization: Bearer ${REDACTED}`,
      url: `https://user:${REDACTED}@example.com/path?api_key=${REDACTED}`,
      google: `key ${REDACTED}`,
      list: [REDACTED],
      prose: 'Bearer bonds and tokens are fine; the answer is 42.',
    });
    assert.equal(redactSecrets('sk-ant-api03-abcdefghijklmnop'), REDACTED);
  });
});
