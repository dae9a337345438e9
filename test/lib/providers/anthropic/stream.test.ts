import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { StreamPart } from '../../../../lib/providers/spec.js';
import { fixture, frameDataLines, sseResponse, startReplayServer, type ReplayServer } from '../../../support/replay-server.js';
import { ask, collect, providerFor, reasoningOf, textOf } from './helpers.js';

const DIR = 'anthropic/';
const sse = (name: string, size?: number) => sseResponse(fixture(DIR + name), size);
const toolCalls = (parts: readonly StreamPart[]) => parts.flatMap((p) => (p.type === 'tool-call' ? [p.toolCall] : []));
const tail = (parts: readonly StreamPart[]) => parts.slice(-2);

describe('AnthropicProvider.stream on recorded traffic', () => {
  let server: ReplayServer;
  before(async () => (server = await startReplayServer()));
  after(async () => server.close());

  for (const size of [undefined, 7]) {
    const label = size ? ' (split every 7 bytes)' : '';
    test(`text stream, langchaingo recording${label}`, async () => {
      server.enqueue(sse('messages.text.stream.langchaingo.sse', size));
      const parts = await collect(providerFor(server).stream(ask('Count from 1 to 5', { maxTokens: 100 })));
      assert.deepEqual(parts.filter((p) => p.type === 'text-delta').map((p) => p.text), ['1', '\n2\n3', '\n4\n5']);
      assert.deepEqual(tail(parts), [
        { type: 'usage', usage: { promptTokens: 15, completionTokens: 13, totalTokens: 28, cachedPromptTokens: 0 } },
        { type: 'finish', finishReason: 'stop', model: 'claude-3-opus-20240229' },
      ]);
      assert.equal((server.requests.at(-1)!.json as { stream: boolean }).stream, true);
    });
  }

  test('text stream, simonw-llm recording', async () => {
    server.enqueue({ ...sse('messages.text.stream.simonw-llm.sse', 13), headers: { 'content-type': 'text/event-stream; charset=utf-8', 'request-id': 'req_s1' } });
    const parts = await collect(providerFor(server).stream(ask('Say just hello')));
    assert.equal(textOf(parts), 'Hello');
    assert.deepEqual(tail(parts), [
      { type: 'usage', usage: { promptTokens: 10, completionTokens: 4, totalTokens: 14, cachedPromptTokens: 0 } },
      { type: 'finish', finishReason: 'stop', model: 'claude-haiku-4-5-20251001', requestId: 'req_s1' },
    ]);
  });

  test('text stream from vercel data lines, re-framed with event: lines', async () => {
    const body = frameDataLines(fixture(`${DIR}messages.text.stream.vercel.data-lines.txt`).toString('utf8'), 'anthropic');
    server.enqueue(sseResponse(body, 7));
    const parts = await collect(providerFor(server).stream(ask('Hi')));
    // The six text deltas as sent (the ping event gives no part), nothing else before the tail.
    assert.deepEqual(parts.slice(0, -2), [
      { type: 'text-delta', text: 'Hello' },
      { type: 'text-delta', text: '! I' },
      { type: 'text-delta', text: "'m doing well, thank you for asking" },
      { type: 'text-delta', text: '. How are you doing today?' },
      { type: 'text-delta', text: ' Is' },
      { type: 'text-delta', text: ' there anything I can help you with?' },
    ]);
    assert.equal(textOf(parts), "Hello! I'm doing well, thank you for asking. How are you doing today? Is there anything I can help you with?");
    // usage from message_start (input 12, cache counts 0) and message_delta (output 30); end_turn → stop.
    assert.deepEqual(tail(parts), [
      { type: 'usage', usage: { promptTokens: 12, completionTokens: 30, totalTokens: 42, cachedPromptTokens: 0 } },
      { type: 'finish', finishReason: 'stop', model: 'claude-sonnet-4-5-20250929' },
    ]);
  });

  test('thinking stream: thinking deltas are reasoning, never answer text', async () => {
    server.enqueue(sse('messages.thinking.stream.simonw-llm.sse', 7));
    const parts = await collect(providerFor(server).stream(ask('Two names for a pet pelican, be brief')));
    assert.equal(textOf(parts), '1. **Pouch** - references their iconic bill pouch\n2. **Pelé** - playful take on "pelican"');
    const reasoning = reasoningOf(parts);
    assert.ok(reasoning.startsWith('The user wants two names for a pet pelican'));
    assert.ok(reasoning.endsWith('Let me give two brief, catchy names:'));
    assert.ok(!textOf(parts).includes('The user wants'));
    assert.deepEqual(tail(parts), [
      { type: 'usage', usage: { promptTokens: 46, completionTokens: 133, totalTokens: 179, cachedPromptTokens: 0 } },
      { type: 'finish', finishReason: 'stop', model: 'claude-haiku-4-5-20251001' },
    ]);
  });

  test('tool_use stream (sdk fixture): input_json_delta fragments assembled into one tool-call', async () => {
    server.enqueue(sse('messages.tool_use.stream.sdk-fixture.sse', 7));
    const parts = await collect(providerFor(server).stream(ask('Weather in Paris?')));
    assert.equal(textOf(parts), "I'll check the current weather in Paris for you.");
    assert.deepEqual(toolCalls(parts), [{ id: 'toolu_01NRLabsLyVHZPKxbKvkfSMn', toolName: 'get_weather', parameters: { location: 'Paris' } }]);
    assert.equal(parts.filter((p) => p.type === 'tool-call').length, 1);
    assert.deepEqual(tail(parts), [
      { type: 'usage', usage: { promptTokens: 377, completionTokens: 65, totalTokens: 442, cachedPromptTokens: 0 } },
      { type: 'finish', finishReason: 'tool-calls', model: 'claude-opus-4-8' },
    ]);
  });

  test('tool_use with no arguments: only "" fragments → {}', async () => {
    server.enqueue(sse('messages.tool_use_no_args.stream.simonw-llm.sse', 7));
    const parts = await collect(providerFor(server).stream(ask('Generate one name for a pet pelican')));
    assert.equal(textOf(parts), '');
    assert.deepEqual(toolCalls(parts), [{ id: 'toolu_01CzN6riCPqw4pVSuTd9Dwn7', toolName: 'pelican_name_generator', parameters: {} }]);
    assert.deepEqual(tail(parts), [
      { type: 'usage', usage: { promptTokens: 543, completionTokens: 40, totalTokens: 583, cachedPromptTokens: 0 } },
      { type: 'finish', finishReason: 'tool-calls', model: 'claude-haiku-4-5-20251001' },
    ]);
  });

  test('parallel tool_use stream: two calls in block order', async () => {
    server.enqueue(sse('messages.parallel_tool_use.roundtrip.stream.mirascope.turn1.sse', 7));
    const parts = await collect(providerFor(server).stream(ask('secrets')));
    assert.equal(textOf(parts), "I'll retrieve the secrets for both passwords you provided.");
    assert.deepEqual(toolCalls(parts), [
      { id: 'toolu_015cUijgET79LXjgeYQerN2h', toolName: 'secret_retrieval_tool', parameters: { password: 'mellon' } },
      { id: 'toolu_01XZTimPexA7h3EVKesnKt5T', toolName: 'secret_retrieval_tool', parameters: { password: 'radiance' } },
    ]);
    assert.deepEqual(tail(parts), [
      { type: 'usage', usage: { promptTokens: 416, completionTokens: 109, totalTokens: 525, cachedPromptTokens: 0 } },
      { type: 'finish', finishReason: 'tool-calls', model: 'claude-sonnet-4-20250514' },
    ]);
  });

  test('a consumer that stops early cancels the stream without hanging', async () => {
    server.enqueue({ ...sse('messages.text.stream.langchaingo.sse', 40), chunkDelayMs: 20 });
    const seen: StreamPart[] = [];
    for await (const part of providerFor(server).stream(ask('Count'))) {
      seen.push(part);
      if (part.type === 'text-delta') break;
    }
    assert.deepEqual(seen, [{ type: 'text-delta', text: '1' }]);
  });

  test('cache writes in a stream: the usage part carries the cost (writes at 1.25x, reads at 0.1x the input price)', async () => {
    const events = [
      { type: 'message_start', message: { id: 'm', type: 'message', role: 'assistant', model: 'claude-haiku-4-5-20251001', content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 10, output_tokens: 1, cache_creation_input_tokens: 2000, cache_read_input_tokens: 500 } } },
      { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'ok' } },
      { type: 'content_block_stop', index: 0 },
      { type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 4 } },
      { type: 'message_stop' },
    ];
    server.enqueue(sseResponse(events.map((e) => `event: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`).join('')));
    const parts = await collect(providerFor(server).stream(ask('cached')));
    const usage = parts.find((p) => p.type === 'usage')!;
    assert.equal(usage.type, 'usage');
    const { costUsd, ...counts } = usage.usage;
    assert.deepEqual(counts, { promptTokens: 2510, completionTokens: 4, totalTokens: 2514, cachedPromptTokens: 500 });
    // Haiku 4.5, $1 / $5: 10 uncached, 500 reads at $0.10, 2000 writes at $1.25, 4 output.
    assert.ok(Math.abs(costUsd! - (10 * 1 + 500 * 0.1 + 2000 * 1.25 + 4 * 5) / 1e6) < 1e-12, String(costUsd));
  });

  test('malformed tool arguments give argumentsError quoting the text, never {} silently', async () => {
    const events = [
      { type: 'message_start', message: { id: 'm', type: 'message', role: 'assistant', model: 'claude-haiku-4-5', content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 3, output_tokens: 1 } } },
      { type: 'content_block_start', index: 0, content_block: { type: 'tool_use', id: 'toolu_x', name: 'get_weather', input: {} } },
      { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: '{"city": "Par' } },
      { type: 'content_block_stop', index: 0 },
      { type: 'message_delta', delta: { stop_reason: 'tool_use', stop_sequence: null }, usage: { output_tokens: 9 } },
      { type: 'message_stop' },
    ];
    server.enqueue(sseResponse(events.map((e) => `event: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`).join('')));
    const parts = await collect(providerFor(server).stream(ask('weather')));
    const [call] = toolCalls(parts);
    assert.equal(call!.id, 'toolu_x');
    assert.equal(call!.toolName, 'get_weather');
    assert.match(call!.argumentsError!, /not valid JSON/);
    assert.match(call!.argumentsError!, /Par/);
  });
});
