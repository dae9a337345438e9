// /model in `agentlib chat` with --record / --replay: the switched agent keeps the chat's cassette.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Agent } from '../../../lib/agent/agent.js';
import { UsageError } from '../../../cli/usage-error.js';
import { modelSwitcher } from '../../../commands/chat/switch-model.js';
import { resolveAgent, type AgentRequest } from '../../../commands/run/resolve-agent.js';
import { fixture, sseResponse, startReplayServer, type ReplayServer } from '../../support/replay-server.js';

const KEY_VARIABLE = 'AGENTLIB_CHAT_SWITCH_TEST_KEY';

/** One streamed turn, as the chat runs it. */
async function turn(agent: Agent, prompt: string): Promise<string> {
  const stream = agent.stream(prompt);
  for await (const _event of stream);
  return (await stream.result).content;
}

describe('/model with --record or --replay (modelSwitcher)', () => {
  let server: ReplayServer;
  let dir: string;
  before(async () => {
    server = await startReplayServer();
    dir = mkdtempSync(join(tmpdir(), 'chat-switch-'));
    process.env[KEY_VARIABLE] = 'sk-test-not-a-real-key';
    writeFileSync(
      join(dir, 'agent.yaml'),
      `name: switcher\nprovider:\n  type: openai\n  base_url: ${server.url}/v1\n  api_key_env: ${KEY_VARIABLE}\nmodel: gpt-4o-mini\nsystem_prompt: Be brief.\n`,
    );
  });
  after(async () => {
    delete process.env[KEY_VARIABLE];
    rmSync(dir, { recursive: true, force: true });
    await server.close();
  });

  const base = (): AgentRequest => ({ ref: 'agent.yaml', cwd: dir, env: process.env, vars: {} });
  const answer = (): ReturnType<typeof sseResponse> => sseResponse(fixture('openai/chat.text.stream.include_usage.sse'));

  test('--record: the switched agent appends to the same cassette (nothing recorded before the switch is lost)', async () => {
    server.enqueue(answer(), answer());
    const request: AgentRequest = { ...base(), record: 'chat.cassette.jsonl' };
    const resolved = await resolveAgent(request);
    await turn(resolved.agent, 'first question');
    const switched = await modelSwitcher(request, resolved)('gpt-4o');
    assert.equal(switched.model, 'gpt-4o');
    assert.equal(switched.name, 'switcher');
    await turn(switched, 'second question');
    const lines = readFileSync(join(dir, 'chat.cassette.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { type: string; index?: number; request?: { model?: string; messages?: unknown[] } });
    assert.deepEqual(lines.map((line) => line.type), ['cassette', 'stream', 'stream']);
    assert.deepEqual(lines.slice(1).map((line) => [line.index, line.request?.model]), [
      [0, 'gpt-4o-mini'],
      [1, 'gpt-4o'],
    ]);
    assert.match(JSON.stringify(lines[1]?.request?.messages), /first question/);
    assert.match(JSON.stringify(lines[2]?.request?.messages), /second question/);
    assert.equal(resolved.recorder?.recorded, 2, 'one recorder wrote both calls');
  });

  test('--replay: the switched agent continues the same replay (the cassette with the switch replays to the end)', async () => {
    const requests = server.requests.length;
    const request: AgentRequest = { ...base(), replay: 'chat.cassette.jsonl' };
    const resolved = await resolveAgent(request);
    const first = await turn(resolved.agent, 'first question');
    const switched = await modelSwitcher(request, resolved)('gpt-4o');
    const second = await turn(switched, 'second question');
    assert.notEqual(first, '');
    assert.equal(second, first, 'the recorded answer');
    assert.equal(resolved.replay?.unused, 0, 'both recorded calls were replayed by the one replayer');
    assert.equal(server.requests.length, requests, 'no call reached the network');
  });

  test('without the recorder it refuses clearly instead of starting the cassette over', async () => {
    const request: AgentRequest = { ...base(), record: 'other.cassette.jsonl' };
    await assert.rejects(modelSwitcher(request, {})('gpt-4o'), (error: unknown) => {
      assert.ok(UsageError.isInstance(error));
      assert.match(error.message, /\/model cannot switch models here: .*--record other\.cassette\.jsonl.*start the cassette over/);
      return true;
    });
  });

  test('without --record / --replay the agent file is loaded again with the new model', async () => {
    const switched = await modelSwitcher(base(), {})('gpt-4.1-mini');
    assert.equal(switched.model, 'gpt-4.1-mini');
    assert.equal(switched.providerName, 'openai');
  });
});
