import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Agent } from '../../../lib/agent/agent.js';
import { ProviderError } from '../../../lib/core/errors/provider-error.js';
import { ScriptedProvider } from '../../../lib/providers/scripted.js';
import type { ProviderRequest } from '../../../lib/providers/spec.js';
import { tool } from '../../../lib/tools/tool.js';
import type { Tool } from '../../../lib/tools/types.js';
import { z } from 'zod';
import { eventLog, testRuntime, weatherTool } from '../../support/agent-harness.js';

function mapCache() {
  const map = new Map<string, unknown>();
  return { map, get: (k: string) => map.get(k), set: (k: string, v: unknown) => void map.set(k, v) };
}

describe('agent loop: model calls', () => {
  test('modelSelector switches models per iteration and fires model-switch', async () => {
    const provider = new ScriptedProvider({ replies: [{ toolCalls: [{ toolName: 'get_weather', parameters: { city: 'Pisa' } }] }, 'done'] });
    const log = eventLog();
    const agent = new Agent({
      provider,
      model: 'small',
      tools: [weatherTool()],
      modelSelector: ({ iteration }) => (iteration === 1 ? 'small' : 'large'),
      observers: [log.observer],
      runtime: testRuntime(),
    });
    const result = await agent.run('go');
    assert.deepEqual(provider.requests.map((r) => r.model), ['small', 'large']);
    assert.deepEqual(log.of('model-switch').map((e) => [e.from, e.to]), [['small', 'large']]);
    assert.equal(result.model, 'large');
  });

  test('transient errors are retried with llm-retry before the sleep', async () => {
    const runtime = testRuntime();
    const provider = new ScriptedProvider({
      replies: [{ error: new ProviderError('overloaded', { provider: 'scripted', status: 529 }) }, { error: new ProviderError('rate', { provider: 'scripted', status: 429, retryAfterSeconds: 2 }) }, 'ok'],
    });
    const log = eventLog();
    const agent = new Agent({ provider, observers: [log.observer], runtime });
    const result = await agent.run('go');
    assert.equal(result.content, 'ok');
    assert.deepEqual(log.of('llm-retry').map((e) => e.attempt), [1, 2]);
    assert.equal(runtime.sleeps.length, 2);
    assert.equal(runtime.sleeps[1], 2000, 'Retry-After honoured');
  });

  test('maxRetries 0 disables retries', async () => {
    const provider = new ScriptedProvider({ replies: [{ error: new ProviderError('busy', { provider: 'scripted', status: 503 }) }, 'ok'] });
    const agent = new Agent({ provider, retry: { maxRetries: 0 }, runtime: testRuntime() });
    await assert.rejects(agent.run('go'), (e: unknown) => ProviderError.isInstance(e) && e.status === 503);
  });

  test('streamed runs emit text deltas, strip <think> across chunks, and report usage', async () => {
    const provider = new ScriptedProvider({
      replies: [{ text: '<think>hidden</think>Hello there', chunks: ['<thi', 'nk>hid', 'den</th', 'ink>Hel', 'lo there'], usage: { promptTokens: 5, completionTokens: 3 } }],
    });
    const agent = new Agent({ provider, runtime: testRuntime() });
    const stream = agent.stream('hi');
    const deltas: string[] = [];
    const reasoning: string[] = [];
    for await (const event of stream) {
      if (event.type === 'text-delta') deltas.push(event.text);
      if (event.type === 'reasoning-delta') reasoning.push(event.text);
    }
    const result = await stream.result;
    assert.equal(deltas.join(''), 'Hello there');
    assert.equal(reasoning.join(''), 'hidden');
    assert.equal(result.content, 'Hello there');
    assert.equal(result.usage.totalTokens, 8);
    assert.ok(deltas.length > 1, 'really streamed');
  });

  test('textStream yields only answer text; tool calls work in streams', async () => {
    const provider = new ScriptedProvider({ replies: [{ toolCalls: [{ toolName: 'get_weather', parameters: { city: 'Bonn' } }] }, 'Bonn is warm'] });
    const agent = new Agent({ provider, tools: [weatherTool()], runtime: testRuntime() });
    const stream = agent.stream('weather');
    let text = '';
    for await (const t of stream.textStream) text += t;
    assert.equal(text, 'Bonn is warm');
    assert.equal((await stream.result).toolName, 'get_weather');
  });

  test('a stream is never retried once it produced output', async () => {
    const provider = new ScriptedProvider({ replies: [{ text: 'partial answer', errorAfterChunks: 1, error: new ProviderError('cut', { provider: 'scripted', status: 500 }) }, 'second try'] });
    const agent = new Agent({ provider, runtime: testRuntime() });
    const stream = agent.stream('x');
    await assert.rejects(stream.result, (e: unknown) => ProviderError.isInstance(e));
    assert.equal(provider.requests.length, 1);
  });

  test('breaking out of a stream aborts the run', async () => {
    const provider = new ScriptedProvider({ replies: [{ toolCalls: [{ toolName: 'get_weather', parameters: { city: 'Graz' } }] }, { text: 'late', delayMs: 2_000 }] });
    const agent = new Agent({ provider, tools: [weatherTool()], runtime: testRuntime() });
    const stream = agent.stream('x');
    for await (const event of stream) if (event.type === 'tool-end') break;
    const result = await stream.result;
    assert.equal(result.status, 'cancelled');
  });

  test('response cache: a hit skips the provider, records cache_hit, still counts tokens', async () => {
    const cache = mapCache();
    const provider = new ScriptedProvider({ replies: [{ text: 'cached answer', usage: { promptTokens: 7, completionTokens: 3 } }] });
    const log = eventLog();
    const agent = new Agent({ provider, cache, observers: [log.observer], runtime: testRuntime() });
    await agent.ask('same');
    const second = await agent.ask('same');
    assert.equal(provider.requests.length, 1);
    assert.equal(second.content, 'cached answer');
    assert.equal(second.usage.totalTokens, 10);
    assert.equal(log.of('cache-hit').length, 1);
    assert.ok(second.trace.steps.some((s) => s.type === 'cache_hit'));
  });

  test('the stream bypasses the response cache', async () => {
    const cache = mapCache();
    const provider = new ScriptedProvider({ replies: ['a', 'b'] });
    const agent = new Agent({ provider, cache, runtime: testRuntime() });
    await agent.ask('q');
    const stream = agent.stream('q');
    for await (const _ of stream) void _;
    assert.equal(provider.requests.length, 2);
  });

  test('cacheable tools reuse results for the same arguments', async () => {
    let runs = 0;
    const lookup = tool({ name: 'lookup', description: 'Expensive lookup by key', parameters: z.object({ key: z.string() }), cacheable: true, execute: ({ key }) => `${key}:${++runs}` }) as Tool;
    const cache = mapCache();
    const provider = new ScriptedProvider({ replies: [{ toolCalls: [{ toolName: 'lookup', parameters: { key: 'k' } }] }, { toolCalls: [{ toolName: 'lookup', parameters: { key: 'k' } }] }, 'done'] });
    const log = eventLog();
    const agent = new Agent({ provider, tools: [lookup], cache, observers: [log.observer], runtime: testRuntime() });
    await agent.run('go');
    assert.equal(runs, 1);
    assert.deepEqual(log.of('tool-end').map((e) => e.cached), [false, true]);
    assert.ok([...cache.map.keys()].some((k) => /^tool_result:lookup:[0-9a-f]{64}$/.test(k)));
  });
});

test('a cached reply with tool calls records its tool selection but no llm_call step', async () => {
  const map = new Map<string, unknown>();
  const cache = { get: (k: string) => map.get(k), set: (k: string, v: unknown) => void map.set(k, v) };
  const script = () => [{ toolCalls: [{ toolName: 'get_weather', parameters: { city: 'Ghent' } }] }, 'warm'];
  const provider = new ScriptedProvider({ replies: [...script(), ...script()] });
  const agent = new Agent({ provider, tools: [weatherTool()], cache, runtime: testRuntime() });
  await agent.ask('weather in Ghent');
  const second = await agent.ask('weather in Ghent');
  assert.equal(provider.requests.length, 2, 'both LLM replies of the second run came from the cache');
  const types = second.trace.steps.map((s) => s.type);
  assert.equal(types.filter((t) => t === 'llm_call').length, 0);
  assert.equal(types.filter((t) => t === 'cache_hit').length, 2);
  assert.equal(types.filter((t) => t === 'tool_selection').length, 1);
});

test('a stream without a usage frame reports estimated, priced usage (never zero)', async () => {
  class NoUsage extends ScriptedProvider {
    override async *stream(request: ProviderRequest) {
      for await (const part of super.stream(request)) if (part.type !== 'usage') yield part;
    }
  }
  const provider = new NoUsage({ replies: ['A fairly long answer that has some tokens in it.'] });
  const agent = new Agent({ provider, model: 'gpt-4o-mini', runtime: testRuntime() });
  const stream = agent.stream('Tell me something');
  for await (const _ of stream) void _;
  const result = await stream.result;
  assert.ok(result.usage.promptTokens > 0 && result.usage.completionTokens > 0);
  assert.ok(result.usage.totalCostUsd > 0);
  const llm = result.trace.steps.find((s) => s.type === 'llm_call')!;
  assert.ok((llm.usage?.totalTokens ?? 0) > 0);
});

describe('agent loop: retry deadline', () => {
  test('retry.deadlineMs bounds a provider call that is already running', async () => {
    const provider = new ScriptedProvider({ replies: [{ text: 'too late', delayMs: 10_000 }] });
    const agent = new Agent({ provider, retry: { deadlineMs: 150 } });
    const started = Date.now();
    await assert.rejects(agent.run('x'), (error: unknown) => ProviderError.isInstance(error) && error.kind === 'timeout');
    assert.ok(Date.now() - started < 5_000, `took ${Date.now() - started} ms`);
  });
});
