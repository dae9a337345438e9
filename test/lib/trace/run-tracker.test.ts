import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { RunTracker } from '../../../lib/trace/run-tracker.js';
import type { TraceStep } from '../../../lib/trace/trace-step.js';

// The maps only some runs need are made on first use; reading through the helpers makes none.

describe('RunTracker', () => {
  test('answers queries the same before and after its lazy maps exist', () => {
    const runs = new RunTracker('run_1');
    assert.deepEqual(runs.toolsOf('run_1'), []);
    assert.deepEqual(runs.spansOf('run_1'), []);
    assert.deepEqual([...runs.openRunIds()], []);
    assert.equal(runs.anchor('run_1', 'a'), undefined);
    assert.equal(runs.cacheHitOf('run_1'), undefined);
    assert.equal(runs.nestedRun('run_1'), undefined);
    runs.forgetCacheHit('run_1');

    const start = { type: 'tool-start', runId: 'run_1', timestamp: 5, callId: 'c1', toolName: 'a', args: {} } as const;
    runs.tools.set(runs.key('run_1', 'c1'), { id: 'step_1', start, chunks: 0 });
    const span = { id: 'step_2', runId: 'run_1', type: 'graph_node_start', name: 'b', startedAt: 6, timestamp: '', durationMs: 0, status: 'ok' } as TraceStep;
    runs.openSpans.set('k', span);
    const step = { id: 'step_3' } as TraceStep;
    runs.cacheHits.set('run_1', { iteration: 1, step });
    runs.nested.set('run_2', { runId: 'run_2', parentRunId: 'run_1' });

    assert.deepEqual(runs.toolsOf('run_1').map(([, p]) => p.id), ['step_1']);
    assert.deepEqual(runs.toolsOf('run_9'), []);
    assert.deepEqual(runs.spansOf('run_1').map(([, s]) => s.id), ['step_2']);
    assert.deepEqual([...runs.openRunIds()], ['run_1']);
    assert.equal(runs.anchor('run_1', 'a'), 'step_1', 'the one named like the agent');
    assert.equal(runs.anchor('run_1', undefined), 'step_2', 'else the most recently started');
    assert.equal(runs.cacheHitOf('run_1')?.step, step);
    runs.forgetCacheHit('run_1');
    assert.equal(runs.cacheHitOf('run_1'), undefined);
    assert.equal(runs.nestedRun('run_2')?.parentRunId, 'run_1');
  });
});
