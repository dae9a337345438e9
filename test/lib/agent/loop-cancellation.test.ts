import assert from 'node:assert/strict';
import { getEventListeners } from 'node:events';
import { describe, test } from 'node:test';
import { Agent } from '../../../lib/agent/agent.js';
import { CancellationToken } from '../../../lib/core/cancellation-token.js';
import { ScriptedProvider } from '../../../lib/providers/scripted.js';
import { eventLog, slowTool, testRuntime, weatherTool } from '../../support/agent-harness.js';

/** Fails the test if anything rejects unhandled while `fn` runs (and shortly after). */
async function noUnhandledRejections(fn: () => Promise<void>): Promise<void> {
  const seen: unknown[] = [];
  const onRejection = (reason: unknown): void => void seen.push(reason);
  process.on('unhandledRejection', onRejection);
  try {
    await fn();
    await new Promise((resolve) => setTimeout(resolve, 50));
  } finally {
    process.off('unhandledRejection', onRejection);
  }
  assert.deepEqual(seen, []);
}

describe('agent loop: cancellation edges', () => {
  test('sequential tools: cancelling during the first skips the rest, without unhandled rejections', async () => {
    await noUnhandledRejections(async () => {
      const log: string[] = [];
      const controller = new AbortController();
      const provider = new ScriptedProvider({ replies: [{ toolCalls: [{ toolName: 'first', parameters: {} }, { toolName: 'second', parameters: {} }] }, 'never'] });
      const events = eventLog();
      // Cancelled once the first tool is running (not after a fixed delay, which a loaded machine may not reach the tool in).
      const first = slowTool('first', 5_000, log, true, () => controller.abort());
      const agent = new Agent({ provider, tools: [first, slowTool('second', 10, log)], parallelToolExecution: false, observers: [events.observer], runtime: testRuntime() });
      const result = await agent.run('go', { signal: controller.signal });
      assert.equal(result.status, 'cancelled');
      assert.deepEqual(log, ['start:first']);
      assert.deepEqual(events.of('tool-start').map((e) => e.toolName), ['first']);
      assert.deepEqual(events.of('policy-decision').map((e) => e.toolName), ['first']);
    });
  });

  test('cancelled while the provider answers: the reply is not acted on (no tools run)', async () => {
    await noUnhandledRejections(async () => {
      const token = new CancellationToken();
      const cities: string[] = [];
      const provider = new ScriptedProvider({
        respond: () => {
          token.set();
          return { toolCalls: [{ toolName: 'get_weather', parameters: { city: 'Vigo' } }] };
        },
      });
      // ScriptedProvider replies even though the signal is aborted when it answers synchronously.
      const events = eventLog();
      const agent = new Agent({ provider, tools: [weatherTool(cities)], cancellationToken: token, observers: [events.observer], runtime: testRuntime() });
      const result = await agent.run('go');
      assert.equal(result.status, 'cancelled');
      assert.deepEqual(cities, []);
      assert.equal(events.of('tool-start').length, 0);
      assert.equal(events.of('cancelled')[0]!.stage, 'llm');
    });
  });

  test('cancellation at an iteration boundary ends with stage "iteration" before any LLM call', async () => {
    const token = new CancellationToken();
    const provider = new ScriptedProvider({ replies: ['never'] });
    const events = eventLog();
    const agent = new Agent({
      provider,
      cancellationToken: token,
      observers: [events.observer, { blocking: true, onRunStart: () => token.set() }],
      runtime: testRuntime(),
    });
    const result = await agent.run('go');
    assert.equal(result.status, 'cancelled');
    assert.deepEqual(events.of('cancelled').map((e) => e.stage), ['iteration']);
    assert.equal(provider.requests.length, 0);
    assert.equal(result.iterations, 0);
  });

  test('cancellation set after tools (in stopCondition) is seen at the next iteration boundary', async () => {
    const token = new CancellationToken();
    const provider = new ScriptedProvider({ respond: () => ({ toolCalls: [{ toolName: 'get_weather', parameters: { city: 'Oulu' } }] }) });
    const events = eventLog();
    const agent = new Agent({
      provider,
      tools: [weatherTool()],
      cancellationToken: token,
      stopCondition: () => (token.set(), false),
      observers: [events.observer],
      runtime: testRuntime(),
    });
    const result = await agent.run('go');
    assert.equal(result.status, 'cancelled');
    assert.deepEqual(events.of('cancelled').map((e) => e.stage), ['iteration']);
    assert.equal(provider.requests.length, 1);
  });

  test('no listeners are left on long-lived signals by runs, streams and run signals', async () => {
    const token = new CancellationToken();
    const runSignal = new AbortController().signal;
    const provider = new ScriptedProvider({ respond: (r) => (r.messages.at(-1)!.role === 'tool' ? 'ok' : { toolCalls: [{ toolName: 'get_weather', parameters: { city: 'A' } }] }) });
    const agent = new Agent({ provider, tools: [weatherTool()], cancellationToken: token, runtime: testRuntime() });
    for (let i = 0; i < 10; i++) {
      await agent.ask('x', { signal: runSignal });
      const stream = agent.stream('y', { signal: runSignal });
      for await (const _ of stream) void _;
    }
    assert.equal(getEventListeners(token.signal, 'abort').length, 0);
    assert.equal(getEventListeners(runSignal, 'abort').length, 0);
  });
});

test('signals handed out: none to providers and a private one per tool call when nothing can cancel the run', async () => {
  const { isNeverAborted, NEVER_ABORTED } = await import('../../../lib/core/linked-signal.js');
  const { tool } = await import('../../../lib/tools/tool.js');
  const seen: { provider: (AbortSignal | undefined)[]; tool: AbortSignal[] } = { provider: [], tool: [] };
  const probe = tool({
    name: 'probe',
    description: 'Records its signal and links it like many tools do',
    parameters: { type: 'object', properties: {} },
    execute: (_a, ctx) => {
      seen.tool.push(ctx.signal);
      ctx.signal.addEventListener('abort', () => undefined);
      void AbortSignal.any([ctx.signal, new AbortController().signal]);
      return 'ok';
    },
  });
  const provider = new ScriptedProvider({
    respond: (request) => {
      seen.provider.push(request.signal);
      return request.messages.at(-1)!.role === 'tool' ? 'done' : { toolCalls: [{ toolName: 'probe', parameters: {} }] };
    },
  });
  const agent = new Agent({ provider, tools: [probe], runtime: testRuntime() });
  await agent.ask('a');
  await agent.ask('a');
  assert.deepEqual(seen.provider, [undefined, undefined, undefined, undefined]);
  assert.ok(seen.tool.every((signal) => !isNeverAborted(signal)), 'tools never receive the shared signal');
  assert.notEqual(seen.tool[0], seen.tool[1], 'each call gets its own');
  assert.equal(getEventListeners(NEVER_ABORTED, 'abort').length, 0);
  const controller = new AbortController();
  await agent.ask('b', { signal: controller.signal });
  const runSignal = seen.provider[4];
  assert.ok(runSignal !== undefined && !isNeverAborted(runSignal));
  assert.equal(seen.tool[2], runSignal, 'a cancellable run hands its own signal to provider and tools');
});
