import assert from 'node:assert/strict';
import { createHook } from 'node:async_hooks';
import { after, before, describe, test } from 'node:test';
import { ProviderError } from '../../../../lib/core/errors/provider-error.js';
import { userMessage } from '../../../../lib/core/message.js';
import { OllamaProvider } from '../../../../lib/providers/ollama/index.js';
import type { ProviderRequest, StreamPart } from '../../../../lib/providers/spec.js';
import { startReplayServer, type ReplayResponse, type ReplayServer } from '../../../support/replay-server.js';
import { drainStream as drain } from '../../../support/drain-stream.js';

const NDJSON = { 'content-type': 'application/x-ndjson' };
const request: ProviderRequest = { model: 'gemma3:1b', messages: [userMessage('count')] };

/** NDJSON lines of a text stream of `n` deltas ("t0 ", "t1 ", …) and its done line. */
function lines(n: number): string[] {
  const out = Array.from({ length: n }, (_, i) => `${JSON.stringify({ model: 'gemma3:1b', message: { role: 'assistant', content: `t${i} ` }, done: false })}\n`);
  out.push(`${JSON.stringify({ model: 'gemma3:1b', message: { role: 'assistant', content: '' }, done: true, done_reason: 'stop', prompt_eval_count: 2, eval_count: n })}\n`);
  return out;
}
const expectedText = (n: number): string => Array.from({ length: n }, (_, i) => `t${i} `).join('');
const textOf = (parts: readonly StreamPart[]): string => parts.map((p) => (p.type === 'text-delta' ? p.text : '')).join('');

function ndjson(chunks: string[], extra: Partial<ReplayResponse> = {}): ReplayResponse {
  return { status: 200, headers: NDJSON, chunks, ...extra };
}

describe('Ollama adapter timeouts and NDJSON reading (one CallControl per call)', () => {
  let server: ReplayServer;
  before(async () => {
    server = await startReplayServer();
    // Warm up (module loading, first connection): the timeouts below are short.
    server.enqueue(ndjson(lines(1)));
    await drain(new OllamaProvider({ host: server.url }).stream(request));
  });
  after(() => server.close());

  test('the silence timeout fires mid-stream after N lines: typed timeout after exactly the text sent', async () => {
    const all = lines(20);
    // The window is wide enough that a stalled machine still gets the first lines in time.
    server.enqueue(ndjson([all.slice(0, 8).join(''), all.slice(8).join('')], { chunkDelayMs: 6_000 }));
    const started = Date.now();
    const { parts, error } = await drain(new OllamaProvider({ host: server.url, timeoutMs: 1_000 }).stream(request));
    assert.ok(ProviderError.isInstance(error), String(error));
    assert.equal(error.kind, 'timeout');
    assert.equal(error.retryable, true);
    assert.equal(textOf(parts), expectedText(8));
    assert.ok(Date.now() - started < 5_000);
  });

  test('a slow but steady stream (a line more often than the timeout) is never cut, however long it runs', async () => {
    // A line every 50 ms against a 600 ms window (only a stall of over half a second could cut it),
    // for 30 lines: the whole stream outlasts the window twice.
    server.enqueue(ndjson(lines(30), { chunkDelayMs: 50 }));
    const started = Date.now();
    const { parts, error } = await drain(new OllamaProvider({ host: server.url, firstByteTimeoutMs: 600, idleTimeoutMs: 600 }).stream(request));
    assert.equal(error, undefined);
    assert.ok(Date.now() - started > 2 * 600);
    assert.equal(textOf(parts), expectedText(30));
    assert.deepEqual(parts.at(-1), { type: 'finish', finishReason: 'stop', model: 'gemma3:1b' });
  });

  test('lines split across reads at any offset, CRLF endings and a done line without a final newline', async () => {
    const body = lines(30).join('').replace(/\n/g, '\r\n').replace(/\r\n$/, '');
    const pieces = Array.from({ length: Math.ceil(body.length / 7) }, (_, i) => body.slice(i * 7, (i + 1) * 7));
    server.enqueue(ndjson(pieces));
    const { parts, error } = await drain(new OllamaProvider({ host: server.url, timeoutMs: 2_000 }).stream(request));
    assert.equal(error, undefined);
    assert.equal(textOf(parts), expectedText(30));
    assert.deepEqual(parts.slice(-2), [
      { type: 'usage', usage: { promptTokens: 2, completionTokens: 30, totalTokens: 32, costUsd: 0 } },
      { type: 'finish', finishReason: 'stop', model: 'gemma3:1b' },
    ]);
  });

  test('a line that is JSON but not an object is a malformed line, not skipped', async () => {
    const all = lines(3);
    server.enqueue(ndjson([all[0]!, '[1,2]\n', ...all.slice(1)]));
    const { parts, error } = await drain(new OllamaProvider({ host: server.url }).stream(request));
    assert.ok(ProviderError.isInstance(error));
    assert.equal(error.kind, 'stream');
    assert.match(error.message, /malformed NDJSON line/);
    assert.equal(textOf(parts), expectedText(1));
  });

  test('no timer per line: a 300-line stream creates a handful of timers', async () => {
    server.enqueue({ status: 200, headers: NDJSON, body: lines(300).join('') });
    const provider = new OllamaProvider({ host: server.url, timeoutMs: 5_000 });
    let count = 0;
    const hook = createHook({ init: (_id, type) => void (type === 'Timeout' && count++) });
    hook.enable();
    let result: Awaited<ReturnType<typeof drain<StreamPart>>>;
    try {
      result = await drain(provider.stream(request));
    } finally {
      hook.disable();
    }
    assert.equal(result.error, undefined);
    assert.equal(textOf(result.parts), expectedText(300));
    assert.ok(count < 20, `${count} timers for 300 lines`);
  });

  test('streams in a row on one provider each finish (the body after the done line is left to end, not cut)', async () => {
    server.enqueue(ndjson(lines(3)), ndjson(lines(2)));
    const provider = new OllamaProvider({ host: server.url, timeoutMs: 2_000 });
    assert.equal(textOf((await drain(provider.stream(request))).parts), expectedText(3));
    assert.equal(textOf((await drain(provider.stream(request))).parts), expectedText(2));
    assert.equal(server.pending(), 0);
  });
});
