/**
 * Aborts one run from outside (a stream consumer that left) through the run's own linked signal,
 * so that a streamed run needs no AbortController (and AbortSignal) of its own besides it. The run
 * attaches its abort while it runs and detaches it when it ends: an abort after the end does
 * nothing; one before the run attached is applied when it attaches.
 */
export class RunAborter {
  #abort: ((reason: unknown) => void) | undefined;
  #early: { reason: unknown } | undefined;
  #ended = false;

  /** Aborts the run with `reason` (undefined: the AbortController default, an AbortError). */
  abort(reason?: unknown): void {
    if (this.#ended) return;
    if (this.#abort !== undefined) this.#abort(reason);
    else this.#early ??= { reason };
  }

  /** @internal The run starts: `abort` now aborts it. */
  attach(abort: (reason: unknown) => void): void {
    if (this.#ended) return;
    this.#abort = abort;
    const early = this.#early;
    this.#early = undefined;
    if (early !== undefined) abort(early.reason);
  }

  /** @internal The run ended: `abort` does nothing from now on. */
  detach(): void {
    this.#ended = true;
    this.#abort = undefined;
    this.#early = undefined;
  }
}
