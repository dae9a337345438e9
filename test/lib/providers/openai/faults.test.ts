import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Agent } from '../../../../lib/agent/agent.js';
import { ProviderError } from '../../../../lib/core/errors/provider-error.js';
import { eventLog, testRuntime } from '../../../support/agent-harness.js';
import { usingExperimental } from '../../../support/capture-warnings.js';
import { fixture, jsonResponse, recordedResponses, requestReceived, sseResponse, startReplayServer, type ReplayResponse, type ReplayServer } from '../../../support/replay-server.js';
import { embedWithRetry } from '../../../../lib/providers/embed-with-retry.js';
import type { StreamPart } from '../../../../lib/providers/spec.js';
import { ask, collect, dataChunks, providerFor } from './helpers.js';

const ok = () => jsonResponse(fixture('openai/chat.finish_length.nonstream.json').toString('utf8'));
const errorBody = (name: string, status: number, headers: Record<string, string> = {}): ReplayResponse =>
  jsonResponse(fixture(`openai/${name}`).toString('utf8'), status, { 'x-request-id': `req_${status}`, ...headers });
const textStream = fixture('openai/chat.text.stream.include_usage.sse').toString('utf8');

function isProviderError(check: (e: ProviderError) => void) {
  return (error: unknown): boolean => {
    assert.ok(ProviderError.isInstance(error), `expected a ProviderError, got ${String(error)}`);
    assert.equal(error.provider, 'openai');
    check(error);
    return true;
  };
}

/** Iterates an agent stream to its end. */
async function drain(stream: AsyncIterable<unknown>): Promise<void> {
  for await (const _event of stream) void _event;
}

/** Runs `fn` and fails if it takes longer than `ms` (never a hang). */
async function within<T>(ms: number, fn: () => Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const guard = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`still running after ${ms} ms`)), ms)));
  try {
    return await Promise.race([fn(), guard]);
  } finally {
    clearTimeout(timer);
  }
}

describe('OpenAIProvider fault matrix', () => {
  let server: ReplayServer;
  before(async () => (server = await startReplayServer()));
  after(async () => server.close());

  test('429 with Retry-After then success: the agent waits the Retry-After delay and retries', async () => {
    server.enqueue(errorBody('error.429.rate_limit_exceeded.from-issue.json', 429, { 'retry-after': '2' }), ok());
    const runtime = testRuntime();
    const start = server.requests.length;
    const agent = new Agent({ provider: providerFor(server), model: 'gpt-4o', runtime });
    const result = await within(5000, () => agent.run('hi'));
    assert.equal(result.content, '{"');
    assert.deepEqual(runtime.sleeps, [2000]);
    assert.equal(server.requests.length - start, 2);
  });

  test('429 as a typed error: status, kind, request id, Retry-After, message from the body', async () => {
    server.enqueue(errorBody('error.429.rate_limit_exceeded.from-issue.json', 429, { 'retry-after-ms': '1500' }));
    await assert.rejects(
      providerFor(server).complete(ask('hi')),
      isProviderError((e) => {
        assert.equal(e.status, 429);
        assert.equal(e.kind, 'rate_limit');
        assert.equal(e.retryable, true);
        assert.equal(e.retryAfterSeconds, 1.5);
        assert.equal(e.requestId, 'req_429');
        assert.equal(e.model, 'gpt-4o');
        assert.match(e.message, /Rate limit reached for gpt-4/);
      }),
    );
  });

  test('429 insufficient_quota (recorded): a non-retryable quota error, sent once (complete, stream, embeddings)', async () => {
    const quota = () => errorBody('error.429.insufficient_quota.vercel.json', 429);
    const check = isProviderError((e) => {
      assert.equal(e.status, 429);
      assert.equal(e.kind, 'quota');
      assert.equal(e.retryable, false);
      assert.equal(e.requestId, 'req_429');
      assert.equal(e.model, 'gpt-4o');
      assert.match(e.message, /You exceeded your current quota/);
    });
    server.enqueue(quota());
    const runtime = testRuntime();
    const start = server.requests.length;
    await assert.rejects(new Agent({ provider: providerFor(server), model: 'gpt-4o', runtime }).run('hi'), check);
    assert.equal(server.requests.length - start, 1, 'waiting does not refill a quota: no retry');
    assert.deepEqual(runtime.sleeps, []);
    server.enqueue(quota());
    await assert.rejects(collect(providerFor(server).stream(ask('hi'))), check);
    server.enqueue(quota());
    const sleeps: number[] = [];
    const embedStart = server.requests.length;
    await assert.rejects(
      embedWithRetry(providerFor(server), { texts: ['x'] }, { sleep: async (ms) => void sleeps.push(ms) }),
      isProviderError((e) => assert.deepEqual([e.status, e.kind, e.retryable], [429, 'quota', false])),
    );
    assert.equal(server.requests.length - embedStart, 1);
    assert.deepEqual(sleeps, []);
  });

  test('recorded 400 and 404 errors: typed field by field, raised at once, never retried', async () => {
    const withRequestId = (responses: ReplayResponse[], id: string): ReplayResponse[] => responses.map((r) => ({ ...r, headers: { ...r.headers, 'x-request-id': id } }));
    const cases: { name: string; model: string; responses: ReplayResponse[]; status: number; kind: string; requestId: string; message: RegExp }[] = [
      {
        name: 'error.400.invalid_request.unsupported_value',
        model: 'o1-mini',
        responses: withRequestId(recordedResponses('openai/error.400.invalid_request.unsupported_value.interactions.json'), 'req_400_value'),
        status: 400,
        kind: 'invalid_request',
        requestId: 'req_400_value',
        message: /^openai returned 400 \(model o1-mini\): Unsupported value: 'messages\[0\]\.role' does not support 'developer' with this model\.$/,
      },
      {
        name: 'error.400.unsupported_parameter',
        model: 'o3-mini',
        responses: [errorBody('error.400.unsupported_parameter.vercel.json', 400)],
        status: 400,
        kind: 'invalid_request',
        requestId: 'req_400',
        message: /^openai returned 400 \(model o3-mini\): Unsupported parameter: 'max_tokens' is not supported with this model\. Use 'max_completion_tokens' instead\.$/,
      },
      {
        name: 'error.404.model_not_found',
        model: 'this-model-does-not-exist-12345',
        responses: withRequestId(recordedResponses('openai/error.404.model_not_found.interactions.json'), 'req_404_model'),
        status: 404,
        kind: 'not_found',
        requestId: 'req_404_model',
        message: /^openai returned 404 \(model this-model-does-not-exist-12345\): The model `this-model-does-not-exist-12345` does not exist or you do not have access to it\.$/,
      },
    ];
    for (const c of cases) {
      server.enqueue(...c.responses);
      const runtime = testRuntime();
      const start = server.requests.length;
      await assert.rejects(
        new Agent({ provider: providerFor(server), model: c.model, runtime }).run('Hello'),
        isProviderError((e) => {
          assert.equal(e.name, 'ProviderError', c.name);
          assert.equal(e.provider, 'openai', c.name);
          assert.equal(e.status, c.status, c.name);
          assert.equal(e.kind, c.kind, c.name);
          assert.equal(e.retryable, false, c.name);
          assert.equal(e.requestId, c.requestId, c.name);
          assert.equal(e.model, c.model, c.name);
          assert.equal(e.retryAfterSeconds, undefined, c.name);
          assert.match(e.message, c.message, c.name);
        }),
      );
      assert.equal(server.requests.length - start, 1, `${c.name}: sent once`);
      assert.deepEqual(runtime.sleeps, [], `${c.name}: no retry`);
    }
  });

  test('500 then success: retried with backoff', async () => {
    server.enqueue(errorBody('error.500.server_error.from-issue.json', 500), ok());
    const runtime = testRuntime();
    const agent = new Agent({ provider: providerFor(server), model: 'gpt-4o', runtime });
    const result = await within(5000, () => agent.run('hi'));
    assert.equal(result.content, '{"');
    assert.equal(runtime.sleeps.length, 1);
    assert.ok(runtime.sleeps[0]! <= 500);
  });

  test('503 and 529 overloaded: typed, retryable errors', async () => {
    for (const status of [503, 529]) {
      server.enqueue(jsonResponse({ error: { message: 'The engine is currently overloaded, please try again later', type: 'server_error' } }, status));
      await assert.rejects(
        providerFor(server).complete(ask('hi')),
        isProviderError((e) => {
          assert.equal(e.status, status);
          assert.equal(e.kind, 'overloaded');
          assert.equal(e.retryable, true);
        }),
      );
    }
  });

  test('401 (recorded): no retry, typed error with status and provider, for complete and stream', async () => {
    server.enqueue(...recordedResponses('openai/error.401.invalid_api_key.interactions.json'));
    const runtime = testRuntime();
    const start = server.requests.length;
    const agent = new Agent({ provider: providerFor(server), model: 'gpt-4o', runtime });
    await assert.rejects(
      agent.run('hi'),
      isProviderError((e) => {
        assert.equal(e.status, 401);
        assert.equal(e.kind, 'auth');
        assert.equal(e.retryable, false);
        assert.match(e.message, /Incorrect API key provided/);
      }),
    );
    assert.equal(server.requests.length - start, 1);
    assert.deepEqual(runtime.sleeps, []);
    server.enqueue(...recordedResponses('openai/error.401.invalid_api_key.stream-request.interactions.json'));
    await assert.rejects(collect(providerFor(server).stream(ask('hi'))), isProviderError((e) => assert.equal(e.status, 401)));
  });

  test('connection reset before the response: connection error, retried by the agent', async () => {
    server.enqueue({ reset: true });
    await assert.rejects(
      providerFor(server).complete(ask('hi')),
      isProviderError((e) => {
        assert.equal(e.kind, 'connection');
        assert.equal(e.retryable, true);
      }),
    );
    server.enqueue({ reset: true }, ok());
    const runtime = testRuntime();
    const result = await within(5000, () => new Agent({ provider: providerFor(server), model: 'gpt-4o', runtime }).run('hi'));
    assert.equal(result.content, '{"');
    assert.equal(runtime.sleeps.length, 1);
  });

  test('connection reset mid-stream: typed error, and an agent that already streamed text does not retry', async () => {
    server.enqueue({ ...sseResponse(textStream, 50), resetAfterBytes: 1200 });
    await assert.rejects(within(5000, () => collect(providerFor(server).stream(ask('hi')))), isProviderError((e) => assert.equal(e.kind, 'connection')));
    server.enqueue({ ...sseResponse(textStream, 50), resetAfterBytes: 1200 });
    const start = server.requests.length;
    const stream = new Agent({ provider: providerFor(server), model: 'gpt-4o', runtime: testRuntime() }).stream('hi');
    await assert.rejects(drain(stream), isProviderError((e) => assert.equal(e.kind, 'connection')));
    await assert.rejects(stream.result, isProviderError((e) => assert.equal(e.kind, 'connection')));
    assert.equal(server.requests.length - start, 1);
  });

  test('timeout: a server that never answers gives a timeout error within timeoutMs', async () => {
    server.enqueue({ hang: true });
    const started = Date.now();
    await assert.rejects(
      within(3000, () => providerFor(server, { timeoutMs: 150 }).complete(ask('hi'))),
      isProviderError((e) => {
        assert.equal(e.kind, 'timeout');
        assert.equal(e.retryable, true);
      }),
    );
    assert.ok(Date.now() - started < 2000);
    server.enqueue({ hang: true });
    await assert.rejects(within(3000, () => collect(providerFor(server, { timeoutMs: 150 }).stream(ask('hi')))), isProviderError((e) => assert.equal(e.kind, 'timeout')));
  });

  test('timeout: a stream that goes silent after its first chunk times out', async () => {
    const [first, ...rest] = textStream.split('\n\n');
    server.enqueue({ ...sseResponse(''), chunks: [`${first}\n\n`, `${rest.join('\n\n')}`], chunkDelayMs: 2000 });
    await assert.rejects(within(3000, () => collect(providerFor(server, { timeoutMs: 200 }).stream(ask('hi')))), isProviderError((e) => assert.equal(e.kind, 'timeout')));
  });

  test('a consumer that takes longer in all than the silence window, on chunks that already arrived, is not timed out', async (t) => {
    // The window measures idle time with Date.now(), made virtual here: the consumer "spends" 60 ms
    // on each part (two parts exceed the 100 ms window), while real waits let the window's real
    // timer run between parts. Only the time since the last part was taken may count, never the
    // time since the last network read. A stalled machine cannot change what the timer computes.
    await usingExperimental(/MockTimers/, () => t.mock.timers.enable({ apis: ['Date'], now: 1_000_000 }));
    server.enqueue(sseResponse(textStream)); // one write
    const texts: string[] = [];
    let parts = 0;
    for await (const part of providerFor(server, { firstByteTimeoutMs: 100, idleTimeoutMs: 100 }).stream(ask('hi'))) {
      parts++;
      if (part.type === 'text-delta') texts.push(part.text);
      t.mock.timers.tick(60);
      await new Promise((resolve) => setTimeout(resolve, 120));
    }
    assert.equal(texts.join(''), dataChunks(textStream).map((c) => c.choices[0]?.delta?.content ?? '').join(''));
    assert.ok(parts * 60 > 100, `${parts} parts`);
  });

  test('an abort between two parts of one chunk: the second is not handed out, the stream rejects with the reason', async () => {
    const chunk = { id: 'x', object: 'chat.completion.chunk', model: 'o3', choices: [{ index: 0, delta: { reasoning_content: 'thinking', content: 'answer' }, finish_reason: null }] };
    server.enqueue(sseResponse(`data: ${JSON.stringify(chunk)}\n\n`, undefined));
    const controller = new AbortController();
    const reason = new Error('stop now');
    const stream = providerFor(server).stream(ask('hi', { signal: controller.signal }));
    const first = await stream.next();
    assert.equal(first.value?.type, 'reasoning-delta');
    controller.abort(reason);
    await assert.rejects(stream.next(), (e: unknown) => e === reason);
    assert.deepEqual(await stream.next(), { value: undefined, done: true });
  });

  test('malformed chunks: invalid JSON or a chunk without choices → typed stream error', async () => {
    const [first] = textStream.split('\n\n');
    server.enqueue(sseResponse(`${first}\n\ndata: {"id":"x","choices":[{"delta":{"content":"oops"\n\ndata: [DONE]\n\n`, 9));
    await assert.rejects(collect(providerFor(server).stream(ask('hi'))), isProviderError((e) => assert.equal(e.kind, 'stream')));
    server.enqueue(sseResponse(`${first}\n\ndata: {"id":"x","object":"chat.completion.chunk"}\n\ndata: [DONE]\n\n`));
    await assert.rejects(collect(providerFor(server).stream(ask('hi'))), isProviderError((e) => assert.match(e.message, /malformed stream chunk/)));
  });

  test('a malformed chunk in the same network read as good ones: the good text comes out first, then the typed error', async () => {
    const good = (text: string): string => `data: ${JSON.stringify({ id: 'x', object: 'chat.completion.chunk', model: 'gpt-4o', choices: [{ index: 0, delta: { content: text }, finish_reason: null }] })}\n\n`;
    for (const bad of ['data: {"choices":[{"delta"\n\n', 'data: {"id":"x","object":"chat.completion.chunk"}\n\n']) {
      server.enqueue(sseResponse(`${good('one ')}${good('two')}${bad}data: [DONE]\n\n`));
      const stream = providerFor(server).stream(ask('hi'));
      const texts: string[] = [];
      await assert.rejects(
        (async () => {
          for await (const part of stream) if (part.type === 'text-delta') texts.push(part.text);
        })(),
        isProviderError((e) => assert.match(e.message, /malformed stream chunk/)),
      );
      assert.deepEqual(texts, ['one ', 'two'], bad);
    }
  });

  test('an error event inside a 200 stream is classified by its type / code like an HTTP error (never answer text)', async () => {
    const [first] = textStream.split('\n\n');
    const recorded = (name: string) => (JSON.parse(fixture(`openai/${name}`).toString('utf8')) as { error: object }).error;
    // The Responses API recording's in-stream `error` event (insufficient_quota), as a Chat Completions error frame.
    const quotaEvent = fixture('openai/responses.in-stream-error.vercel.data-lines.txt')
      .toString('utf8')
      .split('\n')
      .map((line) => (line.trim() === '' ? undefined : (JSON.parse(line) as { type: string; error?: object })))
      .find((event) => event?.type === 'error')!.error!;
    const cases: [string, object, string, boolean][] = [
      ['server_error (recorded 500 body)', recorded('error.500.server_error.from-issue.json'), 'server', true],
      ['server_error saying overloaded', { message: 'The engine is currently overloaded, please try again later', type: 'server_error' }, 'overloaded', true],
      ['rate_limit_exceeded (recorded 429 body)', recorded('error.429.rate_limit_exceeded.from-issue.json'), 'rate_limit', true],
      ['invalid_request_error (recorded 400 body)', recorded('error.400.invalid_request.unsupported_value.json'), 'invalid_request', false],
      ['context_length_exceeded', { message: "This model's maximum context length is 128000 tokens.", type: 'invalid_request_error', code: 'context_length_exceeded' }, 'invalid_request', false],
      ['insufficient_quota (recorded in-stream event)', quotaEvent, 'quota', false],
      ['a compatible server with a numeric code', { message: 'upstream model server failed', code: 502 }, 'server', true],
      ['a compatible server with a numeric 400', { object: 'error', message: 'max_tokens is too large', type: 'BadRequestError', code: 400 }, 'invalid_request', false],
      ['an unknown type', { message: 'something new went wrong', type: 'brand_new_error' }, 'stream', true],
    ];
    for (const [name, error, kind, retryable] of cases) {
      const frame = `data: ${JSON.stringify({ error })}\n\n`;
      server.enqueue({ ...sseResponse(`${first}\n\n${frame}`), headers: { 'content-type': 'text/event-stream', 'x-request-id': 'req_stream' } });
      const parts: StreamPart[] = [];
      await assert.rejects(
        (async () => {
          for await (const part of providerFor(server).stream(ask('hi'))) parts.push(part);
        })(),
        isProviderError((e) => {
          assert.equal(e.kind, kind, name);
          assert.equal(e.retryable, retryable, name);
          assert.equal(e.status, undefined, `${name}: the response was a 200`);
          assert.equal(e.requestId, 'req_stream', name);
          assert.equal(e.model, 'gpt-4o', name);
          assert.ok(e.message.includes((error as { message: string }).message), `${name}: ${e.message}`);
        }),
      );
      assert.deepEqual(parts, [], `${name}: no part from the error frame`);
    }
  });

  test('an in-stream error before any output: retried by the agent only when retryable', async () => {
    const [first] = textStream.split('\n\n');
    const invalid = `data: ${JSON.stringify({ error: { message: 'Invalid prompt: flagged', type: 'invalid_request_error', code: 'invalid_prompt' } })}\n\n`;
    server.enqueue(sseResponse(`${first}\n\n${invalid}`));
    let runtime = testRuntime();
    let start = server.requests.length;
    const rejected = new Agent({ provider: providerFor(server), model: 'gpt-4o', runtime }).stream('hi');
    await assert.rejects(drain(rejected), isProviderError((e) => assert.deepEqual([e.kind, e.retryable], ['invalid_request', false])));
    await assert.rejects(rejected.result);
    assert.equal(server.requests.length - start, 1, 'a rejected request is not sent again');
    assert.deepEqual(runtime.sleeps, []);

    const busy = `data: ${JSON.stringify({ error: { message: 'The server had an error while processing your request.', type: 'server_error' } })}\n\n`;
    server.enqueue(sseResponse(`${first}\n\n${busy}`), sseResponse(textStream, 7));
    runtime = testRuntime();
    start = server.requests.length;
    const retried = new Agent({ provider: providerFor(server), model: 'gpt-4o', runtime }).stream('hi');
    await drain(retried);
    assert.match((await retried.result).content, /^I'm unable to provide real-time weather updates\./);
    assert.equal(server.requests.length - start, 2);
    assert.equal(runtime.sleeps.length, 1);
  });

  test('a stream cut without its final frames → typed error, the partial text is not an answer', async () => {
    const frames = textStream.split('\n\n').filter(Boolean);
    const cut = frames.slice(0, 5).join('\n\n') + '\n\n';
    server.enqueue(sseResponse(cut, 7));
    await assert.rejects(collect(providerFor(server).stream(ask('hi'))), isProviderError((e) => assert.match(e.message, /without a finish reason/)));
    server.enqueue(sseResponse(cut, 7));
    const start = server.requests.length;
    const stream = new Agent({ provider: providerFor(server), model: 'gpt-4o', runtime: testRuntime() }).stream('hi');
    await assert.rejects(drain(stream), isProviderError((e) => assert.equal(e.kind, 'stream')));
    await assert.rejects(stream.result, isProviderError((e) => assert.equal(e.kind, 'stream')));
    assert.equal(server.requests.length - start, 1, 'no retry once text was streamed');
  });

  test('a stream cut before any output is retried by the agent and then succeeds', async () => {
    const frames = textStream.split('\n\n').filter(Boolean);
    server.enqueue(sseResponse(frames[0]! + '\n\n'), sseResponse(textStream, 7));
    const runtime = testRuntime();
    const stream = new Agent({ provider: providerFor(server), model: 'gpt-4o', runtime }).stream('hi');
    await drain(stream);
    const result = await stream.result;
    assert.match(result.content, /^I'm unable to/);
    assert.equal(runtime.sleeps.length, 1);
  });

  describe('a stream cut after its finish reason, before the usage chunk', () => {
    // A 2025 recording: `"usage": null` on every chunk (the server honours include_usage), then the
    // finish_reason chunk, the usage chunk and [DONE].
    const usageStream = fixture('openai/chat.text.stream.langchaingo.sse').toString('utf8');
    const frames = usageStream.split('\n\n').filter((f) => f.trim() !== '').map((f) => `${f}\n\n`);
    const finishAt = frames.findIndex((f) => f.includes('"finish_reason":"stop"'));
    const throughFinish = frames.slice(0, finishAt + 1).join('');
    const throughUsage = frames.slice(0, finishAt + 2).join('');
    const answer = textOf(dataChunks(usageStream));
    const usageParts = (parts: StreamPart[]) => parts.filter((p) => p.type === 'usage');

    /** Streams 'hi' through an Agent on the queued responses: the text, the result, the requests sent, the runtime and the events. */
    async function agentStream() {
      const runtime = testRuntime();
      const log = eventLog();
      const start = server.requests.length;
      const stream = new Agent({ provider: providerFor(server), model: 'gpt-4o', runtime, observers: [log.observer] }).stream('hi');
      let streamed = '';
      for await (const delta of stream.textStream) streamed += delta;
      return { streamed, result: await stream.result, requests: server.requests.length - start, runtime, log };
    }

    function textOf(chunks: ReturnType<typeof dataChunks>): string {
      return chunks.map((c) => c.choices[0]?.delta?.content ?? '').join('');
    }

    test('the recording is what the cases assume', () => {
      assert.ok(finishAt > 1 && frames[finishAt + 1]!.includes('"choices":[],"usage":{') && frames[finishAt + 2] === 'data: [DONE]\n\n');
      assert.equal(answer, '1, 2, 3, 4, 5');
    });

    test('connection dropped after the finish reason: the complete answer stands, once, with no usage part; the agent estimates usage and marks it', async () => {
      server.enqueue({ ...sseResponse(usageStream), resetAfterBytes: Buffer.byteLength(throughFinish) });
      const parts = await within(5000, () => collect(providerFor(server).stream(ask('hi'))));
      assert.equal(parts.map((p) => (p.type === 'text-delta' ? p.text : '')).join(''), answer);
      assert.deepEqual(usageParts(parts), []);
      assert.deepEqual(parts.at(-1), { type: 'finish', finishReason: 'stop', model: 'gpt-3.5-turbo-0125' });

      server.enqueue({ ...sseResponse(usageStream), resetAfterBytes: Buffer.byteLength(throughFinish) });
      const { streamed, result, requests, runtime, log } = await agentStream();
      assert.equal(streamed, answer, 'no duplicated text');
      assert.equal(result.content, answer);
      assert.equal(requests, 1, 'not sent again');
      assert.deepEqual(runtime.sleeps, []);
      const usage = log.of('usage')[0]!;
      assert.equal(usage.usage.estimated, true, 'made-up usage is marked as estimated');
      assert.ok(usage.usage.promptTokens > 0 && usage.usage.completionTokens > 0);
    });

    test('a silence timeout after the finish reason keeps the complete answer too', async () => {
      // 1 s: the first chunk gets in on a stalled machine too; the rest comes 6 s later.
      server.enqueue({ ...sseResponse(''), chunks: [throughFinish, frames.slice(finishAt + 1).join('')], chunkDelayMs: 6000 });
      const parts = await within(5000, () => collect(providerFor(server, { timeoutMs: 1000 }).stream(ask('hi'))));
      assert.equal(parts.map((p) => (p.type === 'text-delta' ? p.text : '')).join(''), answer);
      assert.deepEqual(usageParts(parts), []);
      assert.equal(parts.at(-1)?.type, 'finish');
    });

    test('a clean end after the finish reason, or after the usage chunk without [DONE], keeps the answer (with the usage that arrived)', async () => {
      server.enqueue(sseResponse(throughFinish, 9));
      const cut = await collect(providerFor(server).stream(ask('hi')));
      assert.equal(cut.map((p) => (p.type === 'text-delta' ? p.text : '')).join(''), answer);
      assert.deepEqual(usageParts(cut), []);
      server.enqueue({ ...sseResponse(usageStream), resetAfterBytes: Buffer.byteLength(throughUsage) });
      const late = await within(5000, () => collect(providerFor(server).stream(ask('hi'))));
      assert.deepEqual(usageParts(late), [{ type: 'usage', usage: { promptTokens: 14, completionTokens: 13, totalTokens: 27, cachedPromptTokens: 0, reasoningTokens: 0 } }]);
      assert.equal(late.at(-1)?.type, 'finish');
    });

    test('no output yet: a retryable stream error (clean end) or connection error (reset), and the agent retries for the real usage', async () => {
      const empty = frames[0]! + frames[finishAt]!;
      server.enqueue(sseResponse(empty));
      await assert.rejects(
        collect(providerFor(server).stream(ask('hi'))),
        isProviderError((e) => {
          assert.equal(e.kind, 'stream');
          assert.equal(e.retryable, true);
          assert.match(e.message, /before the usage chunk/);
        }),
      );
      server.enqueue({ ...sseResponse(empty + frames[finishAt + 1]!), resetAfterBytes: Buffer.byteLength(empty) });
      await assert.rejects(within(5000, () => collect(providerFor(server).stream(ask('hi')))), isProviderError((e) => assert.deepEqual([e.kind, e.retryable], ['connection', true])));

      server.enqueue(sseResponse(empty), sseResponse(usageStream, 13));
      const { streamed, result, requests, runtime, log } = await agentStream();
      assert.equal(streamed, answer);
      assert.equal(result.content, answer);
      assert.equal(requests, 2);
      assert.equal(runtime.sleeps.length, 1);
      const usage = log.of('usage')[0]!;
      assert.equal(usage.usage.estimated, undefined);
      assert.deepEqual([usage.usage.promptTokens, usage.usage.completionTokens], [14, 13]);
    });

    test('a server that never promised usage (no "usage": null) and sends none: an empty reply still ends normally', async () => {
      const old = textStream.split('\n\n').filter((f) => f.trim() !== '');
      const finish = old.find((f) => f.includes('"finish_reason":"stop"'))!;
      server.enqueue(sseResponse(`${old[0]}\n\n${finish}\n\ndata: [DONE]\n\n`));
      const parts = await collect(providerFor(server).stream(ask('hi')));
      assert.deepEqual(parts.map((p) => p.type), ['finish']);
    });
  });

  test('embeddings: HTTP errors are typed, an abort rethrows its reason', async () => {
    server.enqueue(...recordedResponses('openai/error.401.invalid_api_key.interactions.json'));
    await assert.rejects(providerFor(server).embed({ texts: ['x'] }), isProviderError((e) => assert.equal(e.status, 401)));
    const reason = new Error('stop embedding');
    server.enqueue({ hang: true });
    const controller = new AbortController();
    void requestReceived(server, server.requests.length).then(() => controller.abort(reason));
    await assert.rejects(within(3000, () => providerFor(server).embed({ texts: ['x'], signal: controller.signal })), (e: unknown) => e === reason);
  });

  test('a consumer that stops reading early closes the stream (no hang, the next call works)', async () => {
    const [first, ...rest] = textStream.split('\n\n');
    server.enqueue({ ...sseResponse(''), chunks: [`${first}\n\n`, rest.slice(0, 3).join('\n\n') + '\n\n', rest.slice(3).join('\n\n')], chunkDelayMs: 1000 });
    const provider = providerFor(server);
    await within(3000, async () => {
      for await (const part of provider.stream(ask('hi'))) if (part.type === 'text-delta') break;
    });
    server.enqueue(ok());
    assert.equal((await provider.complete(ask('again'))).message.content, '{"');
  });

  test('a stream sends nothing until it is read; return() on an unread stream just ends it', async () => {
    const provider = providerFor(server, { timeoutMs: 50 });
    const before = server.requests.length;
    const unread = provider.stream(ask('never read'));
    await new Promise((resolve) => setTimeout(resolve, 120));
    assert.equal(server.requests.length, before, 'no request before the first next()');
    assert.deepEqual(await unread.return?.(), { value: undefined, done: true });
    // The read goes through a provider with the default timeout: 50 ms is for the unread stream
    // (no timer may fire for it), not a bound on a loaded machine's round trip.
    server.enqueue(sseResponse(textStream));
    const stream = providerFor(server).stream(ask('read'));
    const parts = await collect(stream);
    assert.equal(server.requests.length, before + 1);
    assert.equal(parts.at(-1)?.type, 'finish');
    assert.deepEqual(await stream[Symbol.asyncIterator]().next(), { value: undefined, done: true }, 'next() after the end stays done');
  });

  test('next() called again before the first read settles: one request, parts in order', async () => {
    server.enqueue(sseResponse(textStream));
    const before = server.requests.length;
    const stream = providerFor(server).stream(ask('twice'));
    const [a, b, c] = await Promise.all([stream.next(), stream.next(), stream.next()]);
    assert.equal(server.requests.length, before + 1);
    for (const result of [a, b, c]) assert.equal(result.done, false);
    assert.deepEqual([a.value, b.value, c.value].map((part) => (part as { type: string }).type), ['text-delta', 'text-delta', 'text-delta']);
    assert.equal((a.value as { text: string }).text, "I'm");
    assert.equal((b.value as { text: string }).text, ' unable');
    await stream.return?.();
  });

  test('return() while a read is in flight ends that read quietly (no error, no unhandled rejection)', async () => {
    const [first, ...rest] = textStream.split('\n\n');
    server.enqueue({ ...sseResponse(''), chunks: [`${first}\n\n`, rest.join('\n\n')], chunkDelayMs: 1500 });
    const stream = providerFor(server).stream(ask('stop'));
    const pending = stream.next();
    await new Promise((resolve) => setTimeout(resolve, 100));
    await within(3000, async () => {
      await stream.return?.();
      assert.deepEqual(await pending, { value: undefined, done: true });
    });
  });

  test("an abort through request.signal rethrows the signal's reason (not a ProviderError)", async () => {
    const reason = new Error('user cancelled');
    server.enqueue({ hang: true });
    const controller = new AbortController();
    void requestReceived(server, server.requests.length).then(() => controller.abort(reason));
    await assert.rejects(within(3000, () => providerFor(server).complete(ask('hi', { signal: controller.signal }))), (e: unknown) => e === reason);
    const [first, ...rest] = textStream.split('\n\n');
    server.enqueue({ ...sseResponse(''), chunks: [`${first}\n\n`, rest.join('\n\n')], chunkDelayMs: 2000 });
    const streamController = new AbortController();
    setTimeout(() => streamController.abort(reason), 100);
    await assert.rejects(within(3000, () => collect(providerFor(server).stream(ask('hi', { signal: streamController.signal })))), (e: unknown) => e === reason);
  });
});
