import { CancellationError } from '../core/errors/cancellation-error.js';
import type { AgentStream } from '../agent/agent-stream.js';
import { PipelineError } from './pipeline-error.js';
import { startPipeline, streamPipeline, type PipelineRunOptions, type PipelineResult } from './run-pipeline.js';
import type { StepContext, StepRun } from './step-context.js';

/** A step's function: sync or async, given the input and the run's context. */
export type StepFn<I, O> = (input: I, context: StepContext) => O | PromiseLike<O>;

const SUMMARY_LENGTH = 200;

/** A short text of a step's output for events (never the whole value). */
function summarize(output: unknown): string {
  let text: string;
  if (typeof output === 'string') text = output;
  else {
    try {
      text = JSON.stringify(output) ?? String(output);
    } catch {
      text = String(output);
    }
  }
  return text.length > SUMMARY_LENGTH ? `${text.slice(0, SUMMARY_LENGTH)}…` : text;
}

/**
 * One unit of a pipeline: a named function from `I` to `O` (sync or async). Steps compose with
 * `a.pipe(b)` or `pipe(a, b, c)` (the spec's `|`), `parallel(...)`, `branch(...)`, `retry(...)`
 * and `cacheStep(...)`; agents and tools become steps through `step()`. Any step runs on its own
 * with `run()` / `stream()`.
 */
export class Step<I, O> {
  /** The step's name, in events, traces and StepResults. */
  readonly name: string;
  readonly #fn: StepFn<I, O>;

  constructor(name: string, fn: StepFn<I, O>) {
    this.name = name;
    this.#fn = fn;
  }

  /**
   * @internal Runs the step inside a pipeline run: checks cancellation, emits `step-start` and
   * `step-end` (only when someone listens), and records its StepResult.
   */
  async execute(input: I, run: StepRun): Promise<O> {
    if (run.signal.aborted) throw new CancellationError({ message: `pipeline ${run.pipeline} cancelled before step ${this.name}`, reason: run.signal.reason });
    const index = run.next++;
    const bus = run.bus;
    if (bus.hasReceivers('step-start')) {
      const emitted = bus.emit({ type: 'step-start', runId: run.runId, timestamp: Date.now(), pipeline: run.pipeline, step: this.name, index });
      if (emitted) await emitted;
    }
    const started = performance.now();
    const output = await this.#fn(input, run);
    const durationMs = performance.now() - started;
    run.results.push({ name: this.name, durationMs, output });
    if (bus.hasReceivers('step-end')) {
      const emitted = bus.emit({ type: 'step-end', runId: run.runId, timestamp: Date.now(), pipeline: run.pipeline, step: this.name, index, durationMs, output: summarize(output) });
      if (emitted) await emitted;
    }
    return output;
  }

  /** `this`, then `next` on its output (the spec's `a | b`). */
  pipe<N>(next: Step<O, N>): Pipeline<I, N> {
    return Pipeline.of<I, N>([this as Step<unknown, unknown>, next as Step<unknown, unknown>]);
  }

  /** `this`, then the handler that `router` names for its output: `classify.branch(pick, { refund, support })`. */
  branch<K extends string, N>(router: (output: O) => K | PromiseLike<K>, handlers: Readonly<Record<K, Step<O, N>>>, name?: string): Pipeline<I, N> {
    return this.pipe(branchStep(router, handlers, name));
  }

  /** Runs this step alone as a pipeline. */
  run(input: I, options?: PipelineRunOptions): Promise<PipelineResult<O>> {
    return startPipeline(this.name, (value, run) => this.execute(value, run), input, options);
  }

  /** Runs this step alone as a pipeline, streaming its events; `result` resolves with the PipelineResult. */
  stream(input: I, options?: PipelineRunOptions): AgentStream<PipelineResult<O>> {
    return streamPipeline(this.name, (value, run) => this.execute(value, run), input, options);
  }
}

/**
 * Steps run one after another, each on the previous one's output: built by `pipe(a, b, c)` or
 * `a.pipe(b)`. A pipeline is itself a step, so pipelines nest. `run(input)` gives the last
 * output and every StepResult; `stream(input)` gives the events as they happen.
 */
export class Pipeline<I, O> extends Step<I, O> {
  /** The steps, in order (nested pipelines are flattened). */
  readonly steps: readonly Step<unknown, unknown>[];

  readonly #body: (input: I, run: StepRun) => Promise<O>;

  private constructor(name: string, steps: readonly Step<unknown, unknown>[]) {
    const body = async (input: I, run: StepRun): Promise<O> => {
      let value: unknown = input;
      for (const each of steps) value = await each.execute(value, run);
      return value as O;
    };
    super(name, (input, context) => body(input, context as StepRun));
    this.steps = steps;
    this.#body = body;
  }

  /** @internal A pipeline of `steps` (nested pipelines flattened), named after them. */
  static of<I, O>(steps: readonly Step<unknown, unknown>[], name?: string): Pipeline<I, O> {
    if (steps.length === 0) throw new PipelineError('a pipeline needs at least one step');
    const flat = steps.flatMap((each) => (each instanceof Pipeline ? each.steps : [each]));
    return new Pipeline<I, O>(name ?? flat.map((each) => each.name).join(' | '), flat);
  }

  /** @internal A pipeline runs its steps directly: their events and StepResults, none of its own. */
  override execute(input: I, run: StepRun): Promise<O> {
    return this.#body(input, run);
  }

  override pipe<N>(next: Step<O, N>): Pipeline<I, N> {
    return Pipeline.of<I, N>([...this.steps, next as Step<unknown, unknown>]);
  }
}

/**
 * A step that routes its input to one of `handlers` by the key `router` returns; an unknown key
 * is a PipelineError naming the keys there are (never a silent pass-through).
 */
export function branchStep<I, K extends string, O>(router: (input: I) => K | PromiseLike<K>, handlers: Readonly<Record<K, Step<I, O>>>, name = 'branch'): Step<I, O> {
  const keys = Object.keys(handlers);
  return new Step<I, O>(name, async (input, context) => {
    const key = await router(input);
    if (!Object.hasOwn(handlers, key)) throw new PipelineError(`branch ${name}: the router chose ${JSON.stringify(key)}, and the handlers are ${keys.map((k) => JSON.stringify(k)).join(', ')}`, { step: name });
    return handlers[key].execute(input, context as StepRun);
  });
}
