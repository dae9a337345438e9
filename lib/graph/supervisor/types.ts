import type { Agent } from '../../agent/agent.js';
import type { AgentObserver } from '../../events/observer.js';
import type { Provider } from '../../providers/spec.js';
import type { CheckpointStore } from '../checkpoint/types.js';
import type { ErrorPolicy } from '../constants.js';
import type { GraphResult, RetryOptions } from '../types.js';

/** How a SupervisorAgent coordinates its agents. */
export const SupervisorStrategy = {
  /** A planner writes an ordered plan of { agent, task } steps; each step runs in turn and sees earlier results. */
  PLAN_AND_EXECUTE: 'plan_and_execute',
  /** The agents take turns until one says (structured output) the task is complete, or maxRounds. */
  ROUND_ROBIN: 'round_robin',
  /** Before every turn a router call (structured output) picks the next agent and its task, or FINISH. */
  DYNAMIC: 'dynamic',
  /** A task ledger (facts and plan) and a progress ledger per round; replans after maxStalls unproductive rounds. */
  MAGENTIC: 'magentic',
} as const;
/** One of SupervisorStrategy's values. */
export type SupervisorStrategy = (typeof SupervisorStrategy)[keyof typeof SupervisorStrategy];

/** REFERENCE.md §1 defaults. */
export const SUPERVISOR_DEFAULTS = { maxRounds: 10, maxStalls: 2 } as const;

/** Options of `new SupervisorAgent(…)`. */
export interface SupervisorOptions {
  /** The agents it coordinates (each name unique; it is the agent's node name). */
  agents: readonly Agent[];
  /** The provider of the supervisor's own calls (plans, routing, ledgers). */
  provider: Provider;
  strategy: SupervisorStrategy;
  /** Model of plans and task ledgers (default: the provider's default model). */
  plannerModel?: string;
  /** Model of the per-round calls: the router (dynamic) and the progress ledger (magentic). Default: the provider's default model. */
  executorModel?: string;
  /** magentic: consecutive unproductive rounds before a replan. Default 2. */
  maxStalls?: number;
  /** Agent turns at most. Default 10. */
  maxRounds?: number;
  /** Shown in events, traces and diagrams. Default `supervisor`. */
  name?: string;
  /**
   * What a failing agent turn does (the graph's ErrorPolicy): ABORT (default) fails the run; RETRY runs
   * the turn again, then aborts; SKIP records the failure and lets the supervisor decide (replan,
   * another agent, or stop).
   */
  errorPolicy?: ErrorPolicy;
  /** RETRY settings. */
  retry?: RetryOptions;
  /** Stop once all calls together used this many tokens. */
  maxTotalTokens?: number;
  /** Stop once all calls together cost this much. */
  maxCostUsd?: number;
  observers?: readonly AgentObserver[];
  checkpointStore?: CheckpointStore;
}

/** One agent turn. */
export interface SupervisorTurn {
  /** 1-based. */
  round: number;
  agent: string;
  task: string;
  status: 'ok' | 'failed';
  /** The agent's answer ('' when it failed). */
  output: string;
  error?: { name: string; message: string };
  /** round_robin: the agent said the task is complete. */
  complete?: boolean;
}

/** A plan step (plan_and_execute). */
export interface PlanStep {
  agent: string;
  task: string;
}

/** magentic: what is known and the plan. */
export interface TaskLedger {
  facts: string[];
  plan: string[];
}

/** magentic: the judgement of one round. */
export interface ProgressLedger {
  requestSatisfied: boolean;
  progressMade: boolean;
  nextAgent: string;
  instruction: string;
  reason: string;
  finalAnswer?: string | undefined;
}

/** Why a supervisor run stopped. */
export type SupervisorFinish = 'finished' | 'max-rounds';

/** The supervisor's record in `state.data.__supervisor__` (JSON; checkpointed with the state). */
export interface SupervisorRecord {
  strategy: SupervisorStrategy;
  /** The user's request. */
  request: string;
  turns: SupervisorTurn[];
  /** The next turn (undefined once it is finished). */
  next?: { agent: string; task: string } | undefined;
  /** `state.errors` entries already accounted for. */
  errorsSeen: number;
  plan?: PlanStep[];
  /** The plan step to run next. */
  cursor?: number;
  ledger?: TaskLedger;
  progress?: ProgressLedger[];
  stalls: number;
  replans: number;
  finish?: SupervisorFinish;
  answer?: string;
}

/** A supervisor run's outcome: the graph run's result plus the supervisor's record. */
export interface SupervisorResult extends GraphResult {
  strategy: SupervisorStrategy;
  turns: SupervisorTurn[];
  /** The failed turns (each one also in `state.errors` and the trace). */
  failures: SupervisorTurn[];
  plan: PlanStep[] | undefined;
  ledger: TaskLedger | undefined;
  replans: number;
  finish: SupervisorFinish | undefined;
}

/** The data key of the supervisor's record. */
export const SUPERVISOR_KEY = '__supervisor__';
/** The supervisor's node name. */
export const SUPERVISOR_NODE = 'supervisor';
/** What the dynamic router returns to end the run. */
export const FINISH = 'FINISH';
