import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Agent } from '../../../lib/agent/agent.js';
import { ProviderError } from '../../../lib/core/errors/provider-error.js';
import { FallbackProvider } from '../../../lib/providers/fallback.js';
import { ScriptedProvider } from '../../../lib/providers/scripted.js';
import { providerHttpError } from '../../../lib/providers/provider-errors.js';
import type { EmbedRequest, Provider, ProviderNotice, ProviderRequest, StreamPart } from '../../../lib/providers/spec.js';
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

  test('overloaded alone is a failover trigger: a 400 whose code says overloaded_error, an in-stream overloaded error without status', async () => {
    const overloaded400 = providerHttpError({ provider: 'a', status: 400, message: 'Overloaded', code: 'overloaded_error' });
    const inStream = new ProviderError('a stream error event: Overloaded', { provider: 'a', kind: 'overloaded', retryable: true });
    assert.deepEqual([overloaded400.status, overloaded400.kind], [400, 'overloaded'], 'the shared HTTP mapping calls it overloaded');
    for (const error of [overloaded400, inStream]) {
      const fallbacks: string[] = [];
      const b = new ScriptedProvider({ name: 'b', replies: ['ok', 'ok'] });
      const provider = new FallbackProvider([new ScriptedProvider({ name: 'a', replies: [{ error }, { error }] }), b], { onFallback: ({ from, to }) => fallbacks.push(`${from}->${to}`) });
      const response = await provider.complete({ model: provider.defaultModel, messages: [{ role: 'user', content: 'x' }] });
      assert.equal(response.provider, 'b', error.message);
      const parts: StreamPart[] = [];
      for await (const part of provider.stream({ model: provider.defaultModel, messages: [] })) parts.push(part);
      assert.equal((parts.at(-1) as { provider?: string }).provider, 'b', error.message);
      assert.deepEqual(fallbacks, ['a->b', 'a->b']);
      assert.equal(provider.status()[0]!.failures, 2, 'each counts against the circuit breaker');
    }
    // The same 400 without the overloaded code is a rejected request: raised at once.
    const plain400 = providerHttpError({ provider: 'a', status: 400, message: 'Invalid request', code: 'invalid_request_error' });
    const b = new ScriptedProvider({ name: 'b', replies: ['never'] });
    await assert.rejects(new FallbackProvider([new ScriptedProvider({ name: 'a', replies: [{ error: plain400 }] }), b]).complete({ model: 'm', messages: [] }), (e: unknown) => e === plain400);
    assert.equal(b.requests.length, 0);
  });

  test('a quota refusal (429 `quota`, not retryable) fails over and counts against the breaker, while a plain 400 does not', async () => {
    const quota = new ProviderError('openai returned 429: You exceeded your current quota', { provider: 'a', status: 429, kind: 'quota', retryable: false });
    const fallbacks: string[] = [];
    const provider = new FallbackProvider([new ScriptedProvider({ name: 'a', replies: [{ error: quota }] }), new ScriptedProvider({ name: 'b', replies: ['from b'] })], {
      onFallback: ({ from, to, error }) => fallbacks.push(`${from}->${to}:${(error as ProviderError).kind}`),
    });
    const response = await provider.complete({ model: provider.defaultModel, messages: [] });
    assert.equal(response.provider, 'b');
    assert.deepEqual(fallbacks, ['a->b:quota']);
    assert.equal(provider.status()[0]!.failures, 1);
    // Alone (nothing to fail over to), the quota error is raised as it is: the agent does not retry it.
    const alone = new FallbackProvider([new ScriptedProvider({ name: 'a', replies: [{ error: quota }, 'never'] })]);
    const runtime = testRuntime();
    await assert.rejects(new Agent({ provider: alone, runtime }).run('x'), (e: unknown) => e === quota);
    assert.deepEqual(runtime.sleeps, []);
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

  test('success of a stream is recorded after it is consumed, not at its first part', async () => {
    const flaky = new ScriptedProvider({ name: 'a', replies: [down(500), 'ok then more'] });
    const provider = new FallbackProvider([flaky, new ScriptedProvider({ name: 'b', replies: ['b'] })], { circuitBreakerThreshold: 2 });
    await provider.complete({ model: provider.defaultModel, messages: [] });
    assert.deepEqual(provider.status()[0], { label: 'a', model: flaky.defaultModel, open: false, failures: 1 });
    const stream = provider.stream({ model: provider.defaultModel, messages: [] })[Symbol.asyncIterator]();
    const first = await stream.next();
    assert.equal(first.value?.type, 'text-delta');
    assert.deepEqual(provider.status()[0], { label: 'a', model: flaky.defaultModel, open: false, failures: 1 }, 'unchanged while the stream is open');
    const seen: string[] = [];
    for (let next = await stream.next(); next.done !== true; next = await stream.next()) {
      seen.push(next.value.type);
      if (next.value.type !== 'finish') assert.equal(provider.status()[0]!.failures, 1, `unchanged after the ${next.value.type} part`);
    }
    assert.equal(seen.at(-1), 'finish');
    assert.deepEqual(provider.status()[0], { label: 'a', model: flaky.defaultModel, open: false, failures: 0 }, 'recorded once the stream ended');
  });

  test('a stream abandoned after its first part records no success (the failure count stays)', async () => {
    const flaky = new ScriptedProvider({ name: 'a', replies: [down(500), 'ok then more'] });
    const provider = new FallbackProvider([flaky, new ScriptedProvider({ name: 'b', replies: ['b'] })], { circuitBreakerThreshold: 2 });
    await provider.complete({ model: provider.defaultModel, messages: [] });
    for await (const part of provider.stream({ model: provider.defaultModel, messages: [] })) if (part.type === 'text-delta') break;
    assert.equal(provider.status()[0]!.failures, 1);
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

describe('FallbackProvider: caller aborts, stream notices, embeddings failover', () => {
  /** A provider that waits for the caller's abort, then fails with a retryable error (as an SDK may). */
  function abortsRetryably(name: string): Provider & { calls: number } {
    const wait = (signal: AbortSignal | undefined) =>
      new Promise<never>((_, reject) => signal?.addEventListener('abort', () => reject(new ProviderError('connection closed', { provider: name, kind: 'connection', retryable: true })), { once: true }));
    const provider = {
      name,
      defaultModel: 'm',
      capabilities: { tools: true, streaming: true, structuredOutput: true, vision: true, embeddings: true },
      calls: 0,
      complete: (request: ProviderRequest) => {
        provider.calls += 1;
        return wait(request.signal);
      },
      async *stream(request: ProviderRequest): AsyncIterable<StreamPart> {
        provider.calls += 1;
        yield* [] as StreamPart[];
        await wait(request.signal);
      },
      embed: (request: EmbedRequest) => {
        provider.calls += 1;
        return wait(request.signal);
      },
    };
    return provider;
  }

  test('a caller abort never fails over, even when the aborted call failed with a retryable error (complete, stream, embed)', async () => {
    const b = new ScriptedProvider({ name: 'b', replies: ['never'] });
    const a = abortsRetryably('a');
    const fallbacks: string[] = [];
    const provider = new FallbackProvider([a, b], { onFallback: ({ from, to }) => fallbacks.push(`${from}->${to}`) });
    const notices: ProviderNotice[] = [];
    const calls: ((signal: AbortSignal) => Promise<unknown>)[] = [
      (signal) => provider.complete({ model: provider.defaultModel, messages: [], signal, onNotice: (n) => notices.push(n) }),
      async (signal) => {
        for await (const part of provider.stream({ model: provider.defaultModel, messages: [], signal, onNotice: (n) => notices.push(n) })) void part;
      },
      (signal) => provider.embed({ texts: ['x'], signal }),
    ];
    for (const call of calls) {
      const controller = new AbortController();
      setTimeout(() => controller.abort(new Error('user cancelled')), 10);
      await assert.rejects(call(controller.signal), (error: unknown) => ProviderError.isInstance(error) && error.provider === 'a');
    }
    assert.equal(a.calls, 3);
    assert.equal(b.requests.length, 0, 'the next provider is never called after a caller abort');
    assert.deepEqual(fallbacks, []);
    assert.deepEqual(notices, []);
  });

  test('stream path: a failover before output sends the provider-fallback notice (and the agent event)', async () => {
    const notices: ProviderNotice[] = [];
    const provider = new FallbackProvider([new ScriptedProvider({ name: 'a', replies: [down(503)] }), new ScriptedProvider({ name: 'b', replies: ['hello from b'] })]);
    const parts: StreamPart[] = [];
    for await (const part of provider.stream({ model: provider.defaultModel, messages: [], onNotice: (n) => notices.push(n) })) parts.push(part);
    assert.deepEqual(notices.map((n) => (n.type === 'provider-fallback' ? [n.type, n.from, n.to] : [n.type])), [['provider-fallback', 'a', 'b']]);
    assert.equal((parts.at(-1) as { provider?: string }).provider, 'b');

    const again = new FallbackProvider([new ScriptedProvider({ name: 'a', replies: [down(529)] }), new ScriptedProvider({ name: 'b', replies: ['hello from b'] })]);
    const log = eventLog();
    const stream = new Agent({ provider: again, observers: [log.observer], runtime: testRuntime() }).stream('x');
    for await (const event of stream) void event;
    assert.equal((await stream.result).providerUsed, 'b');
    assert.deepEqual(log.of('provider-fallback').map((e) => [e.from, e.to, e.error.status]), [['a', 'b', 529]]);
  });

  test('embeddings fail over on retryable errors with the same rules and circuit breaker as complete', async () => {
    const failing = (status: number) => {
      let calls = 0;
      const base = new ScriptedProvider({ name: 'a' });
      const provider: Provider & { calls: () => number } = {
        name: 'a',
        defaultModel: 'm',
        capabilities: base.capabilities,
        complete: base.complete.bind(base),
        stream: base.stream.bind(base),
        embed: async () => {
          calls += 1;
          throw new ProviderError(`down ${status}`, { provider: 'a', status });
        },
        calls: () => calls,
      };
      return provider;
    };
    const a = failing(503);
    const b = new ScriptedProvider({ name: 'b' });
    const seen: EmbedRequest[] = [];
    const bEmbed = b.embed.bind(b);
    b.embed = (request: EmbedRequest) => {
      seen.push(request);
      return bEmbed(request);
    };
    let now = 0;
    const fallbacks: string[] = [];
    const provider = new FallbackProvider([a, b], { circuitBreakerThreshold: 2, circuitBreakerCooldownMs: 1000, now: () => now, onFallback: ({ from, to }) => fallbacks.push(`${from}->${to}`) });
    const notices: ProviderNotice[] = [];
    const response = await provider.embed({ texts: ['one', 'two'], model: 'text-embedding-3-small', onNotice: (n) => notices.push(n) });
    assert.equal(response.embeddings.length, 2);
    assert.deepEqual(fallbacks, ['a->b']);
    assert.equal(notices.length, 1);
    const notice = notices[0]!;
    assert.ok(notice.type === 'provider-fallback' && notice.from === 'a' && notice.to === 'b', 'the failover is a provider-fallback notice');
    assert.ok(ProviderError.isInstance(notice.error) && notice.error.status === 503);
    assert.equal(seen[0]!.model, undefined, 'an explicit embedding model goes to the first provider only');
    await provider.embed({ texts: ['x'] });
    assert.equal(a.calls(), 2);
    assert.equal(provider.status()[0]!.open, true);
    await provider.embed({ texts: ['x'] });
    assert.equal(a.calls(), 2, 'a tripped provider is skipped');
    now = 2000;
    await provider.embed({ texts: ['x'] });
    assert.equal(a.calls(), 3, 'tried again after the cooldown');

    const bad = failing(400);
    const b2 = new ScriptedProvider({ name: 'b' });
    await assert.rejects(new FallbackProvider([bad, b2]).embed({ texts: ['x'] }), (error: unknown) => ProviderError.isInstance(error) && error.status === 400);
  });
});
