import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Agent } from '../../../lib/agent/agent.js';
import { ProviderError } from '../../../lib/core/errors/provider-error.js';
import type { AgentEvent } from '../../../lib/events/types.js';
import { ScriptedProvider } from '../../../lib/providers/scripted.js';
import { testRuntime } from '../../support/agent-harness.js';

function chunked(text: string, size: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

describe('AgentStream', () => {
  test('events pushed before anyone iterates are buffered and delivered in order', async () => {
    const provider = new ScriptedProvider({ replies: [{ chunks: ['a', 'b', 'c'] }] });
    const agent = new Agent({ provider, runtime: testRuntime() });
    const stream = agent.stream('x');
    await stream.result; // the whole run happens before iteration starts
    const types: string[] = [];
    let text = '';
    for await (const event of stream) {
      types.push(event.type);
      if (event.type === 'text-delta') text += event.text;
    }
    assert.equal(text, 'abc');
    assert.equal(types[0], 'run-start');
    assert.equal(types.at(-1), 'run-end');
    assert.equal(types.filter((t) => t === 'text-delta').length, 3);
  });

  test('deltas: plain chunks as they are, "<" and <think> through the filter, empty chunks dropped', async () => {
    const provider = new ScriptedProvider({ replies: [{ chunks: ['Hi ', '', 'a <', 'b', ' <think>x</think>c', '<', ''] }] });
    const agent = new Agent({ provider, runtime: testRuntime() });
    const stream = agent.stream('x');
    const deltas: string[] = [];
    for await (const event of stream) {
      if (event.type === 'text-delta' || event.type === 'reasoning-delta') deltas.push(`${event.type}:${event.text}`);
    }
    assert.deepEqual(deltas, ['text-delta:Hi ', 'text-delta:a ', 'text-delta:<b', 'reasoning-delta:x', 'text-delta: c', 'text-delta:<']);
    const result = await stream.result;
    assert.equal(result.content, 'Hi a <b c<');
    assert.equal(result.reasoning, 'x');
  });

  test('a stream can be consumed once', async () => {
    const agent = new Agent({ provider: new ScriptedProvider({ replies: ['hi'] }), runtime: testRuntime() });
    const stream = agent.stream('x');
    for await (const event of stream) void event;
    await assert.rejects(async () => {
      for await (const t of stream.textStream) void t;
    }, /consumed once/);
  });

  test('a failed run yields its events, then raises its error exactly once', async () => {
    const error = new ProviderError('boom', { provider: 'scripted', status: 401 });
    const agent = new Agent({ provider: new ScriptedProvider({ replies: [{ error }] }), runtime: testRuntime() });
    const stream = agent.stream('x');
    const seen: string[] = [];
    const iterator = stream[Symbol.asyncIterator]();
    let raised: unknown;
    for (;;) {
      try {
        const step = await iterator.next();
        if (step.done === true) break;
        seen.push(step.value.type);
      } catch (e) {
        raised = e;
        break;
      }
    }
    assert.ok(ProviderError.isInstance(raised));
    assert.deepEqual(seen.slice(-2), ['error', 'run-end']);
    assert.deepEqual(await iterator.next(), { value: undefined, done: true }, 'after the error the iterator is done');
    await assert.rejects(stream.result, (e: unknown) => e === error);
  });

  test('leaving textStream early aborts the run', async () => {
    const provider = new ScriptedProvider({ replies: [{ chunks: ['first ', 'second'] }, 'unused'] });
    const agent = new Agent({ provider, runtime: testRuntime() });
    const stream = agent.stream('x');
    for await (const text of stream.textStream) {
      assert.equal(text, 'first ');
      break;
    }
    const result = await stream.result;
    assert.equal(result.status, 'cancelled');
  });

  test('a long stream arrives complete and in order (queue compaction)', async () => {
    const full = Array.from({ length: 3000 }, (_, i) => `w${i} `).join('');
    const provider = new ScriptedProvider({ replies: [{ chunks: chunked(full, 3) }] });
    const agent = new Agent({ provider, runtime: testRuntime() });
    const stream = agent.stream('x');
    let text = '';
    let n = 0;
    for await (const event of stream) {
      if (event.type !== 'text-delta') continue;
      text += event.text;
      // Pause now and then so the producer runs ahead and events queue up.
      if (++n % 500 === 0) await new Promise((resolve) => setTimeout(resolve, 1));
    }
    assert.equal(text, full);
    assert.equal((await stream.result).content, full.trim());
  });

  test('a blocking observer that returns a promise per delta keeps deltas in order and awaited', async () => {
    const log: string[] = [];
    let inFlight = 0;
    const observer = {
      blocking: true,
      onEvent: async (event: AgentEvent) => {
        inFlight++;
        assert.equal(inFlight, 1, 'the loop waits for the previous delta');
        await new Promise((resolve) => setImmediate(resolve));
        if (event.type === 'text-delta' || event.type === 'reasoning-delta') log.push(`${event.type}:${event.text}`);
        inFlight--;
      },
    };
    const provider = new ScriptedProvider({ replies: [{ chunks: ['<think>plan</think>An', 'swer'] }] });
    const agent = new Agent({ provider, observers: [observer], runtime: testRuntime() });
    const stream = agent.stream('x');
    for await (const event of stream) void event;
    assert.deepEqual(log, ['reasoning-delta:plan', 'text-delta:An', 'text-delta:swer']);
    assert.equal((await stream.result).content, 'Answer');
  });
});
