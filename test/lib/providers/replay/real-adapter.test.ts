import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { z } from 'zod';
import { Agent } from '../../../../lib/agent/agent.js';
import { RecordingProvider, ReplayProvider } from '../../../../lib/providers/replay/index.js';
import { tool } from '../../../../lib/tools/tool.js';
import { testRuntime } from '../../../support/agent-harness.js';
import { recordedResponses, sseResponse, startReplayServer } from '../../../support/replay-server.js';
import { providerFor } from '../openai/helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'agentlib-cassette-real-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const multiply = () =>
  tool({ name: 'multiply', description: 'Multiply two numbers.', parameters: z.object({ a: z.number().int(), b: z.number().int() }), execute: ({ a, b }) => String(a * b) });

describe('record / replay over the real OpenAI adapter', () => {
  test('a streamed tool round trip recorded from recorded wire traffic replays with the server gone', async () => {
    const server = await startReplayServer();
    const path = join(dir, 'openai.jsonl');
    let live;
    try {
      server.enqueue(...recordedResponses('openai/chat.tool_call.roundtrip.stream.simonw-llm.interactions.json').map((r) => sseResponse(r.body!, 7)));
      const recorder = new RecordingProvider(providerFor(server), { path, env: { OPENAI_API_KEY: 'sk-test-not-a-real-key' } });
      const stream = new Agent({ provider: recorder, model: 'gpt-4o-mini', tools: [multiply()], runtime: testRuntime() }).stream('What is 1231 * 2331?');
      for await (const event of stream) void event;
      live = await stream.result;
    } finally {
      await server.close();
    }
    assert.doesNotMatch(readFileSync(path, 'utf8'), /sk-test-not-a-real-key/);
    const replay = ReplayProvider.fromFile(path);
    assert.equal(replay.name, 'openai');
    const again = await new Agent({ provider: replay, model: 'gpt-4o-mini', tools: [multiply()], runtime: testRuntime() }).run('What is 1231 * 2331?');
    assert.match(again.content, /2,?869,?461/);
    assert.equal(again.content, live.content);
    assert.deepEqual(again.toolCalls, live.toolCalls);
    assert.equal(again.usage.totalTokens, live.usage.totalTokens);
    assert.equal(again.usage.costUsd, live.usage.costUsd);
  });
});
