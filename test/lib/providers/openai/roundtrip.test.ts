import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { z } from 'zod';
import { Agent } from '../../../../lib/agent/agent.js';
import { tool } from '../../../../lib/tools/tool.js';
import type { Tool } from '../../../../lib/tools/types.js';
import { testRuntime } from '../../../support/agent-harness.js';
import { recordedRequests, recordedResponses, sseResponse, startReplayServer, type ReplayServer } from '../../../support/replay-server.js';
import { bodyOf, providerFor, type WireBody } from './helpers.js';

/** The parts of a Chat Completions body that matter for a tool round trip. */
function essentials(body: WireBody) {
  // Recorders differ on where the system prompt goes and on empty assistant turns; compare the rest.
  const messages = body.messages
    .filter((m) => m.role !== 'system' && !(m.role === 'assistant' && !m.tool_calls && !m.content))
    .map((m) => ({
      role: m.role,
      content: m.role === 'assistant' ? undefined : m.content,
      tool_call_id: m.tool_call_id,
      tool_calls: m.tool_calls?.map((c) => ({ id: c.id, type: c.type, name: c.function.name, arguments: JSON.parse(c.function.arguments) })),
    }));
  const tools = body.tools?.map((t) => ({ type: t.type, name: t.function.name, description: t.function.description }));
  return { messages, tools };
}

const secrets: Record<string, string> = { mellon: 'Welcome to Moria!', radiance: 'Life before Death' };
const secretTool = (): Tool =>
  tool({
    name: 'secret_retrieval_tool',
    description: 'A tool that requires a password to retrieve a secret.',
    parameters: z.object({ password: z.string() }),
    execute: ({ password }) => secrets[password] ?? 'unknown',
  });
const multiplyTool = (): Tool =>
  tool({ name: 'multiply', description: 'Multiply two numbers.', parameters: z.object({ a: z.number().int(), b: z.number().int() }), execute: ({ a, b }) => String(a * b) });

describe('OpenAIProvider: Agent tool round trips on recorded multi-turn traffic', () => {
  let server: ReplayServer;
  before(async () => (server = await startReplayServer()));
  after(async () => server.close());

  test('non-streamed parallel calls (chat.parallel_tool_calls.roundtrip.nonstream.mirascope): turn 2 matches the recording', async () => {
    const path = 'openai/chat.parallel_tool_calls.roundtrip.nonstream.mirascope.interactions.json';
    server.enqueue(...recordedResponses(path));
    const start = server.requests.length;
    const agent = new Agent({ provider: providerFor(server), model: 'gpt-4o', systemPrompt: 'Use parallel tool calling.', tools: [secretTool()], runtime: testRuntime() });
    const result = await agent.run('Please retrieve the secrets associated with each of these passwords: mellon,radiance');
    assert.equal(result.content, 'The secrets associated with the passwords are as follows:\n- For "mellon": Welcome to Moria!\n- For "radiance": Life before Death');
    assert.deepEqual(
      result.toolCalls.map((c) => [c.id, c.toolName, c.parameters]),
      [
        ['call_v6LacIrChvs6ITVpIZqy5tFc', 'secret_retrieval_tool', { password: 'mellon' }],
        ['call_onyWzk4mLTGKzW9cthmf4Llq', 'secret_retrieval_tool', { password: 'radiance' }],
      ],
    );
    const sent = server.requests.slice(start);
    assert.equal(sent.length, 2);
    const recorded = recordedRequests(path);
    assert.deepEqual(essentials(bodyOf(sent[0]!)), essentials(bodyOf(recorded[0]!)));
    assert.deepEqual(essentials(bodyOf(sent[1]!)), essentials(bodyOf(recorded[1]!)));
    const system = bodyOf(sent[1]!).messages[0]!;
    assert.equal(system.role, 'system');
    assert.match(system.content ?? '', /Use parallel tool calling\./);
    assert.equal(result.usage.promptTokens, 75 + 149);
    assert.equal(result.usage.completionTokens, 53 + 32);
  });

  test('streamed tool call (chat.tool_call.roundtrip.stream.simonw-llm): turn 2 matches the recording', async () => {
    const path = 'openai/chat.tool_call.roundtrip.stream.simonw-llm.interactions.json';
    const responses = recordedResponses(path).map((r) => sseResponse(r.body!, 7));
    server.enqueue(...responses);
    const start = server.requests.length;
    const agent = new Agent({ provider: providerFor(server), model: 'gpt-4o-mini', tools: [multiplyTool()], runtime: testRuntime() });
    const stream = agent.stream('What is 1231 * 2331?');
    const deltas: string[] = [];
    for await (const event of stream) if (event.type === 'text-delta') deltas.push(event.text);
    const result = await stream.result;
    assert.deepEqual(
      result.toolCalls.map((c) => [c.id, c.toolName, c.parameters]),
      [['call_1EYWDzueHEp8OsB8jJSEp7WB', 'multiply', { a: 1231, b: 2331 }]],
    );
    assert.match(result.content, /2,?869,?461/);
    assert.equal(deltas.join('').trim(), result.content);
    const sent = server.requests.slice(start);
    assert.equal(sent.length, 2);
    const recorded = recordedRequests(path);
    for (const body of sent.map(bodyOf)) {
      assert.equal(body.stream, true);
      assert.deepEqual(body.stream_options, { include_usage: true });
    }
    assert.deepEqual(essentials(bodyOf(sent[0]!)), essentials(bodyOf(recorded[0]!)));
    assert.deepEqual(essentials(bodyOf(sent[1]!)), essentials(bodyOf(recorded[1]!)));
    assert.equal(result.usage.promptTokens, 54 + 87);
    assert.equal(result.usage.completionTokens, 20 + 26);
  });

  test('streamed parallel calls (chat.parallel_tool_calls.roundtrip.stream.mirascope): turn 2 matches the recording', async () => {
    const path = 'openai/chat.parallel_tool_calls.roundtrip.stream.mirascope.interactions.json';
    server.enqueue(...recordedResponses(path).map((r) => sseResponse(r.body!, 7)));
    const start = server.requests.length;
    const recorded = recordedRequests(path);
    const first = bodyOf(recorded[0]!);
    const system = first.messages.find((m) => m.role === 'system')?.content;
    const user = first.messages.find((m) => m.role === 'user')!.content ?? '';
    const agent = new Agent({ provider: providerFor(server), model: 'gpt-4o', ...(system ? { systemPrompt: system } : {}), tools: [secretTool()], runtime: testRuntime() });
    const stream = agent.stream(user);
    for await (const _event of stream) void _event;
    const result = await stream.result;
    assert.equal(result.toolCalls.length, 2);
    const sent = server.requests.slice(start);
    assert.equal(sent.length, 2);
    assert.deepEqual(essentials(bodyOf(sent[1]!)), essentials(bodyOf(recorded[1]!)));
    assert.ok(result.content.length > 0);
  });
});
