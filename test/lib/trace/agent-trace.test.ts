import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { AgentTrace } from '../../../lib/trace/agent-trace.js';
import { TraceFormatError } from '../../../lib/core/errors/trace-format-error.js';
import type { TraceStep } from '../../../lib/trace/trace-step.js';

const T0 = 1_700_000_000_000;

function step(fields: Partial<TraceStep> & Pick<TraceStep, 'id' | 'type'>): TraceStep {
  const startedAt = fields.startedAt ?? T0;
  return { runId: 'run_1', startedAt, timestamp: new Date(startedAt).toISOString(), durationMs: 0, status: 'ok', ...fields };
}

function sampleTrace(): AgentTrace {
  return new AgentTrace({
    runId: 'run_1',
    parentRunId: 'run_0',
    agentName: 'helper',
    startedAt: T0,
    endedAt: T0 + 400,
    status: 'completed',
    metadata: { team: 'core' },
    steps: [
      step({ id: 's1', type: 'llm_call', name: 'gpt-4o', startedAt: T0 + 10, durationMs: 100, usage: { promptTokens: 50, completionTokens: 10, totalTokens: 60 }, costUsd: 0.002, output: 'thinking' }),
      step({ id: 's2', parentId: 's1', type: 'tool_selection', startedAt: T0 + 110, name: 'a, b', reasoning: 'need both' }),
      step({ id: 's4', parentId: 's2', type: 'tool_execution', name: 'b', startedAt: T0 + 121, durationMs: 29, status: 'error', error: { name: 'ToolExecutionError', message: 'boom' } }),
      step({ id: 's3', parentId: 's2', type: 'tool_execution', name: 'a', startedAt: T0 + 120, durationMs: 100, output: 'result' }),
      step({ id: 's5', type: 'llm_call', name: 'gpt-4o', startedAt: T0 + 230, durationMs: 150, usage: { promptTokens: 80, completionTokens: 20, totalTokens: 100 }, costUsd: 0.003, output: 'Sunny' }),
    ],
  });
}

describe('AgentTrace', () => {
  test('JSONL is a header line then one step per line, and reads back to the same data', async () => {
    const trace = sampleTrace();
    const text = trace.toJSONL();
    const lines = text.trimEnd().split('\n');
    assert.equal(lines.length, 6);
    const header = JSON.parse(lines[0]!) as Record<string, unknown>;
    assert.deepEqual(
      { type: header['type'], version: header['version'], runId: header['runId'], parentRunId: header['parentRunId'], metadata: header['metadata'] },
      { type: 'trace', version: 1, runId: 'run_1', parentRunId: 'run_0', metadata: { team: 'core' } },
    );
    assert.equal((JSON.parse(lines[1]!) as TraceStep).id, 's1');
    const back = AgentTrace.fromJSONL(text);
    assert.deepEqual(back.toJSON(), trace.toJSON());
    assert.equal(Object.getPrototypeOf(back.steps[0]), Object.prototype, 'steps are plain objects');

    const dir = await mkdtemp(join(tmpdir(), 'agentlib-trace-'));
    try {
      const path = join(dir, 'nested', 'run.jsonl');
      await trace.writeJSONL(path);
      assert.equal(await readFile(path, 'utf8'), text);
      assert.deepEqual((await AgentTrace.readJSONL(path)).toJSON(), trace.toJSON());
      const viaPath = join(dir, 'other', 'run.jsonl');
      await trace.toJSONL(viaPath);
      assert.equal(await readFile(viaPath, 'utf8'), text, 'toJSONL(path) writes the same JSONL');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  test('toJSON is plain versioned JSON and fromJSON validates it', () => {
    const json = sampleTrace().toJSON();
    assert.equal(json.version, 1);
    assert.equal(json.steps.length, 5);
    assert.deepEqual(AgentTrace.fromJSON(JSON.parse(JSON.stringify(json))).toJSON(), json);
    assert.throws(() => AgentTrace.fromJSON({ ...json, version: 2 }), /unsupported trace format \(version 2\)/);
  });

  test('bad JSONL input fails with the line number', () => {
    const [header, first] = sampleTrace().toJSONL().split('\n');
    const cases: Array<[string, RegExp]> = [
      ['', /empty trace/],
      [`${first}\n`, /trace line 1: expected the trace header/],
      [`{"type":"trace","version":2,"runId":"r"}\n`, /trace line 1: unsupported trace format \(version 2\)/],
      [`{"type":"trace","runId":"r"}\n`, /trace line 1: unsupported trace format \(no version\)/],
      [`${header}\n\n{not json}\n`, /trace line 3: invalid JSON/],
      [`${header}\n${first!.replace('"llm_call"', '"llm_cal"')}\n`, /trace line 2: unknown step type "llm_cal" \(did you mean "llm_call"\?\)/],
      [`${header}\n${first!.replace('"durationMs":100', '"durationMs":"100"')}\n`, /trace line 2: field "durationMs" must be a finite number/],
      [`${header}\n${first!.replace('"status":"ok"', '"status":"done"')}\n`, /trace line 2: step field "status"/],
      [`${header}\n[1,2]\n`, /trace line 2: a step must be a JSON object/],
    ];
    for (const [text, message] of cases) {
      assert.throws(() => AgentTrace.fromJSONL(text), (error: unknown) => TraceFormatError.isInstance(error) && message.test(error.message), String(message));
    }
    try {
      AgentTrace.fromJSONL(`${header}\n{oops`);
    } catch (error) {
      assert.ok(TraceFormatError.isInstance(error));
      assert.equal(error.line, 2);
    }
  });

  test('reading never revives classes or prototype keys', () => {
    const [header, first] = sampleTrace().toJSONL().split('\n');
    const hostile = first!.replace('{', '{"__proto__":{"polluted":true},"constructor":{"x":1},');
    const trace = AgentTrace.fromJSONL(`${header}\n${hostile}\n`);
    const parsed = trace.steps[0]! as TraceStep & { polluted?: unknown };
    assert.equal(parsed.polluted, undefined);
    assert.equal(Object.getPrototypeOf(parsed), Object.prototype);
    assert.equal(({} as { polluted?: unknown }).polluted, undefined);
  });

  test('timeline sorts by start with offsets and depth; formatTimeline renders a table', () => {
    const timeline = sampleTrace().timeline();
    assert.deepEqual(timeline.map((e) => [e.step.id, e.offsetMs, e.depth]), [
      ['s1', 10, 0], ['s2', 110, 1], ['s3', 120, 2], ['s4', 121, 2], ['s5', 230, 0],
    ]);
    const table = sampleTrace().formatTimeline().split('\n');
    assert.match(table[0]!, /^offset\s+duration\s+step\s+name\s+status\s+summary$/);
    assert.match(table[3]!, /^\+120ms\s+100ms\s+ {4}tool_execution\s+a\s+ok\s+result$/);
    assert.match(table[4]!, /ToolExecutionError: boom/);
  });

  test('filter by one type, several types, status and name', () => {
    const trace = sampleTrace();
    assert.deepEqual(trace.filter({ type: 'llm_call' }).map((s) => s.id), ['s1', 's5']);
    assert.deepEqual(trace.filter({ type: ['tool_selection', 'tool_execution'] }).map((s) => s.id), ['s2', 's4', 's3']);
    assert.deepEqual(trace.filter({ type: 'tool_execution', status: 'error' }).map((s) => s.id), ['s4']);
    assert.deepEqual(trace.filter({ name: 'a' }).map((s) => s.id), ['s3']);
    assert.equal(trace.filter().length, 5);
    assert.throws(() => trace.filter({ type: 'tool_exec' as 'tool_execution' }), /did you mean "tool_execution"/);
  });

  test('totals sum tokens, cost, duration and counts', () => {
    const totals = sampleTrace().totals();
    assert.equal(totals.steps, 5);
    assert.equal(totals.durationMs, 400);
    assert.equal(totals.llmCalls, 2);
    assert.equal(totals.toolCalls, 2);
    assert.equal(totals.errors, 1);
    assert.equal(totals.promptTokens, 130);
    assert.equal(totals.completionTokens, 30);
    assert.equal(totals.totalTokens, 160);
    assert.ok(Math.abs(totals.costUsd - 0.005) < 1e-12);
    assert.deepEqual(totals.byType, { llm_call: 2, tool_selection: 1, tool_execution: 2 });
    const open = new AgentTrace({ runId: 'r', steps: [step({ id: 'x', type: 'cache_hit', startedAt: T0 + 5, durationMs: 7 }), step({ id: 'y', type: 'error', startedAt: T0 + 20 })] });
    assert.equal(open.totals().durationMs, 15, 'without run times the duration spans the steps');
  });
});

test('isoTimestamp matches Date#toISOString, including across second boundaries and out of range', async () => {
  const { isoTimestamp } = await import('../../../lib/trace/summary.js');
  const samples = [0, 999, 1000, 1_700_000_000_999, 1_700_000_001_000, 1_700_000_000_500.7, 253402300799999, 253402300800000, -1, -86_400_000];
  for (let t = 1_700_000_000_000; t < 1_700_000_003_000; t += 137) samples.push(t);
  for (const ms of samples) assert.equal(isoTimestamp(ms), new Date(ms).toISOString(), String(ms));
  assert.equal(isoTimestamp(Number.NaN), new Date(0).toISOString());
});
