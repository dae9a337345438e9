import { randomUUID } from 'node:crypto';
import type { Candidate, GenerateContentResponse, GenerateContentResponseUsageMetadata, Part } from '@google/genai';
import { assistantMessage } from '../../core/message.js';
import type { ReasoningPart } from '../../core/reasoning-part.js';
import { decodeThoughtSignature, encodeThoughtSignature, type ToolCall } from '../../core/tool-call.js';
import { ProviderError } from '../../core/errors/provider-error.js';
import type { FinishReason, ProviderResponse, ProviderUsage } from '../spec.js';
import { GEMINI } from './errors.js';

/** The form of the ids the adapter makes up: `call_` and 24 hex digits. */
const GENERATED_ID = /^call_[0-9a-f]{24}$/;

/**
 * A fresh call id, for a functionCall the API sent without one (the Gemini API mostly does). It is
 * never sent back (see isGeneratedCallId): only ids the API chose go on the wire.
 */
export function generateCallId(): string {
  return `call_${randomUUID().replace(/-/g, '').slice(0, 24)}`;
}

/** Whether a call id was made up by this adapter (generateCallId) rather than sent by the API. */
export function isGeneratedCallId(id: string): boolean {
  return GENERATED_ID.test(id);
}

/**
 * A functionCall part as a ToolCall: the API's `id` when it sent one (kept as is, and echoed on the
 * functionCall and its functionResponse next turn), else a generated one; signature kept as base64.
 */
export function toToolCall(part: Part): ToolCall | undefined {
  const call = part.functionCall;
  if (!call) return undefined;
  const args = call.args;
  const toolCall: ToolCall = { id: typeof call.id === 'string' && call.id !== '' ? call.id : generateCallId(), toolName: call.name ?? '', parameters: {} };
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
 * prices it from the registry). Absent metadata (or metadata without any count) gives undefined:
 * unknown usage is left out, never reported as zero.
 */
export function toUsage(metadata: GenerateContentResponseUsageMetadata | undefined): ProviderUsage | undefined {
  if (!metadata) return undefined;
  const { promptTokenCount, candidatesTokenCount, thoughtsTokenCount: thoughts, totalTokenCount } = metadata;
  if (promptTokenCount === undefined && candidatesTokenCount === undefined && thoughts === undefined && totalTokenCount === undefined) return undefined;
  const prompt = promptTokenCount ?? 0;
  const completion = (candidatesTokenCount ?? 0) + (thoughts ?? 0);
  const usage: ProviderUsage = { promptTokens: prompt, completionTokens: completion };
  if (totalTokenCount !== undefined) usage.totalTokens = totalTokenCount;
  if (thoughts !== undefined) usage.reasoningTokens = thoughts;
  if (metadata.cachedContentTokenCount !== undefined) usage.cachedPromptTokens = metadata.cachedContentTokenCount;
  return usage;
}

/** What one candidate's parts hold: answer text, thought text, whole function calls and text-part signatures. */
export interface CandidateParts {
  text: string;
  reasoning: string;
  toolCalls: ToolCall[];
  /** `thoughtSignature`s of answer (non-thought, non-call) parts, as ReasoningParts, in order; undefined when none. */
  signatures?: ReasoningPart[];
}

/** Where a text-part signature sat: the signed part's own text and the answer text before it. */
export interface SignedTextPosition {
  /** The text of the part that carried the signature (`''` for a part with only the signature). */
  text: string;
  /** Characters of the reply's answer text that came before that part. */
  offset: number;
}

/**
 * A text-part thoughtSignature as a ReasoningPart (stored as base64 of the exact bytes, like call
 * signatures), with the position of its part when given, so the part goes back on its own.
 */
export function textSignaturePart(signature: string, position?: SignedTextPosition): ReasoningPart {
  const part: ReasoningPart = { type: 'signature', provider: GEMINI, signature: encodeThoughtSignature(decodeThoughtSignature(signature)) };
  if (position) {
    part.text = position.text;
    part.offset = position.offset;
  }
  return part;
}

/**
 * Splits a candidate's parts (thought parts go to `reasoning`, never to the answer). A
 * `thoughtSignature` on an answer part (text, or an empty part that carries only the signature)
 * is kept in `signatures`, with that part's text and its offset in the answer text (`offset` is
 * the answer text that came before this candidate: earlier chunks of a stream); signatures on
 * function calls stay on their ToolCall.
 */
export function readParts(candidate: Candidate | undefined, offset = 0): CandidateParts {
  const out: CandidateParts = { text: '', reasoning: '', toolCalls: [] };
  for (const part of candidate?.content?.parts ?? []) {
    const call = toToolCall(part);
    if (call) {
      out.toolCalls.push(call);
      continue;
    }
    if (part.thought === true) {
      if (typeof part.text === 'string') out.reasoning += part.text;
      continue;
    }
    const text = typeof part.text === 'string' ? part.text : '';
    if (typeof part.thoughtSignature === 'string' && part.thoughtSignature !== '') {
      (out.signatures ??= []).push(textSignaturePart(part.thoughtSignature, { text, offset: offset + out.text.length }));
    }
    out.text += text;
  }
  return out;
}

/** Names a MALFORMED_FUNCTION_CALL `finishMessage` mentions as called (`print(default_api.get_weather(city=))` → `get_weather`). */
function calledNames(finishMessage: string): string[] {
  return [...finishMessage.matchAll(/([A-Za-z_][\w-]*)\s*[({]/g)].map((m) => m[1] as string);
}

/**
 * The tool call of a reply that ended in `MALFORMED_FUNCTION_CALL` (the model tried to call a
 * function but its call could not be parsed; the reply has no parts). When the `finishMessage`
 * names one of the request's tools (any name but `print` when the tools are unknown), this is a
 * call of that tool with `argumentsError` quoting the message, so the agent feeds the error back
 * and the model can try again. Otherwise it throws a retryable ProviderError of kind
 * `malformed_function_call` (the agent retries the call). Note: `@google/genai` 1.52 drops
 * `finishMessage` from Gemini API responses, so through the SDK the retry is what happens.
 */
export function malformedFunctionCall(finishMessage: string | undefined, toolNames: readonly string[] | undefined, model: string | undefined): ToolCall {
  const message = finishMessage ?? '';
  const names = calledNames(message);
  const name = toolNames && toolNames.length > 0 ? names.find((n) => toolNames.includes(n)) : names.find((n) => n !== 'print');
  if (name === undefined) {
    const detail = message ? `: ${message}` : ' (the model produced a function call that could not be parsed)';
    throw new ProviderError(`${GEMINI} returned MALFORMED_FUNCTION_CALL${detail}`, {
      provider: GEMINI,
      kind: 'malformed_function_call',
      retryable: true,
      ...(model !== undefined ? { model } : {}),
    });
  }
  const quoted = message.length > 2000 ? `${message.slice(0, 2000)}…` : message;
  return {
    id: generateCallId(),
    toolName: name,
    parameters: {},
    argumentsError: `the function call could not be parsed (Gemini MALFORMED_FUNCTION_CALL): ${JSON.stringify(quoted)}`,
  };
}

/**
 * A non-streamed GenerateContentResponse as a ProviderResponse. `toolNames` (the request's tools)
 * identify the function of a MALFORMED_FUNCTION_CALL reply (see malformedFunctionCall).
 */
export function toProviderResponse(response: GenerateContentResponse, toolNames?: readonly string[], model?: string): ProviderResponse {
  const candidate = response.candidates?.[0];
  const { text, reasoning, toolCalls, signatures } = readParts(candidate);
  const blocked = !candidate && response.promptFeedback?.blockReason !== undefined;
  let finishReason: FinishReason = blocked ? 'content-filter' : mapFinishReason(candidate?.finishReason, toolCalls.length > 0);
  if (candidate && (candidate.finishReason as string | undefined) === 'MALFORMED_FUNCTION_CALL' && toolCalls.length === 0) {
    toolCalls.push(malformedFunctionCall(candidate.finishMessage, toolNames, response.modelVersion ?? model));
    finishReason = 'tool-calls';
  }
  const result: ProviderResponse = { message: assistantMessage(text, toolCalls, signatures), finishReason };
  const usage = toUsage(response.usageMetadata);
  if (usage) result.usage = usage;
  if (reasoning !== '') result.reasoning = reasoning;
  if (response.modelVersion !== undefined) result.model = response.modelVersion;
  if (response.responseId !== undefined) result.requestId = response.responseId;
  return result;
}
