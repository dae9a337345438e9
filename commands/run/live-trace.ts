import type { AgentResult } from '../../lib/agent/result.js';
import type { AgentEvent } from '../../lib/events/types.js';
import { TraceRecorder } from '../../lib/trace/recorder.js';
import { TraceFileWriter, traceRunFields } from '../../lib/trace/trace-file-writer.js';
import { saveTrace, shownTracePath, traceFilePath } from './save-trace.js';

/**
 * The trace file of one CLI run, written while the run goes on (`agentlib run`, each turn of
 * `agentlib chat`): feed it the run's events; the first `run-start` opens the file (see
 * TraceFileWriter) and each step is appended as it is recorded, so a killed process leaves the
 * steps so far, marked incomplete. `finish` replaces it with the run's own trace. With
 * `option === false` (`--no-trace`) nothing is written.
 */
export class LiveTrace {
  #recorder: TraceRecorder | undefined;
  #writer: TraceFileWriter | undefined;
  /** On `process.exit` (a second Ctrl+C), the queued steps are written before the process ends. */
  readonly #onExit = (): void => this.close();

  constructor(
    private readonly option: string | boolean | undefined,
    private readonly cwd: string,
  ) {}

  /** Records one event of the run (cheap for text deltas). */
  handle(event: AgentEvent): void {
    if (this.option === false) return;
    if (this.#recorder === undefined) {
      if (event.type !== 'run-start') return;
      const recorder = new TraceRecorder({
        runId: event.runId,
        ...(event.parentRunId === undefined ? {} : { parentRunId: event.parentRunId }),
        onStep: (step) => this.#writer?.append(step),
      });
      recorder.handle(event);
      this.#recorder = recorder;
      try {
        this.#writer = TraceFileWriter.open(traceFilePath(this.option, this.cwd, event.runId), traceRunFields(recorder.trace));
        process.once('exit', this.#onExit);
      } catch {
        // not writable now: `finish` writes the trace the usual way and reports the problem
      }
      return;
    }
    this.#recorder.handle(event);
  }

  /**
   * Writes the run's finished trace over the partial file: the result's trace, or (a run that failed
   * without a result) the one recorded here from the events. Returns its path as shown to the user,
   * or undefined when nothing was written (`--no-trace`, or no run and no result).
   */
  async finish(result: AgentResult | undefined): Promise<string | undefined> {
    const writer = this.#writer;
    const recorder = this.#recorder;
    this.#writer = undefined;
    process.off('exit', this.#onExit);
    if (writer === undefined || recorder === undefined || (result !== undefined && result.runId !== recorder.trace.runId)) {
      writer?.close();
      return result === undefined ? undefined : saveTrace(result, this.option, this.cwd);
    }
    if (result === undefined) recorder.close();
    writer.finish((result?.trace ?? recorder.trace).toJSON());
    return shownTracePath(writer.path, this.cwd);
  }

  /** Writes what is queued and leaves the file as it is (incomplete), e.g. when the process must exit now. */
  close(): void {
    process.off('exit', this.#onExit);
    this.#writer?.close();
    this.#writer = undefined;
  }
}
