import { responseCacheHint, responseCacheKey, stableStringify, toolResultCacheKey } from '../agent/cache-key.js';
import type { CacheHint } from '../agent/types.js';
import type { Message } from '../core/message.js';
import type { ProviderRequest, ProviderToolSpec } from '../providers/spec.js';

/** What determines an LLM reply (a ProviderRequest without its signal and callbacks). */
export interface CacheKeyInput {
  model: string;
  system?: string;
  messages: readonly Message[];
  tools?: readonly ProviderToolSpec[];
  temperature?: number;
  maxTokens?: number;
  responseFormat?: ProviderRequest['responseFormat'];
  toolChoice?: ProviderRequest['toolChoice'];
}

function request(input: CacheKeyInput): ProviderRequest {
  return input as ProviderRequest;
}

/**
 * The cache keys the agent loop uses, for code that reads or fills a cache itself: a SHA-256 over
 * model, system prompt, messages, tools, temperature (plus max tokens, response format and tool
 * choice), stable across object key order; and the `tool_result:<name>:<sha256>` keys of cacheable tools.
 */
export const CacheKeyBuilder = Object.freeze({
  /** `llm:<sha256>`: the key the loop looks an LLM reply up by. */
  response(input: CacheKeyInput): string {
    return responseCacheKey(request(input));
  },
  /** The hint the loop passes with that key (scope and last user text, for a SemanticCache). */
  responseHint(input: CacheKeyInput): CacheHint {
    return responseCacheHint(request(input));
  },
  /** `tool_result:<name>:<sha256 of the params with sorted keys>`. */
  toolResult(toolName: string, params: Record<string, unknown>): string {
    return toolResultCacheKey(toolName, params);
  },
  /** The canonical JSON the keys hash: object keys sorted at every level. */
  stableStringify,
});
