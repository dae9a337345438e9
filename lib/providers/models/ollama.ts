import { defineModel } from './define.js';
import { ModelType, type ModelInfo } from './types.js';

/**
 * Common Ollama model names, for autocomplete: `OllamaModels.LLAMA_3_2 === 'llama3.2'`.
 * Tagged names (`llama3.2:3b`, `gemma3:1b`) resolve through `getModelInfo`.
 */
export const OllamaModels = {
  LLAMA_3_1: 'llama3.1',
  LLAMA_3_2: 'llama3.2',
  QWEN_2_5: 'qwen2.5',
  GEMMA_3: 'gemma3',
  GEMMA_4: 'gemma4',
  NOMIC_EMBED_TEXT: 'nomic-embed-text',
  ALL_MINILM: 'all-minilm',
  MXBAI_EMBED_LARGE: 'mxbai-embed-large',
} as const;

/** An Ollama model name with a registry entry. */
export type OllamaModel = (typeof OllamaModels)[keyof typeof OllamaModels];

const M = OllamaModels;
const row = defineModel.bind(undefined, 'ollama');
const FREE = [0, 0] as const;

/**
 * Local models served by Ollama: no per-token price. Context windows are those of the model
 * family (Ollama's own `num_ctx` default is smaller); output is bounded only by the context.
 * lastVerified: 2026-11-21.
 */
export const OLLAMA_MODELS: readonly ModelInfo[] = [
  row(M.LLAMA_3_1, ModelType.CHAT, FREE, 131_072, 131_072),
  row(M.LLAMA_3_2, ModelType.CHAT, FREE, 131_072, 131_072),
  row(M.QWEN_2_5, ModelType.CHAT, FREE, 32_768, 32_768),
  row(M.GEMMA_3, ModelType.MULTIMODAL, FREE, 131_072, 131_072, { note: 'the 1b size has a 32k context' }),
  row(M.GEMMA_4, ModelType.MULTIMODAL, FREE, 131_072, 131_072, { note: 'limits unverified' }),
  row(M.NOMIC_EMBED_TEXT, ModelType.EMBEDDING, FREE, 8_192, 0, { dimensions: 768 }),
  row(M.ALL_MINILM, ModelType.EMBEDDING, FREE, 512, 0, { dimensions: 384 }),
  row(M.MXBAI_EMBED_LARGE, ModelType.EMBEDDING, FREE, 512, 0, { dimensions: 1024 }),
];
