export { DEFAULT_OLLAMA_HOST, DEFAULT_OLLAMA_TIMEOUT_MS, normalizeOllamaHost, OllamaProvider, type OllamaProviderOptions } from './provider.js';
export { OLLAMA_EMBED_BATCH } from './embed.js';
export { toChatRequest } from './convert-request.js';
export { toFinishReason, toProviderResponse, toToolCall } from './convert-response.js';
