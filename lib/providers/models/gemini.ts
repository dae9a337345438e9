import { defineModel } from './define.js';
import { ModelType, type ModelInfo } from './types.js';

/**
 * Gemini API model ids, for autocomplete: `GeminiModels.GEMINI_2_5_FLASH === 'gemini-2.5-flash'`.
 * The API's `models/…` resource names resolve through `getModelInfo`.
 */
export const GeminiModels = {
  GEMINI_3_1_PRO_PREVIEW: 'gemini-3.1-pro-preview',
  GEMINI_3_PRO_PREVIEW: 'gemini-3-pro-preview',
  GEMINI_3_FLASH_PREVIEW: 'gemini-3-flash-preview',
  GEMINI_2_5_PRO: 'gemini-2.5-pro',
  GEMINI_2_5_FLASH: 'gemini-2.5-flash',
  GEMINI_2_5_FLASH_LITE: 'gemini-2.5-flash-lite',
  GEMINI_2_0_FLASH: 'gemini-2.0-flash',
  GEMINI_2_0_FLASH_LITE: 'gemini-2.0-flash-lite',
  GEMINI_EMBEDDING_2: 'gemini-embedding-2',
  GEMINI_EMBEDDING_001: 'gemini-embedding-001',
  TEXT_EMBEDDING_004: 'text-embedding-004',
} as const;

/** A Gemini model id with a registry entry. */
export type GeminiModel = (typeof GeminiModels)[keyof typeof GeminiModels];

const M = GeminiModels;
const row = defineModel.bind(undefined, 'gemini');
const LONG = 'prompts over 200k tokens are billed at a higher tier (not modelled)';

/**
 * Gemini API paid-tier list prices for prompts up to 200k tokens (USD per 1M tokens; the
 * long-context tier, context caching and the free tier are not modelled).
 * lastVerified: 2026-11-21 against stored copies of ai.google.dev model pages and price summaries;
 * gemini-3-flash-preview added 2026-11-23 from price summaries quoting Google's list price ($0.50 /
 * $3 for text, image and video input; 1,048,576-token context, 65,536 output). Cached-content
 * prices are not modelled (cached tokens are priced as prompt tokens).
 */
export const GEMINI_MODELS: readonly ModelInfo[] = [
  row(M.GEMINI_3_1_PRO_PREVIEW, ModelType.REASONING, [2, 12], 1_048_576, 65_536, { note: LONG }),
  row(M.GEMINI_3_PRO_PREVIEW, ModelType.REASONING, [2, 12], 1_048_576, 65_536, { note: LONG }),
  row(M.GEMINI_3_FLASH_PREVIEW, ModelType.REASONING, [0.5, 3], 1_048_576, 65_536, { note: 'audio input is billed higher (not modelled)' }),
  row(M.GEMINI_2_5_PRO, ModelType.REASONING, [1.25, 10], 1_048_576, 65_536, { note: LONG }),
  row(M.GEMINI_2_5_FLASH, ModelType.MULTIMODAL, [0.3, 2.5], 1_048_576, 65_536),
  row(M.GEMINI_2_5_FLASH_LITE, ModelType.MULTIMODAL, [0.1, 0.4], 1_048_576, 65_536),
  row(M.GEMINI_2_0_FLASH, ModelType.MULTIMODAL, [0.1, 0.4], 1_048_576, 8_192),
  row(M.GEMINI_2_0_FLASH_LITE, ModelType.MULTIMODAL, [0.075, 0.3], 1_048_576, 8_192),
  row(M.GEMINI_EMBEDDING_2, ModelType.EMBEDDING, [0.2, 0], 8_192, 0, {
    dimensions: 3072,
    aliases: ['gemini-embedding-2-preview'],
    note: 'price inferred from the 50% batch price; verify',
  }),
  row(M.GEMINI_EMBEDDING_001, ModelType.EMBEDDING, [0.15, 0], 2_048, 0, { dimensions: 3072 }),
  row(M.TEXT_EMBEDDING_004, ModelType.EMBEDDING, [0, 0], 2_048, 0, { dimensions: 768, note: 'free of charge; retired January 2026' }),
];
