import { handOverSignal } from '../core/linked-signal.js';
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
  #reason: HttpError | undefined;
  /** The rejecters of the races waiting now: `abort` calls them. */
  #racers: ((reason: HttpError) => void)[] = [];
  #settled: Promise<void> | undefined;
  #resolveSettled: (() => void) | undefined;
  readonly #settle = (): void => {
    this.#pending -= 1;
    this.#maybeRelease();
  };

  /** @internal Created by RunTracker.acquire. */
  constructor(deadline: number, onRelease: (slot: RunSlot) => void) {
    this.deadline = deadline;
    this.#onRelease = onRelease;
  }

  /** Aborted when the run must stop; `reason` is an HttpError. */
  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  /**
   * The signal for the request's one non-streaming run, handed over to it (`handOverSignal`): the
   * run uses it as its own signal instead of linking a new one to it. Same signal as `signal`.
   */
  runSignal(): AbortSignal {
    return handOverSignal(this.#controller);
  }

  /** Resolves when the slot is released (made on demand: only a drain waits for it). */
  get settled(): Promise<void> {
    if (this.#released) return Promise.resolve();
    this.#settled ??= new Promise<void>((resolve) => {
      this.#resolveSettled = resolve;
    });
    return this.#settled;
  }

  /** Stops the request's run (first reason wins). */
  abort(reason: HttpError): void {
    if (this.#reason !== undefined) return;
    this.#reason = reason;
    this.#controller.abort(reason);
    for (const reject of this.#racers.splice(0)) reject(reason);
  }

  /**
   * Waits for `work` unless the slot is aborted first (then throws the abort reason, without
   * waiting for work that ignores the signal). The slot stays held until `work` settles.
   */
  race<T>(work: Promise<T>): Promise<T> {
    this.#pending += 1;
    if (this.#reason !== undefined) {
      work.then(this.#settle, this.#settle);
      return Promise.reject(this.#reason);
    }
    // Only `abort` aborts the controller, so it rejects the waiting races itself: no abort
    // listener and no Promise.race (several times dearer on this hot path). A settled race is
    // forgotten at once: a slot that still pointed at it would keep the run's result alive
    // through garbage collections (and get it promoted), which costs more than the race.
    return new Promise<T>((resolve, reject) => {
      const racers = this.#racers;
      racers.push(reject);
      const done = (): void => {
        const index = racers.indexOf(reject);
        if (index !== -1) racers.splice(index, 1);
        this.#settle();
      };
      work.then(
        (value) => {
          done();
          resolve(value);
        },
        (error: Error) => {
          done();
          reject(error); // passed on as it is
        },
      );
    });
  }

  /** Gives the slot back now, or once the work it tracks settles. Idempotent. */
  release(): void {
    this.#releaseRequested = true;
    this.#maybeRelease();
  }

  #maybeRelease(): void {
    if (!this.#releaseRequested || this.#pending > 0 || this.#released) return;
    this.#released = true;
    this.#onRelease(this);
    this.#resolveSettled?.();
  }
}
