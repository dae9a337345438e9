export { DEFAULT_OPENAI_TIMEOUT_MS, OpenAIProvider, type OpenAIProviderOptions } from './provider.js';
export { isStrictCompatibleSchema, toStrictSchema, toChatParams, toMessageParam, toToolChoice, toToolParam, type ChatParams } from './convert-request.js';
export { fromCompletion, toFinishReason, toToolCall, toUsage } from './convert-response.js';
export { ChunkAssembler, chunksToParts, type ChunkSource } from './stream.js';
export { DEFAULT_EMBEDDING_MODEL, EMBED_BATCH_SIZE, EMBED_MAX_TOKENS_PER_REQUEST, decodeEmbedding, embedBatches, estimateEmbedTokens } from './embed.js';
export { isReasoningModel } from './model-family.js';
export { OpenAICompatibleProvider, type OpenAICompatibleOptions } from './openai-compatible.js';
export { AZURE_OPENAI_PROVIDER_NAME, AzureOpenAIProvider, type AzureOpenAIProviderOptions } from './azure.js';
export { AZURE_API_VERSION_VARIABLES, DEFAULT_AZURE_OPENAI_API_VERSION, resolveAzureApiVersion, type AzureApiVersion } from './azure-api-version.js';
