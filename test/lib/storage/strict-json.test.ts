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
