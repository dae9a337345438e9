import { randomUUID } from 'node:crypto';
import { assistantMessage } from '../../core/message.js';
import type { ToolCall } from '../../core/tool-call.js';
import { providerTransportError } from '../provider-errors.js';
import type { FinishReason, ProviderResponse, ProviderUsage } from '../spec.js';
import { OLLAMA } from './errors.js';

/** One `/api/chat` object as it arrives (fields checked, never trusted). */
export interface WireChatChunk {
  model?: unknown;
  message?: { content?: unknown; thinking?: unknown; tool_calls?: unknown };
  done?: unknown;
  done_reason?: unknown;
  prompt_eval_count?: unknown;
  eval_count?: unknown;
}

interface WireToolCall {
  id?: unknown;
  function?: { name?: unknown; arguments?: unknown };
}

/** A fresh call id (Ollama's API does not send one, newer servers aside). */
export function generateCallId(): string {
  return `call_${randomUUID().replace(/-/g, '').slice(0, 24)}`;
}

function quote(text: string): string {
  return JSON.stringify(text.length > 500 ? `${text.slice(0, 500)}…` : text);
}

/** One wire tool call → a ToolCall; arguments that are not a JSON object become `argumentsError`. */
export function toToolCall(raw: unknown): ToolCall {
  const wire = (typeof raw === 'object' && raw !== null ? raw : {}) as WireToolCall;
  const id = typeof wire.id === 'string' && wire.id !== '' ? wire.id : generateCallId();
  const toolName = typeof wire.function?.name === 'string' ? wire.function.name : '';
  const args = wire.function?.arguments;
  const call: ToolCall = { id, toolName, parameters: {} };
  if (args === undefined || args === null) return call;
  if (typeof args === 'object' && !Array.isArray(args)) {
    call.parameters = args as Record<string, unknown>;
    return call;
  }
  if (typeof args === 'string') {
    if (args.trim() === '') return call;
    try {
      const parsed: unknown = JSON.parse(args);
      if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) {
        call.parameters = parsed as Record<string, unknown>;
        return call;
      }
    } catch {
      // reported below
    }
    call.argumentsError = `the arguments are not a JSON object: ${quote(args)}`;
    return call;
  }
  call.argumentsError = `the arguments are not a JSON object: ${quote(JSON.stringify(args))}`;
  return call;
}

/** The tool calls of one chunk. */
export function toolCallsOf(chunk: WireChatChunk): ToolCall[] {
  const raw = chunk.message?.tool_calls;
  return Array.isArray(raw) ? raw.map(toToolCall) : [];
}

/** `done_reason` → FinishReason (tool calls win over `stop`). */
export function toFinishReason(doneReason: unknown, hasToolCalls: boolean): FinishReason {
  if (hasToolCalls && (doneReason === undefined || doneReason === 'stop')) return 'tool-calls';
  if (doneReason === undefined || doneReason === null || doneReason === 'stop') return 'stop';
  if (doneReason === 'length') return 'length';
  return 'other';
}

function count(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : 0;
}

/** Usage from the final counters (missing → 0); Ollama runs locally and costs nothing. */
export function toUsage(chunk: WireChatChunk): ProviderUsage {
  const promptTokens = count(chunk.prompt_eval_count);
  const completionTokens = count(chunk.eval_count);
  return { promptTokens, completionTokens, totalTokens: promptTokens + completionTokens, costUsd: 0 };
}

/** Text of a string field, or ''. */
export function textOf(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/** A non-streamed `/api/chat` reply → ProviderResponse. */
export function toProviderResponse(raw: unknown, model: string): ProviderResponse {
  if (typeof raw !== 'object' || raw === null || typeof (raw as WireChatChunk).message !== 'object') {
    throw providerTransportError(OLLAMA, 'stream', 'Ollama sent a reply without a message', { model });
  }
  const chunk = raw as WireChatChunk;
  const toolCalls = toolCallsOf(chunk);
  const response: ProviderResponse = {
    message: assistantMessage(textOf(chunk.message?.content), toolCalls),
    usage: toUsage(chunk),
    finishReason: toFinishReason(chunk.done_reason, toolCalls.length > 0),
  };
  const reasoning = textOf(chunk.message?.thinking);
  if (reasoning !== '') response.reasoning = reasoning;
  if (typeof chunk.model === 'string') response.model = chunk.model;
  return response;
}
