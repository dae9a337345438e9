import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { AgentTrace } from '../../../lib/trace/agent-trace.js';
import { alignToolCalls, diffTraces, toolCallSequence, type DiffToolCall } from '../../../lib/trace/diff.js';
import type { TraceStep } from '../../../lib/trace/trace-step.js';

const T0 = 1_700_000_000_000;

function step(fields: Partial<TraceStep> & Pick<TraceStep, 'id' | 'type'>): TraceStep {
  const startedAt = fields.startedAt ?? T0;
  return { runId: 'r', startedAt, timestamp: new Date(startedAt).toISOString(), durationMs: 0, status: 'ok', ...fields };
}

const calls = (...names: string[]): DiffToolCall[] => names.map((name) => ({ name, input: '{}', status: 'ok', durationMs: 1 }));

describe('diffTraces', () => {
  test('aligns tool calls on names: same, changed, replaced, removed, added', () => {
    const a = [...calls('search', 'fetch', 'summarize', 'log')];
    const b = [...calls('search', 'lookup', 'summarize')];
    b[2] = { ...b[2]!, input: '{"short":true}' };
    b.push(...calls('notify', 'notify'));
    const rows = alignToolCalls(a, b);
    assert.deepEqual(
      rows.map((row) => [row.kind, row.a?.name, row.b?.name]),
      [
        ['same', 'search', 'search'],
        ['replaced', 'fetch', 'lookup'],
        ['changed', 'summarize', 'summarize'],
        ['replaced', 'log', 'notify'],
        ['added', undefined, 'notify'],
      ],
    );
    assert.deepEqual(alignToolCalls([], []), []);
    assert.deepEqual(alignToolCalls(calls('x'), []).map((row) => row.kind), ['removed']);
  });

  test('compares totals, step counts by type and status', () => {
    const a = new AgentTrace({
      runId: 'a',
      agentName: 'bot',
      status: 'completed',
      startedAt: T0,
      endedAt: T0 + 100,
      steps: [
        step({ id: '1', type: 'llm_call', usage: { promptTokens: 10, completionTokens: 5, totalTokens: 15 }, costUsd: 0.1 }),
        step({ id: '3', type: 'tool_execution', name: 'b', startedAt: T0 + 20, input: '{"x":1}' }),
        step({ id: '2', type: 'tool_execution', name: 'a', startedAt: T0 + 10, status: 'error' }),
      ],
    });
    const b = new AgentTrace({
      runId: 'b',
      agentName: 'bot',
      status: 'max-iterations',
      startedAt: T0,
      endedAt: T0 + 250,
      steps: [
        step({ id: '1', type: 'llm_call', usage: { promptTokens: 30, completionTokens: 5, totalTokens: 35 }, costUsd: 0.2 }),
        step({ id: '2', type: 'error' }),
      ],
    });
    assert.deepEqual(toolCallSequence(a).map((call) => call.name), ['a', 'b'], 'start order, not recording order');
    const diff = diffTraces(a, b);
    assert.deepEqual(diff.a, { runId: 'a', agentName: 'bot', status: 'completed' });
    assert.equal(diff.sameStatus, false);
    assert.equal(diff.sameShape, false);
    assert.deepEqual(diff.metrics.durationMs, { a: 100, b: 250, delta: 150 });
    assert.deepEqual(diff.metrics.totalTokens, { a: 15, b: 35, delta: 20 });
    assert.deepEqual(diff.metrics.costUsd, { a: 0.1, b: 0.2, delta: 0.1 }, 'no float noise in the cost delta');
    assert.deepEqual(diff.metrics.errors, { a: 1, b: 0, delta: -1 });
    assert.deepEqual(diff.stepsByType, [
      { type: 'llm_call', a: 1, b: 1, delta: 0 },
      { type: 'tool_execution', a: 2, b: 0, delta: -2 },
      { type: 'error', a: 0, b: 1, delta: 1 },
    ]);
    assert.deepEqual(diff.toolCalls.map((row) => row.kind), ['removed', 'removed']);
    assert.equal(diffTraces(a, a).sameShape, true);
  });
});
