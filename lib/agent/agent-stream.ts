import type { AgentEvent } from '../events/types.js';
import type { AgentResult } from './result.js';

/**
 * A running streamed run: iterate it for every AgentEvent (text deltas, tool cards, approvals,
 * usage, …), or use `textStream` for the answer text only; `result` resolves with the
 * AgentResult. The events are consumed once: either iterate the stream or its textStream.
 * Leaving the iteration early (break) aborts the run.
 */
export class AgentStream implements AsyncIterable<AgentEvent> {
  /** Resolves with the run's result (rejects with its error). */
  readonly result: Promise<AgentResult>;
  readonly #queue: AgentEvent[] = [];
  #head = 0;
  #wake: (() => void) | undefined;
  #finished = false;
  #failure: { error: unknown } | undefined;
  #consumed = false;
  readonly #abort: (reason?: unknown) => void;

  /** @internal Created by `Agent.stream()`. */
  constructor(start: (push: (event: AgentEvent) => void) => Promise<AgentResult>, abort: (reason?: unknown) => void) {
    this.#abort = abort;
    this.result = start((event) => this.#push(event)).then(
      (result) => {
        this.#end();
        return result;
      },
      (error: unknown) => {
        this.#failure = { error };
        this.#end();
        throw error;
      },
    );
    // Iterating without awaiting `result` must not raise an unhandled rejection.
    this.result.catch(() => undefined);
  }

  /** Cancels the run. */
  abort(reason?: unknown): void {
    this.#abort(reason);
  }

  #push(event: AgentEvent): void {
    this.#queue.push(event);
    this.#wake?.();
  }

  #end(): void {
    this.#finished = true;
    this.#wake?.();
  }

  async *#events(): AsyncGenerator<AgentEvent> {
    if (this.#consumed) throw new Error('An AgentStream can be consumed once (iterate the stream or its textStream, not both)');
    this.#consumed = true;
    let completed = false;
    try {
      for (;;) {
        while (this.#head < this.#queue.length) {
          const event = this.#queue[this.#head] as AgentEvent;
          this.#queue[this.#head++] = undefined as unknown as AgentEvent; // release delivered events
          yield event;
        }
        if (this.#head > 1024) {
          this.#queue.splice(0, this.#head);
          this.#head = 0;
        }
        if (this.#finished && this.#head >= this.#queue.length) break;
        await new Promise<void>((resolve) => (this.#wake = resolve));
        this.#wake = undefined;
      }
      completed = true;
      if (this.#failure) throw this.#failure.error;
    } finally {
      if (!completed && !this.#finished) this.#abort(new Error('stream consumer stopped'));
    }
  }

  [Symbol.asyncIterator](): AsyncIterator<AgentEvent> {
    return this.#events();
  }

  /** The answer text as it streams (text-delta events only). */
  get textStream(): AsyncIterable<string> {
    const events = this.#events();
    return {
      async *[Symbol.asyncIterator]() {
        for await (const event of events) if (event.type === 'text-delta') yield event.text;
      },
    };
  }
}
