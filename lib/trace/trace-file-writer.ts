import { closeSync, mkdirSync, openSync, renameSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { traceHeader, traceToJSONL } from './jsonl.js';
import { type AgentTraceJSON, type TraceHeader, type TraceRunFields, type TraceStep } from './trace-step.js';

/** The run fields of a trace (everything but its steps), for the header line of {@link TraceFileWriter.open}. */
export function traceRunFields(trace: { toJSON(): AgentTraceJSON }): TraceRunFields {
  const { steps: _steps, version: _version, ...run } = trace.toJSON();
  return run;
}

/**
 * Writes a trace file while its run goes on, so a run that is killed (SIGTERM, SIGKILL, a crash)
 * still leaves a readable trace: `open` writes the header line, marked `"incomplete":true`;
 * `append` queues each step as it is recorded, and the queue is written once per event-loop turn
 * (one write call of whole lines, so a kill cuts at most the last line, which readers drop);
 * `finish` replaces the file with the finished trace (written beside it, then renamed over it, so
 * the file is always either the partial or the whole trace). A step changed after it was appended
 * (a graph node's end) shows its final form only after `finish`.
 */
export class TraceFileWriter {
  readonly path: string;
  #fd: number | undefined;
  #queue: TraceStep[] = [];
  #scheduled: NodeJS.Immediate | undefined;

  private constructor(path: string, fd: number) {
    this.path = path;
    this.#fd = fd;
  }

  /** Creates (or truncates) `path`, creating its directory, and writes the header of `run` marked incomplete. */
  static open(path: string, run: TraceRunFields): TraceFileWriter {
    mkdirSync(dirname(path), { recursive: true });
    const fd = openSync(path, 'w');
    const header: TraceHeader = { ...traceHeader(run), incomplete: true };
    writeSync(fd, `${JSON.stringify(header)}\n`);
    return new TraceFileWriter(path, fd);
  }

  /** Queues a step; it is written at the end of the current event-loop turn. Ignored once closed. */
  append(step: TraceStep): void {
    if (this.#fd === undefined) return;
    this.#queue.push(step);
    this.#scheduled ??= setImmediate(() => this.flush());
  }

  /** Writes the queued steps now. */
  flush(): void {
    if (this.#scheduled !== undefined) clearImmediate(this.#scheduled);
    this.#scheduled = undefined;
    if (this.#fd === undefined || this.#queue.length === 0) return;
    let text = '';
    for (const step of this.#queue) text += `${JSON.stringify(step)}\n`;
    this.#queue = [];
    writeSync(this.#fd, text);
  }

  /** Writes what is queued and closes the file, leaving it marked incomplete. */
  close(): void {
    this.flush();
    if (this.#fd !== undefined) closeSync(this.#fd);
    this.#fd = undefined;
  }

  /** Closes the file and replaces it with the finished trace (atomically: a temporary file renamed over it). */
  finish(trace: AgentTraceJSON): void {
    this.close();
    const temporary = `${this.path}.${process.pid}.tmp`;
    try {
      writeFileSync(temporary, traceToJSONL(trace), 'utf8');
      renameSync(temporary, this.path);
    } catch (error) {
      rmSync(temporary, { force: true });
      throw error;
    }
  }
}
