import { redactSecrets } from '../events/redact.js';
import type { SerializedError } from '../events/serialized-error.js';
import type { AgentEventOf } from '../events/types.js';
import type { RunTracker } from './run-tracker.js';
import type { StepWriter } from './step-writer.js';
import { assistantMessage, callMessages } from './message-view.js';
import { argsSummary, callInputSummary } from './summary.js';
import type { TraceUsage } from './trace-step.js';

/** The token counts of a UsageStats. */
export function traceUsage(usage: AgentEventOf<'usage'>['usage']): TraceUsage {
  const out: TraceUsage = { promptTokens: usage.promptTokens, completionTokens: usage.completionTokens, totalTokens: usage.totalTokens };
  if (usage.reasoningTokens !== undefined) out.reasoningTokens = usage.reasoningTokens;
  if (usage.cachedPromptTokens !== undefined) out.cachedPromptTokens = usage.cachedPromptTokens;
  return out;
}

/**
 * llm-end → an llm_call step (paired with its llm-start) with its message view (the run's user
 * message, what followed the previous call, the reply: see MessageView), plus a tool_selection
 * child when tools were called (their arguments redacted like a tool_execution's: see `argsSummary`).
 */
export function recordLlmEnd(writer: StepWriter, runs: RunTracker, event: AgentEventOf<'llm-end'>): void {
  const pending = runs.llm.get(event.runId);
  runs.llm.delete(event.runId);
  const metadata: Record<string, unknown> = { provider: event.provider, iteration: event.iteration, finishReason: event.finishReason };
  if (pending && pending.retries > 0) metadata['retries'] = pending.retries;
  if (pending && pending.fallbacks.length > 0) metadata['fallbacks'] = pending.fallbacks;
  const view = runs.viewOf(event.runId);
  const reply = assistantMessage(event.content, event.toolCalls, writer.maxChars);
  // A cached reply made no LLM call (its step is cache_hit); only its tool selection is recorded.
  const call = event.cached ? undefined : writer.add(event, {
    id: pending?.id,
    type: 'llm_call',
    name: event.model,
    startedAt: pending?.start.timestamp ?? event.timestamp - event.durationMs,
    durationMs: event.durationMs,
    input: pending ? callInputSummary(pending.start.messageCount, pending.start.toolCount) : undefined,
    messages: callMessages(view, reply),
    output: event.content,
    usage: traceUsage(event.usage),
    costUsd: event.usage.costUsd,
    metadata,
  });
  // The next call sees this reply and then the results of its tool calls.
  view.since = [reply];
  if (event.toolCalls.length === 0) return;
  const selection = writer.add(event, {
    type: 'tool_selection',
    parentId: call?.id,
    name: event.toolCalls.map((c) => c.toolName).join(', '),
    output: event.toolCalls.map((c) => `${c.toolName}(${argsSummary(c.parameters)})`).join('\n'),
    reasoning: event.reasoning,
    metadata: { toolCalls: event.toolCalls.map((c) => ({ id: c.id, toolName: c.toolName, args: redactSecrets(c.parameters) })) },
  });
  for (const c of event.toolCalls) runs.selections.set(runs.key(event.runId, c.id), selection);
}

/** Ends a run's open LLM call (no llm-end came) as an llm_call step with status error. */
export function closeLlm(writer: StepWriter, runs: RunTracker, runId: string, at: number, error: SerializedError): void {
  const pending = runs.llm.get(runId);
  if (pending === undefined) return;
  runs.llm.delete(runId);
  const { start } = pending;
  writer.add(start, {
    id: pending.id,
    type: 'llm_call',
    name: start.model,
    durationMs: Math.max(0, at - start.timestamp),
    input: callInputSummary(start.messageCount, start.toolCount),
    messages: callMessages(runs.views.get(runId)),
    status: 'error',
    error,
    metadata: { provider: start.provider, iteration: start.iteration, ...(pending.retries > 0 ? { retries: pending.retries } : {}) },
  });
}
