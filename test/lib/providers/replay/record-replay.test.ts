import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { z } from 'zod';
import { Agent } from '../../../../lib/agent/agent.js';
import { CassetteError } from '../../../../lib/core/errors/cassette-error.js';
import { ProviderError } from '../../../../lib/core/errors/provider-error.js';
import { FallbackProvider } from '../../../../lib/providers/fallback.js';
import { readCassette, RecordingProvider, ReplayProvider } from '../../../../lib/providers/replay/index.js';
import { ScriptedProvider } from '../../../../lib/providers/scripted.js';
import type { StreamPart } from '../../../../lib/providers/spec.js';
import { tool } from '../../../../lib/tools/tool.js';
import { eventLog, testRuntime, weatherTool } from '../../../support/agent-harness.js';

const dir = mkdtempSync(join(tmpdir(), 'agentlib-cassette-'));
after(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
const cassettePath = (): string => join(dir, `c${++n}.jsonl`);

const toolReplies = () => [{ toolCalls: [{ toolName: 'get_weather', parameters: { city: 'Oslo' } }], usage: { promptTokens: 11, completionTokens: 5 } }, { text: 'Oslo is sunny', usage: { promptTokens: 20, completionTokens: 4 } }];

describe('record / replay', () => {
  test('a recorded tool round trip replays with the same result and no provider', async () => {
    const path = cassettePath();
    const recorder = new RecordingProvider(new ScriptedProvider({ replies: toolReplies() }), { path, env: {} });
    const live = await new Agent({ provider: recorder, tools: [weatherTool()], runtime: testRuntime() }).run('weather in Oslo?');
    assert.equal(recorder.recorded, 2);
    const replay = ReplayProvider.fromFile(path, { env: {} });
    assert.equal(replay.name, 'scripted');
    const again = await new Agent({ provider: replay, tools: [weatherTool()], runtime: testRuntime() }).run('weather in Oslo?');
    assert.equal(again.content, live.content);
    assert.deepEqual(again.toolCalls, live.toolCalls);
    assert.deepEqual(again.usage.toJSON(), live.usage.toJSON());
    assert.equal(replay.unused, 0);
  });

  test('a cassette recorded from run() replays into stream() and back', async () => {
    const path = cassettePath();
    const recorder = new RecordingProvider(new ScriptedProvider({ replies: toolReplies() }), { path, env: {} });
    const live = await new Agent({ provider: recorder, tools: [weatherTool()], runtime: testRuntime() }).run('weather?');
    const stream = new Agent({ provider: ReplayProvider.fromFile(path, { env: {} }), tools: [weatherTool()], runtime: testRuntime() }).stream('weather?');
    let text = '';
    for await (const t of stream.textStream) text += t;
    assert.equal(text, live.content);
    assert.equal((await stream.result).usage.totalTokens, live.usage.totalTokens);

    const streamed = cassettePath();
    const rec2 = new RecordingProvider(new ScriptedProvider({ replies: [{ chunks: ['Hel', 'lo'], reasoning: 'think', usage: { promptTokens: 3, completionTokens: 2 } }] }), { path: streamed, env: {} });
    const s2 = new Agent({ provider: rec2, runtime: testRuntime() }).stream('hi');
    for await (const e of s2) void e;
    const fromStream = await new Agent({ provider: ReplayProvider.fromFile(streamed, { env: {} }), runtime: testRuntime() }).run('hi');
    assert.equal(fromStream.content, 'Hello');
    assert.equal(fromStream.usage.totalTokens, 5);
  });

  test('a different request fails loudly, naming the first difference', async () => {
    const path = cassettePath();
    await new Agent({ provider: new RecordingProvider(new ScriptedProvider({ replies: ['ok'] }), { path, env: {} }), runtime: testRuntime() }).run('first prompt');
    const agent = new Agent({ provider: ReplayProvider.fromFile(path, { env: {} }), runtime: testRuntime() });
    await assert.rejects(agent.run('other prompt'), (error: unknown) => {
      assert.ok(CassetteError.isInstance(error));
      assert.equal(error.kind, 'mismatch');
      assert.equal(error.path, 'messages[0].content');
      assert.match(error.message, /recorded "first prompt", now "other prompt"/);
      return true;
    });
  });

  test('more calls than recorded: exhausted', async () => {
    const path = cassettePath();
    await new Agent({ provider: new RecordingProvider(new ScriptedProvider({ replies: ['ok'] }), { path, env: {} }), runtime: testRuntime() }).run('p');
    const replay = ReplayProvider.fromFile(path, { env: {} });
    const agent = new Agent({ provider: replay, runtime: testRuntime() });
    await agent.run('p');
    agent.reset();
    await assert.rejects(agent.run('p'), (error: unknown) => CassetteError.isInstance(error) && error.kind === 'exhausted' && /1 recorded/.test(error.message));
  });

  test('secrets never reach the file: env values scrubbed, secret keys redacted; replay still matches', async () => {
    const path = cassettePath();
    const env = { OPENAI_API_KEY: 'sk-live-0123456789abcdef', HOME: '/home/x' };
    const login = tool({ name: 'login', description: 'Logs a user in.', parameters: z.object({ user: z.string(), password: z.string() }), execute: ({ user }) => `welcome ${user}` });
    const replies = [{ toolCalls: [{ toolName: 'login', parameters: { user: 'ada', password: 'hunter2-secret' } }] }, 'logged in'];
    const recorder = new RecordingProvider(new ScriptedProvider({ replies }), { path, env });
    await new Agent({ provider: recorder, tools: [login], runtime: testRuntime() }).run('my key is sk-live-0123456789abcdef, log me in');
    const text = readFileSync(path, 'utf8');
    assert.doesNotMatch(text, /sk-live-0123456789abcdef/);
    assert.doesNotMatch(text, /hunter2-secret/);
    assert.match(text, /\[REDACTED:OPENAI_API_KEY\]/);
    const again = await new Agent({ provider: ReplayProvider.fromFile(path, { env }), tools: [login], runtime: testRuntime() }).run('my key is sk-live-0123456789abcdef, log me in');
    assert.equal(again.content, 'logged in');
  });

  test('recorded provider errors come back typed; a stream error after output comes after the same parts', async () => {
    const path = cassettePath();
    const error = new ProviderError('bad key', { provider: 'openai', status: 401, requestId: 'req_1', kind: 'auth' });
    const recorder = new RecordingProvider(new ScriptedProvider({ replies: [{ error }, { text: 'partial answer', errorAfterChunks: 2 }] }), { path, env: {} });
    const request = { model: 'm', messages: [{ role: 'user' as const, content: 'x' }] };
    await assert.rejects(recorder.complete(request), (e: unknown) => e === error);
    const seen: StreamPart[] = [];
    await assert.rejects(async () => {
      for await (const part of recorder.stream(request)) seen.push(part);
    }, (e: unknown) => ProviderError.isInstance(e));

    const replay = ReplayProvider.fromFile(path, { env: {} });
    await assert.rejects(replay.complete(request), (e: unknown) => {
      assert.ok(ProviderError.isInstance(e));
      assert.deepEqual([e.provider, e.status, e.requestId, e.kind, e.retryable, e.message], ['openai', 401, 'req_1', 'auth', false, 'bad key']);
      return true;
    });
    const replayed: StreamPart[] = [];
    await assert.rejects(async () => {
      for await (const part of replay.stream(request)) replayed.push(part);
    }, (e: unknown) => ProviderError.isInstance(e));
    assert.deepEqual(replayed, seen);
    assert.ok(seen.length >= 2);
  });

  test('parallel calls replay in any order', async () => {
    const path = cassettePath();
    const recorder = new RecordingProvider(new ScriptedProvider({ respond: (req) => `echo ${String(req.messages.at(-1)?.content)}` }), { path, env: {} });
    const agent = new Agent({ provider: recorder, runtime: testRuntime() });
    const live = await agent.batch(['a', 'b', 'c']);
    const replayAgent = new Agent({ provider: ReplayProvider.fromFile(path, { env: {} }), runtime: testRuntime() });
    const replayed = await replayAgent.batch(['c', 'a', 'b']);
    assert.deepEqual(replayed.map((r) => r.content), ['echo c', 'echo a', 'echo b']);
    assert.deepEqual(live.map((r) => r.content), ['echo a', 'echo b', 'echo c']);
  });

  test('fallback notices are recorded and replayed as provider-fallback events', async () => {
    const path = cassettePath();
    const down = new ScriptedProvider({ name: 'primary', replies: [{ error: new ProviderError('overloaded', { provider: 'primary', status: 529 }) }] });
    const up = new ScriptedProvider({ name: 'backup', replies: ['from backup'] });
    const recorder = new RecordingProvider(new FallbackProvider([down, up]), { path, env: {} });
    await new Agent({ provider: recorder, runtime: testRuntime() }).run('q');
    const log = eventLog();
    const result = await new Agent({ provider: ReplayProvider.fromFile(path, { env: {} }), observers: [log.observer], runtime: testRuntime() }).run('q');
    assert.equal(result.content, 'from backup');
    assert.deepEqual(log.of('provider-fallback').map((e) => [e.from, e.to]), [['primary', 'backup']]);
  });

  test('embeddings are recorded and replayed', async () => {
    const path = cassettePath();
    const recorder = new RecordingProvider(new ScriptedProvider({}), { path, env: {} });
    const live = await recorder.embed!({ texts: ['a', 'b'] });
    const replay = ReplayProvider.fromFile(path, { env: {} });
    assert.deepEqual(await replay.embed!({ texts: ['a', 'b'] }), live);
    await assert.rejects(replay.embed!({ texts: ['z'] }), (e: unknown) => CassetteError.isInstance(e));
  });

  test('the cassette is versioned JSONL with a header line', () => {
    const path = cassettePath();
    new RecordingProvider(new ScriptedProvider({}), { path, env: {}, now: () => new Date(0) });
    const cassette = readCassette(path);
    assert.deepEqual(cassette.header, {
      type: 'cassette', version: 1, provider: 'scripted', defaultModel: 'scripted-model',
      capabilities: { tools: true, streaming: true, structuredOutput: true, vision: true, embeddings: true },
      createdAt: '1970-01-01T00:00:00.000Z', redactKeys: true,
    });
    assert.equal(cassette.interactions.length, 0);
  });
});
