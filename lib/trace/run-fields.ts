import type { AgentEvent } from '../events/types.js';
import { truncateSummary } from './summary.js';
import type { RunSummaryFields } from './trace-step.js';

/** The run fields run-start / run-end / graph-start / graph-end fill (on the trace or a nested run). */
export type RunFieldTarget = RunSummaryFields;

type RunEvent = Extract<AgentEvent, { type: 'run-start' | 'run-end' | 'graph-start' | 'graph-end' }>;

/**
 * Copies what a run boundary event says about the run onto `target`: name, provider, model and start
 * from run-start (graph-start: name = graph, when unset); end, status and (when `withText`) input /
 * output summaries from the end events. A missed start is derived from the end event's duration.
 */
export function applyRunFields(target: RunFieldTarget, event: RunEvent, withText: boolean, maxChars: number): void {
  if (event.type === 'run-start' || event.type === 'graph-start') {
    target.startedAt ??= event.timestamp;
    if (event.type === 'graph-start') {
      target.agentName ??= event.graph;
      return;
    }
    target.agentName = event.agentName;
    target.provider = event.provider;
    target.model = event.model;
    if (withText) target.input = truncateSummary(event.input, maxChars);
    return;
  }
  target.endedAt = event.timestamp;
  target.startedAt ??= event.timestamp - event.durationMs;
  if (event.type === 'run-end') {
    target.status = event.status;
    if (withText) target.output = truncateSummary(event.content, maxChars);
  } else {
    target.status ??= event.interrupted ? 'interrupted' : 'completed';
  }
}
