import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Agent } from '../../../lib/agent/agent.js';
import { ProviderError } from '../../../lib/core/errors/provider-error.js';
import { FallbackProvider } from '../../../lib/providers/fallback.js';
import { ScriptedProvider } from '../../../lib/providers/scripted.js';
import { eventLog, testRuntime } from '../../support/agent-harness.js';

const down = (status = 503) => ({ error: new ProviderError(`down ${status}`, { provider: 'x', status }) });

describe('FallbackProvider', () => {
  test('fails over on retryable errors, reports it, and each provider gets its own model', async () => {
    const a = new ScriptedProvider({ name: 'a', defaultModel: 'model-a', replies: [down(503)] });
    const b = new ScriptedProvider({ name: 'b', defaultModel: 'model-b', replies: ['from b'] });
    const fallbacks: string[] = [];
    const provider = new FallbackProvider([a, { provider: b, model: 'b-large' }], { onFallback: ({ from, to }) => fallbacks.push(`${from}->${to}`) });
    const log = eventLog();
    const agent = new Agent({ provider, observers: [log.observer], runtime: testRuntime() });
    const result = await agent.run('hi');
    assert.equal(result.content, 'from b');
    assert.equal(result.providerUsed, 'b');
    assert.deepEqual(fallbacks, ['a->b']);
    assert.deepEqual(log.of('provider-fallback').map((e) => [e.from, e.to, e.error.status]), [['a', 'b', 503]]);
    assert.equal(a.requests[0]!.model, 'model-a');
    assert.equal(b.requests[0]!.model, 'b-large', 'never another provider\'s model');
    assert.equal(provider.defaultModel, 'model-a');
  });

  test('every failover trigger: timeout, 408, 429, 5xx, 529, connection, overloaded', async () => {
    const errors = [
      new ProviderError('t', { provider: 'a', kind: 'timeout', retryable: true }),
      ...[408, 429, 500, 502, 504, 522, 524, 529].map((status) => new ProviderError('s', { provider: 'a', status })),
      new ProviderError('c', { provider: 'a', kind: 'connection', retryable: true }),
    ];
    for (const error of errors) {
      const provider = new FallbackProvider([new ScriptedProvider({ name: 'a', replies: [{ error }] }), new ScriptedProvider({ name: 'b', replies: ['ok'] })]);
      const response = await provider.complete({ model: provider.defaultModel, messages: [{ role: 'user', content: 'x' }] });
      assert.equal(response.provider, 'b', error.message);
    }
  });

  test('does not fail over on 400, 401, 404', async () => {
    for (const status of [400, 401, 404]) {
      const b = new ScriptedProvider({ name: 'b', replies: ['never'] });
      const provider = new FallbackProvider([new ScriptedProvider({ name: 'a', replies: [down(status)] }), b]);
      await assert.rejects(provider.complete({ model: provider.defaultModel, messages: [] }), (e: unknown) => ProviderError.isInstance(e) && e.status === status);
      assert.equal(b.requests.length, 0);
    }
  });

  test('a caller-chosen model goes to the first provider only', async () => {
    const a = new ScriptedProvider({ name: 'a', defaultModel: 'model-a', replies: [down()] });
    const b = new ScriptedProvider({ name: 'b', defaultModel: 'model-b', replies: ['ok'] });
    const provider = new FallbackProvider([a, b]);
    await provider.complete({ model: 'a-special', messages: [] });
    assert.equal(a.requests[0]!.model, 'a-special');
    assert.equal(b.requests[0]!.model, 'model-b');
  });

  test('circuit breaker: skipped after N consecutive failures for the cooldown, then tried again', async () => {
    let now = 0;
    const a = new ScriptedProvider({ name: 'a', respond: () => down(500) });
    const b = new ScriptedProvider({ name: 'b', respond: () => 'b' });
    const provider = new FallbackProvider([a, b], { circuitBreakerThreshold: 2, circuitBreakerCooldownMs: 1000, now: () => now });
    const ask = () => provider.complete({ model: provider.defaultModel, messages: [] });
    await ask();
    await ask();
    assert.equal(a.requests.length, 2);
    assert.equal(provider.status()[0]!.open, true);
    await ask();
    assert.equal(a.requests.length, 2, 'skipped while open');
    now = 1001;
    await ask();
    assert.equal(a.requests.length, 3, 'tried again after the cooldown');
  });

  test('when every circuit is open, all providers are still tried', async () => {
    const a = new ScriptedProvider({ name: 'a', respond: () => down(500) });
    const provider = new FallbackProvider([a], { circuitBreakerThreshold: 1 });
    await assert.rejects(provider.complete({ model: 'm', messages: [] }));
    await assert.rejects(provider.complete({ model: 'm', messages: [] }));
    assert.equal(a.requests.length, 2);
  });

  test('streams: failure before output fails over; after output it raises (no duplicated text)', async () => {
    const early = new FallbackProvider([new ScriptedProvider({ name: 'a', replies: [down(503)] }), new ScriptedProvider({ name: 'b', replies: ['hello from b'] })]);
    const agent = new Agent({ provider: early, runtime: testRuntime() });
    const stream = agent.stream('x');
    let text = '';
    for await (const t of stream.textStream) text += t;
    assert.equal(text, 'hello from b');
    assert.equal((await stream.result).providerUsed, 'b');

    const b = new ScriptedProvider({ name: 'b', replies: ['never'] });
    const late = new FallbackProvider([
      new ScriptedProvider({ name: 'a', replies: [{ text: 'partial answer here', errorAfterChunks: 2, error: new ProviderError('cut', { provider: 'a', status: 500 }) }] }),
      b,
    ]);
    const parts: string[] = [];
    await assert.rejects(async () => {
      for await (const part of late.stream({ model: late.defaultModel, messages: [] })) if (part.type === 'text-delta') parts.push(part.text);
    });
    assert.equal(b.requests.length, 0, 'no failover after output');
    assert.ok(parts.join('').length > 0 && !parts.join('').includes('never'));
  });

  test('success of a stream is recorded after it is consumed', async () => {
    const flaky = new ScriptedProvider({ name: 'a', replies: [down(500), 'ok'] });
    const provider = new FallbackProvider([flaky, new ScriptedProvider({ name: 'b', replies: ['b'] })], { circuitBreakerThreshold: 2 });
    await provider.complete({ model: provider.defaultModel, messages: [] });
    assert.equal(provider.status()[0]!.failures, 1);
    for await (const _ of provider.stream({ model: provider.defaultModel, messages: [] })) void _;
    assert.equal(provider.status()[0]!.failures, 0);
  });
});

test('embeddings go to the first provider that has them', async () => {
  const a = new ScriptedProvider({ name: 'a' });
  const provider = new FallbackProvider([a]);
  const response = await provider.embed({ texts: ['one', 'two'] });
  assert.equal(response.embeddings.length, 2);
  const noEmbed = { name: 'n', defaultModel: 'm', capabilities: a.capabilities, complete: a.complete.bind(a), stream: a.stream.bind(a) };
  await assert.rejects(new FallbackProvider([noEmbed]).embed({ texts: ['x'] }), /supports embeddings/);
});
