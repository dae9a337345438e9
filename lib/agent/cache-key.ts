import { createHash } from 'node:crypto';
import type { ProviderRequest } from '../providers/spec.js';

/** SHA-256 key over everything that determines a reply: model, system, messages, tools, sampling, format. */
export function responseCacheKey(request: ProviderRequest): string {
  const material = JSON.stringify([
    request.model,
    request.system ?? '',
    request.messages,
    request.tools ?? [],
    request.temperature ?? null,
    request.maxTokens ?? null,
    request.responseFormat ?? null,
    request.toolChoice ?? null,
  ]);
  return `llm:${createHash('sha256').update(material).digest('hex')}`;
}

/** The key of a cacheable tool's result: `tool_result:<name>:<sha256 of the params with sorted keys>`. */
export function toolResultCacheKey(toolName: string, params: Record<string, unknown>): string {
  const digest = createHash('sha256').update(stableStringify(params)).digest('hex');
  return `tool_result:${toolName}:${digest}`;
}

/** JSON with object keys sorted at every level, so equal arguments give equal keys. */
export function stableStringify(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableStringify).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${stableStringify((value as Record<string, unknown>)[key])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
