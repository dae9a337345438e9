import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { TraceFormatError } from '../../../lib/core/errors/trace-format-error.js';
import type { AgentEvent } from '../../../lib/events/types.js';
import { AgentTrace } from '../../../lib/trace/agent-trace.js';
import { TraceRecorder } from '../../../lib/trace/recorder.js';
import { TraceFileWriter } from '../../../lib/trace/trace-file-writer.js';
import type { TraceStep } from '../../../lib/trace/trace-step.js';

const T0 = 1_700_000_000_000;
const dir = mkdtempSync(join(tmpdir(), 'agentlib-trace-file-'));
after(() => rmSync(dir, { recursive: true, force: true }));

function step(id: string, startedAt = T0): TraceStep {
  return { id, runId: 'run_1', type: 'llm_call', name: 'gpt', startedAt, timestamp: new Date(startedAt).toISOString(), durationMs: 5, status: 'ok' };
}

/** The end of the current event-loop turn (when the writer writes what it queued). */
const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('reading a trace that ends early', () => {
  const complete = new AgentTrace({ runId: 'run_1', status: 'completed', steps: [step('s1'), step('s2', T0 + 5)] }).toJSONL();

  test('a last line cut off mid-write is dropped and the trace marked incomplete', () => {
    const cut = complete.slice(0, complete.length - 20);
    const trace = AgentTrace.fromJSONL(cut);
    assert.equal(trace.incomplete, true);
    assert.deepEqual(trace.steps.map((s) => s.id), ['s1']);
    assert.equal(trace.toJSON().incomplete, true, 'the flag is part of the JSON form');
    // and it survives a round trip through JSONL
    assert.equal(AgentTrace.fromJSONL(trace.toJSONL()).incomplete, true);
  });

  test('a whole trace is not incomplete; a bad line that ends with a line break is still an error', () => {
    assert.equal(AgentTrace.fromJSONL(complete).incomplete, undefined);
    assert.equal('incomplete' in AgentTrace.fromJSONL(complete).toJSON(), false);
    const lines = complete.split('\n');
    assert.throws(() => AgentTrace.fromJSONL(`${lines[0]}\n{"id":"s1"\n${lines[2]}\n`), (error: unknown) => TraceFormatError.isInstance(error) && error.line === 2);
    assert.throws(() => AgentTrace.fromJSONL(`${lines[0]}\n{"id":"s1"\n`), (error: unknown) => TraceFormatError.isInstance(error) && error.line === 2);
  });

  test('a header cut off leaves nothing to read: a clear error', () => {
    assert.throws(() => AgentTrace.fromJSONL(complete.slice(0, 15)), /the trace header is cut off/);
  });

  test('a header marked incomplete (a trace still being written) reads as incomplete', () => {
    const header = JSON.stringify({ type: 'trace', version: 1, runId: 'run_1', metadata: {}, nestedRuns: [], incomplete: true });
    const trace = AgentTrace.fromJSONL(`${header}\n${JSON.stringify(step('s1'))}\n`);
    assert.equal(trace.incomplete, true);
    assert.equal(trace.steps.length, 1);
    assert.throws(() => AgentTrace.fromJSONL(header.replace('"incomplete":true', '"incomplete":"yes"')), /incomplete/);
  });
});

describe('TraceFileWriter', () => {
  test('writes the header at once, each step by the end of the turn, and the finished trace over it', async () => {
    const path = join(dir, 'nested', 'run_1.jsonl');
    const writer = TraceFileWriter.open(path, { runId: 'run_1', agentName: 'helper', startedAt: T0, metadata: {}, nestedRuns: [] });
    const header = AgentTrace.fromJSONL(readFileSync(path, 'utf8'));
    assert.equal(header.incomplete, true);
    assert.equal(header.agentName, 'helper');
    assert.equal(header.steps.length, 0);

    writer.append(step('s1'));
    writer.append(step('s2', T0 + 5));
    await nextTurn();
    const partial = readFileSync(path, 'utf8');
    assert.ok(partial.endsWith('\n'), 'whole lines only');
    assert.deepEqual(AgentTrace.fromJSONL(partial).steps.map((s) => s.id), ['s1', 's2']);

    const finished = new AgentTrace({ runId: 'run_1', agentName: 'helper', status: 'completed', steps: [step('s1'), step('s2', T0 + 5), step('s3', T0 + 10)] });
    writer.finish(finished.toJSON());
    const text = readFileSync(path, 'utf8');
    assert.equal(text, finished.toJSONL());
    assert.equal(AgentTrace.fromJSONL(text).incomplete, undefined);
    assert.deepEqual(readdirSync(join(dir, 'nested')), ['run_1.jsonl'], 'no temporary file is left');
    writer.append(step('late'));
    await nextTurn();
    assert.equal(readFileSync(path, 'utf8'), text, 'nothing is appended after finish');
  });

  test('close leaves the steps so far, marked incomplete', async () => {
    const path = join(dir, 'run_2.jsonl');
    const writer = TraceFileWriter.open(path, { runId: 'run_1', metadata: {}, nestedRuns: [] });
    writer.append(step('s1'));
    writer.close();
    const trace = AgentTrace.fromJSONL(readFileSync(path, 'utf8'));
    assert.equal(trace.incomplete, true);
    assert.deepEqual(trace.steps.map((s) => s.id), ['s1']);
  });

  test('a failed finish keeps the partial trace and leaves no temporary file', () => {
    const path = join(dir, 'run_3.jsonl');
    const writer = TraceFileWriter.open(path, { runId: 'run_1', metadata: {}, nestedRuns: [] });
    const cyclic: Record<string, unknown> = {};
    cyclic['self'] = cyclic;
    assert.throws(() => writer.finish({ version: 1, runId: 'run_1', metadata: cyclic, nestedRuns: [], steps: [] }), /circular/i);
    assert.equal(existsSync(`${path}.${process.pid}.tmp`), false);
    assert.equal(AgentTrace.fromJSONL(readFileSync(path, 'utf8')).incomplete, true);
  });
});

describe('TraceRecorder onStep', () => {
  test('is called with each step as it is added to the trace', () => {
    const seen: string[] = [];
    const recorder = new TraceRecorder({ runId: 'run_1', onStep: (added) => seen.push(`${added.type}:${added.id}`) });
    const base = { runId: 'run_1', timestamp: T0 };
    const events = [
      { ...base, type: 'run-start', agentName: 'a', provider: 'p', model: 'm', input: 'hi' },
      { ...base, type: 'llm-start', iteration: 1, model: 'm', messageCount: 1 },
      { ...base, type: 'llm-end', iteration: 1, model: 'm', content: 'done', toolCalls: [], usage: { promptTokens: 1, completionTokens: 1, totalTokens: 2 }, durationMs: 3 },
    ] as unknown as AgentEvent[];
    for (const event of events) recorder.handle(event);
    assert.deepEqual(seen, recorder.trace.steps.map((s) => `${s.type}:${s.id}`));
    assert.ok(seen.length >= 1);
  });
});
