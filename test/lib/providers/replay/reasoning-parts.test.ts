import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { z } from 'zod';
import { Agent } from '../../../../lib/agent/agent.js';
import type { Message } from '../../../../lib/core/message.js';
import type { ReasoningPart } from '../../../../lib/core/reasoning-part.js';
import { AnthropicProvider } from '../../../../lib/providers/anthropic/index.js';
import { parseCassette, RecordingProvider, ReplayProvider } from '../../../../lib/providers/replay/index.js';
import type { Provider, ProviderRequest, StreamPart } from '../../../../lib/providers/spec.js';
import { tool } from '../../../../lib/tools/tool.js';
import { testRuntime } from '../../../support/agent-harness.js';
import { fixture, jsonResponse, sseResponse, startReplayServer, type ReplayServer } from '../../../support/replay-server.js';
import { EXPECTED_PARTS, finalTurnJson, finalTurnStream, MODEL, REDACTED, reasoningPartsOf, SIGNATURE, toolTurnJson, toolTurnStream } from '../anthropic/thinking-turns.js';
import { geminiOn } from '../gemini/harness.js';

// Reasoning parts (signed thinking blocks, redacted blocks, text-part signatures) must survive a
// cassette recorded with one output format and replayed with the other: a `stream()` recording
// answering `complete()`, and a `complete()` recording answering `stream()`.

const dir = mkdtempSync(join(tmpdir(), 'agentlib-cassette-reasoning-'));
after(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
const cassettePath = (): string => join(dir, `r${++n}.jsonl`);


const ask = (text: string, model: string): ProviderRequest => ({ model, messages: [{ role: 'user', content: text }] });

async function collect(stream: AsyncIterable<StreamPart>): Promise<StreamPart[]> {
  const parts: StreamPart[] = [];
  for await (const part of stream) parts.push(part);
  return parts;
}


/** Same parts, compared field by field (same keys, each value byte for byte), in the same order. */
function assertSameParts(actual: readonly ReasoningPart[] | undefined, expected: readonly ReasoningPart[]): void {
  assert.ok(expected.length > 0, 'the recording holds reasoning parts');
  assert.ok(actual !== undefined, 'the reasoning parts were kept');
  assert.equal(actual.length, expected.length);
  expected.forEach((want, i) => {
    const got = actual[i] as Record<string, unknown>;
    const fields = want as Record<string, unknown>;
    assert.deepEqual(Object.keys(got).sort(), Object.keys(fields).sort(), `part ${i}: the same fields`);
    for (const key of Object.keys(fields)) assert.equal(got[key], fields[key], `part ${i}: ${key}`);
  });
}

/** An Anthropic SSE body: `event: <type>` + `data: <json>` per event (documented wire format). */
const EXPECTED = EXPECTED_PARTS;

function weather() {
  return tool({ name: 'get_weather', description: 'Weather of a city', parameters: z.object({ city: z.string() }), execute: ({ city }) => `sunny in ${city}` });
}

const anthropicOn = (server: ReplayServer, thinking = false): Provider =>
  new AnthropicProvider({ apiKey: 'test-key', baseURL: server.url, ...(thinking ? { thinking: { budgetTokens: 1024 } } : {}) });

describe('cassettes keep reasoning parts across output formats', () => {
  let server: ReplayServer;
  before(async () => (server = await startReplayServer()));
  after(async () => server.close());

  test('Anthropic stream() recording (recorded thinking stream) replayed to complete(): the signed block, field by field', async () => {
    const path = cassettePath();
    server.enqueue(sseResponse(fixture('anthropic/messages.thinking.stream.simonw-llm.sse'), 7));
    const request = ask('Two names for a pet pelican, be brief', 'claude-haiku-4-5');
    const live = await collect(new RecordingProvider(anthropicOn(server), { path, env: {} }).stream(request));
    const liveParts = reasoningPartsOf(live);
    assert.equal(liveParts.length, 1);
    assert.equal(liveParts[0]?.type, 'thinking');

    const response = await ReplayProvider.fromFile(path, { env: {} }).complete(request);
    assertSameParts(response.message.reasoningParts, liveParts);
    assert.equal(response.reasoning, live.map((p) => (p.type === 'reasoning-delta' ? p.text : '')).join(''));
    assert.equal(response.message.content, live.map((p) => (p.type === 'text-delta' ? p.text : '')).join(''));
  });

  test('Anthropic complete() recording replayed to stream(): thinking and redacted blocks as reasoning-parts, before the answer', async () => {
    const path = cassettePath();
    server.enqueue(jsonResponse(toolTurnJson()));
    const request = ask('Weather in Paris?', MODEL);
    const live = await new RecordingProvider(anthropicOn(server), { path, env: {} }).complete(request);
    assertSameParts(live.message.reasoningParts, EXPECTED);

    const parts = await collect(ReplayProvider.fromFile(path, { env: {} }).stream(request));
    assertSameParts(reasoningPartsOf(parts), live.message.reasoningParts ?? []);
    assert.deepEqual(
      parts.map((p) => p.type),
      ['reasoning-delta', 'reasoning-part', 'reasoning-part', 'text-delta', 'tool-call', 'usage', 'finish'],
    );
  });

  test('Gemini stream() recording (text-part thoughtSignature) replayed to complete()', async () => {
    const path = cassettePath();
    server.enqueue(sseResponse(fixture('google/streamGenerateContent.thinking.pydantic.sse'), 13));
    const request = ask('How do I cross the street?', 'gemini-2.5-pro');
    const live = await collect(new RecordingProvider(geminiOn(server), { path, env: {} }).stream(request));
    const liveParts = reasoningPartsOf(live);
    assert.equal(liveParts[0]?.type, 'signature');

    const response = await ReplayProvider.fromFile(path, { env: {} }).complete(request);
    assertSameParts(response.message.reasoningParts, liveParts);
  });

  test('Gemini complete() recording (text-part thoughtSignature) replayed to stream()', async () => {
    const path = cassettePath();
    server.enqueue(jsonResponse(fixture('google/generateContent.text.gemini3.vercel.json').toString('utf8')));
    const request = ask('Hi', 'gemini-3-pro-preview');
    const live = await new RecordingProvider(geminiOn(server), { path, env: {} }).complete(request);
    assert.equal(live.message.reasoningParts?.[0]?.type, 'signature');

    const parts = await collect(ReplayProvider.fromFile(path, { env: {} }).stream(request));
    assertSameParts(reasoningPartsOf(parts), live.message.reasoningParts ?? []);
  });

  for (const recordedStreaming of [true, false]) {
    const [recorded, replayed] = recordedStreaming ? ['stream()', 'run()'] : ['run()', 'stream()'];
    test(`Agent tool round trip with thinking recorded with ${recorded}, replayed with ${replayed}: turn 2 matches, the blocks are kept`, async () => {
      const path = cassettePath();
      if (recordedStreaming) server.enqueue(sseResponse(toolTurnStream(), 9), sseResponse(finalTurnStream(), 9));
      else server.enqueue(jsonResponse(toolTurnJson()), jsonResponse(finalTurnJson()));
      const recorder = new RecordingProvider(anthropicOn(server, true), { path, env: {} });
      const liveAgent = new Agent({ provider: recorder, model: MODEL, tools: [weather()], runtime: testRuntime() });
      const live = recordedStreaming ? await liveAgent.stream('Weather in Paris?').result : await liveAgent.run('Weather in Paris?');
      assert.equal(recorder.recorded, 2);
      const liveTurn = liveAgent.history.find((m: Message) => m.toolCalls !== undefined);
      assertSameParts(liveTurn?.reasoningParts, EXPECTED);

      // Turn 2 sends the blocks back: it only matches the recording if the replayed turn 1 kept them.
      const replay = ReplayProvider.fromFile(path, { env: {} });
      const agent = new Agent({ provider: replay, model: MODEL, tools: [weather()], runtime: testRuntime() });
      const again = recordedStreaming ? await agent.run('Weather in Paris?') : await agent.stream('Weather in Paris?').result;
      assert.equal(again.content, live.content);
      assert.equal(replay.unused, 0);
      const turn = agent.history.find((m: Message) => m.toolCalls !== undefined);
      assertSameParts(turn?.reasoningParts, EXPECTED);
    });
  }

  test('every kind of part, both ways (a hand-written cassette): unsigned thinking, redacted, signature, mixed providers', async () => {
    const parts: ReasoningPart[] = [
      { type: 'thinking', provider: 'anthropic', text: 'cut before its signature' },
      { type: 'redacted', provider: 'anthropic', data: REDACTED },
      { type: 'signature', provider: 'gemini', signature: 'dGV4dA==' },
      { type: 'thinking', provider: 'other', text: 'signed', signature: SIGNATURE },
    ];
    const request = { model: 'm', messages: [{ role: 'user', content: 'q' }] };
    const header = { type: 'cassette', version: 1, provider: 'mixed', defaultModel: 'm', capabilities: { tools: true, streaming: true, structuredOutput: false, vision: false, embeddings: false }, createdAt: '1970-01-01T00:00:00.000Z' };
    const streamed = { type: 'stream', index: 0, request, parts: [{ type: 'text-delta', text: 'a' }, ...parts.map((part) => ({ type: 'reasoning-part', part })), { type: 'finish', finishReason: 'stop' }] };
    const completed = { type: 'complete', index: 1, request, response: { message: { role: 'assistant', content: 'b', reasoningParts: parts }, finishReason: 'stop' } };
    const cassette = parseCassette([header, streamed, completed].map((line) => JSON.stringify(line)).join('\n'));
    const replay = new ReplayProvider(cassette, { env: {} });
    const first = await replay.complete({ model: 'm', messages: [{ role: 'user', content: 'q' }] });
    assert.equal(first.message.content, 'a');
    assertSameParts(first.message.reasoningParts, parts);
    const second = await collect(replay.stream({ model: 'm', messages: [{ role: 'user', content: 'q' }] }));
    assert.deepEqual(second.map((p) => p.type), ['reasoning-part', 'reasoning-part', 'reasoning-part', 'reasoning-part', 'text-delta', 'finish']);
    assertSameParts(reasoningPartsOf(second), parts);
  });
});
