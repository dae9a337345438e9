import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { CacheKeyBuilder } from '../../../lib/cache/index.js';
import { assistantMessage, userMessage } from '../../../lib/core/message.js';

const tool = (properties: Record<string, unknown>) => ({ name: 'lookup', description: 'Looks a key up', parameters: { type: 'object', properties } });

describe('CacheKeyBuilder', () => {
  const base = { model: 'gpt-4o', system: 'Be brief.', messages: [userMessage('hi')], temperature: 0 };

  test('a response key is llm:<sha256> and stable across object key order', () => {
    const a = CacheKeyBuilder.response({ ...base, tools: [tool({ a: { type: 'string' }, b: { type: 'number' } })] });
    const b = CacheKeyBuilder.response({ temperature: 0, tools: [tool({ b: { type: 'number' }, a: { type: 'string' } })], messages: [userMessage('hi')], system: 'Be brief.', model: 'gpt-4o' });
    assert.match(a, /^llm:[0-9a-f]{64}$/);
    assert.equal(a, b);
  });

  test('model, system prompt, messages, tools and temperature each change the key', () => {
    const key = CacheKeyBuilder.response(base);
    const variants = [
      { ...base, model: 'gpt-4o-mini' },
      { ...base, system: 'Be verbose.' },
      { ...base, messages: [userMessage('hello')] },
      { ...base, tools: [tool({ a: { type: 'string' } })] },
      { ...base, temperature: 0.7 },
    ];
    const keys = variants.map((v) => CacheKeyBuilder.response(v));
    assert.equal(new Set([key, ...keys]).size, 6);
  });

  test('a tool result key is tool_result:<name>:<sha256 of sorted params>', () => {
    const a = CacheKeyBuilder.toolResult('get_weather', { city: 'Graz', unit: 'c', nested: { y: 1, x: 2 } });
    const b = CacheKeyBuilder.toolResult('get_weather', { nested: { x: 2, y: 1 }, unit: 'c', city: 'Graz' });
    assert.match(a, /^tool_result:get_weather:[0-9a-f]{64}$/);
    assert.equal(a, b);
    assert.notEqual(a, CacheKeyBuilder.toolResult('get_weather', { city: 'Linz', unit: 'c', nested: { x: 2, y: 1 } }));
  });

  test('the response hint scopes by everything but the last user message', () => {
    const first = CacheKeyBuilder.responseHint({ ...base, messages: [userMessage('weather in Graz?')] });
    const paraphrase = CacheKeyBuilder.responseHint({ ...base, messages: [userMessage('what is the weather like in Graz')] });
    assert.equal(first.kind, 'response');
    assert.equal(first.text, 'weather in Graz?');
    assert.equal(first.scope, paraphrase.scope);
    assert.notEqual(first.scope, CacheKeyBuilder.responseHint({ ...base, system: 'Other', messages: [userMessage('weather in Graz?')] }).scope);
    assert.notEqual(first.scope, CacheKeyBuilder.responseHint({ ...base, messages: [userMessage('earlier'), assistantMessage('ok'), userMessage('weather in Graz?')] }).scope);
  });

  test('a request that ends in an assistant or tool turn has no text to compare', () => {
    const hint = CacheKeyBuilder.responseHint({ ...base, messages: [userMessage('q'), assistantMessage('a')] });
    assert.equal(hint.text, undefined);
  });
});
