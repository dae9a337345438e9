import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Agent } from '../../../lib/agent/agent.js';
import type { AgentStream } from '../../../lib/agent/agent-stream.js';
import type { AgentInput, RunOptions } from '../../../lib/agent/types.js';
import { userMessage } from '../../../lib/core/message.js';
import type { AgentEvent } from '../../../lib/events/types.js';
import { ScriptedProvider } from '../../../lib/providers/scripted.js';
import { KeyedLock } from '../../../lib/serve/keyed-lock.js';
import { runAgent, type RunnerDeps } from '../../../lib/serve/run-agent.js';
import { InMemorySessionStore } from '../../../lib/serve/session-store.js';
import { testRuntime } from '../../support/agent-harness.js';

// A streamed request hands the run's events to `onEvent` as they are emitted (no AgentStream
// iteration): same events as iterating `agent.stream`, and the same semantics when `onEvent` throws.

function deps(createAgent: () => Agent): RunnerDeps {
  return { createAgent, sessions: new InMemorySessionStore(), locks: new KeyedLock(), maxSessionBytes: Infinity };
}

const request = { messages: [userMessage('question')], approve: [] };

describe('runAgent, streamed', () => {
  test('gives the events iterating agent.stream gives', async () => {
    const provider = (): ScriptedProvider => new ScriptedProvider({ replies: [{ chunks: ['The ', 'answer.'] }] });
    const direct: AgentEvent[] = [];
    const stream = new Agent({ provider: provider(), runtime: testRuntime() }).stream([userMessage('question')], { signal: new AbortController().signal });
    for await (const event of stream) direct.push(event);
    const served: AgentEvent[] = [];
    const result = await runAgent(deps(() => new Agent({ provider: provider(), runtime: testRuntime() })), request, new AbortController().signal, (event) => void served.push(event));
    assert.equal(result.content, 'The answer.');
    assert.deepEqual(served, direct);
  });

  test('onEvent throwing: no event follows, the run is aborted, the promise rejects with the error', async () => {
    const ends: AgentEvent[] = [];
    const agent = new Agent({
      provider: new ScriptedProvider({ replies: [{ chunks: ['a', 'b', 'c', 'd'], chunkDelayMs: 5 }] }),
      runtime: testRuntime(),
      observers: [{ onRunEnd: (event) => void ends.push(event) }],
    });
    const seen: string[] = [];
    const failure = new Error('cannot write');
    const outcome = await runAgent(deps(() => agent), request, new AbortController().signal, (event) => {
      seen.push(event.type);
      if (event.type === 'text-delta') throw failure;
    }).then(() => 'resolved', (error: unknown) => error);
    assert.equal(outcome, failure);
    assert.equal(seen.at(-1), 'text-delta');
    assert.equal(seen.filter((t) => t === 'text-delta').length, 1);
    await agent.flushObservers();
    // The run ends (cancelled) after the consumer failed: wait for it, however slow the machine.
    const deadline = Date.now() + 5000;
    while (ends.length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5));
    await agent.flushObservers();
    assert.equal(ends.length, 1);
    assert.equal(ends[0]?.type === 'run-end' ? ends[0].status : undefined, 'cancelled');
  });

  test('an Agent subclass with a stream of its own is iterated through it', async () => {
    let used = 0;
    class Counting extends Agent {
      override stream(input: AgentInput, options?: RunOptions): AgentStream {
        used++;
        return super.stream(input, options);
      }
    }
    const served: string[] = [];
    const result = await runAgent(deps(() => new Counting({ provider: new ScriptedProvider({ replies: ['ok'] }), runtime: testRuntime() })), request, new AbortController().signal, (event) => void served.push(event.type));
    assert.equal(used, 1);
    assert.equal(result.content, 'ok');
    assert.equal(served.at(-1), 'run-end');
  });
});
