import type { AgentEvent } from '../events/types.js';
import type { RunTracker } from './run-tracker.js';
import type { StepWriter } from './step-writer.js';

/** node-start / parallel-start → a graph_node_start / graph_parallel_start step, kept open until its end event. */
export function recordSpanStart(writer: StepWriter, runs: RunTracker, event: Extract<AgentEvent, { type: 'node-start' | 'parallel-start' }>): void {
  const node = event.type === 'node-start';
  const step = writer.add(event, {
    type: node ? 'graph_node_start' : 'graph_parallel_start',
    name: node ? event.node : event.nodes.join(', '),
    metadata: node ? { graph: event.graph, step: event.step } : { graph: event.graph, nodes: event.nodes },
  });
  runs.openSpans.set(runs.spanKey(event), step);
}

/**
 * node-end / parallel-end → sets the matching start step's duration and adds an instant
 * graph_node_end / graph_parallel_end step (with the node output summary).
 */
export function recordSpanEnd(writer: StepWriter, runs: RunTracker, event: Extract<AgentEvent, { type: 'node-end' | 'parallel-end' }>): void {
  const key = runs.spanKey(event);
  const start = runs.openSpans.get(key);
  runs.openSpans.delete(key);
  if (start) start.durationMs = event.durationMs;
  const node = event.type === 'node-end';
  writer.add(event, {
    type: node ? 'graph_node_end' : 'graph_parallel_end',
    name: node ? event.node : event.nodes.join(', '),
    output: node ? event.output : undefined,
    metadata: node
      ? { graph: event.graph, step: event.step, durationMs: event.durationMs }
      : { graph: event.graph, nodes: event.nodes, durationMs: event.durationMs },
  });
}

/** Marks a run's open node / parallel steps as ending at `at` (incomplete). */
export function closeSpans(runs: RunTracker, runId: string, at: number): void {
  for (const [key, step] of runs.spansOf(runId)) {
    runs.openSpans.delete(key);
    step.durationMs = Math.max(0, at - step.startedAt);
    (step.metadata ??= {})['incomplete'] = true;
  }
}
