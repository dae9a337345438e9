export { AnthropicModels, ANTHROPIC_MODELS, type AnthropicModel } from './anthropic.js';
export { DEFAULT_MODELS, defaultModelFor } from './defaults.js';
export { GeminiModels, GEMINI_MODELS, type GeminiModel } from './gemini.js';
export { modelIdCandidates } from './model-id.js';
export { OllamaModels, OLLAMA_MODELS, type OllamaModel } from './ollama.js';
export { OpenAIModels, OPENAI_MODELS, type OpenAIModel } from './openai.js';
export { isModelPriced, priceEmbedding, priceUsage, type PricedTokens } from './pricing.js';
export { getModelInfo, listModels, registerModel, resetModelRegistry, unregisterModel, type ListModelsOptions } from './registry.js';
export { ModelType, type KnownModelProvider, type ModelInfo, type ModelProvider } from './types.js';
