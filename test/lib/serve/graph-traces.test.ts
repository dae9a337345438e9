import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Agent } from '../../../lib/agent/agent.js';
import { AgentGraph } from '../../../lib/graph/agent-graph.js';
import { InMemoryCheckpointStore } from '../../../lib/graph/checkpoint/memory-store.js';
import { interrupt } from '../../../lib/graph/interrupt.js';
import type { Interruptible } from '../../../lib/graph/types.js';
import { ScriptedProvider } from '../../../lib/providers/scripted.js';
import { createGraphServeApp, type GraphInvokeResponse, type GraphServeApp } from '../../../lib/serve/index.js';
import { InMemoryTraceStore } from '../../../lib/trace/stores/in-memory-trace-store.js';
import type { TraceStore } from '../../../lib/trace/stores/types.js';
import { readSse } from './helpers.js';

// A served graph keeps each request's graph run trace (createGraphServeApp `traceStore`): the
// nodes, the nested agent's LLM call, the status; saved before the response goes out.

function served(traceStore: TraceStore, options: { failing?: boolean } = {}): { app: GraphServeApp; errors: unknown[] } {
  const provider = new ScriptedProvider({ respond: (request) => `notes on ${String(request.messages.at(-1)?.content)}` });
  const graph = new AgentGraph({ name: 'traced_flow' })
    .addNode('research', new Agent({ name: 'researcher', provider, retry: { maxRetries: 0 } }), { next: 'review' })
    .addNode('review', async function* (state): Interruptible {
      if (options.failing === true) throw new Error('review service down');
      const answer = yield interrupt('Publish?');
      return answer === 'yes' ? `published: ${String(state.data['__last_output__'])}` : 'held back';
    })
    .setEntry('research');
  const errors: unknown[] = [];
  return { app: createGraphServeApp({ graph, checkpointStore: new InMemoryCheckpointStore(), traceStore, keepAliveMs: 0, logError: (_m, error) => void errors.push(error) }), errors };
}

function request(app: GraphServeApp, path: string, body: unknown): Promise<Response> {
  return Promise.resolve(app.app.request(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }));
}

async function post<T>(app: GraphServeApp, path: string, body: unknown): Promise<T> {
  const response = await request(app, path, body);
  const text = await response.text();
  assert.equal(response.status, 200, text);
  return JSON.parse(text) as T;
}

describe('served graph: run traces in the trace store', () => {
  test('/invoke (interrupted) and /resume (completed) each save their graph run trace before answering: nodes, the nested agent LLM call, status', async () => {
    const store = new InMemoryTraceStore();
    const { app, errors } = served(store);
    const first = await post<GraphInvokeResponse>(app, '/invoke', { prompt: 'tides' });
    const saved = await store.get(first.run_id);
    assert.ok(saved, 'the interrupted run is in the store when /invoke answers');
    assert.equal(saved.status, 'interrupted');
    assert.equal(saved.metadata.graph, 'traced_flow');
    const nodes = saved.steps.filter((s) => s.type === 'graph_node_start').map((s) => s.name);
    assert.deepEqual(nodes, ['research', 'review']);
    assert.ok(saved.steps.some((s) => s.type === 'llm_call'), 'the nested agent run is in the trace');
    const done = await post<GraphInvokeResponse>(app, '/resume', { interrupt_id: first.interrupt_id, response: 'yes' });
    const resumed = await store.get(done.run_id);
    assert.equal(resumed?.status, 'completed');
    assert.equal(resumed?.output, 'published: notes on tides');
    assert.equal((await store.list({})).length, 2);
    assert.deepEqual(errors, []);
  });

  test('/stream saves the trace before its last frame; a failing run is saved with status error', async () => {
    const store = new InMemoryTraceStore();
    const { app } = served(store);
    let savedAtResult: string | undefined;
    const frames = await readSse(await request(app, '/stream', { prompt: 'waves' }), undefined, (frame) => {
      if (frame.event === 'result') void store.get((frame.data as GraphInvokeResponse).run_id).then((t) => (savedAtResult = t?.status));
    });
    const result = frames.find((f) => f.event === 'result')?.data as GraphInvokeResponse;
    assert.equal((await store.get(result.run_id))?.status, 'interrupted');
    assert.equal(savedAtResult, 'interrupted', 'saved before the result frame');
    const failingStore = new InMemoryTraceStore();
    const failing = served(failingStore, { failing: true });
    const failed = await readSse(await request(failing.app, '/stream', { prompt: 'x' }));
    const error = failed.find((f) => f.event === 'error')?.data as { run_id: string };
    const trace = await failingStore.get(error.run_id);
    assert.equal(trace?.status, 'error');
    assert.ok(trace?.steps.some((s) => s.type === 'graph_node_start' && s.name === 'review'));
  });

  test('a trace store that fails is logged and never fails the request', async () => {
    const broken = new InMemoryTraceStore();
    broken.save = () => Promise.reject(new Error('disk full'));
    const { app, errors } = served(broken);
    const first = await post<GraphInvokeResponse>(app, '/invoke', { prompt: 'tides' });
    assert.equal(first.status, 'interrupted');
    assert.equal(errors.length, 1);
    assert.match(String(errors[0]), /disk full/);
  });
});
