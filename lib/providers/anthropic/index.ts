export { AnthropicProvider, type AnthropicProviderOptions } from './provider.js';
export { DEFAULT_MAX_TOKENS, toAnthropicMessages, toAnthropicParams, toAnthropicToolChoice, toAnthropicTools, type AnthropicParams } from './convert-request.js';
export { fromAnthropicMessage, mapStopReason, mapUsage } from './convert-response.js';
export { convertStream } from './stream.js';
export { toProviderError as toAnthropicProviderError } from './errors.js';
