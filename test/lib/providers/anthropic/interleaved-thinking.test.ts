import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Agent } from '../../../../lib/agent/agent.js';
import type { Message } from '../../../../lib/core/message.js';
import type { ReasoningPart } from '../../../../lib/core/reasoning-part.js';
import { AnthropicProvider, toAnthropicMessages } from '../../../../lib/providers/anthropic/index.js';
import type { StreamPart } from '../../../../lib/providers/spec.js';
import { testRuntime, weatherTool } from '../../../support/agent-harness.js';
import { captureConsoleWarnings, SDK_MODEL_DEPRECATION } from '../../../support/capture-warnings.js';
import { jsonResponse, sseResponse, startReplayServer, type ReplayServer } from '../../../support/replay-server.js';
import { ask, collect } from './helpers.js';

// Interleaved thinking: a reply whose blocks are thinking, text, thinking, tool_use. Synthetic
// bodies in the documented Messages API wire format (as in thinking.test.ts).

const MODEL = 'claude-sonnet-4-5-20250929';
const SIG_A = 'EqQBCkgIBRABGAIiQL+/first/sig==';
const SIG_B = 'ErUBCkgIBRABGAIiQM+/second/sig==';

type Block = Record<string, unknown> & { type: string };
interface Body {
  thinking?: unknown;
  messages: { role: string; content: Block[] }[];
}

const BLOCKS: Block[] = [
  { type: 'thinking', thinking: 'The user wants the weather.', signature: SIG_A },
  { type: 'text', text: 'Let me check.' },
  { type: 'thinking', thinking: 'Paris it is; call the tool.', signature: SIG_B },
  { type: 'tool_use', id: 'toolu_01', name: 'get_weather', input: { city: 'Paris' } },
];

const EXPECTED_PARTS: ReasoningPart[] = [
  { type: 'thinking', provider: 'anthropic', text: 'The user wants the weather.', signature: SIG_A },
  { type: 'thinking', provider: 'anthropic', text: 'Paris it is; call the tool.', signature: SIG_B, index: 2 },
];

function usage(output: number): Record<string, number> {
  return { input_tokens: 50, output_tokens: output };
}

function toolTurnJson(): Record<string, unknown> {
  return { id: 'msg_i1', type: 'message', role: 'assistant', model: MODEL, content: BLOCKS, stop_reason: 'tool_use', stop_sequence: null, usage: usage(90) };
}

function finalTurnJson(): Record<string, unknown> {
  return { id: 'msg_i2', type: 'message', role: 'assistant', model: MODEL, content: [{ type: 'text', text: 'Sunny.' }], stop_reason: 'end_turn', stop_sequence: null, usage: usage(5) };
}

function sse(events: readonly Record<string, unknown>[]): string {
  return events.map((e) => `event: ${String(e['type'])}\ndata: ${JSON.stringify(e)}\n\n`).join('');
}

/** The same blocks streamed: each block started empty and filled by its deltas. */
function toolTurnStream(): string {
  const events: Record<string, unknown>[] = [
    { type: 'message_start', message: { id: 'msg_i1', type: 'message', role: 'assistant', model: MODEL, content: [], stop_reason: null, stop_sequence: null, usage: usage(1) } },
  ];
  BLOCKS.forEach((block, index) => {
    if (block.type === 'thinking') {
      events.push(
        { type: 'content_block_start', index, content_block: { type: 'thinking', thinking: '', signature: '' } },
        { type: 'content_block_delta', index, delta: { type: 'thinking_delta', thinking: block['thinking'] } },
        { type: 'content_block_delta', index, delta: { type: 'signature_delta', signature: block['signature'] } },
      );
    } else if (block.type === 'text') {
      events.push(
        { type: 'content_block_start', index, content_block: { type: 'text', text: '' } },
        { type: 'content_block_delta', index, delta: { type: 'text_delta', text: block['text'] } },
      );
    } else {
      events.push(
        { type: 'content_block_start', index, content_block: { type: 'tool_use', id: block['id'], name: block['name'], input: {} } },
        { type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: JSON.stringify(block['input']) } },
      );
    }
    events.push({ type: 'content_block_stop', index });
  });
  events.push({ type: 'message_delta', delta: { stop_reason: 'tool_use', stop_sequence: null }, usage: { output_tokens: 90 } }, { type: 'message_stop' });
  return sse(events);
}

function finalTurnStream(): string {
  return sse([
    { type: 'message_start', message: { id: 'msg_i2', type: 'message', role: 'assistant', model: MODEL, content: [], stop_reason: null, stop_sequence: null, usage: usage(1) } },
    { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
    { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Sunny.' } },
    { type: 'content_block_stop', index: 0 },
    { type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 5 } },
    { type: 'message_stop' },
  ]);
}

const reasoningParts = (parts: readonly StreamPart[]): ReasoningPart[] => parts.flatMap((p) => (p.type === 'reasoning-part' ? [p.part] : []));

describe('Anthropic interleaved thinking: block order kept', () => {
  let server: ReplayServer;
  // The recorded model is one the SDK now calls deprecated: its notice on every call is expected.
  let deprecations: ReturnType<typeof captureConsoleWarnings> | undefined;
  before(async () => {
    deprecations = captureConsoleWarnings(SDK_MODEL_DEPRECATION);
    server = await startReplayServer();
  });
  after(async () => {
    deprecations?.restore();
    await server.close();
  });

  const providerFor = () => new AnthropicProvider({ apiKey: 'test-key', baseURL: server.url, thinking: { budgetTokens: 1024 } });

  test('complete and stream: a thinking block after text carries its position in the reply; a leading one none', async () => {
    server.enqueue(jsonResponse(toolTurnJson()), sseResponse(toolTurnStream(), 9));
    const response = await providerFor().complete(ask('Weather in Paris?', { model: MODEL }));
    assert.deepEqual(response.message.reasoningParts, EXPECTED_PARTS);
    assert.equal(response.message.content, 'Let me check.');
    const parts = await collect(providerFor().stream(ask('Weather in Paris?', { model: MODEL })));
    assert.deepEqual(reasoningParts(parts), EXPECTED_PARTS);
  });

  for (const streaming of [false, true]) {
    test(`Agent round trip (${streaming ? 'streamed' : 'complete'}): turn 2 sends thinking, text, thinking, tool_use in that order, byte for byte`, async () => {
      if (streaming) server.enqueue(sseResponse(toolTurnStream(), 7), sseResponse(finalTurnStream(), 7));
      else server.enqueue(jsonResponse(toolTurnJson()), jsonResponse(finalTurnJson()));
      const first = server.requests.length;
      const agent = new Agent({ provider: providerFor(), model: MODEL, tools: [weatherTool()], runtime: testRuntime() });
      const result = streaming ? await agent.stream('Weather in Paris?').result : await agent.run('Weather in Paris?');
      assert.equal(result.content, 'Sunny.');
      const turn2 = server.requests[first + 1]!;
      const body = turn2.json as Body;
      assert.deepEqual(body.thinking, { type: 'enabled', budget_tokens: 1024 });
      assert.deepEqual(body.messages[1], { role: 'assistant', content: BLOCKS });
      assert.ok(turn2.text.includes(`"signature":${JSON.stringify(SIG_B)}`));
    });
  }

  test('request: positioned parts go after the text and tool_use blocks that preceded them; parts without a position lead', () => {
    const message: Message = {
      role: 'assistant',
      content: 'Checking both.',
      toolCalls: [
        { id: 't1', toolName: 'get_weather', parameters: { city: 'Oslo' } },
        { id: 't2', toolName: 'get_weather', parameters: { city: 'Rome' } },
      ],
      reasoningParts: [
        { type: 'thinking', provider: 'anthropic', text: 'first', signature: SIG_A },
        { type: 'signature', provider: 'gemini', signature: 'Z2VtaW5p' },
        // Reply: thinking(0), text(1), tool_use t1(2), redacted(3), unsigned thinking(4), thinking(5), tool_use t2(6).
        { type: 'redacted', provider: 'anthropic', data: 'ZW5j', index: 3 },
        { type: 'thinking', provider: 'anthropic', text: 'cut', index: 4 },
        { type: 'thinking', provider: 'anthropic', text: 'second', signature: SIG_B, index: 5 },
      ],
    };
    assert.deepEqual(toAnthropicMessages([message]).messages[0]!.content, [
      { type: 'thinking', thinking: 'first', signature: SIG_A },
      { type: 'text', text: 'Checking both.' },
      { type: 'tool_use', id: 't1', name: 'get_weather', input: { city: 'Oslo' } },
      { type: 'redacted_thinking', data: 'ZW5j' },
      { type: 'thinking', thinking: 'second', signature: SIG_B },
      { type: 'tool_use', id: 't2', name: 'get_weather', input: { city: 'Rome' } },
    ]);
    // A position past the blocks the message still has: the part goes after all of them.
    const short: Message = { role: 'assistant', content: 'Hi', reasoningParts: [{ type: 'thinking', provider: 'anthropic', text: 'late', signature: SIG_B, index: 7 }] };
    assert.deepEqual(toAnthropicMessages([short]).messages[0]!.content, [
      { type: 'text', text: 'Hi' },
      { type: 'thinking', thinking: 'late', signature: SIG_B },
    ]);
  });
});
