import { defineModel } from './define.js';
import { ModelType, type ModelInfo } from './types.js';

/**
 * OpenAI model ids, for autocomplete: `OpenAIModels.GPT_4O_MINI === 'gpt-4o-mini'`.
 * Dated snapshots (`gpt-4o-2024-08-06`) resolve to these entries through `getModelInfo`.
 */
export const OpenAIModels = {
  GPT_5_5: 'gpt-5.5',
  GPT_5_4: 'gpt-5.4',
  GPT_5_4_MINI: 'gpt-5.4-mini',
  GPT_5_4_NANO: 'gpt-5.4-nano',
  GPT_5: 'gpt-5',
  GPT_5_MINI: 'gpt-5-mini',
  GPT_5_NANO: 'gpt-5-nano',
  GPT_4_1: 'gpt-4.1',
  GPT_4_1_MINI: 'gpt-4.1-mini',
  GPT_4_1_NANO: 'gpt-4.1-nano',
  GPT_4O: 'gpt-4o',
  GPT_4O_MINI: 'gpt-4o-mini',
  GPT_4O_AUDIO_PREVIEW: 'gpt-4o-audio-preview',
  GPT_4O_MINI_AUDIO_PREVIEW: 'gpt-4o-mini-audio-preview',
  GPT_3_5_TURBO: 'gpt-3.5-turbo',
  O3: 'o3',
  O3_MINI: 'o3-mini',
  O4_MINI: 'o4-mini',
  O1_MINI: 'o1-mini',
  TEXT_EMBEDDING_3_SMALL: 'text-embedding-3-small',
  TEXT_EMBEDDING_3_LARGE: 'text-embedding-3-large',
  TEXT_EMBEDDING_ADA_002: 'text-embedding-ada-002',
} as const;

/** An OpenAI model id with a registry entry. */
export type OpenAIModel = (typeof OpenAIModels)[keyof typeof OpenAIModels];

const M = OpenAIModels;
const row = defineModel.bind(undefined, 'openai');

/**
 * OpenAI list prices (standard tier, USD per 1M tokens; cached-input and batch discounts are not
 * modelled). lastVerified: 2026-11-21 against stored copies of OpenAI's pricing page summaries.
 * The GPT-5.4 / 5.5 context and output limits come from third-party summaries (see `note`).
 */
export const OPENAI_MODELS: readonly ModelInfo[] = [
  row(M.GPT_5_5, ModelType.REASONING, [5, 30], 1_000_000, 128_000, { note: 'limits from third-party summaries' }),
  row(M.GPT_5_4, ModelType.REASONING, [2.5, 15], 1_000_000, 128_000, { note: 'limits from third-party summaries' }),
  row(M.GPT_5_4_MINI, ModelType.REASONING, [0.75, 4.5], 1_000_000, 128_000, { note: 'limits from third-party summaries' }),
  row(M.GPT_5_4_NANO, ModelType.REASONING, [0.2, 1.25], 1_000_000, 128_000, { note: 'limits from third-party summaries' }),
  row(M.GPT_5, ModelType.REASONING, [1.25, 10], 400_000, 128_000),
  row(M.GPT_5_MINI, ModelType.REASONING, [0.25, 2], 400_000, 128_000),
  row(M.GPT_5_NANO, ModelType.REASONING, [0.05, 0.4], 400_000, 128_000),
  row(M.GPT_4_1, ModelType.CHAT, [2, 8], 1_047_576, 32_768),
  row(M.GPT_4_1_MINI, ModelType.CHAT, [0.4, 1.6], 1_047_576, 32_768),
  row(M.GPT_4_1_NANO, ModelType.CHAT, [0.1, 0.4], 1_047_576, 32_768),
  row(M.GPT_4O, ModelType.MULTIMODAL, [2.5, 10], 128_000, 16_384, { aliases: ['chatgpt-4o-latest'] }),
  row(M.GPT_4O_MINI, ModelType.MULTIMODAL, [0.15, 0.6], 128_000, 16_384),
  row(M.GPT_4O_AUDIO_PREVIEW, ModelType.AUDIO, [2.5, 10], 128_000, 16_384, { note: 'text-token prices; audio tokens cost more' }),
  row(M.GPT_4O_MINI_AUDIO_PREVIEW, ModelType.AUDIO, [0.15, 0.6], 128_000, 16_384, { note: 'text-token prices; audio tokens cost more' }),
  row(M.GPT_3_5_TURBO, ModelType.CHAT, [0.5, 1.5], 16_385, 4_096),
  row(M.O3, ModelType.REASONING, [2, 8], 200_000, 100_000),
  row(M.O3_MINI, ModelType.REASONING, [1.1, 4.4], 200_000, 100_000),
  row(M.O4_MINI, ModelType.REASONING, [1.1, 4.4], 200_000, 100_000),
  row(M.O1_MINI, ModelType.REASONING, [1.1, 4.4], 128_000, 65_536),
  row(M.TEXT_EMBEDDING_3_SMALL, ModelType.EMBEDDING, [0.02, 0], 8_191, 0, { dimensions: 1536 }),
  row(M.TEXT_EMBEDDING_3_LARGE, ModelType.EMBEDDING, [0.13, 0], 8_191, 0, { dimensions: 3072 }),
  row(M.TEXT_EMBEDDING_ADA_002, ModelType.EMBEDDING, [0.1, 0], 8_191, 0, { dimensions: 1536 }),
];
