import type { JsonSchema } from '../core/json.js';
import type { Message } from '../core/message.js';
import { Role } from '../core/role.js';
import { makeUsage, type UsageStats } from '../core/usage.js';
import type { Provider } from '../providers/spec.js';
import { stripThink } from '../agent/think-filter.js';
import { transcriptLine } from './summarizer.js';

/** Which model extracts entities, relationships or memories: its provider, model and reply length. */
export interface ExtractorOptions {
  provider: Provider;
  /** Default: the provider's default model. */
  model?: string;
  /** Cap of the reply, in tokens. Default 1,000. */
  maxTokens?: number;
}

/** Default length cap of an extraction reply, in tokens. */
export const DEFAULT_EXTRACTION_MAX_TOKENS = 1000;

/** The conversation text an extractor reads: one line per message (tool calls spelled out). */
export function transcript(messages: readonly Message[]): string {
  return messages.map(transcriptLine).join('\n');
}

/**
 * One structured LLM call: asks for JSON matching `schema` (as `responseFormat`, and in the
 * prompt for providers that ignore it) and returns the parsed reply. A reply that is not JSON
 * throws a SyntaxError (the caller reports it; nothing is changed).
 */
export async function structuredCall(
  options: ExtractorOptions,
  request: { name: string; system: string; user: string; schema: JsonSchema; signal?: AbortSignal },
): Promise<{ value: unknown; usage: UsageStats | undefined }> {
  const response = await options.provider.complete({
    model: options.model ?? options.provider.defaultModel,
    system: `${request.system}\nReply with JSON only, matching this JSON Schema: ${JSON.stringify(request.schema)}`,
    messages: [{ role: Role.USER, content: request.user }],
    temperature: 0,
    maxTokens: options.maxTokens ?? DEFAULT_EXTRACTION_MAX_TOKENS,
    responseFormat: { type: 'json_schema', name: request.name, schema: request.schema },
    ...(request.signal === undefined ? {} : { signal: request.signal }),
  });
  const text = stripThink(response.message.content).text.trim();
  // Some models wrap JSON in a fenced block even when asked not to.
  const fenced = /^```(?:json)?\s*([\s\S]*?)\s*```$/.exec(text);
  const value: unknown = JSON.parse(fenced?.[1] ?? text);
  return { value, usage: response.usage === undefined ? undefined : makeUsage(response.usage) };
}
