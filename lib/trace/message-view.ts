import type { SerializedError } from '../events/serialized-error.js';
import type { ToolCall } from '../core/tool-call.js';
import { argsSummary, truncateSummary } from './summary.js';
import type { TraceMessage } from './trace-step.js';

/**
 * What a run's next LLM call is known to see, rebuilt from events (the events carry no message
 * list): the run's user message, then what followed the previous call — its reply and the results
 * of the tools it called.
 */
export interface MessageView {
  user: TraceMessage | undefined;
  since: TraceMessage[];
}

/** Messages kept of what followed the previous call (a round of many parallel tool calls keeps its first results). */
export const MAX_VIEW_MESSAGES = 32;

/** The run's user message (its input), cut to `maxChars`. */
export function userMessage(input: string, maxChars: number): TraceMessage {
  return { role: 'user', content: truncateSummary(input, maxChars) };
}

/** A reply: its text cut to `maxChars`, its tool calls with redacted arguments (compact JSON, cut to `maxChars` too). */
export function assistantMessage(content: string, toolCalls: readonly ToolCall[], maxChars: number): TraceMessage {
  const message: TraceMessage = { role: 'assistant', content: truncateSummary(content, maxChars) };
  if (toolCalls.length > 0) message.toolCalls = toolCalls.map((call) => ({ name: call.toolName, args: truncateSummary(argsSummary(call.parameters), maxChars) }));
  return message;
}

/** A tool's result (or its error) as the model gets it, cut to `maxChars`. */
export function toolMessage(toolName: string, result: { content: string } | { error: SerializedError }, maxChars: number): TraceMessage {
  if ('error' in result) return { role: 'tool', name: toolName, content: truncateSummary(`${result.error.name}: ${result.error.message}`, maxChars), isError: true };
  return { role: 'tool', name: toolName, content: truncateSummary(result.content, maxChars) };
}

/** Adds a message to what the next call sees (up to MAX_VIEW_MESSAGES). */
export function noteMessage(view: MessageView, message: TraceMessage): void {
  if (view.since.length < MAX_VIEW_MESSAGES) view.since.push(message);
}

/** The messages of a call: the user message, what followed the previous call, and the reply when there is one. */
export function callMessages(view: MessageView | undefined, reply?: TraceMessage): TraceMessage[] {
  const out: TraceMessage[] = [];
  if (view?.user !== undefined) out.push(view.user);
  if (view !== undefined) out.push(...view.since);
  if (reply !== undefined) out.push(reply);
  return out;
}
