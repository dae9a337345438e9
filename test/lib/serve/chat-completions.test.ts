import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import OpenAI from 'openai';
import { ProviderError } from '../../../lib/core/errors/provider-error.js';
import type { RunningServer } from '../../../lib/serve/index.js';
import { listenLocal, lookupTool, post, scriptedAgent, serve } from './helpers.js';

describe('POST /v1/chat/completions with the official openai client', () => {
  let server: RunningServer;
  let client: OpenAI;
  const toolCalls: string[] = [];

  before(async () => {
    const agent = scriptedAgent(
      {
        respond: (request) => {
          const last = request.messages.at(-1);
          // Orders are looked up with the tool first, then answered.
          if (last?.role === 'user' && last.content.includes('order')) return { toolCalls: [{ toolName: 'lookup_order', parameters: { orderId: '42' } }] };
          if (last?.role === 'user' && last.content.includes('fail')) return { error: new ProviderError('model is down', { provider: 'scripted', status: 400 }) };
          const users = request.messages.filter((m) => m.role === 'user').length;
          return { text: `Answer after ${users} user message(s): all good.`, usage: { promptTokens: 11, completionTokens: 7 } };
        },
      },
      { tools: [lookupTool(toolCalls)], model: 'scripted-model' },
    );
    server = await listenLocal(serve(agent));
    client = new OpenAI({ apiKey: 'not-needed', baseURL: `${server.url}/v1`, maxRetries: 0 });
  });
  after(async () => {
    await server.close(0);
  });

  test('non-stream: a chat.completion with the answer, finish_reason and usage', async () => {
    const completion = await client.chat.completions.create({
      model: 'anything',
      messages: [
        { role: 'system', content: 'You are terse.' },
        { role: 'user', content: 'Hi' },
        { role: 'assistant', content: 'Hello' },
        { role: 'user', content: 'How are you?' },
      ],
    });
    assert.equal(completion.object, 'chat.completion');
    assert.match(completion.id, /^chatcmpl-run_/);
    assert.equal(completion.model, 'scripted-model');
    assert.equal(completion.choices.length, 1);
    assert.equal(completion.choices[0]?.message.role, 'assistant');
    assert.equal(completion.choices[0]?.message.content, 'Answer after 2 user message(s): all good.');
    assert.equal(completion.choices[0]?.finish_reason, 'stop');
    assert.deepEqual(completion.usage, { prompt_tokens: 11, completion_tokens: 7, total_tokens: 18 });
  });

  test('the agent runs its own tools server-side; the client gets the final answer', async () => {
    const completion = await client.chat.completions.create({ model: 'x', messages: [{ role: 'user', content: 'where is my order?' }] });
    assert.equal(completion.choices[0]?.message.content, 'Answer after 1 user message(s): all good.');
    assert.deepEqual(toolCalls, ['42']);
  });

  test('stream: chat.completion.chunk deltas that join to the answer, a finish chunk and usage', async () => {
    const stream = await client.chat.completions.create({ model: 'x', messages: [{ role: 'developer', content: 'Be nice.' }, { role: 'user', content: 'Hello' }], stream: true, stream_options: { include_usage: true } });
    let text = '';
    let role: string | undefined;
    let finish: string | null | undefined;
    let usage: OpenAI.CompletionUsage | undefined | null;
    let chunks = 0;
    for await (const chunk of stream) {
      chunks += 1;
      assert.equal(chunk.object, 'chat.completion.chunk');
      const choice = chunk.choices[0];
      if (choice?.delta.role !== undefined) role = choice.delta.role;
      text += choice?.delta.content ?? '';
      if (choice?.finish_reason) finish = choice.finish_reason;
      if (chunk.usage) usage = chunk.usage;
    }
    assert.equal(role, 'assistant');
    assert.equal(text, 'Answer after 1 user message(s): all good.');
    assert.ok(chunks > 4, 'several delta chunks');
    assert.equal(finish, 'stop');
    assert.deepEqual(usage, { prompt_tokens: 11, completion_tokens: 7, total_tokens: 18 });
  });

  test('a provider failure is an APIError with status 502 (non-stream) and raised mid-stream', async () => {
    await assert.rejects(
      client.chat.completions.create({ model: 'x', messages: [{ role: 'user', content: 'please fail' }] }),
      (error: unknown) => error instanceof OpenAI.APIError && error.status === 502 && /model is down/.test(error.message),
    );
    const stream = await client.chat.completions.create({ model: 'x', messages: [{ role: 'user', content: 'please fail' }], stream: true });
    await assert.rejects(async () => {
      for await (const chunk of stream) void chunk;
    }, (error: unknown) => error instanceof OpenAI.APIError && /model is down/.test(error.message));
  });

  test('bad requests are 400s the client raises as BadRequestError', async () => {
    await assert.rejects(client.chat.completions.create({ model: 'x', messages: [] }), (e: unknown) => e instanceof OpenAI.BadRequestError);
    await assert.rejects(
      client.chat.completions.create({ model: 'x', messages: [{ role: 'user', content: 'hi' }], n: 2 }),
      (e: unknown) => e instanceof OpenAI.BadRequestError && /"n" must be 1/.test(e.message),
    );
    await assert.rejects(
      client.chat.completions.create({ model: 'x', messages: [{ role: 'user', content: 'hi' }], tools: [{ type: 'function', function: { name: 'f', parameters: {} } }] }),
      (e: unknown) => e instanceof OpenAI.BadRequestError,
    );
  });

  test('json_schema response_format gives structured output', async () => {
    const served = serve(scriptedAgent({ replies: ['{"answer": 42}'] }));
    const res = await post(served, '/v1/chat/completions', {
      model: 'x',
      messages: [{ role: 'user', content: 'q' }],
      response_format: { type: 'json_schema', json_schema: { name: 'a', schema: { type: 'object', properties: { answer: { type: 'number' } }, required: ['answer'] } } },
    });
    assert.equal(res.status, 200);
    const body = (await res.json()) as { choices: { message: { content: string } }[] };
    assert.deepEqual(JSON.parse(body.choices[0]?.message.content ?? ''), { answer: 42 });
  });
});
