import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Agent } from '../../../../lib/agent/agent.js';
import { eventLog, testRuntime, weatherTool } from '../../../support/agent-harness.js';
import { jsonResponse, sseResponse, type ReplayServer } from '../../../support/replay-server.js';
import type { GenerateContentResponse } from '@google/genai';
import type { GeminiProvider } from '../../../../lib/providers/gemini/index.js';
import { collect, geminiOn, startServer } from './harness.js';

/**
 * `@google/genai` 1.52 drops `candidates[].finishMessage` from Gemini API replies. To exercise the
 * named-function path end to end, this puts the message back on what the real SDK returned (as an
 * SDK that kept it would).
 */
function keepFinishMessage(provider: GeminiProvider, finishMessage: string): GeminiProvider {
  const models = provider.client.models;
  const patch = (response: GenerateContentResponse): GenerateContentResponse => {
    const candidate = response.candidates?.[0];
    if ((candidate?.finishReason as string | undefined) === 'MALFORMED_FUNCTION_CALL') candidate!.finishMessage = finishMessage;
    return response;
  };
  const complete = models.generateContent.bind(models);
  const stream = models.generateContentStream.bind(models);
  models.generateContent = async (params) => patch(await complete(params));
  models.generateContentStream = async (params) => {
    const chunks = await stream(params);
    return (async function* () {
      for await (const chunk of chunks) yield patch(chunk);
    })();
  };
  return provider;
}

// Gemini ends a reply whose function call it could not parse with finishReason
// MALFORMED_FUNCTION_CALL, no parts and a finishMessage; the run must not end "completed" and empty.
const FINISH_MESSAGE = 'Malformed function call: print(default_api.get_weather(city=))';
const MALFORMED = { candidates: [{ content: {}, finishReason: 'MALFORMED_FUNCTION_CALL', finishMessage: FINISH_MESSAGE }], usageMetadata: { promptTokenCount: 10, totalTokenCount: 10 } };
const UNNAMED = { candidates: [{ content: {}, finishReason: 'MALFORMED_FUNCTION_CALL' }] };
const call = (city: string) => ({ candidates: [{ content: { role: 'model', parts: [{ functionCall: { name: 'get_weather', args: { city } } }] }, finishReason: 'STOP' }] });
const text = (answer: string) => ({ candidates: [{ content: { role: 'model', parts: [{ text: answer }] }, finishReason: 'STOP' }], usageMetadata: { promptTokenCount: 20, candidatesTokenCount: 5, totalTokenCount: 25 } });
const sse = (body: unknown) => sseResponse(`data: ${JSON.stringify(body)}\r\n\r\n`);

interface WireContent {
  role: string;
  parts: { functionCall?: { name: string }; functionResponse?: { name: string; response: { error?: string } } }[];
}

describe('Gemini MALFORMED_FUNCTION_CALL through the Agent', () => {
  let server: ReplayServer;
  before(async () => {
    server = await startServer();
  });
  after(() => server.close());

  for (const streaming of [false, true]) {
    const mode = streaming ? 'stream' : 'run';
    const reply = (body: unknown) => (streaming ? sse(body) : jsonResponse(body));

    test(`${mode}: a malformed call of a named tool is fed back as an error result; the model retries and the run answers`, async () => {
      server.enqueue(reply(MALFORMED), reply(call('Rome')), reply(text('Sunny in Rome.')));
      const start = server.requests.length;
      const cities: string[] = [];
      const log = eventLog();
      const provider = keepFinishMessage(geminiOn(server), FINISH_MESSAGE);
      const agent = new Agent({ provider, tools: [weatherTool(cities)], runtime: testRuntime(), observers: [log.observer] });
      let result;
      if (streaming) {
        const stream = agent.stream('weather in Rome?');
        for await (const event of stream) void event;
        result = await stream.result;
      } else {
        result = await agent.run('weather in Rome?');
      }
      assert.equal(result.content, 'Sunny in Rome.');
      assert.deepEqual(cities, ['Rome'], 'the malformed call never ran the tool');
      assert.equal(server.requests.length - start, 3);
      // Turn 2 carries the synthetic call and its error result, quoting Gemini's finishMessage.
      const second = server.requests[start + 1]!.json as { contents: WireContent[] };
      const parts = second.contents.flatMap((c) => c.parts);
      assert.equal(parts.find((p) => p.functionCall)?.functionCall?.name, 'get_weather');
      const error = parts.find((p) => p.functionResponse)?.functionResponse?.response.error ?? '';
      assert.match(error, /MALFORMED_FUNCTION_CALL/);
      assert.ok(error.includes('print(default_api.get_weather(city=))'));
      assert.equal(log.of('llm-retry').length, 0);
    });

    test(`${mode}: a malformed call (finishMessage dropped by the SDK) is a retryable error: the agent retries and answers`, async () => {
      server.enqueue(reply(UNNAMED), reply(text('Sunny.')));
      const start = server.requests.length;
      const runtime = testRuntime();
      const log = eventLog();
      const agent = new Agent({ provider: geminiOn(server), tools: [weatherTool()], runtime, observers: [log.observer] });
      let result;
      if (streaming) {
        const stream = agent.stream('weather?');
        for await (const event of stream) void event;
        result = await stream.result;
      } else {
        result = await agent.run('weather?');
      }
      assert.equal(result.content, 'Sunny.');
      assert.equal(server.requests.length - start, 2);
      const retries = log.of('llm-retry');
      assert.equal(retries.length, 1);
      assert.match(retries[0]!.error.message, /MALFORMED_FUNCTION_CALL/);
    });
  }

  test('stream parts: the synthetic tool call precedes usage and a tool-calls finish', async () => {
    server.enqueue(sse(MALFORMED));
    const tools = [{ name: 'get_weather', description: 'Weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } }];
    const parts = await collect(keepFinishMessage(geminiOn(server), FINISH_MESSAGE).stream({ model: 'gemini-2.5-flash', messages: [{ role: 'user', content: 'weather?' }], tools }));
    assert.deepEqual(parts.map((p) => p.type), ['tool-call', 'usage', 'finish']);
    const first = parts[0]!;
    assert.ok(first.type === 'tool-call' && first.toolCall.toolName === 'get_weather' && first.toolCall.argumentsError !== undefined);
    const last = parts.at(-1)!;
    assert.equal(last.type === 'finish' ? last.finishReason : undefined, 'tool-calls');
  });
});
