import assert from 'node:assert/strict';
import { afterEach, describe, test } from 'node:test';
import {
  AnthropicModels,
  GeminiModels,
  getModelInfo,
  listModels,
  ModelType,
  OllamaModels,
  OpenAIModels,
  registerModel,
  resetModelRegistry,
  unregisterModel,
} from '../../../../lib/providers/models/index.js';

/** Model ids found in the recorded provider fixtures (grep '"model"' in fixtures/providers). */
const FIXTURE_MODELS = [
  'gpt-4.1-nano-2025-04-14', 'gpt-4o-2024-08-06', 'gpt-4o-mini-2024-07-18', 'gpt-3.5-turbo-0125', 'gpt-4o', 'gpt-4o-mini',
  'gpt-5.5-2026-04-23', 'gpt-5.5', 'gpt-5-nano-2025-08-07', 'o1-mini', 'gpt-3.5-turbo', 'text-embedding-3-small',
  'claude-sonnet-4-0', 'claude-haiku-4-5-20251001', 'claude-sonnet-4-20250514', 'claude-3-opus-20240229',
  'claude-sonnet-4-5-20250929', 'claude-opus-4-8', 'claude-opus-4-6',
  'gemini-2.5-pro', 'gemini-2.0-flash', 'gemini-2.5-flash', 'gemini-3.1-pro-preview', 'gemini-3-pro-preview',
  'models/gemini-embedding-2', 'models/gemini-embedding-2-preview', 'models/gemini-embedding-001', 'models/gemini-2.0-flash',
  'gemma3:1b', 'gemma4', 'llama3.2', 'nomic-embed-text', 'all-minilm',
];

afterEach(() => resetModelRegistry());

describe('model registry', () => {
  test('ModelType has five string members', () => {
    assert.deepEqual(Object.entries(ModelType), [
      ['CHAT', 'chat'], ['EMBEDDING', 'embedding'], ['AUDIO', 'audio'], ['MULTIMODAL', 'multimodal'], ['REASONING', 'reasoning'],
    ]);
  });

  test('typed constants name registered models of their provider', () => {
    assert.equal(OpenAIModels.GPT_4O_MINI, 'gpt-4o-mini');
    assert.equal(AnthropicModels.CLAUDE_SONNET_4_5, 'claude-sonnet-4-5');
    assert.equal(GeminiModels.GEMINI_2_5_FLASH, 'gemini-2.5-flash');
    assert.equal(OllamaModels.LLAMA_3_2, 'llama3.2');
    const groups = [[OpenAIModels, 'openai'], [AnthropicModels, 'anthropic'], [GeminiModels, 'gemini'], [OllamaModels, 'ollama']] as const;
    for (const [constants, provider] of groups) {
      for (const id of Object.values(constants)) assert.equal(getModelInfo(id)?.provider, provider, id);
    }
  });

  test('the brief\'s required models are present with sane figures', () => {
    const required = [
      'gpt-4o', 'gpt-4o-mini', 'gpt-4.1', 'gpt-4.1-mini', 'gpt-4.1-nano', 'o3', 'o4-mini', 'gpt-5', 'gpt-5-mini',
      'text-embedding-3-small', 'text-embedding-3-large', 'claude-sonnet-4-5', 'claude-haiku-4-5', 'claude-opus-4-1',
      'gemini-2.5-pro', 'gemini-2.5-flash', 'gemini-2.5-flash-lite', 'gemini-3-pro-preview', 'gemini-embedding-001',
      'text-embedding-004', 'llama3.1', 'llama3.2', 'qwen2.5',
    ];
    for (const id of required) {
      const info = getModelInfo(id);
      assert.ok(info, id);
      assert.equal(info.id, id);
      assert.ok(info.contextWindow > 0, `${id} context`);
      if (info.type !== ModelType.EMBEDDING) assert.ok(info.maxOutputTokens > 0 && info.maxOutputTokens <= info.contextWindow, `${id} output`);
    }
    assert.equal(getModelInfo('gpt-4o')!.promptPricePer1M, 2.5);
    assert.equal(getModelInfo('claude-opus-4-1')!.completionPricePer1M, 75);
    assert.equal(getModelInfo('text-embedding-3-small')!.type, ModelType.EMBEDDING);
  });

  test('current models: prices, limits and cached-input prices as published', () => {
    const expected: Record<string, { provider: string; prices: [number, number]; context: number; output: number; cached?: number }> = {
      'claude-sonnet-4-6': { provider: 'anthropic', prices: [3, 15], context: 1_000_000, output: 64_000, cached: 0.3 },
      'gemini-3-flash-preview': { provider: 'gemini', prices: [0.5, 3], context: 1_048_576, output: 65_536 },
      'gpt-5.1': { provider: 'openai', prices: [1.25, 10], context: 400_000, output: 128_000, cached: 0.125 },
      'gpt-5.2': { provider: 'openai', prices: [1.75, 14], context: 400_000, output: 128_000, cached: 0.175 },
      o1: { provider: 'openai', prices: [15, 60], context: 200_000, output: 100_000, cached: 7.5 },
      'o3-pro': { provider: 'openai', prices: [20, 80], context: 200_000, output: 100_000 },
    };
    for (const [id, figures] of Object.entries(expected)) {
      const info = getModelInfo(id);
      assert.ok(info, id);
      assert.equal(info.id, id);
      assert.equal(info.provider, figures.provider, `${id} provider`);
      assert.deepEqual([info.promptPricePer1M, info.completionPricePer1M], figures.prices, `${id} prices`);
      assert.equal(info.contextWindow, figures.context, `${id} context`);
      assert.equal(info.maxOutputTokens, figures.output, `${id} output`);
      assert.equal(info.cachedPromptPricePer1M, figures.cached, `${id} cached input`);
    }
    assert.equal(getModelInfo('gpt-5.1-2025-11-13')?.id, 'gpt-5.1');
    assert.equal(AnthropicModels.CLAUDE_SONNET_4_6, 'claude-sonnet-4-6');
    assert.equal(GeminiModels.GEMINI_3_FLASH_PREVIEW, 'gemini-3-flash-preview');
  });

  test('gpt-4o-2024-05-13 is its own entry at $5 / $15, not gpt-4o; later snapshots still resolve to gpt-4o', () => {
    const info = getModelInfo('gpt-4o-2024-05-13');
    assert.equal(info?.id, 'gpt-4o-2024-05-13');
    assert.deepEqual([info?.promptPricePer1M, info?.completionPricePer1M], [5, 15]);
    assert.equal(info?.cachedPromptPricePer1M, undefined, 'no cached-input discount on that snapshot');
    assert.equal(getModelInfo('gpt-4o-2024-08-06')?.id, 'gpt-4o');
    assert.equal(getModelInfo('gpt-4o-2024-11-20')?.id, 'gpt-4o');
  });

  test('cached-input prices: Anthropic reads 0.1x and writes 1.25x input; OpenAI per published list', () => {
    for (const info of listModels({ provider: 'anthropic' })) {
      assert.equal(info.cachedPromptPricePer1M, Math.round(info.promptPricePer1M * 0.1 * 1e6) / 1e6, `${info.id} cache read`);
      assert.equal(info.cacheWritePricePer1M, Math.round(info.promptPricePer1M * 1.25 * 1e6) / 1e6, `${info.id} cache write`);
    }
    assert.equal(getModelInfo('claude-haiku-4-5')?.cacheWritePricePer1M, 1.25);
    const ratio = (id: string): number => getModelInfo(id)!.cachedPromptPricePer1M! / getModelInfo(id)!.promptPricePer1M;
    for (const id of ['gpt-4o', 'gpt-4o-mini', 'o1', 'o3-mini', 'o1-mini']) assert.ok(Math.abs(ratio(id) - 0.5) < 1e-9, id);
    for (const id of ['gpt-4.1', 'gpt-4.1-mini', 'gpt-4.1-nano', 'o3', 'o4-mini']) assert.ok(Math.abs(ratio(id) - 0.25) < 1e-9, id);
    for (const id of ['gpt-5', 'gpt-5-mini', 'gpt-5-nano', 'gpt-5.1', 'gpt-5.2', 'gpt-5.4', 'gpt-5.5']) assert.ok(Math.abs(ratio(id) - 0.1) < 1e-9, id);
    assert.equal(getModelInfo('gpt-3.5-turbo')?.cachedPromptPricePer1M, undefined);
    assert.equal(getModelInfo('o3-pro')?.cachedPromptPricePer1M, undefined);
  });

  test('Anthropic maximum output tokens (they cap the max_tokens that thinking raises), dated ids included', () => {
    const published: Record<string, number> = {
      'claude-sonnet-4-5-20250929': 64_000,
      'claude-sonnet-4-20250514': 64_000,
      'claude-opus-4-1-20250805': 32_000,
      'claude-opus-4-20250514': 32_000,
      'claude-haiku-4-5-20251001': 64_000,
      'claude-3-7-sonnet-20250219': 64_000,
      'claude-3-5-haiku-20241022': 8_192,
      'claude-sonnet-4-6': 64_000,
    };
    for (const [id, limit] of Object.entries(published)) assert.equal(getModelInfo(id)?.maxOutputTokens, limit, id);
  });

  test('every model used in the recorded fixtures resolves', () => {
    for (const id of FIXTURE_MODELS) assert.ok(getModelInfo(id), `no registry entry for fixture model ${id}`);
  });

  test('dated, prefixed, tagged and aliased ids fall back to their entry', () => {
    assert.equal(getModelInfo('gpt-4o-2024-08-06')?.id, 'gpt-4o');
    assert.equal(getModelInfo('gpt-4o-mini-2024-07-18')?.id, 'gpt-4o-mini', 'never falls back across families');
    assert.equal(getModelInfo('gpt-3.5-turbo-0125')?.id, 'gpt-3.5-turbo');
    assert.equal(getModelInfo('claude-3-5-haiku-20241022')?.id, 'claude-3-5-haiku');
    assert.equal(getModelInfo('claude-3-5-haiku-latest')?.id, 'claude-3-5-haiku');
    assert.equal(getModelInfo('claude-sonnet-4-20250514')?.id, 'claude-sonnet-4-0');
    assert.equal(getModelInfo('models/gemini-2.5-flash')?.id, 'gemini-2.5-flash');
    assert.equal(getModelInfo('gemini-2.0-flash-001')?.id, 'gemini-2.0-flash');
    assert.equal(getModelInfo('llama3.2:3b')?.id, 'llama3.2');
    assert.equal(getModelInfo(' GPT-4o ')?.id, 'gpt-4o');
  });

  test('unknown ids are undefined, not guessed', () => {
    assert.equal(getModelInfo('this-model-does-not-exist-12345'), undefined);
    assert.equal(getModelInfo('gpt-4o-mega'), undefined);
    assert.equal(getModelInfo('ft:gpt-4o-mini:acme::abc123'), undefined, 'fine-tunes are priced differently');
    assert.equal(getModelInfo(''), undefined);
  });

  test('registerModel adds or replaces entries (with aliases); reset restores built-ins', () => {
    registerModel({ id: 'acme-large', provider: 'acme', type: ModelType.CHAT, promptPricePer1M: 1, completionPricePer1M: 2, contextWindow: 1000, maxOutputTokens: 100, aliases: ['acme-l'] });
    assert.equal(getModelInfo('acme-l')?.id, 'acme-large');
    assert.equal(getModelInfo('acme-large-2026-01-01')?.id, 'acme-large');
    registerModel({ ...getModelInfo('gpt-4o')!, promptPricePer1M: 99 });
    assert.equal(getModelInfo('gpt-4o-2024-08-06')?.promptPricePer1M, 99);
    assert.ok(Object.isFrozen(getModelInfo('acme-large')));
    resetModelRegistry();
    assert.equal(getModelInfo('acme-large'), undefined);
    assert.equal(getModelInfo('gpt-4o')?.promptPricePer1M, 2.5);
  });

  test('registerModel rejects invalid entries', () => {
    const base = { id: 'x', provider: 'acme', type: ModelType.CHAT, promptPricePer1M: 1, completionPricePer1M: 1, contextWindow: 10, maxOutputTokens: 1 };
    assert.throws(() => registerModel({ ...base, id: ' ' }), /id must be/);
    assert.throws(() => registerModel({ ...base, promptPricePer1M: -1 }), /promptPricePer1M/);
    assert.throws(() => registerModel({ ...base, contextWindow: Number.NaN }), /contextWindow/);
    assert.throws(() => registerModel({ ...base, cachedPromptPricePer1M: -0.1 }), /cachedPromptPricePer1M/);
    assert.throws(() => registerModel({ ...base, cacheWritePricePer1M: Number.POSITIVE_INFINITY }), /cacheWritePricePer1M/);
  });

  test('unregisterModel removes an entry and its aliases', () => {
    assert.equal(unregisterModel('claude-sonnet-4-0'), true);
    assert.equal(getModelInfo('claude-sonnet-4-20250514'), undefined);
    assert.equal(unregisterModel('claude-sonnet-4-0'), false);
  });

  test('listModels filters by provider and type', () => {
    const all = listModels();
    assert.ok(all.length >= 40);
    const openaiEmbeddings = listModels({ provider: 'openai', type: ModelType.EMBEDDING }).map((m) => m.id);
    assert.deepEqual(openaiEmbeddings.sort(), ['text-embedding-3-large', 'text-embedding-3-small', 'text-embedding-ada-002']);
    assert.ok(listModels({ provider: 'anthropic' }).every((m) => m.provider === 'anthropic'));
    assert.deepEqual(listModels({ provider: 'google' }), listModels({ provider: 'gemini' }));
    assert.ok(listModels({ type: ModelType.AUDIO }).length >= 1);
    assert.ok(listModels({ type: ModelType.REASONING }).some((m) => m.id === 'o3'));
    assert.deepEqual(listModels({ provider: 'nobody' }), []);
  });
});

test('lookups are memoised, and the memo follows register/unregister', () => {
  resetModelRegistry();
  assert.equal(getModelInfo('acme-large-2026-01-01'), undefined);
  registerModel({ id: 'acme-large', provider: 'acme', type: ModelType.CHAT, promptPricePer1M: 1, completionPricePer1M: 2, contextWindow: 1000, maxOutputTokens: 100 });
  assert.equal(getModelInfo('acme-large-2026-01-01')?.id, 'acme-large', 'a cached miss does not hide a new model');
  unregisterModel('acme-large');
  assert.equal(getModelInfo('acme-large-2026-01-01'), undefined, 'a cached hit does not outlive its model');
  resetModelRegistry();
});
