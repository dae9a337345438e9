import type { AgentEvent } from '../../lib/events/types.js';
import type { AgentObserver } from '../../lib/events/observer.js';
import type { GraphStream } from '../../lib/graph/graph-stream.js';
import type { GraphResult } from '../../lib/graph/types.js';
import type { AgentTrace } from '../../lib/trace/agent-trace.js';
import { GraphRunTrace } from '../../lib/trace/graph-run-trace.js';
import { TraceFileWriter, traceRunFields } from '../../lib/trace/trace-file-writer.js';
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
  readonly #run = new GraphRunTrace({ onOpen: (trace) => this.#open(trace), onStep: (step) => this.#writer?.append(step) });
  #writer: TraceFileWriter | undefined;
  #result: GraphResult | undefined;
  /** Graph runs that continue the traced one in this process (an interrupt answered in the live view). */
  readonly #continuations = new Set<string>();
  readonly #onExit = (): void => this.close();

  /** The observer that records the run's events (graph events and every nested agent's). */
  readonly observer: AgentObserver = { onEvent: (event: AgentEvent): void => this.handle(event) };

  constructor(
    private readonly option: string | boolean | undefined,
    private readonly cwd: string,
  ) {}

  /** Remembers the outcome of `stream` for `finish` (the latest watched run's counts; returns `stream`). */
  watch(stream: GraphStream): GraphStream {
    stream.result.then(
      (result) => {
        this.#result = result;
      },
      () => undefined,
    );
    return stream;
  }

  /**
   * Records one event; the first top-level `graph-start` opens the file. A later top-level graph run
   * (the live view resuming an interrupt in place) goes into the same trace as a nested run of the
   * first, so one file holds the whole command.
   */
  handle(event: AgentEvent): void {
    if (this.option === false) return;
    const recorder = this.#run.recorder;
    if (recorder !== undefined && event.runId !== recorder.trace.runId && event.parentRunId === undefined && (event.type === 'graph-start' || this.#continuations.has(event.runId))) {
      this.#continuations.add(event.runId);
      recorder.handle({ ...event, parentRunId: recorder.trace.runId });
      if (event.type === 'graph-end') recorder.trace.endedAt = event.timestamp;
      return;
    }
    this.#run.handle(event);
  }

  /** The first top-level graph-start: opens the file (as the run goes). */
  #open(trace: AgentTrace): void {
    try {
      this.#writer = TraceFileWriter.open(traceFilePath(this.option, this.cwd, trace.runId), traceRunFields(trace));
      process.once('exit', this.#onExit);
    } catch {
      // not writable: `finish` tries again and reports the problem
    }
  }

  /**
   * Writes the finished trace over the partial file, with the status of the latest watched run's
   * result (`error` when the run threw). Call it once the run has settled. Returns the path as
   * shown to the user, or undefined when nothing was written (`--no-trace`, or no run started).
   */
  finish(): string | undefined {
    const trace = this.#run.finish(this.#result);
    if (trace === undefined) return undefined;
    process.off('exit', this.#onExit);
    const writer = this.#writer ?? TraceFileWriter.open(traceFilePath(this.option, this.cwd, trace.runId), traceRunFields(trace));
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
