import assert from 'node:assert/strict';
import type { GenerateContentResponse } from '@google/genai';
import { after, before, describe, test } from 'node:test';
import { ProviderError } from '../../../../lib/core/errors/provider-error.js';
import type { ReplayServer } from '../../../support/replay-server.js';
import { fixture, jsonResponse, recordedRequests, recordedResponses } from '../../../support/replay-server.js';
import { toProviderResponse } from '../../../../lib/providers/gemini/index.js';
import { ask, geminiOn, KEY, startServer } from './harness.js';

describe('GeminiProvider.complete on recorded responses', () => {
  let server: ReplayServer;
  before(async () => {
    server = await startServer();
  });
  after(() => server.close());

  test('plain text (pydantic recording): message, usage, model, request id, and the request sent', async () => {
    server.enqueue(...recordedResponses('google/generateContent.text.pydantic.interactions.json'));
    const before = server.requests.length;
    const response = await geminiOn(server).complete(ask('Hello', { system: 'Be brief.', temperature: 0.2, maxTokens: 100 }));
    assert.deepEqual(response.message, { role: 'assistant', content: 'Hello! How can I help you today?' });
    assert.equal(response.usage?.costUsd, undefined, 'cost is left to the registry');
    assert.deepEqual(response.usage, { promptTokens: 9, completionTokens: 9 + 34, totalTokens: 52, reasoningTokens: 34 });
    assert.equal(response.finishReason, 'stop');
    assert.equal(response.reasoning, undefined);
    assert.equal(response.model, 'gemini-2.5-flash');
    assert.equal(response.requestId, 'bzlXaa_EE_aHqtsPi_zw8Ao');
    const sent = server.requests[before]!;
    assert.equal(sent.method, 'POST');
    assert.equal(sent.path, '/v1beta/models/gemini-2.5-flash:generateContent');
    assert.equal(sent.headers['x-goog-api-key'], KEY);
    assert.deepEqual(sent.json, {
      contents: [{ role: 'user', parts: [{ text: 'Hello' }] }],
      systemInstruction: { parts: [{ text: 'Be brief.' }] },
      generationConfig: { temperature: 0.2, maxOutputTokens: 100 },
    });
  });

  test('gemini 3 text with a thoughtSignature on the text part: answer only, signature kept as a reasoning part', async () => {
    server.enqueue(jsonResponse(fixture('google/generateContent.text.gemini3.vercel.json').toString('utf8')));
    const response = await geminiOn(server).complete(ask('How many rs in strawberry?', { model: 'gemini-3-pro-preview' }));
    assert.deepEqual(response.message, {
      role: 'assistant',
      content: "There are **3** r's in strawberry.\n\nHere is the breakdown: st**r**awbe**rr**y.",
      reasoningParts: [
        {
          type: 'signature',
          provider: 'gemini',
          signature: 'EtoFCtcFAb4+9vtfe4MXRxQjw48U1WKrR/7lYsgFkVi/bepqsSPjY0VU7HEzkeCBIfy1fu5t9aUZ4IZ65aWagqbBrV45fc97olcg',
          text: "There are **3** r's in strawberry.\n\nHere is the breakdown: st**r**awbe**rr**y.",
          offset: 0,
        },
      ],
    });
    assert.deepEqual(response.usage, { promptTokens: 9, completionTokens: 28 + 244, totalTokens: 281, reasoningTokens: 244 });
    assert.equal(response.finishReason, 'stop');
    assert.equal(response.model, 'gemini-3-pro-preview');
    assert.equal(response.requestId, 'Un6LacrVMcjUxs0PmJfWoQc');
  });

  test('gemini 3 function call: generated id, args, signature kept as base64, tool-calls finish', async () => {
    server.enqueue(jsonResponse(fixture('google/generateContent.function_call.gemini3.vercel.json').toString('utf8')));
    const response = await geminiOn(server).complete(ask('Weather in SF?', { model: 'gemini-3-pro-preview' }));
    assert.equal(response.message.role, 'assistant');
    assert.equal(response.message.content, '');
    assert.equal(response.message.toolCalls?.length, 1);
    const call = response.message.toolCalls[0]!;
    assert.match(call.id, /^call_[0-9a-f]{24}$/);
    assert.equal(call.toolName, 'weather');
    assert.deepEqual(call.parameters, { location: 'San Francisco' });
    assert.equal(call.thoughtSignature, 'Eqo+Cqc+Ab4+9vtgONaaz6qwy6WXdp7gCd2w0X+Wz2gaBgY0Gv6A12JKo0y5vQwf9YQFyhMbKr1E9m17VT6HXd7jXzjaGYaE');
    assert.equal(call.argumentsError, undefined);
    assert.equal(response.finishReason, 'tool-calls');
    assert.deepEqual(response.usage, { promptTokens: 29, completionTokens: 15 + 1801, totalTokens: 1845, reasoningTokens: 1801 });
  });

  test('parallel function calls (mirascope turn 1): two calls, distinct ids, signature only on the first', async () => {
    server.enqueue(recordedResponses('google/generateContent.parallel_function_calls.roundtrip.mirascope.interactions.json')[0]!);
    const recorded = recordedRequests('google/generateContent.parallel_function_calls.roundtrip.mirascope.interactions.json')[0]!;
    const response = await geminiOn(server).complete(ask('Please retrieve the secrets associated with each of these passwords: mellon,radiance'));
    const calls = response.message.toolCalls!;
    assert.equal(calls.length, 2);
    assert.notEqual(calls[0]!.id, calls[1]!.id);
    assert.deepEqual(calls.map((c) => [c.toolName, c.parameters]), [
      ['secret_retrieval_tool', { password: 'mellon' }],
      ['secret_retrieval_tool', { password: 'radiance' }],
    ]);
    assert.ok(calls[0]!.thoughtSignature?.startsWith('CtICAdHtim9BiyFrJTR8wDY7/ya4'));
    assert.equal(calls[1]!.thoughtSignature, undefined);
    assert.deepEqual(response.usage, { promptTokens: 70, completionTokens: 40 + 76, totalTokens: 186, reasoningTokens: 76 });
    assert.equal(response.finishReason, 'tool-calls');
    assert.equal(recorded.uri.endsWith(':generateContent'), true);
  });

  test('thought parts become reasoning, never answer text; missing usage is left out (unknown), never zero', async () => {
    server.enqueue(
      jsonResponse({
        candidates: [{ content: { role: 'model', parts: [{ text: 'Let me think.', thought: true }, { text: '42' }] }, finishReason: 'MAX_TOKENS' }],
      }),
    );
    const response = await geminiOn(server).complete(ask('?'));
    assert.equal(response.message.content, '42');
    assert.equal(response.reasoning, 'Let me think.');
    assert.equal(response.finishReason, 'length');
    assert.equal(response.usage, undefined);
    assert.equal('usage' in response, false);
  });

  test('MALFORMED_FUNCTION_CALL (no parts): a retryable malformed_function_call error, never an empty "stop" answer', async () => {
    // The SDK drops finishMessage, so the function the model tried to call is unknown here.
    server.enqueue(jsonResponse({ candidates: [{ content: {}, finishReason: 'MALFORMED_FUNCTION_CALL', finishMessage: 'Malformed function call: print(default_api.get_weather(city=))' }] }));
    const tools = [{ name: 'get_weather', description: 'Weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } }];
    await assert.rejects(geminiOn(server).complete(ask('weather in Rome?', { tools })), (error: unknown) => {
      assert.ok(ProviderError.isInstance(error));
      assert.equal(error.kind, 'malformed_function_call');
      assert.equal(error.retryable, true);
      assert.match(error.message, /MALFORMED_FUNCTION_CALL/);
      return true;
    });
  });

  test('a blocked prompt (no candidates) finishes as content-filter with empty content', async () => {
    server.enqueue(jsonResponse({ promptFeedback: { blockReason: 'SAFETY' }, usageMetadata: { promptTokenCount: 5, totalTokenCount: 5 } }));
    const response = await geminiOn(server).complete(ask('bad'));
    assert.equal(response.message.content, '');
    assert.equal(response.finishReason, 'content-filter');
    assert.deepEqual(response.usage, { promptTokens: 5, completionTokens: 0, totalTokens: 5 });
  });
});

describe('toProviderResponse: MALFORMED_FUNCTION_CALL with a finishMessage', () => {
  const tools = ['get_weather', 'get_time'];
  const reply = (finishMessage: string): GenerateContentResponse =>
    ({ candidates: [{ content: {}, finishReason: 'MALFORMED_FUNCTION_CALL', finishMessage }], usageMetadata: { promptTokenCount: 10, totalTokenCount: 10 } }) as GenerateContentResponse;

  test('naming a declared tool: a call of that tool with argumentsError quoting finishMessage, finish tool-calls', () => {
    const response = toProviderResponse(reply('Malformed function call: print(default_api.get_weather(city=))'), tools);
    assert.equal(response.finishReason, 'tool-calls');
    const calls = response.message.toolCalls ?? [];
    assert.equal(calls.length, 1);
    assert.equal(calls[0]!.toolName, 'get_weather');
    assert.match(calls[0]!.id, /^call_/);
    assert.deepEqual(calls[0]!.parameters, {});
    assert.match(calls[0]!.argumentsError ?? '', /MALFORMED_FUNCTION_CALL/);
    assert.ok(calls[0]!.argumentsError?.includes('print(default_api.get_weather(city=))'));
    assert.deepEqual(response.usage, { promptTokens: 10, completionTokens: 0, totalTokens: 10 });
  });

  test('naming no declared tool: a retryable malformed_function_call error quoting finishMessage', () => {
    assert.throws(() => toProviderResponse(reply('Malformed function call: print(lookup(x=))'), tools), (error: unknown) => {
      assert.ok(ProviderError.isInstance(error));
      assert.equal(error.kind, 'malformed_function_call');
      assert.equal(error.retryable, true);
      assert.match(error.message, /print\(lookup\(x=\)\)/);
      return true;
    });
  });
});
