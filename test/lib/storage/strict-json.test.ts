import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { CorruptRecordError, decodeRecord, encodeRecord, NonSerializableError, SchemaVersionError, toStrictJson } from '../../../lib/storage/index.js';

function pathOf(value: unknown, root = 'state'): string {
  try {
    toStrictJson(value, root);
  } catch (error) {
    assert.ok(NonSerializableError.isInstance(error));
    return error.path;
  }
  assert.fail('expected a NonSerializableError');
}

describe('toStrictJson', () => {
  test('plain data round-trips, Unicode included; undefined object keys are left out', () => {
    const value = { a: [1, 'é', null, true, { b: '🙂\u0000' }], c: undefined, n: -0.5 };
    assert.deepEqual(JSON.parse(toStrictJson(value)), { a: [1, 'é', null, true, { b: '🙂\u0000' }], n: -0.5 });
    assert.equal(toStrictJson(Object.create(null) as object), '{}');
  });

  test('names the path of what JSON cannot hold', () => {
    const orders = [{}, {}, {}, { placedAt: new Date(0) }];
    assert.equal(pathOf({ data: { orders } }), 'state.data.orders[3].placedAt');
    assert.equal(pathOf({ fn: () => 1 }), 'state.fn');
    assert.equal(pathOf({ 'odd key': 10n }), 'state["odd key"]');
    assert.equal(pathOf([1, Number.NaN]), 'state[1]');
    assert.equal(pathOf([undefined]), 'state[0]');
    assert.equal(pathOf([1, , 3]), 'state[1]');
    assert.equal(pathOf({ m: new Map() }), 'state.m');
    assert.equal(pathOf({ s: Symbol('x') }), 'state.s');
    class Order {}
    assert.equal(pathOf({ o: new Order() }), 'state.o');
    const cyclic: Record<string, unknown> = { x: {} };
    (cyclic['x'] as Record<string, unknown>)['back'] = cyclic;
    assert.equal(pathOf(cyclic), 'state.x.back');
  });

  test('a shared (non-cyclic) object is fine', () => {
    const shared = { v: 1 };
    assert.equal(toStrictJson({ a: shared, b: shared }), '{"a":{"v":1},"b":{"v":1}}');
    // Shared many times over, in arrays and objects, and deeper than the fast walk goes.
    const list = [shared, [shared, { again: shared }], shared];
    let deep: unknown = { list, shared };
    for (let i = 0; i < 150; i++) deep = i % 2 === 0 ? [deep, shared] : { next: deep, shared };
    assert.equal(toStrictJson(deep), JSON.stringify(deep));
  });

  test('symbol keys are refused with the path of their object', () => {
    assert.equal(pathOf({ data: { tagged: { [Symbol('id')]: 1, ok: true } } }), 'state.data.tagged');
  });

  test('plain data nested far deeper than the fast walk goes is accepted, and problems down there are named', () => {
    let nested: unknown = 'leaf';
    for (let i = 0; i < 500; i++) nested = i % 2 === 0 ? { n: nested } : [nested];
    assert.equal(toStrictJson(nested), JSON.stringify(nested));
    let bad: unknown = { placedAt: new Date(0) };
    let path = 'state';
    for (let i = 0; i < 100; i++) bad = { n: bad };
    for (let i = 0; i < 100; i++) path += '.n';
    assert.equal(pathOf(bad), `${path}.placedAt`);
  });

  test('cycles are named wherever they close: at the top, deep down, through arrays, and in objects that refer to themselves many times', () => {
    const self: Record<string, unknown> = {};
    self['me'] = self;
    assert.equal(pathOf(self), 'state.me');
    const top: Record<string, unknown> = { v: 1 };
    let tail = top;
    let path = 'state';
    for (let i = 0; i < 120; i++) {
      const next: Record<string, unknown> = { v: i };
      tail['n'] = next;
      tail = next;
      path += '.n';
    }
    tail['back'] = [0, top];
    assert.equal(pathOf(top), `${path}.back[1]`);
    // Twenty keys all pointing back (the fast walk, which keeps no ancestor list, must still stop).
    const wide: Record<string, unknown> = {};
    for (let i = 0; i < 20; i++) wide[`k${i}`] = wide;
    assert.equal(pathOf({ wide }), 'state.wide.k0');
  });
});

describe('encodeRecord / decodeRecord', () => {
  test('round trip, and the typed errors for corrupt, foreign and newer records', () => {
    const text = encodeRecord('session', 2, { messages: ['hi'] });
    assert.deepEqual(decodeRecord(text, { kind: 'session', version: 2, where: 'row 1' }), { messages: ['hi'] });
    assert.throws(() => decodeRecord(text.slice(0, -3), { kind: 'session', version: 2, where: 'row 1' }), (e: unknown) => CorruptRecordError.isInstance(e) && /row 1: corrupted record: not JSON/.test(e.message));
    assert.throws(() => decodeRecord(text, { kind: 'checkpoint', version: 2, where: 'row 1' }), CorruptRecordError);
    assert.throws(() => decodeRecord('{"kind":"session","version":2}', { kind: 'session', version: 2, where: 'row 1' }), CorruptRecordError);
    assert.throws(() => decodeRecord(text, { kind: 'session', version: 1, where: 'row 1' }), (e: unknown) => SchemaVersionError.isInstance(e) && e.found === 2 && /newer agentlib/.test(e.message));
    assert.throws(() => decodeRecord(encodeRecord('session', 1, {}), { kind: 'session', version: 2, where: 'row 1' }), SchemaVersionError);
    assert.deepEqual(decodeRecord(encodeRecord('session', 1, { m: 1 }), { kind: 'session', version: 2, where: 'r', upgrade: (data, from) => ({ ...(data as object), from }) }), { m: 1, from: 1 });
  });

  test('encodeRecord refuses what toStrictJson refuses, with the path', () => {
    assert.throws(() => encodeRecord('checkpoint', 1, { data: { at: new Date() } }), /cannot store checkpoint\.data\.at: a Date instance/);
  });
});
