// ReplayProvider's `reuse` (issue 13 item 3): recorded calls answer as often as a request matches
// them (serve, chat); without it each answers once (run). A miss names the closest recorded call.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { Agent } from '../../../../lib/agent/agent.js';
import { CassetteError } from '../../../../lib/core/errors/cassette-error.js';
import { ProviderError } from '../../../../lib/core/errors/provider-error.js';
import { RecordingProvider, ReplayProvider } from '../../../../lib/providers/replay/index.js';
import { ScriptedProvider } from '../../../../lib/providers/scripted.js';
import { testRuntime, weatherTool } from '../../../support/agent-harness.js';

const dir = mkdtempSync(join(tmpdir(), 'agentlib-reuse-'));
after(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
const cassettePath = (): string => join(dir, `c${++n}.jsonl`);

const toolReplies = () => [{ toolCalls: [{ toolName: 'get_weather', parameters: { city: 'Oslo' } }] }, { text: 'Oslo is sunny' }];

async function recordWeather(): Promise<string> {
  const path = cassettePath();
  await new Agent({ provider: new RecordingProvider(new ScriptedProvider({ replies: toolReplies() }), { path, env: {} }), tools: [weatherTool()], runtime: testRuntime() }).run('weather in Oslo?');
  return path;
}

describe('ReplayProvider reuse', () => {
  test('with reuse, one recorded tool round trip answers the same prompt 3 times (fresh agents and after reset)', async () => {
    const replay = ReplayProvider.fromFile(await recordWeather(), { env: {}, reuse: true });
    for (let i = 0; i < 2; i++) {
      const result = await new Agent({ provider: replay, tools: [weatherTool()], runtime: testRuntime() }).run('weather in Oslo?');
      assert.equal(result.content, 'Oslo is sunny', `run ${i + 1}`);
    }
    const agent = new Agent({ provider: replay, tools: [weatherTool()], runtime: testRuntime() });
    agent.reset();
    assert.equal((await agent.run('weather in Oslo?')).content, 'Oslo is sunny');
  });

  test('with reuse, the same question asked again later in one conversation replays its recorded turn (chat without /reset)', async () => {
    const replay = ReplayProvider.fromFile(await recordWeather(), { env: {}, reuse: true });
    const agent = new Agent({ provider: replay, tools: [weatherTool()], runtime: testRuntime() });
    assert.equal((await agent.run('weather in Oslo?')).content, 'Oslo is sunny');
    const again = await agent.run('weather in Oslo?');
    assert.equal(again.content, 'Oslo is sunny');
    assert.equal(again.iterations, 2, 'the recorded tool round trip, then the answer');
    await assert.rejects(agent.run('weather in Bergen?'), (error: unknown) => CassetteError.isInstance(error) && error.kind === 'mismatch', 'another question still misses');
  });

  test('without reuse (the default, agentlib run) a second run is exhausted', async () => {
    const replay = ReplayProvider.fromFile(await recordWeather(), { env: {} });
    await new Agent({ provider: replay, tools: [weatherTool()], runtime: testRuntime() }).run('weather in Oslo?');
    await assert.rejects(
      new Agent({ provider: replay, tools: [weatherTool()], runtime: testRuntime() }).run('weather in Oslo?'),
      (error: unknown) => CassetteError.isInstance(error) && error.kind === 'exhausted',
    );
  });

  test('identical requests recorded twice (a failed attempt, then the answer) replay in order, then start over', async () => {
    const path = cassettePath();
    const failure = new ProviderError('overloaded', { provider: 'openai', status: 529, kind: 'overloaded' });
    const recorder = new RecordingProvider(new ScriptedProvider({ replies: [{ error: failure }, 'fine'] }), { path, env: {} });
    const request = { model: 'm', messages: [{ role: 'user' as const, content: 'x' }] };
    await assert.rejects(recorder.complete(request));
    await recorder.complete(request);
    const replay = ReplayProvider.fromFile(path, { env: {}, reuse: true });
    const outcomes: string[] = [];
    for (let i = 0; i < 4; i++) {
      outcomes.push(await replay.complete(request).then((r) => r.message.content, (e: unknown) => (ProviderError.isInstance(e) ? `error ${e.status ?? ''}` : 'other')));
    }
    assert.deepEqual(outcomes, ['error 529', 'fine', 'error 529', 'fine']);
  });

  test('with reuse, a request not recorded is a mismatch against the closest recorded call (most leading messages in common)', async () => {
    const path = await recordWeather();
    const replay = ReplayProvider.fromFile(path, { env: {}, reuse: true });
    await new Agent({ provider: replay, tools: [weatherTool()], runtime: testRuntime() }).run('weather in Oslo?');
    // Another question later in the same conversation: no recording matches it, whole or from its
    // latest user message on; the closest is the call after the tool result (3 messages shared).
    const agent = new Agent({ provider: replay, tools: [weatherTool()], runtime: testRuntime() });
    await agent.run('weather in Oslo?');
    await assert.rejects(agent.run('weather in Bergen?'), (error: unknown) => {
      assert.ok(CassetteError.isInstance(error));
      assert.equal(error.kind, 'mismatch');
      assert.equal(error.file, path);
      assert.ok(error.message.startsWith(`${path}: provider call `), error.message);
      assert.match(error.message, /does not match the cassette\. The closest recorded call \(#2\) differs at messages\[3\]/);
      return true;
    });
  });
});
