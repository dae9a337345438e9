import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Agent } from '../../../../lib/agent/agent.js';
import type { Message } from '../../../../lib/core/message.js';
import { toGeminiContents } from '../../../../lib/providers/gemini/index.js';
import type { StreamPart } from '../../../../lib/providers/spec.js';
import { testRuntime } from '../../../support/agent-harness.js';
import { fixture, jsonResponse, sseResponse, type ReplayServer } from '../../../support/replay-server.js';
import { ask, collect, geminiOn, startServer, textOf } from './harness.js';

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

  test('stream (recorded, signature on the first answer chunk): one reasoning-part after that chunk\'s text', async () => {
    server.enqueue(sseResponse(fixture(`google/${STREAM_FIXTURE}`), 13));
    const parts = await collect(geminiOn(server).stream(ask('How do I cross the street?', { model: 'gemini-2.5-pro' })));
    const signatures = parts.filter((p): p is Extract<StreamPart, { type: 'reasoning-part' }> => p.type === 'reasoning-part');
    assert.deepEqual(signatures.map((p) => p.part), [{ type: 'signature', provider: 'gemini', signature: signatureIn(STREAM_FIXTURE) }]);
    const at = parts.indexOf(signatures[0]!);
    assert.equal(parts[at - 1]!.type, 'text-delta');
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
      assert.deepEqual(reply.message.reasoningParts, [{ type: 'signature', provider: 'gemini', signature }]);
      assert.ok(!reply.content.includes(signature));
      await agent.run('Second question');
      const turn2 = server.requests[first + 1]!;
      const model = (turn2.json as Body).contents[1]!;
      assert.equal(model.role, 'model');
      assert.equal(model.parts.length, 1);
      assert.deepEqual(model.parts[0], { text: reply.content, thoughtSignature: signature });
      assert.ok(turn2.text.includes(`"thoughtSignature":"${signature}"`));
    });
  }

  test('request: further or text-less signatures go on empty text parts after the calls; other providers\' parts are not sent', () => {
    const message: Message = {
      role: 'assistant',
      content: '',
      toolCalls: [{ id: 'c1', toolName: 'get_country', parameters: {}, thoughtSignature: 'Y2FsbA==' }],
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
