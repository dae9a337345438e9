import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Agent } from '../../../lib/agent/agent.js';
import { ProviderError } from '../../../lib/core/errors/provider-error.js';
import { AnthropicProvider } from '../../../lib/providers/anthropic/index.js';
import { FallbackProvider } from '../../../lib/providers/fallback.js';
import { OpenAIProvider } from '../../../lib/providers/openai/index.js';
import { fixture, jsonResponse, sseResponse, startReplayServer, type ReplayServer } from '../../support/replay-server.js';
import { eventLog, testRuntime } from '../../support/agent-harness.js';
import { dataChunks } from './openai/helpers.js';

describe('FallbackProvider over the real adapters', () => {
  let openaiServer: ReplayServer;
  let anthropicServer: ReplayServer;
  before(async () => {
    openaiServer = await startReplayServer();
    anthropicServer = await startReplayServer();
  });
  after(async () => {
    await openaiServer.close();
    await anthropicServer.close();
  });

  const chain = () =>
    new FallbackProvider([
      new OpenAIProvider({ apiKey: 'sk-test', baseURL: `${openaiServer.url}/v1`, model: 'gpt-4o-mini' }),
      { provider: new AnthropicProvider({ apiKey: 'sk-ant-test', baseURL: anthropicServer.url }), model: 'claude-haiku-4-5' },
    ]);

  test('OpenAI overloaded → Anthropic answers; each got its own model; the failover is an event', async () => {
    openaiServer.enqueue(jsonResponse({ error: { message: 'The server is overloaded', type: 'server_error' } }, 503));
    anthropicServer.enqueue(jsonResponse(JSON.parse(fixture('anthropic/messages.text.nonstream.langchaingo.json').toString('utf8'))));
    const log = eventLog();
    const result = await new Agent({ provider: chain(), observers: [log.observer], retry: { maxRetries: 0 }, runtime: testRuntime() }).run('Hello');
    assert.equal(result.providerUsed, 'anthropic');
    assert.ok(result.content.length > 0);
    assert.equal((openaiServer.requests.at(-1)!.json as { model: string }).model, 'gpt-4o-mini');
    assert.equal((anthropicServer.requests.at(-1)!.json as { model: string }).model, 'claude-haiku-4-5');
    assert.deepEqual(log.of('provider-fallback').map((e) => [e.from, e.to, e.error.status]), [['openai', 'anthropic', 503]]);
  });

  test('a streamed failure before any output fails over to the next streaming provider', async () => {
    openaiServer.enqueue({ reset: true });
    anthropicServer.enqueue(sseResponse(fixture('anthropic/messages.text.stream.langchaingo.sse'), 11));
    const stream = new Agent({ provider: chain(), retry: { maxRetries: 0 }, runtime: testRuntime() }).stream('Hello');
    let text = '';
    for await (const delta of stream.textStream) text += delta;
    const result = await stream.result;
    assert.equal(result.providerUsed, 'anthropic');
    assert.equal(text, result.content);
    assert.ok(result.usage.totalTokens > 0, 'streamed usage is real');
  });

  test('a stream that fails after emitting text raises its error: no failover, no retry, no duplicated text', async () => {
    const recording = fixture('openai/chat.text.stream.include_usage.sse');
    const recordedText = dataChunks(recording.toString('utf8'))
      .map((c) => c.choices[0]?.delta?.content ?? '')
      .join('');
    // Connection reset after 1200 bytes: a few text deltas are out, the finish reason is not.
    openaiServer.enqueue({ ...sseResponse(recording, 50), resetAfterBytes: 1200 });
    const openaiBefore = openaiServer.requests.length;
    const anthropicBefore = anthropicServer.requests.length;
    const log = eventLog();
    const runtime = testRuntime();
    const stream = new Agent({ provider: chain(), observers: [log.observer], runtime }).stream('Hello');
    let text = '';
    await assert.rejects(
      (async () => {
        for await (const delta of stream.textStream) text += delta;
      })(),
      (e: unknown) => ProviderError.isInstance(e) && e.provider === 'openai' && e.kind === 'connection',
    );
    await assert.rejects(stream.result, (e: unknown) => ProviderError.isInstance(e) && e.provider === 'openai');
    assert.ok(text.length > 0, 'some text was streamed before the cut');
    assert.ok(recordedText.startsWith(text) && text.length < recordedText.length, `a strict prefix of the recorded answer, not repeated: ${JSON.stringify(text)}`);
    assert.equal(openaiServer.requests.length - openaiBefore, 1, 'not retried after output');
    assert.equal(anthropicServer.requests.length, anthropicBefore, 'never failed over after output');
    assert.deepEqual(log.of('provider-fallback'), []);
    assert.deepEqual(log.of('llm-retry'), []);
    assert.deepEqual(runtime.sleeps, []);
  });

  test('401 from the first provider is raised at once, never failed over', async () => {
    const before = anthropicServer.requests.length;
    openaiServer.enqueue(jsonResponse({ error: { message: 'Incorrect API key provided', type: 'invalid_request_error', code: 'invalid_api_key' } }, 401));
    await assert.rejects(new Agent({ provider: chain(), runtime: testRuntime() }).run('x'), (e: unknown) => ProviderError.isInstance(e) && e.provider === 'openai' && e.status === 401);
    assert.equal(anthropicServer.requests.length, before);
  });
});
