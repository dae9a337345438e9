import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Agent } from '../../../lib/agent/agent.js';
import { ScriptedProvider } from '../../../lib/providers/scripted.js';
import { eventLog, testRuntime, weatherTool } from '../../support/agent-harness.js';

describe('agent loop: answer and tool round trip', () => {
  test('one-turn answer without tools', async () => {
    const provider = new ScriptedProvider({ replies: [{ text: 'Hello!', usage: { promptTokens: 10, completionTokens: 2 } }] });
    const agent = new Agent({ provider, runtime: testRuntime() });
    const result = await agent.run('Hi');
    assert.equal(result.content, 'Hello!');
    assert.equal(result.role, 'assistant');
    assert.equal(result.status, 'completed');
    assert.equal(result.iterations, 1);
    assert.equal(result.toolName, undefined);
    assert.equal(result.usage.totalTokens, 12);
    assert.equal(result.providerUsed, 'scripted');
    assert.ok(result.trace.steps.some((s) => s.type === 'llm_call'));
    assert.equal(provider.requests.length, 1);
    assert.equal(provider.requests[0]?.tools, undefined, 'no tools sent when the agent has none');
  });

  test('tool call, execution, result fed back, final answer', async () => {
    const calls: string[] = [];
    const provider = new ScriptedProvider({
      replies: [
        { text: 'Let me check the weather.', toolCalls: [{ id: 'c1', toolName: 'get_weather', parameters: { city: 'Paris' } }] },
        { text: 'It is 21°C in Paris.' },
      ],
    });
    const log = eventLog();
    const agent = new Agent({ provider, tools: [weatherTool(calls)], observers: [log.observer], runtime: testRuntime() });
    const result = await agent.run('Weather in Paris?');
    assert.deepEqual(calls, ['Paris']);
    assert.equal(result.content, 'It is 21°C in Paris.');
    assert.equal(result.iterations, 2);
    assert.equal(result.toolName, 'get_weather');
    assert.deepEqual(result.toolArgs, { city: 'Paris' });
    assert.equal(result.toolCalls.length, 1);
    assert.equal(result.reasoning, 'Let me check the weather.');
    assert.deepEqual(result.reasoningHistory, ['Let me check the weather.', '']);
    // The second request carries the assistant tool-call message and the tool result, adjacent.
    const second = provider.requests[1]!;
    const roles = second.messages.map((m) => m.role);
    assert.deepEqual(roles, ['user', 'assistant', 'tool']);
    const toolResult = second.messages[2]!;
    assert.equal(toolResult.toolCallId, 'c1');
    assert.deepEqual(JSON.parse(toolResult.content), { city: 'Paris', unit: 'c', temperature: 21 });
    assert.equal(second.tools?.[0]?.name, 'get_weather');
    // Events in order.
    const types = log.types();
    assert.equal(types[0], 'run-start');
    assert.equal(types.at(-1), 'run-end');
    assert.ok(types.indexOf('tool-start') < types.indexOf('tool-end'));
    assert.ok(types.includes('policy-decision'));
    for (const e of log.events) assert.ok(e.runId === result.runId && typeof e.timestamp === 'number');
    const toolStart = log.of('tool-start')[0]!;
    assert.equal(toolStart.callId, 'c1');
    // Trace steps.
    const types2 = result.trace.steps.map((s) => s.type);
    assert.ok(types2.includes('tool_selection'));
    assert.ok(types2.includes('tool_execution'));
    assert.equal(result.trace.steps.find((s) => s.type === 'tool_selection')?.reasoning, 'Let me check the weather.');
  });

  test('run continues the conversation; ask does not touch it; reset clears it', async () => {
    const provider = new ScriptedProvider({ replies: ['one', 'two', 'three'] });
    const agent = new Agent({ provider, runtime: testRuntime() });
    await agent.run('first');
    await agent.run('second');
    assert.deepEqual(provider.requests[1]!.messages.map((m) => m.content), ['first', 'one', 'second']);
    assert.equal(agent.history.length, 4);
    await agent.ask('side question');
    assert.deepEqual(provider.requests[2]!.messages.map((m) => m.content), ['side question']);
    assert.equal(agent.history.length, 4);
    assert.equal(agent.usage.llmCalls, 3);
    agent.reset();
    assert.equal(agent.history.length, 0);
    assert.equal(agent.usage.llmCalls, 0);
  });

  test('message lists are accepted as input', async () => {
    const provider = new ScriptedProvider({ replies: ['ok'] });
    const agent = new Agent({ provider, runtime: testRuntime() });
    await agent.run([{ role: 'user', content: 'a' }, { role: 'assistant', content: 'b' }, { role: 'user', content: 'c' }]);
    assert.deepEqual(provider.requests[0]!.messages.map((m) => m.content), ['a', 'b', 'c']);
  });

  test('defaults: temperature 0, maxTokens 1000, provider default model', async () => {
    const provider = new ScriptedProvider({ replies: ['ok'], defaultModel: 'my-default' });
    const agent = new Agent({ provider, runtime: testRuntime() });
    const result = await agent.run('x');
    const request = provider.requests[0]!;
    assert.equal(request.temperature, 0);
    assert.equal(request.maxTokens, 1000);
    assert.equal(request.model, 'my-default');
    assert.equal(result.model, 'my-default');
    assert.equal(agent.name, 'agent');
  });

  test('<think> blocks are kept out of the answer and the history', async () => {
    const provider = new ScriptedProvider({ replies: ['<think>secret chain</think>The answer.', 'ok'] });
    const agent = new Agent({ provider, runtime: testRuntime() });
    const result = await agent.run('q');
    assert.equal(result.content, 'The answer.');
    assert.equal(result.reasoningHistory[0], 'secret chain');
    await agent.run('again');
    assert.ok(provider.requests[1]!.messages.every((m) => !m.content.includes('secret chain')));
  });

  test('a provider error after retries rejects with the typed error, never answer text', async () => {
    const { ProviderError } = await import('../../../lib/core/errors/provider-error.js');
    const provider = new ScriptedProvider({ replies: [{ error: new ProviderError('invalid key', { provider: 'scripted', status: 401 }) }] });
    const log = eventLog();
    const agent = new Agent({ provider, observers: [log.observer], runtime: testRuntime() });
    await assert.rejects(agent.run('x'), (error: unknown) => ProviderError.isInstance(error) && error.status === 401);
    assert.deepEqual(log.types().slice(-2), ['error', 'run-end']);
    assert.equal(log.of('run-end')[0]!.status, 'error');
    assert.equal(agent.history.length, 0);
  });
});

test('thought signatures on tool calls are sent back unchanged on the next turn', async () => {
  const signature = Buffer.from([0, 1, 2, 250, 255, 13, 10]).toString('base64');
  const provider = new ScriptedProvider({
    replies: [{ toolCalls: [{ id: 'g1', toolName: 'get_weather', parameters: { city: 'Cádiz' }, thoughtSignature: signature }] }, 'done'],
  });
  const agent = new Agent({ provider, tools: [weatherTool()], runtime: testRuntime() });
  await agent.run('go');
  const echoed = provider.requests[1]!.messages.find((m) => m.role === 'assistant')!.toolCalls![0]!;
  assert.equal(echoed.thoughtSignature, signature);
  assert.equal(echoed.id, 'g1');
});

test('cost comes from the model registry when the provider reports only tokens', async () => {
  const { getModelInfo } = await import('../../../lib/providers/models/index.js');
  const info = getModelInfo('gpt-4o-mini')!;
  const provider = new ScriptedProvider({ replies: [{ text: 'hi', usage: { promptTokens: 1_000_000, completionTokens: 1_000_000 } }] });
  const agent = new Agent({ provider, model: 'gpt-4o-mini', runtime: testRuntime() });
  const result = await agent.run('x');
  assert.ok(info.promptPricePer1M > 0);
  assert.equal(result.usage.totalCostUsd, info.promptPricePer1M + info.completionPricePer1M);
  const llm = result.trace.steps.find((s) => s.type === 'llm_call')!;
  assert.equal(llm.costUsd, result.usage.totalCostUsd);
});

test('images on user messages reach the provider', async () => {
  const provider = new ScriptedProvider({ replies: ['a cat'] });
  const agent = new Agent({ provider, runtime: testRuntime() });
  const { userMessage } = await import('../../../lib/core/message.js');
  await agent.run([userMessage('What is this?', [{ data: 'iVBORw0KGgo=', mediaType: 'image/png' }])]);
  assert.deepEqual(provider.requests[0]!.messages[0]!.images, [{ data: 'iVBORw0KGgo=', mediaType: 'image/png' }]);
});
