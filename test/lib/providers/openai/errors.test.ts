import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { test } from 'node:test';
import { OpenAIError } from 'openai';
import { ProviderError } from '../../../../lib/core/errors/provider-error.js';
import { CallControl } from '../../../../lib/providers/call-control.js';
import { toProviderFailure } from '../../../../lib/providers/openai/errors.js';
import { OpenAIProvider } from '../../../../lib/providers/openai/index.js';

function mapped(error: unknown): ProviderError {
  const call = new CallControl(undefined, 0);
  try {
    const out = toProviderFailure(error, { provider: 'openai', model: 'gpt-4o', call });
    assert.ok(ProviderError.isInstance(out));
    return out;
  } finally {
    call.dispose();
  }
}

test('unknown failures are not retryable: a bug (TypeError) is `unknown`, other SDK errors `invalid_request`', () => {
  const bug = mapped(new TypeError("Cannot read properties of undefined (reading 'choices')"));
  assert.deepEqual([bug.kind, bug.retryable], ['unknown', false]);
  const sdk = mapped(new OpenAIError('Cannot iterate over a consumed stream'));
  assert.deepEqual([sdk.kind, sdk.retryable], ['invalid_request', false]);
  const plain = mapped(new Error('something else entirely'));
  assert.deepEqual([plain.kind, plain.retryable], ['unknown', false]);
});

test('real transport failures stay retryable connection / timeout errors', () => {
  const terminated = mapped(new TypeError('terminated', { cause: Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' }) }));
  assert.deepEqual([terminated.kind, terminated.retryable], ['connection', true]);
  const refused = mapped(new TypeError('fetch failed', { cause: Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED' }) }));
  assert.deepEqual([refused.kind, refused.retryable], ['connection', true]);
  const hangUp = mapped(Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }));
  assert.deepEqual([hangUp.kind, hangUp.retryable], ['connection', true]);
  const slow = mapped(new TypeError('fetch failed', { cause: Object.assign(new Error('Connect Timeout Error'), { code: 'UND_ERR_CONNECT_TIMEOUT' }) }));
  assert.deepEqual([slow.kind, slow.retryable], ['timeout', true]);
  const malformed = mapped(new SyntaxError('Unexpected end of JSON input'));
  assert.deepEqual([malformed.kind, malformed.retryable], ['stream', true], 'a malformed frame is a broken stream (retryable before output)');
});

test('a refused connection through the real SDK is a retryable connection error', async () => {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  const provider = new OpenAIProvider({ apiKey: 'sk-test', baseURL: `http://127.0.0.1:${port}/v1` });
  await assert.rejects(provider.complete({ model: 'gpt-4o', messages: [{ role: 'user', content: 'x' }] }), (error: unknown) => {
    assert.ok(ProviderError.isInstance(error));
    assert.deepEqual([error.kind, error.retryable], ['connection', true]);
    return true;
  });
});
