import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { test } from 'node:test';
import { ProviderError } from '../../../../lib/core/errors/provider-error.js';
import { GeminiProvider, toGeminiError } from '../../../../lib/providers/gemini/index.js';
import { ask, collect } from './harness.js';

const context = (phase: 'request' | 'stream') => ({ model: 'gemini-2.5-flash', signal: undefined, timedOut: false, timeoutMs: 1000, phase });

test('unknown failures before the response are not retryable; transport failures are', () => {
  const bug = toGeminiError(new TypeError("Cannot read properties of undefined (reading 'parts')"), context('request'));
  assert.ok(ProviderError.isInstance(bug));
  assert.deepEqual([bug.kind, bug.retryable], ['unknown', false]);
  const refused = toGeminiError(new TypeError('fetch failed', { cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }) }), context('request'));
  assert.ok(ProviderError.isInstance(refused));
  assert.deepEqual([refused.kind, refused.retryable], ['connection', true]);
});

test('while streaming: a cut or garbled body is a retryable stream error; a bug is not retryable', () => {
  for (const error of [new TypeError('terminated'), new Error('Incomplete JSON segment at the end'), new SyntaxError('Unexpected token')]) {
    const out = toGeminiError(error, context('stream'));
    assert.ok(ProviderError.isInstance(out));
    assert.deepEqual([out.kind, out.retryable], ['stream', true], error.message);
  }
  const bug = toGeminiError(new RangeError('Invalid array length'), context('stream'));
  assert.ok(ProviderError.isInstance(bug));
  assert.deepEqual([bug.kind, bug.retryable], ['unknown', false]);
});

test('a refused connection through the real SDK is a retryable connection error (complete and stream)', async () => {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  const provider = new GeminiProvider({ apiKey: 'k', baseURL: `http://127.0.0.1:${port}` });
  for (const call of [() => provider.complete(ask('hi')), () => collect(provider.stream(ask('hi')))]) {
    await assert.rejects(call(), (error: unknown) => {
      assert.ok(ProviderError.isInstance(error));
      assert.deepEqual([error.kind, error.retryable], ['connection', true]);
      return true;
    });
  }
});
