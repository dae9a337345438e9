import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { StreamPart } from '../../../../lib/providers/spec.js';
import { sseResponse, startReplayServer, type ReplayServer } from '../../../support/replay-server.js';
import { ask, collect, providerFor } from './helpers.js';

// Synthetic Chat Completions streams (no recording has these shapes): tool-call deltas without
// `index` (Gemini's OpenAI-compatible endpoint, some proxies), parallel calls sharing index 0, and
// servers that repeat the function name on every delta.
type ToolDelta = { index?: number; id?: string; type?: 'function'; function?: { name?: string; arguments?: string } };
const chunk = (toolCalls: ToolDelta[] | null, finish: string | null = null) =>
  `data: ${JSON.stringify({ id: 'chatcmpl-x', object: 'chat.completion.chunk', created: 0, model: 'm', choices: [{ index: 0, delta: toolCalls ? { role: 'assistant', tool_calls: toolCalls } : {}, finish_reason: finish }] })}\n\n`;
const stream = (...chunks: string[]) => sseResponse(`${chunks.join('')}data: [DONE]\n\n`, 13);
const calls = (parts: StreamPart[]) => parts.flatMap((p) => (p.type === 'tool-call' ? [p.toolCall] : []));

describe('OpenAIProvider: tool-call deltas in unusual shapes', () => {
  let server: ReplayServer;
  before(async () => (server = await startReplayServer()));
  after(async () => server.close());

  test('Gemini OpenAI-compatible: whole calls without index, keyed by id, emitted on finish "stop"', async () => {
    server.enqueue(
      stream(
        chunk([{ id: 'function-call-1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Rome"}' } }]),
        chunk([{ id: 'function-call-2', type: 'function', function: { name: 'get_time', arguments: '{"tz":"UTC"}' } }]),
        chunk(null, 'stop'),
      ),
    );
    const parts = await collect(providerFor(server).stream(ask('weather and time')));
    assert.deepEqual(calls(parts), [
      { id: 'function-call-1', toolName: 'get_weather', parameters: { city: 'Rome' } },
      { id: 'function-call-2', toolName: 'get_time', parameters: { tz: 'UTC' } },
    ]);
    assert.equal(parts.at(-1)?.type, 'finish');
  });

  test('no index: a delta with a known id continues that call; one with neither id nor index continues the last call', async () => {
    server.enqueue(
      stream(
        chunk([{ id: 'a', type: 'function', function: { name: 'get_weather', arguments: '{"ci' } }]),
        chunk([{ id: 'a', function: { arguments: 'ty":' } }]),
        chunk([{ function: { arguments: '"Rome"}' } }]),
        chunk(null, 'tool_calls'),
      ),
    );
    const parts = await collect(providerFor(server).stream(ask('weather')));
    assert.deepEqual(calls(parts), [{ id: 'a', toolName: 'get_weather', parameters: { city: 'Rome' } }]);
  });

  test('a proxy that puts two parallel calls at index 0 with different ids: two calls', async () => {
    server.enqueue(
      stream(
        chunk([{ index: 0, id: 'a', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Rome"}' } }]),
        chunk([{ index: 0, id: 'b', type: 'function', function: { name: 'get_time', arguments: '{"tz":"UTC"}' } }], 'tool_calls'),
      ),
    );
    const parts = await collect(providerFor(server).stream(ask('both')));
    assert.deepEqual(calls(parts), [
      { id: 'a', toolName: 'get_weather', parameters: { city: 'Rome' } },
      { id: 'b', toolName: 'get_time', parameters: { tz: 'UTC' } },
    ]);
  });

  test('the name repeated on later deltas of the same index is assigned, never concatenated', async () => {
    server.enqueue(
      stream(
        chunk([{ index: 0, id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '' } }]),
        chunk([{ index: 0, id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":' } }]),
        chunk([{ index: 0, function: { name: 'get_weather', arguments: '"Rome"}' } }]),
        chunk([{ index: 1, id: 'call_2', type: 'function', function: { name: 'get_time', arguments: '{}' } }]),
        chunk([{ index: 1, function: { name: 'get_time' } }]),
        chunk(null, 'tool_calls'),
      ),
    );
    const parts = await collect(providerFor(server).stream(ask('both')));
    assert.deepEqual(calls(parts), [
      { id: 'call_1', toolName: 'get_weather', parameters: { city: 'Rome' } },
      { id: 'call_2', toolName: 'get_time', parameters: {} },
    ]);
  });
});
