import type { AgentEvent, AgentEventOf } from '../events/types.js';
import type { RunSummaryFields, TraceStep } from './trace-step.js';
import type { RunTracker } from './run-tracker.js';
import type { StepWriter } from './step-writer.js';

/** node-start / parallel-start → a graph_node_start / graph_parallel_start step, kept open until its end event. */
export function recordSpanStart(writer: StepWriter, runs: RunTracker, event: Extract<AgentEvent, { type: 'node-start' | 'parallel-start' }>): void {
  const node = event.type === 'node-start';
  const step = writer.add(event, {
    parentId: enclosingSpan(runs, event)?.id,
    type: node ? 'graph_node_start' : 'graph_parallel_start',
    name: node ? event.node : event.nodes.join(', '),
    metadata: node ? { graph: event.graph, step: event.step } : { graph: event.graph, nodes: event.nodes },
  });
  runs.openSpans.set(runs.spanKey(event), step);
}

/**
 * The open span a new node or parallel group of the same run and graph runs inside: a member node
 * inside the open parallel group that lists it (so parallel branches hang side by side under their
 * group), a parallel group inside the group node that started it (the latest open node).
 */
function enclosingSpan(runs: RunTracker, event: Extract<AgentEvent, { type: 'node-start' | 'parallel-start' }>): TraceStep | undefined {
  let found: TraceStep | undefined;
  for (const [, step] of runs.spansOf(event.runId)) {
    if (step.metadata?.['graph'] !== event.graph) continue;
    const fits =
      event.type === 'node-start'
        ? step.type === 'graph_parallel_start' && Array.isArray(step.metadata['nodes']) && step.metadata['nodes'].includes(event.node)
        : step.type === 'graph_node_start' && step.metadata['kind'] === undefined;
    if (fits && (found === undefined || step.startedAt >= found.startedAt)) found = step;
  }
  return found;
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
    parentId: start?.parentId,
    type: node ? 'graph_node_end' : 'graph_parallel_end',
    name: node ? event.node : event.nodes.join(', '),
    output: node ? event.output : undefined,
    metadata: node
      ? { graph: event.graph, step: event.step, durationMs: event.durationMs }
      : { graph: event.graph, nodes: event.nodes, durationMs: event.durationMs },
  });
}

/**
 * A pipeline's step-start → a graph_node_start step (metadata `kind: 'pipeline-step'`, the pipeline
 * and the step's index), kept open until its step-end (docs/decisions/0024). A pipeline run's own
 * trace takes the pipeline's name as its agent name and its first step's start as its start.
 */
export function recordPipelineStepStart(writer: StepWriter, runs: RunTracker, event: AgentEventOf<'step-start'>, run: RunSummaryFields | undefined): void {
  if (run) {
    run.agentName ??= event.pipeline;
    run.startedAt ??= event.timestamp;
  }
  const step = writer.add(event, { type: 'graph_node_start', name: event.step, metadata: { kind: PIPELINE_STEP, pipeline: event.pipeline, index: event.index } });
  runs.openSpans.set(runs.stepKey(event), step);
}

/** A pipeline's step-end → the start step's duration, and a graph_node_end step with the output summary. */
export function recordPipelineStepEnd(writer: StepWriter, runs: RunTracker, event: AgentEventOf<'step-end'>, run: RunSummaryFields | undefined): void {
  const key = runs.stepKey(event);
  const start = runs.openSpans.get(key);
  runs.openSpans.delete(key);
  if (start) start.durationMs = event.durationMs;
  if (run) run.endedAt = Math.max(run.endedAt ?? 0, event.timestamp);
  writer.add(event, { type: 'graph_node_end', name: event.step, output: event.output, metadata: { kind: PIPELINE_STEP, pipeline: event.pipeline, index: event.index, durationMs: event.durationMs } });
}

/** `metadata.kind` of the graph_node_start / graph_node_end steps of pipeline steps. */
export const PIPELINE_STEP = 'pipeline-step';

/** Marks a run's open node / parallel steps as ending at `at` (incomplete). */
export function closeSpans(runs: RunTracker, runId: string, at: number): void {
  for (const [key, step] of runs.spansOf(runId)) {
    runs.openSpans.delete(key);
    step.durationMs = Math.max(0, at - step.startedAt);
    (step.metadata ??= {})['incomplete'] = true;
  }
}
