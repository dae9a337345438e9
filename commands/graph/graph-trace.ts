import type { AgentEvent } from '../../lib/events/types.js';
import type { AgentObserver } from '../../lib/events/observer.js';
import type { GraphStream } from '../../lib/graph/graph-stream.js';
import type { GraphResult } from '../../lib/graph/types.js';
import type { AgentTrace } from '../../lib/trace/agent-trace.js';
import { TraceRecorder } from '../../lib/trace/recorder.js';
import { DEFAULT_TOOL_RESULT_CHARS, truncateSummary } from '../../lib/trace/summary.js';
import { TraceFileWriter } from '../../lib/trace/trace-file-writer.js';
import type { TraceRunFields } from '../../lib/trace/trace-step.js';
import { shownTracePath, traceFilePath } from '../run/save-trace.js';

/**
 * The trace file of one `agentlib graph run|resume|fork`, written as the run goes like
 * `agentlib run`'s (see LiveTrace): the top-level `graph-start` opens
 * `.agentlib/traces/<graphRunId>.jsonl` (or the `--trace` file), every step — graph nodes, parallel
 * groups, routing, and the steps of the agent runs nested in the nodes — is appended as it is
 * recorded, and `finish` replaces the file with the whole trace. `--no-trace` (`option === false`)
 * writes nothing. Give `observer` to the run's options.
 */
export class GraphTrace {
  #recorder: TraceRecorder | undefined;
  #writer: TraceFileWriter | undefined;
  #result: GraphResult | undefined;
  readonly #onExit = (): void => this.close();

  /** The observer that records the run's events (graph events and every nested agent's). */
  readonly observer: AgentObserver = { onEvent: (event: AgentEvent): void => this.handle(event) };

  constructor(
    private readonly option: string | boolean | undefined,
    private readonly cwd: string,
  ) {}

  /** Remembers the outcome of `stream` for `finish` (returns `stream`). */
  watch(stream: GraphStream): GraphStream {
    stream.result.then(
      (result) => {
        this.#result = result;
      },
      () => undefined,
    );
    return stream;
  }

  /** Records one event; the first top-level `graph-start` opens the file. */
  handle(event: AgentEvent): void {
    if (this.option === false) return;
    if (this.#recorder === undefined) {
      if (event.type !== 'graph-start' || event.parentRunId !== undefined) return;
      const recorder = new TraceRecorder({ runId: event.runId, metadata: { kind: 'graph', graph: event.graph }, onStep: (step) => this.#writer?.append(step) });
      recorder.handle(event);
      this.#recorder = recorder;
      try {
        this.#writer = TraceFileWriter.open(traceFilePath(this.option, this.cwd, event.runId), runFields(recorder.trace));
        process.once('exit', this.#onExit);
      } catch {
        // not writable: `finish` tries again and reports the problem
      }
      return;
    }
    this.#recorder.handle(event);
  }

  /**
   * Writes the finished trace over the partial file, with the status of the watched run's result
   * (`failed` when the run threw or has no result). Call it once the run has settled. Returns the path as shown to the user, or undefined when nothing was written
   * (`--no-trace`, or the run never started).
   */
  finish(): string | undefined {
    const result = this.#result;
    const recorder = this.#recorder;
    if (recorder === undefined) return undefined;
    process.off('exit', this.#onExit);
    recorder.close();
    const trace = recorder.trace;
    trace.status = result?.status ?? 'failed';
    trace.endedAt ??= Date.now();
    if (result !== undefined && trace.output === undefined && result.content !== '') trace.output = truncateSummary(result.content, DEFAULT_TOOL_RESULT_CHARS);
    const writer = this.#writer ?? TraceFileWriter.open(traceFilePath(this.option, this.cwd, trace.runId), runFields(trace));
    this.#writer = undefined;
    writer.finish(trace.toJSON());
    return shownTracePath(writer.path, this.cwd);
  }

  /** Writes what is queued and leaves the file incomplete (the process must exit now). */
  close(): void {
    process.off('exit', this.#onExit);
    this.#writer?.close();
    this.#writer = undefined;
  }
}

/** The run fields of a trace, for the header line. */
function runFields(trace: AgentTrace): TraceRunFields {
  const { steps: _steps, version: _version, ...run } = trace.toJSON();
  return run;
}
