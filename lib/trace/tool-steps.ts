import type { SerializedError } from '../events/serialized-error.js';
import type { AgentEvent } from '../events/types.js';
import type { RunTracker } from './run-tracker.js';
import type { StepWriter } from './step-writer.js';
import { noteMessage, toolMessage } from './message-view.js';
import { argsSummary } from './summary.js';

/**
 * tool-end / tool-error → a tool_execution step (arguments redacted), paired with its tool-start by
 * call id; the result (or error) joins the run's message view for its next LLM call.
 */
export function recordToolEnd(writer: StepWriter, runs: RunTracker, event: Extract<AgentEvent, { type: 'tool-end' | 'tool-error' }>): void {
  const key = runs.key(event.runId, event.callId);
  const pending = runs.tools.get(key);
  runs.tools.delete(key);
  const metadata: Record<string, unknown> = { callId: event.callId };
  if (event.type === 'tool-end') metadata['cached'] = event.cached;
  else metadata['kind'] = event.kind;
  if (pending && pending.chunks > 0) metadata['chunks'] = pending.chunks;
  writer.add(event, {
    id: pending?.id,
    type: 'tool_execution',
    parentId: runs.selections.get(key)?.id,
    name: event.toolName,
    startedAt: pending?.start.timestamp ?? event.timestamp - event.durationMs,
    durationMs: event.durationMs,
    input: argsSummary(event.args),
    output: event.type === 'tool-end' ? event.result : undefined,
    status: event.type === 'tool-end' ? 'ok' : 'error',
    error: event.type === 'tool-error' ? event.error : undefined,
    metadata,
  });
  noteMessage(runs.viewOf(event.runId), toolMessage(event.toolName, event.type === 'tool-end' ? { content: event.result } : { error: event.error }, writer.maxChars));
}

/** Ends a run's open tool calls (no end event came) as tool_execution steps with status error. */
export function closeTools(writer: StepWriter, runs: RunTracker, runId: string, at: number, error: SerializedError): void {
  for (const [key, pending] of runs.toolsOf(runId)) {
    runs.tools.delete(key);
    const { start } = pending;
    writer.add(start, {
      id: pending.id,
      type: 'tool_execution',
      parentId: runs.selections.get(key)?.id,
      name: start.toolName,
      durationMs: Math.max(0, at - start.timestamp),
      input: argsSummary(start.args),
      status: 'error',
      error,
      metadata: { callId: start.callId, incomplete: true },
    });
  }
}
