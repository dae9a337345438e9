import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ProviderError } from '../../../lib/core/errors/provider-error.js';
import { scrubProviderFailure } from '../../../lib/providers/scrub-provider-failure.js';

const KEY = 'plain-configured-key-0123';

describe('scrubProviderFailure (issue 13 item 7)', () => {
  test('the configured key leaves the message, the stack and the whole cause chain (SDK error body included)', () => {
    const sdk = Object.assign(new Error(`401 The key ${KEY} is wrong`), { error: { message: `The key ${KEY} is wrong`, nested: [{ hint: KEY }] }, code: 'invalid_api_key' });
    const inner = new Error('wrapped', { cause: sdk });
    const error = new ProviderError(`openai returned 401: The key ${KEY} is wrong`, { provider: 'openai', status: 401, cause: inner });
    assert.equal(scrubProviderFailure(error, [KEY, undefined, null, 'short']), error, 'the same error, scrubbed in place');
    const everything = [error.message, error.stack, sdk.message, sdk.stack, JSON.stringify(sdk.error), inner.stack].join('\n');
    assert.ok(!everything.includes(KEY), everything);
    assert.equal(error.message, 'openai returned 401: The key [REDACTED] is wrong');
    assert.deepEqual(sdk.error, { message: 'The key [REDACTED] is wrong', nested: [{ hint: '[REDACTED]' }] });
    assert.equal(sdk.code, 'invalid_api_key');
  });

  test('anything else (the caller\'s abort reason) is returned untouched', () => {
    const reason = new Error(`aborted ${KEY}`);
    assert.equal(scrubProviderFailure(reason, [KEY]), reason);
    assert.equal(reason.message, `aborted ${KEY}`);
  });

  test('a ProviderError never carries a credential-shaped string, whoever made it', () => {
    const error = new ProviderError('proxy said: Authorization: Bearer abc123def456ghi and key sk-proj-0123456789abcdefXYZ', { provider: 'openai' });
    assert.equal(error.message, 'proxy said: Authorization: Bearer [REDACTED] and key [REDACTED]');
  });
});
