import { getModelInfo } from './registry.js';

/** Token counts to price (a ProviderUsage or UsageStats fits). */
export interface PricedTokens {
  promptTokens: number;
  completionTokens: number;
}

const PER_MILLION = 1_000_000;

/**
 * Cost in USD of one chat call at the model's list prices. Unknown models cost 0; use
 * `isModelPriced` to tell an unknown model from a free one.
 */
export function priceUsage(model: string, usage: PricedTokens): number {
  const info = getModelInfo(model);
  if (!info) return 0;
  return (usage.promptTokens * info.promptPricePer1M + usage.completionTokens * info.completionPricePer1M) / PER_MILLION;
}

/** Cost in USD of embedding `tokens` tokens with `model` (0 when unknown). */
export function priceEmbedding(model: string, tokens: number): number {
  const info = getModelInfo(model);
  return info ? (tokens * info.promptPricePer1M) / PER_MILLION : 0;
}

/** True when the registry knows the model (so a cost of 0 means free, not unknown). */
export function isModelPriced(model: string): boolean {
  return getModelInfo(model) !== undefined;
}
