import type { ToolCall } from '../core/tool-call.js';
import type { ScriptedReply, ScriptedReplyObject } from './scripted-types.js';
import type { FinishReason, ProviderRequest, ProviderUsage } from './spec.js';

/** A scripted reply with its defaults filled in. */
export interface ResolvedReply {
  text: string;
  reasoning: string;
  toolCalls: ToolCall[];
  finishReason: FinishReason;
  source: ScriptedReplyObject;
}

/** Splits text into pieces of about `size` characters (the default stream chunking). */
export function splitChunks(text: string, size = 4): string[] {
  const chunks: string[] = [];
  for (let i = 0; i < text.length; i += size) chunks.push(text.slice(i, i + size));
  return chunks;
}

/** Fills in a reply's defaults; tool calls without an id get one from `nextId`. */
export function resolveReply(reply: ScriptedReply, nextId: () => string): ResolvedReply {
  const source: ScriptedReplyObject = typeof reply === 'string' ? { text: reply } : reply;
  const toolCalls = (source.toolCalls ?? []).map((call): ToolCall => ({ ...call, id: call.id ?? nextId() }));
  return {
    text: source.text ?? source.chunks?.join('') ?? '',
    reasoning: source.reasoning ?? '',
    toolCalls,
    finishReason: source.finishReason ?? (toolCalls.length > 0 ? 'tool-calls' : 'stop'),
    source,
  };
}

/** Characters of a request's text (system prompt, message contents, tool-call names). Cheap. */
function requestChars(request: ProviderRequest): number {
  let chars = request.system?.length ?? 0;
  for (const message of request.messages) {
    chars += message.content.length;
    for (const call of message.toolCalls ?? []) chars += call.toolName.length;
  }
  return chars;
}

/** The reply's usage: its own, else the provider default, else chars / 4 of request and reply. */
export function replyUsage(request: ProviderRequest, reply: ResolvedReply, fallback: ProviderUsage | undefined): ProviderUsage {
  const given = reply.source.usage ?? fallback;
  if (given) return { ...given };
  let replyChars = reply.text.length + reply.reasoning.length;
  for (const call of reply.toolCalls) replyChars += call.toolName.length + JSON.stringify(call.parameters).length;
  const promptTokens = Math.ceil(requestChars(request) / 4);
  const completionTokens = Math.ceil(replyChars / 4);
  return { promptTokens, completionTokens, totalTokens: promptTokens + completionTokens };
}

/** A copy of the request without its signal and notice callback, safe to keep. */
export function recordableRequest(request: ProviderRequest): ProviderRequest {
  const { signal: _signal, onNotice: _onNotice, ...rest } = request;
  try {
    return structuredClone(rest);
  } catch {
    return { ...rest, messages: request.messages.map((message) => ({ ...message })) };
  }
}
