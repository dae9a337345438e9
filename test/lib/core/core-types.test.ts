import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { CancellationToken } from '../../../lib/core/cancellation-token.js';
import { assistantMessage, toolMessage } from '../../../lib/core/message.js';
import { Role } from '../../../lib/core/role.js';
import { closestMatch } from '../../../lib/core/suggest.js';
import { decodeThoughtSignature, encodeThoughtSignature } from '../../../lib/core/tool-call.js';
import { AgentUsage, addUsage, makeUsage } from '../../../lib/core/usage.js';

describe('core types', () => {
  test('provider content null is normalised to an empty string', () => {
    assert.equal(assistantMessage(null).content, '');
    assert.equal(assistantMessage(undefined).role, Role.ASSISTANT);
    assert.deepEqual(Object.values(Role).sort(), ['assistant', 'system', 'tool', 'user']);
  });

  test('tool messages carry the call id', () => {
    const message = toolMessage({ id: 'c1', toolName: 'x' }, 'oops', true);
    assert.deepEqual(message, { role: 'tool', content: 'oops', toolCallId: 'c1', toolName: 'x', isError: true });
  });

  test('thought signatures survive base64 byte for byte', () => {
    const bytes = new Uint8Array([0, 255, 1, 128, 64, 10, 13, 0]);
    const stored = encodeThoughtSignature(bytes);
    assert.deepEqual(decodeThoughtSignature(stored), bytes);
    assert.equal(encodeThoughtSignature(decodeThoughtSignature(stored)), stored);
  });

  test('usage adds up, per tool too', () => {
    const a = makeUsage({ promptTokens: 10, completionTokens: 5, costUsd: 0.01 });
    assert.equal(a.totalTokens, 15);
    const sum = addUsage(a, makeUsage({ promptTokens: 1, completionTokens: 1, embeddingTokens: 7, embeddingCostUsd: 0.002 }));
    assert.equal(sum.totalTokens, 17);
    assert.equal(sum.embeddingTokens, 7);
    const usage = new AgentUsage();
    usage.addLlmCall(sum);
    usage.addToolCall('search', 40);
    usage.addToolCall('search', 2);
    assert.equal(usage.totalCostUsd, 0.01);
    assert.equal(usage.totalEmbeddingCostUsd, 0.002);
    assert.deepEqual({ ...usage.toolUsage }, { search: 2 });
    assert.deepEqual({ ...usage.toolTokens }, { search: 42 });
    assert.equal(usage.toJSON().llmCalls, 1);
    usage.reset();
    assert.deepEqual({ ...usage.toolUsage }, {});
    for (const name of ['constructor', '__proto__', 'hasOwnProperty']) usage.addToolCall(name, 3);
    assert.deepEqual(Object.entries(usage.toolUsage), [['constructor', 1], ['__proto__', 1], ['hasOwnProperty', 1]]);
    const merged = new AgentUsage();
    merged.merge(usage);
    merged.merge(usage.toJSON());
    assert.equal(merged.toolTokens['constructor'], 6);
    assert.equal(JSON.parse(JSON.stringify(merged.toJSON())).toolUsage['__proto__'], 2);
  });

  test('cancellation token sets, exposes an aborted signal, and is reusable after reset', () => {
    const token = new CancellationToken();
    const first = token.signal;
    assert.equal(token.isSet(), false);
    token.set();
    assert.equal(token.isSet(), true);
    assert.equal(first.aborted, true);
    assert.throws(() => token.throwIfSet(), { name: 'CancellationError' });
    token.reset();
    assert.equal(token.isSet(), false);
    assert.equal(token.signal.aborted, false);
  });

  test('closestMatch suggests likely typos only', () => {
    assert.equal(closestMatch('qurey', ['query', 'limit']), 'query');
    assert.equal(closestMatch('zzz', ['query', 'limit']), undefined);
  });
});

test('editDistance counts an adjacent transposition as one edit', async () => {
  const { editDistance } = await import('../../../lib/core/suggest.js');
  assert.equal(editDistance('qurey', 'query'), 1);
  assert.equal(editDistance('kitten', 'sitting'), 3);
  assert.equal(editDistance('', 'abc'), 3);
});
