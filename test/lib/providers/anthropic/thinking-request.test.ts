import assert from 'node:assert/strict';
import type { MessageParam } from '@anthropic-ai/sdk/resources/messages/messages';
import { after, before, describe, test } from 'node:test';
import { Agent } from '../../../../lib/agent/agent.js';
import { ProviderConfigurationError } from '../../../../lib/core/errors/provider-configuration-error.js';
import { ProviderError } from '../../../../lib/core/errors/provider-error.js';
import type { Message } from '../../../../lib/core/message.js';
import { AnthropicProvider, toAnthropicParams, type AnthropicThinking } from '../../../../lib/providers/anthropic/index.js';
import { openToolLoopLacksThinking } from '../../../../lib/providers/anthropic/thinking.js';
import { FallbackProvider } from '../../../../lib/providers/fallback.js';
import { ScriptedProvider } from '../../../../lib/providers/scripted.js';
import type { ProviderRequest, ProviderToolSpec } from '../../../../lib/providers/spec.js';
import { testRuntime, weatherTool } from '../../../support/agent-harness.js';
import { jsonResponse, sseResponse, startReplayServer, type ReplayServer } from '../../../support/replay-server.js';
import { collect } from './helpers.js';
import { finalTurnJson, finalTurnStream as finalTurnStreamOf, MODEL, SIGNATURE } from './thinking-turns.js';

const finalTurnStream = (): string => finalTurnStreamOf(120);

// Replies are synthetic bodies in the documented Messages API wire format (as in thinking.test.ts).

const CALL = { id: 'toolu_01', toolName: 'get_weather', parameters: { city: 'Paris' } };
const TOOLS: ProviderToolSpec[] = [{ name: 'get_weather', description: 'Weather of a city', parameters: { type: 'object', properties: { city: { type: 'string' } } } }];

interface Body {
  max_tokens: number;
  temperature?: number;
  thinking?: unknown;
  tool_choice?: unknown;
  messages: { role: string; content: { type: string }[] }[];
}

/** A tool loop left open: the question, the assistant turn with the call, the result. */
function openLoop(assistant: Omit<Message, 'role'>): Message[] {
  return [
    { role: 'user', content: 'Weather in Paris?' },
    { role: 'assistant', ...assistant },
    { role: 'tool', content: 'sunny', toolCallId: 'toolu_01', toolName: 'get_weather' },
  ];
}

const signedThinking = { type: 'thinking', provider: 'anthropic', text: 'I will call get_weather.', signature: SIGNATURE } as const;
const request = (messages: Message[], extra: Partial<ProviderRequest> = {}): ProviderRequest => ({ model: MODEL, messages, tools: TOOLS, temperature: 0.2, maxTokens: 1000, ...extra });
const params = (messages: Message[], thinking: AnthropicThinking = { budgetTokens: 2048 }) => toAnthropicParams(request(messages), 4096, thinking);

describe('Anthropic thinking: what each request sends', () => {
  let server: ReplayServer;
  before(async () => (server = await startReplayServer()));
  after(async () => server.close());

  const providerFor = (thinking: AnthropicThinking) => new AnthropicProvider({ apiKey: 'test-key', baseURL: server.url, thinking });

  describe('an open tool loop that started without thinking', () => {
    test('on the wire: no thinking, no raised max_tokens (temperature sent) when the loop\'s assistant turn has no thinking block; thinking when it leads with one', async () => {
      server.enqueue(jsonResponse(finalTurnJson()), jsonResponse(finalTurnJson()), jsonResponse(finalTurnJson()));
      const first = server.requests.length;
      const provider = providerFor({ budgetTokens: 2048 });
      // Recorded without thinking, then after a fallback from another provider (its parts are never sent).
      await provider.complete(request(openLoop({ content: 'Let me check.', toolCalls: [CALL] })));
      await provider.complete(request(openLoop({ content: '', toolCalls: [CALL], reasoningParts: [{ type: 'thinking', provider: 'openai', text: 'x', signature: 'sig' }] })));
      await provider.complete(request(openLoop({ content: 'Let me check.', toolCalls: [CALL], reasoningParts: [signedThinking] })));
      const [plain, foreign, normal] = server.requests.slice(first).map((r) => r.json as Body);
      for (const body of [plain!, foreign!]) {
        assert.ok(!('thinking' in body), 'thinking left out');
        assert.equal(body.max_tokens, 1000, 'max_tokens as asked, not raised for a budget');
        assert.equal(body.temperature, 0.2, 'temperature sent, as without thinking');
        assert.equal(body.messages[1]!.content[0]!.type, body === plain ? 'text' : 'tool_use');
      }
      assert.deepEqual(normal!.thinking, { type: 'enabled', budget_tokens: 2048 });
      assert.equal(normal!.max_tokens, 1000 + 2048);
      assert.ok(!('temperature' in normal!));
      assert.equal(normal!.messages[1]!.content[0]!.type, 'thinking');
    });

    test('stream, adaptive thinking: left out the same way', async () => {
      server.enqueue(sseResponse(finalTurnStream()));
      const first = server.requests.length;
      await collect(providerFor('adaptive').stream(request(openLoop({ content: '', toolCalls: [CALL] }))));
      const body = server.requests[first]!.json as Body;
      assert.ok(!('thinking' in body));
      assert.equal(body.temperature, 0.2);
    });

    test('Agent after a fallback: the other provider started the tool loop, Anthropic finishes it without thinking', async () => {
      server.enqueue(jsonResponse(finalTurnJson()));
      const first = server.requests.length;
      const primary = new ScriptedProvider({
        name: 'primary',
        replies: [{ toolCalls: [{ id: 'toolu_01', toolName: 'get_weather', parameters: { city: 'Paris' } }] }, { error: new ProviderError('overloaded', { provider: 'primary', status: 529 }) }],
      });
      const fallback = new FallbackProvider([primary, { provider: providerFor({ budgetTokens: 1024 }), model: MODEL }]);
      const calls: string[] = [];
      const agent = new Agent({ provider: fallback, tools: [weatherTool(calls)], runtime: testRuntime() });
      const result = await agent.run('Weather in Paris?');
      assert.equal(result.content, 'It is sunny in Paris.');
      assert.deepEqual(calls, ['Paris']);
      const sent = server.requests.slice(first);
      assert.equal(sent.length, 1);
      const body = sent[0]!.json as Body;
      assert.ok(!('thinking' in body), 'the API would answer 400 with thinking on');
      assert.deepEqual(body.messages.map((m) => m.role), ['user', 'assistant', 'user']);
      assert.equal(body.messages[1]!.content[0]!.type, 'tool_use');
    });

    test('thinking stays on when the loop\'s first assistant turn leads with a signed or redacted block, or when no loop is open', () => {
      // A later step of the loop without thinking (thinking only at the start of the turn) is fine.
      const multiStep: Message[] = [
        ...openLoop({ content: '', toolCalls: [CALL], reasoningParts: [{ type: 'redacted', provider: 'anthropic', data: 'ZW5j' }] }),
        { role: 'assistant', content: 'One more.', toolCalls: [{ ...CALL, id: 'toolu_02' }] },
        { role: 'tool', content: 'warm', toolCallId: 'toolu_02', toolName: 'get_weather' },
      ];
      assert.deepEqual(params(multiStep).thinking, { type: 'enabled', budget_tokens: 2048 });
      // The loop that started without thinking is closed: a new user turn gets thinking again.
      const closed: Message[] = [...openLoop({ content: '', toolCalls: [CALL] }), { role: 'assistant', content: 'Sunny.' }, { role: 'user', content: 'And Rome?' }];
      assert.deepEqual(params(closed, 'adaptive').thinking, { type: 'adaptive' });
      assert.deepEqual(params([{ role: 'user', content: 'hi' }]).thinking, { type: 'enabled', budget_tokens: 2048 });
    });

    test('a thinking block without a signature (cut stream) does not count: the loop started without thinking', () => {
      const unsigned = openLoop({ content: '', toolCalls: [CALL], reasoningParts: [{ type: 'thinking', provider: 'anthropic', text: 'cut' }] });
      const built = params(unsigned);
      assert.ok(!('thinking' in built));
      assert.equal(built.max_tokens, 1000);
    });

    test('a user turn that holds tool results and other content: the assistant turns before and after it must both lead with thinking', () => {
      const thinkingTurn: MessageParam = { role: 'assistant', content: [{ type: 'thinking', thinking: 't', signature: 's' }, { type: 'tool_use', id: 'a', name: 'f', input: {} }] };
      const plainTurn: MessageParam = { role: 'assistant', content: [{ type: 'tool_use', id: 'b', name: 'f', input: {} }] };
      const results = (id: string, text?: string): MessageParam => ({
        role: 'user',
        content: [{ type: 'tool_result', tool_use_id: id, content: 'r' }, ...(text ? [{ type: 'text' as const, text }] : [])],
      });
      const question: MessageParam = { role: 'user', content: [{ type: 'text', text: 'q' }] };
      assert.equal(openToolLoopLacksThinking([question, thinkingTurn, results('a'), plainTurn, results('b')]), false);
      assert.equal(openToolLoopLacksThinking([question, thinkingTurn, results('a', 'hurry'), plainTurn, results('b')]), true);
      assert.equal(openToolLoopLacksThinking([question, plainTurn, results('b')]), true);
      assert.equal(openToolLoopLacksThinking([question, plainTurn]), false, 'no tool results last: no open loop');
    });
  });

  describe('forced tool choice', () => {
    for (const toolChoice of ['required', { type: 'tool', toolName: 'get_weather' }] as const) {
      test(`budget thinking with toolChoice ${JSON.stringify(toolChoice)}: a ProviderConfigurationError naming the provider, nothing sent`, async () => {
        const provider = providerFor({ budgetTokens: 2048 });
        const first = server.requests.length;
        const ask = request([{ role: 'user', content: 'Weather in Paris?' }], { toolChoice });
        const isConfigError = (e: unknown) => ProviderConfigurationError.isInstance(e) && e.provider === 'anthropic' && /toolChoice .* cannot be combined with thinking/.test(e.message);
        await assert.rejects(provider.complete(ask), isConfigError);
        await assert.rejects(collect(provider.stream(ask)), isConfigError);
        assert.equal(server.requests.length, first);
      });
    }

    test('adaptive thinking accepts forced tool choice; budget thinking accepts auto and none, and a choice without tools', async () => {
      server.enqueue(jsonResponse(finalTurnJson()));
      const first = server.requests.length;
      await providerFor('adaptive').complete(request([{ role: 'user', content: 'Weather?' }], { toolChoice: 'required' }));
      const body = server.requests[first]!.json as Body;
      assert.deepEqual(body.thinking, { type: 'adaptive' });
      assert.deepEqual(body.tool_choice, { type: 'any' });
      const budget = { budgetTokens: 2048 };
      assert.deepEqual(toAnthropicParams(request([{ role: 'user', content: 'x' }], { toolChoice: 'auto' }), 4096, budget).tool_choice, { type: 'auto' });
      assert.deepEqual(toAnthropicParams(request([{ role: 'user', content: 'x' }], { toolChoice: 'none' }), 4096, budget).tool_choice, { type: 'none' });
      const noTools = toAnthropicParams({ model: MODEL, messages: [{ role: 'user', content: 'x' }], toolChoice: 'required' }, 4096, budget);
      assert.ok(!('tool_choice' in noTools));
    });
  });

  describe('max_tokens raised for a budget', () => {
    const maxTokensFor = (model: string, budgetTokens: number, maxTokens: number) =>
      toAnthropicParams({ model, messages: [{ role: 'user', content: 'x' }], maxTokens }, 4096, { budgetTokens }).max_tokens;

    test('capped at the model\'s maximum output tokens from the registry; unknown models keep budget + max_tokens', async () => {
      assert.equal(maxTokensFor('claude-opus-4-1', 30_000, 8000), 32_000, 'Opus 4.1: 32k');
      assert.equal(maxTokensFor('claude-opus-4-20250514', 20_000, 8000), 28_000, 'below the cap: budget + max_tokens');
      assert.equal(maxTokensFor('claude-haiku-4-5-20251001', 60_000, 4096), 64_000, 'Haiku 4.5: 64k');
      assert.equal(maxTokensFor('claude-sonnet-4-5', 63_000, 4096), 64_000, 'Sonnet 4.5: 64k');
      assert.equal(maxTokensFor('claude-3-7-sonnet-20250219', 62_000, 4096), 64_000, '3.7 Sonnet: 64k');
      assert.equal(maxTokensFor('claude-future-9', 60_000, 4096), 64_096, 'unknown model: not capped');
      assert.equal(maxTokensFor('claude-opus-4-1', 2048, 30_000), 30_000, 'above the budget already: unchanged');
      // On the wire.
      server.enqueue(sseResponse(finalTurnStream()));
      const first = server.requests.length;
      await collect(providerFor({ budgetTokens: 30_000 }).stream({ model: 'claude-opus-4-1-20250805', messages: [{ role: 'user', content: 'x' }], maxTokens: 8000 }));
      const body = server.requests[first]!.json as Body;
      assert.equal(body.max_tokens, 32_000);
      assert.deepEqual(body.thinking, { type: 'enabled', budget_tokens: 30_000 });
    });

    test('complete() with a max_tokens the SDK refuses without a timeout (32000 > 21,333): sent with the adapter\'s timeout and answered', async () => {
      server.enqueue(jsonResponse(finalTurnJson()));
      const first = server.requests.length;
      const big = { model: 'claude-opus-4-1', messages: [{ role: 'user' as const, content: 'x' }], maxTokens: 8000 };
      const response = await providerFor({ budgetTokens: 30_000 }).complete(big);
      assert.equal(response.message.content, 'It is sunny in Paris.');
      assert.equal(server.requests.length - first, 1);
      const body = server.requests[first]!.json as Body & { stream: boolean };
      assert.equal(body.max_tokens, 32_000);
      assert.equal(body.stream, false);
      assert.deepEqual(body.thinking, { type: 'enabled', budget_tokens: 30_000 });
    });

    test('a budget that does not fit below the model\'s maximum output: a ProviderConfigurationError before sending', async () => {
      const provider = providerFor({ budgetTokens: 32_000 });
      const first = server.requests.length;
      const ask = { model: 'claude-opus-4-1', messages: [{ role: 'user' as const, content: 'x' }] };
      const isConfigError = (e: unknown) => ProviderConfigurationError.isInstance(e) && e.provider === 'anthropic' && /budgetTokens 32000 does not fit in the 32000 output tokens of claude-opus-4-1/.test(e.message);
      await assert.rejects(provider.complete(ask), isConfigError);
      await assert.rejects(collect(provider.stream(ask)), isConfigError);
      assert.throws(() => toAnthropicParams({ ...ask, model: 'claude-3-5-haiku-20241022' }, 4096, { budgetTokens: 8192 }), isConfigErrorFor('claude-3-5-haiku-20241022'));
      assert.equal(server.requests.length, first);
      assert.doesNotThrow(() => toAnthropicParams({ ...ask, model: 'claude-future-9' }, 4096, { budgetTokens: 200_000 }), 'unknown model: not checked');
      assert.doesNotThrow(() => toAnthropicParams(ask, 4096, 'adaptive'));
    });
  });
});

function isConfigErrorFor(model: string): (e: unknown) => boolean {
  return (e) => ProviderConfigurationError.isInstance(e) && e.message.includes(`output tokens of ${model}`);
}
