import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { InMemoryTraceStore, JSONLTraceStore, openTraceStore, SQLiteTraceStore, type TraceStore } from '../../../../lib/trace/stores/index.js';
import type { AgentTraceJSON, TraceStep } from '../../../../lib/trace/trace-step.js';

const work = mkdtempSync(join(tmpdir(), 'agentlib-trace-stores-'));
after(() => rmSync(work, { recursive: true, force: true }));

interface Backend {
  name: string;
  open(): Promise<TraceStore>;
}

let dirs = 0;
const BACKENDS: Backend[] = [
  { name: 'InMemoryTraceStore', open: async () => new InMemoryTraceStore() },
  { name: 'JSONLTraceStore', open: async () => new JSONLTraceStore(join(work, `jsonl-${++dirs}`)) },
  { name: 'SQLiteTraceStore', open: async () => new SQLiteTraceStore(join(work, `traces-${++dirs}.db`)) },
];

function step(runId: string, id: string, type: TraceStep['type'], startedAt: number, extra: Partial<TraceStep> = {}): TraceStep {
  return { id, runId, type, startedAt, timestamp: new Date(startedAt).toISOString(), durationMs: 10, status: 'ok', ...extra };
}

function trace(runId: string, startedAt: number, fields: Partial<AgentTraceJSON> = {}): AgentTraceJSON {
  return {
    version: 1,
    runId,
    agentName: 'support',
    status: 'completed',
    startedAt,
    endedAt: startedAt + 100,
    metadata: {},
    nestedRuns: [],
    steps: [
      step(runId, 's1', 'llm_call', startedAt, { name: 'gpt-4o', usage: { promptTokens: 10, completionTokens: 5, totalTokens: 15 }, costUsd: 0.01 }),
      step(runId, 's2', 'tool_execution', startedAt + 20, { name: 'lookup' }),
    ],
    ...fields,
  };
}

for (const backend of BACKENDS) {
  describe(`TraceStore conformance: ${backend.name}`, () => {
    test('save then get returns an equal trace; a second save replaces it; get of an unknown id is undefined', async () => {
      const store = await backend.open();
      const t = trace('run_a', 1_000);
      await store.save(t);
      assert.deepEqual(await store.get('run_a'), t);
      await store.save({ ...t, status: 'failed' });
      assert.equal((await store.get('run_a'))?.status, 'failed');
      assert.equal((await store.list()).length, 1);
      assert.equal(await store.get('run_unknown'), undefined);
      await store.close();
    });

    test('list: summaries newest first with totals, filtered by agent, time range, status, tag and parent run', async () => {
      const store = await backend.open();
      await store.save(trace('run_1', 1_000, { metadata: { tags: ['prod', 'eu'] } }));
      await store.save(trace('run_2', 2_000, { agentName: 'billing', status: 'failed' }));
      await store.save(trace('run_3', 3_000, { parentRunId: 'run_1', metadata: { tags: ['eu'] } }));
      const all = await store.list();
      assert.deepEqual(all.map((s) => s.runId), ['run_3', 'run_2', 'run_1']);
      const first = all.find((s) => s.runId === 'run_1');
      assert.deepEqual(
        first && { steps: first.steps, llmCalls: first.llmCalls, toolCalls: first.toolCalls, totalTokens: first.totalTokens, costUsd: first.costUsd, tags: first.tags, durationMs: first.durationMs },
        { steps: 2, llmCalls: 1, toolCalls: 1, totalTokens: 15, costUsd: 0.01, tags: ['prod', 'eu'], durationMs: 100 },
      );
      const ids = async (query: Parameters<TraceStore['list']>[0]) => (await store.list(query)).map((s) => s.runId);
      assert.deepEqual(await ids({ agent: 'billing' }), ['run_2']);
      assert.deepEqual(await ids({ status: 'completed' }), ['run_3', 'run_1']);
      assert.deepEqual(await ids({ since: 2_000 }), ['run_3', 'run_2']);
      assert.deepEqual(await ids({ until: 2_000 }), ['run_1']);
      assert.deepEqual(await ids({ since: 1_500, until: 2_500 }), ['run_2']);
      assert.deepEqual(await ids({ tag: 'eu' }), ['run_3', 'run_1']);
      assert.deepEqual(await ids({ tag: 'prod' }), ['run_1']);
      assert.deepEqual(await ids({ parentRunId: 'run_1' }), ['run_3']);
      assert.deepEqual(await ids({ limit: 2 }), ['run_3', 'run_2']);
      assert.deepEqual(await ids({ agent: 'nobody' }), []);
      await store.close();
    });

    test('an unknown query field is refused, not ignored', async () => {
      const store = await backend.open();
      await assert.rejects(store.list({ agnet: 'x' } as never), /unknown trace query field "agnet"/);
      await store.close();
    });

    test('delete removes one trace and says whether it was there', async () => {
      const store = await backend.open();
      await store.save(trace('run_x', 1_000));
      assert.equal(await store.delete('run_x'), true);
      assert.equal(await store.delete('run_x'), false);
      assert.equal(await store.get('run_x'), undefined);
      await store.close();
    });

    test('prune removes the traces that started before a time and returns the count', async () => {
      const store = await backend.open();
      for (const [id, at] of [['run_old1', 1_000], ['run_old2', 2_000], ['run_new', 5_000]] as const) await store.save(trace(id, at));
      assert.equal(await store.prune({ before: 3_000 }), 2);
      assert.deepEqual((await store.list()).map((s) => s.runId), ['run_new']);
      await store.close();
    });

    test('run ids that could escape a directory or a key space are refused', async () => {
      const store = await backend.open();
      await assert.rejects(store.save(trace('../evil', 1)), /invalid run id/i);
      await assert.rejects(store.get('a/../../b'), /invalid run id/i);
      await store.close();
    });
  });
}

describe('openTraceStore', () => {
  test('picks the backend by URL; other schemes are refused naming the allowed ones', async () => {
    assert.ok(openTraceStore('memory://') instanceof InMemoryTraceStore);
    const jsonl = openTraceStore('file://traces', { cwd: work });
    assert.ok(jsonl instanceof JSONLTraceStore);
    assert.equal(jsonl.dir, join(work, 'traces'));
    const sqlite = openTraceStore('sqlite://', { cwd: work });
    assert.ok(sqlite instanceof SQLiteTraceStore);
    assert.equal(sqlite.path, join(work, '.agentlib', 'agentlib.db'));
    await sqlite.close();
    assert.throws(() => openTraceStore('redis://localhost', { cwd: work }), /memory.*file.*sqlite/);
  });
});
