import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ConfigurationError } from '../../../lib/core/errors/configuration-error.js';
import { ProviderError } from '../../../lib/core/errors/provider-error.js';
import { embedWithRetry } from '../../../lib/providers/embed-with-retry.js';
import { FallbackProvider } from '../../../lib/providers/fallback.js';
import { OllamaProvider } from '../../../lib/providers/ollama/index.js';
import { OpenAIProvider } from '../../../lib/providers/openai/index.js';
import type { ProviderNotice } from '../../../lib/providers/spec.js';
import { fixture, jsonResponse, recordedResponses, startReplayServer, type ReplayServer } from '../../support/replay-server.js';

const rateLimited = (retryAfter: string) =>
  jsonResponse(fixture('openai/error.429.rate_limit_exceeded.from-issue.json').toString('utf8'), 429, { 'retry-after': retryAfter, 'x-request-id': 'req_429' });
const overloaded = () => jsonResponse({ error: { message: 'The server is overloaded', type: 'server_error' } }, 503);
const embeddings = () => recordedResponses('openai/embeddings.base64.interactions.json');

/** A sleep that records its delays and returns at once (honouring an abort). */
function recordingSleep(): { sleeps: number[]; sleep: (ms: number, signal?: AbortSignal) => Promise<void> } {
  const sleeps: number[] = [];
  return {
    sleeps,
    sleep: async (ms, signal) => {
      sleeps.push(ms);
      signal?.throwIfAborted();
    },
  };
}

function describeNotice(notice: ProviderNotice): unknown[] {
  const status = ProviderError.isInstance(notice.error) ? notice.error.status : undefined;
  return notice.type === 'llm-retry' ? [notice.type, notice.provider, notice.attempt, notice.delayMs, status] : [notice.type, notice.from, notice.to, status];
}

describe('embedWithRetry on the real adapters', () => {
  let openaiServer: ReplayServer;
  let ollamaServer: ReplayServer;
  before(async () => {
    openaiServer = await startReplayServer();
    ollamaServer = await startReplayServer();
  });
  after(async () => {
    await openaiServer.close();
    await ollamaServer.close();
  });
  const openai = () => new OpenAIProvider({ apiKey: 'sk-test', baseURL: `${openaiServer.url}/v1` });

  test('429 with Retry-After, then success: retried once after the Retry-After delay, with an llm-retry notice', async () => {
    openaiServer.enqueue(rateLimited('2'), ...embeddings());
    const { sleeps, sleep } = recordingSleep();
    const notices: ProviderNotice[] = [];
    const start = openaiServer.requests.length;
    const reply = await embedWithRetry(openai(), { texts: ['Hello, world!'], onNotice: (n) => notices.push(n) }, { sleep });
    assert.equal(openaiServer.requests.length - start, 2, 'exactly one retry');
    assert.deepEqual(sleeps, [2000]);
    assert.deepEqual(notices.map(describeNotice), [['llm-retry', 'openai', 1, 2000, 429]]);
    assert.equal(reply.embeddings.length, 1);
    assert.equal(reply.embeddings[0]!.length, 1536);
    assert.equal(reply.model, 'text-embedding-3-small');
    assert.equal(reply.usage.tokens, 4);
  });

  test('the agent policy: 2 retries with full-jitter backoff, then the last error; options override it', async () => {
    openaiServer.enqueue(overloaded(), overloaded(), overloaded());
    const { sleeps, sleep } = recordingSleep();
    let start = openaiServer.requests.length;
    await assert.rejects(embedWithRetry(openai(), { texts: ['x'] }, { sleep, random: () => 0.5 }), (e: unknown) => ProviderError.isInstance(e) && e.status === 503);
    assert.equal(openaiServer.requests.length - start, 3);
    assert.deepEqual(sleeps, [250, 500], 'half of 0.5 s, then of 1 s');

    openaiServer.enqueue(overloaded());
    start = openaiServer.requests.length;
    await assert.rejects(embedWithRetry(openai(), { texts: ['x'] }, { maxRetries: 0, sleep }), (e: unknown) => ProviderError.isInstance(e) && e.status === 503);
    assert.equal(openaiServer.requests.length - start, 1);
  });

  test('400 and 401 are raised at once, never retried', async () => {
    for (const response of [jsonResponse({ error: { message: "'input' : input must be a string or an array", type: 'invalid_request_error' } }, 400), ...recordedResponses('openai/error.401.invalid_api_key.interactions.json')]) {
      openaiServer.enqueue(response);
      const { sleeps, sleep } = recordingSleep();
      const start = openaiServer.requests.length;
      await assert.rejects(embedWithRetry(openai(), { texts: ['x'] }, { sleep }), (e: unknown) => ProviderError.isInstance(e) && e.retryable === false);
      assert.equal(openaiServer.requests.length - start, 1);
      assert.deepEqual(sleeps, []);
    }
  });

  test('a caller abort during the backoff rethrows its reason and sends nothing more', async () => {
    openaiServer.enqueue(rateLimited('30'));
    const controller = new AbortController();
    const reason = new Error('stop embedding');
    const start = openaiServer.requests.length;
    const notices: ProviderNotice[] = [];
    // Aborted from the llm-retry notice: the 429 was answered and the real 30 s Retry-After sleep is about to start.
    const onNotice = (n: ProviderNotice): void => {
      notices.push(n);
      if (n.type === 'llm-retry') controller.abort(reason);
    };
    const started = Date.now();
    await assert.rejects(embedWithRetry(openai(), { texts: ['x'], signal: controller.signal, onNotice }), (e: unknown) => e === reason);
    assert.ok(Date.now() - started < 15_000, 'the 30 s backoff was cut short by the abort');
    assert.deepEqual(notices.map(describeNotice), [['llm-retry', 'openai', 1, 30_000, 429]]);
    assert.equal(openaiServer.requests.length - start, 1);
  });

  test('a fallback chain (OpenAI 503 → Ollama): the failover is a provider-fallback notice, no retry needed', async () => {
    openaiServer.enqueue(overloaded());
    ollamaServer.enqueue(...recordedResponses('ollama/api-embed.interactions.json'));
    const chain = new FallbackProvider([openai(), new OllamaProvider({ host: ollamaServer.url })]);
    const notices: ProviderNotice[] = [];
    const { sleeps, sleep } = recordingSleep();
    const reply = await embedWithRetry(chain, { texts: ['Hello world'], onNotice: (n) => notices.push(n) }, { sleep });
    assert.deepEqual(notices.map(describeNotice), [['provider-fallback', 'openai', 'ollama', 503]]);
    assert.deepEqual(sleeps, []);
    assert.equal(reply.model, 'nomic-embed-text');
    assert.equal(reply.embeddings[0]!.length, 768);
    assert.equal((ollamaServer.requests.at(-1)!.json as { model: string }).model, 'nomic-embed-text', 'the Ollama entry used its own embedding model');
  });

  test('a provider without embeddings is a configuration error', async () => {
    const chatOnly = { name: 'chat-only' };
    await assert.rejects(embedWithRetry(chatOnly, { texts: ['x'] }), (e: unknown) => ConfigurationError.isInstance(e) && /chat-only does not support embeddings/.test(e.message));
  });
});
