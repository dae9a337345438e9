import assert from 'node:assert/strict';
import { test } from 'node:test';
import { httpFailureKind, providerHttpError, providerTransportError, retryAfterSeconds } from '../../../lib/providers/provider-errors.js';

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
