import type { AgentEvent } from '../events/types.js';
import type { GraphResult } from './types.js';

/**
 * A running streamed graph run: iterate it for every event (graph events and every nested agent
 * event, each with `parentRunId` and the node's name); `result` resolves with the GraphResult.
 * Leaving the iteration early (break) cancels the run.
 */
export class GraphStream implements AsyncIterable<AgentEvent> {
  /** Resolves with the run's result (rejects with its error). */
  readonly result: Promise<GraphResult>;
  readonly #queue: AgentEvent[] = [];
  #wake: (() => void) | undefined;
  #finished = false;
  #failure: { error: unknown } | undefined;
  #consumed = false;
  readonly #abort: (reason?: unknown) => void;

  /** @internal Created by `AgentGraph.stream()` / `streamResume()`. */
  constructor(start: (push: (event: AgentEvent) => void) => Promise<GraphResult>, abort: (reason?: unknown) => void) {
    this.#abort = abort;
    this.result = start((event) => {
      this.#queue.push(event);
      this.#notify();
    }).then(
      (result) => {
        this.#finished = true;
        this.#notify();
        return result;
      },
      (error: unknown) => {
        this.#failure = { error };
        this.#finished = true;
        this.#notify();
        throw error;
      },
    );
    this.result.catch(() => undefined);
  }

  /** Cancels the run. */
  abort(reason?: unknown): void {
    this.#abort(reason);
  }

  #notify(): void {
    const wake = this.#wake;
    this.#wake = undefined;
    wake?.();
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<AgentEvent, void, undefined> {
    if (this.#consumed) throw new Error('a GraphStream can be iterated once');
    this.#consumed = true;
    let head = 0;
    try {
      for (;;) {
        while (head < this.#queue.length) yield this.#queue[head++] as AgentEvent;
        if (this.#finished) {
          if (this.#failure) throw this.#failure.error;
          return;
        }
        await new Promise<void>((resolve) => (this.#wake = resolve));
      }
    } finally {
      if (!this.#finished) this.#abort();
    }
  }
}
