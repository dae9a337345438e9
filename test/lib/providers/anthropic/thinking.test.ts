import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { z } from 'zod';
import { Agent } from '../../../../lib/agent/agent.js';
import { ProviderConfigurationError } from '../../../../lib/core/errors/provider-configuration-error.js';
import type { Message } from '../../../../lib/core/message.js';
import { AnthropicProvider, toAnthropicMessages, toAnthropicParams } from '../../../../lib/providers/anthropic/index.js';
import { tool } from '../../../../lib/tools/tool.js';
import { testRuntime } from '../../../support/agent-harness.js';
import { fixture, jsonResponse, sseResponse, startReplayServer, type ReplayServer } from '../../../support/replay-server.js';
import { ask, collect, reasoningOf, textOf } from './helpers.js';
import { EXPECTED_PARTS, finalTurnJson, finalTurnStream, messageStart, MODEL, REDACTED, reasoningPartsOf as reasoningParts, SIGNATURE, sse, toolTurnJson, toolTurnStream } from './thinking-turns.js';

// Synthetic bodies follow the documented wire format (field names as in @anthropic-ai/sdk's
// ThinkingBlock, RedactedThinkingBlock, ThinkingDelta and SignatureDelta types); the recorded
// thinking stream (simonw-llm) is the only real recording with a thinking block.


type Block = Record<string, unknown> & { type: string };
interface Turn {
  role: string;
  content: string | Block[];
}
interface Body {
  model: string;
  max_tokens: number;
  temperature?: number;
  thinking?: unknown;
  messages: Turn[];
}

function providerFor(server: ReplayServer, thinking: ConstructorParameters<typeof AnthropicProvider>[0] = {}): AnthropicProvider {
  return new AnthropicProvider({ apiKey: 'test-key', baseURL: server.url, ...thinking });
}

function weather(calls: string[] = []) {
  return tool({
    name: 'get_weather',
    description: 'Weather of a city',
    parameters: z.object({ city: z.string() }),
    execute: ({ city }) => {
      calls.push(city);
      return `sunny in ${city}`;
    },
  });
}

describe('Anthropic extended thinking', () => {
  let server: ReplayServer;
  before(async () => (server = await startReplayServer()));
  after(async () => server.close());

  test('recorded thinking stream (simonw-llm): one reasoning-part with the thinking text and the exact signature', async () => {
    const body = fixture('anthropic/messages.thinking.stream.simonw-llm.sse');
    server.enqueue(sseResponse(body, 7));
    const parts = await collect(providerFor(server).stream(ask('Two names for a pet pelican, be brief')));
    const signature = /"signature_delta","signature":"([^"]+)"/.exec(body.toString('utf8'))![1]!;
    const reasoning = reasoningOf(parts);
    assert.deepEqual(reasoningParts(parts), [{ type: 'thinking', provider: 'anthropic', text: reasoning, signature }]);
    // The block is complete before the answer starts, and is not answer text.
    const at = parts.findIndex((p) => p.type === 'reasoning-part');
    assert.ok(at < parts.findIndex((p) => p.type === 'text-delta'));
    assert.ok(!textOf(parts).includes(signature));
  });

  test('stream: thinking (split text and signature) and redacted_thinking blocks become reasoning-parts at their stop', async () => {
    server.enqueue(sseResponse(toolTurnStream(), 11));
    const parts = await collect(providerFor(server).stream(ask('Weather in Paris?')));
    assert.deepEqual(reasoningParts(parts), EXPECTED_PARTS);
    assert.equal(reasoningOf(parts), 'The user wants the weather. I will call get_weather.');
    assert.equal(textOf(parts), '');
    assert.deepEqual(
      parts.map((p) => p.type),
      ['reasoning-delta', 'reasoning-delta', 'reasoning-part', 'reasoning-part', 'tool-call', 'usage', 'finish'],
    );
  });

  test('stream: a signature_delta outside a thinking block is a broken stream', async () => {
    const body = sse([
      messageStart('msg_t1'),
      { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'signature_delta', signature: 'x' } },
    ]);
    server.enqueue(sseResponse(body));
    await assert.rejects(collect(providerFor(server).stream(ask('hi'))), /signature_delta for block 0/);
  });

  test('complete: thinking text out of the answer, thinking + redacted blocks kept in order on the message', async () => {
    server.enqueue(jsonResponse(toolTurnJson()));
    const response = await providerFor(server).complete(ask('Weather in Paris?'));
    assert.equal(response.message.content, 'Let me check.');
    assert.equal(response.reasoning, 'The user wants the weather. I will call get_weather.');
    assert.deepEqual(response.message.reasoningParts, EXPECTED_PARTS);
    assert.deepEqual(response.message.toolCalls, [{ id: 'toolu_01', toolName: 'get_weather', parameters: { city: 'Paris' } }]);
    assert.equal(response.finishReason, 'tool-calls');
  });

  test('request: thinking config sent, temperature left out, max_tokens raised above the budget only when needed', async () => {
    server.enqueue(jsonResponse(finalTurnJson()), jsonResponse(finalTurnJson()), jsonResponse(finalTurnJson()));
    const provider = providerFor(server, { thinking: { budgetTokens: 2048 } });
    const first = server.requests.length;
    await provider.complete(ask('hi', { temperature: 0, maxTokens: 1000 }));
    await provider.complete(ask('hi', { temperature: 0.5, maxTokens: 8000 }));
    await providerFor(server, { thinking: 'adaptive' }).complete(ask('hi', { temperature: 0, maxTokens: 1000 }));
    const [low, high, adaptive] = server.requests.slice(first).map((r) => r.json as Body);
    assert.deepEqual(low!.thinking, { type: 'enabled', budget_tokens: 2048 });
    assert.equal(low!.max_tokens, 3048, 'budget + the max_tokens asked for');
    assert.ok(!('temperature' in low!));
    assert.equal(high!.max_tokens, 8000, 'already above the budget: unchanged');
    assert.ok(!('temperature' in high!));
    assert.deepEqual(adaptive!.thinking, { type: 'adaptive' });
    assert.equal(adaptive!.max_tokens, 1000);
    assert.ok(!('temperature' in adaptive!));
  });

  test('request without thinking: no thinking config, temperature sent as before', () => {
    const params = toAnthropicParams(ask('hi', { temperature: 0, maxTokens: 100 }), 4096);
    assert.equal(params.temperature, 0);
    assert.equal(params.max_tokens, 100);
    assert.ok(!('thinking' in params));
  });

  test('a budget below 1024 or not an integer is a ProviderConfigurationError', () => {
    for (const budgetTokens of [0, 500, 1023, 2048.5, Number.NaN]) {
      assert.throws(
        () => new AnthropicProvider({ apiKey: 'k', thinking: { budgetTokens } }),
        (e: unknown) => ProviderConfigurationError.isInstance(e) && /budgetTokens must be an integer of at least 1024/.test(e.message),
      );
    }
    assert.doesNotThrow(() => new AnthropicProvider({ apiKey: 'k', thinking: { budgetTokens: 1024 } }));
  });

  test('reasoning parts lead the assistant turn; other providers\' parts and unsigned thinking are never sent', () => {
    const assistant: Message = {
      role: 'assistant',
      content: 'Let me check.',
      toolCalls: [{ id: 'toolu_01', toolName: 'get_weather', parameters: { city: 'Paris' } }],
      reasoningParts: [
        { type: 'signature', provider: 'gemini', signature: 'Z2VtaW5p' },
        { type: 'thinking', provider: 'openai', text: 'not mine', signature: 'sig-openai' },
        ...EXPECTED_PARTS,
        { type: 'thinking', provider: 'anthropic', text: 'cut before its signature' },
      ],
    };
    const { messages } = toAnthropicMessages([{ role: 'user', content: 'Weather in Paris?' }, assistant, { role: 'tool', content: 'sunny', toolCallId: 'toolu_01', toolName: 'get_weather' }]);
    assert.deepEqual(messages[1], {
      role: 'assistant',
      content: [
        { type: 'thinking', thinking: 'The user wants the weather. I will call get_weather.', signature: SIGNATURE },
        { type: 'redacted_thinking', data: REDACTED },
        { type: 'text', text: 'Let me check.' },
        { type: 'tool_use', id: 'toolu_01', name: 'get_weather', input: { city: 'Paris' } },
      ],
    });
    // Only another provider's parts: the turn is sent as if there were none.
    const foreign: Message = { role: 'assistant', content: 'Hi', reasoningParts: [{ type: 'thinking', provider: 'gemini', text: 't', signature: 's' }] };
    assert.deepEqual(toAnthropicMessages([foreign]).messages, [{ role: 'assistant', content: [{ type: 'text', text: 'Hi' }] }]);
  });

  for (const streaming of [false, true]) {
    test(`Agent tool round trip with thinking (${streaming ? 'streamed' : 'complete'}): turn 2 sends the blocks first, byte for byte`, async () => {
      if (streaming) server.enqueue(sseResponse(toolTurnStream(), 5), sseResponse(finalTurnStream(), 5));
      else server.enqueue(jsonResponse(toolTurnJson()), jsonResponse(finalTurnJson()));
      const first = server.requests.length;
      const calls: string[] = [];
      const agent = new Agent({ provider: providerFor(server, { thinking: { budgetTokens: 1024 } }), model: MODEL, tools: [weather(calls)], runtime: testRuntime() });
      const result = streaming ? await agent.stream('Weather in Paris?').result : await agent.run('Weather in Paris?');
      assert.equal(result.content, 'It is sunny in Paris.');
      assert.deepEqual(calls, ['Paris']);
      const sent = server.requests.slice(first);
      assert.equal(sent.length, 2);
      for (const request of sent) {
        const body = request.json as Body;
        assert.deepEqual(body.thinking, { type: 'enabled', budget_tokens: 1024 });
        assert.ok(!('temperature' in body), 'the agent default temperature (0) is not sent with thinking');
        assert.equal(body.max_tokens, 1000 + 1024);
      }
      const turn2 = sent[1]!.json as Body;
      assert.deepEqual(turn2.messages.map((m) => m.role), ['user', 'assistant', 'user']);
      const blocks = turn2.messages[1]!.content as Block[];
      assert.deepEqual(blocks.slice(0, 2), [
        { type: 'thinking', thinking: 'The user wants the weather. I will call get_weather.', signature: SIGNATURE },
        { type: 'redacted_thinking', data: REDACTED },
      ]);
      assert.deepEqual(blocks.at(-1), { type: 'tool_use', id: 'toolu_01', name: 'get_weather', input: { city: 'Paris' } });
      // Byte for byte on the wire, not only JSON-equal.
      assert.ok(sent[1]!.text.includes(`"signature":${JSON.stringify(SIGNATURE)}`));
      assert.ok(sent[1]!.text.includes(`"data":${JSON.stringify(REDACTED)}`));
      const toolTurn = agent.history.find((m) => m.toolCalls !== undefined);
      assert.deepEqual(toolTurn?.reasoningParts, EXPECTED_PARTS);
    });
  }
});
