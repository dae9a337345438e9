import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ProviderError } from '../../../lib/core/errors/provider-error.js';
import { userMessage, type Message } from '../../../lib/core/message.js';
import type { ProviderRequest, StreamPart } from '../../../lib/providers/spec.js';
import { ScriptedProvider } from '../../../lib/test/index.js';

const request = (content = 'hi', extra: Partial<ProviderRequest> = {}): ProviderRequest => ({ model: 'm1', messages: [userMessage(content)], ...extra });

async function collect(parts: AsyncIterable<StreamPart>): Promise<StreamPart[]> {
  const out: StreamPart[] = [];
  for await (const part of parts) out.push(part);
  return out;
}

describe('ScriptedProvider', () => {
  test('defaults: name, model, all capabilities; overrides merge', () => {
    const provider = new ScriptedProvider();
    assert.equal(provider.name, 'scripted');
    assert.equal(provider.defaultModel, 'scripted-model');
    assert.deepEqual(provider.capabilities, { tools: true, streaming: true, structuredOutput: true, vision: true, embeddings: true });
    const custom = new ScriptedProvider({ name: 'fake', defaultModel: 'fake-1', capabilities: { tools: false } });
    assert.equal(custom.name, 'fake');
    assert.equal(custom.defaultModel, 'fake-1');
    assert.equal(custom.capabilities.tools, false);
    assert.equal(custom.capabilities.streaming, true);
  });

  test('complete hands out replies in order; strings are text replies', async () => {
    const provider = new ScriptedProvider({ replies: ['one', { text: 'two', reasoning: 'because', model: 'm9' }] });
    const first = await provider.complete(request());
    assert.equal(first.message.role, 'assistant');
    assert.equal(first.message.content, 'one');
    assert.equal(first.finishReason, 'stop');
    assert.equal(first.model, 'm1');
    assert.equal(first.reasoning, undefined);
    const second = await provider.complete(request());
    assert.equal(second.message.content, 'two');
    assert.equal(second.reasoning, 'because');
    assert.equal(second.model, 'm9');
    assert.equal(provider.calls, 2);
    assert.equal(provider.remaining, 0);
  });

  test('tool calls get deterministic ids call_1, call_2 … unless given; finish reason tool-calls', async () => {
    const provider = new ScriptedProvider({
      replies: [
        { toolCalls: [{ toolName: 'a', parameters: { x: 1 } }, { toolName: 'b', parameters: {}, id: 'mine', thoughtSignature: 'c2ln' }] },
        { toolCalls: [{ toolName: 'c', parameters: {} }], finishReason: 'length' },
      ],
    });
    const first = await provider.complete(request());
    assert.deepEqual(first.message.toolCalls, [
      { id: 'call_1', toolName: 'a', parameters: { x: 1 } },
      { id: 'mine', toolName: 'b', parameters: {}, thoughtSignature: 'c2ln' },
    ]);
    assert.equal(first.finishReason, 'tool-calls');
    const second = await provider.complete(request());
    assert.equal(second.message.toolCalls![0]!.id, 'call_2');
    assert.equal(second.finishReason, 'length');
  });

  test('requests are recorded as clones without signal and onNotice', async () => {
    const provider = new ScriptedProvider({ replies: ['ok'] });
    const messages: Message[] = [userMessage('first')];
    const controller = new AbortController();
    await provider.complete({ model: 'm', system: 'sys', messages, signal: controller.signal, onNotice: () => undefined, temperature: 0 });
    messages.push(userMessage('mutated later'));
    messages[0]!.content = 'changed';
    const recorded = provider.requests[0]!;
    assert.deepEqual(recorded, { model: 'm', system: 'sys', messages: [{ role: 'user', content: 'first' }], temperature: 0 });
    assert.ok(!('signal' in recorded) && !('onNotice' in recorded));
  });

  test('record: false keeps no requests but still counts calls', async () => {
    const provider = new ScriptedProvider({ replies: ['a', 'b'], record: false });
    await provider.complete(request());
    await collect(provider.stream(request()));
    assert.equal(provider.requests.length, 0);
    assert.equal(provider.calls, 2);
  });

  test('running out of replies throws an error naming the request index', async () => {
    const provider = new ScriptedProvider({ replies: ['only'] });
    await provider.complete(request());
    await assert.rejects(provider.complete(request()), /no reply scripted for request index 1 \(1 reply was scripted\)/);
    await assert.rejects(new ScriptedProvider().complete(request()), /request index 0/);
  });

  test('respond() computes replies after the script is used up, with the request index', async () => {
    const seen: number[] = [];
    const provider = new ScriptedProvider({
      replies: ['scripted'],
      respond: async (req, index) => {
        seen.push(index);
        return `echo ${req.messages.at(-1)!.content}`;
      },
    });
    assert.equal((await provider.complete(request('a'))).message.content, 'scripted');
    assert.equal((await provider.complete(request('b'))).message.content, 'echo b');
    assert.equal((await provider.complete(request('c'))).message.content, 'echo c');
    assert.deepEqual(seen, [1, 2]);
  });

  test('push appends replies; reset rewinds the script and clears records; loop repeats it', async () => {
    const provider = new ScriptedProvider({ replies: ['a'] });
    provider.push('b', { text: 'c' });
    const texts = [];
    for (let i = 0; i < 3; i++) texts.push((await provider.complete(request())).message.content);
    assert.deepEqual(texts, ['a', 'b', 'c']);
    provider.reset();
    assert.equal(provider.calls, 0);
    assert.equal(provider.requests.length, 0);
    assert.equal((await provider.complete(request())).message.content, 'a');
    const looping = new ScriptedProvider({ replies: ['x', 'y'], loop: true });
    const looped = [];
    for (let i = 0; i < 5; i++) looped.push((await looping.complete(request())).message.content);
    assert.deepEqual(looped, ['x', 'y', 'x', 'y', 'x']);
  });

  test('errors are thrown instead of replying', async () => {
    const error = new ProviderError('overloaded', { provider: 'scripted', status: 529 });
    const provider = new ScriptedProvider({ replies: [{ error }, { error }] });
    await assert.rejects(provider.complete(request()), (e: unknown) => e === error);
    await assert.rejects(collect(provider.stream(request())), (e: unknown) => e === error);
    assert.equal(provider.calls, 2);
  });

  test('usage: explicit per reply, provider default, else chars / 4 of request and reply', async () => {
    const provider = new ScriptedProvider({
      replies: [{ text: 'x', usage: { promptTokens: 10, completionTokens: 2 } }, 'abcdefgh'],
    });
    assert.deepEqual((await provider.complete(request())).usage, { promptTokens: 10, completionTokens: 2 });
    const estimated = await provider.complete({ model: 'm', system: 'abcd', messages: [userMessage('abcdefgh')] });
    assert.deepEqual(estimated.usage, { promptTokens: 3, completionTokens: 2, totalTokens: 5 });
    const withDefault = new ScriptedProvider({ replies: ['x'], usage: { promptTokens: 1, completionTokens: 1 } });
    assert.deepEqual((await withDefault.complete(request())).usage, { promptTokens: 1, completionTokens: 1 });
  });

  test('stream yields reasoning deltas, text deltas, tool calls, usage, then finish', async () => {
    const provider = new ScriptedProvider({
      replies: [{ text: 'Hello there', reasoning: 'thinking', toolCalls: [{ toolName: 't', parameters: { a: 1 } }], usage: { promptTokens: 5, completionTokens: 3 } }],
    });
    const parts = await collect(provider.stream(request()));
    const types = parts.map((p) => p.type);
    assert.deepEqual(types, ['reasoning-delta', 'reasoning-delta', 'text-delta', 'text-delta', 'text-delta', 'tool-call', 'usage', 'finish']);
    const text = parts.flatMap((p) => (p.type === 'text-delta' ? [p.text] : [])).join('');
    assert.equal(text, 'Hello there');
    assert.deepEqual(parts.at(-3), { type: 'tool-call', toolCall: { id: 'call_1', toolName: 't', parameters: { a: 1 } } });
    assert.deepEqual(parts.at(-2), { type: 'usage', usage: { promptTokens: 5, completionTokens: 3 } });
    assert.deepEqual(parts.at(-1), { type: 'finish', finishReason: 'tool-calls', model: 'm1' });
  });

  test('stream uses the given chunks; errorAfterChunks fails mid-stream', async () => {
    const provider = new ScriptedProvider({
      replies: [
        { chunks: ['<thi', 'nk>x</think>', 'Hi'] },
        { text: 'partial answer', errorAfterChunks: 1, error: new ProviderError('cut', { provider: 'scripted', status: 500 }) },
        { text: 'ab', errorAfterChunks: 5 },
      ],
    });
    const parts = await collect(provider.stream(request()));
    assert.deepEqual(parts.filter((p) => p.type === 'text-delta').map((p) => p.text), ['<thi', 'nk>x</think>', 'Hi']);
    const seen: StreamPart[] = [];
    await assert.rejects(async () => {
      for await (const part of provider.stream(request())) seen.push(part);
    }, /cut/);
    assert.deepEqual(seen, [{ type: 'text-delta', text: 'part' }]);
    await assert.rejects(collect(provider.stream(request())), (e: unknown) => ProviderError.isInstance(e) && /after 1 chunks/.test(e.message));
  });

  test('an abort during the delay rejects promptly with the signal reason (complete and stream)', async () => {
    const provider = new ScriptedProvider({ replies: [{ text: 'late', delayMs: 5_000 }, { text: 'late', delayMs: 5_000 }] });
    for (const run of [(r: ProviderRequest) => provider.complete(r), (r: ProviderRequest) => collect(provider.stream(r))]) {
      const controller = new AbortController();
      const started = Date.now();
      const reason = new Error('stop now');
      setTimeout(() => controller.abort(reason), 20);
      await assert.rejects(run(request('x', { signal: controller.signal })), (e: unknown) => e === reason);
      assert.ok(Date.now() - started < 1_000, 'rejected promptly');
    }
  });

  test('an already-aborted signal rejects before replying; delayMs option applies to every reply', async () => {
    const provider = new ScriptedProvider({ replies: ['a', 'b'], delayMs: 30 });
    await assert.rejects(provider.complete(request('x', { signal: AbortSignal.abort(new Error('gone')) })), /gone/);
    const started = Date.now();
    await provider.complete(request());
    assert.ok(Date.now() - started >= 25);
  });

  test('embed returns deterministic, normalised, similarity-preserving vectors', async () => {
    const provider = new ScriptedProvider({ embeddingDimensions: 32 });
    const { embeddings, usage, model } = await provider.embed({ texts: ['the cat sat', 'the cat sat', 'a cat sat down', 'quantum chromodynamics', ''] });
    assert.equal(model, 'scripted-embedding');
    assert.equal(embeddings.length, 5);
    for (const vector of embeddings) {
      assert.equal(vector.length, 32);
      assert.ok(Math.abs(Math.hypot(...vector) - 1) < 1e-9);
    }
    const dot = (a: number[], b: number[]) => a.reduce((sum, v, i) => sum + v * b[i]!, 0);
    const [a, b, c, d] = embeddings as [number[], number[], number[], number[]];
    assert.deepEqual(a, b);
    assert.ok(dot(a, c) > dot(a, d), 'texts sharing words are closer');
    assert.ok(usage.tokens > 0);
    assert.equal((await provider.embed({ texts: ['x'], dimensions: 8, signal: new AbortController().signal, onNotice: () => {} })).embeddings[0]!.length, 8);
    assert.equal(provider.embedCalls, 2);
    assert.deepEqual(provider.embedRequests[1], { texts: ['x'], dimensions: 8 }, 'recorded without signal and onNotice');
  });
});
