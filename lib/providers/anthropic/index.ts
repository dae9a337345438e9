export { AnthropicProvider, DEFAULT_ANTHROPIC_TIMEOUT_MS, type AnthropicProviderOptions } from './provider.js';
export {
  DEFAULT_MAX_TOKENS,
  MIN_THINKING_BUDGET,
  toAnthropicMessages,
  toAnthropicParams,
  toAnthropicThinking,
  toAnthropicToolChoice,
  toAnthropicTools,
  type AnthropicParams,
  type AnthropicThinking,
} from './convert-request.js';
export { fromAnthropicMessage, mapStopReason, mapUsage, redactedPart, thinkingPart } from './convert-response.js';
export { convertStream } from './stream.js';
export { toProviderError as toAnthropicProviderError } from './errors.js';
