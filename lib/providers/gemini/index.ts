export { callSignal, type CallSignal } from './call-signal.js';
export { functionResponseBody, toGeminiContents, toGeminiRequest, toGeminiToolConfig, toGeminiTools } from './convert-request.js';
export { generateCallId, malformedFunctionCall, mapFinishReason, readParts, textSignaturePart, toProviderResponse, toToolCall, toUsage, type CandidateParts, type SignedTextPosition } from './convert-response.js';
export { embedTexts, GEMINI_EMBED_BATCH } from './embed.js';
export { apiErrorToProviderError, GEMINI, toGeminiError, type FailureContext, type FailurePhase } from './errors.js';
export { DEFAULT_GEMINI_TIMEOUT_MS, GEMINI_DEFAULT_EMBEDDING_MODEL, GeminiProvider, type GeminiProviderOptions } from './provider.js';
export { sanitizeGeminiSchema, sanitizeToolParameters } from './sanitize-schema.js';
export { toStreamParts } from './stream.js';
