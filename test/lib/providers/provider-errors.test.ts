import assert from 'node:assert/strict';
import { test } from 'node:test';
import { httpFailureKind, providerHttpError, providerTransportError, providerUnknownError, retryAfterSeconds, transportFailureKind } from '../../../lib/providers/provider-errors.js';

test('HTTP failures map to kinds and retryability', () => {
  const cases: [number, string, string, boolean][] = [
    [400, 'bad', 'invalid_request', false], [401, 'key', 'auth', false], [403, 'no', 'auth', false], [404, 'model', 'not_found', false],
    [408, 'slow', 'timeout', true], [429, 'rate', 'rate_limit', true], [500, 'oops', 'server', true], [503, 'x', 'overloaded', true],
    [529, 'x', 'overloaded', true], [500, 'Overloaded', 'overloaded', true],
  ];
  for (const [status, message, kind, retryable] of cases) {
    const error = providerHttpError({ provider: 'p', status, message, model: 'm', requestId: 'req_1' });
    assert.equal(error.kind, kind, String(status));
    assert.equal(error.retryable, retryable, String(status));
    assert.match(error.message, new RegExp(`p returned ${status} \\(model m\\)`));
    assert.equal(error.requestId, 'req_1');
  }
  assert.equal(httpFailureKind(400, 'x', 'overloaded_error'), 'overloaded');
  // Kind and retryability always agree: an "overloaded" error is retryable whatever its status.
  const overloaded = providerHttpError({ provider: 'p', status: 400, message: 'x', code: 'overloaded_error' });
  assert.deepEqual([overloaded.kind, overloaded.retryable], ['overloaded', true]);
  assert.equal(providerHttpError({ provider: 'p', status: 409, message: 'conflict' }).retryable, true);
  assert.equal(providerHttpError({ provider: 'p', status: 500, message: 'x', code: 'UNAUTHENTICATED' }).retryable, false, 'auth is never retried');
  assert.equal(httpFailureKind(400, 'API key not valid. (API_KEY_INVALID)', 'INVALID_ARGUMENT'), 'auth');
  assert.equal(providerHttpError({ provider: 'p', status: 400, message: 'API key not valid. (API_KEY_INVALID)' }).retryable, false);
});

test('Retry-After: seconds, milliseconds header, HTTP date', () => {
  assert.equal(retryAfterSeconds({ 'Retry-After': '7' }), 7);
  assert.equal(retryAfterSeconds(new Headers({ 'retry-after-ms': '1500' })), 1.5);
  assert.equal(retryAfterSeconds({ 'retry-after': new Date(10_000).toUTCString() }, () => 4_000), 6);
  assert.equal(retryAfterSeconds({}), undefined);
  assert.equal(providerHttpError({ provider: 'p', status: 429, message: 'slow down', headers: { 'retry-after': '3' } }).retryAfterSeconds, 3);
});

test('transport errors are retryable unless said otherwise', () => {
  assert.equal(providerTransportError('p', 'connection', 'ECONNRESET').retryable, true);
  assert.equal(providerTransportError('p', 'stream', 'cut', { retryable: false }).retryable, false);
});

test('transportFailureKind: only real transport failures (codes and messages along the cause chain)', () => {
  const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });
  assert.equal(transportFailureKind(withCode('read ECONNRESET', 'ECONNRESET')), 'connection');
  assert.equal(transportFailureKind(new TypeError('fetch failed', { cause: withCode('connect ECONNREFUSED 127.0.0.1:1', 'ECONNREFUSED') })), 'connection');
  assert.equal(transportFailureKind(new Error('socket hang up')), 'connection');
  assert.equal(transportFailureKind(new TypeError('terminated')), 'connection');
  assert.equal(transportFailureKind(new TypeError('fetch failed', { cause: withCode('Connect Timeout Error', 'UND_ERR_CONNECT_TIMEOUT') })), 'timeout');
  assert.equal(transportFailureKind(withCode('connect ETIMEDOUT', 'ETIMEDOUT')), 'timeout');
  assert.equal(transportFailureKind(new TypeError("Cannot read properties of undefined (reading 'x')")), undefined);
  assert.equal(transportFailureKind(new Error('Invalid value for model')), undefined);
  assert.equal(transportFailureKind('ECONNRESET as a string is not an error object'), undefined);
});

test('providerUnknownError: transport failures retryable, anything else not (fallback kind, default unknown)', () => {
  const reset = providerUnknownError('p', Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }), { model: 'm' });
  assert.deepEqual([reset.kind, reset.retryable, reset.model], ['connection', true, 'm']);
  const bug = providerUnknownError('p', new TypeError('x is not a function'));
  assert.deepEqual([bug.kind, bug.retryable], ['unknown', false]);
  assert.equal(providerUnknownError('p', new Error('bad'), { fallbackKind: 'invalid_request' }).kind, 'invalid_request');
});
