import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { assistantMessage, toolMessage, userMessage } from '../../../../lib/core/message.js';
import { defaultModelFor } from '../../../../lib/providers/models/defaults.js';
import { DEFAULT_OLLAMA_HOST, normalizeOllamaHost, OllamaProvider, toChatRequest, toFinishReason, toToolCall } from '../../../../lib/providers/ollama/index.js';
import type { ProviderRequest, StreamPart } from '../../../../lib/providers/spec.js';
import { jsonResponse, startReplayServer, type ReplayServer } from '../../../support/replay-server.js';

const schema = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] };

describe('Ollama request conversion', () => {
  test('messages: system prompt, images as base64, assistant tool calls, tool results with tool_name', () => {
    const request: ProviderRequest = {
      model: 'llava',
      system: 'You are terse.',
      messages: [
        userMessage('What is in this picture?', [{ data: 'iVBORw0KGgo=', mediaType: 'image/png' }]),
        assistantMessage('', [{ id: 'call_1', toolName: 'get_weather', parameters: { city: 'Oslo' } }]),
        toolMessage({ id: 'call_1', toolName: 'get_weather' }, '{"temp":3}'),
      ],
      tools: [{ name: 'get_weather', description: 'Weather', parameters: schema }],
      responseFormat: { type: 'json_schema', name: 'answer', schema },
      temperature: 0,
      maxTokens: 10,
    };
    assert.deepEqual(toChatRequest(request, { model: 'llava', keepAlive: '5m' }), {
      model: 'llava',
      messages: [
        { role: 'system', content: 'You are terse.' },
        { role: 'user', content: 'What is in this picture?', images: ['iVBORw0KGgo='] },
        { role: 'assistant', content: '', tool_calls: [{ function: { name: 'get_weather', arguments: { city: 'Oslo' } } }] },
        { role: 'tool', content: '{"temp":3}', tool_name: 'get_weather' },
      ],
      tools: [{ type: 'function', function: { name: 'get_weather', description: 'Weather', parameters: schema } }],
      format: schema,
      options: { temperature: 0, num_predict: 10 },
      keep_alive: '5m',
    });
  });

  test('toolChoice none drops the tools; a forced tool sends only that tool', () => {
    const tools = [
      { name: 'a', description: 'A', parameters: schema },
      { name: 'b', description: 'B', parameters: schema },
    ];
    const base: ProviderRequest = { model: 'm', messages: [userMessage('x')], tools };
    assert.equal(toChatRequest({ ...base, toolChoice: 'none' }, { model: 'm' }).tools, undefined);
    assert.deepEqual(toChatRequest({ ...base, toolChoice: { type: 'tool', toolName: 'b' } }, { model: 'm' }).tools?.map((t) => t.function.name), ['b']);
    assert.deepEqual(toChatRequest({ ...base, toolChoice: 'required' }, { model: 'm' }).tools?.map((t) => t.function.name), ['a', 'b']);
  });
});

describe('Ollama response conversion', () => {
  test('tool calls: server ids kept, object or JSON-object-string arguments accepted, anything else is an argumentsError', () => {
    assert.deepEqual(toToolCall({ id: 'call_abc', function: { index: 0, name: 'f', arguments: { x: 1 } } }), { id: 'call_abc', toolName: 'f', parameters: { x: 1 } });
    const fromString = toToolCall({ function: { name: 'f', arguments: '{"x":2}' } });
    assert.deepEqual(fromString.parameters, { x: 2 });
    assert.equal(fromString.argumentsError, undefined);
    const bad = toToolCall({ function: { name: 'f', arguments: '{"x": 2' } });
    assert.deepEqual(bad.parameters, {});
    assert.match(bad.argumentsError!, /not a JSON object: "\{\\"x\\": 2"/);
    assert.match(toToolCall({ function: { name: 'f', arguments: '[1,2]' } }).argumentsError!, /\[1,2\]/);
    assert.match(toToolCall({ function: { name: 'f', arguments: 42 } }).argumentsError!, /42/);
    assert.deepEqual(toToolCall({ function: { name: 'f' } }).parameters, {});
    const ids = new Set(Array.from({ length: 20 }, () => toToolCall({ function: { name: 'f', arguments: {} } }).id));
    assert.equal(ids.size, 20, 'generated ids are unique');
  });

  test('done_reason mapping', () => {
    assert.equal(toFinishReason('stop', false), 'stop');
    assert.equal(toFinishReason(undefined, false), 'stop');
    assert.equal(toFinishReason('stop', true), 'tool-calls');
    assert.equal(toFinishReason('length', false), 'length');
    assert.equal(toFinishReason('length', true), 'length');
    assert.equal(toFinishReason('unload', false), 'other');
  });
});

describe('OllamaProvider configuration and reasoning', () => {
  let server: ReplayServer;
  before(async () => {
    server = await startReplayServer();
  });
  after(() => server.close());

  test('defaults: its own model, OLLAMA_HOST or the local default host, capabilities', () => {
    const saved = process.env.OLLAMA_HOST;
    try {
      delete process.env.OLLAMA_HOST;
      const local = new OllamaProvider();
      assert.equal(local.name, 'ollama');
      assert.equal(local.defaultModel, defaultModelFor('ollama'));
      assert.equal(local.host, DEFAULT_OLLAMA_HOST);
      assert.deepEqual(local.capabilities, { tools: true, streaming: true, structuredOutput: true, vision: true, embeddings: true });
      process.env.OLLAMA_HOST = 'gpu-box:11434';
      assert.equal(new OllamaProvider().host, 'http://gpu-box:11434');
      assert.equal(new OllamaProvider({ host: 'http://other:1/' }).host, 'http://other:1');
    } finally {
      if (saved === undefined) delete process.env.OLLAMA_HOST;
      else process.env.OLLAMA_HOST = saved;
    }
    assert.equal(normalizeOllamaHost(':8080'), 'http://127.0.0.1:8080');
  });

  test('thinking becomes reasoning (complete) and reasoning-delta parts (stream), kept out of the text', async () => {
    const provider = new OllamaProvider({ host: server.url });
    server.enqueue(jsonResponse({ model: 'qwen3', message: { role: 'assistant', content: '4', thinking: '2+2 is 4' }, done: true, done_reason: 'stop' }));
    const response = await provider.complete({ model: '', messages: [userMessage('2+2?')] });
    assert.equal(response.message.content, '4');
    assert.equal(response.reasoning, '2+2 is 4');
    assert.deepEqual(response.usage, { promptTokens: 0, completionTokens: 0, totalTokens: 0, costUsd: 0 }, 'missing counters are 0');
    assert.equal((server.requests.at(-1)!.json as { model: string }).model, defaultModelFor('ollama'), 'an empty model means the default');

    server.enqueue({
      status: 200,
      headers: { 'content-type': 'application/x-ndjson' },
      chunks: [
        '{"model":"qwen3","message":{"role":"assistant","content":"","thinking":"2+2"},"done":false}\n',
        '{"model":"qwen3","message":{"role":"assistant","content":"4"},"done":false}\n',
        '{"model":"qwen3","message":{"role":"assistant","content":""},"done":true,"done_reason":"stop","prompt_eval_count":5,"eval_count":2}\n',
      ],
    });
    const parts: StreamPart[] = [];
    for await (const part of provider.stream({ model: 'qwen3', messages: [userMessage('2+2?')] })) parts.push(part);
    assert.deepEqual(parts, [
      { type: 'reasoning-delta', text: '2+2' },
      { type: 'text-delta', text: '4' },
      { type: 'usage', usage: { promptTokens: 5, completionTokens: 2, totalTokens: 7, costUsd: 0 } },
      { type: 'finish', finishReason: 'stop', model: 'qwen3' },
    ]);
  });

  test('embed batches texts and sums usage; an empty input makes no request', async () => {
    const provider = new OllamaProvider({ host: server.url });
    const start = server.requests.length;
    assert.deepEqual(await provider.embed({ texts: [] }), { embeddings: [], usage: { tokens: 0, costUsd: 0 }, model: 'nomic-embed-text' });
    assert.equal(server.requests.length, start);
    const texts = Array.from({ length: 2049 }, (_, i) => `t${i}`);
    server.enqueue(
      jsonResponse({ model: 'nomic-embed-text', embeddings: texts.slice(0, 2048).map((_, i) => [i]), prompt_eval_count: 4096 }),
      jsonResponse({ model: 'nomic-embed-text', embeddings: [[2048]], prompt_eval_count: 2 }),
    );
    const result = await provider.embed({ texts, dimensions: 1 });
    assert.equal(result.embeddings.length, 2049);
    assert.deepEqual(result.embeddings.at(-1), [2048]);
    assert.deepEqual(result.usage, { tokens: 4098, costUsd: 0 });
    const sent = server.requests.slice(start).map((r) => r.json as { input: string[]; dimensions: number; model: string });
    assert.deepEqual(sent.map((r) => r.input.length), [2048, 1]);
    assert.equal(sent[0]!.dimensions, 1);
    assert.equal(sent[0]!.model, 'nomic-embed-text');
  });

  test('an embed reply with the wrong number of vectors is a typed error', async () => {
    const provider = new OllamaProvider({ host: server.url });
    server.enqueue(jsonResponse({ model: 'nomic-embed-text', embeddings: [[1]] }));
    await assert.rejects(provider.embed({ texts: ['a', 'b'] }), /1 embeddings for 2 texts/);
  });
});
