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
  GPT_5_2: 'gpt-5.2',
  GPT_5_1: 'gpt-5.1',
  GPT_5: 'gpt-5',
  GPT_5_MINI: 'gpt-5-mini',
  GPT_5_NANO: 'gpt-5-nano',
  GPT_4_1: 'gpt-4.1',
  GPT_4_1_MINI: 'gpt-4.1-mini',
  GPT_4_1_NANO: 'gpt-4.1-nano',
  GPT_4O: 'gpt-4o',
  GPT_4O_2024_05_13: 'gpt-4o-2024-05-13',
  GPT_4O_MINI: 'gpt-4o-mini',
  GPT_4O_AUDIO_PREVIEW: 'gpt-4o-audio-preview',
  GPT_4O_MINI_AUDIO_PREVIEW: 'gpt-4o-mini-audio-preview',
  GPT_3_5_TURBO: 'gpt-3.5-turbo',
  O3_PRO: 'o3-pro',
  O3: 'o3',
  O3_MINI: 'o3-mini',
  O4_MINI: 'o4-mini',
  O1: 'o1',
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
 * OpenAI list prices (standard tier, USD per 1M tokens: [input, output, cached input]; batch
 * discounts are not modelled). lastVerified: 2026-11-21 against stored copies of OpenAI's pricing
 * page summaries. Added 2026-11-23: gpt-5.1 (its developers.openai.com model page: $1.25 / $0.125
 * cached / $10, 400k context, 128k output), gpt-5.2 ($1.75 / $0.175 / $14, from price-list copies
 * such as GitHub's Copilot model table), o1 ($15 / $7.50 / $60, OpenAI's pricing page as quoted on
 * community.openai.com), o3-pro ($20 / $80, no cached-input price) and the gpt-4o-2024-05-13
 * snapshot ($5 / $15, priced apart from gpt-4o). Cached input is 0.1× input for the GPT-5 family,
 * 0.25× for GPT-4.1, o3 and o4-mini, 0.5× for GPT-4o, o1 and o3-mini; models without a cached
 * price bill cached tokens at the input price. The GPT-5.4 / 5.5 context and output limits come
 * from third-party summaries (see `note`).
 */
export const OPENAI_MODELS: readonly ModelInfo[] = [
  row(M.GPT_5_5, ModelType.REASONING, [5, 30, 0.5], 1_000_000, 128_000, { note: 'limits from third-party summaries' }),
  row(M.GPT_5_4, ModelType.REASONING, [2.5, 15, 0.25], 1_000_000, 128_000, { note: 'limits from third-party summaries' }),
  row(M.GPT_5_4_MINI, ModelType.REASONING, [0.75, 4.5, 0.075], 1_000_000, 128_000, { note: 'limits from third-party summaries' }),
  row(M.GPT_5_4_NANO, ModelType.REASONING, [0.2, 1.25, 0.02], 1_000_000, 128_000, { note: 'limits from third-party summaries' }),
  row(M.GPT_5_2, ModelType.REASONING, [1.75, 14, 0.175], 400_000, 128_000),
  row(M.GPT_5_1, ModelType.REASONING, [1.25, 10, 0.125], 400_000, 128_000),
  row(M.GPT_5, ModelType.REASONING, [1.25, 10, 0.125], 400_000, 128_000),
  row(M.GPT_5_MINI, ModelType.REASONING, [0.25, 2, 0.025], 400_000, 128_000),
  row(M.GPT_5_NANO, ModelType.REASONING, [0.05, 0.4, 0.005], 400_000, 128_000),
  row(M.GPT_4_1, ModelType.CHAT, [2, 8, 0.5], 1_047_576, 32_768),
  row(M.GPT_4_1_MINI, ModelType.CHAT, [0.4, 1.6, 0.1], 1_047_576, 32_768),
  row(M.GPT_4_1_NANO, ModelType.CHAT, [0.1, 0.4, 0.025], 1_047_576, 32_768),
  row(M.GPT_4O, ModelType.MULTIMODAL, [2.5, 10, 1.25], 128_000, 16_384, { aliases: ['chatgpt-4o-latest'] }),
  row(M.GPT_4O_2024_05_13, ModelType.MULTIMODAL, [5, 15], 128_000, 4_096, { note: 'the first gpt-4o snapshot: its own prices, no cached-input discount' }),
  row(M.GPT_4O_MINI, ModelType.MULTIMODAL, [0.15, 0.6, 0.075], 128_000, 16_384),
  row(M.GPT_4O_AUDIO_PREVIEW, ModelType.AUDIO, [2.5, 10], 128_000, 16_384, { note: 'text-token prices; audio tokens cost more' }),
  row(M.GPT_4O_MINI_AUDIO_PREVIEW, ModelType.AUDIO, [0.15, 0.6], 128_000, 16_384, { note: 'text-token prices; audio tokens cost more' }),
  row(M.GPT_3_5_TURBO, ModelType.CHAT, [0.5, 1.5], 16_385, 4_096),
  row(M.O3_PRO, ModelType.REASONING, [20, 80], 200_000, 100_000),
  row(M.O3, ModelType.REASONING, [2, 8, 0.5], 200_000, 100_000),
  row(M.O3_MINI, ModelType.REASONING, [1.1, 4.4, 0.55], 200_000, 100_000),
  row(M.O4_MINI, ModelType.REASONING, [1.1, 4.4, 0.275], 200_000, 100_000),
  row(M.O1, ModelType.REASONING, [15, 60, 7.5], 200_000, 100_000),
  row(M.O1_MINI, ModelType.REASONING, [1.1, 4.4, 0.55], 128_000, 65_536),
  row(M.TEXT_EMBEDDING_3_SMALL, ModelType.EMBEDDING, [0.02, 0], 8_191, 0, { dimensions: 1536 }),
  row(M.TEXT_EMBEDDING_3_LARGE, ModelType.EMBEDDING, [0.13, 0], 8_191, 0, { dimensions: 3072 }),
  row(M.TEXT_EMBEDDING_ADA_002, ModelType.EMBEDDING, [0.1, 0], 8_191, 0, { dimensions: 1536 }),
];
