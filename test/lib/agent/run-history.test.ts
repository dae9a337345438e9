import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { z } from 'zod';
import { Agent } from '../../../lib/agent/agent.js';
import { failedRunResult } from '../../../lib/agent/execute-run.js';
import { ProviderError } from '../../../lib/core/errors/provider-error.js';
import { StructuredOutputError } from '../../../lib/core/errors/structured-output-error.js';
import { ScriptedProvider } from '../../../lib/providers/scripted.js';
import { tool } from '../../../lib/tools/tool.js';
import { eventLog, testRuntime, weatherTool } from '../../support/agent-harness.js';
import { captureWarnings } from '../../support/capture-warnings.js';

describe('what runs leave in the conversation', () => {
  test('a routing-only run leaves no unanswered tool calls in the history', async () => {
    const provider = new ScriptedProvider({ replies: [{ toolCalls: [{ toolName: 'get_weather', parameters: { city: 'Faro' } }] }, 'next answer'] });
    const agent = new Agent({ provider, tools: [weatherTool()], routingOnly: true, runtime: testRuntime() });
    const routed = await agent.run('route me');
    assert.equal(routed.message.toolCalls?.length, 1, 'the result keeps the selection');
    await agent.run('next question');
    const sent = provider.requests[1]!.messages;
    assert.ok(sent.every((m) => !m.toolCalls || m.toolCalls.length === 0), 'no dangling tool calls are sent');
    assert.match(sent[1]!.content, /get_weather/);
  });

  test('a beforeRun extension that trims the history does not lose the turns', async () => {
    const provider = new ScriptedProvider({ respond: (_r, i) => `answer ${i}` });
    const agent = new Agent({ provider, extensions: [{ name: 'window', beforeRun: (_ctx, messages) => messages.slice(-2) }], runtime: testRuntime() });
    for (let i = 0; i < 3; i++) await agent.run(`question ${i}`);
    assert.deepEqual(agent.history.map((m) => `${m.role}:${m.content}`), [
      'user:question 0', 'assistant:answer 0', 'user:question 1', 'assistant:answer 1', 'user:question 2', 'assistant:answer 2',
    ]);
  });

  test('checkInput applies to message-list input; checkOutput to terminal-tool answers', async () => {
    const finish = tool({ name: 'final_answer', description: 'Give the final answer', parameters: z.object({ text: z.string() }), terminal: true, execute: ({ text }) => text });
    const provider = new ScriptedProvider({ replies: [{ toolCalls: [{ toolName: 'final_answer', parameters: { text: 'secret 123' } }] }] });
    const agent = new Agent({
      provider,
      tools: [finish],
      extensions: [{ name: 'guard', checkInput: (_c, text) => text.replace('password', '[redacted]'), checkOutput: (_c, text) => text.replace('123', '***') }],
      runtime: testRuntime(),
    });
    const result = await agent.run([{ role: 'user', content: 'my password is x' }]);
    assert.equal(provider.requests[0]!.messages[0]!.content, 'my [redacted] is x');
    assert.equal(result.content, 'secret ***');
  });

  test('structured-output retries stay inside one iteration (events and reasoning history)', async () => {
    const provider = new ScriptedProvider({ replies: ['{"n": "x"}', '{"n": 1}'] });
    const log = eventLog();
    const agent = new Agent({ provider, observers: [log.observer], runtime: testRuntime() });
    const result = await agent.run('n?', { responseFormat: z.object({ n: z.number() }) });
    assert.deepEqual(log.types().filter((t) => t.startsWith('iteration')), ['iteration-start', 'iteration-end']);
    assert.equal(result.reasoningHistory.length, result.iterations);
    assert.equal(provider.requests.length, 2);
  });
});

describe('failures', () => {
  test('error events name the stage: llm for provider failures, structured-output for invalid output', async () => {
    const log = eventLog();
    const failing = new Agent({ provider: new ScriptedProvider({ replies: [{ error: new ProviderError('bad key', { provider: 'scripted', status: 401 }) }] }), observers: [log.observer], runtime: testRuntime() });
    await assert.rejects(failing.run('x'));
    const invalid = new Agent({ provider: new ScriptedProvider({ replies: ['{}', '{}', '{}'] }), observers: [log.observer], runtime: testRuntime() });
    await assert.rejects(invalid.run('x', { responseFormat: z.object({ n: z.number() }) }), (e: unknown) => StructuredOutputError.isInstance(e));
    assert.deepEqual(log.of('error').map((e) => e.stage), ['llm', 'structured-output']);
  });

  test('a failed run keeps its id and trace, for callers and for batch items', async () => {
    const provider = new ScriptedProvider({ respond: (r) => (r.messages.at(-1)!.content === 'bad' ? { error: new ProviderError('down', { provider: 'scripted', status: 400 }) } : 'ok') });
    const log = eventLog();
    const agent = new Agent({ provider, observers: [log.observer], runtime: testRuntime() });
    const error = await agent.run('bad').catch((e: unknown) => e);
    const failed = failedRunResult(error)!;
    assert.equal(failed.status, 'error');
    assert.equal(failed.runId, log.of('run-end').at(-1)!.runId);
    assert.ok(failed.trace.steps.length > 0, 'the trace is populated');
    const { result: results, warnings } = await captureWarnings(() => agent.batch(['ok', 'bad'], { onProgress: () => { throw new Error('progress bar crashed'); } }));
    assert.deepEqual(warnings.map((w) => w.message), ['agentlib: batch onProgress threw: progress bar crashed', 'agentlib: batch onProgress threw: progress bar crashed'], 'a throwing onProgress is reported, not fatal');
    assert.deepEqual(results.map((r) => r.status), ['completed', 'error']);
    assert.equal(results[1]!.runId, log.of('run-end').filter((e) => e.status === 'error').at(-1)!.runId);
    assert.equal(log.of('batch-end').length, 1);
  });

  test('a responseFormat that is not an object is a ConfigurationError inside the run', async () => {
    const log = eventLog();
    const agent = new Agent({ provider: new ScriptedProvider({ replies: ['[]'] }), observers: [log.observer], runtime: testRuntime() });
    await assert.rejects(agent.run('x', { responseFormat: z.array(z.string()) }), (e: unknown) => e instanceof Error && e.name === 'ConfigurationError' && /must describe a JSON object/.test(e.message));
    assert.deepEqual(log.types(), ['run-start', 'error', 'run-end']);
  });

  test('maxIterations given to a run is validated', async () => {
    const agent = new Agent({ provider: new ScriptedProvider({ replies: ['x'] }), runtime: testRuntime() });
    await assert.rejects(agent.run('x', { maxIterations: 0 }), /maxIterations/);
    assert.throws(() => new Agent({ provider: new ScriptedProvider(), structured: { maxRetries: -1 } }), /structured.maxRetries/);
  });
});

describe('typing', () => {
  test('parsed is typed from a zod responseFormat', async () => {
    const agent = new Agent({ provider: new ScriptedProvider({ replies: ['{"name": "Ada", "age": 36}'] }), runtime: testRuntime() });
    const result = await agent.run('who?', { responseFormat: z.object({ name: z.string(), age: z.number() }) });
    // Compile-time: `parsed` is { name: string; age: number } | undefined (tsc checks this file).
    const name: string | undefined = result.parsed?.name;
    const age: number | undefined = result.parsed?.age;
    assert.equal(name, 'Ada');
    assert.equal(age, 36);
  });
});
