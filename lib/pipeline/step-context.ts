import type { EventBus } from '../events/bus.js';

/** What a step's function receives beside its input. */
export interface StepContext {
  /** Aborted when the pipeline run is cancelled; pass it on to agents, fetch, child processes. */
  readonly signal: AbortSignal;
  /** The pipeline run's id (nested agent runs get it as their `parentRunId`). */
  readonly runId: string;
}

/** One step's record in a pipeline run. */
export interface StepResult<O = unknown> {
  /** The step's name. */
  name: string;
  /** Wall time of the step, in milliseconds. */
  durationMs: number;
  /** What the step returned. */
  output: O;
}

/** @internal The state of one pipeline run that every step execution shares. */
export interface StepRun extends StepContext {
  /** The pipeline's name, in events. */
  readonly pipeline: string;
  readonly bus: EventBus;
  /** Every finished step, in the order they finished (nested steps included). */
  readonly results: StepResult[];
  /** Counter of step executions, for the `index` of step events. */
  next: number;
}
