import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Agent } from '../../../lib/agent/agent.js';
import { ProviderError } from '../../../lib/core/errors/provider-error.js';
import { assistantMessage } from '../../../lib/core/message.js';
import type { ReasoningPart } from '../../../lib/core/reasoning-part.js';
import type { Provider, ProviderRequest, ProviderResponse, StreamPart } from '../../../lib/providers/spec.js';
import { testRuntime, weatherTool } from '../../support/agent-harness.js';

const THINKING: ReasoningPart = { type: 'thinking', provider: 'probe', text: 'I should look it up.', signature: 'c2lnLzE+Kw==' };
const REDACTED: ReasoningPart = { type: 'redacted', provider: 'probe', data: 'ZW5jcnlwdGVk' };
const FINAL: ReasoningPart = { type: 'signature', provider: 'probe', signature: 'ZmluYWw=' };

/** One scripted reply: its parts as a stream, or assembled for `complete`. */
interface Reply {
  text: string;
  parts: ReasoningPart[];
  call?: boolean;
  /** Stream only: throw a retryable error after the reasoning parts (before any output). */
  failAfterParts?: boolean;
}

/** A provider emitting reasoning parts, recording the messages of every request. */
class ReasoningProvider implements Provider {
  readonly name = 'probe';
  readonly defaultModel = 'probe-1';
  readonly capabilities = { tools: true, streaming: true, structuredOutput: false, vision: false, embeddings: false };
  readonly requests: ProviderRequest[] = [];
  readonly #replies: Reply[];

  constructor(replies: Reply[]) {
    this.#replies = replies;
  }

  #next(request: ProviderRequest): Reply {
    const { signal: _signal, onNotice: _onNotice, ...rest } = request;
    this.requests.push(structuredClone(rest));
    const reply = this.#replies.shift();
    if (!reply) throw new Error('no reply scripted');
    return reply;
  }

  async complete(request: ProviderRequest): Promise<ProviderResponse> {
    const reply = this.#next(request);
    const calls = reply.call ? [{ id: 'call_1', toolName: 'get_weather', parameters: { city: 'Rome' } }] : [];
    return {
      message: assistantMessage(reply.text, calls, reply.parts),
      reasoning: 'thinking text',
      usage: { promptTokens: 10, completionTokens: 5 },
      finishReason: reply.call ? 'tool-calls' : 'stop',
    };
  }

  async *stream(request: ProviderRequest): AsyncGenerator<StreamPart> {
    const reply = this.#next(request);
    // A failing attempt sends only an opaque block (a redacted one: no readable text, no output).
    if (!reply.failAfterParts) yield { type: 'reasoning-delta', text: 'thinking text' };
    for (const part of reply.parts) yield { type: 'reasoning-part', part };
    if (reply.failAfterParts) throw new ProviderError('overloaded', { provider: 'probe', status: 529 });
    if (reply.text) yield { type: 'text-delta', text: reply.text };
    if (reply.call) yield { type: 'tool-call', toolCall: { id: 'call_1', toolName: 'get_weather', parameters: { city: 'Rome' } } };
    yield { type: 'usage', usage: { promptTokens: 10, completionTokens: 5 } };
    yield { type: 'finish', finishReason: reply.call ? 'tool-calls' : 'stop' };
  }
}

const script = (): Reply[] => [
  { text: 'Checking.', parts: [THINKING, REDACTED], call: true },
  { text: 'Sunny in Rome.', parts: [FINAL] },
];

describe('agent: provider reasoning parts', () => {
  for (const streaming of [false, true]) {
    test(`${streaming ? 'stream' : 'run'}: parts stay on the assistant messages, are sent back, and end up in the history`, async () => {
      const provider = new ReasoningProvider(script());
      const agent = new Agent({ provider, tools: [weatherTool()], runtime: testRuntime() });
      const result = streaming ? await agent.stream('Weather in Rome?').result : await agent.run('Weather in Rome?');
      assert.equal(result.content, 'Sunny in Rome.');
      assert.deepEqual(result.message.reasoningParts, [FINAL]);
      // The second request carries the first reply with its parts, in order.
      const sent = provider.requests[1]!.messages.find((m) => m.role === 'assistant');
      assert.deepEqual(sent?.reasoningParts, [THINKING, REDACTED]);
      assert.deepEqual(sent?.toolCalls?.map((c) => c.toolName), ['get_weather']);
      assert.equal(sent?.content, 'Checking.');
      // The history holds both replies with their parts (JSON-serialisable as they are).
      const assistants = agent.history.filter((m) => m.role === 'assistant');
      assert.deepEqual(assistants.map((m) => m.reasoningParts), [[THINKING, REDACTED], [FINAL]]);
      assert.deepEqual(JSON.parse(JSON.stringify(agent.history)), agent.history);
      // Reasoning text stays out of the answer.
      assert.ok(!result.content.includes('thinking text'));
    });
  }

  test('a stream that failed after a reasoning part only (no output) is retried, and the failed attempt\'s parts are dropped', async () => {
    const provider = new ReasoningProvider([{ text: '', parts: [REDACTED], failAfterParts: true }, { text: 'Hello.', parts: [THINKING] }]);
    const agent = new Agent({ provider, runtime: testRuntime() });
    const result = await agent.stream('hi').result;
    assert.equal(provider.requests.length, 2);
    assert.equal(result.content, 'Hello.');
    assert.deepEqual(result.message.reasoningParts, [THINKING]);
  });

  test('replies without parts leave the field out', async () => {
    const provider = new ReasoningProvider([{ text: 'Hello.', parts: [] }]);
    const agent = new Agent({ provider, runtime: testRuntime() });
    const result = await agent.stream('hi').result;
    assert.ok(!('reasoningParts' in result.message));
  });
});
