import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { Ollama } from 'ollama';
import { after, before, describe, test } from 'node:test';
import { Agent } from '../../../../lib/agent/agent.js';
import { ProviderError } from '../../../../lib/core/errors/provider-error.js';
import { userMessage } from '../../../../lib/core/message.js';
import { OllamaProvider } from '../../../../lib/providers/ollama/index.js';
import type { ProviderRequest, StreamPart } from '../../../../lib/providers/spec.js';
import { eventLog, testRuntime } from '../../../support/agent-harness.js';
import { fixture, jsonResponse, requestReceived, startReplayServer, type ReplayResponse, type ReplayServer } from '../../../support/replay-server.js';

const NDJSON = { 'content-type': 'application/x-ndjson' };
const request: ProviderRequest = { model: 'gemma3:1b', messages: [userMessage('Count from 1 to 5')] };
const textLines = fixture('ollama/api-chat.text.stream.ndjson').toString('utf8').split(/(?<=\n)/);

function ndjsonChunks(chunks: string[], extra: Partial<ReplayResponse> = {}): ReplayResponse {
  return { status: 200, headers: NDJSON, chunks, ...extra };
}

const answer = jsonResponse({ model: 'gemma3:1b', message: { role: 'assistant', content: 'ok' }, done: true, done_reason: 'stop', prompt_eval_count: 3, eval_count: 1 });

/** Consumes a stream; returns the text it produced and the error it ended with. */
async function drain(stream: AsyncIterable<StreamPart>): Promise<{ text: string; parts: StreamPart[]; error: unknown }> {
  const parts: StreamPart[] = [];
  try {
    for await (const part of stream) parts.push(part);
  } catch (error) {
    return { text: parts.flatMap((p) => (p.type === 'text-delta' ? [p.text] : [])).join(''), parts, error };
  }
  return { text: parts.flatMap((p) => (p.type === 'text-delta' ? [p.text] : [])).join(''), parts, error: undefined };
}

function assertProviderError(error: unknown, kind: string, pattern?: RegExp): asserts error is ProviderError {
  assert.ok(ProviderError.isInstance(error), `expected a ProviderError, got ${String(error)}`);
  assert.equal(error.provider, 'ollama');
  assert.equal(error.kind, kind);
  if (pattern) assert.match(error.message, pattern);
}

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('Ollama adapter fault matrix', () => {
  let server: ReplayServer;
  let provider: OllamaProvider;
  before(async () => {
    server = await startReplayServer();
    provider = new OllamaProvider({ host: server.url, timeoutMs: 2_000 });
  });
  after(() => server.close());

  test('connection reset before the response: retryable connection error naming the host', async () => {
    server.enqueue({ reset: true });
    await assert.rejects(provider.complete(request), (error: unknown) => {
      assertProviderError(error, 'connection', new RegExp(server.url.replace(/[.]/g, '\\.')));
      assert.equal(error.retryable, true);
      return true;
    });
  });

  test('connection reset then success is retried by an Agent', async () => {
    server.enqueue({ reset: true }, answer);
    const runtime = testRuntime();
    const agent = new Agent({ provider, runtime });
    assert.equal((await agent.run('hi')).content, 'ok');
    assert.equal(runtime.sleeps.length, 1);
  });

  test('connection reset in the middle of a stream: typed error after the text so far', async () => {
    const body = textLines.join('');
    server.enqueue({ status: 200, headers: NDJSON, chunks: textLines, resetAfterBytes: Math.floor(body.length / 2) });
    const { text, error } = await drain(provider.stream(request));
    assertProviderError(error, 'connection');
    assert.ok('Okay, here we go!\n\n1, 2, 3, 4, 5\n'.startsWith(text));
  });

  test('unreachable host (closed port): connection error saying Ollama is not running at that host', async () => {
    const host = `http://127.0.0.1:${await closedPort()}`;
    const down = new OllamaProvider({ host });
    for (const attempt of [() => down.complete(request), async () => drain(down.stream(request)).then((r) => { throw r.error; }), () => down.embed({ texts: ['x'] })]) {
      await assert.rejects(attempt(), (error: unknown) => {
        assertProviderError(error, 'connection', /ECONNREFUSED/);
        assert.ok(error.message.includes(host), error.message);
        assert.match(error.message, /Is Ollama running\?/);
        assert.equal(error.retryable, true);
        return true;
      });
    }
  });

  test('no answer at all (hang): timeout error within the timeout', async () => {
    const quick = new OllamaProvider({ host: server.url, timeoutMs: 150 });
    server.enqueue({ hang: true });
    const started = Date.now();
    await assert.rejects(quick.complete(request), (error: unknown) => {
      assertProviderError(error, 'timeout', /150 ms/);
      assert.equal(error.retryable, true);
      return true;
    });
    assert.ok(Date.now() - started < 1_500);
    server.enqueue({ hang: true });
    const { error } = await drain(quick.stream(request));
    assertProviderError(error, 'timeout');
  });

  test('a stream that stalls after some output times out instead of hanging', async () => {
    // The first line must arrive within the window, also on a stalled machine: 1 s, then 6 s of silence.
    const quick = new OllamaProvider({ host: server.url, timeoutMs: 1_000 });
    server.enqueue(ndjsonChunks(textLines.slice(0, 1), { chunkDelayMs: 6_000 }));
    const started = Date.now();
    const { text, error } = await drain(quick.stream(request));
    assertProviderError(error, 'timeout');
    assert.equal(text, 'Okay');
    assert.ok(Date.now() - started < 5_000);
  });

  test('a slow stream that keeps sending is not cut by the timeout', async () => {
    // A line every 100 ms against a 400 ms window (a stall of 300 ms would be needed to cut it); the five lines outlast it.
    const quick = new OllamaProvider({ host: server.url, firstByteTimeoutMs: 400, idleTimeoutMs: 400 });
    server.enqueue(ndjsonChunks(textLines.slice(-5), { chunkDelayMs: 100 }));
    const { error, parts } = await drain(quick.stream(request));
    assert.equal(error, undefined);
    assert.equal(parts.at(-1)?.type, 'finish');
  });

  test('malformed NDJSON line: typed stream error, never skipped silently', async () => {
    server.enqueue(ndjsonChunks([textLines[0]!, '{"model":"gemma3:1b","message":{"role":"assis\n', ...textLines.slice(1)]));
    const { text, error } = await drain(provider.stream(request));
    assertProviderError(error, 'stream', /malformed NDJSON line/);
    assert.ok(!text.includes('model'));
  });

  test('stream cut before the done line (clean end of body): typed stream error', async () => {
    server.enqueue(ndjsonChunks(textLines.slice(0, 5)));
    const { text, parts, error } = await drain(provider.stream(request));
    assertProviderError(error, 'stream', /ended before its final "done" line/);
    assert.equal(text, 'Okay, here we go');
    assert.ok(!parts.some((p) => p.type === 'finish'));
  });

  test('stream cut in the middle of a line: typed stream error', async () => {
    server.enqueue(ndjsonChunks([...textLines.slice(0, 2), textLines[2]!.slice(0, 20)]));
    const { error } = await drain(provider.stream(request));
    assertProviderError(error, 'stream');
  });

  test('an error page that is not JSON (a proxy 502) is a typed, retryable error carrying its text', async () => {
    server.enqueue({ status: 502, headers: { 'content-type': 'text/html' }, body: '<html>Bad Gateway</html>' });
    await assert.rejects(provider.complete(request), (error: unknown) => {
      assert.ok(ProviderError.isInstance(error));
      assert.equal(error.status, 502);
      assert.equal(error.retryable, true);
      assert.match(error.message, /Bad Gateway/);
      return true;
    });
    server.enqueue({ status: 500, headers: { 'content-type': 'application/json' }, body: '{"error":{"message":"nested"}}' });
    await assert.rejects(provider.complete(request), (e: unknown) => ProviderError.isInstance(e) && e.status === 500 && /nested/.test(e.message));
  });

  test('429 carries Retry-After', async () => {
    server.enqueue(jsonResponse({ error: 'too many requests' }, 429, { 'retry-after': '3' }));
    await assert.rejects(provider.complete(request), (error: unknown) => {
      assert.ok(ProviderError.isInstance(error));
      assert.equal(error.status, 429);
      assert.equal(error.retryAfterSeconds, 3);
      assert.equal(error.retryable, true);
      return true;
    });
  });

  test('401 (an authenticating proxy or ollama.com): typed auth error naming the provider and status, never retried', async () => {
    server.enqueue(jsonResponse({ error: 'unauthorized' }, 401));
    const runtime = testRuntime();
    const start = server.requests.length;
    await assert.rejects(new Agent({ provider, model: 'gemma3:1b', runtime }).run('hi'), (error: unknown) => {
      assertProviderError(error, 'auth');
      assert.equal(error.status, 401);
      assert.equal(error.retryable, false);
      assert.equal(error.model, 'gemma3:1b');
      assert.match(error.message, /^ollama returned 401 \(model gemma3:1b\): unauthorized$/);
      return true;
    });
    assert.equal(server.requests.length - start, 1, 'sent once');
    assert.deepEqual(runtime.sleeps, []);
    server.enqueue(jsonResponse({ error: 'unauthorized' }, 401));
    const { error } = await drain(provider.stream(request));
    assertProviderError(error, 'auth');
    assert.deepEqual([error.status, error.retryable], [401, false]);
  });

  test('429 with Retry-After, then success: the agent sleeps the Retry-After delay and sends exactly two requests', async () => {
    server.enqueue(jsonResponse({ error: 'server busy, please try again. maximum pending requests exceeded' }, 429, { 'retry-after': '3' }), answer);
    const runtime = testRuntime();
    const log = eventLog();
    const start = server.requests.length;
    const result = await new Agent({ provider, runtime, observers: [log.observer] }).run('hi');
    assert.equal(result.content, 'ok');
    assert.deepEqual(runtime.sleeps, [3000]);
    assert.equal(server.requests.length - start, 2);
    assert.deepEqual(log.of('llm-retry').map((e) => [e.provider, e.attempt, e.delayMs, e.error.status]), [['ollama', 1, 3000, 429]]);
  });

  test('abort via the request signal rethrows the signal reason (complete, stream, embed)', async () => {
    const reason = new Error('user cancelled');
    server.enqueue({ hang: true });
    const controller = new AbortController();
    const seen = server.requests.length;
    const pending = provider.complete({ ...request, signal: controller.signal });
    void requestReceived(server, seen).then(() => controller.abort(reason));
    await assert.rejects(pending, (error: unknown) => error === reason);

    server.enqueue(ndjsonChunks(textLines, { chunkDelayMs: 50 }));
    const streaming = new AbortController();
    const parts: StreamPart[] = [];
    await assert.rejects(
      (async () => {
        for await (const part of provider.stream({ ...request, signal: streaming.signal })) {
          parts.push(part);
          if (parts.length === 2) streaming.abort(reason);
        }
      })(),
      (error: unknown) => error === reason,
    );
    assert.equal(parts.length, 2);

    const already = AbortSignal.abort(reason);
    await assert.rejects(provider.embed({ texts: ['x'], signal: already }), (error: unknown) => error === reason);
  });

  test('breaking out of a stream early releases it without error', async () => {
    server.enqueue(ndjsonChunks(textLines, { chunkDelayMs: 20 }));
    for await (const part of provider.stream(request)) {
      assert.equal(part.type, 'text-delta');
      break;
    }
    server.enqueue(answer);
    assert.equal((await provider.complete(request)).message.content, 'ok');
  });

  test('a caller-supplied SDK client still gets timeouts and aborts (the call is abandoned)', async () => {
    // 1 s: the answers that must succeed get in on a stalled machine too.
    const injected = new OllamaProvider({ client: new Ollama({ host: server.url }), timeoutMs: 1_000 });
    server.enqueue(answer);
    assert.equal((await injected.complete(request)).message.content, 'ok');
    server.enqueue({ hang: true });
    await assert.rejects(injected.complete(request), (error: unknown) => ProviderError.isInstance(error) && error.kind === 'timeout');
    server.enqueue(ndjsonChunks(textLines.slice(0, 1), { chunkDelayMs: 6_000 }));
    const { text, error } = await drain(injected.stream(request));
    assertProviderError(error, 'timeout');
    assert.equal(text, 'Okay');
    const reason = new Error('stop');
    server.enqueue({ hang: true });
    const controller = new AbortController();
    const seen = server.requests.length;
    const pending = injected.complete({ ...request, signal: controller.signal });
    void requestReceived(server, seen).then(() => controller.abort(reason));
    await assert.rejects(pending, (e: unknown) => e === reason);
    server.enqueue(jsonResponse({ error: 'busy' }, 503));
    await assert.rejects(injected.complete(request), (error: unknown) => {
      assertProviderError(error, 'overloaded', /^ollama returned 503 \(model gemma3:1b\): busy$/);
      assert.equal(error.status, 503);
      assert.equal(error.retryable, true);
      assert.equal(error.model, 'gemma3:1b');
      return true;
    });
  });
});
