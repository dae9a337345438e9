import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Agent } from '../../../../lib/agent/agent.js';
import { ProviderError } from '../../../../lib/core/errors/provider-error.js';
import { OllamaProvider } from '../../../../lib/providers/ollama/index.js';
import { eventLog, testRuntime, weatherTool } from '../../../support/agent-harness.js';
import { fixture, jsonResponse, startReplayServer, type ReplayResponse, type ReplayServer } from '../../../support/replay-server.js';

const JSON_UTF8 = { 'content-type': 'application/json; charset=utf-8' };
const NDJSON = { 'content-type': 'application/x-ndjson' };

function finalAnswer(content: string): ReplayResponse {
  return jsonResponse({ model: 'llama3.2', created_at: '2025-07-07T20:33:00Z', message: { role: 'assistant', content }, done_reason: 'stop', done: true, prompt_eval_count: 40, eval_count: 9 });
}

interface SentMessage {
  role: string;
  content: string;
  tool_name?: string;
  tool_calls?: { function: { name: string; arguments: unknown } }[];
}

describe('an Agent on the Ollama adapter', () => {
  let server: ReplayServer;
  before(async () => {
    server = await startReplayServer();
  });
  after(() => server.close());

  test('tool round trip: turn 2 carries the assistant tool call and the result as a tool message', async () => {
    const start = server.requests.length;
    server.enqueue({ status: 200, headers: JSON_UTF8, body: fixture('ollama/api-chat.tool_calls.nonstream.docs.json') }, finalAnswer('It is 21 degrees in Tokyo.'));
    const cities: string[] = [];
    const agent = new Agent({ provider: new OllamaProvider({ host: server.url }), tools: [weatherTool(cities)], runtime: testRuntime() });
    const result = await agent.run('What is the weather in Tokyo?');
    assert.equal(result.content, 'It is 21 degrees in Tokyo.');
    assert.deepEqual(cities, ['Tokyo']);
    const [turn1, turn2] = server.requests.slice(start).map((r) => r.json as { model: string; messages: SentMessage[]; tools?: { function: { name: string } }[] });
    assert.equal(turn1!.model, 'llama3.2', 'the provider default model');
    assert.deepEqual(turn1!.tools?.map((t) => t.function.name), ['get_weather']);
    const messages = turn2!.messages.filter((m) => m.role !== 'system');
    assert.deepEqual(messages.slice(-3, -1), [
      { role: 'user', content: 'What is the weather in Tokyo?' },
      { role: 'assistant', content: '', tool_calls: [{ function: { name: 'get_weather', arguments: { city: 'Tokyo' } } }] },
    ]);
    const toolMessage = messages.at(-1)!;
    assert.equal(toolMessage.role, 'tool');
    assert.equal(toolMessage.tool_name, 'get_weather');
    assert.deepEqual(JSON.parse(toolMessage.content), { city: 'Tokyo', unit: 'c', temperature: 21 });
  });

  test('streamed tool round trip through agent.stream', async () => {
    const start = server.requests.length;
    server.enqueue(
      { status: 200, headers: NDJSON, chunks: fixture('ollama/api-chat.tool_calls.stream.docs.ndjson').toString('utf8').split(/(?<=\n)/) },
      {
        status: 200,
        headers: NDJSON,
        chunks: [
          '{"model":"llama3.2","message":{"role":"assistant","content":"Sunny"},"done":false}\n',
          '{"model":"llama3.2","message":{"role":"assistant","content":" in Tokyo"},"done":false}\n',
          '{"model":"llama3.2","message":{"role":"assistant","content":""},"done_reason":"stop","done":true,"prompt_eval_count":50,"eval_count":4}\n',
        ],
      },
    );
    const agent = new Agent({ provider: new OllamaProvider({ host: server.url }), tools: [weatherTool()], runtime: testRuntime() });
    const stream = agent.stream('Weather in Tokyo?');
    let text = '';
    for await (const t of stream.textStream) text += t;
    assert.equal(text, 'Sunny in Tokyo');
    assert.equal((await stream.result).content, 'Sunny in Tokyo');
    const turn2 = server.requests.slice(start)[1]!.json as { messages: SentMessage[] };
    assert.equal(turn2.messages.at(-1)!.role, 'tool');
    assert.equal(turn2.messages.at(-1)!.tool_name, 'get_weather');
  });

  test('500 then success is retried (llm-retry, instant sleep)', async () => {
    const start = server.requests.length;
    server.enqueue(jsonResponse({ error: 'llama runner process has terminated' }, 500), finalAnswer('recovered'));
    const runtime = testRuntime();
    const log = eventLog();
    const agent = new Agent({ provider: new OllamaProvider({ host: server.url }), observers: [log.observer], runtime });
    const result = await agent.run('hi');
    assert.equal(result.content, 'recovered');
    assert.equal(server.requests.length - start, 2);
    assert.equal(log.of('llm-retry').length, 1);
    assert.equal(runtime.sleeps.length, 1);
  });

  test('503 overloaded twice then success', async () => {
    server.enqueue(jsonResponse({ error: 'server busy, please try again. maximum pending requests exceeded' }, 503), jsonResponse({ error: 'server busy' }, 503), finalAnswer('finally'));
    const log = eventLog();
    const agent = new Agent({ provider: new OllamaProvider({ host: server.url }), observers: [log.observer], runtime: testRuntime() });
    const result = await agent.run('hi');
    assert.equal(result.content, 'finally');
    assert.equal(log.of('llm-retry').length, 2);
  });

  test('503 on every attempt ends in a typed error, not an answer', async () => {
    server.enqueue(...Array.from({ length: 3 }, () => jsonResponse({ error: 'server busy' }, 503)));
    const agent = new Agent({ provider: new OllamaProvider({ host: server.url }), runtime: testRuntime() });
    await assert.rejects(agent.run('hi'), (e: unknown) => ProviderError.isInstance(e) && e.status === 503 && e.kind === 'overloaded' && e.retryable);
    assert.equal(server.pending(), 0);
  });

  test('404 is not retried and names the model', async () => {
    const start = server.requests.length;
    server.enqueue(jsonResponse({ error: "model 'nope' not found" }, 404));
    const runtime = testRuntime();
    const agent = new Agent({ provider: new OllamaProvider({ host: server.url, model: 'nope' }), runtime });
    await assert.rejects(agent.run('hi'), (e: unknown) => ProviderError.isInstance(e) && e.status === 404 && e.model === 'nope' && /nope/.test(e.message));
    assert.equal(server.requests.length - start, 1);
    assert.equal(runtime.sleeps.length, 0);
  });
});
