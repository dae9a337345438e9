export { DEFAULT_FIRST_BYTE_TIMEOUT_MS, DEFAULT_IDLE_TIMEOUT_MS, type ProviderTimeoutOptions } from './call-timeouts.js';
export { CircuitBreaker } from './circuit-breaker.js';
export { createProvider, PROVIDER_TYPES, withProviderTimeouts, type ProviderConfig, type ProviderSpec, type ProviderType } from './create-provider.js';
export { embedWithRetry, type EmbedRetryOptions } from './embed-with-retry.js';
export { FallbackProvider, isFailoverError, type FallbackEntry, type FallbackOptions } from './fallback.js';
export * from './models/index.js';
export { httpFailureKind, isRetryableHttpFailure, providerHttpError, providerTransportError, providerUnknownError, retryAfterSeconds, transportFailureKind, type HttpFailure } from './provider-errors.js';
export { scrubProviderFailure } from './scrub-provider-failure.js';
export { DEFAULT_RETRY, isRetryableError, retryDeadlineError, retryDelayMs, withRetry, type AttemptContext, type ResolvedRetryOptions, type RetryHooks, type RetryOptions } from './retry.js';
export type {
  EmbedRequest,
  EmbedResponse,
  EmbedUsage,
  FinishReason,
  Provider,
  ProviderCapabilities,
  ProviderNotice,
  ProviderRequest,
  ProviderResponse,
  ProviderToolSpec,
  ProviderUsage,
  ResponseFormatSpec,
  StreamPart,
  ToolChoice,
} from './spec.js';
export { MAX_TOOL_CALL_BYTES, parseTextToolCalls } from './text-tool-calls.js';
