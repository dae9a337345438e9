import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Message } from '../../../lib/core/message.js';
import { composeSession, decodeSession, encodeSession, encodeSessionContent, headerOf, sameHeader } from '../../../lib/sessions/session-record.js';
import type { SessionRecord } from '../../../lib/sessions/types.js';
import { NonSerializableError } from '../../../lib/storage/index.js';

const messages: Message[] = [
  { role: 'user', content: 'ünïcødé 😀 "quotes" \\ back\nslash \u2028' },
  { role: 'assistant', content: '', toolCalls: [{ id: 'c1', toolName: 't', parameters: { n: -0, list: [1.5, null, true] }, thoughtSignature: 'AA==' }], reasoningParts: [{ type: 'thinking', provider: 'anthropic', text: 'hm', signature: 'S/+=' }] },
  { role: 'tool', content: '{}', toolCallId: 'c1', toolName: 't' },
];

function record(extra: Partial<SessionRecord> = {}): SessionRecord {
  return { id: 'a.b_c-1', messages, summary: 'sum "q"', metadata: { 'odd key': [1], nested: { x: 'y' }, gone: undefined }, createdAt: 1_700_000_000_000, updatedAt: 1_700_000_000_123, revision: 42, ...extra };
}

describe('session record encoding', () => {
  test('a session composed around its content encoded once is byte for byte what encodeSession writes', () => {
    for (const r of [record(), record({ expiresAt: 1_700_000_060_000 }), record({ messages: [], summary: '', metadata: {} })]) {
      const text = composeSession(r, encodeSessionContent(r));
      assert.equal(text, encodeSession(r));
      assert.deepEqual(decodeSession(text, 'test'), JSON.parse(JSON.stringify(r)));
    }
  });

  test('the content is checked as strict JSON, with the path encodeSession names', () => {
    const bad = record({ messages: [...messages, { role: 'tool', content: 'x', toolCallId: 'c1', meta: { placedAt: new Date(0) } } as unknown as Message] });
    const paths = [() => encodeSessionContent(bad), () => encodeSession(bad)].map((encode) => {
      try {
        encode();
      } catch (error) {
        assert.ok(NonSerializableError.isInstance(error));
        return error.path;
      }
      return assert.fail('expected a NonSerializableError');
    });
    assert.deepEqual(paths, ['session.messages[3].meta.placedAt', 'session.messages[3].meta.placedAt']);
    assert.throws(() => encodeSessionContent(record({ metadata: { f: () => 1 } })), /cannot store session\.metadata\.f: a function/);
    assert.throws(() => composeSession(record({ createdAt: Number.NaN }), '"messages":[],"summary":"","metadata":{}'), /cannot store session\.createdAt: NaN/);
  });

  test('headers: a copy without the messages; equal only when revision, creation time and expiry all are', () => {
    const r = record({ expiresAt: 5 });
    assert.deepEqual(headerOf(r), { revision: 42, createdAt: 1_700_000_000_000, expiresAt: 5 });
    assert.deepEqual(Object.keys(headerOf(record())), ['revision', 'createdAt']);
    assert.ok(sameHeader(undefined, undefined));
    assert.ok(sameHeader(headerOf(r), r));
    assert.ok(!sameHeader(undefined, r));
    assert.ok(!sameHeader(r, undefined));
    assert.ok(!sameHeader(r, { ...headerOf(r), revision: 43 }));
    assert.ok(!sameHeader(r, { ...headerOf(r), createdAt: 1 }));
    assert.ok(!sameHeader(r, headerOf(record())), 'an expiry against none');
  });
});
