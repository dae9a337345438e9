import type { AgentUsageJSON } from '../../core/usage.js';
import type { GraphState } from '../state.js';
import type { NodeResult, PendingInterrupt } from '../records.js';

/** A node the run goes to next (a scatter target carries its payload). */
export interface PendingTarget {
  node: string;
  payload?: unknown;
}

/**
 * Where an interrupted node stopped, enough to enter it again in another process: a generator
 * node's answers so far (replayed at its earlier yields) and the interrupt it waits on; a parallel
 * group's finished members (kept) and interrupted ones; a subgraph's whole run.
 */
export type NodeProgress =
  | { kind: 'generator'; answers: unknown[]; waiting: PendingInterrupt }
  | { kind: 'before'; waiting: PendingInterrupt | null; answered: boolean; answer: unknown; inner: NodeProgress | null }
  | { kind: 'parallel'; members: Record<string, MemberProgress> }
  | { kind: 'subgraph'; run: RunSnapshot };

/** One parallel member (or scatter branch, keyed by its index): done with its outcome, or interrupted with its progress. */
export type MemberProgress =
  | { done: true; outcome: NodeOutcomeJSON }
  | { done: false; progress: NodeProgress };

/** A finished node's outcome as checkpointed. */
export interface NodeOutcomeJSON {
  update: { output?: unknown; data?: Record<string, unknown>; messages?: GraphState['messages']; metadata?: Record<string, unknown> };
  results: NodeResult[];
  usage: AgentUsageJSON;
  errors: GraphState['errors'];
}

/** Everything a run needs to go on: the state, where it goes next, the detectors, the totals. */
export interface RunSnapshot {
  state: GraphState;
  /** The nodes to run next; empty when the run is finished. */
  next: PendingTarget[];
  /** The interrupted node's progress (when `next` holds an interrupted node). */
  progress: NodeProgress | null;
  /** Pending interrupts, outermost first. */
  interrupts: PendingInterrupt[];
  step: number;
  usage: AgentUsageJSON;
  nodeResults: Record<string, NodeResult[]>;
  /** Loop detection: `node:hash` pairs seen. */
  seen: string[];
  /** Stall detection: the hash after the last step, and the consecutive steps without a change. */
  lastHash: string | null;
  stalls: number;
}

/** Why a checkpoint was written. */
export type CheckpointSource = 'input' | 'step' | 'interrupt' | 'fork';

/** One checkpoint: a run snapshot with its place in the thread. */
export interface Checkpoint extends RunSnapshot {
  /** Unique across threads (`ckpt_…`). */
  id: string;
  threadId: string;
  /** The checkpoint this one follows (or was forked from); null for a thread's first. */
  parentId: string | null;
  /** The graph's name. */
  graph: string;
  /** ISO time of writing. */
  createdAt: string;
  source: CheckpointSource;
  status: 'running' | 'interrupted' | 'completed';
  /** The node that ran last (null at input). */
  node: string | null;
}

/** Options of `list`. */
export interface ListCheckpointsOptions {
  /** At most this many (default 100). */
  limit?: number;
  /** Only checkpoints older than this checkpoint id (the previous page's last). */
  before?: string;
}

/** Who is answering an interrupt: taken by `resume` before it runs (see CheckpointStore.claimInterrupt). */
export interface InterruptClaim {
  interruptId: string;
  /** The resuming run's id. */
  owner: string;
  /** ISO time of the claim. */
  claimedAt: string;
}

/**
 * Where graph checkpoints live. Every backend passes test/lib/graph/checkpoint-store-conformance.test.ts.
 * Checkpoints are versioned JSON; state JSON cannot hold is refused by `put` with the path of the value.
 */
export interface CheckpointStore {
  /** Saves a checkpoint (after every step and at every interrupt). */
  put(checkpoint: Checkpoint): Promise<void>;
  /** The thread's newest checkpoint. */
  getLatest(threadId: string): Promise<Checkpoint | undefined>;
  /** A checkpoint by id (any thread). */
  get(checkpointId: string): Promise<Checkpoint | undefined>;
  /** The thread's checkpoints, newest first. */
  list(threadId: string, options?: ListCheckpointsOptions): Promise<Checkpoint[]>;
  /** Every thread id, sorted. */
  threads(): Promise<string[]>;
  /** Deletes a thread's checkpoints (and its interrupt claims); returns how many checkpoints there were. */
  deleteThread(threadId: string): Promise<number>;
  /**
   * Claims `claim.interruptId` (of thread `threadId`), atomically across every process sharing the
   * store, so that two resumes of one interrupt never both run: returns undefined when the claim
   * is taken, or the claim that already holds the interrupt. With `takeOver`, an existing claim
   * is replaced (for a claim left by a process that died mid-resume).
   */
  claimInterrupt(threadId: string, claim: InterruptClaim, takeOver?: boolean): Promise<InterruptClaim | undefined>;
  /** Drops `owner`'s claim on the interrupt; a claim another owner holds is left alone. */
  releaseInterrupt(threadId: string, interruptId: string, owner: string): Promise<void>;
  /** Releases connections. */
  close(): Promise<void>;
}
