import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Agent } from '../../../../lib/agent/agent.js';
import type { Message } from '../../../../lib/core/message.js';
import { toGeminiContents } from '../../../../lib/providers/gemini/index.js';
import type { StreamPart } from '../../../../lib/providers/spec.js';
import { testRuntime } from '../../../support/agent-harness.js';
import { fixture, jsonResponse, sseResponse, type ReplayServer } from '../../../support/replay-server.js';
import { ask, collect, geminiOn, startServer, textOf } from './harness.js';

/** A call id as the adapter generates it when the API sends none (never sent back). */
const GENERATED_ID = 'call_0123456789abcdef01234567';

interface Body {
  contents: { role: string; parts: Record<string, unknown>[] }[];
}

/** The one thoughtSignature string a recorded body holds (exactly as it is on the wire). */
function signatureIn(name: string): string {
  const matches = [...fixture(`google/${name}`).toString('utf8').matchAll(/"thoughtSignature": ?"([^"]+)"/g)];
  assert.equal(matches.length, 1, `${name} holds one signature`);
  return matches[0]![1]!;
}

const TEXT_FIXTURE = 'generateContent.text.gemini3.vercel.json';
const STREAM_FIXTURE = 'streamGenerateContent.thinking.pydantic.sse';

describe('Gemini thoughtSignature on text parts', () => {
  let server: ReplayServer;
  before(async () => (server = await startServer()));
  after(() => server.close());

  test('stream (recorded, signature on the first answer chunk): one reasoning-part after that chunk\'s text, with that text', async () => {
    server.enqueue(sseResponse(fixture(`google/${STREAM_FIXTURE}`), 13));
    const parts = await collect(geminiOn(server).stream(ask('How do I cross the street?', { model: 'gemini-2.5-pro' })));
    const signatures = parts.filter((p): p is Extract<StreamPart, { type: 'reasoning-part' }> => p.type === 'reasoning-part');
    const at = parts.indexOf(signatures[0]!);
    const chunk = parts[at - 1]!;
    assert.equal(chunk.type, 'text-delta');
    assert.equal(parts.findIndex((p) => p.type === 'text-delta'), at - 1, 'the first answer chunk');
    const firstText = chunk.type === 'text-delta' ? chunk.text : '';
    assert.deepEqual(signatures.map((p) => p.part), [{ type: 'signature', provider: 'gemini', signature: signatureIn(STREAM_FIXTURE), text: firstText, offset: 0 }]);
    assert.ok(!textOf(parts).includes(signatureIn(STREAM_FIXTURE)));
  });

  for (const streaming of [false, true]) {
    test(`Agent, ${streaming ? 'streamed' : 'complete'}: the next turn echoes the text part's signature byte for byte`, async () => {
      const name = streaming ? STREAM_FIXTURE : TEXT_FIXTURE;
      const signature = signatureIn(name);
      server.enqueue(streaming ? sseResponse(fixture(`google/${name}`), 13) : jsonResponse(fixture(`google/${name}`).toString('utf8')));
      server.enqueue(jsonResponse(fixture('google/generateContent.text.pydantic.json').toString('utf8')));
      const first = server.requests.length;
      const agent = new Agent({ provider: geminiOn(server), model: 'gemini-3-pro-preview', runtime: testRuntime() });
      const reply = streaming ? await agent.stream('First question').result : await agent.run('First question');
      const parts = reply.message.reasoningParts ?? [];
      assert.equal(parts.length, 1);
      const signed = parts[0]!;
      assert.ok(signed.type === 'signature' && signed.signature === signature && signed.offset === 0 && signed.text !== undefined);
      assert.ok(!reply.content.includes(signature));
      await agent.run('Second question');
      const turn2 = server.requests[first + 1]!;
      const model = (turn2.json as Body).contents[1]!;
      assert.equal(model.role, 'model');
      if (streaming) {
        // The signature came on the first answer chunk: that chunk goes back signed, the rest unsigned and apart.
        assert.ok(signed.text.length > 0 && signed.text.length < reply.content.length);
        assert.deepEqual(model.parts, [
          { text: signed.text, thoughtSignature: signature },
          { text: reply.content.slice(signed.text.length) },
        ]);
        assert.ok(reply.content.startsWith(signed.text));
      } else {
        assert.equal(signed.text, reply.content);
        assert.deepEqual(model.parts, [{ text: reply.content, thoughtSignature: signature }]);
      }
      assert.ok(turn2.text.includes(`"thoughtSignature":"${signature}"`));
    });
  }

  for (const streaming of [false, true]) {
    test(`${streaming ? 'stream' : 'complete'}: text parts with their own signatures go back separate, each with its signature, unsigned text apart`, async () => {
      // Synthetic replies in the documented wire format (Part.text / Part.thoughtSignature, base64).
      const answer = [
        { text: 'Paris is sunny. ', thoughtSignature: 'c2lnLW9uZQ==' },
        { text: 'Rome is cloudy. ' },
        { text: 'Oslo is cold.', thoughtSignature: 'c2lnLXR3bw==' },
        { text: '', thoughtSignature: 'c2lnLXRocmVl' },
      ];
      const chunk = (parts: Record<string, unknown>[], finish?: string) => ({
        candidates: [{ content: { role: 'model', parts }, index: 0, ...(finish ? { finishReason: finish } : {}) }],
        modelVersion: 'gemini-3-pro-preview',
      });
      if (streaming) {
        const events = answer.map((part, i) => chunk([part], i === answer.length - 1 ? 'STOP' : undefined));
        server.enqueue(sseResponse(events.map((e) => `data: ${JSON.stringify(e)}\r\n\r\n`).join(''), 17));
      } else {
        server.enqueue(jsonResponse(chunk([{ text: 'Let me think.', thought: true }, ...answer], 'STOP')));
      }
      server.enqueue(jsonResponse(fixture('google/generateContent.text.pydantic.json').toString('utf8')));
      const first = server.requests.length;
      const agent = new Agent({ provider: geminiOn(server), model: 'gemini-3-pro-preview', runtime: testRuntime() });
      const reply = streaming ? await agent.stream('Weather?').result : await agent.run('Weather?');
      assert.equal(reply.content, 'Paris is sunny. Rome is cloudy. Oslo is cold.');
      assert.deepEqual(reply.message.reasoningParts, [
        { type: 'signature', provider: 'gemini', signature: 'c2lnLW9uZQ==', text: 'Paris is sunny. ', offset: 0 },
        { type: 'signature', provider: 'gemini', signature: 'c2lnLXR3bw==', text: 'Oslo is cold.', offset: 32 },
        { type: 'signature', provider: 'gemini', signature: 'c2lnLXRocmVl', text: '', offset: 45 },
      ]);
      await agent.run('And tomorrow?');
      const model = (server.requests[first + 1]!.json as Body).contents[1]!;
      assert.equal(model.role, 'model');
      assert.deepEqual(model.parts, [
        { text: 'Paris is sunny. ', thoughtSignature: 'c2lnLW9uZQ==' },
        { text: 'Rome is cloudy. ' },
        { text: 'Oslo is cold.', thoughtSignature: 'c2lnLXR3bw==' },
        { text: '', thoughtSignature: 'c2lnLXRocmVl' },
      ]);
    });
  }

  test('request: a trimmed answer still gets each signature on its own text; a signed text no longer in the answer goes on an empty part', () => {
    const message: Message = {
      role: 'assistant',
      // The reply was "\nHello. " (signed) + "Middle. " + "Bye.\n" (signed): the agent trimmed it.
      content: 'Hello. Middle. Bye.',
      toolCalls: [{ id: GENERATED_ID, toolName: 'get_time', parameters: {} }],
      reasoningParts: [
        { type: 'signature', provider: 'gemini', signature: 'b25l', text: '\nHello. ', offset: 0 },
        { type: 'signature', provider: 'gemini', signature: 'dHdv', text: 'Bye.\n', offset: 16 },
        { type: 'signature', provider: 'gemini', signature: 'Z29uZQ==', text: 'edited away', offset: 21 },
      ],
    };
    assert.deepEqual(toGeminiContents([message]).contents, [
      {
        role: 'model',
        parts: [
          { text: 'Hello.', thoughtSignature: 'b25l' },
          { text: ' Middle. ' },
          { text: 'Bye.', thoughtSignature: 'dHdv' },
          { functionCall: { name: 'get_time', args: {} } },
          { text: '', thoughtSignature: 'Z29uZQ==' },
        ],
      },
    ]);
    // The same text twice: the offset picks the occurrence that was signed.
    const twice: Message = {
      role: 'assistant',
      content: 'Yes. Yes.',
      reasoningParts: [{ type: 'signature', provider: 'gemini', signature: 'c2ln', text: 'Yes.', offset: 5 }],
    };
    assert.deepEqual(toGeminiContents([twice]).contents, [{ role: 'model', parts: [{ text: 'Yes. ' }, { text: 'Yes.', thoughtSignature: 'c2ln' }] }]);
  });

  test('request, signatures recorded without their text (older histories): the first on the text, further ones on empty parts after the calls; other providers\' parts are not sent', () => {
    const message: Message = {
      role: 'assistant',
      content: '',
      toolCalls: [{ id: GENERATED_ID, toolName: 'get_country', parameters: {}, thoughtSignature: 'Y2FsbA==' }],
      reasoningParts: [
        { type: 'thinking', provider: 'anthropic', text: 'hmm', signature: 'sig' },
        { type: 'signature', provider: 'openai', signature: 'b3BlbmFp' },
        { type: 'signature', provider: 'gemini', signature: 'dGV4dA==' },
      ],
    };
    assert.deepEqual(toGeminiContents([message]).contents, [
      { role: 'model', parts: [{ functionCall: { name: 'get_country', args: {} }, thoughtSignature: 'Y2FsbA==' }, { text: '', thoughtSignature: 'dGV4dA==' }] },
    ]);
    const text: Message = { role: 'assistant', content: 'Hi', reasoningParts: [{ type: 'redacted', provider: 'anthropic', data: 'x' }] };
    assert.deepEqual(toGeminiContents([text]).contents, [{ role: 'model', parts: [{ text: 'Hi' }] }]);
  });
});
