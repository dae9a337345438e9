import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Message } from '../../../../lib/core/message.js';
import { toAnthropicMessages, toAnthropicParams, toAnthropicToolChoice } from '../../../../lib/providers/anthropic/index.js';
import { fixture, startReplayServer, type ReplayServer } from '../../../support/replay-server.js';
import { providerFor } from './helpers.js';

const PNG = 'iVBORw0KGgo=';
const call = (id: string, city: string) => ({ id, toolName: 'get_weather', parameters: { city } });

describe('Anthropic request conversion', () => {
  test('system prompt at top level (request.system plus system messages), never in messages', () => {
    const params = toAnthropicParams(
      { model: 'm', system: 'Be brief.', messages: [{ role: 'system', content: 'Use metric.' }, { role: 'user', content: 'hi' }], maxTokens: 50 },
      4096,
    );
    assert.equal(params.system, 'Be brief.\n\nUse metric.');
    assert.deepEqual(params.messages, [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }]);
    assert.equal(params.max_tokens, 50);
  });

  test('consecutive same-role messages are merged so turns alternate', () => {
    const { messages } = toAnthropicMessages([
      { role: 'user', content: 'one' },
      { role: 'user', content: 'two' },
      { role: 'assistant', content: 'a' },
      { role: 'assistant', content: 'b' },
      { role: 'user', content: 'three' },
    ]);
    assert.deepEqual(messages, [
      { role: 'user', content: [{ type: 'text', text: 'one' }, { type: 'text', text: 'two' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'a' }, { type: 'text', text: 'b' }] },
      { role: 'user', content: [{ type: 'text', text: 'three' }] },
    ]);
  });

  test('tool calls become tool_use blocks; results become adjacent tool_result blocks (is_error kept), before later user text', () => {
    const history: Message[] = [
      { role: 'user', content: 'weather?' },
      { role: 'assistant', content: '', toolCalls: [call('toolu_1', 'Oslo'), call('toolu_2', 'Rome')] },
      { role: 'user', content: 'also, hurry' },
      { role: 'tool', content: 'boom', toolCallId: 'toolu_2', toolName: 'get_weather', isError: true },
      { role: 'tool', content: '{"t":3}', toolCallId: 'toolu_1', toolName: 'get_weather' },
    ];
    assert.deepEqual(toAnthropicMessages(history).messages, [
      { role: 'user', content: [{ type: 'text', text: 'weather?' }] },
      {
        role: 'assistant',
        content: [
          { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Oslo' } },
          { type: 'tool_use', id: 'toolu_2', name: 'get_weather', input: { city: 'Rome' } },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'toolu_2', content: 'boom', is_error: true },
          { type: 'tool_result', tool_use_id: 'toolu_1', content: '{"t":3}' },
          { type: 'text', text: 'also, hurry' },
        ],
      },
    ]);
  });

  test('results of an earlier call go right after that call, not at the end', () => {
    const { messages } = toAnthropicMessages([
      { role: 'user', content: 'go' },
      { role: 'assistant', content: 'first', toolCalls: [call('a', 'X')] },
      { role: 'assistant', content: 'second' },
      { role: 'tool', content: 'r', toolCallId: 'a', toolName: 'get_weather' },
    ]);
    assert.deepEqual(messages.map((m) => m.role), ['user', 'assistant', 'user']);
    assert.deepEqual(messages[2]!.content, [{ type: 'tool_result', tool_use_id: 'a', content: 'r' }]);
  });

  test('images are base64 image blocks with their real media type, before the text', () => {
    const { messages } = toAnthropicMessages([{ role: 'user', content: 'what is this?', images: [{ data: PNG, mediaType: 'image/png' }, { data: 'R0lG', mediaType: 'image/gif' }] }]);
    assert.deepEqual(messages[0]!.content, [
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } },
      { type: 'image', source: { type: 'base64', media_type: 'image/gif', data: 'R0lG' } },
      { type: 'text', text: 'what is this?' },
    ]);
  });

  test('tools carry input_schema; tool choice maps to auto / none / any / tool', () => {
    const parameters = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] };
    const params = toAnthropicParams({ model: 'm', messages: [{ role: 'user', content: 'x' }], tools: [{ name: 'get_weather', description: 'Weather', parameters }], toolChoice: 'required' }, 100);
    assert.deepEqual(params.tools, [{ name: 'get_weather', description: 'Weather', input_schema: parameters }]);
    assert.deepEqual(params.tool_choice, { type: 'any' });
    assert.deepEqual(toAnthropicToolChoice('auto'), { type: 'auto' });
    assert.deepEqual(toAnthropicToolChoice('none'), { type: 'none' });
    assert.deepEqual(toAnthropicToolChoice({ type: 'tool', toolName: 'get_weather' }), { type: 'tool', name: 'get_weather' });
    assert.equal(params.max_tokens, 100, 'the provider default when the request sets none');
  });

  test('structured output goes to output_config.format', () => {
    const schema = { type: 'object', properties: { a: { type: 'number' } } };
    const params = toAnthropicParams({ model: 'm', messages: [{ role: 'user', content: 'x' }], responseFormat: { type: 'json_schema', name: 'r', schema } }, 100);
    assert.deepEqual(params.output_config, { format: { type: 'json_schema', schema } });
  });

  describe('on the wire', () => {
    let server: ReplayServer;
    before(async () => (server = await startReplayServer()));
    after(async () => server.close());

    test('an image request reaches the API with its media type', async () => {
      server.enqueue({ status: 200, headers: { 'content-type': 'application/json' }, body: fixture('anthropic/messages.text.nonstream.vercel.json') });
      await providerFor(server).complete({ model: 'claude-haiku-4-5', messages: [{ role: 'user', content: 'describe', images: [{ data: PNG, mediaType: 'image/webp' }] }] });
      const sent = server.requests.at(-1)!.json as { messages: { content: unknown[] }[] };
      assert.deepEqual(sent.messages[0]!.content[0], { type: 'image', source: { type: 'base64', media_type: 'image/webp', data: PNG } });
    });
  });
});
