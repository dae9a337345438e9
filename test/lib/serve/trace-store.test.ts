import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { ProviderError } from '../../../lib/core/errors/provider-error.js';
import { InMemoryTraceStore } from '../../../lib/trace/stores/in-memory-trace-store.js';
import { SQLiteTraceStore } from '../../../lib/trace/stores/sqlite-trace-store.js';
import type { AgentTraceJSON } from '../../../lib/trace/trace-step.js';
import { lookupTool, post, readSse, scriptedAgent, serve } from './helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'agentlib-serve-traces-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** A store whose saves fail, to show a failing store never fails a request. */
class BrokenStore extends InMemoryTraceStore {
  override save(_trace: AgentTraceJSON): Promise<void> {
    return Promise.reject(new Error('disk full'));
  }
}

describe('createServeApp({ traceStore }): each request\'s run trace is saved when the run ends', () => {
  test('/invoke, /stream and /v1/chat/completions each save their run\'s trace (SQLite), in the store before the response', async () => {
    const store = new SQLiteTraceStore(join(dir, 'traces.db'));
    after(() => store.close());
    const served = serve(
      scriptedAgent({ replies: [{ toolCalls: [{ toolName: 'lookup_order', parameters: { orderId: '42' } }] }, 'Order 42 has shipped.', 'Streamed.', 'Completed.'] }, { tools: [lookupTool()] }),
      { traceStore: store },
    );
    const invoked = (await (await post(served, '/invoke', { prompt: 'Where is order 42?' })).json()) as { run_id: string };
    const saved = await store.get(invoked.run_id);
    assert.equal(saved?.status, 'completed');
    assert.equal(saved?.agentName, 'test_agent');
    assert.deepEqual(saved?.steps.map((step) => step.type), ['llm_call', 'tool_selection', 'tool_execution', 'llm_call']);

    const events = await readSse(await post(served, '/stream', { prompt: 'stream it' }));
    const streamedRun = events.map((event) => event.data as { runId?: string; run_id?: string }).map((data) => data.runId ?? data.run_id).find((id) => id !== undefined);
    assert.ok(streamedRun !== undefined);
    assert.equal((await store.get(streamedRun))?.status, 'completed');

    const completion = await post(served, '/v1/chat/completions', { model: 'x', messages: [{ role: 'user', content: 'hi' }] });
    assert.equal(completion.status, 200);
    const listed = await store.list();
    assert.equal(listed.length, 3, 'one trace per request');
    assert.equal(new Set(listed.map((row) => row.runId)).size, 3);
    assert.deepEqual(served.errors, []);
  });

  test('a run that fails (provider error) saves its failed trace too', async () => {
    const store = new InMemoryTraceStore();
    const served = serve(scriptedAgent({ replies: [{ error: new ProviderError('upstream exploded', { provider: 'scripted', status: 400 }) }] }), { traceStore: store });
    const res = await post(served, '/invoke', { prompt: 'hi' });
    assert.notEqual(res.status, 200);
    const [row] = await store.list();
    assert.equal(row?.status, 'error');
    assert.ok((row?.errors ?? 0) >= 1);
  });

  test('a store that cannot save: the response is unaffected and the failure goes to logError', async () => {
    const served = serve(scriptedAgent({ replies: ['Fine.'] }), { traceStore: new BrokenStore() });
    const res = await post(served, '/invoke', { prompt: 'hi' });
    assert.equal(res.status, 200);
    assert.equal(((await res.json()) as { content: string }).content, 'Fine.');
    assert.equal(served.errors.length, 1);
    assert.match(String(served.errors[0]), /disk full/);
  });
});
