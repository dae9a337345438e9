import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { z } from 'zod';
import { Agent } from '../../../lib/agent/agent.js';
import { ConfigurationError } from '../../../lib/core/errors/configuration-error.js';
import type { AgentObserver } from '../../../lib/events/observer.js';
import { ScriptedProvider } from '../../../lib/providers/scripted.js';
import { tool } from '../../../lib/tools/tool.js';
import type { Tool } from '../../../lib/tools/types.js';
import { eventLog, testRuntime } from '../../support/agent-harness.js';
import { gate } from '../../support/gate.js';

/** A tool that waits for `release` before answering, so two runs overlap. */
function heldTool(release: Promise<void>, started: () => void): Tool {
  return tool({
    name: 'hold',
    description: 'Waits, then answers',
    parameters: z.object({ who: z.string() }),
    execute: async ({ who }) => {
      started();
      await release;
      return `held ${who}`;
    },
  });
}

describe('RunOptions.observers: observers of one run', () => {
  test('each run observer gets its own run events and none of the other run running at the same time', async () => {
    const release = gate();
    let startedTools = 0;
    const bothStarted = gate();
    const provider = new ScriptedProvider({
      respond: (request) => {
        const who = request.messages.find((m) => m.role === 'user')?.content ?? '';
        const answered = request.messages.some((m) => m.role === 'tool');
        return answered ? `done ${who}` : { toolCalls: [{ toolName: 'hold', parameters: { who } }] };
      },
    });
    const agentLog = eventLog();
    const agent = new Agent({
      provider,
      tools: [heldTool(release.opened, () => void (++startedTools === 2 && bothStarted.open()))],
      observers: [agentLog.observer],
      runtime: testRuntime(),
    });
    const logA = eventLog();
    const logB = eventLog();
    const runA = agent.ask('A', { observers: [logA.observer] });
    const runB = agent.ask('B', { observers: [logB.observer] });
    // both runs are inside their tool call: they interleave from here on
    await bothStarted.opened;
    release.open();
    const [a, b] = await Promise.all([runA, runB]);
    assert.notEqual(a.runId, b.runId);
    assert.ok(logA.events.length > 0 && logB.events.length > 0);
    assert.deepEqual(new Set(logA.events.map((e) => e.runId)), new Set([a.runId]), 'run A observer sees only run A');
    assert.deepEqual(new Set(logB.events.map((e) => e.runId)), new Set([b.runId]), 'run B observer sees only run B');
    // the same events, in the same order, as the agent's own observer sees for that run
    assert.deepEqual(logA.events, agentLog.events.filter((e) => e.runId === a.runId));
    assert.deepEqual(logB.events, agentLog.events.filter((e) => e.runId === b.runId));
    assert.deepEqual(logA.types(), ['run-start', 'iteration-start', 'llm-start', 'usage', 'llm-end', 'policy-decision', 'tool-start', 'tool-end', 'iteration-end', 'iteration-start', 'llm-start', 'usage', 'llm-end', 'iteration-end', 'run-end']);
    assert.equal(logA.of('tool-start')[0]?.args.who, 'A');
  });

  test('a later run without observers does not reach the earlier run observer', async () => {
    const provider = new ScriptedProvider({ respond: () => 'ok' });
    const agent = new Agent({ provider, runtime: testRuntime() });
    const log = eventLog();
    const first = await agent.run('one', { observers: [log.observer] });
    const count = log.events.length;
    await agent.run('two');
    await agent.stream('three').result;
    assert.equal(log.events.length, count);
    assert.ok(log.events.every((e) => e.runId === first.runId));
  });

  test('stream and run pass them too; a stream observer gets the text deltas of its run', async () => {
    const provider = new ScriptedProvider({ replies: ['streamed answer'] });
    const agent = new Agent({ provider, runtime: testRuntime() });
    const log = eventLog();
    const stream = agent.stream('hi', { observers: [log.observer] });
    const result = await stream.result;
    assert.equal(result.content, 'streamed answer');
    assert.equal(log.of('text-delta').map((e) => e.text).join(''), 'streamed answer');
    assert.equal(log.types().at(-1), 'run-end');
  });

  test('blocking run observers are awaited; fire-and-forget ones have settled when the run resolves', async () => {
    const provider = new ScriptedProvider({ replies: ['ok'] });
    const agent = new Agent({ provider, runtime: testRuntime() });
    const order: string[] = [];
    const blocking: AgentObserver = {
      blocking: true,
      onLlmStart: async () => {
        await Promise.resolve();
        order.push('blocking observer done');
      },
    };
    let settled = false;
    const later: AgentObserver = { onRunEnd: () => new Promise<void>((resolve) => setImmediate(() => { settled = true; resolve(); })) };
    await agent.ask('q', { observers: [blocking, later] });
    assert.equal(provider.requests.length, 1);
    assert.deepEqual(order, ['blocking observer done']);
    assert.equal(settled, true, 'the run waited for its own fire-and-forget observer');
  });

  test('a throwing run observer is reported through onObserverError and the run goes on', async () => {
    const reported: string[] = [];
    const provider = new ScriptedProvider({ replies: ['fine'] });
    const agent = new Agent({ provider, runtime: testRuntime(), onObserverError: (error, name, event) => void reported.push(`${name} ${event.type} ${(error as Error).message}`) });
    const result = await agent.ask('q', { observers: [{ name: 'broken', onLlmStart: () => { throw new Error('boom'); } }] });
    assert.equal(result.content, 'fine');
    assert.deepEqual(reported, ['broken llm-start boom']);
  });

  test('anything but an array of observer objects is refused', async () => {
    const agent = new Agent({ provider: new ScriptedProvider({ replies: ['x', 'y'] }), runtime: testRuntime() });
    await assert.rejects(agent.ask('q', { observers: 'log' as unknown as AgentObserver[] }), (error: unknown) => ConfigurationError.isInstance(error) && /RunOptions\.observers must be an array/.test((error as Error).message));
    await assert.rejects(agent.run('q', { observers: [null as unknown as AgentObserver] }), (error: unknown) => ConfigurationError.isInstance(error) && /observers\[0\] must be an observer object, got null/.test((error as Error).message));
    // nothing was sent to the model and nothing was added to the conversation
    assert.equal(agent.history.length, 0);
  });
});
