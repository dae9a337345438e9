import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Agent } from '../../../../lib/agent/agent.js';
import { ProviderError } from '../../../../lib/core/errors/provider-error.js';
import type { StreamPart } from '../../../../lib/providers/spec.js';
import { eventLog, testRuntime } from '../../../support/agent-harness.js';
import { fixture, jsonResponse, recordedResponses, sseResponse, type ReplayResponse, type ReplayServer } from '../../../support/replay-server.js';
import { ask, collect, geminiOn, startServer } from './harness.js';

const OK_JSON = jsonResponse({ candidates: [{ content: { role: 'model', parts: [{ text: 'recovered' }] }, finishReason: 'STOP' }], usageMetadata: { promptTokenCount: 3, candidatesTokenCount: 1, totalTokenCount: 4 } });
const chunk = (body: unknown): string => `data: ${JSON.stringify(body)}\r\n\r\n`;
const TEXT_CHUNK = chunk({ candidates: [{ content: { role: 'model', parts: [{ text: 'partial answer' }] } }] });
const FINAL_CHUNK = chunk({ candidates: [{ content: { role: 'model', parts: [{ text: '.' }] }, finishReason: 'STOP' }], usageMetadata: { promptTokenCount: 2, candidatesTokenCount: 3, totalTokenCount: 5 } });

function errorResponse(path: string, status: number, contentType = 'application/json; charset=UTF-8'): ReplayResponse {
  return { status, headers: { 'content-type': contentType }, body: fixture(path) };
}

/** Fails the test instead of hanging: every fault must settle within `ms`. */
async function within<T>(ms: number, promise: Promise<T>): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const limit = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`still pending after ${ms} ms`)), ms)));
  try {
    return await Promise.race([promise, limit]);
  } finally {
    clearTimeout(timer);
  }
}

/** Asserts a rejection with a ProviderError of the given shape. */
async function rejectsWith(promise: Promise<unknown>, expected: Partial<Pick<ProviderError, 'status' | 'kind' | 'retryable' | 'retryAfterSeconds'>>, message?: RegExp): Promise<ProviderError> {
  let caught: unknown;
  await within(5000, promise).then(
    () => assert.fail('expected a ProviderError'),
    (error: unknown) => (caught = error),
  );
  assert.ok(ProviderError.isInstance(caught), `a ProviderError, got ${String(caught)}`);
  assert.equal(caught.provider, 'gemini');
  for (const [key, value] of Object.entries(expected)) assert.equal(caught[key as keyof ProviderError], value, key);
  if (message) assert.match(caught.message, message);
  return caught;
}

describe('Gemini fault matrix', () => {
  let server: ReplayServer;
  before(async () => {
    server = await startServer();
  });
  after(() => server.close());

  test('429 RESOURCE_EXHAUSTED then success through an Agent: RetryInfo.retryDelay honoured, llm-retry event, answer', async () => {
    server.enqueue(errorResponse('google/error.429.resource_exhausted.from-issue.json', 429), OK_JSON);
    const runtime = testRuntime();
    const log = eventLog();
    const first = server.requests.length;
    const agent = new Agent({ provider: geminiOn(server), runtime, observers: [log.observer] });
    const result = await within(5000, agent.run('hi'));
    assert.equal(result.content, 'recovered');
    assert.equal(server.requests.length - first, 2);
    assert.deepEqual(runtime.sleeps, [26_000]);
    const retries = log.of('llm-retry');
    assert.equal(retries.length, 1);
    assert.equal(retries[0]!.provider, 'gemini');
    assert.equal(retries[0]!.delayMs, 26_000);
  });

  test('429 as a typed error: rate_limit, retryable, retryAfterSeconds from RetryInfo, Google status in the message', async () => {
    server.enqueue(errorResponse('google/error.429.resource_exhausted.vercel.json', 429));
    const error = await rejectsWith(geminiOn(server).complete(ask('hi')), { status: 429, kind: 'rate_limit', retryable: true });
    const body = JSON.parse(fixture('google/error.429.resource_exhausted.vercel.json').toString('utf8')) as { error: { message: string; details?: { retryDelay?: string }[] } };
    assert.ok(error.message.includes(body.error.message));
    const delay = body.error.details?.find((d) => d.retryDelay)?.retryDelay;
    assert.equal(error.retryAfterSeconds, delay === undefined ? undefined : Number(delay.replace('s', '')));
  });

  test('500 then success through an Agent: one backoff sleep, answer', async () => {
    server.enqueue(jsonResponse({ error: { code: 500, message: 'An internal error has occurred.', status: 'INTERNAL' } }, 500), OK_JSON);
    const runtime = testRuntime();
    const result = await within(5000, new Agent({ provider: geminiOn(server), runtime }).run('hi'));
    assert.equal(result.content, 'recovered');
    assert.equal(runtime.sleeps.length, 1);
  });

  test('503 UNAVAILABLE: overloaded, retryable (complete and stream request)', async () => {
    server.enqueue(errorResponse('google/error.503.unavailable.from-issue.json', 503));
    await rejectsWith(geminiOn(server).complete(ask('hi')), { status: 503, kind: 'overloaded', retryable: true }, /The model is overloaded/);
    server.enqueue(errorResponse('google/error.503.unavailable.from-issue.json', 503, 'text/event-stream'));
    await rejectsWith(collect(geminiOn(server).stream(ask('hi'))), { status: 503, kind: 'overloaded', retryable: true }, /The model is overloaded/);
  });

  test('400 API_KEY_INVALID through an Agent: no retry, typed error (complete and stream-request recordings)', async () => {
    server.enqueue(...recordedResponses('google/error.400.api_key_invalid.interactions.json'));
    const runtime = testRuntime();
    let first = server.requests.length;
    const error = await rejectsWith(new Agent({ provider: geminiOn(server), runtime }).run('hi'), { status: 400, retryable: false }, /API key not valid.*API_KEY_INVALID/);
    assert.equal(error.kind, 'auth', 'an invalid key is an auth failure whatever the status');
    assert.equal(server.requests.length - first, 1, 'not retried');
    assert.deepEqual(runtime.sleeps, []);
    server.enqueue(...recordedResponses('google/error.400.api_key_invalid.stream-request.interactions.json'));
    first = server.requests.length;
    const stream = new Agent({ provider: geminiOn(server), runtime }).stream('hi');
    await rejectsWith(stream.result, { status: 400, retryable: false }, /API key not valid/);
    assert.equal(server.requests.length - first, 1, 'not retried');
  });

  test('401 / 403 / 404: auth and not_found, not retryable', async () => {
    server.enqueue(jsonResponse({ error: { code: 401, message: 'Request had invalid authentication credentials.', status: 'UNAUTHENTICATED' } }, 401));
    await rejectsWith(geminiOn(server).complete(ask('hi')), { status: 401, kind: 'auth', retryable: false });
    server.enqueue(errorResponse('google/error.403.permission_denied.langchaingo.json', 403));
    await rejectsWith(geminiOn(server).complete(ask('hi')), { status: 403, kind: 'auth', retryable: false });
    server.enqueue(...recordedResponses('google/error.404.not_found.stream-request.interactions.json'));
    await rejectsWith(collect(geminiOn(server).stream(ask('hi'))), { status: 404, kind: 'not_found', retryable: false });
  });

  test('connection reset before headers: connection error, retryable; an Agent retries and recovers', async () => {
    server.enqueue({ reset: true });
    await rejectsWith(geminiOn(server).complete(ask('hi')), { kind: 'connection', retryable: true });
    server.enqueue({ reset: true }, OK_JSON);
    const runtime = testRuntime();
    const result = await within(5000, new Agent({ provider: geminiOn(server), runtime }).run('hi'));
    assert.equal(result.content, 'recovered');
    assert.equal(runtime.sleeps.length, 1);
  });

  test('connection reset mid-stream: a stream error after the partial text, never a finish', async () => {
    const body = TEXT_CHUNK + FINAL_CHUNK;
    server.enqueue({ ...sseResponse(body, 16), resetAfterBytes: TEXT_CHUNK.length + 10 });
    const seen: StreamPart[] = [];
    const consume = async (): Promise<void> => {
      for await (const part of geminiOn(server).stream(ask('hi'))) seen.push(part);
    };
    await rejectsWith(consume(), { kind: 'stream', retryable: true });
    assert.ok(!seen.some((p) => p.type === 'finish'));
  });

  test('timeout: a hanging server ends in a timeout error within bounded time (complete, stream, embed)', async () => {
    for (const call of [
      (p: ReturnType<typeof geminiOn>) => p.complete(ask('hi')),
      (p: ReturnType<typeof geminiOn>) => collect(p.stream(ask('hi'))),
      (p: ReturnType<typeof geminiOn>) => p.embed({ texts: ['a'] }),
    ]) {
      server.enqueue({ hang: true });
      const started = Date.now();
      await rejectsWith(call(geminiOn(server, { timeoutMs: 100 })), { kind: 'timeout', retryable: true });
      assert.ok(Date.now() - started < 2000);
    }
  });

  test('timeout between stream chunks: a stalled stream is a timeout, not a hang', async () => {
    server.enqueue({ ...sseResponse(TEXT_CHUNK + FINAL_CHUNK), chunks: [TEXT_CHUNK, FINAL_CHUNK], chunkDelayMs: 1000 });
    await rejectsWith(collect(geminiOn(server, { timeoutMs: 150 }).stream(ask('hi'))), { kind: 'timeout' });
  });

  test('caller abort rethrows the signal reason (not a ProviderError)', async () => {
    server.enqueue({ hang: true });
    const controller = new AbortController();
    const reason = new Error('user cancelled');
    setTimeout(() => controller.abort(reason), 50);
    await assert.rejects(within(5000, geminiOn(server).complete(ask('hi', { signal: controller.signal }))), (error) => error === reason);
    server.enqueue({ ...sseResponse(TEXT_CHUNK + FINAL_CHUNK), chunks: [TEXT_CHUNK, FINAL_CHUNK], chunkDelayMs: 1000 });
    const streamController = new AbortController();
    const parts: StreamPart[] = [];
    const consume = async (): Promise<void> => {
      for await (const part of geminiOn(server).stream(ask('hi', { signal: streamController.signal }))) {
        parts.push(part);
        streamController.abort(reason);
      }
    };
    await assert.rejects(within(5000, consume()), (error) => error === reason);
    assert.deepEqual(parts, [{ type: 'text-delta', text: 'partial answer' }]);
  });

  test('malformed chunk: a typed stream error, no answer', async () => {
    server.enqueue(sseResponse(TEXT_CHUNK + 'data: {"candidates": [{"content": \r\n\r\n' + FINAL_CHUNK));
    await rejectsWith(collect(geminiOn(server).stream(ask('hi'))), { kind: 'stream' });
  });

  test('stream cut without a final frame: complete chunks but no finishReason, or a truncated last chunk', async () => {
    server.enqueue(sseResponse(TEXT_CHUNK));
    await rejectsWith(collect(geminiOn(server).stream(ask('hi'))), { kind: 'stream' }, /without a finishReason/);
    server.enqueue(sseResponse(TEXT_CHUNK + FINAL_CHUNK.slice(0, 40)));
    await rejectsWith(collect(geminiOn(server).stream(ask('hi'))), { kind: 'stream' });
  });

  test('error object inside a 200 stream: a typed error, never an answer made of the error text', async () => {
    server.enqueue(sseResponse(TEXT_CHUNK + chunk({ error: { code: 503, message: 'The model is overloaded.', status: 'UNAVAILABLE' } })));
    const parts: StreamPart[] = [];
    const consume = async (): Promise<void> => {
      for await (const part of geminiOn(server).stream(ask('hi'))) parts.push(part);
    };
    await rejectsWith(consume(), {});
    assert.ok(!parts.some((p) => p.type === 'text-delta' && p.text.includes('overloaded')));
    assert.ok(!parts.some((p) => p.type === 'finish'));
  });
});
