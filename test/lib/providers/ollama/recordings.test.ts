import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ProviderError } from '../../../../lib/core/errors/provider-error.js';
import { userMessage } from '../../../../lib/core/message.js';
import { OllamaProvider } from '../../../../lib/providers/ollama/index.js';
import type { ProviderRequest, StreamPart } from '../../../../lib/providers/spec.js';
import { fixture, jsonResponse, recordedRequests, recordedResponses, startReplayServer, type ReplayResponse, type ReplayServer } from '../../../support/replay-server.js';

const NDJSON = { 'content-type': 'application/x-ndjson' };
const JSON_UTF8 = { 'content-type': 'application/json; charset=utf-8' };

/** An NDJSON body sent line by line (as Ollama flushes it). */
function ndjson(path: string): ReplayResponse {
  const lines = fixture(path).toString('utf8').split(/(?<=\n)/);
  return { status: 200, headers: NDJSON, chunks: lines };
}

function jsonFixture(path: string, status = 200): ReplayResponse {
  return { status, headers: JSON_UTF8, body: fixture(path) };
}

async function collect(stream: AsyncIterable<StreamPart>): Promise<StreamPart[]> {
  const parts: StreamPart[] = [];
  for await (const part of stream) parts.push(part);
  return parts;
}

const weatherSpec = {
  name: 'get_weather',
  description: 'Get the weather for a city',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
} as const;

describe('Ollama adapter on recorded traffic', () => {
  let server: ReplayServer;
  let provider: OllamaProvider;
  before(async () => {
    server = await startReplayServer();
    provider = new OllamaProvider({ host: server.url, timeoutMs: 5_000 });
  });
  after(() => server.close());

  const ask = (content: string, extra: Partial<ProviderRequest> = {}): ProviderRequest => ({ model: 'llama3.2', messages: [userMessage(content)], ...extra });

  test('non-streamed text (docs example without done_reason)', async () => {
    server.enqueue(jsonFixture('ollama/api-chat.text.nonstream.docs.json'));
    const response = await provider.complete(ask('Why is the sky blue?', { system: 'Be brief.', temperature: 0.2, maxTokens: 64 }));
    assert.deepEqual(response.message, { role: 'assistant', content: 'Hello! How are you today?' });
    assert.deepEqual(response.usage, { promptTokens: 26, completionTokens: 298, totalTokens: 324, costUsd: 0 });
    assert.equal(response.finishReason, 'stop');
    assert.equal(response.model, 'llama3.2');
    assert.equal(response.reasoning, undefined);
    const sent = server.requests.at(-1)!;
    assert.equal(sent.path, '/api/chat');
    assert.deepEqual(sent.json, {
      model: 'llama3.2',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Why is the sky blue?' },
      ],
      options: { temperature: 0.2, num_predict: 64 },
      stream: false,
    });
  });

  test('streamed text: deltas in order, usage and finish from the done line; the request matches the recording', async () => {
    server.enqueue(...recordedResponses('ollama/api-chat.text.stream.interactions.json'));
    const parts = await collect(provider.stream({ model: 'gemma3:1b', messages: [userMessage('Count from 1 to 5')], maxTokens: 50, temperature: 0 }));
    const text = parts.flatMap((p) => (p.type === 'text-delta' ? [p.text] : [])).join('');
    assert.equal(text, 'Okay, here we go!\n\n1, 2, 3, 4, 5\n');
    assert.equal(parts.filter((p) => p.type === 'text-delta').length, 21, 'the empty content of the done line is not a delta');
    assert.deepEqual(parts.slice(-2), [
      { type: 'usage', usage: { promptTokens: 16, completionTokens: 22, totalTokens: 38, costUsd: 0 } },
      { type: 'finish', finishReason: 'stop', model: 'gemma3:1b' },
    ]);
    const recorded = recordedRequests('ollama/api-chat.text.stream.interactions.json')[0]!.body as Record<string, unknown>;
    const sent = server.requests.at(-1)!.json as Record<string, unknown>;
    assert.deepEqual(sent.messages, recorded.messages);
    assert.deepEqual(sent.options, recorded.options);
    assert.equal(sent.stream, true);
    assert.equal(sent.model, recorded.model);
  });

  test('streamed text ending with done_reason length', async () => {
    server.enqueue(ndjson('ollama/api-chat.text.stream.done_reason_length.ndjson'));
    const parts = await collect(provider.stream({ model: 'gemma3:1b', messages: [userMessage('Hello, how are you?')], maxTokens: 50, temperature: 0 }));
    const text = parts.flatMap((p) => (p.type === 'text-delta' ? [p.text] : [])).join('');
    assert.ok(text.startsWith('Hello there!'));
    assert.deepEqual(parts.slice(-2), [
      { type: 'usage', usage: { promptTokens: 15, completionTokens: 50, totalTokens: 65, costUsd: 0 } },
      { type: 'finish', finishReason: 'length', model: 'gemma3:1b' },
    ]);
  });

  test('non-streamed tool call: generated id, object arguments, finish tool-calls; tools sent as function schemas', async () => {
    server.enqueue(jsonFixture('ollama/api-chat.tool_calls.nonstream.docs.json'));
    const response = await provider.complete(ask('What is the weather in Tokyo?', { tools: [weatherSpec] }));
    assert.equal(response.message.role, 'assistant');
    assert.equal(response.message.content, '');
    const [call, ...rest] = response.message.toolCalls ?? [];
    assert.equal(rest.length, 0);
    assert.equal(call!.toolName, 'get_weather');
    assert.deepEqual(call!.parameters, { city: 'Tokyo' });
    assert.match(call!.id, /^call_[0-9a-f]{24}$/);
    assert.equal(call!.argumentsError, undefined);
    assert.equal(response.finishReason, 'tool-calls');
    assert.deepEqual(response.usage, { promptTokens: 169, completionTokens: 18, totalTokens: 187, costUsd: 0 });
    const sent = server.requests.at(-1)!.json as Record<string, unknown>;
    assert.deepEqual(sent.tools, [{ type: 'function', function: weatherSpec }]);
  });

  test('streamed tool call: one whole tool-call part, then usage and finish tool-calls', async () => {
    server.enqueue(ndjson('ollama/api-chat.tool_calls.stream.docs.ndjson'));
    const parts = await collect(provider.stream(ask('What is the weather in Tokyo?', { tools: [weatherSpec] })));
    assert.deepEqual(parts.map((p) => p.type), ['tool-call', 'usage', 'finish']);
    const call = (parts[0] as Extract<StreamPart, { type: 'tool-call' }>).toolCall;
    assert.equal(call.toolName, 'get_weather');
    assert.deepEqual(call.parameters, { city: 'Tokyo' });
    assert.match(call.id, /^call_/);
    assert.deepEqual(parts[1], { type: 'usage', usage: { promptTokens: 169, completionTokens: 15, totalTokens: 184, costUsd: 0 } });
    assert.deepEqual(parts[2], { type: 'finish', finishReason: 'tool-calls', model: 'llama3.2' });
  });

  test('embed a single text (raw capture): vector, usage from prompt_eval_count, zero cost', async () => {
    server.enqueue(...recordedResponses('ollama/api-embed.interactions.json'));
    const result = await provider.embed({ model: 'nomic-embed-text', texts: ['Hello world'] });
    assert.equal(result.model, 'nomic-embed-text');
    assert.equal(result.embeddings.length, 1);
    assert.equal(result.embeddings[0]!.length, 768);
    assert.equal(result.embeddings[0]![0], -0.006746773);
    assert.equal(result.embeddings[0]!.at(-1), -0.004468476);
    assert.deepEqual(result.usage, { tokens: 2, costUsd: 0 });
    const sent = server.requests.at(-1)!;
    assert.equal(sent.path, '/api/embed');
    assert.deepEqual(sent.json, { model: 'nomic-embed-text', input: ['Hello world'] });
  });

  test('embed several texts in one request (docs example without counters → 0 tokens)', async () => {
    server.enqueue(jsonFixture('ollama/api-embed.multiple_input.docs.json'));
    const result = await provider.embed({ model: 'all-minilm', texts: ['Why is the sky blue?', 'Why is the grass green?'] });
    assert.equal(result.model, 'all-minilm');
    assert.equal(result.embeddings.length, 2);
    assert.deepEqual(result.embeddings.map((v) => v.length), [10, 10]);
    assert.equal(result.embeddings[0]![0], 0.010071029);
    assert.equal(result.embeddings[1]![9], 0.09072481);
    assert.deepEqual(result.usage, { tokens: 0, costUsd: 0 });
    assert.deepEqual((server.requests.at(-1)!.json as { input: unknown }).input, ['Why is the sky blue?', 'Why is the grass green?']);
  });

  test('404 model not found: typed, not retryable, names the model, sent once', async () => {
    const before = server.requests.length;
    server.enqueue(jsonFixture('ollama/error.404.model_not_found.json', 404));
    await assert.rejects(provider.complete(ask('hi', { model: 'nope' })), (error: unknown) => {
      assert.ok(ProviderError.isInstance(error));
      assert.equal(error.provider, 'ollama');
      assert.equal(error.status, 404);
      assert.equal(error.kind, 'not_found');
      assert.equal(error.retryable, false);
      assert.equal(error.model, 'nope');
      assert.match(error.message, /model 'nope' not found/);
      return true;
    });
    assert.equal(server.requests.length - before, 1);
  });

  test('404 on a streamed call is thrown before any part', async () => {
    server.enqueue(jsonFixture('ollama/error.404.model_not_found.json', 404));
    const parts: StreamPart[] = [];
    await assert.rejects(
      (async () => {
        for await (const part of provider.stream(ask('hi', { model: 'nope' }))) parts.push(part);
      })(),
      (error: unknown) => ProviderError.isInstance(error) && error.status === 404 && error.retryable === false,
    );
    assert.deepEqual(parts, []);
  });

  test('mid-stream {"error"} line: typed ProviderError after the text before it, never text', async () => {
    // The docs example is /api/generate; /api/chat ends the same way. Re-shaped as chat chunks.
    const lines = fixture('ollama/api-generate.error.midstream.docs.ndjson').toString('utf8').trim().split('\n');
    const chat = lines.map((line) => {
      const obj = JSON.parse(line) as Record<string, unknown>;
      if ('error' in obj) return line;
      const { response, ...rest } = obj;
      return JSON.stringify({ ...rest, message: { role: 'assistant', content: response } });
    });
    server.enqueue({ status: 200, headers: NDJSON, chunks: chat.map((l) => `${l}\n`) });
    const texts: string[] = [];
    await assert.rejects(
      (async () => {
        for await (const part of provider.stream(ask('hi', { model: 'gemma4' }))) if (part.type === 'text-delta') texts.push(part.text);
      })(),
      (error: unknown) => {
        assert.ok(ProviderError.isInstance(error));
        assert.equal(error.kind, 'stream');
        assert.match(error.message, /an error was encountered while running the model/);
        return true;
      },
    );
    assert.deepEqual(texts, [' Yes', '.', 'I', 'can']);
    assert.ok(!texts.join('').includes('error'));
  });

  test('a JSON error status on embed is typed', async () => {
    server.enqueue(jsonResponse({ error: "model 'nope' not found" }, 404));
    await assert.rejects(provider.embed({ model: 'nope', texts: ['x'] }), (e: unknown) => ProviderError.isInstance(e) && e.status === 404 && e.model === 'nope');
  });
});
