import type { AgentEvent } from '../events/types.js';
import type { AgentResult } from './result.js';

const DONE: IteratorReturnResult<undefined> = Object.freeze({ value: undefined, done: true });

/**
 * A running streamed run: iterate it for every AgentEvent (text deltas, tool cards, approvals,
 * usage, …), or use `textStream` for the answer text only; `result` resolves with the
 * AgentResult (or, for other runs streamed the same way — pipelines, graphs — their result `R`).
 * The events are consumed once: either iterate the stream or its textStream.
 * Leaving the iteration early (break) aborts the run.
 */
export class AgentStream<R = AgentResult> implements AsyncIterable<AgentEvent> {
  /** Resolves with the run's result (rejects with its error). */
  readonly result: Promise<R>;
  #queue: AgentEvent[] = [];
  #head = 0;
  /** The consumer's pending `next()`, when it is waiting for an event (kept as two fields: no allocation per wait). */
  #resolve: ((result: IteratorResult<AgentEvent>) => void) | undefined;
  #reject: ((error: unknown) => void) | undefined;
  readonly #wait = (resolve: (result: IteratorResult<AgentEvent>) => void, reject: (error: unknown) => void): void => {
    if (this.#finished) {
      this.#settleEnd(resolve, reject);
    } else {
      this.#resolve = resolve;
      this.#reject = reject;
    }
  };
  #finished = false;
  #failure: { error: unknown } | undefined;
  #consumed = false;
  #closed = false;
  readonly #abort: (reason?: unknown) => void;

  /** @internal Created by `Agent.stream()` (and `Pipeline.stream()`). */
  constructor(start: (push: (event: AgentEvent) => void) => Promise<R>, abort: (reason?: unknown) => void) {
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
    if (this.#closed) return;
    const resolve = this.#resolve;
    if (resolve !== undefined) {
      // The consumer is waiting: hand the event over directly, no queueing.
      this.#resolve = undefined;
      this.#reject = undefined;
      resolve({ value: event, done: false });
      return;
    }
    this.#queue.push(event);
  }

  #end(): void {
    this.#finished = true;
    const resolve = this.#resolve;
    const reject = this.#reject;
    if (resolve === undefined || reject === undefined) return;
    this.#resolve = undefined;
    this.#reject = undefined;
    this.#settleEnd(resolve, reject);
  }

  #settleEnd(resolve: (result: IteratorResult<AgentEvent>) => void, reject: (error: unknown) => void): void {
    this.#closed = true;
    const failure = this.#failure;
    this.#failure = undefined; // raised once
    if (failure) reject(failure.error);
    else resolve(DONE);
  }

  #next(): Promise<IteratorResult<AgentEvent>> {
    if (this.#head < this.#queue.length) {
      const event = this.#queue[this.#head] as AgentEvent;
      this.#queue[this.#head++] = undefined as unknown as AgentEvent; // release delivered events
      if (this.#head === this.#queue.length) {
        this.#queue = [];
        this.#head = 0;
      } else if (this.#head > 1024) {
        this.#queue.splice(0, this.#head);
        this.#head = 0;
      }
      return Promise.resolve({ value: event, done: false });
    }
    if (this.#closed) return Promise.resolve(DONE);
    return new Promise(this.#wait);
  }

  /** The consumer left early (break, return, throw): stop delivering and cancel a running run. */
  #return(): Promise<IteratorResult<AgentEvent>> {
    const running = !this.#finished;
    this.#closed = true;
    this.#queue = [];
    this.#head = 0;
    if (running) this.#abort(new Error('stream consumer stopped'));
    return Promise.resolve(DONE);
  }

  #iterator(): AsyncIterator<AgentEvent> {
    if (this.#consumed) throw new Error('An AgentStream can be consumed once (iterate the stream or its textStream, not both)');
    this.#consumed = true;
    return { next: () => this.#next(), return: () => this.#return() };
  }

  [Symbol.asyncIterator](): AsyncIterator<AgentEvent> {
    return this.#iterator();
  }

  /** The answer text as it streams (text-delta events only). */
  get textStream(): AsyncIterable<string> {
    return {
      [Symbol.asyncIterator]: (): AsyncIterator<string> => {
        const events = this.#iterator();
        return {
          next: async (): Promise<IteratorResult<string>> => {
            for (;;) {
              const step = await events.next();
              if (step.done === true) return DONE;
              if (step.value.type === 'text-delta') return { value: step.value.text, done: false };
            }
          },
          return: async (): Promise<IteratorResult<string>> => {
            await events.return?.();
            return DONE;
          },
        };
      },
    };
  }
}
