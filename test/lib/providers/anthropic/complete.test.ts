import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ProviderConfigurationError } from '../../../../lib/core/errors/provider-configuration-error.js';
import Anthropic from '@anthropic-ai/sdk';
import { AnthropicProvider, DEFAULT_ANTHROPIC_TIMEOUT_MS } from '../../../../lib/providers/anthropic/index.js';
import { defaultModelFor } from '../../../../lib/providers/models/defaults.js';
import { priceUsage } from '../../../../lib/providers/models/pricing.js';
import { fixture, recordedResponses, startReplayServer, type ReplayServer } from '../../../support/replay-server.js';
import { captureConsoleWarnings, SDK_MODEL_DEPRECATION } from '../../../support/capture-warnings.js';
import { ask, providerFor } from './helpers.js';

const DIR = 'anthropic/';

describe('AnthropicProvider.complete on recorded traffic', () => {
  let server: ReplayServer;
  before(async () => (server = await startReplayServer()));
  after(async () => server.close());

  test('text reply (langchaingo recording): message, usage, finish, model, request shape', async () => {
    server.enqueue(...recordedResponses(`${DIR}messages.text.nonstream.langchaingo.interactions.json`));
    const response = await providerFor(server).complete(ask('Hello, how are you?', { model: 'claude-3-opus-20240229', maxTokens: 100, temperature: 0, system: 'Be nice.' }));
    assert.deepEqual(response.message, {
      role: 'assistant',
      content: "Hello! As an AI language model, I don't have feelings, but I'm functioning properly and ready to assist you. How can I help you today?",
    });
    assert.deepEqual(response.usage, { promptTokens: 13, completionTokens: 35, totalTokens: 48, cachedPromptTokens: 0 });
    assert.equal(response.finishReason, 'stop');
    assert.equal(response.model, 'claude-3-opus-20240229');
    assert.equal(response.reasoning, undefined);
    const sent = server.requests.at(-1)!;
    assert.equal(sent.path, '/v1/messages');
    assert.match(String(sent.headers['x-api-key'] ?? sent.headers['authorization']), /test-key/);
    assert.deepEqual(sent.json, {
      model: 'claude-3-opus-20240229',
      max_tokens: 100,
      temperature: 0,
      system: 'Be nice.',
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Hello, how are you?' }] }],
      stream: false,
    });
  });

  test('text reply (vercel recording) with the request id header', async () => {
    server.enqueue({ status: 200, headers: { 'content-type': 'application/json', 'request-id': 'req_abc' }, body: fixture(`${DIR}messages.text.nonstream.vercel.json`) });
    const response = await providerFor(server).complete(ask('Hi'));
    assert.equal(response.message.content, "Hello! I'm doing well, thanks for asking. How are you doing today? Is there anything I can help you with?");
    assert.equal(response.message.toolCalls, undefined);
    assert.deepEqual(response.usage, { promptTokens: 12, completionTokens: 29, totalTokens: 41, cachedPromptTokens: 0 });
    assert.equal(response.model, 'claude-sonnet-4-5-20250929');
    assert.equal(response.requestId, 'req_abc');
    assert.equal((server.requests.at(-1)!.json as { max_tokens: number }).max_tokens, 4096, 'default max_tokens');
  });

  test('parallel tool_use reply: text plus two ToolCalls, finish tool-calls', async () => {
    server.enqueue(recordedResponses(`${DIR}messages.parallel_tool_use.roundtrip.nonstream.mirascope.interactions.json`)[0]!);
    const response = await providerFor(server).complete(ask('Please retrieve the secrets'));
    assert.equal(response.message.content, "I'll retrieve the secrets for both passwords you provided.");
    assert.deepEqual(response.message.toolCalls, [
      { id: 'toolu_01BUvqBj8Yb34pNAbCJJY1oc', toolName: 'secret_retrieval_tool', parameters: { password: 'mellon' } },
      { id: 'toolu_01VPuQJ1LonDBYXrr8pqPkqQ', toolName: 'secret_retrieval_tool', parameters: { password: 'radiance' } },
    ]);
    assert.equal(response.finishReason, 'tool-calls');
    assert.deepEqual(response.usage, { promptTokens: 416, completionTokens: 109, totalTokens: 525, cachedPromptTokens: 0 });
  });

  test('thinking blocks become reasoning; cache reads become cachedPromptTokens; stop reasons map', async () => {
    const reply = (stop_reason: string) => ({
      id: 'msg_1', type: 'message', role: 'assistant', model: 'claude-sonnet-4-5',
      content: [{ type: 'thinking', thinking: 'Let me think.', signature: 'sig' }, { type: 'text', text: 'Answer' }],
      stop_reason, stop_sequence: null,
      usage: { input_tokens: 10, output_tokens: 5, cache_read_input_tokens: 90, cache_creation_input_tokens: 0 },
    });
    server.enqueue(
      { status: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify(reply('end_turn')) },
      { status: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify(reply('max_tokens')) },
      { status: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify(reply('refusal')) },
    );
    const provider = providerFor(server);
    const first = await provider.complete(ask('q'));
    assert.equal(first.message.content, 'Answer');
    assert.equal(first.reasoning, 'Let me think.');
    assert.deepEqual(first.usage, { promptTokens: 100, completionTokens: 5, totalTokens: 105, cachedPromptTokens: 90 });
    assert.equal(first.finishReason, 'stop');
    assert.equal((await provider.complete(ask('q'))).finishReason, 'length');
    assert.equal((await provider.complete(ask('q'))).finishReason, 'refusal');
  });

  describe('a large max_tokens (the SDK refuses a non-streamed call it expects to exceed 10 minutes when given no timeout)', () => {
    // claude-sonnet-4-5 is a model the SDK now calls deprecated: its notice on every call is expected.
    let deprecations: ReturnType<typeof captureConsoleWarnings> | undefined;
    before(() => (deprecations = captureConsoleWarnings(SDK_MODEL_DEPRECATION)));
    after(() => deprecations?.restore());
    const ok = () => ({ status: 200, headers: { 'content-type': 'application/json' }, body: fixture(`${DIR}messages.text.nonstream.vercel.json`) });
    const ANSWER = "Hello! I'm doing well, thanks for asking. How are you doing today? Is there anything I can help you with?";
    const sent = () => server.requests.at(-1)!.json as { max_tokens: number; stream: boolean };

    test('default options: complete() with max_tokens 64000 is sent (not streamed) and answers', async () => {
      server.enqueue(ok());
      const before = server.requests.length;
      const response = await providerFor(server).complete(ask('Hi', { model: 'claude-sonnet-4-5', maxTokens: 64_000 }));
      assert.equal(response.message.content, ANSWER);
      assert.equal(server.requests.length - before, 1);
      assert.equal(sent().max_tokens, 64_000);
      assert.equal(sent().stream, false);
    });

    test('thinking raises max_tokens past 21,333 (budget 20000 + 4096): complete() still answers', async () => {
      server.enqueue(ok());
      const provider = new AnthropicProvider({ apiKey: 'test-key', baseURL: server.url, thinking: { budgetTokens: 20_000 } });
      const response = await provider.complete(ask('Hi', { model: 'claude-sonnet-4-5', maxTokens: 4096 }));
      assert.equal(response.message.content, ANSWER);
      assert.equal(sent().max_tokens, 24_096);
    });

    test('also with timeoutMs 0 (no timeout) and with a ready client built without a timeout', async () => {
      server.enqueue(ok(), ok());
      const noTimeout = new AnthropicProvider({ apiKey: 'test-key', baseURL: server.url, timeoutMs: 0 });
      assert.equal((await noTimeout.complete(ask('Hi', { maxTokens: 32_000 }))).message.content, ANSWER);
      const client = new Anthropic({ apiKey: 'test-key', baseURL: server.url, maxRetries: 0 });
      const withClient = new AnthropicProvider({ client });
      assert.equal(withClient.timeoutMs, DEFAULT_ANTHROPIC_TIMEOUT_MS);
      assert.equal((await withClient.complete(ask('Hi', { maxTokens: 64_000 }))).message.content, ANSWER);
    });
  });

  test('cache writes (1.25x input) are priced by the adapter; cache reads are left to the registry price (0.1x)', async () => {
    const reply = (usage: Record<string, number>) => ({
      id: 'msg_c', type: 'message', role: 'assistant', model: 'claude-sonnet-4-5-20250929',
      content: [{ type: 'text', text: 'cached' }], stop_reason: 'end_turn', stop_sequence: null, usage,
    });
    server.enqueue(
      { status: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify(reply({ input_tokens: 100, output_tokens: 50, cache_read_input_tokens: 800, cache_creation_input_tokens: 100 })) },
      { status: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify(reply({ input_tokens: 100, output_tokens: 50, cache_read_input_tokens: 800, cache_creation_input_tokens: 0 })) },
    );
    const provider = providerFor(server);
    const written = await provider.complete(ask('q'));
    assert.equal(written.usage?.promptTokens, 1000);
    assert.equal(written.usage?.cachedPromptTokens, 800);
    // $3 input: 100 uncached at $3, 800 reads at $0.30, 100 writes at $3.75, 50 output at $15.
    assert.ok(Math.abs(written.usage.costUsd! - (100 * 3 + 800 * 0.3 + 100 * 3.75 + 50 * 15) / 1e6) < 1e-12, String(written.usage?.costUsd));
    const readOnly = await provider.complete(ask('q'));
    assert.deepEqual(readOnly.usage, { promptTokens: 900, completionTokens: 50, totalTokens: 950, cachedPromptTokens: 800 }, 'no writes: the agent prices it');
    assert.ok(Math.abs(priceUsage('claude-sonnet-4-5-20250929', readOnly.usage) - (100 * 3 + 800 * 0.3 + 50 * 15) / 1e6) < 1e-12);
  });

  test('defaults: name, own default model, no embeddings, missing key names ANTHROPIC_API_KEY', () => {
    const saved = process.env['ANTHROPIC_API_KEY'];
    delete process.env['ANTHROPIC_API_KEY'];
    try {
      assert.throws(() => new AnthropicProvider(), (error: unknown) => ProviderConfigurationError.isInstance(error) && /ANTHROPIC_API_KEY/.test(error.message));
    } finally {
      if (saved !== undefined) process.env['ANTHROPIC_API_KEY'] = saved;
    }
    const provider = providerFor(server);
    assert.equal(provider.name, 'anthropic');
    assert.equal(provider.defaultModel, defaultModelFor('anthropic'));
    assert.equal(provider.capabilities.embeddings, false);
    assert.equal((provider as { embed?: unknown }).embed, undefined);
  });
});
