import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { CaseResult } from '../../../lib/evals/case-result.js';
import { liveProgress, plainProgress, wantsLiveView } from '../../../commands/eval/progress.js';
import { memoryIO } from '../../support/cli-io.js';

const result = (id: string, verdict: CaseResult['verdict']): CaseResult => ({ id, input: '', tags: [], weight: 1, metadata: {}, verdict, score: 0, flaky: false, attempts: [] });

describe('eval progress on stderr', () => {
  test('a live view only on a terminal with CI unset', () => {
    assert.equal(wantsLiveView(memoryIO({}, { isTTY: true })), true);
    assert.equal(wantsLiveView(memoryIO({ CI: 'true' }, { isTTY: true })), false);
    assert.equal(wantsLiveView(memoryIO({ CI: '0' }, { isTTY: true })), true);
    assert.equal(wantsLiveView(memoryIO({}, { isTTY: false })), false);
  });

  test('plain lines: one per finished case', () => {
    const io = memoryIO({ CI: 'true' });
    const view = plainProgress(io, 2);
    view.handle({ type: 'attempt-start', caseId: 'a', attempt: 1, worker: 1 });
    view.handle({ type: 'case-end', result: result('a', 'pass'), done: 1, total: 2 });
    view.stop();
    assert.equal(io.err(), '[1/2] pass  a (0.0 s)\n');
  });

  test('the live view: a progress bar with counts and one line per worker with its case, run and wait, redrawn in place', () => {
    const io = memoryIO({}, { isTTY: true });
    let now = 1000;
    const view = liveProgress(io, 4, 2, () => now);
    view.handle({ type: 'attempt-start', caseId: 'refund flow', attempt: 2, worker: 1 });
    view.handle({ type: 'case-end', result: result('x', 'fail'), done: 1, total: 4 });
    now = 3500;
    view.stop();
    const frame = io.err();
    assert.match(frame, /\[█{8}░{22}\] 1\/4 {2}✓ 0 {2}✗ 1 {2}! 0/);
    assert.match(frame, /worker 1: refund flow \(run 2\) agent, 2\.5 s/);
    assert.match(frame, /worker 2: idle/);
    view.handle({ type: 'attempt-end', caseId: 'refund flow', attempt: 2, worker: 1, result: { verdict: 'pass', score: 1, output: '', latencyMs: 1, promptTokens: 0, completionTokens: 0, totalTokens: 0, costUsd: 0, iterations: 1, toolCalls: [], assertions: [] } });
    view.stop();
    assert.match(io.err().slice(frame.length), /^\x1b\[3A/, 'the second frame moves up over the first');
  });

  test('each worker line says what its run waits on: the model, a tool, a retry backoff with the seconds left', () => {
    const io = memoryIO({}, { isTTY: true });
    let now = 10_000;
    const view = liveProgress(io, 3, 3, () => now);
    view.handle({ type: 'attempt-start', caseId: 'ask', attempt: 1, worker: 1 });
    view.handle({ type: 'attempt-start', caseId: 'lookup', attempt: 1, worker: 2 });
    view.handle({ type: 'attempt-start', caseId: 'flaky', attempt: 1, worker: 3 });
    view.handle({ type: 'attempt-wait', caseId: 'ask', attempt: 1, worker: 1, wait: { on: 'model', model: 'gpt-4o-mini' } });
    view.handle({ type: 'attempt-wait', caseId: 'lookup', attempt: 1, worker: 2, wait: { on: 'tool', tools: ['search_kb'] } });
    view.handle({ type: 'attempt-wait', caseId: 'flaky', attempt: 1, worker: 3, wait: { on: 'retry', model: 'gpt-4o-mini', attempt: 1, untilMs: 12_000 } });
    now = 10_500;
    view.stop();
    const frame = io.err();
    assert.match(frame, /worker 1: ask \(run 1\) model gpt-4o-mini, 0\.5 s/);
    assert.match(frame, /worker 2: lookup \(run 1\) tool search_kb, 0\.5 s/);
    assert.match(frame, /worker 3: flaky \(run 1\) retry backoff 1\.5 s \(retry 1, gpt-4o-mini\), 0\.5 s/);
  });
});
