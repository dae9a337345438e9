import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { serializeToolResult } from '../../../lib/tools/index.js';

class Point {
  constructor(
    readonly x: number,
    readonly y: number,
  ) {}
}

class Money {
  constructor(readonly cents: number) {}
  toJSON(): string {
    return `${(this.cents / 100).toFixed(2)} EUR`;
  }
}

describe('serializeToolResult', () => {
  test('strings pass through; null and undefined become empty', () => {
    assert.equal(serializeToolResult('plain "text"'), 'plain "text"');
    assert.equal(serializeToolResult(''), '');
    assert.equal(serializeToolResult(null), '');
    assert.equal(serializeToolResult(undefined), '');
  });
  test('numbers, booleans, bigints and symbols use their string form', () => {
    assert.equal(serializeToolResult(42), '42');
    assert.equal(serializeToolResult(0), '0');
    assert.equal(serializeToolResult(false), 'false');
    assert.equal(serializeToolResult(12345678901234567890n), '12345678901234567890');
    assert.equal(serializeToolResult(Symbol('s')), 'Symbol(s)');
  });
  test('plain objects, arrays and class instances are JSON', () => {
    assert.equal(serializeToolResult({ a: 1, b: [true, null], c: undefined }), '{"a":1,"b":[true,null]}');
    assert.equal(serializeToolResult([1, 'two']), '[1,"two"]');
    assert.equal(serializeToolResult(new Point(1, 2)), '{"x":1,"y":2}');
    assert.equal(serializeToolResult({ price: new Money(1250) }), '{"price":"12.50 EUR"}');
  });
  test('Dates are ISO strings, at the top and inside JSON', () => {
    const date = new Date('2024-05-01T10:00:00.000Z');
    assert.equal(serializeToolResult(date), '2024-05-01T10:00:00.000Z');
    assert.equal(serializeToolResult({ at: date }), '{"at":"2024-05-01T10:00:00.000Z"}');
    assert.equal(serializeToolResult(new Date(Number.NaN)), 'Invalid Date');
  });
  test('Map, Set, bigint, Error, typed arrays and RegExp inside objects', () => {
    const value = {
      map: new Map<unknown, unknown>([
        ['a', 1],
        [2, new Set(['x'])],
      ]),
      set: new Set([1, 2]),
      big: 2n ** 70n,
      error: new TypeError('bad input'),
      bytes: new Uint8Array([1, 2]),
      re: /a+/g,
    };
    assert.equal(
      serializeToolResult(value),
      '{"map":{"2":["x"],"a":1},"set":[1,2],"big":"1180591620717411303424","error":{"name":"TypeError","message":"bad input"},"bytes":[1,2],"re":"/a+/g"}',
    );
  });
  test('circular references become "[Circular]"; shared ones are serialised in full', () => {
    const node: Record<string, unknown> = { name: 'root' };
    node['self'] = node;
    node['children'] = [node];
    assert.equal(serializeToolResult(node), '{"name":"root","self":"[Circular]","children":["[Circular]"]}');
    const shared = { v: 1 };
    assert.equal(serializeToolResult({ a: shared, b: shared }), '{"a":{"v":1},"b":{"v":1}}');
    const map = new Map<string, unknown>();
    map.set('me', map);
    assert.equal(serializeToolResult(map), '{"me":"[Circular]"}');
  });
  test('never throws', () => {
    const hostile = {
      toJSON() {
        throw new Error('no JSON for you');
      },
    };
    assert.match(serializeToolResult(hostile), /^\[unserializable Object: no JSON for you\]$/);
    assert.equal(serializeToolResult(Object.create(null) as object), '{}');
    assert.equal(serializeToolResult(function named() {}), '[function named]');
  });
});
