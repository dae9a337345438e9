import assert from 'node:assert/strict';
import { getEventListeners } from 'node:events';
import { describe, test } from 'node:test';
import { Agent } from '../../../lib/agent/agent.js';
import { CancellationToken } from '../../../lib/core/cancellation-token.js';
import { ScriptedProvider } from '../../../lib/providers/scripted.js';
import { eventLog, slowTool, testRuntime, weatherTool } from '../../support/agent-harness.js';

const weatherCall = { toolName: 'get_weather', parameters: { city: 'Turku' } };

describe('agent loop: run control', () => {
  test('maxIterations (default 6) ends with a result that says so', async () => {
    const provider = new ScriptedProvider({ respond: () => ({ text: 'checking', toolCalls: [weatherCall] }) });
    const agent = new Agent({ provider, tools: [weatherTool()], runtime: testRuntime() });
    const result = await agent.run('loop forever');
    assert.equal(result.status, 'max-iterations');
    assert.equal(result.iterations, 6);
    assert.equal(provider.requests.length, 6);
    assert.match(result.content, /maximum of 6 iterations/);
  });

  test('token budget: partial result, budget_exceeded step and event', async () => {
    const provider = new ScriptedProvider({ respond: () => ({ text: 'step', toolCalls: [weatherCall], usage: { promptTokens: 60, completionTokens: 40 } }) });
    const log = eventLog();
    const agent = new Agent({ provider, tools: [weatherTool()], maxTotalTokens: 150, observers: [log.observer], runtime: testRuntime() });
    const result = await agent.run('go');
    assert.equal(result.status, 'budget-exceeded');
    assert.equal(provider.requests.length, 2);
    assert.match(result.content, /budget/);
    assert.deepEqual(log.of('budget-exceeded').map((e) => [e.kind, e.limit, e.actual]), [['tokens', 150, 200]]);
    assert.ok(result.trace.steps.some((s) => s.type === 'budget_exceeded'));
  });

  test('cost budget (nested budget group) and a single cost warning', async () => {
    const provider = new ScriptedProvider({ respond: () => ({ toolCalls: [weatherCall], usage: { promptTokens: 1, completionTokens: 1, costUsd: 0.02 } }) });
    const log = eventLog();
    const agent = new Agent({ provider, tools: [weatherTool()], budget: { maxCostUsd: 0.05, costWarningThreshold: 0.03 }, observers: [log.observer], runtime: testRuntime() });
    const result = await agent.run('go');
    assert.equal(result.status, 'budget-exceeded');
    assert.equal(provider.requests.length, 3);
    assert.equal(log.of('cost-warning').length, 1);
    assert.equal(log.of('budget-exceeded')[0]!.kind, 'cost');
  });

  test('cancellation at an iteration boundary', async () => {
    const token = new CancellationToken();
    const provider = new ScriptedProvider({ respond: () => { token.set(); return { toolCalls: [weatherCall] }; } });
    const log = eventLog();
    const agent = new Agent({ provider, tools: [weatherTool()], cancellationToken: token, observers: [log.observer], runtime: testRuntime() });
    const result = await agent.run('go');
    assert.equal(result.status, 'cancelled');
    assert.equal(provider.requests.length, 1);
    assert.ok(result.trace.steps.some((s) => s.type === 'cancelled'));
    assert.equal(log.of('cancelled').length, 1);
    token.reset();
    provider.push('fresh');
    const again = await agent.run('again');
    assert.equal(again.status, 'completed', 'the token is reusable after reset');
  });

  test('cancellation mid-tool: the tool sees the abort; a tool that ignores it is abandoned', async () => {
    for (const honour of [true, false]) {
      const log: string[] = [];
      const controller = new AbortController();
      const provider = new ScriptedProvider({ replies: [{ toolCalls: [{ toolName: 'slow', parameters: {} }] }, 'never'] });
      const events = eventLog();
      // Cancelled once the tool is running, however long the run takes to get there.
      const agent = new Agent({ provider, tools: [slowTool('slow', 5_000, log, honour, () => controller.abort())], observers: [events.observer], runtime: testRuntime() });
      const started = Date.now();
      const result = await agent.run('go', { signal: controller.signal });
      assert.ok(Date.now() - started < 2_000, 'did not wait for the tool');
      assert.equal(result.status, 'cancelled');
      assert.equal(provider.requests.length, 1);
      assert.equal(events.of('tool-error')[0]!.kind, 'cancelled');
      assert.equal(events.of('cancelled')[0]!.stage, 'tools');
    }
  });

  test('cancellation reaches an in-flight provider call', async () => {
    const token = new CancellationToken();
    // The token is set once the provider has the request (the reply then waits 5 s for it).
    const provider = new ScriptedProvider({ respond: () => (token.set(), { text: 'late', delayMs: 5_000 }) });
    const agent = new Agent({ provider, cancellationToken: token, runtime: testRuntime() });
    const started = Date.now();
    const result = await agent.run('go');
    assert.ok(Date.now() - started < 2_000);
    assert.equal(result.status, 'cancelled');
  });
});

test('runs leave no abort listeners behind on the cancellation signal (approvals, tools, sleeps)', async () => {
  const { ToolPolicy } = await import('../../../lib/safety/tool-policy.js');
  const token = new CancellationToken();
  const provider = new ScriptedProvider({ respond: (request) => (request.messages.at(-1)!.role === 'tool' ? 'done' : { toolCalls: [weatherCall] }) });
  const agent = new Agent({ provider, tools: [weatherTool()], cancellationToken: token, toolPolicy: new ToolPolicy({ review: ['*'] }), confirmAction: () => true, runtime: testRuntime() });
  for (let i = 0; i < 30; i++) await agent.ask('go');
  assert.equal(getEventListeners(token.signal, 'abort').length, 0);
});
