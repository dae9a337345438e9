import assert from 'node:assert/strict';
import { describe, mock, test } from 'node:test';
import { z } from 'zod';
import { Agent } from '../../../lib/agent/agent.js';
import { REASONING_STRATEGIES } from '../../../lib/agent/strategies.js';
import { ProviderError } from '../../../lib/core/errors/provider-error.js';
import { ScriptedProvider } from '../../../lib/providers/scripted.js';
import { tool } from '../../../lib/tools/tool.js';
import type { Tool } from '../../../lib/tools/types.js';
import { eventLog, testRuntime, weatherTool } from '../../support/agent-harness.js';
import { captureWarnings } from '../../support/capture-warnings.js';

const echo = (name: string): Tool =>
  tool({ name, description: `Echo tool number ${name}`, parameters: z.object({ text: z.string() }), execute: ({ text }) => text });

describe('Agent API', () => {
  test('addTool, addTools, replaceTool (adds if new), removeTool keeps at least one', () => {
    const agent = new Agent({ provider: new ScriptedProvider(), tools: [echo('a')], runtime: testRuntime() });
    agent.addTool(echo('b'));
    agent.addTools([echo('c'), echo('d')]);
    assert.deepEqual(agent.tools.map((t) => t.name), ['a', 'b', 'c', 'd']);
    assert.throws(() => agent.addTool(echo('a')), /a/);
    agent.replaceTool(echo('e'));
    assert.equal(agent.tools.length, 5);
    assert.match(agent.systemPrompt, /tools/);
    for (const name of ['a', 'b', 'c', 'd']) agent.removeTool(name);
    assert.throws(() => agent.removeTool('e'), /at least one tool/);
    assert.throws(() => agent.removeTool('nope'), /No tool named/);
  });

  test('agents without tools are allowed and can gain tools', async () => {
    const provider = new ScriptedProvider({ replies: ['plain'] });
    const agent = new Agent({ provider, runtime: testRuntime() });
    assert.equal(agent.tools.length, 0);
    assert.equal((await agent.run('x')).content, 'plain');
    agent.addTool(echo('z'));
    agent.removeTool('z');
  });

  test('systemPrompt replaces the built-in prompt; reasoning strategies append their instructions', async () => {
    const provider = new ScriptedProvider({ replies: ['ok', 'ok'] });
    const custom = new Agent({ provider, systemPrompt: 'You are a pirate.', runtime: testRuntime() });
    await custom.run('x');
    assert.equal(provider.requests[0]!.system, 'You are a pirate.');
    const planned = new Agent({ provider, name: 'planner', reasoningStrategy: 'plan_then_act', runtime: testRuntime() });
    await planned.run('x');
    assert.match(provider.requests[1]!.system!, /planner/);
    assert.ok(provider.requests[1]!.system!.includes(REASONING_STRATEGIES.plan_then_act.instructions));
    assert.deepEqual(Object.keys(REASONING_STRATEGIES), ['react', 'cot', 'plan_then_act']);
    assert.throws(() => new Agent({ provider, reasoningStrategy: 'tree' as never }), /reasoningStrategy/);
  });

  test('batch keeps input order, isolates errors, reports progress, respects maxConcurrency', async () => {
    let active = 0;
    let peak = 0;
    const provider = new ScriptedProvider({
      respond: async (request) => {
        active += 1;
        peak = Math.max(peak, active);
        await new Promise((r) => setTimeout(r, 5));
        active -= 1;
        const prompt = request.messages.at(-1)!.content;
        if (prompt === 'bad') return { error: new ProviderError('nope', { provider: 'scripted', status: 400 }) };
        return `answer to ${prompt}`;
      },
    });
    const agent = new Agent({ provider, runtime: testRuntime() });
    const progress: number[] = [];
    const log = eventLog();
    agent.addObserver(log.observer);
    const results = await agent.batch(['p1', 'p2', 'bad', 'p4', 'p5'], { maxConcurrency: 2, onProgress: (done) => progress.push(done) });
    assert.deepEqual(results.map((r) => r.content), ['answer to p1', 'answer to p2', '', 'answer to p4', 'answer to p5']);
    assert.equal(results[2]!.status, 'error');
    assert.match(results[2]!.error!.message, /nope/);
    assert.deepEqual(progress, [1, 2, 3, 4, 5]);
    assert.ok(peak <= 2);
    assert.equal(agent.history.length, 0, 'batch items are independent conversations');
    assert.deepEqual(log.of('batch-end').map((e) => [e.succeeded, e.failed]), [[4, 1]]);
    assert.equal(log.of('batch-start')[0]!.size, 5);
  });

  test('a throwing observer (sync or async) is isolated and reported through onObserverError', async () => {
    const reported: string[] = [];
    const provider = new ScriptedProvider({ replies: ['fine'] });
    const agent = new Agent({
      provider,
      observers: [{ name: 'broken', onRunStart: () => { throw new Error('observer bug'); }, onLlmEnd: async () => { throw new Error('async bug'); } }],
      onObserverError: (error, observer, event) => void reported.push(`${observer}:${event.type}:${(error as Error).message}`),
      runtime: testRuntime(),
    });
    const result = await agent.run('x');
    await agent.flushObservers();
    assert.equal(result.content, 'fine');
    assert.deepEqual(reported.sort(), ['broken:llm-end:async bug', 'broken:run-start:observer bug']);
  });

  test('blocking observers are awaited inline', async () => {
    const order: string[] = [];
    const provider = new ScriptedProvider({ replies: ['ok'] });
    const agent = new Agent({
      provider,
      observers: [{ blocking: true, onRunStart: async () => { await new Promise((r) => setTimeout(r, 20)); order.push('observer'); } }],
      runtime: testRuntime(),
    });
    provider.push();
    await agent.run('x');
    order.push('after run');
    assert.deepEqual(order, ['observer', 'after run']);
    assert.ok(provider.requests.length === 1);
  });

  test('deprecated hooks dict is wrapped as an observer', async () => {
    const seen: string[] = [];
    const provider = new ScriptedProvider({ replies: [{ toolCalls: [{ toolName: 'get_weather', parameters: { city: 'Oulu' } }] }, 'ok'] });
    const { result: agent, warnings } = await captureWarnings(
      () =>
        new Agent({
          provider,
          tools: [weatherTool()],
          hooks: { on_tool_start: ((event: { toolName: string }) => seen.push(event.toolName)) },
          runtime: testRuntime(),
        }),
    );
    assert.deepEqual(warnings.map((w) => w.type), ['DeprecationWarning']);
    assert.match(warnings[0]?.message ?? '', /hooks.*deprecated.*observers/);
    await agent.run('x');
    await agent.flushObservers();
    assert.deepEqual(seen, ['get_weather']);
  });

  test('parentRunId links runs and trace metadata is kept', async () => {
    const provider = new ScriptedProvider({ replies: ['ok'] });
    const log = eventLog();
    const agent = new Agent({ provider, observers: [log.observer], traceMetadata: { team: 'core' }, runtime: testRuntime() });
    const result = await agent.run('x', { parentRunId: 'run_parent' });
    assert.equal(result.trace.parentRunId, 'run_parent');
    assert.equal(result.trace.metadata['team'], 'core');
    assert.ok(log.events.every((e) => e.parentRunId === 'run_parent'));
  });

  test('AgentResult serialises to JSON', async () => {
    const provider = new ScriptedProvider({ replies: ['ok'] });
    const agent = new Agent({ provider, runtime: testRuntime() });
    const json = JSON.parse(JSON.stringify(await agent.run('x'))) as Record<string, unknown>;
    assert.equal(json['content'], 'ok');
    assert.equal(json['status'], 'completed');
    assert.equal((json['usage'] as Record<string, unknown>)['llmCalls'], 1);
  });

  test('invalid config values are rejected with a clear error', () => {
    const provider = new ScriptedProvider();
    assert.throws(() => new Agent({ provider, maxIterations: 0 }), /maxIterations/);
    assert.throws(() => new Agent({ provider, maxCostUsd: -1 }), /maxCostUsd/);
    assert.throws(() => new Agent({} as never), /provider/);
  });
});

test('enableAnalytics aggregates runs, LLM calls and per-tool stats; reset clears them', async () => {
  const provider = new ScriptedProvider({
    replies: [{ toolCalls: [{ toolName: 'get_weather', parameters: { city: 'Bari' } }, { toolName: 'nope', parameters: {} }] }, 'done', 'again'],
  });
  const agent = new Agent({ provider, tools: [weatherTool()], enableAnalytics: true, runtime: testRuntime() });
  await agent.run('go');
  await agent.run('more');
  await agent.flushObservers();
  const stats = agent.analytics!;
  assert.equal(stats.runs, 2);
  assert.equal(stats.runsByStatus.completed, 2);
  assert.equal(stats.llmCalls, 3);
  assert.equal(stats.tools['get_weather']!.calls, 1);
  assert.equal(stats.tools['nope']!.errors, 1);
  agent.reset();
  assert.equal(agent.analytics!.runs, 0);
  assert.equal(new Agent({ provider }).analytics, undefined);
});

test('traceToolResultChars limits tool output kept in trace steps, not what the model sees', async () => {
  const long = tool({ name: 'long_output', description: 'Returns a long text', parameters: z.object({}), execute: () => 'x'.repeat(500) });
  const provider = new ScriptedProvider({ replies: [{ toolCalls: [{ toolName: 'long_output', parameters: {} }] }, 'ok'] });
  const agent = new Agent({ provider, tools: [long], traceToolResultChars: 40, runtime: testRuntime() });
  const result = await agent.run('go');
  const step = result.trace.steps.find((s) => s.type === 'tool_execution')!;
  assert.ok(step.output!.length < 100, `trace output was ${step.output!.length} chars`);
  assert.equal(provider.requests[1]!.messages.find((m) => m.role === 'tool')!.content.length, 500);
});

test('verbose prints cache hits and tool calls to stderr', async () => {
  const lines: string[] = [];
  const write = mock.method(process.stderr, 'write', (chunk: string | Uint8Array) => (lines.push(String(chunk)), true));
  try {
    const map = new Map<string, unknown>();
    const cache = { get: (k: string) => map.get(k), set: (k: string, v: unknown) => void map.set(k, v) };
    const provider = new ScriptedProvider({ replies: [{ toolCalls: [{ toolName: 'get_weather', parameters: { city: 'Cork' } }] }, 'ok'] });
    const agent = new Agent({ provider, tools: [weatherTool()], cache, verbose: true, runtime: testRuntime() });
    await agent.ask('go');
    await agent.ask('go');
  } finally {
    write.mock.restore();
  }
  assert.ok(lines.some((l) => /tool get_weather/.test(l)), lines.join(''));
  assert.ok(lines.some((l) => /cache hit/.test(l)), lines.join(''));
});
