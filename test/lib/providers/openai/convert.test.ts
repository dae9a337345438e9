import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ProviderConfigurationError } from '../../../../lib/core/errors/provider-configuration-error.js';
import { defaultModelFor } from '../../../../lib/providers/models/defaults.js';
import { z } from 'zod';
import { Agent } from '../../../../lib/agent/agent.js';
import { prepareResponseFormat } from '../../../../lib/agent/structured-output.js';
import { OpenAIProvider, decodeEmbedding, isReasoningModel, isStrictCompatibleSchema, toChatParams, toStrictSchema, toToolCall } from '../../../../lib/providers/openai/index.js';
import { testRuntime } from '../../../support/agent-harness.js';
import type { ProviderRequest } from '../../../../lib/providers/spec.js';
import { fixture, jsonResponse, startReplayServer, type ReplayServer } from '../../../support/replay-server.js';
import { bodyOf, providerFor } from './helpers.js';

const base: ProviderRequest = { model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }], temperature: 0, maxTokens: 1000 };

describe('OpenAI request conversion', () => {
  test('system prompt first, tools as functions, tool choice, max_tokens and temperature for chat models', () => {
    const params = toChatParams(
      {
        ...base,
        system: 'Be brief.',
        tools: [{ name: 'get_weather', description: 'Weather', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } }],
        toolChoice: { type: 'tool', toolName: 'get_weather' },
      },
      'gpt-4o',
    );
    assert.deepEqual(params.messages.slice(0, 2), [
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'hi' },
    ]);
    assert.deepEqual(params.tools, [
      { type: 'function', function: { name: 'get_weather', description: 'Weather', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } } },
    ]);
    assert.deepEqual(params.tool_choice, { type: 'function', function: { name: 'get_weather' } });
    assert.equal(params.max_tokens, 1000);
    assert.equal(params.max_completion_tokens, undefined);
    assert.equal(params.temperature, 0);
    assert.equal(toChatParams({ ...base, toolChoice: 'required', tools: [{ name: 't', description: 'd', parameters: { type: 'object' } }] }, 'gpt-4o').tool_choice, 'required');
  });

  test('o-series and gpt-5 models: max_completion_tokens and no temperature', () => {
    for (const model of ['o3-mini', 'o1', 'o4-mini', 'gpt-5', 'gpt-5.4-mini', 'openai/gpt-5-nano']) {
      assert.equal(isReasoningModel(model), true, model);
      const params = toChatParams(base, model);
      assert.equal(params.max_completion_tokens, 1000);
      assert.equal(params.max_tokens, undefined);
      assert.equal(params.temperature, undefined);
    }
    for (const model of ['gpt-4o-mini', 'gpt-4.1', 'llama-3.1-8b-instant', 'omni-moderation']) assert.equal(isReasoningModel(model), false, model);
  });

  test('images as data URLs, tool calls echoed, TOOL messages with tool_call_id, structured output', () => {
    const params = toChatParams(
      {
        ...base,
        messages: [
          { role: 'user', content: 'What is this?', images: [{ data: 'iVBORw0KGgo=', mediaType: 'image/png' }] },
          { role: 'assistant', content: '', toolCalls: [{ id: 'call_1', toolName: 'lookup', parameters: { q: 'x' } }] },
          { role: 'tool', content: '{"ok":true}', toolCallId: 'call_1', toolName: 'lookup' },
          { role: 'assistant', content: 'Done.' },
        ],
        responseFormat: { type: 'json_schema', name: 'answer', schema: { type: 'object', properties: { a: { type: 'string' } } }, description: 'The answer' },
      },
      'gpt-4o',
    );
    assert.deepEqual(params.messages, [
      {
        role: 'user',
        content: [
          { type: 'text', text: 'What is this?' },
          { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } },
        ],
      },
      { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'lookup', arguments: '{"q":"x"}' } }] },
      { role: 'tool', tool_call_id: 'call_1', content: '{"ok":true}' },
      { role: 'assistant', content: 'Done.' },
    ]);
    assert.deepEqual(params.response_format, {
      type: 'json_schema',
      json_schema: { name: 'answer', schema: { type: 'object', properties: { a: { type: 'string' } } }, description: 'The answer' },
    });
  });

  test('tool-call arguments: empty → {}, non-object JSON → argumentsError', () => {
    assert.deepEqual(toToolCall('c', 'noargs', ''), { id: 'c', toolName: 'noargs', parameters: {} });
    const array = toToolCall('c', 'bad', '[1,2]');
    assert.match(array.argumentsError!, /not a JSON object/);
    assert.deepEqual(array.parameters, {});
  });

  test('base64 embeddings decode as little-endian float32', () => {
    const values = [0.5, -1.25, 3];
    assert.deepEqual(decodeEmbedding(Buffer.from(new Float32Array(values).buffer).toString('base64')), values);
    assert.deepEqual(decodeEmbedding([1, 2]), [1, 2]);
  });
});

describe('OpenAIProvider configuration', () => {
  let server: ReplayServer;
  const saved = { key: process.env.OPENAI_API_KEY, url: process.env.OPENAI_BASE_URL };
  before(async () => {
    server = await startReplayServer();
    delete process.env.OPENAI_API_KEY;
    delete process.env.OPENAI_BASE_URL;
  });
  after(async () => {
    if (saved.key !== undefined) process.env.OPENAI_API_KEY = saved.key;
    if (saved.url !== undefined) process.env.OPENAI_BASE_URL = saved.url;
    await server.close();
  });

  test('a missing key is a ProviderConfigurationError naming OPENAI_API_KEY', () => {
    assert.throws(
      () => new OpenAIProvider(),
      (e: unknown) => ProviderConfigurationError.isInstance(e) && e.provider === 'openai' && /OPENAI_API_KEY/.test(e.message),
    );
  });

  test('name, own default model, capabilities; the key and base URL come from the environment', async () => {
    process.env.OPENAI_API_KEY = 'sk-env';
    process.env.OPENAI_BASE_URL = `${server.url}/v1`;
    try {
      const provider = new OpenAIProvider();
      assert.equal(provider.name, 'openai');
      assert.equal(provider.defaultModel, defaultModelFor('openai'));
      assert.deepEqual(provider.capabilities, { tools: true, streaming: true, structuredOutput: true, vision: true, embeddings: true });
      server.enqueue(jsonResponse(fixture('openai/chat.finish_length.nonstream.json').toString('utf8')));
      await provider.complete({ model: '', messages: [{ role: 'user', content: 'x' }] });
      const sent = server.requests.at(-1)!;
      assert.equal(sent.headers.authorization, 'Bearer sk-env');
      assert.equal(bodyOf(sent).model, defaultModelFor('openai'));
    } finally {
      delete process.env.OPENAI_API_KEY;
      delete process.env.OPENAI_BASE_URL;
    }
  });

  test('a key-less baseURL (local OpenAI-compatible server) works and sends no Authorization header', async () => {
    const provider = new OpenAIProvider({ baseURL: `${server.url}/v1`, model: 'llama-3.1-8b', organization: 'org-1' });
    assert.equal(provider.defaultModel, 'llama-3.1-8b');
    server.enqueue(jsonResponse(fixture('openai/chat.finish_length.nonstream.json').toString('utf8')));
    const reply = await provider.complete({ model: 'llama-3.1-8b', messages: [{ role: 'user', content: 'x' }] });
    assert.equal(reply.message.content, '{"');
    const sent = server.requests.at(-1)!;
    assert.equal(sent.headers.authorization, undefined);
    assert.equal(sent.headers['openai-organization'], 'org-1');
  });

  test('an explicit client is used as it is', async () => {
    const first = providerFor(server);
    const provider = new OpenAIProvider({ client: first.client });
    assert.equal(provider.client, first.client);
  });
});

describe('structured output: strict json_schema', () => {
  let server: ReplayServer;
  before(async () => (server = await startReplayServer()));
  after(async () => server.close());

  test('the agent\'s schema of a zod object with only required fields is sent strict, closed on every object', () => {
    const schema = prepareResponseFormat(z.object({ title: z.string(), tags: z.array(z.object({ name: z.string(), score: z.number().nullable() })) })).spec.schema;
    const params = toChatParams({ ...base, responseFormat: { type: 'json_schema', name: 'structured_output', schema } }, 'gpt-4o');
    const sent = params.response_format as { type: string; json_schema: { strict?: boolean; schema: { additionalProperties?: boolean; properties: { tags: { items: { additionalProperties?: boolean } } } } } };
    assert.equal(sent.json_schema.strict, true);
    assert.equal(sent.json_schema.schema.additionalProperties, false);
    assert.equal(sent.json_schema.schema.properties.tags.items.additionalProperties, false);
    assert.equal((schema as { additionalProperties?: unknown }).additionalProperties, undefined, 'the agent\'s schema itself is not changed');
  });

  test('schemas strict mode would reject or change are sent as they are, without strict', () => {
    const notStrict = [
      prepareResponseFormat(z.object({ a: z.string().optional() })).spec.schema,
      { type: 'object', properties: { a: { type: 'string' } } },
      { type: 'object', properties: { a: { type: 'object' } }, required: ['a'] },
      { type: 'object', properties: { a: { type: 'string' } }, required: ['a'], additionalProperties: true },
      { type: 'object', properties: { a: { oneOf: [{ type: 'string' }, { type: 'number' }] } }, required: ['a'] },
      { type: 'array', items: { type: 'string' } },
    ];
    for (const schema of notStrict) {
      assert.equal(isStrictCompatibleSchema(schema), false, JSON.stringify(schema));
      const params = toChatParams({ ...base, responseFormat: { type: 'json_schema', name: 'x', schema } }, 'gpt-4o');
      assert.deepEqual(params.response_format, { type: 'json_schema', json_schema: { name: 'x', schema } });
    }
    const defs = { type: 'object', properties: { p: { $ref: '#/$defs/P' } }, required: ['p'], $defs: { P: { type: 'object', properties: { q: { anyOf: [{ type: 'string' }, { type: 'null' }] } }, required: ['q'] } } };
    assert.equal((toStrictSchema(defs) as { $defs: { P: { additionalProperties: boolean } } }).$defs.P.additionalProperties, false);
  });

  test('on the wire: an agent run with a zod responseFormat sends strict: true', async () => {
    server.enqueue(jsonResponse({ id: 'x', object: 'chat.completion', created: 0, model: 'gpt-4o', choices: [{ index: 0, message: { role: 'assistant', content: '{"answer":"42"}', refusal: null }, finish_reason: 'stop', logprobs: null }], usage: { prompt_tokens: 5, completion_tokens: 5, total_tokens: 10 } }));
    const result = await new Agent({ provider: providerFor(server), model: 'gpt-4o', responseFormat: z.object({ answer: z.string() }), runtime: testRuntime() }).run('?');
    assert.deepEqual(result.parsed, { answer: '42' });
    const body = server.requests.at(-1)!.json as { response_format: { json_schema: { strict?: boolean; schema: { additionalProperties?: boolean } } } };
    assert.equal(body.response_format.json_schema.strict, true);
    assert.equal(body.response_format.json_schema.schema.additionalProperties, false);
  });
});
