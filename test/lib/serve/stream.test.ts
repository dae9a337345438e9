import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ProviderError } from '../../../lib/core/errors/provider-error.js';
import type { AgentObserver } from '../../../lib/events/observer.js';
import type { RunStatus } from '../../../lib/events/types.js';
import { ScriptedProvider } from '../../../lib/providers/scripted.js';
import type { Provider, ProviderRequest, StreamPart } from '../../../lib/providers/spec.js';
import { listenLocal, lookupTool, post, readSse, refundTool, scriptedAgent, serve, until, type SseEvent } from './helpers.js';

/** Wraps a provider to see when its stream finished and whether its signal was aborted. */
function watched(inner: Provider): Provider & { readonly finished: number; readonly aborted: number } {
  let finished = 0;
  let aborted = 0;
  return {
    name: inner.name,
    defaultModel: inner.defaultModel,
    capabilities: inner.capabilities,
    complete: (request) => inner.complete(request),
    async *stream(request: ProviderRequest): AsyncGenerator<StreamPart, void, undefined> {
      request.signal?.addEventListener('abort', () => void (aborted += 1), { once: true });
      yield* inner.stream(request);
      finished += 1;
    },
    get finished() {
      return finished;
    },
    get aborted() {
      return aborted;
    },
  };
}

function statuses(): { observer: AgentObserver; seen: RunStatus[] } {
  const seen: RunStatus[] = [];
  return { observer: { name: 'statuses', onRunEnd: (e) => void seen.push(e.status) }, seen };
}

describe('POST /stream (SSE)', () => {
  test('named events from the AgentEvent stream; run-end carries the /invoke object', async () => {
    const served = serve(
      scriptedAgent({ replies: [{ toolCalls: [{ toolName: 'lookup_order', parameters: { orderId: '42' } }] }, { text: 'Order 42 has shipped.' }] }, { tools: [lookupTool()] }),
    );
    const res = await post(served, '/stream', { prompt: 'Where is 42?', session_id: 'abc' });
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^text\/event-stream/);
    assert.equal(res.headers.get('cache-control'), 'no-cache, no-transform');
    const events = await readSse(res);
    const names = events.map((e) => e.event);
    assert.equal(names[0], 'run-start');
    assert.equal(names.at(-1), 'run-end');
    for (const name of ['text-delta', 'tool-start', 'tool-end', 'usage', 'llm-start', 'llm-end']) assert.ok(names.includes(name), `has ${name}`);
    assert.ok(names.indexOf('tool-start') < names.indexOf('tool-end'));
    const deltas = events.filter((e) => e.event === 'text-delta').map((e) => (e.data as { text: string }).text);
    assert.ok(deltas.length > 1, 'the answer arrives in several deltas');
    assert.equal(deltas.join(''), 'Order 42 has shipped.');
    const toolStart = events.find((e) => e.event === 'tool-start')?.data as { type: string; toolName: string; args: unknown; callId: string };
    assert.deepEqual([toolStart.type, toolStart.toolName, toolStart.args], ['tool-start', 'lookup_order', { orderId: '42' }]);
    const end = events.at(-1)?.data as Record<string, unknown>;
    assert.equal(end['content'], 'Order 42 has shipped.');
    assert.deepEqual(end['tool_calls'], [{ tool_name: 'lookup_order', parameters: { orderId: '42' } }]);
    assert.equal(end['iterations'], 2);
    assert.equal(end['session_id'], 'abc');
    assert.equal(end['run_id'], (events[0]?.data as { runId: string }).runId);
    assert.deepEqual(Object.keys(end['usage'] as object).sort(), ['completion_tokens', 'cost_usd', 'prompt_tokens', 'total_tokens']);
  });

  test('tool errors and approval decisions stream as their events', async () => {
    const served = serve(
      scriptedAgent({ replies: [{ toolCalls: [{ toolName: 'refund_order', parameters: { orderId: '1' } }, { toolName: 'nope', parameters: {} }] }, 'ok'] }, { tools: [refundTool()] }),
    );
    const events = await readSse(await post(served, '/stream', { prompt: 'refund' }));
    const names = events.map((e) => e.event);
    assert.ok(names.includes('approval-request'));
    const response = events.find((e) => e.event === 'approval-response')?.data as { approved: boolean };
    assert.equal(response.approved, false);
    const toolError = events.find((e) => e.event === 'tool-error')?.data as { toolName: string; kind: string };
    assert.equal(toolError.toolName, 'nope');
    assert.equal(names.at(-1), 'run-end');
  });

  test('a provider failure mid-stream is one error event (type, message, status 502), then the stream ends', async () => {
    const served = serve(scriptedAgent({ replies: [{ text: 'partial answer here', errorAfterChunks: 2, error: new ProviderError('connection reset', { provider: 'scripted', status: 400 }) }] }));
    const res = await post(served, '/stream', { prompt: 'hi' });
    assert.equal(res.status, 200);
    const events = await readSse(res);
    assert.equal(events.filter((e) => e.event === 'text-delta').length, 2);
    const last = events.at(-1) as SseEvent;
    assert.equal(last.event, 'error');
    const data = last.data as { error: { type: string; message: string }; status: number; run_id: string };
    assert.equal(data.error.type, 'provider_error');
    assert.match(data.error.message, /connection reset/);
    assert.equal(data.status, 502);
    assert.match(data.run_id, /^run_/);
    assert.ok(!events.some((e) => e.event === 'run-end'), 'no run-end after a failure');
    assert.equal(events.filter((e) => e.event === 'error').length, 1);
  });

  test('errors before the run starts are JSON errors with their status', async () => {
    const served = serve(scriptedAgent({ replies: ['x'] }));
    const res = await post(served, '/stream', { prompt: 42 });
    assert.equal(res.status, 400);
    assert.equal(((await res.json()) as { error: { type: string } }).error.type, 'invalid_request_error');
  });

  test('a timeout mid-stream is an error event with status 504', async () => {
    const served = serve(scriptedAgent({ replies: [{ text: 'a b c d e f g h', chunkDelayMs: 200 }] }), { timeoutMs: 100 });
    const events = await readSse(await post(served, '/stream', { prompt: 'hi' }));
    const last = events.at(-1)?.data as { error: { type: string }; status: number };
    assert.equal(events.at(-1)?.event, 'error');
    assert.equal(last.error.type, 'timeout_error');
    assert.equal(last.status, 504);
  });

  describe('over a real socket', () => {
    test('token deltas really stream: the first text-delta arrives while the provider is still streaming', async () => {
      // The provider holds its later chunks until the client has seen the first delta (or, should the
      // server buffer the stream, gives up waiting after 5 s and finishes: then the first check fails).
      // No timing bound: a stalled machine cannot make the first delta arrive "too late".
      let clientSawFirst!: () => void;
      const seen = new Promise<void>((resolve) => (clientSawFirst = resolve));
      const inner = new ScriptedProvider({ record: false, replies: [{ chunks: ['one ', 'two ', 'three ', 'four ', 'five'] }] });
      const provider = watched({
        name: inner.name,
        defaultModel: inner.defaultModel,
        capabilities: inner.capabilities,
        complete: (request) => inner.complete(request),
        async *stream(request) {
          let deltas = 0;
          for await (const part of inner.stream(request)) {
            if (part.type === 'text-delta' && deltas++ === 1) await Promise.race([seen, new Promise((resolve) => setTimeout(resolve, 5000).unref())]);
            yield part;
          }
        },
      });
      const served = serve({ provider, retry: { maxRetries: 0 } });
      const server = await listenLocal(served);
      try {
        let finishedAtFirstDelta: number | undefined;
        const res = await fetch(`${server.url}/stream`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ prompt: 'count' }) });
        const events = await readSse(res, performance.now(), (event) => {
          if (event.event === 'text-delta' && finishedAtFirstDelta === undefined) {
            finishedAtFirstDelta = provider.finished;
            clientSawFirst();
          }
        });
        // This proves the streaming: the client had the first delta while the provider still held the other four.
        assert.equal(finishedAtFirstDelta, 0, 'the provider had not finished when the first delta reached the client');
        assert.equal(provider.finished, 1);
        assert.equal(events.filter((e) => e.event === 'text-delta').length, 5);
        assert.equal(events.at(-1)?.event, 'run-end');
      } finally {
        await server.close(0);
      }
    });

    test('a client that disconnects aborts the run', async () => {
      const provider = watched(new ScriptedProvider({ record: false, replies: [{ chunks: Array.from({ length: 50 }, (_, i) => `w${i} `), chunkDelayMs: 50 }] }));
      const { observer, seen } = statuses();
      const served = serve({ provider, retry: { maxRetries: 0 }, observers: [observer] });
      const server = await listenLocal(served);
      try {
        const controller = new AbortController();
        const res = await fetch(`${server.url}/stream`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ prompt: 'long' }), signal: controller.signal });
        const reader = (res.body as ReadableStream<Uint8Array>).getReader();
        let text = '';
        while (!text.includes('event: text-delta')) text += new TextDecoder().decode((await reader.read()).value);
        controller.abort();
        await until(() => provider.aborted === 1, 3000, 'the provider call to be aborted');
        await until(() => served.activeRuns === 0, 3000, 'the slot to be released');
        await until(() => seen.length === 1, 3000, 'run-end');
        assert.deepEqual(seen, ['cancelled']);
        assert.equal(provider.finished, 0, 'the provider never finished its 50 chunks');
      } finally {
        await server.close(0);
      }
    });
  });
});
