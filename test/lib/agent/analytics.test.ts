import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Agent } from '../../../lib/agent/agent.js';
import { AgentAnalytics } from '../../../lib/agent/analytics.js';
import { InMemoryCache } from '../../../lib/cache/index.js';
import { ScriptedProvider } from '../../../lib/providers/scripted.js';
import type { AgentEventOf, AgentEventPayloads, AgentEventType } from '../../../lib/events/types.js';
import { testRuntime } from '../../support/agent-harness.js';

const usage = (promptTokens: number, completionTokens: number, costUsd: number) => ({ promptTokens, completionTokens, totalTokens: promptTokens + completionTokens, costUsd, embeddingTokens: 0, embeddingCostUsd: 0 });
function event<T extends AgentEventType>(type: T, payload: AgentEventPayloads[T]): AgentEventOf<T> {
  return { type, runId: 'r1', timestamp: 0, ...payload };
}
const llmEnd = (model: string, durationMs: number, cached = false) =>
  event('llm-end', { iteration: 1, provider: 'p', model, durationMs, usage: usage(10, 5, cached ? 0 : 0.01), finishReason: 'stop', content: '', toolCalls: [], ...(cached ? { cached: true } : {}) });

describe('AgentAnalytics (enableAnalytics)', () => {
  test('per model: calls, cached replies, cache hit rate, tokens (cached included), cost, p50/p95 of the real calls', () => {
    const analytics = new AgentAnalytics();
    // 20 calls of gpt-a taking 1..20 ms, 5 cached replies; 2 calls of gpt-b.
    for (let ms = 1; ms <= 20; ms++) analytics.onEvent(llmEnd('gpt-a', ms));
    for (let i = 0; i < 5; i++) analytics.onEvent(llmEnd('gpt-a', 0, true));
    analytics.onEvent(llmEnd('gpt-b', 300));
    analytics.onEvent(llmEnd('gpt-b', 100));
    const snap = analytics.snapshot();
    const a = snap.models['gpt-a'];
    assert.ok(a !== undefined);
    assert.deepEqual(
      { calls: a.calls, cachedCalls: a.cachedCalls, cacheHitRate: a.cacheHitRate, totalTokens: a.totalTokens, p50Ms: a.p50Ms, p95Ms: a.p95Ms, avgMs: a.avgMs },
      { calls: 20, cachedCalls: 5, cacheHitRate: 0.2, totalTokens: 25 * 15, p50Ms: 10, p95Ms: 19, avgMs: 10.5 },
    );
    assert.equal(Number(a.costUsd.toFixed(6)), 0.2);
    assert.deepEqual([snap.models['gpt-b']?.p50Ms, snap.models['gpt-b']?.p95Ms, snap.models['gpt-b']?.cacheHitRate], [100, 300, 0]);
    assert.deepEqual([snap.llmCalls, snap.p50LlmMs, snap.p95LlmMs], [22, 11, 100]);
  });

  test('per tool: success rate, p50/p95, result tokens; per run: p50/p95; reset clears everything', () => {
    const analytics = new AgentAnalytics();
    for (let ms = 1; ms <= 10; ms++) analytics.onEvent(event('tool-end', { callId: `c${ms}`, toolName: 'search', args: {}, result: 'x'.repeat(40), durationMs: ms * 10, cached: ms === 10 }));
    analytics.onEvent(event('tool-error', { callId: 'e', toolName: 'search', args: {}, error: { name: 'Error', message: 'boom' }, kind: 'execution', durationMs: 500 }));
    for (const ms of [100, 200, 300, 400]) analytics.onEvent(event('run-end', { agentName: 'a', status: 'completed', content: '', iterations: 1, durationMs: ms, usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0, totalCostUsd: 0 } as never }));
    const snap = analytics.snapshot();
    const search = snap.tools['search'];
    assert.ok(search !== undefined);
    assert.deepEqual(
      { calls: search.calls, errors: search.errors, cached: search.cached, successRate: search.successRate, p50Ms: search.p50Ms, p95Ms: search.p95Ms, maxMs: search.maxMs, resultTokens: search.resultTokens },
      { calls: 11, errors: 1, cached: 1, successRate: 10 / 11, p50Ms: 60, p95Ms: 500, maxMs: 500, resultTokens: 100 },
    );
    assert.deepEqual([snap.runs, snap.p50RunMs, snap.p95RunMs], [4, 200, 400]);
    analytics.reset();
    const empty = analytics.snapshot();
    assert.deepEqual([empty.runs, empty.p50RunMs, empty.p95LlmMs, Object.keys(empty.models).length, Object.keys(empty.tools).length], [0, 0, 0, 0, 0]);
  });

  test('through an agent with a cache: the repeated question is a cached reply of its model', async () => {
    const provider = new ScriptedProvider({ replies: ['sunny'], usage: { promptTokens: 8, completionTokens: 2 } });
    const agent = new Agent({ provider, model: 'scripted-1', cache: new InMemoryCache(), enableAnalytics: true, runtime: testRuntime() });
    await agent.ask('weather?');
    await agent.ask('weather?');
    await agent.flushObservers();
    const model = agent.analytics?.models['scripted-1'];
    assert.deepEqual([model?.calls, model?.cachedCalls, model?.cacheHitRate, model?.totalTokens], [1, 1, 0.5, 20]);
  });
});
