import assert from 'node:assert/strict';
import { GoogleGenAI } from '@google/genai';
import { after, before, describe, test } from 'node:test';
import { Agent } from '../../../../lib/agent/agent.js';
import { ProviderError } from '../../../../lib/core/errors/provider-error.js';
import { GeminiProvider, watchGeminiHttp } from '../../../../lib/providers/gemini/index.js';
import type { StreamPart } from '../../../../lib/providers/spec.js';
import { eventLog, testRuntime } from '../../../support/agent-harness.js';
import { fixture, jsonResponse, recordedResponses, requestReceived, sseResponse, type ReplayResponse, type ReplayServer } from '../../../support/replay-server.js';
import { ask, collect, geminiOn, KEY, startServer } from './harness.js';

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
    void requestReceived(server, server.requests.length).then(() => controller.abort(reason));
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

  // An error event inside a 200 stream, as Google sends it (`data:` framing, which @google/genai
  // 1.52 does not recognise) and as a bare JSON chunk (which it does).
  const IN_STREAM: { error: { code?: number; message: string; status?: string; details?: unknown[] }; expected: Partial<ProviderError>; message: RegExp }[] = [
    {
      error: { code: 400, message: 'Request contains an invalid argument.', status: 'INVALID_ARGUMENT' },
      expected: { status: 400, kind: 'invalid_request', retryable: false, retryAfterSeconds: undefined },
      message: /^gemini returned 400 \(model gemini-2\.5-flash\): in-stream error: Request contains an invalid argument\.$/,
    },
    {
      error: { code: 429, message: 'Resource has been exhausted (e.g. check quota).', status: 'RESOURCE_EXHAUSTED', details: [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '12s' }] },
      expected: { status: 429, kind: 'rate_limit', retryable: true, retryAfterSeconds: 12 },
      message: /^gemini returned 429 \(model gemini-2\.5-flash\): in-stream error: Resource has been exhausted \(e\.g\. check quota\)\.$/,
    },
    {
      error: { code: 503, message: 'The model is overloaded. Please try again later.', status: 'UNAVAILABLE' },
      expected: { status: 503, kind: 'overloaded', retryable: true, retryAfterSeconds: undefined },
      message: /^gemini returned 503 \(model gemini-2\.5-flash\): in-stream error: The model is overloaded\. Please try again later\.$/,
    },
  ];
  const framings: [string, (error: unknown) => ReplayResponse][] = [
    ['data: framing (the SDK drops it)', (error) => sseResponse(TEXT_CHUNK + chunk({ error }))],
    ['data: framing split every 5 bytes', (error) => sseResponse(TEXT_CHUNK + chunk({ error }), 5)],
    ['a bare JSON chunk (the SDK raises it)', (error) => ({ ...sseResponse(''), chunks: [TEXT_CHUNK, JSON.stringify({ error })], chunkDelayMs: 30 })],
  ];
  for (const { error, expected, message } of IN_STREAM) {
    for (const [framing, respond] of framings) {
      test(`error object inside a 200 stream, ${error.status}, ${framing}: typed ${expected.kind}, after the text before it, never an answer`, async () => {
        server.enqueue(respond(error));
        const parts: StreamPart[] = [];
        const consume = async (): Promise<void> => {
          for await (const part of geminiOn(server).stream(ask('hi'))) parts.push(part);
        };
        const caught = await rejectsWith(consume(), expected, message);
        assert.equal(caught.model, 'gemini-2.5-flash');
        assert.deepEqual(parts, [{ type: 'text-delta', text: 'partial answer' }], 'the text before the error event, nothing after');
      });
    }
  }

  test('in-stream error without a numeric code: typed by its canonical status; without either, a retryable stream error', async () => {
    server.enqueue(sseResponse(chunk({ error: { message: 'Backend unavailable', status: 'UNAVAILABLE' } })));
    await rejectsWith(collect(geminiOn(server).stream(ask('hi'))), { status: 503, kind: 'overloaded', retryable: true }, /in-stream error: Backend unavailable/);
    server.enqueue(sseResponse(chunk({ error: { code: 400, message: 'Bad', status: 'FAILED_PRECONDITION' } }).replace('400', '"x"')));
    await rejectsWith(collect(geminiOn(server).stream(ask('hi'))), { status: 400, kind: 'invalid_request', retryable: false }, /in-stream error: Bad/);
    server.enqueue(sseResponse(chunk({ error: { message: 'Something odd' } })));
    await rejectsWith(collect(geminiOn(server).stream(ask('hi'))), { status: undefined, kind: 'stream', retryable: true }, /in-stream error: Something odd/);
  });

  test('in-stream 400 INVALID_ARGUMENT before any output, through an Agent: raised at once, not retried', async () => {
    server.enqueue(sseResponse(chunk({ error: IN_STREAM[0]!.error })));
    const runtime = testRuntime();
    const first = server.requests.length;
    const stream = new Agent({ provider: geminiOn(server), runtime }).stream('hi');
    await rejectsWith(stream.result, { status: 400, kind: 'invalid_request', retryable: false });
    assert.equal(server.requests.length - first, 1, 'not retried');
    assert.deepEqual(runtime.sleeps, []);
  });

  test('in-stream 503 before any output, through an Agent: retried, then the answer', async () => {
    const FINAL = chunk({ candidates: [{ content: { role: 'model', parts: [{ text: 'recovered' }] }, finishReason: 'STOP' }], usageMetadata: { promptTokenCount: 2, candidatesTokenCount: 1, totalTokenCount: 3 } });
    server.enqueue(sseResponse(chunk({ error: IN_STREAM[2]!.error })), sseResponse(FINAL));
    const runtime = testRuntime();
    const first = server.requests.length;
    const stream = new Agent({ provider: geminiOn(server), runtime }).stream('hi');
    for await (const _event of stream) {
      // drain
    }
    assert.equal((await stream.result).content, 'recovered');
    assert.equal(server.requests.length - first, 2);
    assert.equal(runtime.sleeps.length, 1);
  });

  test('a data: event that looks like an error but is not JSON reaches the SDK unchanged: a stream error, as before', async () => {
    server.enqueue(sseResponse(TEXT_CHUNK + 'data: {"error": {"code": 503, "message": \r\n\r\n'));
    await rejectsWith(collect(geminiOn(server).stream(ask('hi'))), { kind: 'stream', retryable: true });
  });

  test('a tool argument named or valued "error" is not an error event', async () => {
    const call = chunk({ candidates: [{ content: { role: 'model', parts: [{ functionCall: { name: 'log', args: { error: 'error', level: 'error' } } }] }, finishReason: 'STOP' }] });
    server.enqueue(sseResponse(call, 3));
    const parts = await collect(geminiOn(server).stream(ask('hi', { tools: [{ name: 'log', description: 'log', parameters: { type: 'object', properties: {} } }] })));
    const calls = parts.flatMap((p) => (p.type === 'tool-call' ? [p.toolCall] : []));
    assert.deepEqual(calls.map((c) => [c.toolName, c.parameters]), [['log', { error: 'error', level: 'error' }]]);
    assert.equal(parts.at(-1)?.type, 'finish');
  });

  describe('Retry-After header (the SDK\'s ApiError carries no headers)', () => {
    const noRetryInfo = { error: { code: 429, message: 'Resource has been exhausted (e.g. check quota).', status: 'RESOURCE_EXHAUSTED' } };

    test('429 with retry-after: 5 and no RetryInfo: retryAfterSeconds 5 (complete and stream request); retry-after-ms too', async () => {
      server.enqueue(jsonResponse(noRetryInfo, 429, { 'retry-after': '5' }));
      await rejectsWith(geminiOn(server).complete(ask('hi')), { status: 429, kind: 'rate_limit', retryable: true, retryAfterSeconds: 5 }, /Resource has been exhausted/);
      server.enqueue(jsonResponse(noRetryInfo, 429, { 'retry-after': '5', 'content-type': 'text/event-stream' }));
      await rejectsWith(collect(geminiOn(server).stream(ask('hi'))), { status: 429, kind: 'rate_limit', retryAfterSeconds: 5 }, /Resource has been exhausted/);
      server.enqueue(jsonResponse(noRetryInfo, 429, { 'retry-after-ms': '1500' }));
      await rejectsWith(geminiOn(server).complete(ask('hi')), { retryAfterSeconds: 1.5 });
      server.enqueue(jsonResponse(noRetryInfo, 503, { 'retry-after': '7' }));
      await rejectsWith(geminiOn(server).embed({ texts: ['a'] }), { status: 503, kind: 'overloaded', retryAfterSeconds: 7 });
    });

    test('RetryInfo in the body wins over the header', async () => {
      server.enqueue({ ...errorResponse('google/error.429.resource_exhausted.from-issue.json', 429), headers: { 'content-type': 'application/json', 'retry-after': '5' } });
      await rejectsWith(geminiOn(server).complete(ask('hi')), { status: 429, retryAfterSeconds: 26 });
    });

    test('through an Agent: the retry sleeps the Retry-After delay, then answers', async () => {
      server.enqueue(jsonResponse(noRetryInfo, 429, { 'retry-after': '5' }), OK_JSON);
      const runtime = testRuntime();
      const log = eventLog();
      const first = server.requests.length;
      const result = await within(5000, new Agent({ provider: geminiOn(server), runtime, observers: [log.observer] }).run('hi'));
      assert.equal(result.content, 'recovered');
      assert.equal(server.requests.length - first, 2);
      assert.deepEqual(runtime.sleeps, [5000]);
      assert.equal(log.of('llm-retry')[0]!.delayMs, 5000);
    });
  });

  test('the HTTP watch is installed on the SDK client (once), also on a client passed in', () => {
    const provider = geminiOn(server);
    assert.equal(watchGeminiHttp(provider.client), true, 'this @google/genai still has the shape the watch needs');
    const client = new GoogleGenAI({ apiKey: KEY, httpOptions: { baseUrl: server.url } });
    const apiCall = (client as unknown as { apiClient: { apiCall: unknown } }).apiClient.apiCall;
    new GeminiProvider({ client });
    const watched = (client as unknown as { apiClient: { apiCall: unknown } }).apiClient.apiCall;
    assert.notEqual(watched, apiCall);
    new GeminiProvider({ client });
    assert.equal((client as unknown as { apiClient: { apiCall: unknown } }).apiClient.apiCall, watched, 'not wrapped twice');
  });
});
