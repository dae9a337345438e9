import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { EMBED_MAX_TOKENS_PER_REQUEST, embedBatches } from '../../../../lib/providers/openai/index.js';
import type { StreamPart } from '../../../../lib/providers/spec.js';
import { fixture, frameDataLines, jsonResponse, sseResponse, startReplayServer, type ReplayServer } from '../../../support/replay-server.js';
import { ask, bodyOf, collect, dataChunks, providerFor, textOf, type WireChunk } from './helpers.js';

const json = (name: string) => jsonResponse(fixture(`openai/${name}`).toString('utf8'));
const sse = (name: string, size?: number) => sseResponse(fixture(`openai/${name}`), size);
const only = <T extends StreamPart['type']>(parts: StreamPart[], type: T) => parts.filter((p): p is Extract<StreamPart, { type: T }> => p.type === type);

describe('OpenAIProvider on recorded Chat Completions traffic', () => {
  let server: ReplayServer;
  before(async () => (server = await startReplayServer()));
  after(async () => server.close());

  test('complete: plain text reply (chat.text.nonstream.vercel)', async () => {
    server.enqueue(json('chat.text.nonstream.vercel.json'));
    const reply = await providerFor(server).complete(ask('Invent a holiday'));
    assert.equal(reply.message.role, 'assistant');
    assert.match(reply.message.content, /^\*\*Holiday Name:\*\* Galaxy Day/);
    assert.match(reply.message.content, /dream beyond our world\.$/);
    assert.equal(reply.message.toolCalls, undefined);
    assert.equal(reply.finishReason, 'stop');
    assert.equal(reply.model, 'gpt-4.1-nano-2025-04-14');
    assert.deepEqual(reply.usage, { promptTokens: 16, completionTokens: 363, totalTokens: 379, cachedPromptTokens: 0, reasoningTokens: 0 });
    const sent = server.requests.at(-1)!;
    assert.equal(sent.path, '/v1/chat/completions');
    assert.equal(sent.headers.authorization, 'Bearer sk-test');
    assert.equal(bodyOf(sent).stream, false);
  });

  test('complete: one tool call, content null → "" (chat.tool_call.nonstream)', async () => {
    server.enqueue(json('chat.tool_call.nonstream.json'));
    const reply = await providerFor(server).complete(ask('weather?'));
    assert.equal(reply.message.content, '');
    assert.deepEqual(reply.message.toolCalls, [{ id: 'call_CUdUoJpsWWVdxXntucvnol1M', toolName: 'get_weather', parameters: { city: 'San Francisco', state: 'CA' } }]);
    assert.equal(reply.finishReason, 'tool-calls');
    assert.equal(reply.model, 'gpt-4o-2024-08-06');
    assert.deepEqual(reply.usage, { promptTokens: 48, completionTokens: 19, totalTokens: 67, reasoningTokens: 0 });
  });

  test('complete: parallel tool calls (chat.parallel_tool_calls.nonstream)', async () => {
    server.enqueue(json('chat.parallel_tool_calls.nonstream.json'));
    const reply = await providerFor(server).complete(ask('both'));
    assert.deepEqual(reply.message.toolCalls, [
      { id: 'call_fdNz3vOBKYgOIpMdWotB9MjY', toolName: 'GetWeatherArgs', parameters: { city: 'Edinburgh', country: 'GB', units: 'c' } },
      { id: 'call_h1DWI1POMJLb0KwIyQHWXD4p', toolName: 'get_stock_price', parameters: { ticker: 'AAPL', exchange: 'NASDAQ' } },
    ]);
    assert.deepEqual(reply.usage, { promptTokens: 149, completionTokens: 60, totalTokens: 209, reasoningTokens: 0 });
  });

  test('complete: finish length (chat.finish_length.nonstream)', async () => {
    server.enqueue(json('chat.finish_length.nonstream.json'));
    const reply = await providerFor(server).complete(ask('long'));
    assert.equal(reply.message.content, '{"');
    assert.equal(reply.finishReason, 'length');
    assert.deepEqual(reply.usage, { promptTokens: 79, completionTokens: 1, totalTokens: 80, reasoningTokens: 0 });
  });

  test('complete: malformed argument JSON → argumentsError quoting the raw text, never {} as real arguments', async () => {
    const body = JSON.parse(fixture('openai/chat.tool_call.nonstream.json').toString('utf8'));
    body.choices[0].message.tool_calls[0].function.arguments = '{"city": "San Fr';
    server.enqueue(jsonResponse(body));
    const [call] = (await providerFor(server).complete(ask('weather?'))).message.toolCalls!;
    assert.equal(call!.toolName, 'get_weather');
    assert.match(call!.argumentsError!, /malformed JSON arguments/);
    assert.ok(call!.argumentsError!.includes(JSON.stringify('{"city": "San Fr')));
  });

  test('complete: a refusal gives finishReason refusal and the refusal text', async () => {
    const body = JSON.parse(fixture('openai/chat.finish_length.nonstream.json').toString('utf8'));
    body.choices[0].message = { role: 'assistant', content: null, refusal: "I'm sorry, I can't help with that." };
    body.choices[0].finish_reason = 'stop';
    server.enqueue(jsonResponse(body, 200, { 'x-request-id': 'req_refusal' }));
    const reply = await providerFor(server).complete(ask('bad'));
    assert.equal(reply.finishReason, 'refusal');
    assert.equal(reply.message.content, "I'm sorry, I can't help with that.");
    assert.equal(reply.requestId, 'req_refusal');
  });

  test('stream: text with include_usage, split every 7 bytes (chat.text.stream.include_usage)', async () => {
    server.enqueue(sse('chat.text.stream.include_usage.sse', 7));
    const parts = await collect(providerFor(server).stream(ask('hi')));
    const sent = bodyOf(server.requests.at(-1)!);
    assert.equal(sent.stream, true);
    assert.deepEqual(sent.stream_options, { include_usage: true });
    assert.match(textOf(parts), /^I'm unable to/);
    assert.ok(textOf(parts).endsWith('.'));
    assert.deepEqual(only(parts, 'usage'), [{ type: 'usage', usage: { promptTokens: 14, completionTokens: 30, totalTokens: 44, reasoningTokens: 0 } }]);
    assert.deepEqual(parts.at(-1), { type: 'finish', finishReason: 'stop', model: 'gpt-4o-2024-08-06' });
    assert.deepEqual(only(parts, 'tool-call'), []);
  });

  test('stream: the request id header reaches the finish part', async () => {
    server.enqueue({ ...sse('chat.finish_length.stream.sse'), headers: { 'content-type': 'text/event-stream', 'x-request-id': 'req_stream_1' } });
    const parts = await collect(providerFor(server).stream(ask('long')));
    assert.deepEqual(parts.at(-1), { type: 'finish', finishReason: 'length', model: 'gpt-4o-2024-08-06', requestId: 'req_stream_1' });
  });

  test('OpenAI-compatible servers: reasoning_content is kept out of the answer (complete and stream)', async () => {
    const body = JSON.parse(fixture('openai/chat.finish_length.nonstream.json').toString('utf8'));
    body.choices[0].message = { role: 'assistant', content: '42', reasoning_content: 'think hard' };
    body.choices[0].finish_reason = 'stop';
    server.enqueue(jsonResponse(body));
    const reply = await providerFor(server).complete(ask('q'));
    assert.equal(reply.message.content, '42');
    assert.equal(reply.reasoning, 'think hard');
    const chunk = (delta: object, finish: string | null = null) => `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', model: 'deepseek-r1', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
    server.enqueue(sseResponse(chunk({ role: 'assistant', reasoning_content: 'think' }) + chunk({ content: '42' }) + chunk({}, 'stop') + 'data: [DONE]\n\n', 5));
    const parts = await collect(providerFor(server).stream(ask('q')));
    assert.deepEqual(parts, [
      { type: 'reasoning-delta', text: 'think' },
      { type: 'text-delta', text: '42' },
      { type: 'finish', finishReason: 'stop', model: 'deepseek-r1' },
    ]);
  });

  test('stream: langchaingo text recording', async () => {
    server.enqueue(sse('chat.text.stream.langchaingo.sse', 13));
    const parts = await collect(providerFor(server).stream(ask('hi')));
    const expected = dataChunks(fixture('openai/chat.text.stream.langchaingo.sse').toString('utf8'))
      .map((c) => c.choices[0]?.delta?.content ?? '')
      .join('');
    assert.equal(textOf(parts), expected);
    assert.equal(parts.at(-1)!.type, 'finish');
  });

  test('stream: vercel data-lines re-framed with [DONE]', async () => {
    const lines = fixture('openai/chat.text.stream.vercel.data-lines.txt').toString('utf8');
    server.enqueue(sseResponse(frameDataLines(lines, 'openai'), 4096));
    const parts = await collect(providerFor(server).stream(ask('hi')));
    const chunks = lines.split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l) as WireChunk);
    assert.equal(textOf(parts), chunks.map((c) => c.choices[0]?.delta?.content ?? '').join(''));
    const last = chunks.at(-1)!.usage!;
    assert.equal(only(parts, 'usage')[0]!.usage.promptTokens, last.prompt_tokens);
    assert.equal(only(parts, 'usage')[0]!.usage.completionTokens, last.completion_tokens);
  });

  test('stream: one tool call split across chunks at odd places (chat.tool_call.stream)', async () => {
    server.enqueue(sse('chat.tool_call.stream.sse', 7));
    const parts = await collect(providerFor(server).stream(ask('weather?')));
    assert.deepEqual(only(parts, 'tool-call'), [
      { type: 'tool-call', toolCall: { id: 'call_CTf1nWJLqSeRgDqaCG27xZ74', toolName: 'get_weather', parameters: { city: 'San Francisco', state: 'CA' } } },
    ]);
    assert.equal(textOf(parts), '');
    assert.deepEqual(only(parts, 'usage')[0]!.usage, { promptTokens: 48, completionTokens: 19, totalTokens: 67, reasoningTokens: 0 });
    assert.deepEqual(parts.at(-1), { type: 'finish', finishReason: 'tool-calls', model: 'gpt-4o-2024-08-06' });
  });

  test('stream: parallel tool calls assembled by index, names assigned not concatenated', async () => {
    server.enqueue(sse('chat.parallel_tool_calls.stream.sse', 7));
    const parts = await collect(providerFor(server).stream(ask('both')));
    const recorded = fixture('openai/chat.parallel_tool_calls.stream.sse').toString('utf8');
    const byIndex = new Map<number, { id: string; name: string; args: string }>();
    for (const line of recorded.split('\n').filter((l) => l.startsWith('data: {'))) {
      for (const d of JSON.parse(line.slice(6)).choices[0]?.delta?.tool_calls ?? []) {
        const e = byIndex.get(d.index) ?? { id: '', name: '', args: '' };
        if (d.id) e.id = d.id;
        if (d.function?.name) e.name = d.function.name;
        e.args += d.function?.arguments ?? '';
        byIndex.set(d.index, e);
      }
    }
    assert.ok(byIndex.size >= 2);
    const expected = [...byIndex.values()].map((e) => ({ type: 'tool-call', toolCall: { id: e.id, toolName: e.name, parameters: JSON.parse(e.args) } }));
    assert.deepEqual(only(parts, 'tool-call'), expected);
    assert.equal(only(parts, 'finish')[0]!.finishReason, 'tool-calls');
  });

  test('stream: tool calls are emitted when finish_reason is "stop" too', async () => {
    const recorded = fixture('openai/chat.tool_call.stream.sse').toString('utf8').replace('"finish_reason":"tool_calls"', '"finish_reason":"stop"');
    server.enqueue(sseResponse(recorded, 11));
    const parts = await collect(providerFor(server).stream(ask('weather?')));
    assert.equal(only(parts, 'tool-call')[0]!.toolCall.toolName, 'get_weather');
    assert.deepEqual(only(parts, 'tool-call')[0]!.toolCall.parameters, { city: 'San Francisco', state: 'CA' });
    assert.equal(only(parts, 'finish')[0]!.finishReason, 'stop');
  });

  test('stream: refusal fragments give the refusal text and finishReason refusal (chat.refusal.stream)', async () => {
    server.enqueue(sse('chat.refusal.stream.sse', 7));
    const parts = await collect(providerFor(server).stream(ask('bad')));
    const expected = dataChunks(fixture('openai/chat.refusal.stream.sse').toString('utf8'))
      .map((c) => c.choices[0]?.delta?.refusal ?? '')
      .join('');
    assert.ok(expected.length > 0);
    assert.equal(textOf(parts), expected);
    assert.equal(only(parts, 'finish')[0]!.finishReason, 'refusal');
  });

  test('stream: finish length (chat.finish_length.stream)', async () => {
    server.enqueue(sse('chat.finish_length.stream.sse', 7));
    const parts = await collect(providerFor(server).stream(ask('long')));
    assert.equal(textOf(parts), '{"');
    assert.deepEqual(only(parts, 'usage')[0]!.usage, { promptTokens: 79, completionTokens: 1, totalTokens: 80, reasoningTokens: 0 });
    assert.equal(only(parts, 'finish')[0]!.finishReason, 'length');
  });

  test('embed: base64 reply decoded to float32 values (embeddings.base64)', async () => {
    const body = fixture('openai/embeddings.base64.json').toString('utf8');
    server.enqueue(jsonResponse(body));
    const reply = await providerFor(server).embed({ texts: ['Hello, world!'], model: 'text-embedding-3-small' });
    const sent = server.requests.at(-1)!;
    assert.equal(sent.path, '/v1/embeddings');
    assert.deepEqual(sent.json, { model: 'text-embedding-3-small', input: ['Hello, world!'], encoding_format: 'base64' });
    const parsed = JSON.parse(body);
    const raw = Buffer.from(parsed.data[0].embedding, 'base64');
    assert.equal(reply.embeddings.length, 1);
    assert.equal(reply.embeddings[0]!.length, raw.length / 4);
    assert.equal(reply.embeddings[0]![0], raw.readFloatLE(0));
    assert.equal(reply.embeddings[0]!.at(-1), raw.readFloatLE(raw.length - 4));
    assert.equal(reply.model, parsed.model);
    assert.equal(reply.usage.tokens, parsed.usage.total_tokens);
    assert.equal(reply.usage.costUsd, (parsed.usage.total_tokens * 0.02) / 1e6);
  });

  test('embed: float replies are accepted as they are, with dimensions sent (embeddings.float.*)', async () => {
    server.enqueue(json('embeddings.float.trimmed.vercel.json'));
    const reply = await providerFor(server).embed({ texts: ['a', 'b'], dimensions: 5 });
    assert.deepEqual(reply.embeddings, [
      [0.0057293195, -0.012727811, 0.020042092, -0.013437585, 0.022833068],
      [-0.037104916, -0.05178114, -0.008340587, 0.001164541, -0.0035253682],
    ]);
    assert.equal(reply.usage.tokens, 12);
    assert.equal(bodyOf(server.requests.at(-1)!).dimensions, 5);
    const dims = JSON.parse(fixture('openai/embeddings.float.dimensions256.json').toString('utf8'));
    server.enqueue(jsonResponse(dims));
    const second = await providerFor(server).embed({ texts: ['x'], dimensions: 256 });
    assert.equal(second.embeddings[0]!.length, 256);
    assert.deepEqual(second.embeddings[0], dims.data[0].embedding);
  });

  test('embed: more than 2048 texts are sent in batches, vectors kept in input order', async () => {
    const texts = Array.from({ length: 2050 }, (_, i) => `t${i}`);
    const vector = (i: number) => Buffer.from(new Float32Array([i, -i]).buffer).toString('base64');
    const reply = (from: number, n: number) =>
      jsonResponse({ object: 'list', model: 'text-embedding-3-small', usage: { prompt_tokens: n, total_tokens: n }, data: Array.from({ length: n }, (_, k) => ({ object: 'embedding', index: n - 1 - k, embedding: vector(from + n - 1 - k) })) });
    server.enqueue(reply(0, 2048), reply(2048, 2));
    const result = await providerFor(server).embed({ texts });
    const [first, second] = server.requests.slice(-2);
    assert.equal(bodyOf(first!).input!.length, 2048);
    assert.deepEqual(bodyOf(second!).input, ['t2048', 't2049']);
    assert.equal(result.embeddings.length, 2050);
    assert.deepEqual(result.embeddings[0], [0, -0]);
    assert.deepEqual(result.embeddings[2049], [2049, -2049]);
    assert.equal(result.usage.tokens, 2050);
  });

  test('embed: batches also stay under ~300k estimated tokens (chars / 4) per request', async () => {
    // 3 texts of 500k chars (125k estimated tokens each): 2 fit in one request, the third goes alone.
    const texts = ['a', 'b', 'c'].map((c) => c.repeat(500_000));
    const reply = (n: number) =>
      jsonResponse({ object: 'list', model: 'text-embedding-3-small', usage: { prompt_tokens: n, total_tokens: n }, data: Array.from({ length: n }, (_, k) => ({ object: 'embedding', index: k, embedding: [k] })) });
    server.enqueue(reply(2), reply(1));
    const before = server.requests.length;
    const result = await providerFor(server).embed({ texts });
    const sent = server.requests.slice(before).map((r) => bodyOf(r).input!.map((t) => t[0]));
    assert.deepEqual(sent, [['a', 'b'], ['c']]);
    assert.equal(result.embeddings.length, 3);
    assert.deepEqual(embedBatches(['x'.repeat(2_000_000), 'y', 'z'], 2048, EMBED_MAX_TOKENS_PER_REQUEST), [[0, 1], [1, 3]], 'an oversized text goes alone');
    assert.deepEqual(embedBatches(['ab', 'cd', 'ef'], 2, 1000), [[0, 2], [2, 3]]);
    assert.deepEqual(embedBatches([]), []);
  });
});
