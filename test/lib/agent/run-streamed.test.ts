import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Agent, runStreamed } from '../../../lib/agent/agent.js';
import { RunAborter } from '../../../lib/agent/run-aborter.js';
import type { AgentEvent } from '../../../lib/events/types.js';
import { ScriptedProvider } from '../../../lib/providers/scripted.js';
import { tool } from '../../../lib/tools/tool.js';
import type { Tool } from '../../../lib/tools/types.js';
import { z } from 'zod';
import { testRuntime } from '../../support/agent-harness.js';

// `runStreamed` (what lib/serve uses) must be `agent.stream` with its events handed over
// synchronously: same events, trace, result and history.

const lookup = tool({ name: 'lookup', description: 'Looks a thing up.', parameters: z.object({ q: z.string() }), execute: ({ q }) => `found ${q}` }) as Tool;

function scripted(): ScriptedProvider {
  return new ScriptedProvider({
    replies: [
      { toolCalls: [{ toolName: 'lookup', parameters: { q: 'x' } }], chunks: ['let me ', 'look'] },
      { chunks: ['<think>hm</think>The ', 'answer ', 'is x.'], usage: { promptTokens: 5, completionTokens: 7 } },
    ],
  });
}

async function viaStream(signal?: AbortSignal): Promise<{ events: AgentEvent[]; result: unknown; trace: unknown; history: unknown }> {
  const agent = new Agent({ provider: scripted(), tools: [lookup], runtime: testRuntime() });
  const stream = agent.stream('question', signal ? { signal } : {});
  const events: AgentEvent[] = [];
  for await (const event of stream) events.push(event);
  const result = await stream.result;
  return { events, result: result.toJSON(), trace: result.trace.toJSON(), history: agent.history };
}

async function viaRunStreamed(signal?: AbortSignal): Promise<{ events: AgentEvent[]; result: unknown; trace: unknown; history: unknown }> {
  const agent = new Agent({ provider: scripted(), tools: [lookup], runtime: testRuntime() });
  const events: AgentEvent[] = [];
  const result = await runStreamed(agent, 'question', signal ? { signal } : {}, (event) => void events.push(event), new RunAborter());
  return { events, result: result.toJSON(), trace: result.trace.toJSON(), history: agent.history };
}

describe('runStreamed', () => {
  test('gives the events, result, trace and history agent.stream gives', async () => {
    const a = await viaStream();
    const b = await viaRunStreamed();
    assert.ok(a.events.some((e) => e.type === 'text-delta') && a.events.some((e) => e.type === 'tool-end'));
    assert.deepEqual(b.events, a.events);
    assert.deepEqual(b.result, a.result);
    assert.deepEqual(b.trace, a.trace);
    assert.deepEqual(b.history, a.history);
  });

  test('the same with a run signal', async () => {
    const a = await viaStream(new AbortController().signal);
    const b = await viaRunStreamed(new AbortController().signal);
    assert.deepEqual(b.events, a.events);
    assert.deepEqual(b.trace, a.trace);
  });

  test('hands each event over while the run is still going (synchronously)', async () => {
    const agent = new Agent({ provider: scripted(), tools: [lookup], runtime: testRuntime() });
    const seen: string[] = [];
    const promise = runStreamed(agent, 'question', {}, (event) => void seen.push(event.type), new RunAborter());
    assert.deepEqual(seen, ['run-start'], 'run-start is delivered before runStreamed returns');
    await promise;
    assert.equal(seen.at(-1), 'run-end');
  });

  test('its aborter cancels the run as leaving a stream does', async () => {
    const agent = new Agent({ provider: new ScriptedProvider({ replies: [{ chunks: ['a', 'b', 'c', 'd'], chunkDelayMs: 5 }] }), runtime: testRuntime() });
    const aborter = new RunAborter();
    const events: AgentEvent[] = [];
    const result = await runStreamed(agent, 'q', {}, (event) => {
      events.push(event);
      if (event.type === 'text-delta') aborter.abort(new Error('stream consumer stopped'));
    }, aborter).catch((error: unknown) => error);
    assert.ok(events.some((e) => e.type === 'run-end'));
    const end = events.find((e) => e.type === 'run-end');
    assert.ok(end?.type === 'run-end' && (end.status === 'cancelled' || end.status === 'error'));
    assert.ok(result !== undefined);
  });
});

describe('Agent.stream abort', () => {
  test('abort() after the run ended does nothing; abort() while running cancels with the given reason', async () => {
    const agent = new Agent({ provider: new ScriptedProvider({ replies: ['done', { chunks: ['a', 'b', 'c'], chunkDelayMs: 20 }] }), runtime: testRuntime() });
    const first = agent.stream('q');
    const result = await first.result;
    first.abort(new Error('late'));
    assert.equal(result.status, 'completed');

    const second = agent.stream('q', {});
    const reasons: unknown[] = [];
    second.abort(new Error('stop now'));
    const events: AgentEvent[] = [];
    for await (const event of second) {
      events.push(event);
      if (event.type === 'cancelled') reasons.push(event.reason);
    }
    const r2 = await second.result.catch((error: unknown) => error);
    assert.ok(r2 !== undefined);
    assert.deepEqual(reasons, ['stop now']);
  });
});

describe('RunAborter', () => {
  test('an abort before attach is applied at attach; after detach nothing is', () => {
    const calls: unknown[] = [];
    const early = new RunAborter();
    early.abort('r1');
    early.abort('r2');
    early.attach((reason) => calls.push(reason));
    assert.deepEqual(calls, ['r1']);
    early.abort('r3');
    assert.deepEqual(calls, ['r1', 'r3']);
    early.detach();
    early.abort('r4');
    assert.deepEqual(calls, ['r1', 'r3']);
  });
});
