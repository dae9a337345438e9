import { generateId } from '../core/ids.js';
import { sleep as realSleep } from '../core/sleep.js';
import { EventBus } from '../events/bus.js';
import type { AgentEvent } from '../events/types.js';
import type { Checkpoint, CheckpointStore, RunSnapshot } from './checkpoint/types.js';
import { GRAPH_DEFAULTS, LAST_OUTPUT_KEY } from './constants.js';
import type { GraphDefinition } from './node-spec.js';
import { outputText } from './node-return.js';
import { usageFromJSON } from './outcome.js';
import { executeGraph, type RunSetup } from './run-graph.js';
import type { AgentGraphOptions, GraphResult, GraphRunOptions } from './types.js';

/** What {@link runSetup} needs to prepare one run (a start, a resume, a continuation or a fork). */
export interface RunSetupRequest {
  def: GraphDefinition;
  graphOptions: AgentGraphOptions;
  options: GraphRunOptions;
  threadId: string;
  sink: ((event: AgentEvent) => void) | undefined;
  signal: AbortSignal;
  parentCheckpointId: string | null;
  /** Answers to interrupts, by interrupt id. */
  responses: ReadonlyMap<string, unknown>;
  /** Where interrupts are kept (the step store, or the graph's in-memory one). */
  interruptStore: CheckpointStore;
  /** The run id (default: a new one). */
  runId?: string;
}

/** @internal One run's setup: its ids, event bus, stores and limits (run options over graph options over defaults). */
export function runSetup(request: RunSetupRequest): RunSetup {
  const { options, graphOptions: g } = request;
  return {
    def: request.def,
    runId: request.runId ?? generateId('run'),
    threadId: request.threadId,
    parentRunId: options.parentRunId,
    tag: undefined,
    bus: new EventBus({ observers: [...(g.observers ?? []), ...(options.observers ?? [])] }),
    sink: request.sink,
    signal: request.signal,
    stepStore: options.checkpointStore ?? g.checkpointStore,
    interruptStore: request.interruptStore,
    parentCheckpointId: request.parentCheckpointId,
    responses: request.responses,
    limits: {
      maxSteps: options.maxSteps ?? g.maxSteps ?? GRAPH_DEFAULTS.maxSteps,
      stallThreshold: g.stallThreshold ?? GRAPH_DEFAULTS.stallThreshold,
      maxTotalTokens: options.maxTotalTokens ?? g.maxTotalTokens,
      maxCostUsd: options.maxCostUsd ?? g.maxCostUsd,
    },
    sleep: g.sleep ?? realSleep,
  };
}

/** @internal Runs the graph from `snapshot` and shapes its GraphResult. */
export async function runToResult(setup: RunSetup, snapshot: RunSnapshot): Promise<GraphResult> {
  const started = Date.now();
  const end = await executeGraph(setup, snapshot);
  const s = end.snapshot;
  return {
    runId: setup.runId,
    threadId: setup.threadId,
    status: end.status,
    content: outputText(s.state.data[LAST_OUTPUT_KEY]),
    state: s.state,
    interrupted: end.status === 'interrupted',
    interruptId: s.interrupts[0]?.id,
    interrupts: s.interrupts,
    totalUsage: usageFromJSON(s.usage),
    nodeResults: s.nodeResults,
    steps: s.step,
    checkpointId: end.checkpointId ?? setup.parentCheckpointId ?? undefined,
    durationMs: Date.now() - started,
  };
}

/**
 * @internal A fork of `source`: its state with `update` merged (data and metadata key by key;
 * messages replaced); an interrupted node is entered afresh (it asks again, with a new interruptId).
 */
export function forkSnapshot(source: Checkpoint, update: GraphRunOptions['stateUpdate']): RunSnapshot {
  const state = { ...source.state, data: { ...source.state.data, ...update?.data }, metadata: { ...source.state.metadata, ...update?.metadata }, messages: update?.messages ? [...update.messages] : source.state.messages };
  return { state, next: source.next, progress: null, interrupts: [], step: source.step, usage: source.usage, nodeResults: source.nodeResults, seen: source.seen, lastHash: null, stalls: 0 };
}
