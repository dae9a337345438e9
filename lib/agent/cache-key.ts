import { createHash } from 'node:crypto';
import type { Message } from '../core/message.js';
import { Role } from '../core/role.js';
import type { ProviderRequest } from '../providers/spec.js';
import type { CacheHint } from './types.js';

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** Everything of a request that determines a reply, except the messages: model, system, tools, sampling, format. */
function requestSettings(request: ProviderRequest): unknown[] {
  return [
    request.model,
    request.system ?? '',
    request.tools ?? [],
    request.temperature ?? null,
    request.maxTokens ?? null,
    request.responseFormat ?? null,
    request.toolChoice ?? null,
  ];
}

/**
 * SHA-256 key over everything that determines a reply: model, system, messages, tools, sampling,
 * format. Object keys are sorted at every level, so two requests that differ only in the order of
 * keys (a tool schema's properties, a call's arguments) share one key.
 */
export function responseCacheKey(request: ProviderRequest): string {
  return `llm:${sha256(stableStringify([...requestSettings(request), request.messages]))}`;
}

/**
 * The hint a semantic cache needs for a response lookup: the scope (everything but the last
 * message) and, when the last message is the user's, its text. A request that ends in a tool
 * result or an assistant turn has no `text`: only an exact hit can serve it.
 */
export function responseCacheHint(request: ProviderRequest): CacheHint {
  const last: Message | undefined = request.messages[request.messages.length - 1];
  let scope: string | undefined;
  const hint: CacheHint = {
    kind: 'response',
    // Hashed on first read: only a semantic cache reads it, and every LLM call of an agent with a cache builds a hint.
    get scope(): string {
      return (scope ??= sha256(stableStringify([...requestSettings(request), request.messages.slice(0, -1)])));
    },
  };
  if (last?.role === Role.USER && last.images === undefined && last.content.trim() !== '') hint.text = last.content;
  return hint;
}

/** The key of a cacheable tool's result: `tool_result:<name>:<sha256 of the params with sorted keys>`. */
export function toolResultCacheKey(toolName: string, params: Record<string, unknown>): string {
  return `tool_result:${toolName}:${sha256(stableStringify(params))}`;
}

/** JSON with object keys sorted at every level (undefined members left out), so equal values give equal text. */
export function stableStringify(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableStringify).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    const entries = Object.keys(value)
      .filter((key) => record[key] !== undefined)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${stableStringify(record[key])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
