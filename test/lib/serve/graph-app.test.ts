import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Agent } from '../../../lib/agent/agent.js';
import { AgentGraph } from '../../../lib/graph/agent-graph.js';
import { InMemoryCheckpointStore } from '../../../lib/graph/checkpoint/memory-store.js';
import { interrupt } from '../../../lib/graph/interrupt.js';
import type { Interruptible } from '../../../lib/graph/types.js';
import { ScriptedProvider } from '../../../lib/providers/scripted.js';
import { createGraphServeApp, type GraphInvokeResponse, type GraphServeApp } from '../../../lib/serve/index.js';
import { readSse, type ErrorBody } from './helpers.js';

// A served graph (createGraphServeApp) through Hono's app.request(): run, interrupt, resume,
// streaming, checkpoints, and a 4xx JSON error for every bad body.

interface Fixture {
  served: GraphServeApp;
  provider: ScriptedProvider;
  drafts: string[];
  errors: unknown[];
}

/** draft (function; counts its runs) → research (agent) → review (asks a person) → END. */
function fixture(): Fixture {
  const drafts: string[] = [];
  const provider = new ScriptedProvider({ respond: (request) => `notes on ${String(request.messages.at(-1)?.content)}` });
  const graph = new AgentGraph({ name: 'review_flow' })
    .addNode('draft', (state) => {
      drafts.push(String(state.messages.at(-1)?.content));
      return `topic: ${String(state.messages.at(-1)?.content)}`;
    }, { next: 'research' })
    .addNode('research', new Agent({ name: 'researcher', provider, retry: { maxRetries: 0 } }), { next: 'review' })
    .addNode('review', async function* (state): Interruptible {
      const answer = yield interrupt('Publish the notes?', { notes: state.data['__last_output__'] });
      return answer === 'yes' ? `published: ${String(state.data['__last_output__'])}` : 'held back';
    })
    .setEntry('draft');
  const errors: unknown[] = [];
  const served = createGraphServeApp({ graph, checkpointStore: new InMemoryCheckpointStore(), keepAliveMs: 0, logError: (_m, error) => void errors.push(error) });
  return { served, provider, drafts, errors };
}

function request(served: GraphServeApp, method: string, path: string, body?: unknown): Promise<Response> {
  return Promise.resolve(
    served.app.request(path, { method, headers: { 'content-type': 'application/json' }, ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }) }),
  );
}

async function json<T>(response: Response, status: number): Promise<T> {
  const text = await response.text();
  assert.equal(response.status, status, text);
  return JSON.parse(text) as T;
}

describe('served graph: POST /invoke and POST /resume', () => {
  test('a run stops at the interrupt with its id, prompt and payload; /resume finishes it without running a finished node again', async () => {
    const { served, provider, drafts } = fixture();
    const first = await json<GraphInvokeResponse>(await request(served, 'POST', '/invoke', { prompt: 'tides', thread_id: 'th-1', metadata: { ticket: 7 } }), 200);
    assert.equal(first.status, 'interrupted');
    assert.equal(first.interrupted, true);
    assert.equal(first.thread_id, 'th-1');
    assert.match(first.interrupt_id ?? '', /^th-1:/);
    assert.deepEqual(first.interrupts, [{ id: first.interrupt_id, node: 'review', path: ['review'], prompt: 'Publish the notes?', payload: { notes: 'notes on tides' } }]);
    assert.deepEqual(first.history, ['draft', 'research']);
    assert.deepEqual(first.metadata, { ticket: 7 });
    assert.ok(first.usage.total_tokens > 0);

    const done = await json<GraphInvokeResponse>(await request(served, 'POST', '/resume', { interrupt_id: first.interrupt_id, response: 'yes' }), 200);
    assert.equal(done.status, 'completed');
    assert.equal(done.content, 'published: notes on tides');
    assert.deepEqual(done.history, ['draft', 'research', 'review']);
    assert.deepEqual(drafts, ['tides'], 'draft ran once');
    assert.equal(provider.requests.length, 1, 'the agent node ran once');

    const again = await json<ErrorBody>(await request(served, 'POST', '/resume', { interrupt_id: first.interrupt_id, response: 'yes' }), 409);
    assert.equal(again.error.type, 'conflict_error');
    const unknown = await json<ErrorBody>(await request(served, 'POST', '/resume', { interrupt_id: 'th-1:int_nope', response: 'yes' }), 404);
    assert.equal(unknown.error.type, 'not_found_error');
    const reused = await json<ErrorBody>(await request(served, 'POST', '/invoke', { prompt: 'again', thread_id: 'th-1' }), 409);
    assert.match(reused.error.message, /thread "th-1" already has checkpoints/);
  });

  test('requests are isolated: each run gets its own state and thread; the agent node never sees another request', async () => {
    const { served, provider } = fixture();
    const a = await json<GraphInvokeResponse>(await request(served, 'POST', '/invoke', { prompt: 'alpha' }), 200);
    const b = await json<GraphInvokeResponse>(await request(served, 'POST', '/invoke', { prompt: 'beta' }), 200);
    assert.notEqual(a.thread_id, b.thread_id);
    assert.deepEqual(provider.requests.map((r) => r.messages.map((m) => m.content)), [['alpha'], ['beta']]);
    const held = await json<GraphInvokeResponse>(await request(served, 'POST', '/resume', { interrupt_id: b.interrupt_id, response: 'no' }), 200);
    assert.equal(held.content, 'held back');
  });

  test('checkpoints: a thread\'s list (newest first, paginated) and one checkpoint with its state', async () => {
    const { served } = fixture();
    const run = await json<GraphInvokeResponse>(await request(served, 'POST', '/invoke', { prompt: 'moons', thread_id: 'hist' }), 200);
    const page = await json<{ checkpoints: { id: string; step: number; source: string }[]; next_before: string | null }>(await request(served, 'GET', '/threads/hist/checkpoints?limit=2'), 200);
    assert.equal(page.checkpoints.length, 2);
    assert.equal(page.checkpoints[0]?.id, run.checkpoint_id);
    assert.equal(page.checkpoints[0]?.source, 'interrupt');
    assert.ok((page.checkpoints[0]?.step ?? 0) >= (page.checkpoints[1]?.step ?? 0));
    assert.equal(page.next_before, page.checkpoints[1]?.id);
    const rest = await json<{ checkpoints: { id: string }[] }>(await request(served, 'GET', `/threads/hist/checkpoints?before=${page.next_before ?? ''}`), 200);
    assert.ok(rest.checkpoints.length >= 1);
    assert.ok(!rest.checkpoints.some((c) => page.checkpoints.some((p) => p.id === c.id)));
    const one = await json<{ id: string; state: { history: string[] } }>(await request(served, 'GET', `/checkpoints/${run.checkpoint_id ?? ''}`), 200);
    assert.deepEqual(one.state.history, ['draft', 'research']);
    assert.equal((await json<ErrorBody>(await request(served, 'GET', '/threads/nobody/checkpoints'), 404)).error.type, 'not_found_error');
    assert.equal((await json<ErrorBody>(await request(served, 'GET', '/checkpoints/ckpt_missing'), 404)).error.type, 'not_found_error');
    assert.equal((await json<ErrorBody>(await request(served, 'GET', '/threads/hist/checkpoints?limit=0'), 400)).error.type, 'invalid_request_error');
  });

  test('/schema describes the graph and its request bodies; /health names it', async () => {
    const { served } = fixture();
    const schema = await json<{ kind: string; graph: { entry: string; nodes: unknown[] }; input_schema: { properties: Record<string, unknown> } }>(await request(served, 'GET', '/schema'), 200);
    assert.equal(schema.kind, 'graph');
    assert.equal(schema.graph.entry, 'draft');
    assert.ok('thread_id' in schema.input_schema.properties);
    const health = await json<{ graph: string; nodes: string[] }>(await request(served, 'GET', '/health'), 200);
    assert.equal(health.graph, 'review_flow');
    assert.deepEqual(health.nodes, ['draft', 'research', 'review']);
  });
});

describe('served graph: POST /stream', () => {
  test('graph and node events, the nested agent\'s token deltas tagged with its node, then result; /resume with stream: true goes on', async () => {
    const { served } = fixture();
    const events = await readSse(await request(served, 'POST', '/stream', { prompt: 'tides', thread_id: 'sse' }));
    const names = events.map((e) => e.event);
    assert.equal(names[0], 'graph-start');
    for (const name of ['node-start', 'node-end', 'graph-interrupt', 'graph-checkpoint']) assert.ok(names.includes(name), `${name} in ${names.join(',')}`);
    const deltas = events.filter((e) => e.event === 'text-delta').map((e) => e.data as { node?: string; parentRunId?: string; delta?: string; text?: string });
    assert.ok(deltas.length > 1, 'the agent\'s answer streams in several deltas');
    assert.ok(deltas.every((d) => d.node === 'research' && typeof d.parentRunId === 'string'));
    const last = events.at(-1);
    assert.equal(last?.event, 'result');
    const result = last?.data as GraphInvokeResponse;
    assert.equal(result.interrupted, true);

    const resumed = await readSse(await request(served, 'POST', '/resume', { interrupt_id: result.interrupt_id, response: 'yes', stream: true }));
    assert.equal(resumed[0]?.event, 'graph-resume');
    assert.equal(resumed.at(-1)?.event, 'result');
    assert.equal((resumed.at(-1)?.data as GraphInvokeResponse).content, 'published: notes on tides');
    assert.ok(!resumed.some((e) => e.event === 'node-start' && (e.data as { node: string }).node !== 'review'), 'only the interrupted node runs again');
  });

  test('a resume of a used interrupt over SSE is an error frame with its status', async () => {
    const { served } = fixture();
    const run = await json<GraphInvokeResponse>(await request(served, 'POST', '/invoke', { prompt: 'x' }), 200);
    await json(await request(served, 'POST', '/resume', { interrupt_id: run.interrupt_id, response: 'no' }), 200);
    const frames = await readSse(await request(served, 'POST', '/resume', { interrupt_id: run.interrupt_id, response: 'no', stream: true }));
    assert.deepEqual(frames.map((f) => f.event), ['error']);
    assert.equal((frames[0]?.data as { status: number }).status, 409);
  });
});

describe('served graph: bad requests are 4xx JSON errors', () => {
  const cases: [string, string, unknown, number][] = [
    ['/invoke', 'not JSON', '{"prompt":', 400],
    ['/invoke', 'an array body', '[]', 400],
    ['/invoke', 'an unknown field', { prompt: 'x', thread: 'a' }, 400],
    ['/invoke', 'an empty prompt', { prompt: '  ' }, 400],
    ['/invoke', 'prompt and messages', { prompt: 'x', messages: [{ role: 'user', content: 'y' }] }, 400],
    ['/invoke', 'messages ending with the assistant', { messages: [{ role: 'assistant', content: 'y' }] }, 400],
    ['/invoke', 'a thread id with ..', { prompt: 'x', thread_id: '..' }, 400],
    ['/invoke', 'a thread id with a slash', { prompt: 'x', thread_id: 'a/b' }, 400],
    ['/invoke', 'data that is not an object', { prompt: 'x', data: [1] }, 400],
    ['/invoke', 'a __proto__ key', '{"prompt":"x","data":{"__proto__":{"polluted":true}}}', 400],
    ['/stream', 'an unknown field', { prompt: 'x', session_id: 'a' }, 400],
    ['/resume', 'no response', { interrupt_id: 'a:int_1' }, 400],
    ['/resume', 'no interrupt id', { response: 'yes' }, 400],
    ['/resume', 'an interrupt id without a thread', { interrupt_id: 'int_1', response: 'yes' }, 400],
    ['/resume', 'stream that is not a boolean', { interrupt_id: 'a:int_1', response: 'yes', stream: 'yes' }, 400],
  ];
  for (const [path, what, body, status] of cases) {
    test(`${path} with ${what} → ${status}`, async () => {
      const { served, drafts } = fixture();
      const error = await json<ErrorBody>(await request(served, 'POST', path, body), status);
      assert.equal(error.error.type, 'invalid_request_error');
      assert.ok(error.error.message.length > 0);
      assert.deepEqual(drafts, [], 'nothing ran');
    });
  }

  test('a wrong content type is 415, a wrong method 405 with Allow, an unknown route 404, a body over the limit 413', async () => {
    const { served } = fixture();
    const text = await Promise.resolve(served.app.request('/invoke', { method: 'POST', headers: { 'content-type': 'text/plain' }, body: '{}' }));
    assert.equal(text.status, 415);
    const get = await request(served, 'GET', '/resume');
    assert.equal(get.status, 405);
    assert.equal(get.headers.get('allow'), 'POST');
    assert.equal((await json<ErrorBody>(await request(served, 'GET', '/nothing'), 404)).error.type, 'not_found_error');
    const big = await request(served, 'POST', '/invoke', { prompt: 'x'.repeat(1024 * 1024 + 1) });
    assert.equal(big.status, 413);
  });
});
