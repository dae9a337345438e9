import { AnthropicModels } from './anthropic.js';
import { GeminiModels } from './gemini.js';
import { OllamaModels } from './ollama.js';
import { OpenAIModels } from './openai.js';
import type { KnownModelProvider } from './types.js';

/** Each provider's own default model (one provider's id is never sent to another). */
export const DEFAULT_MODELS: Readonly<Record<KnownModelProvider, string>> = Object.freeze({
  openai: OpenAIModels.GPT_4O_MINI,
  anthropic: AnthropicModels.CLAUDE_HAIKU_4_5,
  gemini: GeminiModels.GEMINI_2_5_FLASH,
  ollama: OllamaModels.LLAMA_3_2,
});

/** The default model of a built-in provider (`google` is accepted for `gemini`). */
export function defaultModelFor(provider: KnownModelProvider | 'google'): string;
/** The default model of a provider, or undefined for a provider without one. */
export function defaultModelFor(provider: string): string | undefined;
export function defaultModelFor(provider: string): string | undefined {
  const key = provider.toLowerCase() === 'google' ? 'gemini' : provider.toLowerCase();
  return Object.hasOwn(DEFAULT_MODELS, key) ? DEFAULT_MODELS[key as KnownModelProvider] : undefined;
}
