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

  test('cached prompt tokens are priced at the cached-input price (OpenAI: counted in promptTokens)', () => {
    // gpt-4o: 1000 prompt tokens of which 800 were read from the cache ($1.25 instead of $2.50).
    close(priceUsage('gpt-4o', { promptTokens: 1000, completionTokens: 100, cachedPromptTokens: 800 }), (200 * 2.5 + 800 * 1.25 + 100 * 10) / 1e6);
    close(priceUsage('gpt-4o-2024-08-06', { promptTokens: 1000, completionTokens: 0, cachedPromptTokens: 1000 }), (1000 * 1.25) / 1e6);
    close(priceUsage('gpt-5', { promptTokens: 10_000, completionTokens: 0, cachedPromptTokens: 9_000 }), (1000 * 1.25 + 9000 * 0.125) / 1e6);
    close(priceUsage('gpt-4.1', { promptTokens: 4000, completionTokens: 0, cachedPromptTokens: 4000 }), (4000 * 0.5) / 1e6);
    // No cached price (gpt-3.5-turbo, Gemini): cached tokens cost what other prompt tokens cost.
    close(priceUsage('gpt-3.5-turbo', { promptTokens: 1000, completionTokens: 0, cachedPromptTokens: 1000 }), (1000 * 0.5) / 1e6);
    close(priceUsage('gemini-2.5-flash', { promptTokens: 1000, completionTokens: 0, cachedPromptTokens: 600 }), (1000 * 0.3) / 1e6);
    // A cached count of 0 or absent changes nothing.
    close(priceUsage('gpt-4o', { promptTokens: 1000, completionTokens: 0, cachedPromptTokens: 0 }), priceUsage('gpt-4o', { promptTokens: 1000, completionTokens: 0 }));
  });

  test('Anthropic cache reads at 0.1x and cache writes at 1.25x the input price', () => {
    // claude-sonnet-4-5 ($3 input): 100 uncached + 800 read + 100 written = 1000 prompt tokens.
    const usage = { promptTokens: 1000, completionTokens: 50, cachedPromptTokens: 800, cacheWritePromptTokens: 100 };
    close(priceUsage('claude-sonnet-4-5-20250929', usage), (100 * 3 + 800 * 0.3 + 100 * 3.75 + 50 * 15) / 1e6);
    close(priceUsage('claude-haiku-4-5', { promptTokens: 2000, completionTokens: 0, cacheWritePromptTokens: 2000 }), (2000 * 1.25) / 1e6);
  });

  test('cache counts beyond the prompt are clamped, never negative costs', () => {
    close(priceUsage('gpt-4o', { promptTokens: 100, completionTokens: 0, cachedPromptTokens: 500 }), (100 * 1.25) / 1e6);
    close(priceUsage('claude-haiku-4-5', { promptTokens: 100, completionTokens: 0, cachedPromptTokens: 80, cacheWritePromptTokens: 80 }), (80 * 0.1 + 20 * 1.25) / 1e6);
    close(priceUsage('gpt-4o', { promptTokens: 100, completionTokens: 0, cachedPromptTokens: -5 }), (100 * 2.5) / 1e6);
  });

  test('the gpt-4o-2024-05-13 snapshot costs $5 / $15, not gpt-4o prices', () => {
    close(priceUsage('gpt-4o-2024-05-13', { promptTokens: 1_000_000, completionTokens: 1_000_000 }), 20);
    close(priceUsage('openai/gpt-4o-2024-05-13', { promptTokens: 1000, completionTokens: 0 }), 0.005);
  });

  test('priceEmbedding charges per 1M embedded tokens', () => {
    close(priceEmbedding('text-embedding-3-small', 1_000_000), 0.02);
    close(priceEmbedding('text-embedding-3-large', 500_000), 0.065);
    close(priceEmbedding('models/gemini-embedding-001', 2_000_000), 0.3);
    assert.equal(priceEmbedding('nomic-embed-text', 1e6), 0);
    assert.equal(priceEmbedding('unknown-embedder', 1e6), 0);
  });
});
