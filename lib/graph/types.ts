import type { CancellationToken } from '../core/cancellation-token.js';
import type { Message } from '../core/message.js';
import type { Sleep } from '../core/sleep.js';
import type { AgentUsage } from '../core/usage.js';
import type { Agent } from '../agent/agent.js';
import type { AgentResult } from '../agent/result.js';
import type { AgentInput, ResponseFormat } from '../agent/types.js';
import type { AgentEventPayloads } from '../events/types.js';
import type { AgentObserver } from '../events/observer.js';
import type { Provider } from '../providers/spec.js';
import type { CheckpointStore } from './checkpoint/types.js';
import type { ContextMode, ErrorPolicy } from './constants.js';
import type { InterruptRequest } from './interrupt.js';
import type { Send } from './send.js';
import type { GraphState, NodeUpdate, ReadonlyGraphState } from './state.js';
import type { NodeResult, PendingInterrupt } from './records.js';

export type { NodeResult, PendingInterrupt } from './records.js';

/** What a node function gets besides the state. */
export interface NodeContext {
  /** The node's name (a parallel member's own name). */
  readonly node: string;
  /** The graph's name. */
  readonly graph: string;
  /** The graph run's id (nested agent runs have it as parentRunId). */
  readonly runId: string;
  /** The checkpoint thread. */
  readonly threadId: string;
  /** The graph step (1-based). */
  readonly step: number;
  /** 1 on the first attempt, 2 on the first retry, … */
  readonly attempt: number;
  /** Aborts when the run is cancelled (the caller's signal or CancellationToken). */
  readonly signal: AbortSignal;
  /** A scatter target's payload (see Send). */
  readonly payload: unknown;
  /**
   * Runs `agent` on `input` as a nested run of this node, without touching its conversation: its
   * events carry the graph run's id as `parentRunId` and this node's name (observers, streams and
   * traces see them under the node), the run's signal cancels it, and its usage counts as the
   * node's. A failed run throws (the node's ErrorPolicy applies).
   */
  runAgent(agent: Agent, input: AgentInput, options?: NodeAgentRunOptions): Promise<AgentResult>;
  /** Emits an event a node may raise itself (`supervisor-replan`) on the graph run. */
  emit<T extends NodeEventType>(type: T, payload: AgentEventPayloads[T]): Promise<void>;
}

/** The events a node may emit through `ctx.emit`. */
export type NodeEventType = 'supervisor-replan';

/** Options of `ctx.runAgent`. */
export interface NodeAgentRunOptions {
  /** Structured output for this run (`result.parsed`). */
  responseFormat?: ResponseFormat;
  /** Overrides the agent's maxIterations. */
  maxIterations?: number;
}

/** What a function node may return: a NodeUpdate, or a plain value that is its output. */
export type NodeReturn = NodeUpdate | string | number | boolean | null | undefined | void | readonly unknown[];

/** A function node. */
export type NodeFunction = (state: ReadonlyGraphState, ctx: NodeContext) => NodeReturn | Promise<NodeReturn>;

/**
 * What a generator node returns: annotate an inline `async function*` with it
 * (`async function* (state): Interruptible { const answer = yield interrupt('OK?'); … }`).
 */
export type Interruptible = AsyncGenerator<InterruptRequest, NodeReturn, unknown>;

/** A generator node: it may `yield` InterruptRequests and gets the person's answer back. */
export type NodeGenerator = (state: ReadonlyGraphState, ctx: NodeContext) => Interruptible;

/** What a router returns: a node name, END, several names (scatter), or Sends (scatter with payloads). */
export type RouterResult = string | readonly (string | Send)[] | Send;

/** A conditional edge's router: a plain function of the state. */
export type Router = (state: ReadonlyGraphState) => RouterResult | Promise<RouterResult>;

/** Retry settings of ErrorPolicy RETRY. */
export interface RetryOptions {
  /** Retries after the first attempt. Default 3. */
  limit?: number;
  /** The first retry's delay; each next one doubles (capped by maxDelayMs). Default 200. */
  baseDelayMs?: number;
  /** Default 5000. */
  maxDelayMs?: number;
}

/** Options of `addNode`. */
export interface NodeOptions {
  /** Shorthand for `addEdge(name, next)`. */
  next?: string;
  /** Agent nodes: what the agent gets as input. Default LAST_MESSAGE. */
  contextMode?: ContextMode;
  /** LAST_N: how many messages. Default 5. */
  contextN?: number;
  /** CUSTOM: builds the agent's input from the state. */
  contextFn?: (state: ReadonlyGraphState) => AgentInput;
  /** SUMMARY: the provider of the summarising call (one call, `summaryMaxTokens` at most). */
  summaryProvider?: Provider;
  /** SUMMARY: the model (default: the provider's default model). */
  summaryModel?: string;
  /** SUMMARY: the summary's token cap. Default 512. */
  summaryMaxTokens?: number;
  /** This node's error policy (default: the graph's). */
  errorPolicy?: ErrorPolicy;
  /** RETRY settings for this node (default: the graph's). */
  retry?: RetryOptions;
  /**
   * Ask a person before the node runs: the run is interrupted with this prompt (true: a default
   * prompt); the answer is in `state.data.__human_input__` when the node runs.
   */
  interruptBefore?: boolean | string;
}

/** Options of `new AgentGraph(…)`. */
export interface AgentGraphOptions {
  /** Shown in events, traces and diagrams. Default `graph`. */
  name?: string;
  /** The error policy of nodes that set none. Default ABORT. */
  errorPolicy?: ErrorPolicy;
  /** RETRY settings of nodes that set none. */
  retry?: RetryOptions;
  /** Node executions per run before a GraphExecutionError. Default 50. */
  maxSteps?: number;
  /** Consecutive steps without a state change before `stall-detected`. Default 3. */
  stallThreshold?: number;
  /** Stop the run once all nodes together used this many tokens. */
  maxTotalTokens?: number;
  /** Stop the run once all nodes together cost this much. */
  maxCostUsd?: number;
  /** Observers of every graph event and every nested agent event. */
  observers?: readonly AgentObserver[];
  /** The store runs use unless they name another; default: an in-memory store of this graph. */
  checkpointStore?: CheckpointStore;
  /** @internal Tests: the sleep of retry backoff. */
  sleep?: Sleep;
}

/** Options of `run`, `stream`, `resume`, `continueThread`. */
export interface GraphRunOptions {
  /** The checkpoint thread (`^[A-Za-z0-9_.-]{1,128}$`). Default: a new id. */
  threadId?: string;
  /**
   * Where checkpoints go: one after every step and one at every interrupt. Without one, the
   * graph's own in-memory store keeps interrupt checkpoints only.
   */
  checkpointStore?: CheckpointStore;
  /** Initial `state.data`. */
  data?: Record<string, unknown>;
  /** Initial `state.metadata`. */
  metadata?: Record<string, unknown>;
  /** Aborts the run (reaches every node and nested agent). */
  signal?: AbortSignal;
  /** Cancels the run (reaches every node and nested agent). */
  cancellationToken?: CancellationToken;
  /** Links the graph run to a parent run. */
  parentRunId?: string;
  /** Overrides of the graph's limits for this run. */
  maxSteps?: number;
  maxTotalTokens?: number;
  maxCostUsd?: number;
  /** Time travel: start from this checkpoint (of `threadId`'s store) instead of the entry. */
  fromCheckpoint?: string;
  /** Time travel: merged into the checkpoint's state before the run goes on. */
  stateUpdate?: Partial<Pick<GraphState, 'data' | 'metadata' | 'messages'>>;
  /** More observers for this run. */
  observers?: readonly AgentObserver[];
  /**
   * `resume` only: answer the interrupt even though another resume claimed it (use it when the
   * process that claimed it died before the run went on). Refused by run and continueThread.
   */
  takeOverClaim?: boolean;
}

/** How a graph run ended. */
export type GraphRunStatus = 'completed' | 'interrupted' | 'budget-exceeded' | 'cancelled';

/** The outcome of `run`, `resume` and `continueThread`. */
export interface GraphResult {
  runId: string;
  threadId: string;
  status: GraphRunStatus;
  /** The last node's output as text. */
  content: string;
  state: GraphState;
  interrupted: boolean;
  /** The first pending interrupt (see `interrupts` for all). */
  interruptId: string | undefined;
  interrupts: PendingInterrupt[];
  /** Usage summed over every node, across resumes. */
  totalUsage: AgentUsage;
  /** Node name → every execution of it, in order. */
  nodeResults: Record<string, NodeResult[]>;
  /** Node executions so far (across resumes). */
  steps: number;
  /** The last checkpoint written (undefined when none was). */
  checkpointId: string | undefined;
  durationMs: number;
}

/** Messages helper type re-exported for node authors. */
export type { Message };
