import { runStreamed } from '../agent/agent.js';
import { failedRunResult } from '../agent/execute-run.js';
import { RunAborter } from '../agent/run-aborter.js';
import { CancellationError } from '../core/errors/cancellation-error.js';
import { GraphExecutionError } from '../core/errors/graph-execution-error.js';
import { generateId } from '../core/ids.js';
import { assistantMessage } from '../core/message.js';
import type { Sleep } from '../core/sleep.js';
import { AgentUsage } from '../core/usage.js';
import type { AgentEvent, AgentEventPayloads } from '../events/types.js';
import type { MemberProgress, NodeProgress } from './checkpoint/types.js';
import type { MergePolicy } from './constants.js';
import { ErrorPolicy, GRAPH_DEFAULTS } from './constants.js';
import { agentNodeInput } from './context-input.js';
import { InterruptRequest } from './interrupt.js';
import { mergeOutcomes } from './merge.js';
import type { GraphDefinition, LeafSpec, NodeSpec } from './node-spec.js';
import { outputText, toNodeUpdate } from './node-return.js';
import { outcomeFromJSON, outcomeToJSON, type NodeOutcome } from './outcome.js';
import type { NodeUpdate, ReadonlyGraphState } from './state.js';
import type { Agent } from '../agent/agent.js';
import type { AgentResult } from '../agent/result.js';
import type { AgentInput } from '../agent/types.js';
import type { NodeAgentRunOptions, NodeContext, NodeEventType, NodeReturn, PendingInterrupt } from './types.js';

/** The data key holding the answer to a node's `interruptBefore` question while it runs. */
export const HUMAN_INPUT_KEY = '__human_input__';

/** A node execution: finished, or waiting on interrupts. */
export type Execution =
  | { kind: 'done'; outcome: NodeOutcome }
  | { kind: 'interrupted'; progress: NodeProgress; interrupts: PendingInterrupt[] };

type GraphEventType = 'node-start' | 'node-end' | 'parallel-start' | 'parallel-end' | NodeEventType;

/** What node execution needs from the run. */
export interface NodeEnv {
  readonly def: GraphDefinition;
  readonly runId: string;
  readonly threadId: string;
  /** The step being executed (1-based). */
  readonly step: number;
  readonly signal: AbortSignal;
  /** Answers given to this resume, by interruptId. */
  readonly responses: ReadonlyMap<string, unknown>;
  readonly sleep: Sleep;
  /** Emits a graph event of this run. */
  emit<T extends GraphEventType>(type: T, payload: AgentEventPayloads[T]): void | Promise<void>;
  /** Hands on an event of a nested run (an agent node), tagged with the node's name. */
  nested(event: AgentEvent, node: string): void;
  /** Runs a subgraph node (run-graph.ts: it needs the runner). */
  runSubgraph(spec: Extract<NodeSpec, { kind: 'subgraph' }>, state: ReadonlyGraphState, progress: NodeProgress | null): Promise<Execution>;
}

/** A new interrupt id: `<threadId>:<nonce>` (resume finds the thread from it). */
export function newInterruptId(threadId: string): string {
  return `${threadId}:${generateId('int')}`;
}

/**
 * Runs one node (any kind), re-entering it from `progress` when it was interrupted: node-start,
 * the work, node-end. Errors follow the node's ErrorPolicy; an ABORT raises GraphExecutionError.
 */
export async function runNode(env: NodeEnv, spec: NodeSpec, state: ReadonlyGraphState, payload: unknown, progress: NodeProgress | null): Promise<Execution> {
  if (spec.options.interruptBefore !== undefined && spec.options.interruptBefore !== false) return runAfterApproval(env, spec, state, payload, progress);
  const started = Date.now();
  const p = env.emit('node-start', { graph: env.def.name, node: spec.name, step: env.step });
  if (p) await p;
  let execution: Execution;
  switch (spec.kind) {
    case 'parallel': {
      const names = spec.members.map((m) => m.name);
      const ps = env.emit('parallel-start', { graph: env.def.name, nodes: names });
      if (ps) await ps;
      execution = await runMembers(env, spec.members.map((m) => ({ spec: m, payload: undefined })), spec.merge, state, progress, spec.name);
      if (execution.kind === 'done') {
        const pe = env.emit('parallel-end', { graph: env.def.name, nodes: names, durationMs: Date.now() - started });
        if (pe) await pe;
      }
      break;
    }
    case 'subgraph':
      execution = await env.runSubgraph(spec, state, progress);
      break;
    default:
      execution = await runLeaf(env, spec, state, payload, progress);
  }
  if (execution.kind === 'done') {
    // A leaf that failed under ErrorPolicy SKIP says so (a group or subgraph reports its members' own).
    const skipped = spec.kind === 'parallel' || spec.kind === 'subgraph' ? undefined : execution.outcome.results.find((r) => r.node === spec.name && r.status === 'skipped')?.error;
    const e = env.emit('node-end', { graph: env.def.name, node: spec.name, step: env.step, durationMs: Date.now() - started, output: outputText(execution.outcome.update.output), ...(skipped === undefined ? {} : { skipped }) });
    if (e) await e;
  }
  return execution;
}

/** `interruptBefore`: ask first, then run the node with the answer in `data.__human_input__`. */
async function runAfterApproval(env: NodeEnv, spec: NodeSpec, state: ReadonlyGraphState, payload: unknown, progress: NodeProgress | null): Promise<Execution> {
  const before = progress?.kind === 'before' ? progress : null;
  let answer: unknown;
  if (before?.answered) {
    answer = before.answer;
  } else if (before?.waiting && env.responses.has(before.waiting.id)) {
    answer = env.responses.get(before.waiting.id);
  } else if (before?.waiting) {
    return { kind: 'interrupted', progress: before, interrupts: [before.waiting] };
  } else {
    const ask = spec.options.interruptBefore;
    const waiting: PendingInterrupt = { id: newInterruptId(env.threadId), node: spec.name, path: [spec.name], prompt: typeof ask === 'string' ? ask : `Run node "${spec.name}"?` };
    return { kind: 'interrupted', progress: { kind: 'before', waiting, answered: false, answer: null, inner: null }, interrupts: [waiting] };
  }
  const view: ReadonlyGraphState = { ...state, data: { ...state.data, [HUMAN_INPUT_KEY]: answer } };
  const inner = await runNode(env, { ...spec, options: { ...spec.options, interruptBefore: false } }, view, payload, before?.inner ?? null);
  if (inner.kind === 'done') return inner;
  return { kind: 'interrupted', progress: { kind: 'before', waiting: null, answered: true, answer: answer ?? null, inner: inner.progress }, interrupts: inner.interrupts };
}

/**
 * Runs several nodes at once on the same state (a parallel group's members, a scatter's targets),
 * each with its own payload, and merges their outcomes in declaration order. Members that finished
 * before another one interrupted keep their outcome in the progress and do not run again.
 */
export async function runMembers(
  env: NodeEnv,
  members: readonly { spec: NodeSpec; payload: unknown }[],
  merge: MergePolicy,
  state: ReadonlyGraphState,
  progress: NodeProgress | null,
  group: string | undefined,
): Promise<Execution> {
  const prior = progress?.kind === 'parallel' ? progress.members : {};
  const settled = await Promise.allSettled(
    members.map((member, i): Promise<Execution> => {
      const kept = prior[String(i)];
      if (kept?.done) return Promise.resolve({ kind: 'done', outcome: outcomeFromJSON(kept.outcome) });
      return runNode(env, member.spec, state, member.payload, kept ? kept.progress : null);
    }),
  );
  const failed = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
  if (failed) throw failed.reason;
  const executions = settled.map((s) => (s as PromiseFulfilledResult<Execution>).value);
  if (executions.every((e) => e.kind === 'done')) {
    return { kind: 'done', outcome: mergeOutcomes(executions.map((e) => (e).outcome), merge, state) };
  }
  const kept: Record<string, MemberProgress> = {};
  const interrupts: PendingInterrupt[] = [];
  executions.forEach((execution, i) => {
    if (execution.kind === 'done') {
      kept[String(i)] = { done: true, outcome: outcomeToJSON(execution.outcome) };
    } else {
      kept[String(i)] = { done: false, progress: execution.progress };
      for (const pending of execution.interrupts) interrupts.push(group === undefined ? pending : { ...pending, path: [group, ...pending.path] });
    }
  });
  return { kind: 'interrupted', progress: { kind: 'parallel', members: kept }, interrupts };
}

/** A leaf (agent, function, generator) with its error policy: retries with backoff, skip, or abort. */
async function runLeaf(env: NodeEnv, spec: LeafSpec, state: ReadonlyGraphState, payload: unknown, progress: NodeProgress | null): Promise<Execution> {
  const graphOptions = env.def.options;
  const policy = spec.options.errorPolicy ?? graphOptions.errorPolicy ?? ErrorPolicy.ABORT;
  const retry = { ...graphOptions.retry, ...spec.options.retry };
  const limit = retry.limit ?? GRAPH_DEFAULTS.retryLimit;
  const base = retry.baseDelayMs ?? GRAPH_DEFAULTS.retryBaseDelayMs;
  const cap = retry.maxDelayMs ?? GRAPH_DEFAULTS.retryMaxDelayMs;
  // What ctx.runAgent's nested runs spent, failed attempts included (their spend is real): a
  // retried, skipped or completed node reports it all.
  const nestedUsage = new AgentUsage();
  for (let attempt = 1; ; attempt++) {
    const started = Date.now();
    try {
      const ctx: NodeContext = {
        node: spec.name,
        graph: env.def.name,
        runId: env.runId,
        threadId: env.threadId,
        step: env.step,
        attempt,
        signal: env.signal,
        payload,
        runAgent: (agent, input, options) => runNestedAgent(env, spec.name, agent, input, options, nestedUsage),
        emit: async (type, nodePayload) => {
          const p = env.emit(type, nodePayload);
          if (p) await p;
        },
      };
      const attemptResult = await attemptLeaf(env, spec, state, ctx, progress, nestedUsage);
      if (attemptResult.kind === 'interrupted') return attemptResult;
      const { update } = attemptResult;
      const usage = attemptResult.usage;
      usage.merge(nestedUsage);
      return {
        kind: 'done',
        outcome: {
          update,
          usage,
          errors: [],
          results: [{ node: spec.name, output: update.output ?? null, content: outputText(update.output), status: 'ok', usage: usage.toJSON(), durationMs: Date.now() - started, attempts: attempt, step: env.step }],
        },
      };
    } catch (error) {
      if (env.signal.aborted) throw CancellationError.isInstance(error) ? error : new CancellationError({ reason: env.signal.reason, cause: error });
      if (policy === ErrorPolicy.RETRY && attempt <= limit) {
        await env.sleep(Math.min(cap, base * 2 ** (attempt - 1)), env.signal);
        continue;
      }
      const name = error instanceof Error ? error.name : 'Error';
      const message = error instanceof Error ? error.message : String(error);
      if (policy === ErrorPolicy.SKIP) {
        return {
          kind: 'done',
          outcome: {
            update: {},
            usage: nestedUsage,
            errors: [{ node: spec.name, name, message, step: env.step }],
            results: [{ node: spec.name, output: null, content: '', status: 'skipped', usage: nestedUsage.toJSON(), durationMs: Date.now() - started, attempts: attempt, step: env.step, error: { name, message } }],
          },
        };
      }
      const tried = attempt > 1 ? ` after ${attempt} attempts` : '';
      throw new GraphExecutionError(`node "${spec.name}" failed${tried}: ${message}`, { node: spec.name, cause: error });
    }
  }
}

type Attempt = { kind: 'done'; update: NodeUpdate; usage: AgentUsage } | Extract<Execution, { kind: 'interrupted' }>;

async function attemptLeaf(env: NodeEnv, spec: LeafSpec, state: ReadonlyGraphState, ctx: NodeContext, progress: NodeProgress | null, spent: AgentUsage): Promise<Attempt> {
  if (spec.kind === 'agent') return runAgentNode(env, spec, state, ctx, spent);
  const generatorProgress = progress?.kind === 'generator' ? progress : null;
  if (generatorProgress && !env.responses.has(generatorProgress.waiting.id)) {
    // Still waiting (another interrupt of the run was answered): do not enter the node.
    return { kind: 'interrupted', progress: generatorProgress, interrupts: [generatorProgress.waiting] };
  }
  const answers = generatorProgress ? [...generatorProgress.answers, env.responses.get(generatorProgress.waiting.id)] : [];
  const live = generatorProgress ? env.def.live.take(generatorProgress.waiting.id) : undefined;
  let gen: AsyncGenerator<InterruptRequest, NodeReturn, unknown>;
  let next: IteratorResult<InterruptRequest, NodeReturn>;
  let replayed: number;
  if (live) {
    // In this process the generator still waits at its yield: the answer goes straight in.
    gen = live;
    replayed = answers.length;
    next = await gen.next(answers[answers.length - 1]);
  } else {
    const returned = spec.fn(state, ctx);
    if (!isAsyncGenerator(returned)) {
      if (generatorProgress) throw new GraphExecutionError(`node "${spec.name}" was interrupted as a generator but is no longer one`, { node: spec.name });
      return { kind: 'done', update: toNodeUpdate(spec.name, await returned), usage: new AgentUsage() };
    }
    gen = returned;
    replayed = 0;
    next = await gen.next();
  }
  while (next.done !== true) {
    const request = next.value;
    if (!InterruptRequest.isInstance(request)) {
      await gen.return(undefined).catch(() => undefined);
      throw new GraphExecutionError(`node "${spec.name}" yielded ${describe(request)}: a node generator yields only InterruptRequest`, { node: spec.name });
    }
    if (replayed < answers.length) {
      // Another process: earlier answers are replayed at their yields.
      next = await gen.next(answers[replayed++]);
      continue;
    }
    const waiting: PendingInterrupt = { id: newInterruptId(env.threadId), node: spec.name, path: [spec.name], prompt: request.prompt, ...(request.payload === undefined ? {} : { payload: request.payload }) };
    env.def.live.keep(waiting.id, gen);
    return { kind: 'interrupted', progress: { kind: 'generator', answers, waiting }, interrupts: [waiting] };
  }
  return { kind: 'done', update: toNodeUpdate(spec.name, next.value), usage: new AgentUsage() };
}

/** An agent node's run; what a failed run spent (and its context summary) goes to `spent`, the node's usage across attempts. */
async function runAgentNode(env: NodeEnv, spec: Extract<LeafSpec, { kind: 'agent' }>, state: ReadonlyGraphState, ctx: NodeContext, spent: AgentUsage): Promise<Attempt> {
  const { input, usage: contextUsage } = await agentNodeInput(state, spec.options, ctx.payload, env.signal);
  const aborter = new RunAborter();
  let result: AgentResult;
  try {
    result = await runStreamed(spec.agent, input, { parentRunId: env.runId, signal: env.signal }, (event) => env.nested(event, spec.name), aborter, false);
  } catch (error) {
    const failed = failedRunResult(error);
    if (failed !== undefined) spent.merge(failed.usage);
    if (contextUsage) spent.merge(contextUsage);
    throw error;
  }
  if (result.status === 'cancelled') throw new CancellationError({ reason: env.signal.reason });
  if (result.status === 'error') {
    spent.merge(result.usage);
    if (contextUsage) spent.merge(contextUsage);
    const error = new Error(result.error?.message ?? 'the agent run failed');
    error.name = result.error?.name ?? 'Error';
    throw error;
  }
  const usage = result.usage.snapshot();
  if (contextUsage) usage.merge(contextUsage);
  const message = assistantMessage(result.content);
  message.name = spec.name;
  return { kind: 'done', update: { output: result.content, messages: [message] }, usage };
}

/** `ctx.runAgent`: a nested run of `agent` tagged with the node; its usage is added to `usage`. */
async function runNestedAgent(env: NodeEnv, node: string, agent: Agent, input: AgentInput, options: NodeAgentRunOptions | undefined, usage: AgentUsage): Promise<AgentResult> {
  const aborter = new RunAborter();
  let result: AgentResult;
  try {
    result = await runStreamed(agent, input, { ...options, parentRunId: env.runId, signal: env.signal }, (event) => env.nested(event, node), aborter, false);
  } catch (error) {
    // A failed nested run still spent what it spent before failing: it counts for the node.
    const failed = failedRunResult(error);
    if (failed !== undefined) usage.merge(failed.usage);
    throw error;
  }
  usage.merge(result.usage);
  if (result.status === 'cancelled') throw new CancellationError({ reason: env.signal.reason });
  return result;
}

function isAsyncGenerator(value: unknown): value is AsyncGenerator<InterruptRequest, NodeReturn, unknown> {
  return typeof value === 'object' && value !== null && typeof (value as { next?: unknown }).next === 'function' && Symbol.asyncIterator in value;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value === 'object') return `an object (${Object.keys(value).slice(0, 3).join(', ') || 'no keys'})`;
  return `a ${typeof value}`;
}
