import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, test } from 'node:test';
import { AgentTrace } from '../../../lib/trace/agent-trace.js';
import { alignToolCalls, diffTraces, toolCallSequence, type DiffToolCall } from '../../../lib/trace/diff.js';
import { step, T0, toolTrace } from './tool-trace.js';

/** Every call of both sides appears once, in order; anchored rows pair calls of the same tool. */
function assertAlignment(rows: ReturnType<typeof alignToolCalls>, a: readonly DiffToolCall[], b: readonly DiffToolCall[]): void {
  assert.deepEqual(rows.flatMap((row) => (row.a === undefined ? [] : [row.a])), a);
  assert.deepEqual(rows.flatMap((row) => (row.b === undefined ? [] : [row.b])), b);
  for (const row of rows) {
    if (row.kind === 'same' || row.kind === 'changed') assert.equal(row.a?.name, row.b?.name);
    if (row.kind === 'replaced') assert.notEqual(row.a?.name, row.b?.name);
  }
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
    assertAlignment(rows, a, b);
    assert.deepEqual(alignToolCalls([], []), []);
    assert.deepEqual(alignToolCalls(calls('x'), []).map((row) => row.kind), ['removed']);
  });

  test('two 20,000-step traces: aligned in linear memory (a 256 MB heap; the n·m table needed ~3 GB)', () => {
    // A child process with a small heap: building a 20,001 × 20,001 table there dies of heap exhaustion.
    const script = `
      const { diffTraces } = await import(${JSON.stringify(new URL('../../../lib/trace/diff.ts', import.meta.url).href)});
      const { toolTrace } = await import(${JSON.stringify(new URL('./tool-trace.ts', import.meta.url).href)});
      const tools = ['search', 'fetch', 'summarize', 'notify'];
      const a = toolTrace('a', 20000, (i) => tools[i % 4]);
      const b = toolTrace('b', 20000, (i) => (i % 37 === 0 ? 'lookup' : tools[(i + (i > 10000 ? 1 : 0)) % 4]));
      const diff = diffTraces(a, b);
      const kinds = {};
      for (const row of diff.toolCalls) kinds[row.kind] = (kinds[row.kind] ?? 0) + 1;
      process.stdout.write(JSON.stringify({ rows: diff.toolCalls.length, kinds }));
    `;
    const child = spawnSync(process.execPath, ['--max-old-space-size=256', '--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: fileURLToPath(new URL('../../../', import.meta.url)),
      encoding: 'utf8',
      env: { ...process.env, NODE_TEST_CONTEXT: '' },
    });
    assert.equal(child.status, 0, child.stderr);
    const result = JSON.parse(child.stdout) as { rows: number; kinds: Record<string, number> };
    assert.ok(result.rows >= 20_000 && result.rows <= 40_000, `rows: ${result.rows}`);
    // b renames every 37th call and shifts the tools by one from call 10,001: the rest is anchored.
    assert.ok((result.kinds['same'] ?? 0) + (result.kinds['changed'] ?? 0) > 19_000, JSON.stringify(result.kinds));
  });

  test('large, very different sequences still align every call, in order', () => {
    let seed = 3;
    const next = (): number => (seed = (seed * 48271) % 2147483647) / 2147483647;
    const tools = Array.from({ length: 20 }, (_, i) => `tool_${i}`);
    const a = toolCallSequence(toolTrace('a', 20_000, () => tools[Math.floor(next() * 20)] ?? 'x'));
    const b = toolCallSequence(toolTrace('b', 20_000, () => tools[Math.floor(next() * 20)] ?? 'x'));
    const rows = alignToolCalls(a, b);
    assertAlignment(rows, a, b);
    assert.ok(rows.filter((row) => row.kind === 'same' || row.kind === 'changed').length > 6000, 'a long common subsequence is found');
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
