import { sanitizeForTerminal } from '../../lib/core/terminal-text.js';
import type { AgentEvent } from '../../lib/events/types.js';
import { runOutcome } from '../../lib/trace/run-outcome.js';
import type { TraceRow } from './chat-state.js';

const MAX_ROWS = 500;

/** Event text (model-chosen tool names, tool errors, agent and model names) made safe and one line for a row. */
function clean(text: string): string {
  return sanitizeForTerminal(text).replace(/\s+/g, ' ').trim();
}

/** A row whose label and detail are safe to draw. */
function safeRow<T extends Partial<TraceRow>>(row: T): T {
  const out = { ...row };
  if (out.label !== undefined) out.label = clean(out.label);
  if (out.detail !== undefined) out.detail = clean(out.detail);
  return out;
}

/**
 * The live trace pane's step tree of the current run, built from events only: the run, its
 * iterations, each LLM call and each tool call (nested runs indented under their parent).
 * `topRunId` is the turn's own run (its events are not indented even when the run has a parent
 * of its own); without it, events with a `parentRunId` are the nested ones.
 */
export function reduceTraceRows(rows: readonly TraceRow[], events: readonly AgentEvent[], topRunId?: string): TraceRow[] {
  if (events.length === 0) return rows as TraceRow[];
  const out = [...rows];
  const index = new Map(out.map((row, i) => [row.key, i]));
  // Labels and details hold event text (tool names, error messages): untrusted, never drawn raw.
  const upsert = (unsafe: TraceRow): void => {
    const row = safeRow(unsafe);
    const at = index.get(row.key);
    if (at === undefined) {
      index.set(row.key, out.length);
      out.push(row);
    } else out[at] = { ...(out[at] as TraceRow), ...row };
  };
  const patch = (key: string, fields: Partial<TraceRow>): void => {
    const at = index.get(key);
    if (at !== undefined) out[at] = { ...(out[at] as TraceRow), ...safeRow(fields) };
  };
  for (const event of events) {
    const nested = topRunId === undefined ? event.parentRunId !== undefined : event.runId !== topRunId;
    const nest = nested ? 1 : 0;
    const run = event.runId;
    switch (event.type) {
      case 'run-start':
        upsert({ key: `run:${run}`, depth: nest, label: `run ${event.agentName} (${event.provider}/${event.model})`, status: 'running' });
        break;
      case 'run-end': {
        const status = runOutcome(event.status);
        patch(`run:${run}`, { status, durationMs: event.durationMs, detail: event.status });
        // Steps still open when the run ended share its fate (a cancelled call is stopped, not done).
        for (const [key, at] of index) if (key.includes(run) && out[at]?.status === 'running') out[at] = { ...(out[at]), status };
        break;
      }
      case 'iteration-start':
        upsert({ key: `it:${run}:${event.iteration}`, depth: nest + 1, label: `iteration ${event.iteration}`, status: 'running' });
        break;
      case 'iteration-end':
        patch(`it:${run}:${event.iteration}`, { status: 'ok', detail: `${event.toolCalls} tool call${event.toolCalls === 1 ? '' : 's'}` });
        break;
      case 'llm-start':
        upsert({ key: `llm:${run}:${event.iteration}`, depth: nest + 2, label: `llm ${event.model}`, status: 'running', detail: `${event.messageCount} message${event.messageCount === 1 ? '' : 's'}` });
        break;
      case 'llm-end':
        patch(`llm:${run}:${event.iteration}`, {
          status: 'ok',
          durationMs: event.durationMs,
          detail: `${event.usage.totalTokens} tokens${event.toolCalls.length > 0 ? ` → ${event.toolCalls.map((c) => c.toolName).join(', ')}` : ''}`,
        });
        break;
      case 'approval-request':
        upsert({ key: `tool:${event.callId}`, depth: nest + 2, label: `tool ${event.toolName}`, status: 'running', detail: 'awaiting approval' });
        break;
      case 'approval-response':
        patch(`tool:${event.callId}`, event.approved ? { detail: 'approved' } : { status: 'error', detail: event.outcome });
        break;
      case 'tool-start':
        upsert({ key: `tool:${event.callId}`, depth: nest + 2, label: `tool ${event.toolName}`, status: 'running', detail: 'running' });
        break;
      case 'tool-end':
        patch(`tool:${event.callId}`, { status: 'ok', durationMs: event.durationMs, detail: event.cached ? 'cached' : 'ok' });
        break;
      case 'tool-error':
        upsert({ key: `tool:${event.callId}`, depth: nest + 2, label: `tool ${event.toolName}`, status: 'error', durationMs: event.durationMs, detail: `${event.kind}: ${event.error.message}` });
        break;
      case 'error':
        upsert({ key: `error:${run}:${event.timestamp}`, depth: nest + 1, label: `error (${event.stage})`, status: 'error', detail: event.error.message });
        break;
      case 'cancelled':
        upsert({ key: `cancelled:${run}`, depth: nest + 1, label: 'cancelled', status: 'stopped', detail: event.stage });
        break;
      default:
        break;
    }
  }
  return out.length > MAX_ROWS ? out.slice(-MAX_ROWS) : out;
}
