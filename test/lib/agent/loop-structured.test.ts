import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { z } from 'zod';
import { Agent } from '../../../lib/agent/agent.js';
import { StructuredOutputError } from '../../../lib/core/errors/structured-output-error.js';
import { ScriptedProvider } from '../../../lib/providers/scripted.js';
import { eventLog, testRuntime, weatherTool } from '../../support/agent-harness.js';

const Person = z.object({ name: z.string(), age: z.number().int() });

describe('agent loop: structured output', () => {
  test('valid output is parsed and the schema is sent to the provider', async () => {
    const provider = new ScriptedProvider({ replies: ['{"name": "Ada", "age": 36}'] });
    const agent = new Agent({ provider, runtime: testRuntime() });
    const result = await agent.run<{ name: string; age: number }>('who?', { responseFormat: Person });
    assert.deepEqual(result.parsed, { name: 'Ada', age: 36 });
    const format = provider.requests[0]!.responseFormat!;
    assert.equal(format.type, 'json_schema');
    assert.deepEqual(Object.keys(format.schema['properties'] as object), ['name', 'age']);
  });

  test('a fenced ```json reply is accepted', async () => {
    const provider = new ScriptedProvider({ replies: ['Sure:\n```json\n{"name": "Ada", "age": 36}\n```'] });
    const agent = new Agent({ provider, runtime: testRuntime() });
    const result = await agent.run('who?', { responseFormat: Person });
    assert.deepEqual(result.parsed, { name: 'Ada', age: 36 });
  });

  test('invalid output is retried with the error fed back; retries do not consume iterations', async () => {
    const provider = new ScriptedProvider({ replies: ['{"name": "Ada"}', 'not json at all', '{"name": "Ada", "age": 36}'] });
    const log = eventLog();
    const agent = new Agent({ provider, maxIterations: 1, observers: [log.observer], runtime: testRuntime() });
    const result = await agent.run('who?', { responseFormat: Person });
    assert.deepEqual(result.parsed, { name: 'Ada', age: 36 });
    assert.equal(result.iterations, 1);
    const feedback = provider.requests[1]!.messages.at(-1)!;
    assert.equal(feedback.role, 'user');
    assert.match(feedback.content, /age/);
    assert.deepEqual(log.of('structured-validate').map((e) => e.valid), [false, false, true]);
    assert.equal(result.trace.steps.filter((s) => s.type === 'structured_retry').length, 2);
  });

  test('still invalid after the allowed retries → StructuredOutputError', async () => {
    const provider = new ScriptedProvider({ replies: ['{}', '{}', '{}'] });
    const agent = new Agent({ provider, runtime: testRuntime() });
    await assert.rejects(agent.run('who?', { responseFormat: Person }), (e: unknown) => StructuredOutputError.isInstance(e));
  });

  test('tools and structured output in the same run; the text parser is skipped when a format is set', async () => {
    const provider = new ScriptedProvider({
      replies: [
        { toolCalls: [{ toolName: 'get_weather', parameters: { city: 'Riga' } }] },
        '{"city": "Riga", "temperature": 21}',
      ],
    });
    const agent = new Agent({ provider, tools: [weatherTool()], runtime: testRuntime() });
    const result = await agent.run('weather as JSON', { responseFormat: z.object({ city: z.string(), temperature: z.number() }) });
    assert.deepEqual(result.parsed, { city: 'Riga', temperature: 21 });
    assert.ok(provider.requests[0]!.tools && provider.requests[0]!.responseFormat);
  });

  test('JSON Schema response formats work too', async () => {
    const provider = new ScriptedProvider({ replies: ['{"ok": true}'] });
    const agent = new Agent({ provider, runtime: testRuntime() });
    const schema = { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] };
    const result = await agent.run('x', { responseFormat: schema });
    assert.deepEqual(result.parsed, { ok: true });
  });
});

test('with a responseFormat, a TOOL_CALL directive in the reply is not parsed or run', async () => {
  const cities: string[] = [];
  const provider = new ScriptedProvider({
    replies: ['TOOL_CALL: {"tool_name": "get_weather", "parameters": {"city": "Oslo"}}', '{"city": "Oslo", "temperature": 3}'],
  });
  const agent = new Agent({ provider, tools: [weatherTool(cities)], runtime: testRuntime() });
  const result = await agent.run('x', { responseFormat: z.object({ city: z.string(), temperature: z.number() }) });
  assert.deepEqual(cities, []);
  assert.deepEqual(result.parsed, { city: 'Oslo', temperature: 3 });
});
