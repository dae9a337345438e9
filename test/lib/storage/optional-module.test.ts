import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadOptional, MissingDependencyError } from '../../../lib/storage/index.js';

test('loadOptional: a missing package is a MissingDependencyError with the npm command', async () => {
  await assert.rejects(loadOptional('agentlib-no-such-driver', 'imaginary stores'), (error: unknown) => {
    assert.ok(MissingDependencyError.isInstance(error));
    assert.equal(error.message, 'install agentlib-no-such-driver to use imaginary stores: npm install agentlib-no-such-driver');
    return true;
  });
});

test('loadOptional: an installed package loads once and is cached', async () => {
  const first = await loadOptional<{ createClient: unknown }>('redis', 'Redis stores');
  assert.equal(typeof first.createClient, 'function');
  assert.equal(await loadOptional('redis', 'Redis stores'), first);
});
