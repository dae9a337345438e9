import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { AgentTrace } from '../../../lib/trace/agent-trace.js';
import { buildStepTree, flattenStepTree, stepTreeOrder } from '../../../lib/trace/tree.js';
import type { TraceStep } from '../../../lib/trace/trace-step.js';

const T0 = 1_700_000_000_000;

function step(fields: Partial<TraceStep> & Pick<TraceStep, 'id' | 'type'>): TraceStep {
  const startedAt = fields.startedAt ?? T0;
  return { runId: 'r', startedAt, timestamp: new Date(startedAt).toISOString(), durationMs: 0, status: 'ok', ...fields };
}

describe('buildStepTree', () => {
  test('nests steps under their parents, sorted by start, with depth and offset', () => {
    const trace = new AgentTrace({
      runId: 'r',
      startedAt: T0,
      steps: [
        step({ id: 'llm', type: 'llm_call', startedAt: T0 + 5, durationMs: 10 }),
        step({ id: 'sel', type: 'tool_selection', parentId: 'llm', startedAt: T0 + 15 }),
        step({ id: 'slow', type: 'tool_execution', parentId: 'sel', startedAt: T0 + 17, durationMs: 50 }),
        step({ id: 'fast', type: 'tool_execution', parentId: 'sel', startedAt: T0 + 16, durationMs: 5 }),
        step({ id: 'orphan', type: 'error', parentId: 'missing', startedAt: T0 + 1 }),
      ],
    });
    const roots = buildStepTree(trace);
    assert.deepEqual(roots.map((node) => node.step.id), ['orphan', 'llm']);
    const flat = flattenStepTree(roots);
    assert.deepEqual(flat.map((node) => [node.step.id, node.depth, node.offsetMs]), [
      ['orphan', 0, 1],
      ['llm', 0, 5],
      ['sel', 1, 15],
      ['fast', 2, 16],
      ['slow', 2, 17],
    ]);
  });

  test('every step appears once even when parent links form a cycle', () => {
    const trace = new AgentTrace({
      runId: 'r',
      steps: [step({ id: 'a', type: 'error', parentId: 'b' }), step({ id: 'b', type: 'error', parentId: 'a' }), step({ id: 'c', type: 'error', parentId: 'c' })],
    });
    const flat = flattenStepTree(buildStepTree(trace));
    assert.deepEqual(flat.map((node) => node.step.id).sort(), ['a', 'b', 'c']);
  });

  test('stepTreeOrder: pre-order entries with depth, parent index and subtree end (what the viewer and trace show share)', () => {
    const trace = new AgentTrace({
      runId: 'r',
      steps: [
        step({ id: 'llm', type: 'llm_call', startedAt: T0 + 5 }),
        step({ id: 'sel', type: 'tool_selection', parentId: 'llm', startedAt: T0 + 15 }),
        step({ id: 't2', type: 'tool_execution', parentId: 'sel', startedAt: T0 + 17 }),
        step({ id: 't1', type: 'tool_execution', parentId: 'sel', startedAt: T0 + 16 }),
        step({ id: 'next', type: 'llm_call', startedAt: T0 + 30 }),
      ],
    });
    assert.deepEqual(
      stepTreeOrder(trace).map((entry) => [entry.step.id, entry.index, entry.depth, entry.parentIndex, entry.end]),
      [
        ['llm', 0, 0, -1, 4],
        ['sel', 1, 1, 0, 4],
        ['t1', 2, 2, 1, 3],
        ['t2', 3, 2, 1, 4],
        ['next', 4, 0, -1, 5],
      ],
    );
  });

  test('a repeated id keeps both steps (children hang under the first); a 50,000-deep chain needs no recursion', () => {
    const twins = new AgentTrace({
      runId: 'r',
      steps: [step({ id: 'a', type: 'llm_call' }), step({ id: 'a', type: 'llm_call', startedAt: T0 + 1 }), step({ id: 'c', type: 'error', parentId: 'a', startedAt: T0 + 2 })],
    });
    assert.deepEqual(stepTreeOrder(twins).map((entry) => [entry.step.id, entry.depth]), [['a', 0], ['c', 1], ['a', 0]]);

    const steps = Array.from({ length: 50_000 }, (_, i) => step({ id: `s${i}`, type: 'graph_node_start', ...(i > 0 ? { parentId: `s${i - 1}` } : {}), startedAt: T0 + i }));
    const deep = new AgentTrace({ runId: 'r', steps });
    const order = stepTreeOrder(deep);
    assert.equal(order.at(-1)?.depth, 49_999);
    assert.equal(order[0]?.end, 50_000);
    const flat = flattenStepTree(buildStepTree(deep));
    assert.equal(flat.length, 50_000);
    assert.equal(flat.at(-1)?.depth, 49_999);
  });
});
