import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { z } from 'zod';
import { Agent } from '../../../lib/agent/agent.js';
import { ScriptedProvider } from '../../../lib/providers/scripted.js';
import { tool } from '../../../lib/tools/tool.js';
import type { Tool } from '../../../lib/tools/types.js';
import { eventLog, slowTool, testRuntime, weatherTool } from '../../support/agent-harness.js';

const call = (toolName: string, parameters: Record<string, unknown> = {}, id?: string) => (id ? { id, toolName, parameters } : { toolName, parameters });

describe('agent loop: tool execution', () => {
  test('parallel tool calls run concurrently and results keep request order', async () => {
    const log: string[] = [];
    const provider = new ScriptedProvider({ replies: [{ toolCalls: [call('slow_a', {}, 'a'), call('slow_b', {}, 'b')] }, 'done'] });
    const agent = new Agent({ provider, tools: [slowTool('slow_a', 60, log), slowTool('slow_b', 10, log)], runtime: testRuntime() });
    await agent.run('go');
    assert.deepEqual(log.slice(0, 2), ['start:slow_a', 'start:slow_b'], 'both started before either ended');
    assert.deepEqual(log.slice(2), ['end:slow_b', 'end:slow_a']);
    const toolMessages = provider.requests[1]!.messages.filter((m) => m.role === 'tool');
    assert.deepEqual(toolMessages.map((m) => m.toolCallId), ['a', 'b']);
  });

  test('parallelToolExecution false runs calls one after another', async () => {
    const log: string[] = [];
    const provider = new ScriptedProvider({ replies: [{ toolCalls: [call('slow_a'), call('slow_b')] }, 'done'] });
    const agent = new Agent({ provider, tools: [slowTool('slow_a', 30, log), slowTool('slow_b', 5, log)], parallelToolExecution: false, runtime: testRuntime() });
    await agent.run('go');
    assert.deepEqual(log, ['start:slow_a', 'end:slow_a', 'start:slow_b', 'end:slow_b']);
  });

  test('a failing tool does not block the others', async () => {
    const boom = tool({ name: 'boom', description: 'Always throws an error', parameters: z.object({}), execute: () => { throw new Error('kaput'); } }) as Tool;
    const cities: string[] = [];
    const provider = new ScriptedProvider({ replies: [{ toolCalls: [call('boom'), call('get_weather', { city: 'Oslo' })] }, 'done'] });
    const log = eventLog();
    const agent = new Agent({ provider, tools: [boom, weatherTool(cities)], observers: [log.observer], runtime: testRuntime() });
    const result = await agent.run('go');
    assert.equal(result.content, 'done');
    assert.deepEqual(cities, ['Oslo']);
    const [first, second] = provider.requests[1]!.messages.filter((m) => m.role === 'tool');
    assert.match(first!.content, /kaput/);
    assert.equal(first!.isError, true);
    assert.match(second!.content, /Oslo/);
    assert.equal(log.of('tool-error')[0]!.kind, 'execution');
    assert.ok(result.trace.steps.some((s) => s.type === 'tool_execution' && s.status === 'error'));
  });

  test('an unregistered tool name gives an error result fed back to the model and a trace step', async () => {
    const provider = new ScriptedProvider({ replies: [{ toolCalls: [call('get_wether', { city: 'Rome' })] }, 'sorry'] });
    const log = eventLog();
    const agent = new Agent({ provider, tools: [weatherTool()], observers: [log.observer], runtime: testRuntime() });
    const result = await agent.run('go');
    const fed = provider.requests[1]!.messages.find((m) => m.role === 'tool')!;
    assert.match(fed.content, /unknown tool "get_wether"/);
    assert.match(fed.content, /Did you mean "get_weather"/);
    assert.equal(log.of('tool-error')[0]!.kind, 'unknown-tool');
    assert.ok(result.trace.steps.some((s) => s.type === 'tool_execution' && s.status === 'error'));
  });

  test('malformed tool-call arguments are fed back as an error, the tool never runs with {}', async () => {
    const cities: string[] = [];
    const provider = new ScriptedProvider({
      replies: [{ toolCalls: [{ toolName: 'get_weather', parameters: {}, argumentsError: 'Unexpected token } in {"city": }' }] }, 'ok'],
    });
    const agent = new Agent({ provider, tools: [weatherTool(cities)], runtime: testRuntime() });
    await agent.run('go');
    assert.deepEqual(cities, []);
    const fed = provider.requests[1]!.messages.find((m) => m.role === 'tool')!;
    assert.match(fed.content, /malformed/);
    assert.equal(fed.isError, true);
  });

  test('invalid arguments are fed back with a did-you-mean suggestion', async () => {
    const cities: string[] = [];
    const provider = new ScriptedProvider({ replies: [{ toolCalls: [call('get_weather', { citty: 'Rome' })] }, 'ok'] });
    const log = eventLog();
    const agent = new Agent({ provider, tools: [weatherTool(cities)], observers: [log.observer], runtime: testRuntime() });
    await agent.run('go');
    assert.deepEqual(cities, []);
    const fed = provider.requests[1]!.messages.find((m) => m.role === 'tool')!;
    assert.match(fed.content, /invalid arguments/);
    assert.match(fed.content, /city/);
    assert.equal(log.of('tool-error')[0]!.kind, 'invalid-arguments');
  });

  test('text TOOL_CALL directives are used when the provider has no native tool calls', async () => {
    const cities: string[] = [];
    const provider = new ScriptedProvider({
      capabilities: { tools: false, streaming: true, structuredOutput: false, vision: false, embeddings: false },
      replies: ['I will look it up.\nTOOL_CALL: {"tool_name": "get_weather", "parameters": {"city": "Lima"}}', 'Sunny in Lima.'],
    });
    const agent = new Agent({ provider, tools: [weatherTool(cities)], runtime: testRuntime() });
    const result = await agent.run('weather?');
    assert.deepEqual(cities, ['Lima']);
    assert.equal(result.content, 'Sunny in Lima.');
    assert.match(agent.systemPrompt, /TOOL_CALL/);
  });

  test('a malformed TOOL_CALL directive is fed back as an error, not run with {}', async () => {
    const cities: string[] = [];
    const provider = new ScriptedProvider({
      replies: ['TOOL_CALL: {"tool_name": "get_weather", "parameters": {"city": }', 'TOOL_CALL: {"tool": "get_weather", "params": {"city": "Bern"}}', 'done'],
    });
    const agent = new Agent({ provider, tools: [weatherTool(cities)], runtime: testRuntime() });
    const result = await agent.run('go');
    assert.deepEqual(cities, ['Bern']);
    assert.equal(result.content, 'done');
    const feedback = provider.requests[1]!.messages.at(-1)!;
    assert.equal(feedback.role, 'user');
    assert.match(feedback.content, /could not be parsed/);
  });

  test('JSON in prose is not treated as a tool call', async () => {
    const cities: string[] = [];
    const provider = new ScriptedProvider({ replies: ['Here is an example: {"tool_name": "get_weather", "parameters": {"city": "X"}}'] });
    const agent = new Agent({ provider, tools: [weatherTool(cities)], runtime: testRuntime() });
    const result = await agent.run('go');
    assert.deepEqual(cities, []);
    assert.equal(result.status, 'completed');
  });

  test('a terminal tool ends the run without another LLM call', async () => {
    const finish = tool({ name: 'final_answer', description: 'Give the final answer', parameters: z.object({ answer: z.string() }), terminal: true, execute: ({ answer }) => answer }) as Tool;
    const provider = new ScriptedProvider({ replies: [{ toolCalls: [call('final_answer', { answer: '42' })] }] });
    const agent = new Agent({ provider, tools: [finish], runtime: testRuntime() });
    const result = await agent.run('go');
    assert.equal(result.content, '42');
    assert.equal(result.status, 'terminal-tool');
    assert.equal(provider.requests.length, 1);
  });

  test('stopCondition ends the run after tools without another LLM call', async () => {
    const provider = new ScriptedProvider({ replies: [{ toolCalls: [call('get_weather', { city: 'Kyiv' })] }, 'never'] });
    const agent = new Agent({
      provider,
      tools: [weatherTool()],
      stopCondition: ({ results }) => results.some((r) => r.content.includes('Kyiv')),
      runtime: testRuntime(),
    });
    const result = await agent.run('go');
    assert.equal(result.status, 'stop-condition');
    assert.equal(provider.requests.length, 1);
    assert.match(result.content, /Kyiv/);
  });

  test('routingOnly returns the selection without executing', async () => {
    const cities: string[] = [];
    const provider = new ScriptedProvider({ replies: [{ text: 'weather question', toolCalls: [call('get_weather', { city: 'Nice' })] }] });
    const agent = new Agent({ provider, tools: [weatherTool(cities)], routingOnly: true, runtime: testRuntime() });
    const result = await agent.run('go');
    assert.equal(result.status, 'routing-only');
    assert.equal(result.toolName, 'get_weather');
    assert.deepEqual(result.toolArgs, { city: 'Nice' });
    assert.deepEqual(cities, []);
  });

  test('async generator tools stream chunks as tool-chunk events; the joined output is the result', async () => {
    const streamer = tool({
      name: 'count',
      description: 'Counts to three, streaming',
      parameters: z.object({}),
      async *execute() {
        yield 'one ';
        yield 'two ';
        yield 'three';
      },
    }) as Tool;
    const provider = new ScriptedProvider({ replies: [{ toolCalls: [call('count')] }, 'counted'] });
    const log = eventLog();
    const agent = new Agent({ provider, tools: [streamer], observers: [log.observer], runtime: testRuntime() });
    await agent.run('go');
    assert.deepEqual(log.of('tool-chunk').map((e) => e.chunk), ['one ', 'two ', 'three']);
    assert.equal(provider.requests[1]!.messages.find((m) => m.role === 'tool')!.content, 'one two three');
  });

  test('tools receive the injected context, which is not model-visible', async () => {
    let seen: unknown;
    const whoami = tool({
      name: 'whoami',
      description: 'Returns the current user',
      parameters: z.object({}),
      execute: (_args, ctx) => {
        seen = { context: ctx.context, runId: ctx.runId, callId: ctx.callId, aborted: ctx.signal.aborted };
        return 'ok';
      },
    }) as Tool;
    const provider = new ScriptedProvider({ replies: [{ toolCalls: [call('whoami', {}, 'c9')] }, 'fine'] });
    const agent = new Agent({ provider, tools: [whoami], runtime: testRuntime() });
    const result = await agent.run('go', { context: { user: 'ada' } });
    assert.deepEqual(seen, { context: { user: 'ada' }, runId: result.runId, callId: 'c9', aborted: false });
    assert.deepEqual(provider.requests[0]!.tools![0]!.parameters['properties'], {});
  });

  test('usage counts calls and result tokens per tool', async () => {
    const provider = new ScriptedProvider({ replies: [{ toolCalls: [call('get_weather', { city: 'A' }), call('get_weather', { city: 'B' })] }, 'ok'] });
    const agent = new Agent({ provider, tools: [weatherTool()], runtime: testRuntime() });
    const result = await agent.run('go');
    assert.equal(result.usage.toolUsage['get_weather'], 2);
    assert.ok((result.usage.toolTokens['get_weather'] ?? 0) > 0);
  });
});

describe('failures around tools stay contained', () => {
  test('a failing tool cache never changes a successful result, and a failing read still runs the tool', async () => {
    let charged = 0;
    const charge = tool({ name: 'charge_card', description: 'Charge the card once', parameters: z.object({ amount: z.number() }), cacheable: true, execute: ({ amount }) => (charged++, `charged ${amount}`) });
    for (const broken of ['get', 'set'] as const) {
      charged = 0;
      const cache = {
        get: (_k: string): unknown => { if (broken === 'get') throw new Error('cache down'); return undefined; },
        set: (): void => { if (broken === 'set') throw new Error('cache down'); },
      };
      const provider = new ScriptedProvider({ replies: [{ toolCalls: [call('charge_card', { amount: 5 })] }, 'ok'] });
      const log = eventLog();
      const agent = new Agent({ provider, tools: [charge], cache, observers: [log.observer], runtime: testRuntime() });
      const result = await agent.run('go');
      assert.equal(result.status, 'completed');
      assert.equal(charged, 1);
      assert.equal(provider.requests[1]!.messages.find((m) => m.role === 'tool')!.content, 'charged 5', broken);
      assert.equal(log.of('tool-end').length, 1);
      assert.ok(log.of('error').some((e) => e.stage === 'cache' && /tool "charge_card" cache (read|write) failed/.test(e.error.message)));
      assert.ok(log.of('error').some((e) => e.stage === 'cache' && /response cache (read|write) failed/.test(e.error.message)), 'the LLM reply cache is best effort too');
      const steps = result.trace.steps;
      assert.ok(steps.filter((st) => st.type === 'llm_call').every((st) => st.status === 'ok'), 'a cache failure never marks an LLM call failed');
      assert.equal(steps.filter((st) => st.type === 'llm_call').length, 2, 'one llm_call step per call');
    }
  });

  test('a throwing extension fails only its own call; every tool-start gets an end before run-end', async () => {
    const log: string[] = [];
    const events = eventLog();
    const provider = new ScriptedProvider({ replies: [{ toolCalls: [call('slow_a', {}, 'a'), call('slow_b', {}, 'b')] }, 'done'] });
    const agent = new Agent({
      provider,
      tools: [slowTool('slow_a', 5, log), slowTool('slow_b', 40, log)],
      extensions: [{ name: 'screen', afterTool: (_ctx, c, output) => { if (c.toolName === 'slow_a') throw new Error('screening crashed'); return output; } }],
      observers: [events.observer],
      runtime: testRuntime(),
    });
    const result = await agent.run('go');
    assert.equal(result.content, 'done');
    const [a, b] = provider.requests[1]!.messages.filter((m) => m.role === 'tool');
    assert.match(a!.content, /screening crashed/);
    assert.equal(b!.content, 'slow_b done');
    const types = events.types();
    const runEnd = types.lastIndexOf('run-end');
    for (const id of ['a', 'b']) {
      const ends = events.events.filter((e) => (e.type === 'tool-end' || e.type === 'tool-error') && e.callId === id);
      assert.equal(ends.length, 1, `call ${id} ended once`);
      assert.ok(events.events.indexOf(ends[0]!) < runEnd);
    }
  });

  test('tools named like Object.prototype members are counted correctly', async () => {
    const ctor = tool({ name: 'constructor', description: 'A tool with an awkward name', parameters: z.object({}), execute: () => 'ok' });
    const provider = new ScriptedProvider({ replies: [{ toolCalls: [call('constructor')] }, 'ok'] });
    const agent = new Agent({ provider, tools: [ctor], runtime: testRuntime() });
    const result = await agent.run('go');
    assert.equal(result.usage.toolUsage['constructor'], 1);
  });
});
