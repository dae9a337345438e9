import type { ChatCompletion } from 'openai/resources/chat/completions';
import type { CompletionUsage } from 'openai/resources/completions';
import { assistantMessage } from '../../core/message.js';
import type { ToolCall } from '../../core/tool-call.js';
import { providerTransportError } from '../provider-errors.js';
import type { FinishReason, ProviderResponse, ProviderUsage } from '../spec.js';

const QUOTE_LIMIT = 2000;

/**
 * A tool call from its raw argument text. Text that is not a JSON object sets `argumentsError`
 * (quoting the text) instead of becoming `{}`; an empty string is a call without arguments.
 */
export function toToolCall(id: string, toolName: string, rawArguments: string): ToolCall {
  const call: ToolCall = { id, toolName, parameters: {} };
  if (rawArguments.trim() === '') return call;
  let parsed: unknown;
  try {
    parsed = JSON.parse(rawArguments);
  } catch (error) {
    const quoted = rawArguments.length > QUOTE_LIMIT ? `${rawArguments.slice(0, QUOTE_LIMIT)}…` : rawArguments;
    call.argumentsError = `malformed JSON arguments for "${toolName}" (${(error as Error).message}): ${JSON.stringify(quoted)}`;
    return call;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    call.argumentsError = `arguments for "${toolName}" are not a JSON object: ${JSON.stringify(rawArguments)}`;
    return call;
  }
  call.parameters = parsed as Record<string, unknown>;
  return call;
}

/** Chat Completions `finish_reason` → agentlib's FinishReason. */
export function toFinishReason(reason: string | null | undefined): FinishReason {
  switch (reason) {
    case 'stop':
      return 'stop';
    case 'tool_calls':
    case 'function_call':
      return 'tool-calls';
    case 'length':
      return 'length';
    case 'content_filter':
      return 'content-filter';
    default:
      return 'other';
  }
}

/** The API's usage block as ProviderUsage (cached prompt and reasoning tokens when reported). */
export function toUsage(usage: CompletionUsage): ProviderUsage {
  const out: ProviderUsage = {
    promptTokens: usage.prompt_tokens ?? 0,
    completionTokens: usage.completion_tokens ?? 0,
    totalTokens: usage.total_tokens ?? (usage.prompt_tokens ?? 0) + (usage.completion_tokens ?? 0),
  };
  const cached = usage.prompt_tokens_details?.cached_tokens;
  if (typeof cached === 'number') out.cachedPromptTokens = cached;
  const reasoning = usage.completion_tokens_details?.reasoning_tokens;
  if (typeof reasoning === 'number') out.reasoningTokens = reasoning;
  return out;
}

/** Reasoning text some OpenAI-compatible servers add (`reasoning_content` or `reasoning`). */
export function reasoningOf(value: object): string | undefined {
  const record = value as { reasoning_content?: unknown; reasoning?: unknown };
  const text = record.reasoning_content ?? record.reasoning;
  return typeof text === 'string' && text !== '' ? text : undefined;
}

/** A whole Chat Completions reply as a ProviderResponse. */
export function fromCompletion(completion: ChatCompletion, provider: string, requestId?: string): ProviderResponse {
  const choice = completion.choices?.[0];
  if (!choice) throw providerTransportError(provider, 'stream', 'reply has no choices', { model: completion.model, retryable: true });
  const { message } = choice;
  const toolCalls: ToolCall[] = [];
  for (const call of message.tool_calls ?? []) {
    if (call.type === 'function') toolCalls.push(toToolCall(call.id, call.function.name, call.function.arguments ?? ''));
  }
  const refused = typeof message.refusal === 'string' && message.refusal !== '';
  const response: ProviderResponse = {
    message: assistantMessage(refused ? message.refusal : message.content, toolCalls),
    finishReason: refused ? 'refusal' : toFinishReason(choice.finish_reason),
  };
  // Compatible servers may send no usage block: leave it out (the agent estimates), never zeros.
  if (completion.usage) response.usage = toUsage(completion.usage);
  const reasoning = reasoningOf(message);
  if (reasoning) response.reasoning = reasoning;
  if (completion.model) response.model = completion.model;
  const id = requestId ?? (completion as { _request_id?: string | null })._request_id;
  if (id) response.requestId = id;
  return response;
}
