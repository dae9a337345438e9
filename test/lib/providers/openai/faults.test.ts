import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Agent } from '../../../../lib/agent/agent.js';
import { ProviderError } from '../../../../lib/core/errors/provider-error.js';
import { testRuntime } from '../../../support/agent-harness.js';
import { fixture, jsonResponse, recordedResponses, sseResponse, startReplayServer, type ReplayResponse, type ReplayServer } from '../../../support/replay-server.js';
import { ask, collect, providerFor } from './helpers.js';

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

  test('malformed chunks: invalid JSON or a chunk without choices → typed stream error', async () => {
    const [first] = textStream.split('\n\n');
    const originalError = console.error;
    console.error = () => undefined; // the SDK logs the unparsable line before throwing
    try {
      server.enqueue(sseResponse(`${first}\n\ndata: {"id":"x","choices":[{"delta":{"content":"oops"\n\ndata: [DONE]\n\n`, 9));
      await assert.rejects(collect(providerFor(server).stream(ask('hi'))), isProviderError((e) => assert.equal(e.kind, 'stream')));
    } finally {
      console.error = originalError;
    }
    server.enqueue(sseResponse(`${first}\n\ndata: {"id":"x","object":"chat.completion.chunk"}\n\ndata: [DONE]\n\n`));
    await assert.rejects(collect(providerFor(server).stream(ask('hi'))), isProviderError((e) => assert.match(e.message, /malformed stream chunk/)));
  });

  test('an error event inside a 200 stream → typed error, never answer text', async () => {
    const [first] = textStream.split('\n\n');
    server.enqueue(sseResponse(`${first}\n\ndata: {"error":{"message":"The server had an error while processing your request.","type":"server_error"}}\n\n`));
    await assert.rejects(
      collect(providerFor(server).stream(ask('hi'))),
      isProviderError((e) => {
        assert.equal(e.kind, 'stream');
        assert.match(e.message, /server had an error/);
      }),
    );
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

  test('embeddings: HTTP errors are typed, an abort rethrows its reason', async () => {
    server.enqueue(...recordedResponses('openai/error.401.invalid_api_key.interactions.json'));
    await assert.rejects(providerFor(server).embed({ texts: ['x'] }), isProviderError((e) => assert.equal(e.status, 401)));
    const reason = new Error('stop embedding');
    server.enqueue({ hang: true });
    const controller = new AbortController();
    setTimeout(() => controller.abort(reason), 30);
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
    server.enqueue(sseResponse(textStream));
    const stream = provider.stream(ask('read'));
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
    setTimeout(() => controller.abort(reason), 50);
    await assert.rejects(within(3000, () => providerFor(server).complete(ask('hi', { signal: controller.signal }))), (e: unknown) => e === reason);
    const [first, ...rest] = textStream.split('\n\n');
    server.enqueue({ ...sseResponse(''), chunks: [`${first}\n\n`, rest.join('\n\n')], chunkDelayMs: 2000 });
    const streamController = new AbortController();
    setTimeout(() => streamController.abort(reason), 100);
    await assert.rejects(within(3000, () => collect(providerFor(server).stream(ask('hi', { signal: streamController.signal })))), (e: unknown) => e === reason);
  });
});
