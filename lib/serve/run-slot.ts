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
  /**
   * Monotonic ms after which the tracker aborts the request with a 408 if its body is still being
   * read; Infinity once the body is in.
   */
  bodyDeadline: number;
  #released = false;
  #releaseRequested = false;
  #pending = 0;
  #reason: HttpError | undefined;
  /**
   * The rejecters of the races waiting now (forgotten whenever no work is pending): `abort` calls
   * them. Races come one at a time on the routes, so the first has a field of its own.
   */
  #racer: ((reason: HttpError) => void) | undefined;
  #moreRacers: ((reason: HttpError) => void)[] | undefined;
  #settled: Promise<void> | undefined;
  #resolveSettled: (() => void) | undefined;
  readonly #settle = (): void => {
    this.#pending -= 1;
    // Settled races are forgotten: a slot that still pointed at one would keep the run's result
    // reachable through garbage collections (and get it promoted), which costs more than the race.
    if (this.#pending === 0) {
      this.#racer = undefined;
      this.#moreRacers = undefined;
    }
    this.#maybeRelease();
  };

  /** @internal Created by RunTracker.acquire. */
  constructor(deadline: number, bodyDeadline: number, onRelease: (slot: RunSlot) => void) {
    this.deadline = deadline;
    this.bodyDeadline = bodyDeadline;
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
    const first = this.#racer;
    const more = this.#moreRacers;
    this.#racer = undefined;
    this.#moreRacers = undefined;
    first?.(reason);
    if (more !== undefined) for (const reject of more) reject(reason);
  }

  /**
   * Reads the request body with `read` (given the slot's signal, which a reader must honour: it is
   * aborted on the request timeout, the body deadline, a drain), under the body deadline. The
   * reader must settle on every path, or the slot is held until it does.
   */
  async readBody<T>(read: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const body = await this.race(read(this.#controller.signal));
    this.bodyDeadline = Infinity;
    return body;
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
    // listener and no Promise.race (several times dearer on this hot path).
    return new Promise<T>((resolve, reject) => {
      if (this.#racer === undefined) this.#racer = reject;
      else (this.#moreRacers ??= []).push(reject);
      work.then(this.#settle, this.#settle);
      work.then(resolve, reject);
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
