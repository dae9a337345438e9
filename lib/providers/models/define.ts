import type { ModelInfo, ModelProvider, ModelType } from './types.js';

/** Optional fields of a registry entry. */
export type ModelExtras = Pick<ModelInfo, 'aliases' | 'dimensions' | 'note' | 'cacheWritePricePer1M'>;

/**
 * Builds a frozen registry entry from a compact row: provider, id, type, [prompt, completion,
 * cached prompt?] USD per 1M tokens, context window, max output tokens.
 */
export function defineModel(
  provider: ModelProvider,
  id: string,
  type: ModelType,
  prices: readonly [prompt: number, completion: number, cachedPrompt?: number],
  contextWindow: number,
  maxOutputTokens: number,
  extras: ModelExtras = {},
): ModelInfo {
  const info: ModelInfo = {
    id,
    provider,
    type,
    promptPricePer1M: prices[0],
    completionPricePer1M: prices[1],
    contextWindow,
    maxOutputTokens,
    ...extras,
  };
  if (prices[2] !== undefined) info.cachedPromptPricePer1M = prices[2];
  if (info.aliases) info.aliases = Object.freeze([...info.aliases]);
  return Object.freeze(info);
}
