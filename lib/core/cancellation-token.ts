import { CancellationError } from './errors/cancellation-error.js';

/**
 * A reusable cancellation flag. `set()` aborts the current `signal`, which reaches provider calls
 * and tools; `reset()` arms a fresh signal so the token can be used for another run.
 */
export class CancellationToken {
  #controller = new AbortController();

  /** The AbortSignal of the current cycle; replaced by `reset()`. */
  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  /** Requests cancellation. Idempotent. */
  set(reason?: unknown): void {
    if (!this.#controller.signal.aborted) {
      this.#controller.abort(reason ?? new CancellationError());
    }
  }

  /** Whether cancellation has been requested. */
  isSet(): boolean {
    return this.#controller.signal.aborted;
  }

  /** Clears the flag so the token can be reused. */
  reset(): void {
    if (this.#controller.signal.aborted) this.#controller = new AbortController();
  }

  /** Throws a CancellationError when set. */
  throwIfSet(): void {
    if (this.isSet()) throw new CancellationError({ reason: this.#controller.signal.reason });
  }
}
