import assert from 'node:assert/strict';
import { test } from 'node:test';
import { accessLogLine, batchedLines } from '../../../lib/serve/access-log.js';

test('an access-log line: ISO time, method, path, status, ms', () => {
  const line = accessLogLine('POST', '/invoke', 200, performance.now() - 12);
  const match = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z POST \/invoke 200 (\d+)ms$/.exec(line);
  assert.ok(match, line);
  assert.ok(Number(match[1]) >= 12, line);
});

test('batched lines: one write per event-loop turn, flush writes at once', async () => {
  const writes: string[] = [];
  const log = batchedLines((text) => void writes.push(text));
  log.log('a');
  log.log('b');
  assert.deepEqual(writes, []);
  await new Promise((resolve) => setImmediate(resolve));
  assert.deepEqual(writes, ['a\nb\n']);
  log.log('c');
  log.flush();
  assert.deepEqual(writes, ['a\nb\n', 'c\n']);
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(writes.length, 2, 'nothing left to write');
});
