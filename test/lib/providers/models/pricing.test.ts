import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { isModelPriced, priceEmbedding, priceUsage } from '../../../../lib/providers/models/index.js';

const close = (actual: number, expected: number): void => assert.ok(Math.abs(actual - expected) < 1e-12, `${actual} != ${expected}`);

describe('pricing', () => {
  test('priceUsage uses the prompt and completion prices per 1M tokens', () => {
    close(priceUsage('gpt-4o-mini', { promptTokens: 1_000_000, completionTokens: 0 }), 0.15);
    close(priceUsage('gpt-4o-mini', { promptTokens: 0, completionTokens: 1_000_000 }), 0.6);
    close(priceUsage('gpt-4o', { promptTokens: 1000, completionTokens: 500 }), (1000 * 2.5 + 500 * 10) / 1e6);
    close(priceUsage('claude-haiku-4-5', { promptTokens: 2000, completionTokens: 100 }), (2000 * 1 + 100 * 5) / 1e6);
  });

  test('dated and prefixed ids are priced like their entry', () => {
    const usage = { promptTokens: 1234, completionTokens: 56 };
    close(priceUsage('gpt-4o-2024-08-06', usage), priceUsage('gpt-4o', usage));
    close(priceUsage('claude-haiku-4-5-20251001', usage), priceUsage('claude-haiku-4-5', usage));
    close(priceUsage('models/gemini-2.5-flash', usage), priceUsage('gemini-2.5-flash', usage));
    assert.ok(priceUsage('gemini-2.5-flash', usage) > 0);
  });

  test('unknown models cost 0 but are not "priced"; local models are free and priced', () => {
    assert.equal(priceUsage('mystery-model', { promptTokens: 10, completionTokens: 10 }), 0);
    assert.equal(isModelPriced('mystery-model'), false);
    assert.equal(priceUsage('llama3.2', { promptTokens: 1e6, completionTokens: 1e6 }), 0);
    assert.equal(isModelPriced('llama3.2:latest'), true);
  });

  test('priceEmbedding charges per 1M embedded tokens', () => {
    close(priceEmbedding('text-embedding-3-small', 1_000_000), 0.02);
    close(priceEmbedding('text-embedding-3-large', 500_000), 0.065);
    close(priceEmbedding('models/gemini-embedding-001', 2_000_000), 0.3);
    assert.equal(priceEmbedding('nomic-embed-text', 1e6), 0);
    assert.equal(priceEmbedding('unknown-embedder', 1e6), 0);
  });
});
