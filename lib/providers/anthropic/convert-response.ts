import type { Message as AnthropicMessage, StopReason, Usage } from '@anthropic-ai/sdk/resources/messages/messages';
import { assistantMessage } from '../../core/message.js';
import type { ReasoningPart } from '../../core/reasoning-part.js';
import type { ToolCall } from '../../core/tool-call.js';
import { isModelPriced, priceUsage } from '../models/pricing.js';
import type { FinishReason, ProviderResponse, ProviderUsage } from '../spec.js';
import { ANTHROPIC } from './errors.js';

/** Anthropic `stop_reason` → agentlib finish reason. */
export function mapStopReason(reason: StopReason | null | undefined): FinishReason {
  switch (reason) {
    case 'end_turn':
    case 'stop_sequence':
      return 'stop';
    case 'tool_use':
      return 'tool-calls';
    case 'max_tokens':
    case 'model_context_window_exceeded':
      return 'length';
    case 'refusal':
      return 'refusal';
    default:
      return 'other';
  }
}

/** The token counts Anthropic reports (any of them may be missing or null on a delta). */
export type AnthropicUsageLike = Partial<Pick<Usage, 'input_tokens' | 'output_tokens' | 'cache_read_input_tokens' | 'cache_creation_input_tokens'>>;

/**
 * Anthropic usage → ProviderUsage. `promptTokens` counts every prompt token (uncached input,
 * cache writes and cache reads, as other providers report them); cache reads are also given as
 * `cachedPromptTokens` (the agent prices them at the model's cache-read price). Cache writes cost
 * more than input (1.25×) and ProviderUsage has no field for them, so when there are some and the
 * registry knows `model`, the cost is computed here (`costUsd`) from all three counts.
 */
export function mapUsage(usage: AnthropicUsageLike, model?: string): ProviderUsage {
  const input = usage.input_tokens ?? 0;
  const cacheRead = usage.cache_read_input_tokens ?? 0;
  const cacheWrite = usage.cache_creation_input_tokens ?? 0;
  const promptTokens = input + cacheRead + cacheWrite;
  const completionTokens = usage.output_tokens ?? 0;
  const out: ProviderUsage = { promptTokens, completionTokens, totalTokens: promptTokens + completionTokens };
  if (usage.cache_read_input_tokens != null) out.cachedPromptTokens = cacheRead;
  if (cacheWrite > 0 && model !== undefined && isModelPriced(model)) {
    out.costUsd = priceUsage(model, { promptTokens, completionTokens, cachedPromptTokens: cacheRead, cacheWritePromptTokens: cacheWrite });
  }
  return out;
}

/** Parses a tool_use input object (non-streamed inputs arrive already parsed). */
function toolCall(id: string, name: string, input: unknown): ToolCall {
  if (input && typeof input === 'object' && !Array.isArray(input)) return { id, toolName: name, parameters: input as Record<string, unknown> };
  return { id, toolName: name, parameters: {}, argumentsError: `tool input is not a JSON object: ${JSON.stringify(input)}` };
}

/**
 * A `thinking` block as a ReasoningPart: text and signature exactly as received (an empty signature
 * is left out). `index` is the block's position in the reply, given only for a block that came
 * after text or a tool_use block (interleaved thinking); leading blocks carry none.
 */
export function thinkingPart(thinking: string, signature: string | null | undefined, index?: number): ReasoningPart {
  const part: ReasoningPart = { type: 'thinking', provider: ANTHROPIC, text: thinking };
  if (signature) part.signature = signature;
  if (index !== undefined) part.index = index;
  return part;
}

/** A `redacted_thinking` block as a ReasoningPart (`data` exactly as received; `index` as for thinkingPart). */
export function redactedPart(data: string, index?: number): ReasoningPart {
  const part: ReasoningPart = { type: 'redacted', provider: ANTHROPIC, data };
  if (index !== undefined) part.index = index;
  return part;
}

/**
 * A whole Messages API reply → ProviderResponse. Thinking text is kept out of the answer (it is
 * `reasoning`); thinking and redacted_thinking blocks are kept, in order, as the message's
 * `reasoningParts` so the next request can send them back unchanged (a block after text or a
 * tool_use block with its position, so it goes back where it was).
 */
export function fromAnthropicMessage(message: AnthropicMessage, requestId?: string | null): ProviderResponse {
  const text: string[] = [];
  const reasoning: string[] = [];
  const calls: ToolCall[] = [];
  const parts: ReasoningPart[] = [];
  let answered = false;
  message.content.forEach((block, index) => {
    const at = answered ? index : undefined;
    if (block.type === 'text') {
      text.push(block.text);
      answered = true;
    } else if (block.type === 'thinking') {
      reasoning.push(block.thinking);
      parts.push(thinkingPart(block.thinking, block.signature, at));
    } else if (block.type === 'redacted_thinking') parts.push(redactedPart(block.data, at));
    else if (block.type === 'tool_use') {
      calls.push(toolCall(block.id, block.name, block.input));
      answered = true;
    }
  });
  const response: ProviderResponse = {
    message: assistantMessage(text.join(''), calls, parts),
    usage: mapUsage(message.usage, message.model),
    finishReason: mapStopReason(message.stop_reason),
    model: message.model,
  };
  if (reasoning.length > 0) response.reasoning = reasoning.join('');
  if (requestId) response.requestId = requestId;
  return response;
}
