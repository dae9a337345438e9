import { CancellationError } from '../core/errors/cancellation-error.js';
import { GraphExecutionError } from '../core/errors/graph-execution-error.js';
import { generateId } from '../core/ids.js';
import type { Sleep } from '../core/sleep.js';
import type { EventBus } from '../events/bus.js';
import { serializeError } from '../events/serialized-error.js';
import type { AgentEvent, AgentEventPayloads, AgentEventType } from '../events/types.js';
import type { Checkpoint, CheckpointSource, CheckpointStore, NodeProgress, PendingTarget, RunSnapshot } from './checkpoint/types.js';
import { END, LAST_OUTPUT_KEY, MergePolicy } from './constants.js';
import { runMembers, runNode, type Execution, type NodeEnv } from './execute-node.js';
import type { GraphDefinition, NodeSpec } from './node-spec.js';
import { outputText } from './node-return.js';
import { usageFromJSON } from './outcome.js';
import { Send } from './send.js';
import { applyUpdate, initialState, StateHasher, type ReadonlyGraphState } from './state.js';
import type { GraphRunStatus, PendingInterrupt, RouterResult } from './types.js';

/** Limits of one run. */
export interface RunLimits {
  maxSteps: number;
  stallThreshold: number;
  maxTotalTokens: number | undefined;
  maxCostUsd: number | undefined;
}

/** Everything one graph run (or a subgraph's nested run) needs. */
export interface RunSetup {
  def: GraphDefinition;
  runId: string;
  threadId: string;
  parentRunId: string | undefined;
  /** On a subgraph's run: the subgraph node's name, set as `node` on its events. */
  tag: string | undefined;
  bus: EventBus;
  sink: ((event: AgentEvent) => void) | undefined;
  signal: AbortSignal;
  /** Written after every step (a caller's store); undefined: no step checkpoints. */
  stepStore: CheckpointStore | undefined;
  /** Where an interrupt checkpoint goes; undefined on nested runs (the parent checkpoints them). */
  interruptStore: CheckpointStore | undefined;
  /** The checkpoint this run continues from (the next one's parentId). */
  parentCheckpointId: string | null;
  responses: ReadonlyMap<string, unknown>;
  limits: RunLimits;
  sleep: Sleep;
}

/** How a run ended. */
export interface RunEnd {
  status: GraphRunStatus;
  snapshot: RunSnapshot;
  checkpointId: string | null;
}

/** A snapshot of a fresh run of `def` on `state`. */
export function freshSnapshot(def: GraphDefinition, state: RunSnapshot['state']): RunSnapshot {
  return {
    state,
    next: def.entry === undefined ? [] : [{ node: def.entry }],
    progress: null,
    interrupts: [],
    step: 0,
    usage: usageFromJSON({ promptTokens: 0, completionTokens: 0, totalTokens: 0, totalCostUsd: 0, embeddingTokens: 0, totalEmbeddingCostUsd: 0, llmCalls: 0, toolUsage: {}, toolTokens: {} }).toJSON(),
    nodeResults: {},
    seen: [],
    lastHash: null,
    stalls: 0,
  };
}

/** Builds and writes checkpoints of one run. */
export async function writeCheckpoint(setup: RunSetup, store: CheckpointStore, snapshot: RunSnapshot, source: CheckpointSource, node: string | null): Promise<Checkpoint> {
  const checkpoint: Checkpoint = {
    ...snapshot,
    id: generateId('ckpt'),
    threadId: setup.threadId,
    parentId: setup.parentCheckpointId,
    graph: setup.def.name,
    createdAt: new Date().toISOString(),
    source,
    status: snapshot.interrupts.length > 0 ? 'interrupted' : snapshot.next.length > 0 ? 'running' : 'completed',
    node,
  };
  await store.put(checkpoint);
  setup.parentCheckpointId = checkpoint.id;
  return checkpoint;
}

/**
 * Runs a graph from `snapshot` until it ends, is interrupted, runs out of budget or is cancelled:
 * node after node (a scatter's targets at once), applying each outcome to the state, checking for
 * hard loops and stalls, routing, and checkpointing after every step. Emits graph-start … graph-end.
 */
export async function executeGraph(setup: RunSetup, snapshot: RunSnapshot): Promise<RunEnd> {
  const { def, limits } = setup;
  const started = Date.now();
  const pendingObservers: Promise<void>[] = [];
  const emit = <T extends AgentEventType>(type: T, payload: AgentEventPayloads[T]): void | Promise<void> => {
    const event = { type, runId: setup.runId, timestamp: Date.now(), ...(setup.parentRunId === undefined ? {} : { parentRunId: setup.parentRunId }), ...(setup.tag === undefined ? {} : { node: setup.tag }), ...payload } as AgentEvent;
    setup.sink?.(event);
    return setup.bus.emit(event);
  };
  const nested = (event: AgentEvent, node: string): void => {
    const tagged: AgentEvent = { ...event, node };
    setup.sink?.(tagged);
    const p = setup.bus.emit(tagged);
    if (p) pendingObservers.push(p);
  };
  const flush = async (): Promise<void> => {
    if (pendingObservers.length > 0) await Promise.all(pendingObservers.splice(0));
  };

  const state = snapshot.state;
  let next: PendingTarget[] = snapshot.next;
  let progress: NodeProgress | null = snapshot.progress;
  let interrupts: PendingInterrupt[] = [];
  const seen = new Set(snapshot.seen);
  let stalls = snapshot.stalls;
  const hasher = new StateHasher();
  let lastHash = snapshot.lastHash ?? hasher.hash(state);
  let step = snapshot.step;
  const usage = usageFromJSON(snapshot.usage);
  const nodeResults = snapshot.nodeResults;
  let status: GraphRunStatus = 'completed';
  let checkpointId: string | null = null;
  let lastNode: string | null = null;
  const current = (): RunSnapshot => ({ state, next, progress, interrupts, step, usage: usage.toJSON(), nodeResults, seen: [...seen], lastHash, stalls });
  const checkpoint = async (store: CheckpointStore, source: CheckpointSource): Promise<void> => {
    const written = await writeCheckpoint(setup, store, current(), source, lastNode);
    checkpointId = written.id;
    const p = emit('graph-checkpoint', { graph: def.name, node: lastNode ?? '', checkpointId: written.id });
    if (p) await p;
  };

  const s = emit('graph-start', { graph: def.name, entry: next[0]?.node ?? END });
  if (s) await s;
  try {
    while (next.length > 0) {
      if (setup.signal.aborted) {
        status = 'cancelled';
        break;
      }
      if (step >= limits.maxSteps) {
        throw new GraphExecutionError(`graph "${def.name}" reached maxSteps (${limits.maxSteps}) before ending; raise maxSteps or check the routing for a cycle`, { node: next[0]?.node ?? END });
      }
      const env = nodeEnv(setup, step + 1, emit, nested);
      let execution: Execution;
      try {
        execution = await executeTargets(env, next, state, progress);
      } catch (error) {
        if (CancellationError.isInstance(error) || setup.signal.aborted) {
          status = 'cancelled';
          break;
        }
        throw error;
      }
      await flush();
      if (execution.kind === 'interrupted') {
        status = 'interrupted';
        progress = execution.progress;
        interrupts = execution.interrupts;
        if (setup.interruptStore) await checkpoint(setup.interruptStore, 'interrupt');
        for (const pending of interrupts) {
          const p = emit('graph-interrupt', { graph: def.name, node: pending.node, interruptId: pending.id, prompt: pending.prompt });
          if (p) await p;
        }
        break;
      }
      step++;
      progress = null;
      const outcome = execution.outcome;
      applyUpdate(state, outcome.update);
      for (const result of outcome.results) {
        state.history.push(result.node);
        (nodeResults[result.node] ??= []).push(result);
      }
      for (const error of outcome.errors) state.errors.push(error);
      usage.merge(outcome.usage);
      const nodeKey = next.map((t) => t.node).join('|');
      lastNode = nodeKey;

      // A hard loop: this node reached a state (messages included) it reached before.
      const hash = hasher.hash(state);
      const key = `${nodeKey}:${hash}`;
      if (seen.has(key)) {
        const p = emit('loop-detected', { graph: def.name, node: nodeKey, hash });
        if (p) await p;
        throw new GraphExecutionError(`hard loop in graph "${def.name}": node "${nodeKey}" reached the same state twice (hash ${hash})`, { node: nodeKey });
      }
      seen.add(key);
      // A stall: no state change for stallThreshold steps in a row (the run goes on).
      if (hash === lastHash) {
        stalls++;
        if (stalls % limits.stallThreshold === 0) {
          const p = emit('stall-detected', { graph: def.name, node: nodeKey, stalls });
          if (p) await p;
        }
      } else {
        stalls = 0;
      }
      lastHash = hash;

      next = await route(def, next, state, emit);
      const over = overBudget(limits, usage.totalTokens, usage.totalCostUsd);
      if (setup.stepStore) await checkpoint(setup.stepStore, 'step');
      if (over) {
        status = 'budget-exceeded';
        const p = emit('budget-exceeded', over);
        if (p) await p;
        break;
      }
    }
  } catch (error) {
    await flush().catch(() => undefined);
    const node = GraphExecutionError.isInstance(error) ? error.node : undefined;
    const e = emit('graph-error', { graph: def.name, ...(node === undefined ? {} : { node }), error: serializeError(error) });
    if (e) await e;
    const end = emit('graph-end', { graph: def.name, durationMs: Date.now() - started, steps: step, interrupted: false });
    if (end) await end;
    throw error;
  }
  const end = emit('graph-end', { graph: def.name, durationMs: Date.now() - started, steps: step, interrupted: status === 'interrupted' });
  if (end) await end;
  return { status, snapshot: current(), checkpointId };
}

function overBudget(limits: RunLimits, tokens: number, cost: number): AgentEventPayloads['budget-exceeded'] | undefined {
  if (limits.maxTotalTokens !== undefined && tokens >= limits.maxTotalTokens) return { kind: 'tokens', limit: limits.maxTotalTokens, actual: tokens };
  if (limits.maxCostUsd !== undefined && cost >= limits.maxCostUsd) return { kind: 'cost', limit: limits.maxCostUsd, actual: cost };
  return undefined;
}

/** One node, or a scatter's targets at once (merged as APPEND). */
async function executeTargets(env: NodeEnv, targets: readonly PendingTarget[], state: ReadonlyGraphState, progress: NodeProgress | null): Promise<Execution> {
  const def = env.def;
  if (targets.length === 1) {
    const target = targets[0] as PendingTarget;
    return runNode(env, nodeOf(def, target.node), state, target.payload, progress);
  }
  const names = targets.map((t) => t.node);
  const started = Date.now();
  const s = env.emit('parallel-start', { graph: def.name, nodes: names });
  if (s) await s;
  const execution = await runMembers(env, targets.map((t) => ({ spec: nodeOf(def, t.node), payload: t.payload })), MergePolicy.APPEND, state, progress, undefined);
  if (execution.kind === 'done') {
    const e = env.emit('parallel-end', { graph: def.name, nodes: names, durationMs: Date.now() - started });
    if (e) await e;
  }
  return execution;
}

function nodeOf(def: GraphDefinition, name: string): NodeSpec {
  const spec = def.nodes.get(name);
  if (!spec) throw new GraphExecutionError(`graph "${def.name}" has no node "${name}"`, { node: name });
  return spec;
}

function nodeEnv(setup: RunSetup, step: number, emit: NodeEnv['emit'], nested: NodeEnv['nested']): NodeEnv {
  return {
    def: setup.def,
    runId: setup.runId,
    threadId: setup.threadId,
    step,
    signal: setup.signal,
    responses: setup.responses,
    sleep: setup.sleep,
    emit,
    nested,
    runSubgraph: (spec, state, progress) => runSubgraph(setup, spec, state, progress, step),
  };
}

/**
 * A subgraph node: the child graph runs as a nested run (its events carry the parent's run id as
 * parentRunId and the node's name); `inputMap` (parent data key → child data key) picks the data it
 * starts with (default: a copy of the parent's), `outputMap` (child key → parent key) what comes
 * back. An interrupt inside it interrupts the parent; the child's whole run is in the progress.
 */
async function runSubgraph(setup: RunSetup, spec: Extract<NodeSpec, { kind: 'subgraph' }>, parent: ReadonlyGraphState, progress: NodeProgress | null, step: number): Promise<Execution> {
  const started = Date.now();
  const child = spec.graph.definition();
  let snapshot: RunSnapshot;
  if (progress?.kind === 'subgraph') {
    snapshot = progress.run;
  } else {
    const data: Record<string, unknown> = {};
    if (spec.inputMap) {
      for (const [from, to] of Object.entries(spec.inputMap)) if (from in parent.data) data[to] = parent.data[from];
    } else {
      Object.assign(data, parent.data);
    }
    snapshot = freshSnapshot(child, initialState([...parent.messages], data, { ...parent.metadata }));
  }
  const end = await executeGraph(
    {
      ...setup,
      def: child,
      runId: generateId('run'),
      parentRunId: setup.runId,
      tag: spec.name,
      stepStore: undefined,
      interruptStore: undefined,
      parentCheckpointId: null,
      limits: { ...setup.limits, maxSteps: child.options.maxSteps ?? setup.limits.maxSteps },
    },
    snapshot,
  );
  if (end.status === 'interrupted') {
    return { kind: 'interrupted', progress: { kind: 'subgraph', run: end.snapshot }, interrupts: end.snapshot.interrupts.map((i) => ({ ...i, path: [spec.name, ...i.path] })) };
  }
  if (end.status === 'cancelled') throw new CancellationError({ reason: setup.signal.reason });
  const childState = end.snapshot.state;
  const output = childState.data[LAST_OUTPUT_KEY];
  const data: Record<string, unknown> = {};
  if (spec.outputMap) for (const [from, to] of Object.entries(spec.outputMap)) if (from in childState.data) data[to] = childState.data[from];
  const usage = usageFromJSON(end.snapshot.usage);
  const added = childState.messages.slice(parent.messages.length);
  return {
    kind: 'done',
    outcome: {
      update: { ...(output === undefined ? {} : { output }), ...(Object.keys(data).length > 0 ? { data } : {}), ...(added.length > 0 ? { messages: added } : {}) },
      usage,
      errors: childState.errors.map((e) => ({ ...e, node: `${spec.name}/${e.node}` })),
      results: [{ node: spec.name, output: output ?? null, content: outputText(output), status: 'ok', usage: usage.toJSON(), durationMs: Date.now() - started, attempts: 1, step }],
    },
  };
}

/** The next targets after `from` (a scatter's sources must agree on them). */
async function route(def: GraphDefinition, from: readonly PendingTarget[], state: ReadonlyGraphState, emit: NodeEnv['emit'] | (<T extends AgentEventType>(type: T, payload: AgentEventPayloads[T]) => void | Promise<void>)): Promise<PendingTarget[]> {
  let result: PendingTarget[] | undefined;
  let first = '';
  for (const name of new Set(from.map((t) => t.node))) {
    const targets = await routeFrom(def, name, state);
    if (result === undefined) {
      result = targets;
      first = name;
      for (const target of targets.length > 0 ? targets : [{ node: END }]) {
        const p = (emit as (type: 'graph-routing', payload: AgentEventPayloads['graph-routing']) => void | Promise<void>)('graph-routing', { graph: def.name, from: name, to: target.node, conditional: def.routers.has(name) });
        if (p) await p;
      }
    } else if (!sameTargets(result, targets)) {
      throw new GraphExecutionError(`graph "${def.name}": the scatter targets "${first}" and "${name}" lead to different nodes; give every target of one scatter the same successor`, { node: name });
    }
  }
  return result ?? [];
}

async function routeFrom(def: GraphDefinition, name: string, state: ReadonlyGraphState): Promise<PendingTarget[]> {
  const router = def.routers.get(name);
  if (!router) {
    const edge = def.edges.get(name);
    return edge === undefined || edge === END ? [] : [{ node: edge }];
  }
  let raw: RouterResult;
  try {
    raw = await router.router(state);
  } catch (error) {
    throw new GraphExecutionError(`the router of node "${name}" failed: ${error instanceof Error ? error.message : String(error)}`, { node: name, cause: error });
  }
  const items = Array.isArray(raw) ? (raw as readonly (string | Send)[]) : [raw as string | Send];
  const targets: PendingTarget[] = [];
  for (const item of items) {
    const target: PendingTarget = Send.isInstance(item) ? (item.payload === undefined ? { node: item.node } : { node: item.node, payload: item.payload }) : { node: item };
    if (typeof target.node !== 'string') throw new GraphExecutionError(`the router of node "${name}" returned ${JSON.stringify(item)}: a router returns a node name, END, a list of them, or Send objects`, { node: name });
    if (target.node === END) {
      if (items.length > 1) throw new GraphExecutionError(`the router of node "${name}" returned END among other targets`, { node: name });
      return [];
    }
    if (!def.nodes.has(target.node)) throw new GraphExecutionError(`the router of node "${name}" returned "${target.node}", which is not a node of graph "${def.name}"`, { node: name });
    if (router.targets && !router.targets.includes(target.node)) throw new GraphExecutionError(`the router of node "${name}" returned "${target.node}", which is not among its declared targets (${router.targets.join(', ')})`, { node: name });
    targets.push(target);
  }
  return targets;
}

function sameTargets(a: readonly PendingTarget[], b: readonly PendingTarget[]): boolean {
  return a.length === b.length && a.every((t, i) => t.node === b[i]?.node && JSON.stringify(t.payload) === JSON.stringify(b[i]?.payload));
}
