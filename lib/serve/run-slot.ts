import type { HttpError } from './http-error.js';

/**
 * One admitted request: its AbortController (aborted with an HttpError reason on timeout, client
 * disconnect or shutdown) and the work it tracks. Released once the tracked work settles, so the
 * concurrency count stays true even when the response went out early (504). Deadlines are
 * enforced by the RunTracker's sweep, so a request costs no timer of its own.
 */
export class RunSlot {
  readonly #controller = new AbortController();
  readonly #onRelease: (slot: RunSlot) => void;
  /** Monotonic ms (performance.now) after which the tracker aborts the request with a 504. */
  readonly deadline: number;
  #released = false;
  #releaseRequested = false;
  #pending = 0;
  #aborted: Promise<never> | undefined;
  readonly #settle = (): void => {
    this.#pending -= 1;
    this.#maybeRelease();
  };
  #resolveSettled!: () => void;
  /** Resolves when the slot is released. */
  readonly settled = new Promise<void>((resolve) => {
    this.#resolveSettled = resolve;
  });

  /** @internal Created by RunTracker.acquire. */
  constructor(deadline: number, onRelease: (slot: RunSlot) => void) {
    this.deadline = deadline;
    this.#onRelease = onRelease;
  }

  /** Aborted when the run must stop; `reason` is an HttpError. */
  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  /** Stops the request's run (first reason wins). */
  abort(reason: HttpError): void {
    if (!this.#controller.signal.aborted) this.#controller.abort(reason);
  }

  /**
   * Waits for `work` unless the slot is aborted first (then throws the abort reason, without
   * waiting for work that ignores the signal). The slot stays held until `work` settles.
   */
  race<T>(work: Promise<T>): Promise<T> {
    this.#pending += 1;
    work.then(this.#settle, this.#settle);
    const signal = this.#controller.signal;
    if (signal.aborted) return Promise.reject(signal.reason as HttpError);
    this.#aborted ??= new Promise<never>((_, reject) => {
      signal.addEventListener('abort', () => reject(signal.reason as HttpError), { once: true });
    });
    return Promise.race([work, this.#aborted]);
  }

  /** Gives the slot back now, or once the work it tracks settles. Idempotent. */
  release(): void {
    this.#releaseRequested = true;
    this.#maybeRelease();
  }

  #maybeRelease(): void {
    if (!this.#releaseRequested || this.#pending > 0 || this.#released) return;
    this.#released = true;
    // A rejection nobody awaits any more (the race already settled) is not an error.
    this.#aborted?.catch(() => undefined);
    this.#onRelease(this);
    this.#resolveSettled();
  }
}
