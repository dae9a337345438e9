import { AgentStream } from '../agent/agent-stream.js';
import { generateId } from '../core/ids.js';
import { linkSignals, NEVER_ABORTED } from '../core/linked-signal.js';
import { EventBus } from '../events/bus.js';
import type { AgentObserver } from '../events/observer.js';
import type { StepResult, StepRun } from './step-context.js';

/** Options of `pipeline.run()` and `pipeline.stream()`. */
export interface PipelineRunOptions {
  /** Cancels the run: the running step sees it in `context.signal`, no later step starts. */
  signal?: AbortSignal;
  /** Observers of the run's events (`onStepStart`, `onStepEnd`, …). */
  observers?: readonly AgentObserver[];
  /** The run id (default: a new `pipe_…` id). */
  runId?: string;
}

/** The outcome of a pipeline run. */
export interface PipelineResult<O> {
  /** What the last step returned. */
  output: O;
  /** Every step that finished, in finishing order (steps inside parallel, branch and retry included). */
  steps: StepResult[];
  /** Wall time of the whole run, in milliseconds. */
  durationMs: number;
  runId: string;
}

/** @internal The body of a pipeline: its steps run in order on one StepRun. */
export type PipelineBody<I, O> = (input: I, run: StepRun) => Promise<O>;

/** @internal Runs `body` as one pipeline run, delivering events to `bus`. */
export async function runPipeline<I, O>(name: string, body: PipelineBody<I, O>, input: I, options: PipelineRunOptions, bus: EventBus): Promise<PipelineResult<O>> {
  const runId = options.runId ?? generateId('pipe');
  const run: StepRun = { pipeline: name, bus, results: [], next: 0, signal: options.signal ?? NEVER_ABORTED, runId };
  const started = performance.now();
  const output = await body(input, run);
  await bus.flush();
  return { output, steps: run.results, durationMs: performance.now() - started, runId };
}

/** @internal `pipeline.run()`. */
export function startPipeline<I, O>(name: string, body: PipelineBody<I, O>, input: I, options: PipelineRunOptions = {}): Promise<PipelineResult<O>> {
  return runPipeline(name, body, input, options, new EventBus({ observers: options.observers ?? [] }));
}

/** @internal `pipeline.stream()`: the run's events as an AgentStream whose `result` is the PipelineResult. */
export function streamPipeline<I, O>(name: string, body: PipelineBody<I, O>, input: I, options: PipelineRunOptions = {}): AgentStream<PipelineResult<O>> {
  const link = linkSignals([options.signal], { ownAbort: true });
  const bus = new EventBus({ observers: options.observers ?? [] });
  return new AgentStream<PipelineResult<O>>(
    (push) => {
      bus.subscribe(push);
      return runPipeline(name, body, input, { ...options, signal: link.signal }, bus).finally(() => link.dispose());
    },
    (reason) => link.abort(reason),
  );
}
