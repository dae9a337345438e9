import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { REDACTED, redactSecrets } from '../../../lib/events/redact.js';

describe('redactSecrets', () => {
  test('redacts secret keys at any depth, keeps token counts, copies without mutating', () => {
    const input = { apiKey: 'k', nested: { list: [{ password: 'p', promptTokens: 3 }, 2], accessToken: 't' }, text: 'ok' };
    const out = redactSecrets(input);
    assert.deepEqual(out, { apiKey: REDACTED, nested: { list: [{ password: REDACTED, promptTokens: 3 }, 2], accessToken: REDACTED }, text: 'ok' });
    assert.equal(input.apiKey, 'k');
    assert.notEqual(out, input);
  });

  test('a cycle becomes [Circular]; the same object twice side by side does not', () => {
    const shared = { a: 1 };
    const cyclic: Record<string, unknown> = { name: 'x', left: shared, right: shared };
    cyclic['self'] = cyclic;
    cyclic['list'] = [cyclic, shared];
    assert.deepEqual(redactSecrets(cyclic), { name: 'x', left: { a: 1 }, right: { a: 1 }, self: '[Circular]', list: ['[Circular]', { a: 1 }] });
  });

  test('objects with toJSON are converted first; primitives come back as they are', () => {
    const date = new Date(0);
    assert.deepEqual(redactSecrets({ at: date, secret: { toJSON: () => 'x' } }), { at: date.toJSON(), secret: REDACTED });
    assert.deepEqual(redactSecrets({ wrapped: { toJSON: () => ({ token: 'abc', keep: 1 }) } }), { wrapped: { token: REDACTED, keep: 1 } });
    for (const value of [1, 'a', null, undefined, true]) assert.equal(redactSecrets(value), value);
  });

  test('keys keep their order', () => {
    assert.deepEqual(Object.keys(redactSecrets({ b: 1, a: 2, 1: 3, secret: 4 }) as object), ['1', 'b', 'a', 'secret']);
  });
});
