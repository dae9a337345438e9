import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { z } from 'zod';
import { Agent } from '../../../../lib/agent/agent.js';
import { tool } from '../../../../lib/tools/tool.js';
import type { Tool } from '../../../../lib/tools/types.js';
import { testRuntime } from '../../../support/agent-harness.js';
import { recordedRequests, recordedResponses, sseResponse, startReplayServer, type ReplayServer } from '../../../support/replay-server.js';
import { providerFor } from './helpers.js';

const DIR = 'anthropic/';

interface Block {
  type: string;
  [key: string]: unknown;
}
interface Turn {
  role: string;
  content: string | Block[];
}

const blocks = (turn: Turn | undefined): Block[] => (typeof turn?.content === 'string' ? [{ type: 'text', text: turn.content }] : (turn?.content ?? []));
/** The parts of a turn-2 body that matter: tool_use blocks of the assistant turn and the tool_result turn after it. */
function toolExchange(body: unknown): { uses: Block[]; results: Block[]; roles: string[] } {
  const messages = (body as { messages: Turn[] }).messages;
  const at = messages.findIndex((m) => m.role === 'assistant');
  const uses = blocks(messages[at]).filter((b) => b.type === 'tool_use').map(({ type, id, name, input }) => ({ type, id, name, input }));
  const results = blocks(messages[at + 1]).map(({ type, tool_use_id, content, is_error }) => (is_error ? { type, tool_use_id, content, is_error } : { type, tool_use_id, content }));
  return { uses, results, roles: messages.map((m) => m.role) };
}

function secretTool(): Tool {
  const secrets: Record<string, string> = { mellon: 'Welcome to Moria!', radiance: 'Life before Death' };
  return tool({
    name: 'secret_retrieval_tool',
    description: 'A tool that requires a password to retrieve a secret.',
    parameters: z.object({ password: z.string() }),
    execute: ({ password }) => secrets[password] ?? 'unknown',
  });
}

function pelicanTool(): Tool {
  const names = ['Charles', 'Sammy'];
  return tool({ name: 'pelican_name_generator', description: 'Generates a pelican name', parameters: z.object({}), execute: () => names.shift() ?? 'Pete' });
}

describe('Agent tool round trips through AnthropicProvider (recorded multi-turn traffic)', () => {
  let server: ReplayServer;
  before(async () => (server = await startReplayServer()));
  after(async () => server.close());

  test('parallel tool_use, non-streamed (mirascope): turn-2 request carries adjacent tool_results with matching ids', async () => {
    const file = `${DIR}messages.parallel_tool_use.roundtrip.nonstream.mirascope.interactions.json`;
    server.enqueue(...recordedResponses(file));
    const before = server.requests.length;
    const agent = new Agent({ provider: providerFor(server), tools: [secretTool()], runtime: testRuntime() });
    const result = await agent.run('Please retrieve the secrets associated with each of these passwords: mellon,radiance');
    assert.equal(result.content, 'Here are the secrets retrieved for each password:\n\n- Password "mellon": **Welcome to Moria!**\n- Password "radiance": **Life before Death**');
    const sent = server.requests.slice(before);
    assert.equal(sent.length, 2);
    const recorded = recordedRequests(file)[1]!.body;
    const ours = toolExchange(sent[1]!.json);
    assert.deepEqual(ours.roles, ['user', 'assistant', 'user']);
    assert.deepEqual(ours.uses, toolExchange(recorded).uses);
    assert.deepEqual(ours.results, toolExchange(recorded).results);
    const assistant = (sent[1]!.json as { messages: Turn[] }).messages[1]!;
    assert.deepEqual(blocks(assistant)[0], { type: 'text', text: "I'll retrieve the secrets for both passwords you provided." });
    const tools = (sent[0]!.json as { tools: { name: string; input_schema: { type: string; required: string[] } }[] }).tools;
    assert.equal(tools[0]!.name, 'secret_retrieval_tool');
    assert.equal(tools[0]!.input_schema.type, 'object');
    assert.deepEqual(tools[0]!.input_schema.required, ['password']);
  });

  test('parallel tool_use, streamed at odd byte offsets (mirascope): same turn-2 shape', async () => {
    const file = `${DIR}messages.parallel_tool_use.roundtrip.stream.mirascope.interactions.json`;
    server.enqueue(...recordedResponses(file).map((r) => sseResponse(r.body!, 7)));
    const before = server.requests.length;
    const agent = new Agent({ provider: providerFor(server), tools: [secretTool()], runtime: testRuntime() });
    const result = await agent.stream('Please retrieve the secrets associated with each of these passwords: mellon,radiance').result;
    assert.match(result.content, /^Here are the secrets retrieved for each password:/);
    assert.match(result.content, /Life before Death/);
    const sent = server.requests.slice(before);
    assert.equal(sent.length, 2);
    assert.equal((sent[1]!.json as { stream: boolean }).stream, true);
    const recorded = toolExchange(recordedRequests(file)[1]!.body);
    const ours = toolExchange(sent[1]!.json);
    assert.deepEqual(ours.roles, ['user', 'assistant', 'user']);
    assert.deepEqual(ours.uses, recorded.uses);
    assert.deepEqual(ours.results, recorded.results);
  });

  test('no-argument parallel tool_use, streamed (simonw-llm): inputs {} and both results in one user turn', async () => {
    const file = `${DIR}messages.tool_use.roundtrip.stream.simonw-llm.interactions.json`;
    server.enqueue(...recordedResponses(file).map((r) => sseResponse(r.body!, 7)));
    const before = server.requests.length;
    const agent = new Agent({ provider: providerFor(server), tools: [pelicanTool()], runtime: testRuntime() });
    const result = await agent.stream('Two names for a pet pelican').result;
    assert.match(result.content, /^Here are two great names for your pet pelican:/);
    assert.match(result.content, /Charles[\s\S]*Sammy/);
    const sent = server.requests.slice(before);
    const recorded = toolExchange(recordedRequests(file)[1]!.body);
    const ours = toolExchange(sent[1]!.json);
    assert.deepEqual(ours.roles, ['user', 'assistant', 'user']);
    assert.deepEqual(ours.uses, recorded.uses);
    assert.deepEqual(ours.results, recorded.results);
  });
});
