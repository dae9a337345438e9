import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { z } from 'zod';
import { Agent } from '../../../../lib/agent/agent.js';
import { tool } from '../../../../lib/tools/tool.js';
import type { Tool } from '../../../../lib/tools/types.js';
import { testRuntime } from '../../../support/agent-harness.js';
import type { ReplayServer } from '../../../support/replay-server.js';
import { recordedRequests, recordedResponses } from '../../../support/replay-server.js';
import { isGeneratedCallId } from '../../../../lib/providers/gemini/index.js';
import { geminiOn, startServer } from './harness.js';

interface Body {
  contents: { role: string; parts: Record<string, unknown>[] }[];
  systemInstruction?: { parts: { text: string }[] };
}

/**
 * Thought signatures as hex of their bytes (the recorders used URL-safe base64). The recorded
 * clients invented call ids of their own (`pyd_ai_…`) that the API never sent: `dropIds` removes
 * them from a recorded body. What agentlib sent is compared with its ids, so a generated id that
 * went on the wire would show.
 */
function normalise(body: unknown, dropIds = false): Body {
  return JSON.parse(JSON.stringify(body), (key: string, value: unknown) => {
    if (key === 'thoughtSignature' && typeof value === 'string') return Buffer.from(value, 'base64').toString('hex');
    if (dropIds && (key === 'functionCall' || key === 'functionResponse') && typeof value === 'object' && value !== null) {
      const { id: _id, ...rest } = value as Record<string, unknown>;
      return rest;
    }
    return value;
  }) as Body;
}

/** The functionCall / functionResponse parts of a request, in order. */
function callParts(body: Body): Record<string, unknown>[] {
  return body.contents.flatMap((content) => content.parts.flatMap((part) => ['functionCall', 'functionResponse'].filter((k) => k in part).map((k) => ({ [k]: part[k] }))));
}

function secretTool(calls: string[]): Tool {
  const secrets: Record<string, string> = { mellon: 'Welcome to Moria!', radiance: 'Life before Death' };
  return tool({
    name: 'secret_retrieval_tool',
    description: 'A tool that requires a password to retrieve a secret.',
    parameters: z.object({ password: z.string() }),
    execute: ({ password }) => {
      calls.push(password);
      return secrets[password] ?? 'unknown';
    },
  });
}

const PARALLEL_PROMPT = 'Please retrieve the secrets associated with each of these passwords: mellon,radiance';

describe('Gemini tool round trips through an Agent (recorded multi-turn traffic)', () => {
  let server: ReplayServer;
  before(async () => {
    server = await startServer();
  });
  after(() => server.close());

  test('thought_signature (gemini 3, streamed): turn 2 echoes the exact signature bytes and the tool result', async () => {
    const file = 'google/streamGenerateContent.function_call.thought_signature.gemini3.interactions.json';
    server.enqueue(...recordedResponses(file));
    const recorded = recordedRequests(file);
    const first = server.requests.length;
    const getCountry = tool({ name: 'get_country', description: 'The user country', parameters: z.object({}), execute: () => 'Mexico' });
    const agent = new Agent({ provider: geminiOn(server), model: 'gemini-3-pro-preview', tools: [getCountry], runtime: testRuntime() });
    const stream = agent.stream('What is the capital of the user country? Call the tool');
    for await (const _event of stream) {
      // drain
    }
    const result = await stream.result;
    assert.equal(result.content, 'The capital of Mexico is Mexico City.');
    assert.equal(server.requests.length - first, 2);
    const [turn1, turn2] = server.requests.slice(first);
    assert.equal(turn2!.path, '/v1beta/models/gemini-3-pro-preview:streamGenerateContent?alt=sse');
    const sent = turn2!.json as Body;
    const modelTurn = sent.contents[1]!;
    assert.equal(modelTurn.role, 'model');
    assert.equal(modelTurn.parts.length, 1);
    const signature = modelTurn.parts[0]!.thoughtSignature as string;
    // byte-for-byte what turn 1 returned (standard base64, as received) …
    const received = /"thoughtSignature": "([^"]+)"/.exec(recordedResponses(file)[0]!.body!.toString('utf8'))![1]!;
    assert.equal(signature, received);
    // … and the same bytes the recorded client echoed (URL-safe base64 there)
    const recordedSignature = (recorded[1]!.body as Body).contents[1]!.parts[0]!.thoughtSignature as string;
    assert.deepEqual(Buffer.from(signature, 'base64'), Buffer.from(recordedSignature, 'base64'));
    // the whole conversation matches the recorded turn-2 request, but for the tool result's key
    const expected = normalise(recorded[1]!.body, true);
    expected.contents[2]!.parts[0] = { functionResponse: { name: 'get_country', response: { output: 'Mexico' } } };
    assert.deepEqual(normalise(sent).contents, expected.contents);
    assert.deepEqual((turn1!.json as Body).contents, (recorded[0]!.body as Body).contents);
    // the get_country tool has no parameters: no (empty) schema is sent
    assert.deepEqual((sent as unknown as { tools: unknown }).tools, [{ functionDeclarations: [{ name: 'get_country', description: 'The user country' }] }]);
  });

  test('parallel function calls (non-streamed): both tools run, turn 2 equals the recorded request', async () => {
    const file = 'google/generateContent.parallel_function_calls.roundtrip.mirascope.interactions.json';
    server.enqueue(...recordedResponses(file));
    const recorded = recordedRequests(file);
    const first = server.requests.length;
    const calls: string[] = [];
    const agent = new Agent({ provider: geminiOn(server), model: 'gemini-2.5-flash', systemPrompt: 'Use parallel tool calling.', tools: [secretTool(calls)], runtime: testRuntime() });
    const result = await agent.run(PARALLEL_PROMPT);
    assert.deepEqual(calls.sort(), ['mellon', 'radiance']);
    assert.ok(result.content.includes('Welcome to Moria!') && result.content.includes('Life before Death'), result.content);
    const [turn1, turn2] = server.requests.slice(first);
    assert.deepEqual(normalise(turn1!.json).contents, normalise(recorded[0]!.body, true).contents);
    const sent = normalise(turn2!.json);
    const expected = normalise(recorded[1]!.body, true);
    assert.deepEqual(sent.contents, expected.contents);
    assert.deepEqual(sent.systemInstruction?.parts, expected.systemInstruction?.parts);
    assert.equal(turn2!.path, '/v1beta/models/gemini-2.5-flash:generateContent');
  });

  test('parallel function calls (streamed): both tools run, turn 2 equals the recorded request', async () => {
    const file = 'google/streamGenerateContent.parallel_function_calls.roundtrip.mirascope.interactions.json';
    server.enqueue(...recordedResponses(file));
    const recorded = recordedRequests(file);
    const first = server.requests.length;
    const calls: string[] = [];
    const agent = new Agent({ provider: geminiOn(server), model: 'gemini-2.5-flash', systemPrompt: 'Use parallel tool calling.', tools: [secretTool(calls)], runtime: testRuntime() });
    const stream = agent.stream(PARALLEL_PROMPT);
    for await (const _event of stream) {
      // drain
    }
    const result = await stream.result;
    assert.deepEqual(calls.sort(), ['mellon', 'radiance']);
    assert.equal(result.content, 'The secrets associated with the passwords "mellon" and "radiance" are "Welcome to Moria!" and "Life before Death" respectively.');
    const sent = normalise(server.requests[first + 1]!.json);
    const expected = normalise(recorded[1]!.body, true);
    assert.deepEqual(sent.contents, expected.contents);
    assert.deepEqual(sent.systemInstruction?.parts, expected.systemInstruction?.parts);
  });

  test('a functionCall id the API sent is kept on the ToolCall and echoed on its functionCall and functionResponse', async () => {
    const file = 'google/generateContent.parallel_function_calls.roundtrip.mirascope.interactions.json';
    const [turn1, turn2] = recordedResponses(file);
    // The recorded turn 1 with ids on its calls, as the API may send them.
    const reply = JSON.parse(turn1!.body!.toString('utf8')) as { candidates: { content: { parts: { functionCall?: Record<string, unknown> }[] } }[] };
    const ids = ['fc_mellon_7f3a', 'fc_radiance_91c2'];
    reply.candidates[0]!.content.parts.forEach((part, i) => void (part.functionCall!['id'] = ids[i]));
    server.enqueue({ ...turn1!, body: JSON.stringify(reply) }, turn2!);
    const first = server.requests.length;
    const calls: string[] = [];
    const agent = new Agent({ provider: geminiOn(server), model: 'gemini-2.5-flash', systemPrompt: 'Use parallel tool calling.', tools: [secretTool(calls)], runtime: testRuntime() });
    const result = await agent.run(PARALLEL_PROMPT);
    assert.deepEqual(calls.sort(), ['mellon', 'radiance']);
    assert.deepEqual(result.toolCalls.map((c) => c.id), ids, 'the API ids are the ToolCall ids');
    const sent = server.requests[first + 1]!.json as Body;
    assert.deepEqual(
      callParts(sent).map((part) => JSON.parse(JSON.stringify(part, (key: string, value: unknown) => (key === 'args' || key === 'response' ? undefined : value))) as unknown),
      [
        { functionCall: { id: 'fc_mellon_7f3a', name: 'secret_retrieval_tool' } },
        { functionCall: { id: 'fc_radiance_91c2', name: 'secret_retrieval_tool' } },
        { functionResponse: { id: 'fc_mellon_7f3a', name: 'secret_retrieval_tool' } },
        { functionResponse: { id: 'fc_radiance_91c2', name: 'secret_retrieval_tool' } },
      ],
    );
    // Apart from the ids, turn 2 is the recorded request.
    assert.deepEqual(normalise(sent, true).contents, normalise(recordedRequests(file)[1]!.body, true).contents);
  });

  test('generated call ids (the API sent none) never go on the wire', async () => {
    const file = 'google/generateContent.parallel_function_calls.roundtrip.mirascope.interactions.json';
    server.enqueue(...recordedResponses(file));
    const first = server.requests.length;
    const result = await new Agent({ provider: geminiOn(server), model: 'gemini-2.5-flash', systemPrompt: 'Use parallel tool calling.', tools: [secretTool([])], runtime: testRuntime() }).run(PARALLEL_PROMPT);
    const generated = result.toolCalls.map((c) => c.id);
    assert.equal(generated.length, 2);
    assert.ok(generated.every((id) => isGeneratedCallId(id)), generated.join());
    const parts = callParts(server.requests[first + 1]!.json as Body);
    assert.equal(parts.length, 4);
    for (const part of parts) assert.ok(!('id' in (Object.values(part)[0] as object)), JSON.stringify(part));
  });
});
