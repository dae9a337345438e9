import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { CassetteError } from '../../../../lib/core/errors/cassette-error.js';
import { firstDifference, parseCassette, readCassette } from '../../../../lib/providers/replay/index.js';

const header = JSON.stringify({ type: 'cassette', version: 1, provider: 'openai', defaultModel: 'gpt-4o-mini', capabilities: { tools: true, streaming: true, structuredOutput: true, vision: true, embeddings: true }, createdAt: '2026-01-01T00:00:00.000Z' });

function formatError(text: string, pattern: RegExp, line?: number): void {
  assert.throws(() => parseCassette(text, 'x.jsonl'), (error: unknown) => {
    assert.ok(CassetteError.isInstance(error));
    assert.equal(error.kind, 'format');
    assert.equal(error.line, line);
    assert.match(error.message, pattern);
    return true;
  });
}

describe('cassette format', () => {
  test('malformed input is refused with file and line', () => {
    formatError('', /empty cassette/);
    formatError('{"type":"interaction"}', /first line must be the cassette header/, 1);
    formatError(header.replace('"version":1', '"version":9'), /unsupported cassette version 9/, 1);
    formatError(`${header}\n\n{nope`, /x\.jsonl:3: not valid JSON/, 3);
    formatError(`${header}\n{"type":"chat","request":{}}`, /unknown entry type "chat"/, 2);
    formatError(`${header}\n{"type":"complete","index":0,"request":{}}`, /needs a response or an error/, 2);
    formatError(`${header}\n{"type":"stream","index":0,"request":{}}`, /needs a parts array/, 2);
  });

  test('a missing file is an io error naming it', () => {
    assert.throws(() => readCassette('/nonexistent/c.jsonl'), (e: unknown) => CassetteError.isInstance(e) && e.kind === 'io' && /\/nonexistent\/c\.jsonl/.test(e.message));
  });

  test('interactions are ordered by their start index', () => {
    const c = parseCassette(`${header}\n{"type":"complete","index":1,"request":{"model":"b","messages":[]},"response":{}}\n{"type":"complete","index":0,"request":{"model":"a","messages":[]},"response":{}}`);
    assert.deepEqual(c.interactions.map((i) => i.request.model), ['a', 'b']);
  });

  test('firstDifference finds the first differing path', () => {
    assert.equal(firstDifference({ a: [1, { b: 2 }] }, { a: [1, { b: 2 }] }), undefined);
    assert.deepEqual(firstDifference({ a: [1, { b: 2 }] }, { a: [1, { b: 3 }] }), { path: 'a[1].b', expected: 2, actual: 3 });
    assert.deepEqual(firstDifference({ a: [1] }, { a: [1, 2] }), { path: 'a[1]', expected: undefined, actual: 2 });
    assert.deepEqual(firstDifference({ 'x-y': 1 }, {}), { path: '["x-y"]', expected: 1, actual: undefined });
    assert.deepEqual(firstDifference('a', 1), { path: '', expected: 'a', actual: 1 });
  });
});
