import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ProviderError } from '../../../lib/core/errors/provider-error.js';
import { AnthropicProvider } from '../../../lib/providers/anthropic/index.js';
import type { ProviderTimeoutOptions } from '../../../lib/providers/call-timeouts.js';
import { GeminiProvider } from '../../../lib/providers/gemini/index.js';
import { OllamaProvider } from '../../../lib/providers/ollama/index.js';
import { OpenAIProvider } from '../../../lib/providers/openai/index.js';
import type { Provider, StreamPart } from '../../../lib/providers/spec.js';
import { drainStream as drain } from '../../support/drain-stream.js';
import { startStallingServer, type StallScript } from '../../support/stalling-server.js';

/** The first chunks of a text stream ("Hel") in each provider's wire format, then nothing. */
const HEADS: Record<string, StallScript> = {
  openai: {
    head: `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'gpt-4o-mini', choices: [{ index: 0, delta: { role: 'assistant', content: 'Hel' }, finish_reason: null }] })}\n\n`,
  },
  anthropic: {
    head: [
      { type: 'message_start', message: { id: 'm', type: 'message', role: 'assistant', model: 'claude-haiku-4-5', content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 3, output_tokens: 1 } } },
      { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Hel' } },
    ]
      .map((event) => `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`)
      .join(''),
  },
  gemini: {
    head: `data: ${JSON.stringify({ candidates: [{ content: { parts: [{ text: 'Hel' }], role: 'model' }, index: 0 }], modelVersion: 'gemini-2.5-flash' })}\r\n\r\n`,
  },
  ollama: {
    head: `${JSON.stringify({ model: 'llama3.2', created_at: '2025-01-01T00:00:00Z', message: { role: 'assistant', content: 'Hel' }, done: false })}\n`,
    headers: { 'content-type': 'application/x-ndjson' },
  },
};

function adapter(name: string, url: string, timeouts: ProviderTimeoutOptions): Provider {
  switch (name) {
    case 'openai':
      return new OpenAIProvider({ apiKey: 'sk-test', baseURL: `${url}/v1`, ...timeouts });
    case 'anthropic':
      return new AnthropicProvider({ apiKey: 'test-key', baseURL: url, ...timeouts });
    case 'gemini':
      return new GeminiProvider({ apiKey: 'test-key', baseURL: url, ...timeouts });
    default:
      return new OllamaProvider({ host: url, ...timeouts });
  }
}

const request = { model: '', messages: [{ role: 'user' as const, content: 'hi' }] };

/** Fails the test instead of hanging it (the adapters' totals are 10 minutes). */
async function within<T>(ms: number, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`still waiting after ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([work, limit]);
  } finally {
    clearTimeout(timer);
  }
}

function assertTimeout(error: unknown, provider: string, phase: RegExp): void {
  assert.ok(ProviderError.isInstance(error), `expected a ProviderError, got ${String(error)}`);
  assert.equal(error.provider, provider);
  assert.equal(error.kind, 'timeout');
  assert.equal(error.retryable, true, 'timeouts are retried (REFERENCE §1)');
  assert.match(error.message, phase);
}

const text = (parts: StreamPart[]): string => parts.map((part) => (part.type === 'text-delta' ? part.text : '')).join('');

// Only the new limits are set: the total keeps its 10-minute default, so only they can end the calls.
// The limit a test does not exercise is wide, so a loaded machine cannot make the other one fire.
const SILENT: ProviderTimeoutOptions = { firstByteTimeoutMs: 300, idleTimeoutMs: 60_000 };
const STALL: ProviderTimeoutOptions = { firstByteTimeoutMs: 20_000, idleTimeoutMs: 300 };
// Generous against 300 ms on a loaded machine; far below the 10-minute total.
const BOUND_MS = 8_000;

for (const name of ['openai', 'anthropic', 'gemini', 'ollama']) {
  describe(`${name}: a server that goes silent ends the stream with a typed timeout`, () => {
    test('accepts the connection and never answers: first-byte timeout', async () => {
      const server = await startStallingServer();
      try {
        const started = performance.now();
        const { parts, error } = await within(BOUND_MS + 2_000, drain(adapter(name, server.url, SILENT).stream(request)));
        assertTimeout(error, name, /first-byte timeout/);
        assert.deepEqual(parts, []);
        assert.ok(performance.now() - started < BOUND_MS, `ended after ${Math.round(performance.now() - started)} ms`);
      } finally {
        await server.close();
      }
    });

    test('stalls mid-stream after the first chunk: idle timeout, the text so far delivered', async () => {
      const server = await startStallingServer(HEADS[name]);
      try {
        const started = performance.now();
        const { parts, error } = await within(BOUND_MS + 2_000, drain(adapter(name, server.url, STALL).stream(request)));
        assertTimeout(error, name, /idle timeout/);
        assert.equal(text(parts), 'Hel');
        assert.ok(performance.now() - started < BOUND_MS, `ended after ${Math.round(performance.now() - started)} ms`);
      } finally {
        await server.close();
      }
    });
  });
}

describe('complete(): only the total bounds a call that sends nothing before its whole reply', () => {
  test('a server that never answers: total timeout, named as such', async () => {
    const server = await startStallingServer();
    try {
      // A first-byte limit shorter than the total does not apply to complete().
      const provider = adapter('openai', server.url, { timeoutMs: 600, firstByteTimeoutMs: 100 });
      const error = await within(BOUND_MS, provider.complete(request).then(() => undefined, (caught: unknown) => caught));
      assertTimeout(error, 'openai', /total timeout/);
    } finally {
      await server.close();
    }
  });
});
