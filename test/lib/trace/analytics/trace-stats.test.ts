import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { percentile, traceStats } from '../../../../lib/trace/analytics/index.js';
import type { AgentTraceJSON, TraceStep } from '../../../../lib/trace/trace-step.js';

const HOUR = 3_600_000;
const T0 = Date.UTC(2026, 0, 1);

function step(id: string, type: TraceStep['type'], extra: Partial<TraceStep> = {}): TraceStep {
  return { id, runId: 'r', type, startedAt: T0, timestamp: '', durationMs: 10, status: 'ok', ...extra };
}

function run(runId: string, at: number, steps: TraceStep[], fields: Partial<AgentTraceJSON> = {}): AgentTraceJSON {
  return { version: 1, runId, agentName: 'support', status: 'completed', startedAt: at, endedAt: at + 1_000, metadata: {}, nestedRuns: [], steps, ...fields };
}

const usage = (total: number) => ({ promptTokens: total - 2, completionTokens: 2, totalTokens: total });

describe('traceStats', () => {
  const traces = [
    run('a', T0, [
      step('1', 'llm_call', { name: 'gpt-4o', durationMs: 100, usage: usage(10), costUsd: 0.5 }),
      step('2', 'tool_execution', { name: 'lookup', durationMs: 20, output: 'x'.repeat(40), metadata: { cached: false } }),
      step('3', 'tool_execution', { name: 'lookup', durationMs: 40, status: 'error' }),
      step('4', 'cache_hit', { name: 'lookup', metadata: { kind: 'tool' } }),
      step('5', 'tool_execution', { name: 'lookup', durationMs: 0, metadata: { cached: true } }),
    ]),
    run('b', T0 + 2 * HOUR, [step('1', 'cache_hit', { name: 'gpt-4o', usage: usage(10), costUsd: 0, metadata: { kind: 'response' } }), step('2', 'llm_call', { name: 'gpt-4o-mini', durationMs: 300, usage: usage(20), costUsd: 0.25 })], { agentName: 'billing', status: 'failed', endedAt: T0 + 2 * HOUR + 3_000 }),
  ];

  test('per tool: calls, errors, success rate, cached calls, p50/p95 latency, result tokens', () => {
    assert.deepEqual(traceStats(traces).tools, [{ name: 'lookup', calls: 3, errors: 1, successRate: 2 / 3, cached: 1, p50Ms: 20, p95Ms: 40, resultTokens: 10 }]);
  });

  test('per model: calls, tokens (cache hits included), cost, cache hit rate, latency', () => {
    const [mini, big] = [traceStats(traces).models.find((m) => m.name === 'gpt-4o-mini'), traceStats(traces).models.find((m) => m.name === 'gpt-4o')];
    assert.deepEqual(big, { name: 'gpt-4o', calls: 1, errors: 0, promptTokens: 16, completionTokens: 4, totalTokens: 20, costUsd: 0.5, cacheHits: 1, cacheHitRate: 0.5, p50Ms: 100, p95Ms: 100 });
    assert.equal(mini?.cacheHitRate, 0);
    assert.equal(mini?.costUsd, 0.25);
  });

  test('per agent: runs, success rate, tokens, cost, run duration percentiles', () => {
    const agents = traceStats(traces).agents;
    assert.deepEqual(agents.map((a) => [a.name, a.runs, a.successRate, a.totalTokens, a.costUsd, a.p50Ms]), [
      ['billing', 1, 0, 30, 0.25, 3_000],
      ['support', 1, 1, 10, 0.5, 1_000],
    ]);
  });

  test('a time series of hourly buckets over a short span; --since drops older runs', () => {
    const report = traceStats(traces);
    assert.equal(report.bucketMs, HOUR);
    assert.deepEqual(report.series.map((b) => [b.start - T0, b.runs, b.costUsd]), [[0, 1, 0.5], [HOUR, 0, 0], [2 * HOUR, 1, 0.25]]);
    const recent = traceStats(traces, { since: T0 + HOUR });
    assert.equal(recent.runs, 1);
    assert.equal(recent.costUsd, 0.25);
    assert.equal(recent.since, T0 + HOUR);
  });

  test('spans over two days get daily buckets; no traces give an empty report', () => {
    const report = traceStats([run('a', T0, []), run('b', T0 + 5 * 24 * HOUR, [])]);
    assert.equal(report.bucketMs, 24 * HOUR);
    assert.equal(report.series.length, 6);
    assert.deepEqual(traceStats([]).series, []);
  });

  test('percentile: nearest rank', () => {
    assert.equal(percentile([], 50), 0);
    assert.equal(percentile([5, 1, 3], 50), 3);
    assert.equal(percentile(Array.from({ length: 100 }, (_, i) => i + 1), 95), 95);
  });
});
