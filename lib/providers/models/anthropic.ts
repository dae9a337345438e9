import { defineModel, type ModelExtras } from './define.js';
import { ModelType, type ModelInfo } from './types.js';

/**
 * Anthropic model ids, for autocomplete: `AnthropicModels.CLAUDE_HAIKU_4_5 === 'claude-haiku-4-5'`.
 * Dated ids (`claude-haiku-4-5-20251001`, `claude-3-5-haiku-20241022`) resolve through `getModelInfo`.
 */
export const AnthropicModels = {
  CLAUDE_OPUS_4_8: 'claude-opus-4-8',
  CLAUDE_OPUS_4_6: 'claude-opus-4-6',
  CLAUDE_OPUS_4_5: 'claude-opus-4-5',
  CLAUDE_OPUS_4_1: 'claude-opus-4-1',
  CLAUDE_OPUS_4_0: 'claude-opus-4-0',
  CLAUDE_SONNET_4_6: 'claude-sonnet-4-6',
  CLAUDE_SONNET_4_5: 'claude-sonnet-4-5',
  CLAUDE_SONNET_4_0: 'claude-sonnet-4-0',
  CLAUDE_HAIKU_4_5: 'claude-haiku-4-5',
  CLAUDE_3_7_SONNET: 'claude-3-7-sonnet',
  CLAUDE_3_5_HAIKU: 'claude-3-5-haiku',
  CLAUDE_3_OPUS: 'claude-3-opus',
} as const;

/** An Anthropic model id with a registry entry. */
export type AnthropicModel = (typeof AnthropicModels)[keyof typeof AnthropicModels];

const M = AnthropicModels;

/** Prompt-cache prices relative to the input price: reads 0.1×, 5-minute writes 1.25×. */
const CACHE_READ = 0.1;
const CACHE_WRITE = 1.25;
const perMillion = (price: number): number => Math.round(price * 1e6) / 1e6;

/** An Anthropic row: [input, output] USD per 1M tokens; cache read and write prices derived from the input price. */
function row(id: string, type: ModelType, prices: readonly [number, number], contextWindow: number, maxOutput: number, extras: ModelExtras = {}): ModelInfo {
  const [input, output] = prices;
  return defineModel('anthropic', id, type, [input, output, perMillion(input * CACHE_READ)], contextWindow, maxOutput, {
    cacheWritePricePer1M: perMillion(input * CACHE_WRITE),
    ...extras,
  });
}

/**
 * Anthropic list prices (USD per 1M tokens). Prompt caching is priced from the input price as
 * Anthropic publishes it: cache reads 0.1×, cache writes 1.25× (the 5-minute TTL; 1-hour writes,
 * 2×, are priced as 5-minute ones); batch discounts are not modelled. lastVerified: 2026-11-21
 * against stored copies of platform.claude.com model pages; claude-sonnet-4-6 added 2026-11-23
 * from its platform.claude.com page ($3 / $15, 1M context) and the launch-time model tables (64k
 * output; see its note). Cache multipliers from Anthropic's prompt-caching pricing.
 */
export const ANTHROPIC_MODELS: readonly ModelInfo[] = [
  row(M.CLAUDE_OPUS_4_8, ModelType.CHAT, [5, 25], 1_000_000, 128_000),
  row(M.CLAUDE_OPUS_4_6, ModelType.CHAT, [5, 25], 1_000_000, 128_000),
  row(M.CLAUDE_OPUS_4_5, ModelType.CHAT, [5, 25], 200_000, 64_000, { aliases: ['claude-opus-4-5-20251101'] }),
  row(M.CLAUDE_OPUS_4_1, ModelType.CHAT, [15, 75], 200_000, 32_000, { aliases: ['claude-opus-4-1-20250805'] }),
  row(M.CLAUDE_OPUS_4_0, ModelType.CHAT, [15, 75], 200_000, 32_000, { aliases: ['claude-opus-4', 'claude-opus-4-20250514'] }),
  row(M.CLAUDE_SONNET_4_6, ModelType.CHAT, [3, 15], 1_000_000, 64_000, {
    note: 'max output 64k, the launch figure; platform.claude.com now lists 128k, the lower limit is kept (thinking never raises max_tokens past it)',
  }),
  row(M.CLAUDE_SONNET_4_5, ModelType.CHAT, [3, 15], 200_000, 64_000, { aliases: ['claude-sonnet-4-5-20250929'] }),
  row(M.CLAUDE_SONNET_4_0, ModelType.CHAT, [3, 15], 200_000, 64_000, { aliases: ['claude-sonnet-4', 'claude-sonnet-4-20250514'] }),
  row(M.CLAUDE_HAIKU_4_5, ModelType.CHAT, [1, 5], 200_000, 64_000, { aliases: ['claude-haiku-4-5-20251001'] }),
  row(M.CLAUDE_3_7_SONNET, ModelType.CHAT, [3, 15], 200_000, 64_000, { aliases: ['claude-3-7-sonnet-20250219'] }),
  row(M.CLAUDE_3_5_HAIKU, ModelType.CHAT, [0.8, 4], 200_000, 8_192, { aliases: ['claude-3-5-haiku-20241022'] }),
  row(M.CLAUDE_3_OPUS, ModelType.CHAT, [15, 75], 200_000, 4_096, { aliases: ['claude-3-opus-20240229'], note: 'retired' }),
];
