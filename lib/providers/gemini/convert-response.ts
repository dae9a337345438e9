import { randomUUID } from 'node:crypto';
import type { Candidate, GenerateContentResponse, GenerateContentResponseUsageMetadata, Part } from '@google/genai';
import { assistantMessage } from '../../core/message.js';
import { decodeThoughtSignature, encodeThoughtSignature, type ToolCall } from '../../core/tool-call.js';
import type { FinishReason, ProviderResponse, ProviderUsage } from '../spec.js';

/** A fresh call id (the Gemini API returns none, or echoes the one we'd have to send). */
export function generateCallId(): string {
  return `call_${randomUUID().replace(/-/g, '').slice(0, 24)}`;
}

/** A functionCall part as a ToolCall: the API's id when it sent one, else a generated one; signature kept as base64. */
export function toToolCall(part: Part): ToolCall | undefined {
  const call = part.functionCall;
  if (!call) return undefined;
  const args = call.args;
  const toolCall: ToolCall = { id: call.id ?? generateCallId(), toolName: call.name ?? '', parameters: {} };
  if (args === undefined || args === null) toolCall.parameters = {};
  else if (typeof args === 'object' && !Array.isArray(args)) toolCall.parameters = args;
  else toolCall.argumentsError = `function call arguments are not a JSON object: ${JSON.stringify(args)}`;
  if (typeof part.thoughtSignature === 'string' && part.thoughtSignature !== '') {
    toolCall.thoughtSignature = encodeThoughtSignature(decodeThoughtSignature(part.thoughtSignature));
  }
  return toolCall;
}

const CONTENT_FILTER = new Set(['SAFETY', 'RECITATION', 'BLOCKLIST', 'PROHIBITED_CONTENT', 'SPII', 'IMAGE_SAFETY', 'IMAGE_PROHIBITED_CONTENT', 'IMAGE_RECITATION']);

/** Gemini's finishReason → agentlib's; STOP with function calls is `tool-calls`. */
export function mapFinishReason(reason: string | undefined, hasToolCalls: boolean): FinishReason {
  if (hasToolCalls && (reason === undefined || reason === 'STOP')) return 'tool-calls';
  if (reason === 'STOP') return 'stop';
  if (reason === 'MAX_TOKENS') return 'length';
  if (reason !== undefined && CONTENT_FILTER.has(reason)) return 'content-filter';
  if (reason === 'MALFORMED_FUNCTION_CALL' || reason === 'UNEXPECTED_TOOL_CALL') return 'error';
  return 'other';
}

/**
 * usageMetadata → ProviderUsage. Thought tokens are billed as output, so they count in
 * `completionTokens` and are also reported as `reasoningTokens`. No cost is set here (the agent
 * prices it from the registry); absent metadata gives zero counts.
 */
export function toUsage(metadata: GenerateContentResponseUsageMetadata | undefined): ProviderUsage {
  const prompt = metadata?.promptTokenCount ?? 0;
  const thoughts = metadata?.thoughtsTokenCount;
  const completion = (metadata?.candidatesTokenCount ?? 0) + (thoughts ?? 0);
  const usage: ProviderUsage = { promptTokens: prompt, completionTokens: completion };
  if (metadata?.totalTokenCount !== undefined) usage.totalTokens = metadata.totalTokenCount;
  if (thoughts !== undefined) usage.reasoningTokens = thoughts;
  if (metadata?.cachedContentTokenCount !== undefined) usage.cachedPromptTokens = metadata.cachedContentTokenCount;
  return usage;
}

/** What one candidate's parts hold: answer text, thought text and whole function calls. */
export interface CandidateParts {
  text: string;
  reasoning: string;
  toolCalls: ToolCall[];
}

/** Splits a candidate's parts (thought parts go to `reasoning`, never to the answer). */
export function readParts(candidate: Candidate | undefined): CandidateParts {
  const out: CandidateParts = { text: '', reasoning: '', toolCalls: [] };
  for (const part of candidate?.content?.parts ?? []) {
    const call = toToolCall(part);
    if (call) out.toolCalls.push(call);
    else if (typeof part.text === 'string') {
      if (part.thought === true) out.reasoning += part.text;
      else out.text += part.text;
    }
  }
  return out;
}

/** A non-streamed GenerateContentResponse as a ProviderResponse. */
export function toProviderResponse(response: GenerateContentResponse): ProviderResponse {
  const candidate = response.candidates?.[0];
  const { text, reasoning, toolCalls } = readParts(candidate);
  const blocked = !candidate && response.promptFeedback?.blockReason !== undefined;
  const result: ProviderResponse = {
    message: assistantMessage(text, toolCalls),
    usage: toUsage(response.usageMetadata),
    finishReason: blocked ? 'content-filter' : mapFinishReason(candidate?.finishReason, toolCalls.length > 0),
  };
  if (reasoning !== '') result.reasoning = reasoning;
  if (response.modelVersion !== undefined) result.model = response.modelVersion;
  if (response.responseId !== undefined) result.requestId = response.responseId;
  return result;
}
