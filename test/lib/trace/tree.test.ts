import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { AgentTrace } from '../../../lib/trace/agent-trace.js';
import { buildStepTree, flattenStepTree } from '../../../lib/trace/tree.js';
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
});
