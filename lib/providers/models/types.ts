/** What kind of model an entry describes. */
export const ModelType = {
  /** Text chat (most also accept images). */
  CHAT: 'chat',
  /** Embedding models; priced per 1M input tokens (`promptPricePer1M`). */
  EMBEDDING: 'embedding',
  /** Audio-in / audio-out chat models; the prices are those of their text tokens. */
  AUDIO: 'audio',
  /** Natively multimodal models (text, image, audio and video input). */
  MULTIMODAL: 'multimodal',
  /** Reasoning ("thinking") models; hidden reasoning tokens are billed as completion tokens. */
  REASONING: 'reasoning',
} as const;

/** One of `chat`, `embedding`, `audio`, `multimodal`, `reasoning`. */
export type ModelType = (typeof ModelType)[keyof typeof ModelType];

/** Providers with built-in registry entries; `registerModel` accepts any other name too. */
export type KnownModelProvider = 'openai' | 'anthropic' | 'gemini' | 'ollama';

/** A provider name: a built-in one (autocompleted) or any custom string. */
export type ModelProvider = KnownModelProvider | (string & {});

/** What the registry knows about one model. Prices are USD per 1M tokens. */
export interface ModelInfo {
  /** Canonical model id as the provider's API spells it (`gpt-4o-mini`, `claude-haiku-4-5`). */
  id: string;
  provider: ModelProvider;
  type: ModelType;
  /** USD per 1M prompt (input) tokens; for embedding models, the price per 1M embedded tokens. */
  promptPricePer1M: number;
  /** USD per 1M completion (output) tokens; 0 for embedding models. */
  completionPricePer1M: number;
  /**
   * USD per 1M prompt tokens read from the provider's prompt cache (OpenAI "cached input",
   * Anthropic cache reads). Absent: cached tokens are priced as ordinary prompt tokens.
   */
  cachedPromptPricePer1M?: number;
  /**
   * USD per 1M prompt tokens written to the prompt cache (Anthropic's 5-minute cache writes).
   * Absent: written tokens are priced as ordinary prompt tokens.
   */
  cacheWritePricePer1M?: number;
  /** Maximum tokens of prompt + completion. */
  contextWindow: number;
  /** Maximum completion tokens per reply (0 for embedding models). */
  maxOutputTokens: number;
  /** Other ids that resolve to this entry (dated snapshots, `-latest` / `-0` aliases). */
  aliases?: readonly string[];
  /** Default vector size of an embedding model. */
  dimensions?: number;
  /** A short remark (price caveats, long-context tiers, unverified figures). */
  note?: string;
}
