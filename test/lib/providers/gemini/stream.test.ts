import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { ReplayServer } from '../../../support/replay-server.js';
import { fixture, frameDataLines, recordedResponses, sseResponse } from '../../../support/replay-server.js';
import { ask, collect, geminiOn, genaiRecording, reasoningOf, startServer, textOf } from './harness.js';

interface Chunk {
  candidates?: { content?: { parts?: { text?: string; thought?: boolean }[] } }[];
}

/** The data payloads of a recorded CRLF-framed Gemini stream, parsed (the expectation, independent of the adapter). */
function payloads(path: string): Chunk[] {
  return fixture(path)
    .toString('utf8')
    .split('\r\n\r\n')
    .filter((event) => event.startsWith('data: '))
    .map((event) => JSON.parse(event.slice('data: '.length)) as Chunk);
}

function partsText(chunks: Chunk[], thought: boolean): string {
  return chunks
    .flatMap((c) => c.candidates?.[0]?.content?.parts ?? [])
    .filter((p) => (p.thought === true) === thought)
    .map((p) => p.text ?? '')
    .join('');
}

describe('GeminiProvider.stream on recorded streams', () => {
  let server: ReplayServer;
  before(async () => {
    server = await startServer();
  });
  after(() => server.close());

  test('text stream (pydantic, CRLF framing, split into 7-byte pieces): deltas, last usage, finish', async () => {
    const [response] = recordedResponses('google/streamGenerateContent.text.pydantic.interactions.json');
    server.enqueue(sseResponse(response!.body!, 7));
    const before = server.requests.length;
    const parts = await collect(geminiOn(server).stream(ask('What is the capital of France?', { model: 'gemini-2.0-flash-exp' })));
    assert.deepEqual(
      parts.filter((p) => p.type === 'text-delta').map((p) => p.text),
      ['The', ' capital of France', ' is Paris.\n'],
    );
    assert.deepEqual(parts.slice(-2), [
      { type: 'usage', usage: { promptTokens: 13, completionTokens: 8, totalTokens: 21 } },
      { type: 'finish', finishReason: 'stop', model: 'gemini-2.0-flash-exp', requestId: 'w1peaMz6INOvnvgPgYfPiQY' },
    ]);
    assert.equal(server.requests[before]!.path, '/v1beta/models/gemini-2.0-flash-exp:streamGenerateContent?alt=sse');
  });

  test('usage reported mid-stream: only the last usageMetadata is emitted, once, before finish', async () => {
    server.enqueue(...recordedResponses('google/streamGenerateContent.usage_midstream.pydantic.interactions.json'));
    const parts = await collect(geminiOn(server).stream(ask('count to 30')));
    assert.equal(textOf(parts), partsText(payloads('google/streamGenerateContent.usage_midstream.pydantic.sse'), false));
    assert.equal(textOf(parts), Array.from({ length: 30 }, (_, i) => String(i + 1)).join('\n'));
    assert.deepEqual(
      parts.filter((p) => p.type === 'usage'),
      [{ type: 'usage', usage: { promptTokens: 18, completionTokens: 80 + 35, totalTokens: 133, reasoningTokens: 35 } }],
    );
    assert.deepEqual(parts.at(-1), { type: 'finish', finishReason: 'stop', model: 'gemini-2.5-flash', requestId: 'ru1garvBEoOiqtsP2fznmQw' });
  });

  test('thinking stream: thought parts are reasoning-deltas before the answer, never text', async () => {
    server.enqueue(...recordedResponses('google/streamGenerateContent.thinking.pydantic.interactions.json'));
    const parts = await collect(geminiOn(server).stream(ask('How do I cross the street?', { model: 'gemini-2.5-pro' })));
    const recorded = payloads('google/streamGenerateContent.thinking.pydantic.sse');
    assert.equal(reasoningOf(parts), partsText(recorded, true));
    assert.equal(textOf(parts), partsText(recorded, false));
    assert.ok(reasoningOf(parts).startsWith('**Clarifying User Goals**'));
    assert.ok(!textOf(parts).includes('**Clarifying User Goals**'));
    assert.ok(parts.findIndex((p) => p.type === 'text-delta') > parts.findIndex((p) => p.type === 'reasoning-delta'));
    assert.deepEqual(parts.slice(-2), [
      { type: 'usage', usage: { promptTokens: 34, completionTokens: 469 + 787, totalTokens: 1290, reasoningTokens: 787 } },
      { type: 'finish', finishReason: 'stop', model: 'gemini-2.5-pro', requestId: 'beHBaJfEMIi-qtsP3769-Q8' },
    ]);
  });

  test('js-genai text stream recording (re-framed): text and usage, request body as recorded', async () => {
    const [exchange] = genaiRecording('js-genai.chat.text.stream.recording.json');
    server.enqueue(exchange!.response);
    const before = server.requests.length;
    const parts = await collect(geminiOn(server).stream(ask('why is the sky blue?', { model: 'gemini-2.0-flash' })));
    const segments = (JSON.parse(fixture('google/js-genai.chat.text.stream.recording.json').toString('utf8')) as { interactions: { response: { bodySegments: (Chunk & { usageMetadata: { promptTokenCount: number; candidatesTokenCount: number; totalTokenCount: number } })[] } }[] }).interactions[0]!.response.bodySegments;
    assert.equal(textOf(parts), partsText(segments, false));
    assert.ok(textOf(parts).length > 100);
    const last = segments.at(-1)!.usageMetadata;
    assert.deepEqual(parts.at(-2), { type: 'usage', usage: { promptTokens: last.promptTokenCount, completionTokens: last.candidatesTokenCount, totalTokens: last.totalTokenCount } });
    assert.equal(parts.at(-1)?.type, 'finish');
    assert.deepEqual(server.requests[before]!.json, exchange!.request);
    assert.equal(server.requests[before]!.path, exchange!.url);
  });

  test('js-genai function-call stream recording: whole tool call, tool-calls finish, tools sent as declared', async () => {
    const [exchange] = genaiRecording('js-genai.chat.function_call.stream.recording.json');
    server.enqueue(exchange!.response);
    const before = server.requests.length;
    const parts = await collect(
      geminiOn(server).stream(
        ask('what is the result of 100/2', {
          model: 'gemini-2.0-flash',
          tools: [{ name: 'customDivide', description: 'Custom divide function', parameters: { type: 'object', properties: { denominator: { type: 'number' }, numerator: { type: 'number' } } } }],
        }),
      ),
    );
    const calls = parts.flatMap((p) => (p.type === 'tool-call' ? [p.toolCall] : []));
    assert.equal(calls.length, 1);
    assert.equal(calls[0]!.toolName, 'customDivide');
    assert.deepEqual(calls[0]!.parameters, { denominator: 2, numerator: 100 });
    assert.match(calls[0]!.id, /^call_/);
    assert.equal(calls[0]!.thoughtSignature, undefined);
    assert.deepEqual(parts.slice(-2), [
      { type: 'usage', usage: { promptTokens: 21, completionTokens: 6, totalTokens: 27 } },
      { type: 'finish', finishReason: 'tool-calls', model: 'gemini-2.0-flash', requestId: 'xtSfaIRs8_Sf2Q-skYe5Dg' },
    ]);
    const sent = server.requests[before]!.json as { tools: unknown; contents: unknown };
    assert.deepEqual(sent.contents, (exchange!.request as { contents: unknown }).contents);
    assert.deepEqual(sent.tools, (exchange!.request as { tools: unknown }).tools, 'the SDK upper-cases types: the same wire shape as recorded');
  });

  test('vercel gemini 3 function-call data lines, framed with CRLF: signature kept, deltas in order', async () => {
    server.enqueue(sseResponse(frameDataLines(fixture('google/streamGenerateContent.function_call.gemini3.vercel.data-lines.txt').toString('utf8'), 'gemini'), 64));
    const lines = fixture('google/streamGenerateContent.function_call.gemini3.vercel.data-lines.txt')
      .toString('utf8')
      .split('\n')
      .filter((l) => l.trim() !== '')
      .map((l) => JSON.parse(l) as { candidates?: { content?: { parts?: { functionCall?: { name: string; args: unknown }; thoughtSignature?: string; text?: string; thought?: boolean }[] } }[] });
    const recordedCalls = lines.flatMap((c) => c.candidates?.[0]?.content?.parts ?? []).filter((p) => p.functionCall);
    const parts = await collect(geminiOn(server).stream(ask('weather?', { model: 'gemini-3-pro-preview' })));
    const calls = parts.flatMap((p) => (p.type === 'tool-call' ? [p.toolCall] : []));
    assert.equal(calls.length, recordedCalls.length);
    assert.ok(calls.length > 0);
    calls.forEach((call, i) => {
      assert.equal(call.toolName, recordedCalls[i]!.functionCall!.name);
      assert.deepEqual(call.parameters, recordedCalls[i]!.functionCall!.args);
      assert.equal(call.thoughtSignature, recordedCalls[i]!.thoughtSignature);
    });
    assert.equal(textOf(parts), partsText(lines as Chunk[], false));
    assert.equal(parts.at(-1)?.type, 'finish');
  });
});
