import { getModelInfo } from './registry.js';

/** Token counts to price (a ProviderUsage or UsageStats fits). */
export interface PricedTokens {
  /** Every prompt token, cached or not. */
  promptTokens: number;
  completionTokens: number;
  /**
   * Prompt tokens read from the provider's prompt cache, counted in `promptTokens` too (OpenAI
   * `cached_tokens`, Anthropic `cache_read_input_tokens`); priced at the model's cached-input price.
   */
  cachedPromptTokens?: number;
  /**
   * Prompt tokens written to the prompt cache, counted in `promptTokens` too (Anthropic
   * `cache_creation_input_tokens`); priced at the model's cache-write price.
   */
  cacheWritePromptTokens?: number;
}

const PER_MILLION = 1_000_000;

/** A count clamped to [0, max] (a count the provider reports beyond its total is not trusted). */
function bounded(count: number | undefined, max: number): number {
  return count === undefined || !Number.isFinite(count) ? 0 : Math.min(Math.max(count, 0), Math.max(max, 0));
}

/**
 * Cost in USD of one chat call at the model's list prices: uncached prompt tokens at the prompt
 * price, cache reads at the cached-input price and cache writes at the cache-write price (each
 * falling back to the prompt price when the model has none), completion tokens at the completion
 * price. Unknown models cost 0; use `isModelPriced` to tell an unknown model from a free one.
 */
export function priceUsage(model: string, usage: PricedTokens): number {
  const info = getModelInfo(model);
  if (!info) return 0;
  const cached = bounded(usage.cachedPromptTokens, usage.promptTokens);
  const written = bounded(usage.cacheWritePromptTokens, usage.promptTokens - cached);
  const fresh = usage.promptTokens - cached - written;
  const prompt = info.promptPricePer1M;
  return (
    (fresh * prompt +
      cached * (info.cachedPromptPricePer1M ?? prompt) +
      written * (info.cacheWritePricePer1M ?? prompt) +
      usage.completionTokens * info.completionPricePer1M) /
    PER_MILLION
  );
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
