import type { AgentEvent } from '../events/types.js';
import type { AgentObserver } from '../events/observer.js';
import type { AgentTrace } from './agent-trace.js';
import type { TraceStep } from './trace-step.js';
import { TraceRecorder } from './recorder.js';
import { DEFAULT_TOOL_RESULT_CHARS, truncateSummary } from './summary.js';

/**
 * The trace of one top-level graph run (run, resume or fork), recorded from its events: the first
 * `graph-start` without a parent run opens it; every step after it — graph nodes, parallel groups,
 * routing, and the steps of the agent runs nested in the nodes — is recorded; events of other
 * top-level runs are left alone. `finish` closes it with the run's outcome.
 */
export class GraphRunTrace {
  #recorder: TraceRecorder | undefined;
  readonly #onStep: ((step: TraceStep) => void) | undefined;
  readonly #onOpen: ((trace: AgentTrace) => void) | undefined;

  /** The observer to give the run's options. */
  readonly observer: AgentObserver = { onEvent: (event: AgentEvent): void => this.handle(event) };

  /** `onOpen` sees the trace when its graph-start arrives; `onStep` every step as it is recorded. */
  constructor(options: { onOpen?: (trace: AgentTrace) => void; onStep?: (step: TraceStep) => void } = {}) {
    this.#onStep = options.onStep;
    this.#onOpen = options.onOpen;
  }

  /** The recorder once the run has started. */
  get recorder(): TraceRecorder | undefined {
    return this.#recorder;
  }

  /** Records one event (see the class). */
  handle(event: AgentEvent): void {
    const recorder = this.#recorder;
    if (recorder !== undefined) {
      recorder.handle(event);
      return;
    }
    if (event.type !== 'graph-start' || event.parentRunId !== undefined) return;
    const opened = new TraceRecorder({ runId: event.runId, metadata: { kind: 'graph', graph: event.graph }, ...(this.#onStep === undefined ? {} : { onStep: this.#onStep }) });
    opened.handle(event);
    this.#recorder = opened;
    this.#onOpen?.(opened.trace);
  }

  /**
   * Closes the trace with the run's result's status (`error` when the run threw: no result), its end
   * time, and its answer as output when no step set one. Undefined when no run started.
   */
  finish(result: { status: string; content: string } | undefined): AgentTrace | undefined {
    const recorder = this.#recorder;
    if (recorder === undefined) return undefined;
    recorder.close();
    const trace = recorder.trace;
    trace.status = result?.status ?? 'error';
    trace.endedAt ??= Date.now();
    if (result !== undefined && trace.output === undefined && result.content !== '') trace.output = truncateSummary(result.content, DEFAULT_TOOL_RESULT_CHARS);
    return trace;
  }
}
