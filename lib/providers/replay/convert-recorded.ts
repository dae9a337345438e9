import { assistantMessage } from '../../core/message.js';
import type { ReasoningPart } from '../../core/reasoning-part.js';
import type { ToolCall } from '../../core/tool-call.js';
import type { FinishReason, ProviderResponse, ProviderUsage, StreamPart } from '../spec.js';

/**
 * A recorded stream served to a `complete` call: the parts assembled into one reply, as a live
 * `complete` would have returned it. Each `reasoning-part` (a signed thinking block, a redacted
 * block, a text-part signature) lands on `message.reasoningParts`, in stream order, unchanged.
 */
export function partsToResponse(parts: readonly StreamPart[]): ProviderResponse {
  let text = '';
  let reasoning = '';
  const toolCalls: ToolCall[] = [];
  const reasoningParts: ReasoningPart[] = [];
  let usage: ProviderUsage | undefined;
  let finishReason: FinishReason = 'stop';
  const extra: Partial<Pick<ProviderResponse, 'model' | 'requestId' | 'provider'>> = {};
  for (const part of parts) {
    switch (part.type) {
      case 'text-delta':
        text += part.text;
        break;
      case 'reasoning-delta':
        reasoning += part.text;
        break;
      case 'reasoning-part':
        reasoningParts.push(part.part);
        break;
      case 'tool-call':
        toolCalls.push(part.toolCall);
        break;
      case 'usage':
        usage = part.usage;
        break;
      case 'finish':
        finishReason = part.finishReason;
        if (part.model !== undefined) extra.model = part.model;
        if (part.requestId !== undefined) extra.requestId = part.requestId;
        if (part.provider !== undefined) extra.provider = part.provider;
        break;
    }
  }
  const response = { message: assistantMessage(text, toolCalls, reasoningParts), finishReason, ...extra } as ProviderResponse;
  if (usage !== undefined) response.usage = usage;
  if (reasoning !== '') response.reasoning = reasoning;
  return response;
}

/**
 * A recorded `complete` reply served to a `stream` call: the parts a stream of it would have —
 * the reasoning text, then each of `message.reasoningParts` as a `reasoning-part` (in order,
 * before the answer, as adapters yield a block once it is complete), the text, the tool calls,
 * usage and the finish.
 */
export function responseToParts(response: ProviderResponse): StreamPart[] {
  const parts: StreamPart[] = [];
  if (response.reasoning) parts.push({ type: 'reasoning-delta', text: response.reasoning });
  for (const part of response.message.reasoningParts ?? []) parts.push({ type: 'reasoning-part', part });
  if (response.message.content !== '') parts.push({ type: 'text-delta', text: response.message.content });
  for (const toolCall of response.message.toolCalls ?? []) parts.push({ type: 'tool-call', toolCall });
  if (response.usage !== undefined) parts.push({ type: 'usage', usage: response.usage });
  const finish: Extract<StreamPart, { type: 'finish' }> = { type: 'finish', finishReason: response.finishReason };
  if (response.model !== undefined) finish.model = response.model;
  if (response.requestId !== undefined) finish.requestId = response.requestId;
  if (response.provider !== undefined) finish.provider = response.provider;
  parts.push(finish);
  return parts;
}
