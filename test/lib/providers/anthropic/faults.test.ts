import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, test } from 'node:test';
import Anthropic from '@anthropic-ai/sdk';
import { Agent } from '../../../../lib/agent/agent.js';
import { ProviderError } from '../../../../lib/core/errors/provider-error.js';
import type { StreamPart } from '../../../../lib/providers/spec.js';
import { eventLog, testRuntime } from '../../../support/agent-harness.js';
import { usingExperimental } from '../../../support/capture-warnings.js';
import { fixture, jsonResponse, recordedResponses, sseResponse, startReplayServer, type ReplayResponse, type ReplayServer } from '../../../support/replay-server.js';
import { ask, collect, providerFor, textOf } from './helpers.js';

const DIR = 'anthropic/';
const TEXT_OK = () => ({ status: 200, headers: { 'content-type': 'application/json' }, body: fixture(`${DIR}messages.text.nonstream.vercel.json`) });
const ANSWER = "Hello! I'm doing well, thanks for asking. How are you doing today? Is there anything I can help you with?";
const errorBody = (name: string) => fixture(`${DIR}${name}`).toString('utf8');
const STREAM = fixture(`${DIR}messages.text.stream.langchaingo.sse`).toString('utf8');
/** The text stream up to (not including) message_delta: output was sent, but no final frame. */
const STREAM_HEAD = STREAM.slice(0, STREAM.indexOf('event: message_delta'));

/** Asserts `promise` rejects with a ProviderError matching `expected`, within `ms`. */
async function rejectsWith(promise: Promise<unknown>, expected: Partial<Record<keyof ProviderError, unknown>>, ms = 5000): Promise<ProviderError> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`no outcome within ${ms} ms`)), ms)));
  try {
    await Promise.race([promise, limit]);
  } catch (error) {
    assert.ok(ProviderError.isInstance(error), `expected a ProviderError, got ${String(error)}`);
    for (const [key, value] of Object.entries(expected)) assert.deepEqual((error as unknown as Record<string, unknown>)[key], value, key);
    return error;
  } finally {
    clearTimeout(timer);
  }
  assert.fail('expected a rejection');
}

const streamAll = (server: ReplayServer, extra: { timeoutMs?: number } = {}): Promise<StreamPart[]> => collect(providerFor(server, extra).stream(ask('Count from 1 to 5')));

describe('AnthropicProvider fault matrix', () => {
  let server: ReplayServer;
  beforeEach(async () => (server = await startReplayServer()));
  afterEach(async () => server.close());

  test('429 with Retry-After then success: the agent waits the Retry-After delay and answers', async () => {
    server.enqueue(jsonResponse(errorBody('error.429.rate_limit_error.from-issue.json'), 429, { 'retry-after': '2', 'x-should-retry': 'true' }), TEXT_OK());
    const runtime = testRuntime();
    const log = eventLog();
    const agent = new Agent({ provider: providerFor(server), runtime, observers: [log.observer] });
    const result = await agent.run('Hi');
    assert.equal(result.content, ANSWER);
    assert.deepEqual(runtime.sleeps, [2000]);
    const [retry] = log.of('llm-retry');
    assert.equal(retry!.provider, 'anthropic');
    assert.equal(retry!.delayMs, 2000);
  });

  test('429 is a typed rate_limit error with status, request id and Retry-After', async () => {
    server.enqueue(jsonResponse(errorBody('error.429.rate_limit_error.from-issue.json'), 429, { 'retry-after': '7' }));
    await rejectsWith(providerFor(server).complete(ask('Hi')), {
      provider: 'anthropic', status: 429, kind: 'rate_limit', retryable: true, retryAfterSeconds: 7, requestId: 'req_011CcR9mkMvXdaiWP4739PSN',
    });
  });

  test('500 then success through the agent (one retry)', async () => {
    server.enqueue(jsonResponse({ type: 'error', error: { type: 'api_error', message: 'Internal server error' } }, 500), TEXT_OK());
    const runtime = testRuntime();
    const result = await new Agent({ provider: providerFor(server), runtime }).run('Hi');
    assert.equal(result.content, ANSWER);
    assert.equal(runtime.sleeps.length, 1);
  });

  test('529 overloaded: typed, retryable overloaded error with the body message; then success via the agent', async () => {
    server.enqueue(jsonResponse(errorBody('error.529.overloaded_error.from-issue.json'), 529));
    const error = await rejectsWith(providerFor(server).complete(ask('Hi')), { provider: 'anthropic', status: 529, kind: 'overloaded', retryable: true });
    assert.match(error.message, /Overloaded/);
    server.enqueue(jsonResponse(errorBody('error.529.overloaded_error.from-issue.json'), 529), TEXT_OK());
    assert.equal((await new Agent({ provider: providerFor(server), runtime: testRuntime() }).run('Hi')).content, ANSWER);
  });

  test('401: no retry, typed auth error with status, provider and request id', async () => {
    server.enqueue(jsonResponse(errorBody('error.401.authentication_error.json'), 401, { 'x-should-retry': 'false' }));
    const before = server.requests.length;
    const runtime = testRuntime();
    const error = await rejectsWith(new Agent({ provider: providerFor(server), runtime }).run('Hi'), {
      provider: 'anthropic', status: 401, kind: 'auth', retryable: false, requestId: 'req_011CWdMEehrhsdujMyQ9pChP',
    });
    assert.match(error.message, /invalid x-api-key/);
    assert.equal(server.requests.length - before, 1, 'not retried');
    assert.deepEqual(runtime.sleeps, []);
    server.enqueue(jsonResponse(errorBody('error.401.authentication_error.stream-request.json'), 401));
    await rejectsWith(streamAll(server), { status: 401, kind: 'auth' });
  });

  test('400 invalid_request_error (recorded): every field of the typed error, no retry through the agent', async () => {
    const file = `${DIR}error.400.invalid_request_error.interactions.json`;
    const [recorded] = recordedResponses(file);
    const body = JSON.parse(errorBody('error.400.invalid_request_error.json')) as { error: { type: string; message: string }; request_id: string };
    server.enqueue({ ...recorded!, headers: { ...recorded!.headers, 'request-id': body.request_id } });
    const error = await rejectsWith(providerFor(server).complete(ask('What is 2+2?', { model: 'claude-opus-4-6' })), {
      name: 'ProviderError',
      provider: 'anthropic',
      status: 400,
      kind: 'invalid_request',
      retryable: false,
      retryAfterSeconds: undefined,
      model: 'claude-opus-4-6',
      requestId: 'req_011Ca7jT9AHpgXgdv8igm4z9',
    });
    assert.equal(error.message, "anthropic returned 400 (model claude-opus-4-6): This model does not support effort level 'xhigh'. Supported levels: high, low, max, medium.");
    assert.ok(error.cause instanceof Anthropic.BadRequestError, 'the SDK error is kept as the cause');
    // The request id comes from the body when the response has no request-id header.
    server.enqueue(recorded!);
    await rejectsWith(providerFor(server).complete(ask('What is 2+2?', { model: 'claude-opus-4-6' })), { status: 400, requestId: 'req_011Ca7jT9AHpgXgdv8igm4z9' });
    // Through the agent: raised at once, no sleep, one request.
    server.enqueue(recorded!);
    const runtime = testRuntime();
    const before = server.requests.length;
    await rejectsWith(new Agent({ provider: providerFor(server), model: 'claude-opus-4-6', runtime }).run('What is 2+2?'), { status: 400, kind: 'invalid_request', retryable: false });
    assert.equal(server.requests.length - before, 1, 'not retried');
    assert.deepEqual(runtime.sleeps, []);
  });

  test('404 unknown model: typed, not retryable', async () => {
    server.enqueue(jsonResponse(errorBody('error.404.not_found_error.json'), 404));
    await rejectsWith(providerFor(server).complete(ask('Hi', { model: 'this-model-does-not-exist-12345' })), {
      status: 404, kind: 'not_found', retryable: false, model: 'this-model-does-not-exist-12345',
    });
  });

  test('connection reset before the response: retryable connection error (complete and stream)', async () => {
    server.enqueue({ reset: true }, { reset: true });
    await rejectsWith(providerFor(server).complete(ask('Hi')), { provider: 'anthropic', kind: 'connection', retryable: true });
    await rejectsWith(streamAll(server), { provider: 'anthropic', kind: 'connection', retryable: true });
  });

  test('connection reset mid-stream: a typed error, never the partial text as an answer', async () => {
    server.enqueue({ ...sseResponse(STREAM, 50), resetAfterBytes: STREAM_HEAD.length });
    await rejectsWith(streamAll(server), { provider: 'anthropic', retryable: true });
  });

  test('timeout: a server that never answers ends in a timeout error within bounded time', async () => {
    server.enqueue({ hang: true }, { hang: true });
    const started = Date.now();
    await rejectsWith(providerFor(server, { timeoutMs: 150 }).complete(ask('Hi')), { provider: 'anthropic', kind: 'timeout', retryable: true }, 3000);
    await rejectsWith(streamAll(server, { timeoutMs: 150 }), { provider: 'anthropic', kind: 'timeout', retryable: true }, 3000);
    assert.ok(Date.now() - started < 3000);
  });

  test('timeout: a stream that stalls after some events ends in a timeout error (no hang)', async () => {
    server.enqueue({ ...sseResponse(STREAM), chunks: [STREAM_HEAD, STREAM.slice(STREAM_HEAD.length)], chunkDelayMs: 1_000 });
    const started = Date.now();
    await rejectsWith(streamAll(server, { timeoutMs: 150 }), { provider: 'anthropic', kind: 'timeout', retryable: true }, 3000);
    assert.ok(Date.now() - started < 3000);
  });

  test('a consumer that takes longer in all than the silence window, on events that already arrived, is not timed out', async (t) => {
    // Date.now() (what the window measures) is virtual: each part "takes" 60 ms, two exceed the
    // 100 ms window; real waits let the window's timer run between parts (see the OpenAI case).
    await usingExperimental(/MockTimers/, () => t.mock.timers.enable({ apis: ['Date'], now: 1_000_000 }));
    server.enqueue(sseResponse(STREAM)); // one write
    const parts: StreamPart[] = [];
    for await (const part of providerFor(server, { firstByteTimeoutMs: 100, idleTimeoutMs: 100 }).stream(ask('Count'))) {
      parts.push(part);
      t.mock.timers.tick(60);
      await new Promise((resolve) => setTimeout(resolve, 120));
    }
    assert.equal(textOf(parts), '1\n2\n3\n4\n5');
    assert.ok(parts.length * 60 > 100, `${parts.length} parts`);
  });

  test('in-stream error event (overloaded) after some text: typed retryable overloaded error', async () => {
    server.enqueue(sseResponse(STREAM_HEAD + errorBody('error.in-stream.overloaded.from-pr.sse'), 7));
    const parts: StreamPart[] = [];
    const error = await rejectsWith(
      (async () => {
        for await (const part of providerFor(server).stream(ask('Count'))) parts.push(part);
      })(),
      { provider: 'anthropic', kind: 'overloaded', retryable: true, status: 529 },
    );
    assert.match(error.message, /Overloaded/);
    assert.equal(textOf(parts), '1\n2\n3\n4\n5', 'deltas before the error were streamed');
    assert.ok(!parts.some((p) => p.type === 'finish'), 'no finish part');
  });

  test('in-stream error through the agent after output: the run fails with the typed error (no retry, no answer)', async () => {
    server.enqueue(sseResponse(STREAM_HEAD + errorBody('error.in-stream.overloaded.from-pr.sse')));
    const runtime = testRuntime();
    await rejectsWith(new Agent({ provider: providerFor(server), runtime }).stream('Count').result, { kind: 'overloaded' });
    assert.deepEqual(runtime.sleeps, []);
  });

  test('malformed event: a typed stream error', async () => {
    server.enqueue(sseResponse(`${STREAM_HEAD}event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_de\n\n`));
    const error = await rejectsWith(streamAll(server), { provider: 'anthropic', kind: 'stream' });
    assert.match(error.message, /malformed/);
  });

  test('a delta for a block that was never started is a typed stream error', async () => {
    const bad = 'event: content_block_delta\ndata: {"type":"content_block_delta","index":4,"delta":{"type":"input_json_delta","partial_json":"{}"}}\n\n';
    server.enqueue(sseResponse(STREAM_HEAD + bad + STREAM.slice(STREAM_HEAD.length)));
    await rejectsWith(streamAll(server), { provider: 'anthropic', kind: 'stream' });
  });

  test('a stream cut without message_stop: a typed stream error, not a partial answer', async () => {
    const cut = STREAM.slice(0, STREAM.indexOf('event: message_stop'));
    server.enqueue(sseResponse(cut, 7), sseResponse(STREAM_HEAD));
    await rejectsWith(streamAll(server), { provider: 'anthropic', kind: 'stream', retryable: true });
    await rejectsWith(streamAll(server), { provider: 'anthropic', kind: 'stream' });
  });

  test('a cut stream before any output is retried by the agent and then answers', async () => {
    const head = STREAM.slice(0, STREAM.indexOf('event: content_block_start'));
    server.enqueue(sseResponse(head), sseResponse(STREAM, 7));
    const runtime = testRuntime();
    const result = await new Agent({ provider: providerFor(server), runtime }).stream('Count').result;
    assert.equal(result.content, '1\n2\n3\n4\n5');
    assert.equal(runtime.sleeps.length, 1);
  });

  test('abort through request.signal rethrows the signal reason (before and during a stream)', async () => {
    const reason = new Error('stop now');
    const early = new AbortController();
    early.abort(reason);
    await assert.rejects(providerFor(server).complete(ask('Hi', { signal: early.signal })), (e) => e === reason);
    const controller = new AbortController();
    const slow: ReplayResponse = { ...sseResponse(STREAM, 40), chunkDelayMs: 30 };
    server.enqueue(slow);
    const parts: StreamPart[] = [];
    await assert.rejects(
      (async () => {
        for await (const part of providerFor(server).stream(ask('Count', { signal: controller.signal }))) {
          parts.push(part);
          controller.abort(reason);
        }
      })(),
      (e) => e === reason,
    );
  });
});
