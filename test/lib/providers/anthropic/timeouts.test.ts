import assert from 'node:assert/strict';
import { createHook } from 'node:async_hooks';
import { afterEach, beforeEach, describe, test } from 'node:test';
import Anthropic from '@anthropic-ai/sdk';
import { Agent } from '../../../../lib/agent/agent.js';
import { ProviderError } from '../../../../lib/core/errors/provider-error.js';
import { AnthropicProvider, DEFAULT_ANTHROPIC_TIMEOUT_MS } from '../../../../lib/providers/anthropic/index.js';
import { DEFAULT_GEMINI_TIMEOUT_MS } from '../../../../lib/providers/gemini/index.js';
import { DEFAULT_OLLAMA_TIMEOUT_MS } from '../../../../lib/providers/ollama/index.js';
import { DEFAULT_OPENAI_TIMEOUT_MS } from '../../../../lib/providers/openai/index.js';
import type { StreamPart } from '../../../../lib/providers/spec.js';
import { testRuntime } from '../../../support/agent-harness.js';
import { fixture, sseResponse, startReplayServer, type ReplayResponse, type ReplayServer } from '../../../support/replay-server.js';
import { ask, providerFor, textOf } from './helpers.js';
import { drainStream as drain } from '../../../support/drain-stream.js';

/** SSE events of a text stream of `deltas` text deltas ("t0 ", "t1 ", …), one string per event. */
function textEvents(deltas: number): string[] {
  const events: { type: string; [key: string]: unknown }[] = [
    { type: 'message_start', message: { id: 'm', type: 'message', role: 'assistant', model: 'claude-haiku-4-5', content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 3, output_tokens: 1 } } },
    { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
  ];
  for (let i = 0; i < deltas; i++) events.push({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: `t${i} ` } });
  events.push({ type: 'content_block_stop', index: 0 }, { type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: deltas } }, { type: 'message_stop' });
  return events.map((e) => `event: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`);
}

const expectedText = (deltas: number): string => Array.from({ length: deltas }, (_, i) => `t${i} `).join('');

function assertTimeout(error: unknown): asserts error is ProviderError {
  assert.ok(ProviderError.isInstance(error), `expected a ProviderError, got ${String(error)}`);
  assert.equal(error.provider, 'anthropic');
  assert.equal(error.kind, 'timeout');
  assert.equal(error.retryable, true);
}

/** How many timers (`Timeout` resources) `run` creates. */
async function timersCreatedBy(run: () => Promise<unknown>): Promise<number> {
  let count = 0;
  const hook = createHook({ init: (_id, type) => void (type === 'Timeout' && count++) });
  hook.enable();
  try {
    await run();
  } finally {
    hook.disable();
  }
  return count;
}

describe('AnthropicProvider timeouts (one CallControl per call)', () => {
  let server: ReplayServer;
  beforeEach(async () => {
    server = await startReplayServer();
    // Warm up (module loading, first connection): the timeouts below are short.
    server.enqueue(sseResponse(textEvents(1).join('')));
    await drain(providerFor(server).stream(ask('warm up')));
  });
  afterEach(async () => server.close());

  test('the silence timeout fires mid-stream after N events: typed timeout after exactly the text sent', async () => {
    const events = textEvents(20);
    // 2 + 8 events (8 deltas) at once, then silence far longer than the timeout.
    // The window is wide enough that a stalled machine still gets the first events in time.
    server.enqueue({ ...sseResponse(''), chunks: [events.slice(0, 10).join(''), events.slice(10).join('')], chunkDelayMs: 6_000 });
    const started = Date.now();
    const { parts, error } = await drain(providerFor(server, { timeoutMs: 1_000 }).stream(ask('count')));
    assertTimeout(error);
    assert.equal(textOf(parts), expectedText(8));
    assert.ok(!parts.some((p) => p.type === 'finish'));
    assert.ok(Date.now() - started < 5_000, 'timed out long before the next chunk');
  });

  test('a slow but steady stream (an event more often than the timeout) is never cut, however long it runs', async () => {
    // An event every 50 ms against a 600 ms window (a stall of over half a second would be needed to
    // cut it), for 30 events: the whole stream outlasts the window twice.
    const events = textEvents(30);
    server.enqueue({ ...sseResponse(''), chunks: events, chunkDelayMs: 50 });
    const started = Date.now();
    const { parts, error } = await drain(providerFor(server, { firstByteTimeoutMs: 600, idleTimeoutMs: 600 }).stream(ask('count')));
    assert.equal(error, undefined);
    assert.ok(Date.now() - started > 2 * 600, 'the whole stream took several timeouts');
    assert.equal(textOf(parts), expectedText(30));
    assert.equal(parts.at(-1)?.type, 'finish');
  });

  test('complete: a body that stalls after the headers times out (the timeout bounds the whole call)', async () => {
    const body = fixture('anthropic/messages.text.nonstream.vercel.json');
    const half = Math.floor(body.length / 2);
    server.enqueue({ status: 200, headers: { 'content-type': 'application/json' }, chunks: [body.subarray(0, half), body.subarray(half)], chunkDelayMs: 2_000 });
    const started = Date.now();
    await assert.rejects(providerFor(server, { timeoutMs: 150 }).complete(ask('Hi')), (error: unknown) => {
      assertTimeout(error);
      return true;
    });
    assert.ok(Date.now() - started < 1_500);
  });

  test('a stream that stalls after output fails with the timeout through the agent: no retry', async () => {
    const events = textEvents(5);
    server.enqueue({ ...sseResponse(''), chunks: [events.slice(0, 4).join(''), events.slice(4).join('')], chunkDelayMs: 2_000 });
    const runtime = testRuntime();
    const before = server.requests.length;
    await assert.rejects(new Agent({ provider: providerFor(server, { timeoutMs: 150 }), runtime }).stream('count').result, (error: unknown) => {
      assertTimeout(error);
      return true;
    });
    assert.deepEqual(runtime.sleeps, []);
    assert.equal(server.requests.length - before, 1, 'not retried');
  });

  test('a caller abort while the stream is silent rethrows the reason, not a timeout', async () => {
    const events = textEvents(5);
    server.enqueue({ ...sseResponse(''), chunks: [events.slice(0, 4).join(''), events.slice(4).join('')], chunkDelayMs: 2_000 });
    const reason = new Error('user stop');
    const controller = new AbortController();
    const parts: StreamPart[] = [];
    let error: unknown;
    try {
      for await (const part of providerFor(server, { timeoutMs: 1_000 }).stream(ask('count', { signal: controller.signal }))) {
        parts.push(part);
        // Abort once the output so far is in and the server has gone silent.
        if (textOf(parts) === expectedText(2)) setTimeout(() => controller.abort(reason), 50);
      }
    } catch (caught) {
      error = caught;
    }
    assert.equal(error, reason);
    assert.equal(textOf(parts), expectedText(2));
  });

  test('no timer per event: a 300-event stream creates a handful of timers, not one per event', async () => {
    const response: ReplayResponse = sseResponse(textEvents(300).join(''));
    server.enqueue(response);
    const provider = providerFor(server, { timeoutMs: 5_000 });
    let parts: StreamPart[] = [];
    const timers = await timersCreatedBy(async () => {
      parts = (await drain(provider.stream(ask('count')))).parts;
    });
    assert.equal(textOf(parts), expectedText(300));
    assert.ok(timers < 20, `${timers} timers for 300 events`);
  });
});

describe('AnthropicProvider default timeout (600 s, like the other adapters)', () => {
  test('with no timeoutMs the per-call timeout is 600000 ms, the same as the OpenAI, Gemini and Ollama adapters (a ready client too)', () => {
    assert.equal(DEFAULT_ANTHROPIC_TIMEOUT_MS, 600_000);
    assert.equal(new AnthropicProvider({ apiKey: 'test-key' }).timeoutMs, 600_000);
    assert.equal(new AnthropicProvider({ client: new Anthropic({ apiKey: 'test-key' }) }).timeoutMs, 600_000);
    assert.equal(DEFAULT_ANTHROPIC_TIMEOUT_MS, DEFAULT_OPENAI_TIMEOUT_MS);
    assert.equal(DEFAULT_ANTHROPIC_TIMEOUT_MS, DEFAULT_GEMINI_TIMEOUT_MS);
    assert.equal(DEFAULT_ANTHROPIC_TIMEOUT_MS, DEFAULT_OLLAMA_TIMEOUT_MS);
    assert.equal(new AnthropicProvider({ apiKey: 'test-key', timeoutMs: 1234 }).timeoutMs, 1234);
    assert.equal(new AnthropicProvider({ apiKey: 'test-key', timeoutMs: 0 }).timeoutMs, 0, '0: no timeout');
  });
});
